// The arbiter's files and what depends on them: the results file, -resume after SIGKILL,
// -shard with merge, report, SPRT, gauntlet, adjudication, and reproducible schedules.

#include <catch2/catch.hpp>

#include <csignal>
#include <thread>

#include "arbiter_run.hpp"
#include "core/version.hpp"
#include "tools/arbiter/json.hpp"
#include "tools/arbiter/results_file.hpp"
#include "tools/arbiter/schedule.hpp"

using namespace bge;
using namespace bge::arbiter;
using namespace bge::testing;

namespace {

const std::string tak = BGE_TAK_BINARY;

// Two deterministic alpha-beta engines of different strength (fixed nodes), 5x5, a random book.
std::vector<std::string> deterministic_match(const std::string& book, int rounds, int nodes_a = 1500,
                                             int nodes_b = 3000) {
    return {"-game", "tak", "-size", "5", "-komi", "1",
            "-engine", "cmd=" + tak, "name=small", "nodes=" + std::to_string(nodes_a),
            "-engine", "cmd=" + tak, "name=large", "nodes=" + std::to_string(nodes_b),
            "-each", "stderr=/dev/null", "option.Hash=4",
            "-rounds", std::to_string(rounds), "-games", "2",
            "-openings", "file=" + book, "format=moves", "order=random", "-srand", "11"};
}

std::string write_book() {
    const std::string path = scratch().file("book.txt");
    std::ofstream book(path);
    book << "a1 e5 c3 c2\nb2 d4 c3 b3\na5 e1 b4 d2\ne3 a3 c4 c2\nb1 d5 c3 d3\nc1 c5 b3 d3\n";
    return path;
}

std::vector<std::string> with(std::vector<std::string> arguments, const std::vector<std::string>& more) {
    arguments.insert(arguments.end(), more.begin(), more.end());
    return arguments;
}

}  // namespace

TEST_CASE("arbiter: the results file lists every game and the pair's statistics", "[arbiter][persistence]") {
    const std::string book = write_book();
    const std::string results = scratch().file("results_basic.json");
    const auto run = run_arbiter(with(deterministic_match(book, 2), {"-jsonout", results}));
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    const Json doc = read_json(results);
    CHECK(doc.at("format") == "bge-arbiter-results");
    CHECK(doc.at("game") == "tak");
    CHECK(doc.at("total_games") == 4);
    // Each engine as it named itself (`id name`): the version and commit it was built from.
    for (const Json& engine : doc.at("engines")) CHECK(engine.at("id") == "tak " + bge::version_text());
    REQUIRE(doc.at("games").size() == 4);
    const Json& pair = doc.at("summary").at("pairs").at(0);
    CHECK(pair.at("wins").get<int>() + pair.at("losses").get<int>() + pair.at("draws").get<int>() == 4);
    int number = 0;
    for (const Json& game : doc.at("games")) {
        CHECK(game.at("number") == ++number);
        CHECK(game.at("record").get<std::string>().find("[Player1 ") != std::string::npos);
    }
    CHECK(run.has_line("Finished match"));
    CHECK(run.count_prefix("Ptnml(0-2): [") == 1);
}

