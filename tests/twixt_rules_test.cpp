// TwixT rules against facts derived independently: bridge crossings in every geometry (by a
// segment-intersection test), the pie swap with OpenSpiel's rotation and its border-row exception,
// wins on each pair of borders, the draw, and the text codecs.

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>

#include "core/twixt/twixt.hpp"
#include "twixt_test_helpers.hpp"

using namespace bge;
using namespace bge::twixt;
using bge::testing::Point;
using bge::testing::segments_cross;
using bge::testing::twixt_after;

namespace {

constexpr std::array<Point, 8> knight_moves{{{1, -2}, {2, -1}, {2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}}};

int square_of(Point p) { return square_at(p.column, p.row); }

// Whether the board holds a bridge between the pegs on a and b.
bool has_bridge(const State& state, Point a, Point b) {
    for (int d = 0; d < 8; ++d)
        if (square_of(a) + knight_step(d) == square_of(b)) return (state.links[square_of(a)] >> d) & 1;
    return false;
}

// A 21x21 position with an existing bridge p1-p2 of colour `blocker` and a peg of `mover` on
// q1, `mover` to move; filler pegs far away (three apart on row 19) make the peg counts legal.
State crossing_position(Point p1, Point p2, std::uint8_t blocker, Point q1, std::uint8_t mover) {
    State state = start_state(Variant{21});
    state.cells[square_of(p1)] = blocker;
    state.cells[square_of(p2)] = blocker;
    state.cells[square_of(q1)] = mover;
    int x_pegs = (blocker == first_peg ? 2 : 0) + (mover == first_peg ? 1 : 0);
    int o_pegs = 3 - x_pegs;
    // x to move: as many x as o pegs; o to move: one more x peg.
    const int want_x = mover == first_peg ? std::max(x_pegs, o_pegs) : std::max(x_pegs, o_pegs + 1);
    const int want_o = mover == first_peg ? want_x : want_x - 1;
    int column = 1;
    for (; x_pegs < want_x; ++x_pegs, column += 3) state.cells[square_at(column, 19)] = first_peg;
    for (; o_pegs < want_o; ++o_pegs, column += 3) state.cells[square_at(column, 19)] = second_peg;
    const int from = square_of(p1);
    int direction = 0;
    while (from + knight_step(direction) != square_of(p2)) ++direction;
    REQUIRE(rebuild(state, mover == first_peg ? Side::first : Side::second, {{from, direction}}));
    return state;
}

}  // namespace

TEST_CASE("twixt: a bridge is added unless it would cross any bridge, in every geometry", "[twixt][rules]") {
    const Point origin{10, 10};
    int crossing_cases = 0, free_cases = 0;
    for (const Point step : knight_moves) {
        const Point p1 = origin, p2{origin.column + step.column, origin.row + step.row};
        for (int dr = -5; dr <= 5; ++dr)  // wide enough to meet every crossing bridge from both ends
            for (int dc = -5; dc <= 5; ++dc)
                for (const Point other : knight_moves) {
                    const Point q1{origin.column + dc, origin.row + dr};
                    const Point q2{q1.column + other.column, q1.row + other.row};
                    if (q1 == p1 || q1 == p2 || q2 == p1 || q2 == p2) continue;  // sharing a peg is not crossing
                    const bool crosses = segments_cross(p1, p2, q1, q2);
                    (crosses ? crossing_cases : free_cases) += 1;
                    for (const std::uint8_t blocker : {first_peg, second_peg})
                        for (const std::uint8_t mover : {first_peg, second_peg}) {
                            State state = crossing_position(p1, p2, blocker, q1, mover);
                            INFO("bridge " << p1.column << "," << p1.row << " - " << p2.column << "," << p2.row
                                           << " (colour " << int(blocker) << "); new bridge " << q1.column << ","
                                           << q1.row << " - " << q2.column << "," << q2.row << " (colour " << int(mover)
                                           << ")");
                            REQUIRE(has_bridge(state, p1, p2));
                            play(state, Move::at(q2.column, q2.row));
                            CHECK(has_bridge(state, q1, q2) == !crosses);
                            CHECK(has_bridge(state, p1, p2));  // bridges are never removed
                        }
                }
    }
    // Each bridge is crossed by exactly 9 others, each met here from both of its ends.
    CHECK(crossing_cases == 8 * 9 * 2);
    CHECK(free_cases > 0);
    for (int d = 0; d < 8; ++d) CHECK(crossings(d).size() == 9);
}

