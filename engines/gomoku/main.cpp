// The Gomoku engine: UGI on stdin/stdout, or the Gomocup pbrain protocol when the first command is
// a pbrain one (docs/protocol.md, docs/gomoku.md).

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engines/gomoku/engine_spec.hpp"
#include "engines/gomoku/playout.hpp"
#include "protocol/engine_main.hpp"
#include "protocol/text.hpp"

namespace {

constexpr const char* help_text =
    "Usage: gomoku [COMMAND]...\n"
    "  or:  gomoku playouts [N] [SIZE]\n"
    "A Gomoku and renju engine speaking UGI and the Gomocup pbrain protocol. With no COMMAND it reads\n"
    "protocol commands from standard input (UGI, or pbrain when the first command is a pbrain one\n"
    "such as START 15); otherwise it runs each COMMAND as a UGI command, then exits. `playouts`\n"
    "times N uniformly random games on SIZE x SIZE (default 100000 on 15x15, freestyle) and prints\n"
    "games a second.\n"
    "\n"
    "  -h, --help     print this help and exit\n"
    "      --version  print the version and the commit it was built from, and exit\n"
    "\n"
    "Examples:\n"
    "  gomoku bench\n"
    "\n"
    "  gomoku \"setoption name Width value 3\" \"setoption name Height value 3\" \"setoption name InARow value 3\" \"position startpos\" \"go perft 9\"\n"
    "\n"
    "  printf 'START 15\\nBEGIN\\nEND\\n' | gomoku\n"
    "\n"
    "See docs/gomoku.md and docs/protocol.md.";

int playouts(const std::vector<std::string>& arguments) {
    std::int64_t games = 100'000, size = 15;
    if (arguments.size() > 1) {
        auto n = bge::protocol::parse_integer(arguments[1], 1, 1'000'000'000, "playouts");
        if (!n) return std::fprintf(stderr, "gomoku: %s\n", n.error().c_str()), 2;
        games = *n;
    }
    if (arguments.size() > 2) {
        auto n = bge::protocol::parse_integer(arguments[2], bge::gomoku::min_side, bge::gomoku::max_side, "size");
        if (!n) return std::fprintf(stderr, "gomoku: %s\n", n.error().c_str()), 2;
        size = *n;
    }
    bge::gomoku::Variant variant;
    variant.width = variant.height = static_cast<int>(size);
    const bge::gomoku::State start = bge::gomoku::start_state(variant);
    bge::Random random(1);
    std::int64_t plies = 0, wins[2] = {0, 0};
    const auto begin = std::chrono::steady_clock::now();
    for (std::int64_t i = 0; i < games; ++i) {
        const auto result = bge::gomoku::random_playout(start, random);
        plies += result.plies;
        if (result.winner >= 0) ++wins[result.winner];
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::puts(fmt::format("Games           : {}\nMean plies      : {:.1f}\nFirst wins      : {:.3f}\n"
                          "Second wins     : {:.3f}\nGames/second    : {:.0f}",
                          games, static_cast<double>(plies) / static_cast<double>(games),
                          static_cast<double>(wins[0]) / static_cast<double>(games),
                          static_cast<double>(wins[1]) / static_cast<double>(games),
                          static_cast<double>(games) / std::max(seconds, 1e-9))
                  .c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    bge::protocol::EngineProgram program;
    program.name = "gomoku";
    program.help = help_text;
    program.subcommand = [](const std::vector<std::string>& arguments) -> std::optional<int> {
        if (arguments[0] == "playouts") return playouts(arguments);
        return std::nullopt;
    };
    return bge::protocol::run_engine_main(argc, argv, program, bge::gomoku::gomoku_engine_spec());
}