TEST_CASE("arbiter: a run killed with SIGKILL resumes to exactly the uninterrupted result",
          "[arbiter][persistence]") {
    const std::string book = write_book();
    const auto match = deterministic_match(book, 6, 3000, 4500);
    const std::string full_json = scratch().file("full.json"), full_ptn = scratch().file("full.ptn");
    const auto full = run_arbiter(with(match, {"-jsonout", full_json, "-pgnout", full_ptn}));
    REQUIRE(full.status == 0);

    const std::string state = scratch().file("killed.state"), json = scratch().file("killed.json"),
                      ptn = scratch().file("killed.ptn");
    {  // an earlier match in the record file must survive untouched
        std::ofstream(ptn) << "[Size \"3\"]\n\n1. a1 c3 *\n\n";
    }
    protocol::EngineProcess first;
    protocol::ProcessOptions options;
    options.command = arbiter_binary;
    options.arguments = with(match, {"-jsonout", json, "-pgnout", ptn, "-state", state});
    options.stderr_path = "/dev/null";
    REQUIRE(first.start(options));
    // Kill it after a few games have finished, in the middle of another.
    int finished = 0;
    while (finished < 3) {
        const auto read = first.read_line(std::chrono::seconds(30));
        REQUIRE(read.status == protocol::ReadStatus::line);
        if (read.line.rfind("Finished game", 0) == 0) ++finished;
    }
    first.kill();

    const auto resumed = run_arbiter({"-resume", state});
    INFO(transcript(resumed));
    REQUIRE(resumed.status == 0);
    CHECK_THAT(resumed.errors, Catch::Contains("resuming: "));
    CHECK(game_list(read_json(json)) == game_list(read_json(full_json)));
    CHECK(read_json(json).at("summary") == read_json(full_json).at("summary"));
    // Every game is in the record file exactly once, after what was there before.
    const std::string records = read_file(ptn);
    CHECK(records.rfind("[Size \"3\"]\n\n1. a1 c3 *\n\n", 0) == 0);
    std::size_t count = 0;
    for (std::size_t at = records.find("[Player1 "); at != std::string::npos; at = records.find("[Player1 ", at + 1))
        ++count;
    CHECK(count == 12);
    // Resuming a finished match plays nothing more.
    const auto again = run_arbiter({"-resume", state});
    CHECK(again.status == 0);
    CHECK(again.count_prefix("Started game") == 0);
}

TEST_CASE("arbiter: shards merged equal one full run", "[arbiter][persistence]") {
    const std::string book = write_book();
    const auto match = deterministic_match(book, 3);
    const std::string full_json = scratch().file("shard_full.json");
    REQUIRE(run_arbiter(with(match, {"-jsonout", full_json})).status == 0);
    std::vector<std::string> merge_arguments = {"merge"};
    for (int k = 1; k <= 3; ++k) {
        const std::string part = scratch().file("shard_" + std::to_string(k) + ".json");
        const auto run = run_arbiter(with(match, {"-shard", std::to_string(k) + "/3", "-jsonout", part}));
        REQUIRE(run.status == 0);
        CHECK(run.count_prefix("Finished game") == 2);  // one encounter of two games each
        merge_arguments.push_back(part);
    }
    const std::string merged = scratch().file("shard_merged.json");
    merge_arguments.insert(merge_arguments.end(), {"-jsonout", merged});
    const auto merge = run_arbiter(merge_arguments);
    INFO(transcript(merge));
    REQUIRE(merge.status == 0);
    CHECK(merge.has_line("Finished match"));
    CHECK(game_list(read_json(merged)) == game_list(read_json(full_json)));
    CHECK(read_json(merged).at("summary") == read_json(full_json).at("summary"));
    CHECK(read_json(merged).at("engines") == read_json(full_json).at("engines"));

    // Shards played by different builds of an engine merge with a warning that says so.
    Json other_build = read_json(scratch().file("shard_2.json"));
    other_build["engines"][0]["id"] = "tak 9.9.9 (commit 000000000000)";
    const std::string other = scratch().file("shard_2_other_build.json");
    std::ofstream(other) << json::dump(other_build, true);
    const auto mixed_builds = run_arbiter({"merge", scratch().file("shard_1.json"), other, scratch().file("shard_3.json")});
    CHECK(mixed_builds.status == 0);
    CHECK_THAT(mixed_builds.errors, Catch::Contains("engine small is 'tak " + bge::version_text() +
                                                    "' in one shard and 'tak 9.9.9 (commit 000000000000)' in another"));

    // Merging a shard twice, or files of different matches, is refused.
    const auto twice = run_arbiter({"merge", scratch().file("shard_1.json"), scratch().file("shard_1.json")});
    CHECK(twice.status == 2);
    CHECK_THAT(twice.errors, Catch::Contains("both shard 1/3"));
    const auto mixed = run_arbiter({"merge", scratch().file("shard_1.json"), full_json});
    CHECK(mixed.status == 2);
}

