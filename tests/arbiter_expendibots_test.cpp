// The arbiter playing Expendibots with real engine processes: results, the referee-style game
// records (which replay to the result they state), records read back as openings, and the
// variant flags it refuses.

#include <catch2/catch.hpp>

#include "arbiter_run.hpp"
#include "core/expendibots/game_log.hpp"
#include "core/expendibots/notation.hpp"
#include "core/game_record.hpp"
#include "core/expendibots/expendibots.hpp"

using namespace bge;
using bge::testing::read_file;
using bge::testing::run_arbiter;
using bge::testing::scratch;
using bge::testing::transcript;

namespace {

const std::string expendibots_binary = BGE_EXPENDIBOTS_BINARY;

std::vector<std::string> match(const std::string& record_file, std::vector<std::string> extra = {}) {
    std::vector<std::string> arguments = {"-game",
                                          "expendibots",
                                          "-engine",
                                          "cmd=" + expendibots_binary,
                                          "name=ab",
                                          "depth=2",
                                          "option.OwnBook=false",
                                          "-engine",
                                          "cmd=" + expendibots_binary,
                                          "name=greedy",
                                          "option.Player=greedy",
                                          "depth=1",
                                          "-each",
                                          "stderr=/dev/null",
                                          "option.Hash=4",
                                          "-games",
                                          "2",
                                          "-pgnout",
                                          record_file};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

}  // namespace

TEST_CASE("arbiter: an expendibots match with referee-style records", "[arbiter][expendibots]") {
    const std::string records = scratch().file("expendibots_games.log");
    const auto run = run_arbiter(match(records));
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK(run.count_prefix("Finished game ") == 2);

    const auto logs = expendibots::parse_game_logs(read_file(records));
    REQUIRE(logs);
    REQUIRE(logs->size() == 2);
    for (const auto& log : *logs) {
        REQUIRE(log.tag("Result"));
        REQUIRE(log.tag("Termination"));
        CHECK(*log.tag("Actions") == std::to_string(log.moves.size()));
        GameRecord<expendibots::Expendibots> replay(log.start);
        for (const auto& move : log.moves) replay.play(move);
        // The record ends where the rules end the game, with the referee's closing line.
        REQUIRE(replay.outcome().is_over());
        CHECK(*log.tag("Result") == expendibots::result_text(replay.outcome()));
        CHECK(*log.tag("Termination") == std::string(replay.outcome().reason));
        CHECK(log.closing == expendibots::referee_result_message(replay.outcome()));
    }
    CHECK(*(*logs)[0].tag("White") == "ab");
    CHECK(*(*logs)[1].tag("White") == "greedy");

    // The records read back as openings (their first 4 actions).
    const std::string again = scratch().file("expendibots_again.log");
    const auto from_book =
        run_arbiter(match(again, {"-openings", "file=" + records, "format=ptn", "plies=4", "-rounds", "1"}));
    INFO(transcript(from_book));
    REQUIRE(from_book.status == 0);
    const auto replayed = expendibots::parse_game_logs(read_file(again));
    REQUIRE(replayed);
    REQUIRE(replayed->size() == 2);
    CHECK((*replayed)[0].comments[0] == "book");
    CHECK((*replayed)[0].moves[3] == (*logs)[0].moves[3]);
}

TEST_CASE("arbiter: expendibots has one variant", "[arbiter][expendibots][errors]") {
    const auto sized = run_arbiter(match(scratch().file("unused.log"), {"-size", "6"}));
    CHECK(sized.status == 2);
    CHECK_THAT(sized.errors, Catch::Contains("8x8 only"));
    const auto komi = run_arbiter(match(scratch().file("unused.log"), {"-komi", "1"}));
    CHECK(komi.status == 2);
    CHECK_THAT(komi.errors, Catch::Contains("no komi"));
}
