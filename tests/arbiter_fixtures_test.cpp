// Files written before the arbiter's JSON moved to nlohmann-json (tests/fixtures/arbiter-v1, by
// the old hand-written writer) still read back: the results files load and re-serialise to the
// same fields in the same order, -resume continues the old journal to the uninterrupted run's
// result, and merging the old shards prints and writes what the old merge did.
//
// The fixtures' engine command is `./tak` (relative, so no machine's path is baked in): the
// tests that play run the arbiter in a scratch directory holding the book and a `tak` link to
// this build's engine.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "arbiter_run.hpp"
#include "tools/arbiter/html_report.hpp"
#include "tools/arbiter/journal.hpp"
#include "tools/arbiter/json.hpp"
#include "tools/arbiter/results_file.hpp"
#include "tools/arbiter/schedule.hpp"

using namespace bge;
using namespace bge::arbiter;
using namespace bge::testing;

namespace {

const std::string fixtures = std::string(BGE_TEST_FIXTURES_DIR) + "/arbiter-v1/";

// Equal, apart from the last bits of computed statistics: the fixtures' summaries come from an
// optimised build, and a sanitizer build rounds differently.
bool near(const Json& a, const Json& b) {
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>(), y = b.get<double>();
        return std::abs(x - y) <= 1e-9 * std::max({1.0, std::abs(x), std::abs(y)});
    }
    if (a.type() != b.type() || a.size() != b.size()) return false;
    if (a.is_object()) {
        for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
            if (i.key() != j.key() || !near(*i, *j)) return false;
        return true;
    }
    if (a.is_array()) {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!near(a[i], b[i])) return false;
        return true;
    }
    return a == b;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        lines.push_back(text.substr(start, end - start));
    return lines;
}

// A directory laid out as the one the fixtures were written in.
std::string match_directory(const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path directory = scratch().file(name);
    fs::remove_all(directory);
    fs::create_directories(directory);
    fs::copy_file(fixtures + "book.txt", directory / "book.txt");
    fs::copy_file(fixtures + "state.jsonl", directory / "state.jsonl");
    fs::create_symlink(fs::absolute(BGE_TAK_BINARY), directory / "tak");
    return directory.string();
}

}  // namespace

TEST_CASE("arbiter-v1 fixtures: the old results files load", "[arbiter][persistence][fixtures]") {
    auto file = read_results_file(fixtures + "results.json");
    INFO((file ? "" : file.error()));
    REQUIRE(file);
    const MatchDescription& match = file->match;
    CHECK(match.game == "tak");
    CHECK(match.variant == "size 5, komi 1");
    CHECK(match.arguments.front() == "-game");
    CHECK(match.arguments.back() == "results.json");
    CHECK(match.seed == 11);
    CHECK(match.shard.index == 1);
    CHECK(match.shard.count == 1);
    CHECK(match.engine_names == std::vector<std::string>{"small", "large"});
    CHECK(match.engine_commands == std::vector<std::string>{"./tak", "./tak"});
    CHECK(match.tournament == Tournament::round_robin);
    CHECK(match.games_per_encounter == 2);
    CHECK(match.scheduled_games == 8);
    CHECK(match.total_games == 8);
    REQUIRE(match.sprt);
    CHECK(match.sprt->elo0 == 0.0);  // written as 0 by the old writer
    CHECK(match.sprt->elo1 == 10.0);
    CHECK(match.sprt->alpha == 0.05);
    REQUIRE(file->games.size() == 8);
    for (std::size_t i = 0; i < file->games.size(); ++i) {
        const FinishedGame& game = file->games[i];
        CHECK(game.scheduled.number == static_cast<int>(i) + 1);
        CHECK(game.scheduled.white == (i % 2 == 0 ? 0 : 1));
        CHECK(game.termination == "road");
        CHECK(game.plies > 0);
        CHECK(game.record.find("[Player1 \"") != std::string::npos);
    }
    CHECK(file->games[6].result == "1-0");
    CHECK(file->games[6].reason == "White wins by road");

    // Written again by the new writer, it has the same fields in the same order and the same
    // values (only whole doubles look different: 0 is now 0.0), and one field more: each engine's
    // identity, unknown in a file from before it.
    Results results(match.engine_names, engine_pairs(match.tournament, 2));
    for (const FinishedGame& game : file->games) results.add(game);
    Json rewritten = results_json(match, results);
    for (Json& engine : rewritten.at("engines")) {
        CHECK(engine.at("id") == "");
        engine.erase("id");
    }
    CHECK(near(rewritten, file->document));

    // Stopped after three games: infinite error bars were written as null.
    auto interrupted = read_results_file(fixtures + "interrupted.json");
    REQUIRE(interrupted);
    CHECK(interrupted->games.size() == 3);
    CHECK(interrupted->document.at("summary").at("pairs").at(0).at("elo_error_95").is_null());
    const std::string page = html_report(interrupted->document);
    CHECK(page.find("<dt>Games</dt><dd>3 played of 8 scheduled</dd>") != std::string::npos);
    CHECK(page.find("<dt>Seed</dt><dd>11</dd>") != std::string::npos);
    CHECK(page.find("<dt>SPRT</dt><dd>nElo0 0.00, nElo1 10.00, alpha 0.05, beta 0.05</dd>") != std::string::npos);
}

TEST_CASE("arbiter-v1 fixtures: text the old writer copied byte for byte reads back",
          "[arbiter][persistence][fixtures]") {
    // A control character written as \u0008, and a Latin-1 byte that is not UTF-8: it reads as
    // U+FFFD, as the writer now writes it.
    auto file = read_results_file(fixtures + "names.json");
    INFO((file ? "" : file.error()));
    REQUIRE(file);
    CHECK(file->match.engine_names == std::vector<std::string>{"\xC3\xBC\bx\x7f", "caf\xEF\xBF\xBD"});
    REQUIRE(file->games.size() == 1);
    CHECK(file->games[0].record.find("[Player2 \"caf\xEF\xBF\xBD\"]") != std::string::npos);
    CHECK(html_report(file->document).find("caf\xEF\xBF\xBD") != std::string::npos);
}

