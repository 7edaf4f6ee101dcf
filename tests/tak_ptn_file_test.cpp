// PTN game records: reading real-looking files, writing them back, and refusing broken ones.

#include <catch2/catch.hpp>

#include "core/tak/ptn_file.hpp"
#include "core/tak/tak.hpp"

using namespace bge;
using namespace bge::tak;

namespace {
const char* sample_game = R"([Site "PlayTak.com"]
[Event "Online Play"]
[Date "2026.11.21"]
[Player1 "alice"]
[Player2 "bob \"the builder\""]
[Size "5"]
[Komi "1.5"]
[Result "R-0"]

1. a1 e5
2. c3 {centre} d3
3. c2 d2'
4. c4 d4!
5. c5 d5?
6. c1 R-0
)";
}

TEST_CASE("a PTN game is read with tags, comments and marks", "[tak][ptn]") {
    auto game = parse_ptn(sample_game);
    REQUIRE(game);
    CHECK(game->tag("Player2") == std::optional<std::string>("bob \"the builder\""));
    CHECK(game->start.size == 5);
    CHECK(game->start.half_komi == 3);
    CHECK(game->moves.size() == 11);
    CHECK(game->result == "R-0");
    CHECK(game->comments[2] == "centre");
    State s = game->start;
    for (Move m : game->moves) play(s, m);
    CHECK(result_text(outcome(s)) == "R-0");  // c1..c5 is White's road
}

TEST_CASE("PTN games round-trip", "[tak][ptn]") {
    auto game = parse_ptn(sample_game);
    REQUIRE(game);
    const std::string written = write_ptn(*game);
    auto again = parse_ptn(written);
    REQUIRE(again);
    CHECK(again->moves == game->moves);
    CHECK(again->tags == game->tags);
    CHECK(write_ptn(*again) == written);
    CHECK_THAT(written, Catch::Contains("2. c3 {centre} d3\n"));
    CHECK_THAT(written, Catch::Contains("[Komi \"1.5\"]"));
}

TEST_CASE("a PTN game from a TPS with Black to move", "[tak][ptn]") {
    PtnGame game;
    game.start = *parse_tps("x3/x,1,x/2,x2 2 2", Variant{});
    State s = game.start;
    for (const char* text : {"c3", "b1", "Sb3"}) {
        const Move m = *parse_move(s, text);
        game.moves.push_back(m);
        play(s, m);
    }
    game.set_tag("Player1", "p1");
    const std::string written = write_ptn(game);
    CHECK_THAT(written, Catch::Contains("[TPS \"x3/x,1,x/2,x2 2 2\"]"));
    CHECK_THAT(written, Catch::Contains("2. -- c3\n3. b1 Sb3\n"));
    auto again = parse_ptn(written);
    REQUIRE(again);
    CHECK(again->moves == game.moves);
    CHECK(format_tps(again->start) == "x3/x,1,x/2,x2 2 2");
}

TEST_CASE("several games in one text", "[tak][ptn]") {
    const std::string two = std::string(sample_game) + "\n[Size \"3\"]\n\n1. a1 c3 2. b2 *\n";
    auto games = parse_ptn_games(two);
    REQUIRE(games);
    REQUIRE(games->size() == 2);
    CHECK((*games)[1].moves.size() == 3);
    CHECK((*games)[1].result == "*");
}

TEST_CASE("broken PTN is refused with the place it broke", "[tak][ptn]") {
    auto illegal = parse_ptn("[Size \"5\"]\n\n1. a1 a1\n");
    REQUIRE_FALSE(illegal);
    CHECK_THAT(illegal.error(), Catch::Contains("line 3") && Catch::Contains("move 2"));
    CHECK_FALSE(parse_ptn("[Size \"9\"]\n1. a1"));
    CHECK_FALSE(parse_ptn("1. a1 e5"));                       // no size
    CHECK_FALSE(parse_ptn("[Size \"5\"\n1. a1"));             // unclosed tag
    CHECK_FALSE(parse_ptn("[Size \"5\"]\n1. a1 {unclosed"));  // unclosed comment
    CHECK_FALSE(parse_ptn("[Size \"5\"]\n[Komi \"abc\"]\n1. a1"));
    CHECK_FALSE(parse_ptn("[Size \"5\"]\n1. a1 e5 R-0 2. c3"));  // move after the result
    CHECK_FALSE(parse_ptn(""));
}

TEST_CASE("komi text", "[tak][ptn]") {
    CHECK(komi_text(0) == "0");
    CHECK(komi_text(4) == "2");
    CHECK(komi_text(5) == "2.5");
    CHECK(komi_text(-1) == "-0.5");
    CHECK(komi_text(-4) == "-2");
    CHECK(*parse_komi("2.5") == 5);
    CHECK(*parse_komi("-0.5") == -1);
    CHECK(*parse_komi("0") == 0);
    CHECK_FALSE(parse_komi("2.3"));
    CHECK_FALSE(parse_komi(""));
}
