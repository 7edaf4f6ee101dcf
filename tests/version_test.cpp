// Every program names the version and the commit it was built from (docs/install.md): --version
// for a person or a package check, `id name` for a GUI or a match runner.

#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "arbiter_run.hpp"
#include "core/version.hpp"

using namespace bge::testing;

TEST_CASE("version: the project version and the commit it was built from", "[version]") {
    CHECK(std::regex_match(std::string(bge::project_version()), std::regex(R"(\d+\.\d+\.\d+)")));
    // A short hash (with -dirty for a changed tree), or "unknown" outside a git checkout.
    CHECK(std::regex_match(std::string(bge::build_commit()), std::regex(R"(([0-9a-f]{7,40}(-dirty)?)|unknown)")));
    CHECK(bge::version_text() ==
          std::string(bge::project_version()) + " (commit " + std::string(bge::build_commit()) + ")");
}

TEST_CASE("version: every program prints it with --version and exits 0", "[version]") {
    const std::string folder = BGE_PROGRAMS_DIR;
    for (const std::string program :
         {"tak", "gomoku", "twixt", "ur", "expendibots", "arbiter", "gui", "playtak", "protocol_fuzz", "train_tak_eval",
          "train_tak_sarsa", "train_gomoku_eval", "train_expendibots_tdleaf", "train_ur_td"}) {
        const auto run = run_program(folder + "/" + program, {"--version"});
        INFO(program << ": " << transcript(run));
        CHECK(run.status == 0);
        REQUIRE(run.lines.size() == 1);
        CHECK(run.lines[0] == program + " " + bge::version_text());
    }
}
