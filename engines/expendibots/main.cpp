// The Expendibots engine: UGI (and TEI) on stdin/stdout (docs/protocol.md, docs/expendibots.md).

#include <cstdio>
#include <string>
#include <vector>

#include "engines/expendibots/engine_spec.hpp"
#include "protocol/engine_loop.hpp"

namespace {

void print_help() {
    std::puts(
        "expendibots - an Expendibots engine speaking UGI\n"
        "\n"
        "usage: expendibots                   read protocol commands from stdin\n"
        "       expendibots <command>...      run each argument as a command, then exit\n"
        "       expendibots --help | --version\n"
        "\n"
        "examples:\n"
        "  expendibots bench\n"
        "  expendibots \"position startpos\" \"go perft 3\"\n"
        "  echo -e 'ugi\\nuginewgame\\nposition startpos moves a2a3 xd7\\ngo movetime 1000' | expendibots\n"
        "\n"
        "Moves: c2c4 (MOVE 1 token from c2 to c4), 3c2c5 (MOVE 3), xc2 (BOOM at c2); squares a1-h8 are the\n"
        "referee's (x, y) with a = x 0 and rank 1 = y 0. Positions: position fen <rows> <w|b> <actions>.\n"
        "Commands: ugi, isready, setoption, uginewgame, position, go, stop, query, d, bench [depth], quit.\n"
        "See docs/protocol.md and docs/expendibots.md.");
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> commands;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--help" || argument == "-h") {
            print_help();
            return 0;
        }
        if (argument == "--version") {
            std::puts("expendibots 0.1");
            return 0;
        }
        commands.push_back(argument);
    }
    bge::protocol::Output output;
    bge::protocol::EngineLoop<bge::expendibots::Expendibots> loop(bge::expendibots::expendibots_engine_spec(), output);
    return loop.run(commands);
}
