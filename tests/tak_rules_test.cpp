// Tak rules, corner by corner. Expected positions are worked out by hand from the rules in
// docs/tak.md.

#include <catch2/catch.hpp>

#include "core/game_record.hpp"
#include "core/tak/tak.hpp"
#include "tak_test_helpers.hpp"

using namespace bge;
using namespace bge::tak;
using namespace bge::tak::testing;

TEST_CASE("reserves per board size", "[tak][rules]") {
    const int stones[] = {10, 15, 21, 30, 40, 50};
    const int caps[] = {0, 0, 1, 1, 2, 2};
    for (int size = 3; size <= 8; ++size) {
        const State s = start_state(Variant{size, 0, false});
        CHECK(s.stones_left[0] == stones[size - 3]);
        CHECK(s.stones_left[1] == stones[size - 3]);
        CHECK(s.caps_left[0] == caps[size - 3]);
        CHECK(s.caps_left[1] == caps[size - 3]);
    }
}

TEST_CASE("the first two plies place the opponent's flat", "[tak][rules]") {
    CHECK(after("x5/x5/x5/x5/x5 1 1", "a1") == "x5/x5/x5/x5/2,x4 2 1");
    CHECK(after("x5/x5/x5/x5/2,x4 2 1", "e5") == "x4,1/x5/x5/x5/2,x4 1 2");
    CHECK_FALSE(legal("x5/x5/x5/x5/x5 1 1", "Sa1"));
    CHECK_FALSE(legal("x5/x5/x5/x5/x5 1 1", "Ca1"));
    CHECK_FALSE(legal("x5/x5/x5/x5/2,x4 2 1", "a1+"));  // no spreads in the opening
    // The stones come from the opponent's reserve.
    State s = tps("x5/x5/x5/x5/x5 1 1");
    play(s, move_in(s, "c3"));
    CHECK(s.stones_left[0] == 21);
    CHECK(s.stones_left[1] == 20);
    CHECK(s.side_to_move() == Side::second);
    // From the third ply on, placements are one's own and all three kinds.
    CHECK(after("x4,1/x5/x5/x5/2,x4 1 2", "Sc3") == "x4,1/x5/x2,1S,x2/x5/2,x4 2 2");
    CHECK(after("x4,1/x5/x5/x5/2,x4 1 2", "Cc3") == "x4,1/x5/x2,1C,x2/x5/2,x4 2 2");
}

TEST_CASE("placements need an empty square and pieces in reserve", "[tak][rules]") {
    CHECK_FALSE(legal("x4,1/x5/x5/x5/2,x4 1 2", "a1"));
    // 4x4 has no capstones.
    CHECK_FALSE(legal("x3,1/x4/x4/2,x3 1 2", "Cb2"));
    // White has placed its only 5x5 capstone.
    CHECK_FALSE(legal("x4,1/x5/x2,1C,x2/x5/2,x4 1 3", "Cb2"));
    CHECK(legal("x4,1/x5/x2,1C,x2/x5/2,x4 1 3", "Sb2"));
}

TEST_CASE("a spread carries at most the board size", "[tak][rules]") {
    // 3x3, black's five-high stack on a1.
    const std::string position = "x3/x3/11112,x2 2 5";
    CHECK(legal(position, "3a1+"));
    CHECK_FALSE(legal(position, "4a1+"));
    CHECK_FALSE(legal(position, "5a1+"));
    // Carry 1,1,2 from the top; drop two on a2 (bottom of the carry first), one on a3.
    CHECK(after(position, "3a1+21") == "2,x2/11,x2/11,x2 1 6");
    CHECK(after(position, "3a1>12") == "x3/x3/11,1,12 1 6");
    // Drops must add up to the count, and every drop is at least one piece.
    CHECK_FALSE(legal(position, "3a1+22"));
    CHECK_FALSE(parse_move_syntax("3a1+30", 3).ok());
    // A spread cannot run off the board.
    CHECK_FALSE(legal(position, "3a1+111"));
    CHECK_FALSE(legal(position, "a1-"));
}