TEST_CASE("arbiter: the schedule is a pure function of the configuration", "[arbiter][persistence]") {
    MatchConfig config;
    config.engines.resize(3);
    config.rounds = 4;
    config.openings = OpeningsConfig{};
    config.openings->order = OpeningOrder::random;
    config.seed = 9;
    const auto a = make_schedule(config, 50);
    const auto b = make_schedule(config, 50);
    REQUIRE(a.size() == 24);  // 4 rounds x 3 pairs x 2 games
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].opening == b[i].opening);
        CHECK(a[i].white == b[i].white);
        CHECK(a[i].encounter == static_cast<int>(i / 2));
    }
    // Both games of an encounter share the opening and swap colours.
    for (std::size_t i = 0; i < a.size(); i += 2) {
        CHECK(a[i].opening == a[i + 1].opening);
        CHECK(a[i].white == a[i + 1].black);
    }
    // Shards partition the schedule.
    std::vector<int> seen(a.size() + 1, 0);
    for (int k = 1; k <= 5; ++k)
        for (const auto& game : shard_of(a, Shard{k, 5})) ++seen[static_cast<std::size_t>(game.number)];
    for (std::size_t n = 1; n < seen.size(); ++n) CHECK(seen[n] == 1);
    // A gauntlet pairs the first engine with each other one.
    config.tournament = Tournament::gauntlet;
    const auto gauntlet = make_schedule(config, 50);
    CHECK(gauntlet.size() == 16);
    for (const auto& game : gauntlet) CHECK((game.white == 0 || game.black == 0));
}

TEST_CASE("arbiter: an SPRT stops the match once it decides", "[arbiter][persistence]") {
    const std::string book = write_book();
    const auto run = run_arbiter({"-game", "tak", "-size", "5",
                                  "-engine", "cmd=" + tak, "name=ab", "nodes=2000",
                                  "-engine", "cmd=" + tak, "name=rnd", "option.Player=random", "nodes=1",
                                  "-each", "stderr=/dev/null", "option.Hash=4",
                                  "-rounds", "200", "-openings", "file=" + book, "format=moves",
                                  "-sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"});
    INFO(transcript(run));
    CHECK(run.status == 0);
    CHECK(run.count_prefix("SPRT: H1 accepted") == 1);
    CHECK(run.count_prefix("Finished game") < 100);
    CHECK(run.count_prefix("LLR: ") == 1);
}

TEST_CASE("arbiter: sharded with an SPRT, the merge counts what a single run counts", "[arbiter][persistence]") {
    // Shards play all their games; the merge takes the games in order and stops where the SPRT
    // decides, as one run at -concurrency 1 does. Both engines search fixed nodes, so the games
    // themselves repeat.
    const std::string book = write_book();
    const std::vector<std::string> match = {"-game", "tak", "-size", "5",
                                            "-engine", "cmd=" + tak, "name=ab", "nodes=2000",
                                            "-engine", "cmd=" + tak, "name=weak", "nodes=10",
                                            "-each", "stderr=/dev/null", "option.Hash=4",
                                            "-rounds", "14", "-openings", "file=" + book, "format=moves",
                                            "-srand", "5", "-sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"};
    const std::string single = scratch().file("sprt_single.json");
    const auto local = run_arbiter(with(match, {"-concurrency", "1", "-jsonout", single}));
    INFO(transcript(local));
    REQUIRE(local.status == 0);
    REQUIRE(local.count_prefix("SPRT: H1 accepted") == 1);
    const int counted = local.count_prefix("Finished game");
    REQUIRE(counted < 28);
    std::vector<std::string> merge_arguments = {"merge"};
    int played = 0;
    for (int k = 1; k <= 2; ++k) {
        const std::string part = scratch().file("sprt_shard_" + std::to_string(k) + ".json");
        const auto run = run_arbiter(with(match, {"-shard", std::to_string(k) + "/2", "-jsonout", part}));
        INFO(transcript(run));
        REQUIRE(run.status == 0);
        CHECK(run.count_prefix("SPRT: H") == 0);
        CHECK_THAT(run.errors, Catch::Contains("judges the SPRT on the merged shards"));
        played += run.count_prefix("Finished game");
        merge_arguments.push_back(part);
    }
    CHECK(played == 28);
    const std::string merged = scratch().file("sprt_merged.json");
    merge_arguments.insert(merge_arguments.end(), {"-jsonout", merged});
    const auto merge = run_arbiter(merge_arguments);
    INFO(transcript(merge));
    REQUIRE(merge.status == 0);
    CHECK_THAT(merge.errors, Catch::Contains("later games of the shards are left out"));
    CHECK(game_list(read_json(merged)) == game_list(read_json(single)));
    CHECK(read_json(merged).at("summary") == read_json(single).at("summary"));
}

