// arbiter: runs engine-vs-engine matches with a cutechess-cli style command line
// (docs/arbiter.md).

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/match.hpp"
#include "tools/arbiter/tak_adapter.hpp"

namespace {

int usage_error(const std::string& message) {
    std::fputs(fmt::format("arbiter: error: {}\n(arbiter -help lists the flags)\n", message).c_str(), stderr);
    return bge::arbiter::exit_usage;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace bge::arbiter;
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    auto command_line = parse_command_line(arguments);
    if (!command_line) return usage_error(command_line.error());
    if (command_line->help) {
        std::fputs(help_text().c_str(), stdout);
        return exit_complete;
    }
    const MatchConfig& config = command_line->config;
    if (config.game == "tak") return run_match<TakAdapter>(config);
    for (std::string_view planned : {"gomoku", "twixt", "ur", "expendibots"})
        if (config.game == planned)
            return usage_error(fmt::format("-game {}: not implemented yet (only tak is)", planned));
    return usage_error(
        fmt::format("-game {}: unknown game (known: tak; planned: gomoku, twixt, ur, expendibots)", config.game));
}