TEST_CASE("arbiter-v1 fixtures: the old journal loads, a torn last line dropped", "[arbiter][persistence][fixtures]") {
    auto journal = Journal::load(fixtures + "state.jsonl");
    INFO((journal ? "" : journal.error()));
    REQUIRE(journal);
    CHECK(journal->header.arguments.size() == 38);
    CHECK(journal->header.arguments.back() == "state.jsonl");
    CHECK(journal->header.record_file_offset == 0);
    REQUIRE(journal->games.size() == 3);
    CHECK(journal->games[2].scheduled.number == 3);
    CHECK(journal->games[2].result == "0-1");

    const std::string torn = scratch().file("v1-torn.jsonl");
    std::ofstream(torn) << read_file(fixtures + "state.jsonl") << R"({"game":{"number":4,"round":2,"enc)";
    auto repaired = Journal::load(torn);
    REQUIRE(repaired);
    CHECK(repaired->games.size() == 3);
}

TEST_CASE("arbiter-v1 fixtures: -resume continues the old journal to the uninterrupted result",
          "[arbiter][persistence][fixtures]") {
    const std::string directory = match_directory("v1-resume");
    const auto run = run_arbiter({"-resume", "state.jsonl"}, directory);
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK_THAT(run.errors, Catch::Contains("resuming: "));
    CHECK(run.count_prefix("Started game") == 5);  // games 4 to 8
    CHECK(run.count_prefix("Games: 8, ") == 1);
    // The stored command line wrote the results to interrupted.json, in the directory it runs in.
    // Games 1 to 3 are the old binary's, as the old full run played them; games 4 to 8 are
    // today's engine's, as an uninterrupted run of the same command line plays them now (the
    // engine's fixed-node play may change from commit to commit; the journal's format may not).
    const Json resumed = read_json(directory + "/interrupted.json");
    const auto old_games = game_list(read_json(fixtures + "results.json"));
    auto journal_header = Journal::load(fixtures + "state.jsonl");
    REQUIRE(journal_header);
    std::vector<std::string> arguments = journal_header->header.arguments;
    REQUIRE(arguments.size() == 38);
    arguments.resize(32);  // without -jsonout, -pgnout and -state
    arguments.insert(arguments.end(), {"-jsonout", "fresh.json"});
    const std::string fresh_directory = match_directory("v1-fresh");
    REQUIRE(run_arbiter(arguments, fresh_directory).status == 0);
    const auto fresh_games = game_list(read_json(fresh_directory + "/fresh.json"));
    const auto resumed_games = game_list(resumed);
    REQUIRE(resumed_games.size() == 8);
    REQUIRE(old_games.size() == 8);
    REQUIRE(fresh_games.size() == 8);
    for (std::size_t game = 0; game < 8; ++game)
        CHECK(resumed_games[game] == (game < 3 ? old_games[game] : fresh_games[game]));
    // The summary counts all eight: the pair's wins, losses and draws are the games' results.
    int small_points_twice = 0;
    for (const Json& game : resumed.at("games")) {
        const std::string result = game.at("result").get<std::string>();
        const bool small_white = game.at("white").get<int>() == 0;
        small_points_twice += result == "1/2-1/2" ? 1 : ((result == "1-0") == small_white ? 2 : 0);
    }
    const Json& pair = resumed.at("summary").at("pairs").at(0);
    CHECK(pair.at("wins").get<int>() + pair.at("losses").get<int>() + pair.at("draws").get<int>() == 8);
    CHECK(2 * pair.at("wins").get<int>() + pair.at("draws").get<int>() == small_points_twice);
    // The old lines are kept as they were; the new games follow them.
    const std::string old_journal = read_file(fixtures + "state.jsonl");
    const std::string journal = read_file(directory + "/state.jsonl");
    CHECK(journal.rfind(old_journal, 0) == 0);
    CHECK(lines_of(journal).size() == 9);
    auto reloaded = Journal::load(directory + "/state.jsonl");
    REQUIRE(reloaded);
    CHECK(reloaded->games.size() == 8);
    // Every game is in the record file once.
    const std::string records = read_file(directory + "/interrupted.ptn");
    std::size_t count = 0;
    for (std::size_t at = records.find("[Player1 "); at != std::string::npos; at = records.find("[Player1 ", at + 1))
        ++count;
    CHECK(count == 8);
}

TEST_CASE("arbiter-v1 fixtures: merging the old shards gives what the old merge gave",
          "[arbiter][persistence][fixtures]") {
    const std::string merged = scratch().file("v1-merged.json");
    const auto run = run_arbiter({"merge", fixtures + "shard-1.json", fixtures + "shard-2.json", "-jsonout", merged});
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK(run.lines == lines_of(read_file(fixtures + "merge-stdout.txt")));
    CHECK(run.has_line("Games: 8, Wins: 5, Losses: 3, Draws: 0, Points: 5.0 (62.50 %)"));
    const Json full = read_json(fixtures + "results.json");
    CHECK(game_list(read_json(merged)) == game_list(full));
    CHECK(near(read_json(merged).at("summary"), full.at("summary")));
    // A shard together with the full run is still refused.
    const auto mixed = run_arbiter({"merge", fixtures + "shard-1.json", fixtures + "results.json"});
    CHECK(mixed.status == 2);
    CHECK_THAT(mixed.errors, Catch::Contains("is not a shard of the same match"));
}