TEST_CASE("arbiter: a gauntlet and a ranking table for three engines", "[arbiter][persistence]") {
    const std::string book = write_book();
    const auto run = run_arbiter({"-game", "tak", "-size", "5", "-tournament", "gauntlet",
                                  "-engine", "cmd=" + tak, "name=strong", "nodes=3000",
                                  "-engine", "cmd=" + tak, "name=weak", "nodes=200",
                                  "-engine", "cmd=" + tak, "name=random", "option.Player=random", "nodes=1",
                                  "-each", "stderr=/dev/null", "option.Hash=4",
                                  "-rounds", "2", "-openings", "file=" + book, "format=moves",
                                  "-ratinginterval", "4"});
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK(run.count_prefix("Finished game") == 8);
    for (const auto& line : run.lines)
        if (line.rfind("Finished game", 0) == 0) CHECK_THAT(line, Catch::Contains("strong"));
    // The ranking table is printed every 4 games and at the end.
    CHECK(run.count_prefix("Rank Name") == 3);
}

TEST_CASE("arbiter: draw and resign adjudication", "[arbiter][persistence]") {
    const std::string book = write_book();
    auto match = deterministic_match(book, 1);
    const auto resign = run_arbiter(with(match, {"-resign", "movecount=1", "score=1"}));
    INFO(transcript(resign));
    REQUIRE(resign.status == 0);
    CHECK(resign.count_prefix("Finished game") == 2);
    bool adjudicated = false;
    for (const auto& line : resign.lines) adjudicated |= line.find("wins by adjudication}") != std::string::npos;
    CHECK(adjudicated);
    const auto draw = run_arbiter(with(match, {"-draw", "movenumber=1", "movecount=1", "score=100000"}));
    REQUIRE(draw.status == 0);
    CHECK(draw.count_prefix("Finished game") == 2);
    for (const auto& line : draw.lines)
        if (line.rfind("Finished game", 0) == 0) CHECK_THAT(line, Catch::Contains("{Draw by adjudication}"));
}

TEST_CASE("arbiter: bad state and results files are refused clearly", "[arbiter][persistence]") {
    const std::string junk = scratch().file("junk.state");
    std::ofstream(junk) << "not json\n";
    const auto bad_state = run_arbiter({"-resume", junk});
    CHECK(bad_state.status == 2);
    CHECK_THAT(bad_state.errors, Catch::Contains("junk.state"));
    const auto missing = run_arbiter({"-resume", scratch().file("no_such.state")});
    CHECK(missing.status == 2);
    const auto bad_merge = run_arbiter({"merge", junk});
    CHECK(bad_merge.status == 2);
    const auto bad_report = run_arbiter({"report", junk});
    CHECK(bad_report.status == 2);
    // A state file with games is never overwritten by a new match.
    const std::string book = write_book();
    const std::string state = scratch().file("kept.state");
    REQUIRE(run_arbiter(with(deterministic_match(book, 1), {"-state", state})).status == 0);
    const auto overwrite = run_arbiter(with(deterministic_match(book, 1), {"-state", state}));
    CHECK(overwrite.status == 2);
    CHECK_THAT(overwrite.errors, Catch::Contains("-resume"));
}
