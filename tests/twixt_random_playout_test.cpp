// Random TwixT games played in lockstep with the reference model (twixt_test_helpers.hpp),
// checking at every ply: the same legal moves, the same bridges and the same result; move counts,
// make/unmake, the incremental hash and blocked links, the game-end forecast and the position
// text round trip.

#include <catch2/catch.hpp>

#include <set>

#include "core/random.hpp"
#include "core/twixt/twixt.hpp"
#include "engines/twixt/evaluation.hpp"
#include "twixt_test_helpers.hpp"

using namespace bge;
using namespace bge::twixt;
using bge::testing::Point;
using bge::testing::ReferenceTwixt;

namespace {

std::set<std::pair<int, int>> bridges_of(const State& state) {
    std::set<std::pair<int, int>> bridges;
    for (int square = 0; square < cell_count; ++square)
        for (int d = 0; d < 8; ++d)
            if ((state.links[square] >> d) & 1) {
                const int other = square + knight_step(d);
                bridges.emplace(std::min(square, other), std::max(square, other));
            }
    return bridges;
}

std::set<std::pair<int, int>> bridges_of(const ReferenceTwixt& reference) {
    std::set<std::pair<int, int>> bridges;
    for (const auto& [a, b] : reference.bridges) {
        const int x = square_at(a.column, a.row), y = square_at(b.column, b.row);
        bridges.emplace(std::min(x, y), std::max(x, y));
    }
    return bridges;
}

Move move_of(Point point) { return point.column < 0 ? Move::swap() : Move::at(point.column, point.row); }

}  // namespace

TEST_CASE("twixt: random games agree with the reference model at every ply", "[twixt][random]") {
    Random random(2026);
    int wins[2] = {0, 0}, draws = 0, swaps = 0, game_ends = 0, many_blocked = 0;
    for (int game = 0; game < 240; ++game) {
        const int size = min_size + static_cast<int>(random.below(6));  // 5..10
        State state = start_state(Variant{size});
        ReferenceTwixt reference(size);
        while (true) {
            INFO("game " << game << " size " << size << " position " << format_position(state));
            MoveList<Twixt> moves;
            generate_moves(state, moves);
            const auto expected = reference.moves();
            std::set<std::uint16_t> ours, theirs;
            for (const Move move : moves) ours.insert(move.square);
            for (const Point point : expected) theirs.insert(move_of(point).square);
            REQUIRE(ours == theirs);
            REQUIRE(moves.size() == ours.size());
            REQUIRE(count_moves(state) == moves.size());
            REQUIRE(bridges_of(state) == bridges_of(reference));
            REQUIRE(state.hash == compute_hash(state));
            const Outcome end = outcome(state);
            REQUIRE(static_cast<int>(end.kind == OutcomeKind::win    ? (end.winner == Side::first ? 1 : 2)
                                     : end.kind == OutcomeKind::draw ? 3
                                                                     : 0) == reference.result);
            auto parsed = parse_position(format_position(state), Variant{size});
            REQUIRE(parsed);
            REQUIRE(parsed->hash == state.hash);
            REQUIRE(format_position(*parsed) == format_position(state));
            REQUIRE(outcome(*parsed) == end);
            REQUIRE(parsed->blocked == state.blocked);  // kept move by move, as a rebuild finds them
            if (end.is_over()) {
                REQUIRE(moves.empty());
                if (end.kind == OutcomeKind::win)
                    ++wins[index_of(end.winner)];
                else
                    ++draws;
                break;
            }
            REQUIRE_FALSE(moves.empty());
            // Every move undoes cleanly, and ends_game foretells whether it ends the game.
            const std::string text = format_position(state);
            const std::uint64_t hash = state.hash;
            const auto blocked = state.blocked;
            for (const Move move : moves) {
                const bool ends = ends_game(state, move);
                const Undo record = play(state, move);
                REQUIRE(ends == outcome(state).is_over());
                game_ends += ends;
                many_blocked += record.newly_blocked_overflow;
                undo(state, move, record);
                REQUIRE(state.hash == hash);
                REQUIRE(state.blocked == blocked);
            }
            REQUIRE(format_position(state) == text);
            const Move chosen = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
            swaps += chosen.is_swap();
            REQUIRE(parse_move(state, format_move(state, chosen)));
            for (const Point point : expected)
                if (move_of(point) == chosen) reference.play(point);
            play(state, chosen);
        }
    }
    CHECK(wins[0] > 0);
    CHECK(wins[1] > 0);
    CHECK(swaps > 0);
    CHECK(game_ends > 0);
    CHECK(many_blocked > 0);  // undo's other path: blocked links recomputed
    (void)draws;
}

TEST_CASE("twixt: fast playouts end as the rules say", "[twixt][random]") {
    Random random(7);
    for (const PlayoutKind kind : {PlayoutKind::uniform, PlayoutKind::knight}) {
        for (int game = 0; game < 200; ++game) {
            const int size =
                min_size + static_cast<int>(random.below(static_cast<std::uint32_t>(max_size - min_size + 1)));
            State state = start_state(Variant{size});
            const Outcome end = play_out(state, kind, KnightWeights{}, random);
            REQUIRE(end.is_over());
            REQUIRE(end == outcome(state));
            REQUIRE(state.hash == compute_hash(state));
            if (end.kind == OutcomeKind::win) {
                REQUIRE(connected(state, end.winner == Side::first ? top_border : left_border,
                                  end.winner == Side::first ? bottom_border : right_border));
            } else {
                REQUIRE(count_moves(state) == 0);
            }
        }
    }
}

TEST_CASE("twixt: the evaluation's pieces", "[twixt][evaluation]") {
    const State empty8 = start_state(Variant{8});
    CHECK(connection_distance(empty8, Side::first) == 5);  // rows 1, 3, 5, 7, 8 (or 1, 2, 4, 6, 8)
    CHECK(connection_distance(empty8, Side::second) == 5);
    const State one = bge::testing::twixt_after(8, {"d4"});
    CHECK(connection_distance(one, Side::first) == 4);
    CHECK(two_distance(empty8, Side::first) == 5);  // many equal routes: the second best is as short
    CHECK(two_distance(one, Side::first) == 5);
    CHECK(longest_chain_span(one, Side::first) == 1);
    const State chain = bge::testing::twixt_after(8, {"d1", "a4", "e3", "c6", "d5"});
    CHECK(longest_chain_span(chain, Side::first) == 5);   // d1-e3-d5: rows 1 to 5
    CHECK(longest_chain_span(chain, Side::second) == 1);  // a4 and c6 are not a knight's move apart
    CHECK(connection_distance(chain, Side::first) == 2);  // e.g. c7 and d8 (or e7 ...)
    CHECK(SpanEvaluator{}.evaluate(chain) == 1 - 5);      // o to move
}
