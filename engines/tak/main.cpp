// The Tak engine: TEI and UGI on stdin/stdout (docs/protocol.md, docs/tak.md).

#include "engines/tak/engine_spec.hpp"
#include "protocol/engine_main.hpp"

int main(int argc, char** argv) {
    bge::protocol::EngineProgram program;
    program.name = "tak";
    program.help =
        "Usage: tak [COMMAND]...\n"
        "A Tak engine speaking TEI and UGI. With no COMMAND it reads protocol commands from standard\n"
        "input; otherwise it runs each COMMAND as a protocol command, then exits.\n"
        "\n"
        "  -h, --help     print this help and exit\n"
        "      --version  print the version and the commit it was built from, and exit\n"
        "\n"
        "Commands: tei, ugi, isready, setoption, teinewgame <size>, uginewgame, position, go, stop,\n"
        "query, d, bench [depth], quit. Options: see `tak tei` and /usr/share/doc/bge/tak.md.\n"
        "\n"
        "Examples:\n"
        "  tak bench\n"
        "\n"
        "  tak \"position startpos\" \"go perft 4\"\n"
        "\n"
        "  printf 'tei\\nteinewgame 5\\nposition startpos moves a1 e5\\ngo movetime 1000\\n' | tak\n"
        "\n"
        "See docs/protocol.md and docs/tak.md.";
    return bge::protocol::run_engine_main(argc, argv, program, bge::tak::tak_engine_spec());
}
