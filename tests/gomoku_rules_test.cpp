// Gomoku rules: wins by rule set (overlines), renju's forbidden moves including the recursive
// (false) cases, draws, k in a row on small boards, perft, and the text codecs.

#include <catch2/catch.hpp>

#include "core/gomoku/gomoku.hpp"
#include "core/perft.hpp"
#include "gomoku_test_helpers.hpp"

using namespace bge;
using namespace bge::gomoku;
using namespace bge::gomoku::testing;

namespace {

Outcome after(State state, const std::string& move) {
    play(state, at(state, move));
    return outcome(state);
}

}  // namespace

TEST_CASE("five wins; overlines depend on the rule", "[gomoku][rules]") {
    // Black: d8 e8 f8 g8 and i8; h8 makes six in a row (d8-i8). Also a plain four on row 5.
    const std::initializer_list<const char*> blacks = {"d8", "e8", "f8", "g8", "i8", "b5", "c5", "d5", "e5"};
    const std::initializer_list<const char*> whites = {"a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1", "a3"};
    SECTION("freestyle: six in a row wins") {
        const Outcome o = after(board(blacks, whites, Rule::freestyle), "h8");
        CHECK(o.is_win_for(Side::first));
        CHECK(o.reason == "five");
    }
    SECTION("standard: six in a row does not win, exactly five does") {
        CHECK_FALSE(after(board(blacks, whites, Rule::standard), "h8").is_over());
        CHECK(after(board(blacks, whites, Rule::standard), "f5").is_win_for(Side::first));
        CHECK(after(board(blacks, whites, Rule::standard), "a5").is_win_for(Side::first));
    }
    SECTION("renju: Black's overline is forbidden and loses") {
        const Outcome o = after(board(blacks, whites, Rule::renju), "h8");
        CHECK(o.is_win_for(Side::second));
        CHECK(o.reason == "forbidden");
        CHECK(is_forbidden(board(blacks, whites, Rule::renju), cell("h8")));
    }
    SECTION("renju: White's overline wins") {
        State s = board({"a15", "c15", "e15", "g15", "i15", "k15", "m15", "o15", "a13"},
                        {"d8", "e8", "f8", "g8", "i8", "b5", "c5", "d5", "e5"}, Rule::renju);
        play(s, at(s, "o13"));  // Black's move elsewhere
        play(s, at(s, "h8"));
        CHECK(outcome(s).is_win_for(Side::second));
    }
    SECTION("standard: White's overline does not win either") {
        State s = board({"a15", "c15", "e15", "g15", "i15", "k15", "m15", "o15", "a13"},
                        {"d8", "e8", "f8", "g8", "i8", "b5", "c5", "d5", "e5"}, Rule::standard);
        play(s, at(s, "o13"));
        play(s, at(s, "h8"));
        CHECK_FALSE(outcome(s).is_over());
    }
}

