// The train_ur_td command line, run as a user runs it: a short training run writes weights the
// engine loads (binary, or text on request), the result does not depend on the thread count, the
// command line of the study's time still works, and the regret report against a small solved
// table has the known answers (the perfect player never gives anything away).

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "arbiter_run.hpp"
#include "engines/ur/td_network.hpp"

using namespace bge;
using bge::testing::read_file;
using bge::testing::run_program;
using bge::testing::scratch;
using bge::testing::transcript;

namespace {

const std::string trainer = BGE_TRAIN_UR_TD_BINARY;
const std::string ur_engine = BGE_UR_BINARY;

// The value after `key` on the line starting with it, as the trainer prints its report.
double reported(const bge::testing::ArbiterRun& run, const std::string& key) {
    for (const auto& line : run.lines)
        if (line.rfind(key + " ", 0) == 0) return std::stod(line.substr(key.size() + 1));
    FAIL("no line " << key << " in\n" << transcript(run));
    return -1;
}

std::vector<std::string> training_run(const std::string& out, const std::string& threads) {
    return {"--ruleset", "blitz", "--episodes", "64", "--hidden", "8", "--hidden2", "4", "--round-games", "16",
            "--eval-every", "32", "--eval-games", "4", "--seed", "3", "--threads", threads, "--out", out};
}

}  // namespace

TEST_CASE("train_ur_td: a short run writes weights that load, the same for any thread count", "[ur][td][train]") {
    const std::string two = scratch().file("ur_train_two.net");
    const std::string curve = scratch().file("ur_train_curve.csv");
    auto arguments = training_run(two, "2");
    arguments.insert(arguments.end(), {"--curve", curve});
    const auto trained = run_program(trainer, arguments);
    INFO(transcript(trained) << trained.errors);
    REQUIRE(trained.status == 0);
    CHECK(trained.lines.size() == 3);  // the curve's points at 0, 32 and 64 games
    const auto net = ur::TdNetwork::load(two);
    REQUIRE(net.ok());
    CHECK(net->ruleset == ur::Ruleset::blitz);
    CHECK(read_file(curve).rfind("episodes,", 0) == 0);

    const std::string one = scratch().file("ur_train_one.net");
    REQUIRE(run_program(trainer, training_run(one, "1")).status == 0);
    CHECK(read_file(one) == read_file(two));

    // Binary by default (the format engines/ur/nets/ ships), text on request: the same weights.
    CHECK(read_file(two).rfind("BGEURTDN", 0) == 0);
    CHECK_THAT(net->description, Catch::StartsWith("train_ur_td: blitz: 64 self-play games"));
    const std::string text = scratch().file("ur_train_text.net");
    auto text_run = training_run(text, "1");
    text_run.insert(text_run.end(), {"--format", "text"});
    REQUIRE(run_program(trainer, text_run).status == 0);
    CHECK(read_file(text).rfind("ur-td-network 2\n", 0) == 0);
    const auto from_text = ur::TdNetwork::load(text);
    REQUIRE(from_text.ok());
    CHECK(from_text->net.parameters() == net->net.parameters());
}

TEST_CASE("train_ur_td: the study's command line still runs", "[ur][td][train]") {
    const std::string out = scratch().file("ur_train_study.txt");
    const auto trained = run_program(trainer, {"--episodes", "40", "--alpha", "0.01", "--lambda", "0.85", "--hidden",
                                               "8", "--seed", "1", "--eval-every", "20", "--eval-games", "4",
                                               "--out", out});
    INFO(transcript(trained) << trained.errors);
    REQUIRE(trained.status == 0);
    CHECK(ur::TdNetwork::load(out).ok());
}

TEST_CASE("train_ur_td: regret against a 2-piece table", "[ur][td][train][regret]") {
    const std::string table = scratch().file("ur_train_finkel2.table");
    const auto solved = run_program(ur_engine, {"solve", "--ruleset", "finkel", "--pieces", "2", "--out", table});
    INFO(solved.errors);
    REQUIRE(solved.status == 0);

    const auto perfect = run_program(trainer, {"--regret-table", table, "--regret-player", "perfect",
                                               "--regret-games", "20", "--seed", "5"});
    INFO(transcript(perfect) << perfect.errors);
    REQUIRE(perfect.status == 0);
    CHECK(reported(perfect, "mean-regret-per-move") == 0.0);
    CHECK(reported(perfect, "best-move-share") == 1.0);

    // A one-decision search with the hand-written evaluation is not perfect: it gives some away.
    const auto greedy = run_program(trainer, {"--regret-table", table, "--regret-player", "expectimax",
                                              "--regret-depth", "1", "--regret-games", "20", "--seed", "5"});
    REQUIRE(greedy.status == 0);
    CHECK(reported(greedy, "mean-regret-per-move") > 0.0);
    CHECK(reported(greedy, "best-move-share") < 1.0);

    const auto missing = run_program(trainer, {"--regret-table", scratch().file("no_such.table")});
    CHECK(missing.status != 0);
    CHECK(!missing.errors.empty());
}
