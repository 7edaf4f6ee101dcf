#pragma once
// A match played through the arbiter's library while the GUI's server shows it live: the watch
// page of `gui watch <arbiter flags>` and of `arbiter ... -live PORT`.

#include <cstdio>
#include <optional>
#include <string>

#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/journal.hpp"
#include "tools/gui/web_server.hpp"

namespace bge::gui {

struct LiveMatchOptions {
    ServerOptions server;
    std::string static_folder;
    // gui watch: the page stays up after the match until Ctrl-C. arbiter -live: the arbiter ends
    // with the match, as it does without -live.
    bool serve_after_match = true;
    std::FILE* announce = stdout;  // where "serving http://..." goes (the arbiter keeps stdout for results)
    std::string program = "gui";
};

// Plays the match (resuming `resume` when given) and serves its watch page; returns the
// arbiter's exit status for the match, or 1 when the server cannot listen, 2 for an unknown game.
int run_live_match(const LiveMatchOptions& options, const arbiter::CommandLine& match,
                   const std::optional<arbiter::JournalContents>& resume = std::nullopt);

}  // namespace bge::gui
