// gui: the family's browser GUI (docs/gui.md). Parses the command line, then serves the page;
// with `watch`, also runs a match through the arbiter's library and shows it live; with
// `watch --feed`, shows a match a running arbiter reports on its live feed.

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/version.hpp"
#include "tools/arbiter/command_line.hpp"
#include "tools/gui/feed_watch.hpp"
#include "tools/gui/gui_options.hpp"
#include "tools/gui/hub.hpp"
#include "tools/gui/live_match.hpp"
#include "tools/gui/web_server.hpp"

int main(int argc, char** argv) {
    using namespace bge::gui;
    if (bge::print_version_if_asked(argc, argv, "gui")) return 0;
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
    if (!options->watch_feed.empty()) {
        FeedWatchOptions feed;
        feed.server = options->server;
        feed.static_folder = options->static_folder;
        feed.feed = options->watch_feed;
        return run_feed_watch(feed);
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

    if (match) {
        LiveMatchOptions live;
        live.server = options->server;
        live.static_folder = options->static_folder;
        return run_live_match(live, *match);
    }

    // Installed (or in build/bin), the family's engines sit beside gui: offer them when no engine
    // was named, so `gui` alone is ready to play.
    if (options->engines.empty()) {
        std::error_code error;
        const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
        if (!error && add_family_engines(*options, self.parent_path().string()) > 0)
            std::fputs(fmt::format("gui: no engine named: offering the family's engines in {}\n",
                                   self.parent_path().string())
                           .c_str(),
                       stderr);
    }
    Hub hub(options->engines);
    WebServer server(options->server, StaticFiles(options->static_folder),
                     hub.handlers());
    if (auto status = server.listen(); !status) {
        std::fputs(fmt::format("gui: error: {}\n", status.error()).c_str(), stderr);
        return 1;
    }
    std::fputs(fmt::format("gui: serving {}\n", server.address()).c_str(), stdout);
    std::fflush(stdout);
    server.run(true);
    hub.close_all();
    return 0;
}