TEST_CASE("renju: Black's forbidden moves", "[gomoku][rules][renju]") {
    auto renju = [&](std::initializer_list<const char*> blacks, std::initializer_list<const char*> whites = {}) {
        Variant variant;
        variant.rule = Rule::renju;
        State s = start_state(variant);
        for (const char* name : blacks) s.cells[static_cast<std::size_t>(cell(name))] = black;
        for (const char* name : whites) s.cells[static_cast<std::size_t>(cell(name))] = white;
        return s;
    };
    SECTION("double three") {
        CHECK(is_forbidden(renju({"g8", "i8", "h7", "h9"}), cell("h8")));
        // Two threes made of the new stone and two neighbours each, on a row and a column.
        CHECK(is_forbidden(renju({"f8", "g8", "h6", "h7"}), cell("h8")));
    }
    SECTION("a three blocked at one end is not a three") {
        CHECK_FALSE(is_forbidden(renju({"g8", "i8", "h7", "h9"}, {"j8"}), cell("h8")));
        CHECK_FALSE(is_forbidden(renju({"g8", "i8", "h7", "h9"}, {"f8", "j8"}), cell("h8")));
    }
    SECTION("double four, on two lines and on one line") {
        CHECK(is_forbidden(renju({"d8", "f8", "g8", "h10", "h11", "h12"}), cell("h8")));
        CHECK(is_forbidden(renju({"d8", "f8", "h8", "j8"}), cell("g8")));  // X.XXX.X
        CHECK(is_forbidden(renju({"c8", "d8", "e8", "h8", "i8", "j8"}), cell("g8")) == false);
    }
    SECTION("four-three is allowed") {
        CHECK_FALSE(is_forbidden(renju({"d8", "f8", "g8", "h9", "h10"}), cell("h8")));
        State s = renju({"d8", "f8", "g8", "h9", "h10"}, {"a1", "c1", "e1", "g1", "i1"});
        REQUIRE(rebuild_derived(s));
        play(s, at(s, "h8"));
        CHECK_FALSE(outcome(s).is_over());
    }
    SECTION("overline, unless the same move makes exactly five") {
        CHECK(is_forbidden(renju({"c8", "d8", "e8", "g8", "h8"}), cell("f8")));
        CHECK_FALSE(is_forbidden(renju({"d8", "e8", "g8", "h8", "i8", "f4", "f5", "f6", "f7"}), cell("f8")));
        State s = renju({"d8", "e8", "g8", "h8", "i8", "f4", "f5", "f6", "f7"},
                        {"a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1", "a3"});
        REQUIRE(rebuild_derived(s));
        play(s, at(s, "f8"));
        CHECK(outcome(s).is_win_for(Side::first));
        CHECK(outcome(s).reason == "five");
    }
    SECTION("a five takes precedence over a double four") {
        CHECK_FALSE(is_forbidden(renju({"d8", "e8", "f8", "g8", "h10", "h11", "h12"}), cell("h8")));
    }
    SECTION("false double three: a three whose straight four would be an overline") {
        // f8 g8 h8: e8 gives only a four (d8 would make c8-h8, six), i8 likewise (j8: f8-k8).
        CHECK_FALSE(is_forbidden(renju({"c8", "f8", "g8", "k8", "h7", "h9"}), cell("h8")));
        CHECK(is_forbidden(renju({"f8", "g8", "h7", "h9"}), cell("h8")));
    }
    SECTION("false double three, recursively: both extension points are themselves forbidden") {
        // With h8, e8 would make a straight four on row 8 and another four on column e (a double
        // four), and so would i8 with column i: the row-8 three can never become a straight four.
        const std::initializer_list<const char*> base = {"f8", "g8", "h7", "h9"};
        CHECK(is_forbidden(renju(base), cell("h8")));
        CHECK_FALSE(is_forbidden(renju({"f8", "g8", "h7", "h9", "e9", "e10", "e11", "i9", "i10", "i11"}), cell("h8")));
        // Only one extension point forbidden: the three is still real.
        CHECK(is_forbidden(renju({"f8", "g8", "h7", "h9", "e9", "e10", "e11"}), cell("h8")));
    }
    SECTION("White has no forbidden moves") {
        State s = renju({"a1", "c1", "e1", "g1", "i1"}, {"g8", "i8", "h7", "h9"});
        REQUIRE(rebuild_derived(s));
        REQUIRE(s.side_to_move() == Side::second);
        play(s, at(s, "h8"));  // White's double three
        CHECK_FALSE(outcome(s).is_over());
    }
    SECTION("freestyle and standard have no forbidden moves") {
        State s = board({"g8", "i8", "h7", "h9"}, {"a1", "c1", "e1", "g1"}, Rule::standard);
        CHECK_FALSE(is_forbidden(s, cell("h8")));
        play(s, at(s, "h8"));
        CHECK_FALSE(outcome(s).is_over());
    }
}

TEST_CASE("draws: a full board, and the move limit", "[gomoku][rules]") {
    // Tic-tac-toe's classic draw.
    Variant ttt{3, 3, 3, Rule::freestyle, 0};
    State s = start_state(ttt);
    for (const char* move : {"b2", "a1", "c3", "a3", "a2", "c2", "b1", "b3", "c1"}) {
        REQUIRE_FALSE(outcome(s).is_over());
        play(s, at(s, move));
    }
    CHECK(outcome(s) == Outcome::draw("board full"));
    Variant capped;
    capped.move_limit = 4;
    State c = start_state(capped);
    for (const char* move : {"a1", "o15", "c1", "m15"}) play(c, at(c, move));
    CHECK(outcome(c) == Outcome::draw("move limit"));
    CHECK(check_variant(Variant{15, 15, 5, Rule::freestyle, 200}).ok());
}

