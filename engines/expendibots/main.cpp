// The Expendibots engine: UGI (and TEI) on stdin/stdout (docs/protocol.md, docs/expendibots.md).

#include "engines/expendibots/engine_spec.hpp"
#include "protocol/engine_main.hpp"

int main(int argc, char** argv) {
    bge::protocol::EngineProgram program;
    program.name = "expendibots";
    program.help =
        "Usage: expendibots [COMMAND]...\n"
        "An Expendibots engine speaking UGI. With no COMMAND it reads protocol commands from standard\n"
        "input; otherwise it runs each COMMAND as a protocol command, then exits.\n"
        "\n"
        "  -h, --help     print this help and exit\n"
        "      --version  print the version and the commit it was built from, and exit\n"
        "\n"
        "Moves: c2c4 (MOVE 1 token from c2 to c4), 3c2c5 (MOVE 3), xc2 (BOOM at c2); squares a1-h8 are the\n"
        "referee's (x, y) with a = x 0 and rank 1 = y 0. Positions: position fen <rows> <w|b> <actions>.\n"
        "Commands: ugi, isready, setoption, uginewgame, position, go, stop, query, d, bench [depth], quit.\n"
        "\n"
        "Examples:\n"
        "  expendibots bench\n"
        "\n"
        "  expendibots \"position startpos\" \"go perft 3\"\n"
        "\n"
        "  printf 'ugi\\nuginewgame\\nposition startpos moves a2a3 xd7\\ngo movetime 1000\\n' | expendibots\n"
        "\n"
        "See docs/protocol.md and docs/expendibots.md.";
    return bge::protocol::run_engine_main(argc, argv, program, bge::expendibots::expendibots_engine_spec());
}
