// The Tak engine: TEI and UGI on stdin/stdout (docs/protocol.md, docs/tak.md).

#include <cstdio>
#include <string>
#include <vector>

#include "engines/tak/engine_spec.hpp"
#include "protocol/engine_loop.hpp"

namespace {

void print_help() {
    std::puts(
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
        "query, d, bench [depth], quit. See docs/protocol.md and docs/tak.md.");
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
            std::puts("tak 0.1");
            return 0;
        }
        commands.push_back(argument);
    }
    bge::protocol::Output output;
    bge::protocol::EngineLoop<bge::tak::Tak> loop(bge::tak::tak_engine_spec(), output);
    return loop.run(commands);
}