TEST_CASE("walls and capstones block; a lone capstone flattens a wall", "[tak][rules]") {
    // A flat may not move onto a wall or a capstone.
    CHECK_FALSE(legal("x5/x5/x5/2S,x4/1,x4 1 3", "a1+"));
    CHECK_FALSE(legal("x5/x5/x5/2C,x4/1,x4 1 3", "a1+"));
    // The capstone alone flattens the wall; the wall becomes a flat under it.
    CHECK(after("x5/x5/x5/2S,x4/1C,x4 1 3", "a1+") == "x5/x5/x5/21C,x4/x5 2 3");
    // ... also an own wall.
    CHECK(after("x5/x5/x5/1S,x4/1C,x4 1 3", "a1+") == "x5/x5/x5/11C,x4/x5 2 3");
    // Two pieces topped by the capstone may not land together on the wall.
    CHECK_FALSE(legal("x5/x5/x5/2S,x4/11C,x4 1 3", "2a1+"));
    // But they may when the capstone arrives alone, last.
    const std::string stacked = "x5/x5/2S,x4/x5/11C,x4 1 3";
    CHECK(after(stacked, "2a1+11") == "x5/x5/21C,x4/1,x4/x5 2 3");
    CHECK(after(stacked, "2a1+") == "x5/x5/2S,x4/11C,x4/x5 2 3");
    // A capstone may not pass over a wall or flatten one with company.
    CHECK_FALSE(legal("x5/x5/x5/2S,x4/111C,x4 1 3", "3a1+12"));
    CHECK_FALSE(legal("x5/x5/2S,x4/x5/111C,x4 1 3", "3a1+111"));
    // Nothing moves onto a capstone, not even a capstone.
    CHECK_FALSE(legal("x5/x5/x5/2C,x4/1C,x4 1 3", "a1+"));
    // A moved wall stays a wall; what lies under it is flat.
    CHECK(after("x5/x5/x5/x5/1S,x4 1 3", "a1>") == "x5/x5/x5/x5/x,1S,x3 2 3");
    CHECK(after("x5/x5/x5/x5/21S,x4 1 3", "2a1>11") == "x5/x5/x5/x5/x,2,1S,x2 2 3");
    // Flattening is marked with * in PTN and the mark is accepted when reading.
    State s = tps("x5/x5/x5/2S,x4/1C,x4 1 3");
    CHECK(format_move(s, move_in(s, "a1+"), true) == "a1+*");
    CHECK(legal("x5/x5/x5/2S,x4/1C,x4 1 3", "a1+*"));
}

TEST_CASE("only the controller of a stack moves it", "[tak][rules]") {
    CHECK_FALSE(legal("x5/x5/x5/x5/12,x4 1 3", "a1+"));
    CHECK(legal("x5/x5/x5/x5/21,x4 1 3", "a1+"));
}

TEST_CASE("roads", "[tak][rules]") {
    // A straight road, a bent road and one through a capstone.
    CHECK(result_of(tps("1,x2/1,x2/1,x,2 2 4")) == "R-0");
    CHECK(result_of(tps("x,2,2/x,2,x/2,2,x 1 5")) == "0-R");
    CHECK(result_of(tps("x5/x5/1,1C,1,1,1/x5/2,2,x3 2 5")) == "R-0");
    // Walls never count; diagonals never connect.
    CHECK(result_of(tps("x5/x5/1,1S,1,1,1/x5/2,2,x3 2 5")) == "*");
    CHECK(result_of(tps("1,x2/x,1,x/x2,1 2 3")) == "*");
}

TEST_CASE("a move that completes both roads wins for the mover", "[tak][rules]") {
    // White spreads b3's two white pieces down: b1, b2 join a1, c1 for White's road, and the
    // black piece left on b3 joins a3, c3 for Black's.
    const std::string position = "2,211,2/x3/1,x,1 1 3";
    State s = tps(position);
    play(s, move_in(s, "2b3-11"));
    CHECK(format_tps(s) == "2,2,2/x,1,x/1,1,1 2 3");
    CHECK(has_road(s, Side::first));
    CHECK(has_road(s, Side::second));
    CHECK(result_of(s) == "R-0");
    // The same with colours swapped: Black moves and wins.
    State t = tps("1,122,1/x3/2,x,2 2 3");
    play(t, move_in(t, "2b3-11"));
    CHECK(result_of(t) == "0-R");
}

TEST_CASE("a move that completes only the opponent's road is legal and loses", "[tak][rules]") {
    // Black uncovers White's b2 by moving its b2 piece away; White's column b is then a road.
    State s = tps("x,1,x/x,12,x/x,1,2 2 4");
    play(s, move_in(s, "b2>"));
    CHECK(result_of(s) == "R-0");
}

