// Random games on every size, checking invariants at every ply (as OpenSpiel does for every
// game): the incremental hash equals a recomputed one, pieces are conserved, play then undo
// restores the position, TPS round-trips, the move count matches the generated list, and the
// legal moves and results agree with the independent reference implementation.

#include <catch2/catch.hpp>

#include <algorithm>

#include "core/random.hpp"
#include "core/tak/tak.hpp"
#include "reference/tak_reference.hpp"
#include "tak_test_helpers.hpp"

using namespace bge;
using namespace bge::tak;
using namespace bge::tak::testing;

namespace {

int pieces_on_board(const State& s, int color) {
    int count = 0;
    for (int square = 0; square < square_count; ++square)
        for (int level = 0; level < s.height[square]; ++level)
            if (static_cast<int>((s.stack_colors[square] >> level) & 1) == color) ++count;
    return count;
}

void check_invariants(const State& s) {
    REQUIRE(s.hash == compute_hash(s));
    const Reserves r = reserves_for(s.size);
    for (int color = 0; color < 2; ++color)
        REQUIRE(pieces_on_board(s, color) + s.stones_left[color] + s.caps_left[color] == r.stones + r.caps);
    // Tops agree with the stacks; walls and capstones sit only on occupied squares.
    for (int square = 0; square < square_count; ++square) {
        const bool occupied = s.height[square] > 0;
        REQUIRE(occupied == ((s.occupied() & bit(square)) != 0));
        if (!occupied)
            REQUIRE(((s.walls | s.caps) & bit(square)) == 0);
        else
            REQUIRE(static_cast<int>(s.color_at(square, s.height[square] - 1)) ==
                    ((s.top_black & bit(square)) ? 1 : 0));
    }
    REQUIRE((s.walls & s.caps) == 0);
    REQUIRE((s.top_white & s.top_black) == 0);
    auto again = parse_tps(format_tps(s), variant_of(s));
    REQUIRE(again);
    REQUIRE(again->hash == s.hash);
    REQUIRE(format_tps(*again) == format_tps(s));
}

std::vector<std::string> our_moves(const State& s) {
    MoveList<Tak> moves;
    generate_moves(s, moves);
    std::vector<std::string> texts;
    for (Move m : moves) texts.push_back(format_move(m));
    std::sort(texts.begin(), texts.end());
    return texts;
}

}  // namespace

TEST_CASE("random games keep every invariant", "[tak][random]") {
    Random random(20261121);
    int positions = 0;
    for (int game = 0; game < 300; ++game) {
        const int size = 3 + game % 6;
        State s = start_state(Variant{size, game % 5 - 2, false});
        for (int ply = 0; ply < 400; ++ply) {
            check_invariants(s);
            ++positions;
            MoveList<Tak> moves;
            generate_moves(s, moves);
            REQUIRE(count_moves(s) == moves.size());
            if (outcome(s).is_over()) break;
            REQUIRE_FALSE(moves.empty());
            // Every generated move is legal, distinct, and undoes cleanly.
            const std::string before = format_tps(s);
            if (ply % 7 == 0) {
                for (Move m : moves) {
                    State copy = s;
                    const Undo record = play(copy, m);
                    REQUIRE(copy.hash == compute_hash(copy));
                    undo(copy, m, record);
                    REQUIRE(format_tps(copy) == before);
                    REQUIRE(copy.hash == s.hash);
                    auto reparsed = parse_move(s, format_move(m));
                    REQUIRE(reparsed);
                    REQUIRE(*reparsed == m);
                }
            }
            const Move m = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
            play(s, m);
        }
    }
    CHECK(positions > 10'000);
}

TEST_CASE("random games agree move for move with the reference implementation", "[tak][random][reference]") {
    Random random(7);
    int positions = 0;
    for (int game = 0; game < 60; ++game) {
        const int size = 3 + game % 6;
        const int half_komi = game % 3;
        State s = start_state(Variant{size, half_komi, false});
        for (int ply = 0; ply < 200; ++ply) {
            const std::string position = format_tps(s);
            INFO("position " << position);
            REQUIRE(tak_reference::canonical_tps(position) == position);
            const std::string reference_result = tak_reference::result(position, half_komi);
            const Outcome o = outcome(s);
            REQUIRE((o.is_over() ? result_text(o) : std::string()) == reference_result);
            if (o.is_over()) break;
            const auto ours = our_moves(s);
            REQUIRE(ours == tak_reference::legal_moves(position));
            ++positions;
            const std::string chosen = ours[random.below(static_cast<std::uint32_t>(ours.size()))];
            play(s, move_in(s, chosen));
            REQUIRE(format_tps(s) == tak_reference::apply_move(position, chosen));
        }
    }
    CHECK(positions > 2'000);
}