TEST_CASE("twixt: a new peg bridges to every own peg a knight's move away", "[twixt][rules]") {
    // o on e2, f3, f5, e6, b5, b3 surround d4 at knight's moves; then o's d4 gets six bridges.
    State state = twixt_after(8, {"b1", "e2", "e1", "f3", "g1", "f5", "b8", "e6", "e8", "b5", "g8", "b3", "c8", "d4"});
    for (const char* cell : {"e2", "f3", "f5", "e6", "b5", "b3"}) {
        auto peg = parse_move_syntax(cell, 8);
        REQUIRE(peg);
        INFO(cell);
        CHECK(has_bridge(state, Point{3, 3}, Point{column_of(peg->square), row_of(peg->square)}));
    }
    CHECK(std::popcount(static_cast<unsigned>(state.links[square_at(3, 3)])) == 6);
}

TEST_CASE("twixt: the swap turns x's first peg a quarter turn clockwise into o's", "[twixt][rules][swap]") {
    for (const int size : {5, 8, 13, 24}) {
        for (int row = 1; row < size - 1; ++row)
            for (int column = 1; column < size - 1; ++column) {
                State state = start_state(Variant{size});
                const State before = state;
                play(state, Move::at(column, row));
                MoveList<Twixt> moves;
                generate_moves(state, moves);
                REQUIRE(std::count(moves.begin(), moves.end(), Move::swap()) == 1);
                CHECK(moves.size() == static_cast<std::size_t>(size * (size - 2)));  // swap replaces x's cell
                const State after_first = state;
                const Undo record = play(state, Move::swap());
                // OpenSpiel's coordinates: x = column, y = size - 1 - row; (x, y) -> (y, size - 1 - x).
                const int x = column, y = size - 1 - row;
                const int new_x = y, new_y = size - 1 - x;
                const int new_column = new_x, new_row = size - 1 - new_y;
                INFO("size " << size << " first peg " << square_name(square_at(column, row)));
                CHECK(state.cells[square_at(new_column, new_row)] == second_peg);
                CHECK(state.cells[square_at(column, row)] ==
                      (new_column == column && new_row == row ? second_peg : empty));
                CHECK(state.side_to_move() == Side::first);
                CHECK(state.swapped);
                CHECK(count_moves(state) == static_cast<std::uint64_t>(size * (size - 2) - 1));
                CHECK(state.hash == compute_hash(state));
                undo(state, Move::swap(), record);
                CHECK(format_position(state) == format_position(after_first));
                CHECK(state.hash == after_first.hash);
                CHECK(state.swap_available());
                (void)before;
            }
    }
}

TEST_CASE("twixt: no swap after a first peg on x's own border row, nor later", "[twixt][rules][swap]") {
    for (const char* first : {"c1", "f8"}) {
        State state = twixt_after(8, {first});
        MoveList<Twixt> moves;
        generate_moves(state, moves);
        CHECK(std::count(moves.begin(), moves.end(), Move::swap()) == 0);
        CHECK(moves.size() == 48);
        CHECK_FALSE(parse_move(state, "swap"));
        CHECK_FALSE(parse_move(state, first));  // a taken hole, not a swap
    }
    State later = twixt_after(8, {"c3", "d5"});
    CHECK_FALSE(parse_move(later, "swap"));
    State swapped = twixt_after(8, {"c3", "swap", "d4"});
    CHECK_FALSE(parse_move(swapped, "swap"));
}

TEST_CASE("twixt: o naming x's first peg is the swap, as in OpenSpiel", "[twixt][rules][swap]") {
    State state = twixt_after(8, {"c3"});
    for (const char* text : {"c3", "oc3", "swap"}) {
        auto move = parse_move(state, text);
        REQUIRE(move);
        CHECK(move->is_swap());
    }
    CHECK(openspiel_action_string(state, Move::swap()) == "oc3");
    CHECK_FALSE(parse_move(state, "xc4"));  // o is to move
    State after = twixt_after(8, {"c3", "swap"});
    CHECK(after.cells[square_at(5, 2)] == second_peg);  // f3: OpenSpiel's [2,5] -> [5,5]
    CHECK(format_position(after) == "8/8/5o2/8/8/8/8/8 x -");
}

TEST_CASE("twixt: x wins by joining the top and bottom rows", "[twixt][rules][win]") {
    State state = twixt_after(5, {"c1", "a2", "b3", "e2"});
    CHECK_FALSE(outcome(state).is_over());
    play(state, *parse_move(state, "c5"));
    CHECK(outcome(state) == Outcome::win(Side::first, "connection"));
    MoveList<Twixt> moves;
    generate_moves(state, moves);
    CHECK(moves.empty());
    CHECK_FALSE(parse_move(state, "d3"));
    // Joined in the middle: the last peg links two groups.
    State middle = twixt_after(5, {"c1", "a2", "c5", "e2"});
    play(middle, *parse_move(middle, "b3"));
    CHECK(outcome(middle).is_win_for(Side::first));
}