TEST_CASE("flat wins: full board and empty reserves", "[tak][rules]") {
    // 3x3, one empty square; filling it ends the game on flats.
    State full = tps("1,2,1/2,x,2/1,2,1 1 5");
    play(full, move_in(full, "b2"));
    CHECK(result_of(full) == "F-0");  // 5 white flats to 4
    State with_wall = tps("1,2,1/2,x,2/1,2,1 1 5");
    play(with_wall, move_in(with_wall, "Sb2"));
    CHECK(result_of(with_wall) == "1/2-1/2");  // 4 to 4
    // Komi in half flats goes to Black.
    State half = tps("1,2,1/2,x,2/1,2,1 1 5", 1);
    play(half, move_in(half, "b2"));
    CHECK(result_of(half) == "F-0");  // 5 to 4 + 0.5
    State komi = tps("1,2,1/2,x,2/1,2,1 1 5", 2);
    play(komi, move_in(komi, "b2"));
    CHECK(result_of(komi) == "1/2-1/2");  // 5 to 4 + 1
    State big_komi = tps("1,2,1/2,x,2/1,2,1 1 5", 3);
    play(big_komi, move_in(big_komi, "b2"));
    CHECK(result_of(big_komi) == "0-F");  // 5 to 4 + 1.5
    State negative = tps("1,2,1/2,x,2/1,2,1 1 5", -2);
    play(negative, move_in(negative, "Sb2"));
    CHECK(result_of(negative) == "F-0");  // 4 to 4 - 1

    // White has nine of its ten 3x3 stones on the board; placing the tenth ends the game.
    const std::string last_stone = "1112,x,1112/x,1,x/112,x2 1 8";
    CHECK(pieces_left(tps(last_stone), Side::first) == 1);
    State s = tps(last_stone);
    play(s, move_in(s, "b3"));
    CHECK(result_of(s) == "0-F");  // tops: black a3 c3 a1, white b2 b3: 2 to 3
    // With no stones left no placement is legal, but spreads are.
    State empty = tps("1112,1,1112/x,1,x/112,x2 2 8");
    CHECK(result_of(empty) == "0-F");  // the game already ended; perft counts 0
}

TEST_CASE("capstones do not count as flats", "[tak][rules]") {
    State s = tps("x5/x5/x5/x5/1C,1,2,2,x 1 5");
    CHECK(flat_count(s, Side::first) == 1);
    CHECK(flat_count(s, Side::second) == 2);
}

TEST_CASE("playing and undoing restores the position exactly", "[tak][rules]") {
    for (const char* position :
         {"x5/x5/2S,x4/x5/11C,x4 1 3", "x3/x3/11112,x2 2 5", "2,211,2/x3/1,x,1 1 3", "x5/x5/x5/2S,x4/1C,x4 1 3"}) {
        const State before = tps(position);
        MoveList<Tak> moves;
        generate_moves(before, moves);
        for (Move m : moves) {
            State s = before;
            const Undo record = play(s, m);
            CHECK(s.hash == compute_hash(s));
            undo(s, m, record);
            INFO(position << " " << format_move(m));
            CHECK(format_tps(s) == format_tps(before));
            CHECK(s.hash == before.hash);
            CHECK(s.top_white == before.top_white);
            CHECK(s.top_black == before.top_black);
            CHECK(s.walls == before.walls);
            CHECK(s.caps == before.caps);
            CHECK(s.stones_left[0] == before.stones_left[0]);
            CHECK(s.stones_left[1] == before.stones_left[1]);
            CHECK(s.caps_left[0] == before.caps_left[0]);
            CHECK(s.caps_left[1] == before.caps_left[1]);
        }
    }
}

TEST_CASE("the hash depends on the position, not the path", "[tak][rules]") {
    State a = tps("x5/x5/x5/x5/x5 1 1");
    State b = a;
    for (const char* m : {"a1", "e5", "c3", "c2", "d3", "d2"}) play(a, move_in(a, m));
    for (const char* m : {"a1", "e5", "d3", "d2", "c3", "c2"}) play(b, move_in(b, m));
    // Different move orders to the same position: White on c3 and d3, Black on c2 and d2.
    CHECK(format_tps(a) == format_tps(b));
    CHECK(a.hash == b.hash);
    CHECK(a.hash == compute_hash(a));
    const State c = tps("x5/x5/x5/x5/x5 2 1");
    CHECK(c.hash != tps("x5/x5/x5/x5/x5 1 1").hash);  // side to move is hashed
}

TEST_CASE("threefold repetition is a draw only when the variant says so", "[tak][rules]") {
    Variant variant{5, 0, true};
    GameRecord<Tak> game(*parse_tps("x5/x5/x5/x5/x5 1 1", variant));
    for (const char* m : {"a1", "e5", "b2", "d4"}) REQUIRE(game.play_text(m));
    for (int i = 0; i < 2; ++i)
        for (const char* m : {"b2>", "d4<", "c2<", "c4>"}) REQUIRE(game.play_text(m));
    CHECK(game.occurrences_of_current() == 3);
    CHECK(game.outcome() == Outcome::draw("repetition"));

    GameRecord<Tak> standard(*parse_tps("x5/x5/x5/x5/x5 1 1", Variant{}));
    for (const char* m : {"a1", "e5", "b2", "d4"}) REQUIRE(standard.play_text(m));
    for (int i = 0; i < 2; ++i)
        for (const char* m : {"b2>", "d4<", "c2<", "c4>"}) REQUIRE(standard.play_text(m));
    CHECK_FALSE(standard.outcome().is_over());
}
