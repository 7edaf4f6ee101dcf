// The Tak engine: TEI and UGI on stdin/stdout (docs/protocol.md, docs/tak.md).

#include "engines/tak/engine_spec.hpp"
#include "protocol/engine_main.hpp"

int main(int argc, char** argv) {
    bge::protocol::EngineProgram program;
    program.name = "tak";
    program.help =
        "tak - a Tak engine speaking TEI and UGI\n"
        "\n"
        "usage: tak                   read protocol commands from stdin\n"
        "       tak <command>...      run each argument as a command, then exit\n"
        "       tak --help | --version\n"
        "\n"
        "examples:\n"
        "  tak bench\n"
        "  tak \"position startpos\" \"go perft 4\"\n"
        "  echo -e 'tei\\nteinewgame 5\\nposition startpos moves a1 e5\\ngo movetime 1000' | tak\n"
        "\n"
        "Commands: tei, ugi, isready, setoption, teinewgame <size>, uginewgame, position, go, stop,\n"
        "query, d, bench [depth], quit. See docs/protocol.md and docs/tak.md.";
    return bge::protocol::run_engine_main(argc, argv, program, bge::tak::tak_engine_spec());
}
