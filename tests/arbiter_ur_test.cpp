// The arbiter playing Ur with real engine processes: it rolls the dice (seeded, so a rerun is
// identical), sends the rolls in the move list, and writes records that replay to their result.

#include <catch2/catch.hpp>

#include "arbiter_run.hpp"
#include "core/game_record.hpp"
#include "core/ur/ur.hpp"
#include "tools/arbiter/ur_adapter.hpp"

using namespace bge;
using bge::testing::read_file;
using bge::testing::run_arbiter;
using bge::testing::scratch;

namespace {

const std::string ur_binary = BGE_UR_BINARY;

std::vector<std::string> match(const std::string& record_file, std::vector<std::string> extra = {}) {
    std::vector<std::string> arguments = {"-game",
                                          "ur",
                                          "-engine",
                                          "cmd=" + ur_binary,
                                          "name=greedy",
                                          "option.Player=greedy",
                                          "-engine",
                                          "cmd=" + ur_binary,
                                          "name=random",
                                          "option.Player=random",
                                          "-each",
                                          "depth=1",
                                          "stderr=/dev/null",
                                          "-games",
                                          "2",
                                          "-rounds",
                                          "3",
                                          "-srand",
                                          "11",
                                          "-pgnout",
                                          record_file};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

}  // namespace

TEST_CASE("arbiter: an ur match with seeded dice and replayable records", "[arbiter][ur]") {
    const std::string records = scratch().file("ur_games.pgn");
    const auto run = run_arbiter(match(records, {"-ruleset", "blitz", "-pieces", "3"}));
    REQUIRE(run.status == 0);
    CHECK(run.count_prefix("Games: 6,") == 1);
    const std::string text = read_file(records);
    CHECK(text.find("[Ruleset \"blitz\"]") != std::string::npos);
    CHECK(text.find("[Pieces \"3\"]") != std::string::npos);
    auto openings = arbiter::UrAdapter::parse_record_openings(text, ur::Variant{ur::Ruleset::blitz, 3});
    REQUIRE(openings);
    REQUIRE(openings->size() == 6);
    for (const auto& game : *openings) {
        GameRecord<ur::Ur> record(game.start);
        for (const auto& move : game.moves) record.play(move);
        CHECK(record.outcome().is_over());  // every record replays to a finished game
    }
    // The same seed gives the same dice and so the same games.
    const std::string again = scratch().file("ur_games_again.pgn");
    REQUIRE(run_arbiter(match(again, {"-ruleset", "blitz", "-pieces", "3"})).status == 0);
    auto strip_dates = [](std::string s) {
        for (std::size_t at = s.find("[Date"); at != std::string::npos; at = s.find("[Date", at + 1))
            s.erase(at, s.find('\n', at) - at);
        return s;
    };
    CHECK(strip_dates(read_file(again)) == strip_dates(text));
}

TEST_CASE("arbiter: ur variant flags are checked", "[arbiter][ur]") {
    const std::string records = scratch().file("ur_bad.pgn");
    const auto bad = run_arbiter(match(records, {"-ruleset", "chess"}));
    CHECK(bad.status != 0);
    CHECK(bad.errors.find("-ruleset chess") != std::string::npos);
    const auto sized = run_arbiter(match(records, {"-size", "5"}));
    CHECK(sized.status != 0);
    CHECK(run_arbiter(match(records, {"-pieces", "8"})).status != 0);
}
