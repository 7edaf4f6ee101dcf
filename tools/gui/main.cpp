// gui: the family's browser GUI (docs/gui.md). Parses the command line, then serves the page;
// with `watch`, also runs a match through the arbiter's library and shows it live.

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/match.hpp"
#include "tools/gui/game_factory.hpp"
#include "tools/gui/gui_options.hpp"
#include "tools/gui/hub.hpp"
#include "tools/gui/web_server.hpp"

int main(int argc, char** argv) {
    using namespace bge::gui;
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    auto options = parse_gui_options(arguments);
    if (!options) {
        std::fputs(fmt::format("gui: error: {}\n", options.error()).c_str(), stderr);
        return 2;
    }
    if (options->help) {
        std::fputs(gui_help_text().c_str(), stdout);
        return 0;
    }
    std::optional<bge::arbiter::CommandLine> match;
    if (options->watch) {
        auto parsed = bge::arbiter::parse_command_line(options->watch_arguments);
        if (!parsed) {
            std::fputs(fmt::format("gui: error: watch: {}\n", parsed.error()).c_str(), stderr);
            return 2;
        }
        if (parsed->help) {
            std::fputs(bge::arbiter::help_text().c_str(), stdout);
            return 0;
        }
        match = std::move(*parsed);
    }

    Hub hub(options->engines);
    WebServer server(options->server, StaticFiles(options->static_folder),
                     ServerHandlers{[&](const auto& client) { hub.opened(client); },
                                    [&](const auto& client, std::string_view text) { hub.message(client, text); },
                                    [&](const auto& client) { hub.closed(client); }});
    if (auto status = server.listen(); !status) {
        std::fputs(fmt::format("gui: error: {}\n", status.error()).c_str(), stderr);
        return 1;
    }
    const std::string host = options->server.host.find(':') != std::string::npos ? "[" + options->server.host + "]"
                                                                                   : options->server.host;
    std::fputs(fmt::format("gui: serving http://{}:{}/\n", host, server.port()).c_str(), stdout);
    std::fflush(stdout);

    std::jthread match_thread;
    if (match) {
        const GameFactory* factory = factory_for(match->config.game);
        if (!factory) {
            std::fputs(fmt::format("gui: error: watch: unknown game '{}'\n", match->config.game).c_str(), stderr);
            return 2;
        }
        auto watch = hub.add_shared_session(
            [&](std::int64_t id) { return factory->new_watch(id, match->config); }, match->config.game);
        match_thread = std::jthread([factory, watch, &match, &server] {
            const int status = factory->run_match(*watch, match->config, match->arguments);
            std::fputs(fmt::format("gui: the match ended (arbiter status {}); the page still shows it. Ctrl-C ends the gui.\n", status).c_str(),
                       stderr);
            // The arbiter's handler took SIGINT/SIGTERM: once one came (during the match or
            // after it), the server stops too.
            while (!bge::arbiter::interrupt_requested.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
            server.stop();
        });
    }
    // In watch mode the arbiter's own handler takes SIGINT: it ends the match cleanly first.
    server.run(!match);
    return 0;
}
