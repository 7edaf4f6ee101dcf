// The arbiter playing TwixT with real engine processes: a match to the end on a small board, the
// records replaying to the results they state and reading back as openings, and the flags it
// refuses.

#include <catch2/catch.hpp>
#include <set>
#include <sstream>
#include <string>

#include "arbiter_run.hpp"
#include "core/game_record.hpp"
#include "core/twixt/twixt.hpp"
#include "tools/arbiter/twixt_adapter.hpp"

using namespace bge;
using bge::testing::read_file;
using bge::testing::run_arbiter;
using bge::testing::scratch;
using bge::testing::transcript;

namespace {

const std::string twixt_binary = BGE_TWIXT_BINARY;

}  // namespace

TEST_CASE("arbiter: a twixt match to the end", "[arbiter][twixt]") {
    const std::string records = scratch().file("twixt_games.txt");
    const auto run = run_arbiter({"-game",
                                  "twixt",
                                  "-size",
                                  "7",
                                  "-engine",
                                  "cmd=" + twixt_binary,
                                  "name=strong",
                                  "nodes=300",
                                  "-engine",
                                  "cmd=" + twixt_binary,
                                  "name=flat",
                                  "option.Player=flat-mc",
                                  "nodes=400",
                                  "-each",
                                  "stderr=/dev/null",
                                  "-games",
                                  "2",
                                  "-rounds",
                                  "2",
                                  "-pgnout",
                                  records});
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK(run.count_prefix("Finished game ") == 4);
    // The sides are called x and o, as in TwixT.
    for (const auto& line : run.lines)
        if (line.rfind("Finished game ", 0) == 0) {
            INFO(line);
            const bool named = line.find("{x wins") != std::string::npos || line.find("{o wins") != std::string::npos ||
                               line.find("{Draw") != std::string::npos;
            CHECK(named);
        }

    const std::string text = read_file(records);
    CHECK_THAT(text, Catch::Contains("[Size \"7\"]"));
    auto openings = arbiter::TwixtAdapter::parse_record_openings(text, twixt::Variant{7});
    REQUIRE(openings);
    REQUIRE(openings->size() == 4);
    for (const auto& opening : *openings) {
        GameRecord<twixt::Twixt> game(opening.start);
        for (const auto& move : opening.moves) game.play(move);
        CHECK(game.outcome().is_over());  // played to the end by the rules: a connection or a draw
    }
    // A record of another size is refused as an opening for this match.
    CHECK_FALSE(arbiter::TwixtAdapter::parse_record_openings(text, twixt::Variant{8}));
}

TEST_CASE("arbiter: twixt refusals", "[arbiter][twixt]") {
    const auto bad_size = run_arbiter({"-game", "twixt", "-size", "4", "-engine", "cmd=" + twixt_binary, "-engine",
                                       "cmd=" + twixt_binary, "-each", "nodes=1"});
    CHECK(bad_size.status == 2);
    CHECK_THAT(bad_size.errors, Catch::Contains("-size"));
    const auto komi = run_arbiter({"-game", "twixt", "-komi", "2", "-engine", "cmd=" + twixt_binary, "-engine",
                                   "cmd=" + twixt_binary, "-each", "nodes=1"});
    CHECK(komi.status == 2);
}

TEST_CASE("arbiter book: random twixt openings, legal and distinct", "[arbiter][twixt][book]") {
    const auto run = run_arbiter({"book", "-game", "twixt", "-size", "8", "-plies", "3", "-count", "5", "-srand", "2"});
    REQUIRE(run.status == 0);
    REQUIRE(run.lines.size() == 5);
    std::set<std::string> distinct(run.lines.begin(), run.lines.end());
    CHECK(distinct.size() == 5);
    for (const std::string& line : run.lines) {
        INFO(line);
        GameRecord<twixt::Twixt> game(twixt::start_state(twixt::Variant{8}));
        std::istringstream words(line);
        std::string word;
        int plies = 0;
        while (words >> word) {
            REQUIRE(game.play_text(word));
            ++plies;
        }
        CHECK(plies == 3);
        CHECK_FALSE(game.outcome().is_over());
    }
}
