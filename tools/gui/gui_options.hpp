#pragma once
// The GUI's command line and config file (docs/gui.md, "Running it"). Engines come only from
// here: the page picks one by name and never sends a command line.

#include <string>
#include <vector>

#include "core/expected.hpp"
#include "tools/gui/session.hpp"
#include "tools/gui/web_server.hpp"

namespace bge::gui {

struct GuiOptions {
    bool help = false;
    ServerOptions server;
    std::vector<EngineEntry> engines;
    std::string static_folder;               // empty: the built-in page
    std::vector<std::string> watch_arguments;  // `watch ...`: a match's arbiter flags
    bool watch = false;
    std::string watch_feed;  // `watch --feed FILE|-`: a running arbiter's live feed
};

Expected<GuiOptions> parse_gui_options(const std::vector<std::string>& arguments);
// Adds the family's engines (tak, gomoku, twixt, ur, expendibots) found in `folder`, each named
// after its game; returns how many.
int add_family_engines(GuiOptions& options, const std::string& folder);
std::string gui_help_text();

// "game=tak cmd=build/bin/tak name=tak" (arbiter -engine keys plus game=) -> an engine entry.
Expected<EngineEntry> parse_engine_entry(const std::vector<std::string>& words);
// Splits at spaces; "double quotes" group words and are removed.
std::vector<std::string> split_quoted(std::string_view text);

}  // namespace bge::gui
