#include "tools/gui/live_match.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "tools/arbiter/match.hpp"
#include "tools/gui/game_factory.hpp"
#include "tools/gui/hub.hpp"

namespace bge::gui {

int run_live_match(const LiveMatchOptions& options, const arbiter::CommandLine& match,
                   const std::optional<arbiter::JournalContents>& resume) {
    const GameFactory* factory = factory_for(match.config.game);
    if (!factory) {
        std::fputs(fmt::format("gui: error: -game {}: unknown game (known: tak, gomoku, twixt, ur, expendibots)\n",
                               match.config.game)
                       .c_str(),
                   stderr);
        return arbiter::exit_usage;
    }
    Hub hub({});
    WebServer server(options.server, StaticFiles(options.static_folder),
                     hub.handlers());
    if (auto status = server.listen(); !status) {
        std::fputs(fmt::format("gui: error: {}\n", status.error()).c_str(), stderr);
        return arbiter::exit_stopped;
    }
    std::fputs(fmt::format("gui: serving {}\n", server.address()).c_str(), stdout);
    std::fflush(stdout);

    auto watch = hub.add_shared_session([&](std::int64_t id) { return factory->new_watch(id, match.config); },
                                        match.config.game);
    int status = 0;
    std::jthread match_thread([&] {
        status = factory->run_match(*watch, match.config, match.arguments, resume);
        std::fputs(fmt::format("gui: the match ended (arbiter status {}); the page still shows it. Ctrl-C ends the gui.\n",
                               status)
                       .c_str(),
                   stderr);
        // The arbiter's handler takes SIGINT/SIGTERM: once one came (during the match or after
        // it), the server stops too.
        while (!arbiter::interrupt_requested.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        server.stop();
    });
    server.run(false);
    match_thread.join();
    hub.close_all();
    return status;
}

}  // namespace bge::gui
