// The Royal Game of Ur engine: UGI on stdin/stdout (docs/protocol.md, docs/ur.md), and the
// solver: `ur solve --ruleset finkel|masters|blitz --pieces N --out FILE`.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engines/ur/engine_spec.hpp"
#include "engines/ur/solver.hpp"
#include "protocol/engine_main.hpp"

namespace {

constexpr const char* help_text =
    "Usage: ur [COMMAND]...\n"
    "  or:  ur solve --ruleset R --pieces N --out FILE [--tolerance T]\n"
    "A Royal Game of Ur engine speaking UGI, and its solver. With no COMMAND it reads protocol\n"
    "commands from standard input; otherwise it runs each COMMAND as a protocol command, then\n"
    "exits. `solve` solves the game; its last line is light-win-probability-from-start <p>.\n"
    "\n"
    "  -h, --help     print this help and exit\n"
    "      --version  print the version and the commit it was built from, and exit\n"
    "\n"
    "Positions: position fen <A>/<B>/<C> <light waiting>,<scored> <dark waiting>,<scored> <l|d> <roll|->,\n"
    "e.g. ....__../......../....__.. 7,0 7,0 l 3. Moves: r0-r4 (a roll), onA3 (enter), A2B2, A7off, pass.\n"
    "The engine never rolls: the position names the roll. Options: Ruleset, Pieces, Player, Depth, TablePath.\n"
    "\n"
    "Examples:\n"
    "  ur bench\n"
    "\n"
    "  ur \"position startpos\" \"go perft 3\"\n"
    "\n"
    "  printf 'ugi\\nposition startpos moves r2\\ngo depth 3\\n' | ur\n"
    "\n"
    "See docs/ur.md.";

int solve_usage(const std::string& message) {
    std::fputs(
        fmt::format("ur solve: error: {}\nusage: ur solve --ruleset R --pieces N --out FILE [--tolerance T]\n",
                    message)
            .c_str(),
        stderr);
    return 2;
}

int solve(const std::vector<std::string>& arguments) {
    bge::ur::SolveSettings settings;
    std::string out, ruleset = "finkel";
    bool pieces_given = false;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& flag = arguments[i];
        if (flag == "--help" || flag == "-h") return solve_usage("help requested"), 0;
        if (i + 1 >= arguments.size()) return solve_usage(fmt::format("{} needs a value", flag));
        const std::string& value = arguments[++i];
        char* end = nullptr;
        if (flag == "--ruleset") {
            ruleset = value;
        } else if (flag == "--pieces") {
            const long pieces = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end || pieces < 1 || pieces > 7) return solve_usage("--pieces takes 1 to 7");
            settings.pieces = static_cast<int>(pieces);
            pieces_given = true;
        } else if (flag == "--out") {
            out = value;
        } else if (flag == "--tolerance") {
            const double tolerance = std::strtod(value.c_str(), &end);
            if (value.empty() || *end || !(tolerance > 0 && tolerance < 0.1))
                return solve_usage("--tolerance takes a number in (0, 0.1)");
            settings.tolerance = tolerance;
        } else {
            return solve_usage(fmt::format("unknown flag '{}'", flag));
        }
    }
    if (ruleset == "finkel")
        settings.ruleset = bge::ur::Ruleset::finkel;
    else if (ruleset == "masters")
        settings.ruleset = bge::ur::Ruleset::masters;
    else if (ruleset == "blitz")
        settings.ruleset = bge::ur::Ruleset::blitz;
    else
        return solve_usage(fmt::format("--ruleset {}: finkel, masters or blitz", ruleset));
    if (out.empty()) return solve_usage("--out FILE is required");
    if (!pieces_given) settings.pieces = bge::ur::default_pieces(settings.ruleset);
    settings.log = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
    const auto start = std::chrono::steady_clock::now();
    bge::ur::SolveReport report;
    const auto table = bge::ur::solve(settings, report);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (auto status = table.save(out); !status) {
        std::fprintf(stderr, "ur solve: error: %s\n", status.error().c_str());
        return 1;
    }
    std::printf("states %llu\nsweeps %llu\nstate-updates %llu\nseconds %.1f\ntable %s\n",
                static_cast<unsigned long long>(report.states), static_cast<unsigned long long>(report.sweeps),
                static_cast<unsigned long long>(report.state_updates), seconds, out.c_str());
    std::printf("light-win-probability-from-start %.9f\n", report.light_win_probability);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    bge::protocol::EngineProgram program;
    program.name = "ur";
    program.help = help_text;
    program.subcommand = [](const std::vector<std::string>& arguments) -> std::optional<int> {
        if (arguments[0] == "solve") return solve(std::vector<std::string>(arguments.begin() + 1, arguments.end()));
        return std::nullopt;
    };
    return bge::protocol::run_engine_main(argc, argv, program, bge::ur::ur_engine_spec());
}
