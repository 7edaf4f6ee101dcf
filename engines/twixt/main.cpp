// The TwixT engine: UGI on stdin/stdout (docs/protocol.md, docs/twixt.md).

#include "engines/twixt/engine_spec.hpp"
#include "protocol/engine_main.hpp"

int main(int argc, char** argv) {
    bge::protocol::EngineProgram program;
    program.name = "twixt";
    program.help =
        "Usage: twixt [COMMAND]...\n"
        "A TwixT engine speaking UGI, with OpenSpiel's rules (no bridge removal, no crossing, pie rule).\n"
        "With no COMMAND it reads protocol commands from standard input; otherwise it runs each COMMAND\n"
        "as a protocol command, then exits.\n"
        "\n"
        "  -h, --help     print this help and exit\n"
        "      --version  print the version and the commit it was built from, and exit\n"
        "\n"
        "Moves: c5 (column letter, row number from 1 at the top; xc5/oc5 as OpenSpiel writes them) or swap.\n"
        "x joins the top and bottom rows, o the left and right columns. Positions: position fen <rows> <x|o> <bridges>.\n"
        "Players: mcts (default), minimax, flat-mc, mcts-knight (setoption name Player value ...).\n"
        "Commands: ugi, isready, setoption, uginewgame, position, go, stop, query, d, bench [depth], quit.\n"
        "\n"
        "Examples:\n"
        "  twixt bench\n"
        "\n"
        "  twixt \"setoption name BoardSize value 8\" \"position startpos\" \"go perft 2\"\n"
        "\n"
        "  printf 'ugi\\nsetoption name BoardSize value 12\\nuginewgame\\nposition startpos moves f6\\ngo movetime 1000\\n' | twixt\n"
        "\n"
        "See docs/protocol.md and docs/twixt.md.";
    return bge::protocol::run_engine_main(argc, argv, program, bge::twixt::twixt_engine_spec());
}