TEST_CASE("k in a row on small and rectangular boards", "[gomoku][rules]") {
    Variant four{6, 4, 4, Rule::freestyle, 0};
    State s = start_state(four);
    for (const char* move : {"a1", "a2", "b1", "b2", "c1", "c2"}) play(s, at(s, move));
    play(s, at(s, "d1"));
    CHECK(outcome(s).is_win_for(Side::first));
    CHECK(outcome(s).reason == "line");
    CHECK_FALSE(check_variant(Variant{2, 15, 5, Rule::freestyle, 0}).ok());
    CHECK_FALSE(check_variant(Variant{23, 15, 5, Rule::freestyle, 0}).ok());
    CHECK_FALSE(check_variant(Variant{15, 15, 4, Rule::renju, 0}).ok());
    CHECK_FALSE(check_variant(Variant{4, 4, 5, Rule::freestyle, 0}).ok());
    CHECK(check_variant(Variant{22, 5, 5, Rule::standard, 0}).ok());
}

TEST_CASE("perft: tic-tac-toe, and counts on 15x15", "[gomoku][perft]") {
    State ttt = start_state(Variant{3, 3, 3, Rule::freestyle, 0});
    // 9!/(9-d)! until wins appear at ply 5; a finished game counts 0 below it. The 255168 games
    // of tic-tac-toe are the leaves: sum over d of (games ending at ply d).
    const std::uint64_t expected[] = {1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
    for (int depth = 0; depth <= 9; ++depth) CHECK(perft<Gomoku>(ttt, depth) == expected[depth]);
    // Games ending at each ply: a finished game counts 0 deeper, so count terminals directly.
    std::uint64_t games = 0;
    auto count_games = [&](auto&& self, State& s) -> void {
        if (outcome(s).is_over()) {
            ++games;
            return;
        }
        MoveList<Gomoku> moves;
        generate_moves(s, moves);
        for (const Move& move : moves) {
            const Undo record = play(s, move);
            self(self, s);
            undo(s, move, record);
        }
    };
    count_games(count_games, ttt);
    CHECK(games == 255168);

    State board15 = start_state(Variant{});
    CHECK(perft<Gomoku>(board15, 1) == 225);
    CHECK(perft<Gomoku>(board15, 2) == 225 * 224);
    CHECK(perft<Gomoku>(board15, 3) == 225ULL * 224 * 223);
}

TEST_CASE("notation: cells, moves and positions", "[gomoku][notation]") {
    State s = start_state(Variant{});
    CHECK(at(s, "h8") == Move::at(7, 7));
    CHECK(at(s, "7,7") == Move::at(7, 7));
    CHECK(at(s, "a15") == Move::at(0, 0));
    CHECK(at(s, "a1") == Move::at(0, 14));
    CHECK(at(s, "o1") == Move::at(14, 14));
    CHECK(format_move(s, Move::at(0, 0)) == "a15");
    CHECK(xy_text(Move::at(3, 11)) == "3,11");
    for (const char* bad : {"", "p1", "a0", "a16", "15,0", "0,15", "h", "8", "x,y", "-1,3", "h8x", "1,2,3"}) {
        INFO(bad);
        CHECK_FALSE(parse_move(s, bad).ok());
    }
    play(s, at(s, "h8"));
    CHECK_THAT(parse_move(s, "h8").error(), Catch::Contains("occupied"));
    CHECK_THAT(parse_move(s, "7,7").error(), Catch::Contains("occupied"));

    const std::string text = "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 o";
    CHECK(format_position(s) == text);
    CHECK(format_position(fen(text)) == text);
    CHECK(fen(text).hash == s.hash);
    CHECK(format_position(start_state(Variant{})) == "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x");
    auto tiny = parse_position("3/3/3 x", Variant{3, 3, 3, Rule::freestyle, 0});
    REQUIRE(tiny);
    CHECK(format_position(*tiny) == "3/3/3 x");
    CHECK(fen("5/2#2/5/5/4x o").playable == 24);
    for (const char* bad : {"15/15 x", "3/3/3", "3/3/3 z", "3/3/3 o", "3/4/3 x", "3/3/xxx o", "xxx/ooo/3 x",
                            "3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3 x", "3/3/3 x extra", "3/3/3q x"}) {
        INFO(bad);
        CHECK_FALSE(parse_position(bad, Variant{}).ok());
    }
    // A finished position parses, as won by the side that just moved.
    State won = fen("5/xxxxx/oooo1/5/5 o");
    CHECK(outcome(won).is_win_for(Side::first));
    CHECK(result_text(outcome(won)) == "1-0");
}
