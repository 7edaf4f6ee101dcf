#pragma once
// The body of every engine's main(): --help and --version, the engine's own subcommands (the
// Gomoku engine's `playouts`, the Ur engine's `solve`), then the protocol loop, reading the
// arguments as commands when there are any and stdin otherwise.

#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/version.hpp"
#include "protocol/engine_loop.hpp"

namespace bge::protocol {

struct EngineProgram {
    std::string name;  // printed by --version with the version and commit (core/version.hpp)
    std::string help;  // printed by --help and -h
    // Runs when the first argument names a subcommand: it gets every argument and returns the
    // exit status; nullopt means "not a subcommand", and the arguments go to the loop.
    std::function<std::optional<int>(const std::vector<std::string>& arguments)> subcommand;
};

template <Game G>
int run_engine_main(int argc, char** argv, const EngineProgram& program, EngineSpec<G> spec) {
    std::vector<std::string> commands(argv + 1, argv + argc);
    // A subcommand sees its own arguments first, --help included.
    if (program.subcommand && !commands.empty())
        if (const auto status = program.subcommand(commands)) return *status;
    for (const std::string& argument : commands) {
        if (argument == "--help" || argument == "-h") {
            std::puts(program.help.c_str());
            return 0;
        }
        if (argument == "--version") {
            print_version(program.name);
            return 0;
        }
    }
    Output output;
    EngineLoop<G> loop(std::move(spec), output);
    return loop.run(commands);
}

}  // namespace bge::protocol
