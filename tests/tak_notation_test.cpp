// PTN moves and TPS positions: both directions, every accepted form, and clear errors.

#include <catch2/catch.hpp>

#include "core/tak/tak.hpp"
#include "tak_test_helpers.hpp"

using namespace bge;
using namespace bge::tak;
using namespace bge::tak::testing;

TEST_CASE("PTN moves read in every accepted form", "[tak][notation]") {
    const int size = 6;
    auto same = [&](const char* a, const char* b) {
        auto x = parse_move_syntax(a, size);
        auto y = parse_move_syntax(b, size);
        INFO(a << " vs " << b);
        REQUIRE(x);
        REQUIRE(y);
        CHECK(*x == *y);
    };
    same("c2+", "1c2+1");
    same("c2+", "1c2+");
    same("c2+", "c2+1");
    same("a1", "Fa1");
    same("3a1>12", "3a1>12*");
    same("3a1>12", "3a1>12'!");
    same("Sb2", "Sb2?");
    same("Cc3", "Cc3\"");
    same("2d4<", "2d4<2");
}

TEST_CASE("PTN moves write in the shortest form", "[tak][notation]") {
    for (const char* text : {"a1", "Sb2", "Cc3", "c2+", "2c2-", "3a1>12", "6f6<1113", "5a6-5", "d4<"}) {
        auto move = parse_move_syntax(text, 6);
        REQUIRE(move);
        const std::string expected = std::string(text) == "5a6-5" ? "5a6-" : text;
        CHECK(format_move(*move) == expected);
    }
    CHECK(format_move(*parse_move_syntax("1c2+1", 6)) == "c2+");
    CHECK(format_move(*parse_move_syntax("Fa1", 6)) == "a1");
}

TEST_CASE("malformed PTN moves are refused with a reason", "[tak][notation]") {
    for (const char* text : {"", "z9", "a9", "g1", "a", "3", "Xa1", "a1x", "3a1", "9a1+", "0a1+", "3a1+22", "3a1+0",
                             "Sa1+", "a1+*x", "7a1+", "3a1+111111"}) {
        auto move = parse_move_syntax(text, 6);
        INFO("'" << text << "'");
        CHECK_FALSE(move);
        if (!move) CHECK_FALSE(move.error().empty());
    }
    // Legal text, illegal in the position: the reason says why.
    const State s = tps("x4,1/x5/x5/x5/2,x4 1 2");
    auto occupied = parse_move(s, "a1");
    REQUIRE_FALSE(occupied);
    CHECK_THAT(occupied.error(), Catch::Contains("occupied"));
    auto not_ours = parse_move(s, "a1+");
    REQUIRE_FALSE(not_ours);
    CHECK_THAT(not_ours.error(), Catch::Contains("control"));
}

TEST_CASE("TPS reads compressed and uncompressed rows", "[tak][notation]") {
    const State a = tps("x5/x5/x5/x5/x5 1 1");
    const State b = tps("x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x 1 1");
    const State c = tps("x2,x3/x5/x,x,x3/x5/x5 1 1");
    CHECK(format_tps(a) == "x5/x5/x5/x5/x5 1 1");
    CHECK(format_tps(b) == format_tps(a));
    CHECK(format_tps(c) == format_tps(a));
    CHECK(a.hash == b.hash);
    const char* uncompressed = "2,x,x,x,x/x,x,x,x,x/x,x,12S,x,x/x,x,x,x,x/1C,x,x,x,x 2 3";
    CHECK(format_tps(tps(uncompressed)) == "2,x4/x5/x2,12S,x2/x5/1C,x4 2 3");
}

TEST_CASE("TPS round-trips", "[tak][notation]") {
    for (const char* text :
         {"x5/x5/x5/x5/x5 1 1", "x6/x6/x6/x6/x6/x6 2 1", "2,x4/x5/x2,12S,x2/x5/1C,x4 2 3", "x3/x3/11112,x2 2 5",
          "x8/x8/x8/x8/x8/x8/x8/1212121212121C,x7 1 20", "21,12,x/2S,x,12/1,x,2 2 9"}) {
        CHECK(format_tps(tps(text)) == text);
    }
}

TEST_CASE("malformed TPS is refused with a reason", "[tak][notation]") {
    for (const char* text : {
             "",                                // nothing
             "x5/x5/x5/x5/x5",                  // no player or move number
             "x5/x5/x5/x5/x5 1",                // no move number
             "x5/x5/x5/x5/x5 3 1",              // player 3
             "x5/x5/x5/x5/x5 1 0",              // move 0
             "x5/x5/x5/x5/x5 1 a",              // move not a number
             "x5/x5/x5/x5 1 1",                 // 4 rows, 5 columns
             "x5/x5/x5/x5/x4 1 1",              // a short row
             "x5/x5/x5/x5/x6 1 1",              // a long row
             "x2/x2 1 1",                       // size 2
             "x9/x9/x9/x9/x9/x9/x9/x9/x9 1 1",  // size 9
             "x5/x5/x5/x5/3,x4 1 2",            // colour 3
             "x5/x5/x5/x5/1S2,x4 1 2",          // S not on top
             "x5/x5/x5/x5/CS,x4 1 2",           // no pieces
             "x5/x5/x5/x5/1C,1C,x3 1 2",        // two white capstones on 5x5
             "x4/x4/x4/1C,x3 1 2",              // a capstone on 4x4
             "x3/x3/11111111111,x2 1 9",        // eleven white stones on 3x3
             "x5/x5/x5/x5/x0,x5 1 1",           // x0
             "x5/x5/x5/x5/,x5 1 1",             // empty cell
         }) {
        Variant v;
        auto parsed = parse_tps(text, v);
        INFO("'" << text << "'");
        CHECK_FALSE(parsed);
        if (!parsed) CHECK_FALSE(parsed.error().empty());
    }
    // Exactly the reserve is fine.
    CHECK(parse_tps("x3/x3/1111111111,x2 2 9", Variant{}));
}

TEST_CASE("TPS keeps the side to move and the move number", "[tak][notation]") {
    const State s = tps("x5/x5/x5/x5/x5 2 7");
    CHECK(s.side_to_move() == Side::second);
    CHECK(s.ply == 13);
    CHECK_FALSE(s.in_opening());
}

TEST_CASE("result texts", "[tak][notation]") {
    CHECK(result_text(Outcome::win(Side::first, "road")) == "R-0");
    CHECK(result_text(Outcome::win(Side::second, "road")) == "0-R");
    CHECK(result_text(Outcome::win(Side::first, "flats")) == "F-0");
    CHECK(result_text(Outcome::win(Side::second, "flats")) == "0-F");
    CHECK(result_text(Outcome::draw("flats")) == "1/2-1/2");
    CHECK(result_text(Outcome::win(Side::second, "time")) == "0-1");
    CHECK(result_text(Outcome::ongoing()) == "*");
}

TEST_CASE("the board drawing shows stacks, tops and the position", "[tak][notation]") {
    const std::string drawing = draw_board(tps("x4,2S/x,12C,x3/1,x4/x5/x5 1 4"));
    CHECK_THAT(drawing, Catch::Contains(" 5  .  .  .  .  B"));
    CHECK_THAT(drawing, Catch::Contains(" 4  .  wD"));
    CHECK_THAT(drawing, Catch::Contains("TPS: x4,2S/x,12C,x3/1,x4/x5/x5 1 4"));
}