TEST_CASE("twixt: o wins by joining the left and right columns", "[twixt][rules][win]") {
    State state = twixt_after(5, {"b1", "a2", "d1", "c3", "b5"});
    CHECK_FALSE(outcome(state).is_over());
    play(state, *parse_move(state, "e4"));
    CHECK(outcome(state) == Outcome::win(Side::second, "connection"));
    // An x chain from top to bottom through the middle is not o's, and a long o chain touching
    // only one side is no win.
    State one_side = twixt_after(8, {"b1", "a2", "d1", "c3", "b8", "e4"});
    CHECK_FALSE(outcome(one_side).is_over());
}

TEST_CASE("twixt: a draw when the side to move has no placement", "[twixt][rules][draw]") {
    auto full = parse_position("5/oxxxo/oxxxo/oxoxo/5 o -", Variant{5});
    REQUIRE(full);
    CHECK(outcome(*full) == Outcome::draw("no placement"));
    CHECK(count_moves(*full) == 0);
    auto almost = parse_position("5/oxxxo/oxxxo/oxo1o/5 x -", Variant{5});
    REQUIRE(almost);
    CHECK_FALSE(outcome(*almost).is_over());
    play(*almost, *parse_move(*almost, "d4"));
    CHECK(outcome(*almost).kind == OutcomeKind::draw);
}

TEST_CASE("twixt: each side starts with N(N-2) placements", "[twixt][rules]") {
    for (int size = min_size; size <= max_size; ++size) {
        const State state = start_state(Variant{size});
        MoveList<Twixt> moves;
        generate_moves(state, moves);
        CHECK(moves.size() == static_cast<std::size_t>(size * (size - 2)));
        CHECK(state.open[1] == size * (size - 2));
    }
    CHECK_FALSE(check_variant(Variant{4}));
    CHECK_FALSE(check_variant(Variant{25}));
}

TEST_CASE("twixt: move text", "[twixt][notation]") {
    const State start = start_state(Variant{8});
    CHECK(format_move(start, Move::at(2, 4)) == "c5");
    CHECK(openspiel_action_string(start, Move::at(2, 4)) == "xc5");
    CHECK(parse_move(start, "xc5")->square == Move::at(2, 4).square);
    CHECK(parse_move(start, "C5")->square == Move::at(2, 4).square);
    for (const char* bad : {"", "a1", "h8", "a5", "i3", "c0", "c9", "c", "5c", "oc5", "c5x", "swap", "xx", "c-1"}) {
        INFO(bad);
        const auto move = parse_move(start, bad);
        CHECK_FALSE(move);
        if (!move) CHECK_FALSE(move.error().empty());
    }
    CHECK_THAT(parse_move(start, "a5").error(), Catch::Contains("border"));
    CHECK_THAT(parse_move(start, "a1").error(), Catch::Contains("corner"));
}

TEST_CASE("twixt: position text", "[twixt][notation]") {
    const State game = twixt_after(8, {"c3", "swap", "d2", "e4", "f4", "c4", "e6", "d5"});
    const std::string text = format_position(game);
    auto parsed = parse_position(text, Variant{24});
    REQUIRE(parsed);
    CHECK(format_position(*parsed) == text);
    CHECK(parsed->hash == game.hash);
    CHECK(parsed->swapped);
    CHECK(parsed->side_to_move() == Side::first);
    CHECK(parsed->size == 8);
    const State bridged = twixt_after(8, {"e2", "d4", "f4"});
    CHECK(format_position(bridged) == "8/4x3/8/3o1x2/8/8/8/8 o e2f4");
    for (const char* bad : {"", "8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/8 y -", "8/8/8/8/8/8/8 x -", "9/8/8/8/8/8/8/8 x -",
                            "x7/8/8/8/8/8/8/8 o -", "8/8/8/8/8/8/8/8 o -", "8/4x3/8/5x2/8/8/8/8 o e2f4",
                            "8/4x3/8/3o1x2/8/8/8/8 o e2f5", "8/4x3/8/3o1x2/8/8/8/8 o e2d4", "4/4/4/4 x -",
                            "8/8/8/8/8/8/8/8 x c3d5,zz", "8x/8/8/8/8/8/8/8 o -", "8/8/8/8/8/8/8/8 x - extra"}) {
        INFO(bad);
        CHECK_FALSE(parse_position(bad, Variant{8}));
    }
}
