// The arbiter's live feed (-feed FILE, docs/arbiter.md "Live feed"): a real match written as JSON
// lines that a program knowing only the game's rules can follow to the end.

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <sstream>

#include "arbiter_run.hpp"
#include "core/game_record.hpp"
#include "tools/arbiter/live_feed.hpp"
#include "tools/arbiter/tak_adapter.hpp"

using namespace bge;
using namespace bge::testing;

namespace {

std::vector<arbiter::Json> feed_events(const std::string& path) {
    std::vector<arbiter::Json> events;
    std::istringstream text(read_file(path));
    for (std::string line; std::getline(text, line);) {
        auto event = arbiter::json::parse(line);
        INFO(line);
        REQUIRE(event);
        events.push_back(std::move(*event));
    }
    return events;
}

}  // namespace

TEST_CASE("arbiter -feed: every game of the match, move by move, then its result, as JSON lines", "[arbiter][match]") {
    const std::string feed = scratch().file("live_feed.jsonl");
    const std::string results = scratch().file("live_feed_results.json");
    const ArbiterRun run = run_arbiter({"-game", "tak", "-size", "5", "-engine", "cmd=" + std::string(BGE_TAK_BINARY),
                                        "name=ab", "-engine", "cmd=" + std::string(BGE_TAK_BINARY), "name=rnd",
                                        "option.Player=random", "-each", "nodes=2000", "stderr=/dev/null", "-rounds", "1",
                                        "-games", "2", "-feed", feed, "-jsonout", results});
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    const arbiter::Json summary = read_json(results);
    // -feed says who watches, not what the match is: -resume and the results file never see it.
    CHECK(summary.at("command_line").get<std::string>().find("-feed") == std::string::npos);

    const auto events = feed_events(feed);
    REQUIRE(events.size() >= 6);
    const arbiter::Json& header = events.front();
    CHECK(header.at("event") == "match");
    CHECK(header.at("feed") == arbiter::live_feed_format);
    CHECK(header.at("version") == arbiter::live_feed_version);
    CHECK(header.at("results").at("engines").at(0).at("name") == "ab");
    CHECK(header.at("results").at("games").empty());
    CHECK(events.back().at("event") == "match_over");

    // Each game followed with nothing but the rules: its start, its moves in order, all legal,
    // ending where the arbiter's record ends.
    using Tak = arbiter::TakAdapter::Game;
    const auto variant = arbiter::TakAdapter::make_variant([] {
        arbiter::MatchConfig config;
        config.game = "tak";
        config.size = 5;
        return config;
    }());
    REQUIRE(variant);
    std::map<int, std::optional<GameRecord<Tak>>> games;
    std::map<int, std::string> results_seen;
    int info_lines = 0;
    for (std::size_t i = 1; i + 1 < events.size(); ++i) {
        const arbiter::Json& event = events[i];
        const std::string type = event.at("event").get<std::string>();
        INFO(arbiter::json::dump(event));
        if (type == "game") {
            REQUIRE(!games.contains(event.at("number").get<int>()));
            games[event.at("number").get<int>()];
            continue;
        }
        if (type == "game_over") {
            const int number = event.at("game").at("number").get<int>();
            REQUIRE(games.contains(number));
            REQUIRE(games[number]);
            CHECK(event.at("game").at("plies").get<std::size_t>() == games[number]->moves().size());
            results_seen[number] = event.at("game").at("result").get<std::string>();
            continue;
        }
        const int number = event.at("number").get<int>();
        REQUIRE(games.contains(number));
        auto& record = games[number];
        if (type == "info") {
            ++info_lines;
            CHECK(event.at("line").get<std::string>().starts_with("info"));
            continue;
        }
        REQUIRE(type == "position");
        if (!record) {
            auto start = Tak::parse_position(*variant, event.at("start").get<std::string>());
            REQUIRE(start);
            record.emplace(*start);
        }
        CHECK(event.at("from").get<std::size_t>() == record->moves().size());
        for (const auto& move : event.at("moves")) REQUIRE(record->play_text(move.get<std::string>()));
        CHECK(event.at("clocks").size() == 2);
    }
    CHECK(games.size() == 2);
    CHECK(info_lines > 0);
    std::map<int, std::string> results_file;
    for (const auto& game : summary.at("games")) results_file[game.at("number").get<int>()] = game.at("result").get<std::string>();
    CHECK(results_seen == results_file);
}

TEST_CASE("arbiter -feed and -live: bad values are usage errors", "[arbiter]") {
    CHECK(run_arbiter({"-game", "tak", "-engine", "cmd=x", "-engine", "cmd=y", "-feed"}).status == 2);
    CHECK(run_arbiter({"-game", "tak", "-engine", "cmd=x", "-engine", "cmd=y", "-live", "99999"}).status == 2);
    const ArbiterRun unwritable = run_arbiter({"-game", "tak", "-engine", "cmd=" + std::string(BGE_TAK_BINARY), "-engine",
                                               "cmd=" + std::string(BGE_TAK_BINARY), "-each", "nodes=100", "-feed",
                                               scratch().file("no/such/folder/feed.jsonl")});
    CHECK(unwritable.status == 2);
    CHECK(unwritable.errors.find("-feed") != std::string::npos);
}
