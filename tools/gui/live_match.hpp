#pragma once
// A match played through the arbiter's library while the GUI's server shows it live: the watch
// page of `gui watch <arbiter flags>`. (`arbiter -live` hands its live feed to `gui watch --feed`,
// feed_watch.hpp, instead: the arbiter links nothing of the GUI.)

#include <optional>
#include <string>

#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/journal.hpp"
#include "tools/gui/web_server.hpp"

namespace bge::gui {

struct LiveMatchOptions {
    ServerOptions server;
    std::string static_folder;
};

// Plays the match (resuming `resume` when given) and serves its watch page, which stays up after
// the match until Ctrl-C; returns the arbiter's exit status for the match, or 1 when the server
// cannot listen, 2 for an unknown game.
int run_live_match(const LiveMatchOptions& options, const arbiter::CommandLine& match,
                   const std::optional<arbiter::JournalContents>& resume = std::nullopt);

}  // namespace bge::gui
