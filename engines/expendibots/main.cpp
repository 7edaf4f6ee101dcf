// The Expendibots engine: UGI (and TEI) on stdin/stdout (docs/protocol.md, docs/expendibots.md).

#include "engines/expendibots/engine_spec.hpp"
#include "protocol/engine_main.hpp"

int main(int argc, char** argv) {
    bge::protocol::EngineProgram program;
    program.name = "expendibots";
    program.help =
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
        "See docs/protocol.md and docs/expendibots.md.";
    return bge::protocol::run_engine_main(argc, argv, program, bge::expendibots::expendibots_engine_spec());
}
