#include "engines/tak/evaluation.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>

#include "core/tak/bitboard.hpp"

namespace bge::tak {

namespace {

// Closeness to the centre, 0 on the far corners up to 2*(size-1) in the middle (twice the
// Manhattan distance, so even sizes stay in integers), per size and square.
struct CentralityTable {
    std::uint8_t value[max_size + 1][square_count] = {};
    CentralityTable() {
        for (int size = min_size; size <= max_size; ++size)
            for (int row = 0; row < size; ++row)
                for (int column = 0; column < size; ++column) {
                    const int twice_distance = std::abs(2 * column - (size - 1)) + std::abs(2 * row - (size - 1));
                    value[size][square_at(column, row)] = static_cast<std::uint8_t>(2 * (size - 1) - twice_distance);
                }
    }
};
const CentralityTable centrality;

// Rows or columns a group covers, whichever is more.
int span_of(Bitboard group) {
    constexpr Bitboard low7 = 0x7F7F7F7F7F7F7F7FULL;
    constexpr Bitboard high = 0x8080808080808080ULL;
    // High bit of each byte set iff that row has a square of the group.
    const Bitboard rows = (((group & low7) + low7) | group) & high;
    const int row_span = (63 - std::countl_zero(rows)) / 8 - std::countr_zero(rows) / 8 + 1;
    Bitboard columns = group | (group >> 32);
    columns |= columns >> 16;
    columns |= columns >> 8;
    columns &= 0xFF;
    const int column_span = 8 - std::countl_zero(static_cast<std::uint8_t>(columns)) - std::countr_zero(columns);
    return std::max(row_span, column_span);
}

}  // namespace

Bitboard TakEvaluator::road_in_one_squares(const State& state, Side side) {
    if (state.in_opening() || pieces_left(state, side) == 0) return 0;
    const Geometry& g = geometry(state.size);
    const Bitboard roads = state.road_squares(side);
    const Bitboard empty = g.board & ~state.occupied();
    auto completing = [&](Bitboard edge_a, Bitboard edge_b) {
        const Bitboard from_a = flood(roads & edge_a, roads);
        const Bitboard from_b = flood(roads & edge_b, roads);
        return (neighbours(from_a) | edge_a) & (neighbours(from_b) | edge_b) & empty;
    };
    return completing(g.bottom_row, g.top_row) | completing(g.left_column, g.right_column);
}

int TakEvaluator::side_score(const State& s, Side side, int endgame_permille) const {
    const EvalWeights& w = weights_;
    const Bitboard mine = s.top_of(side);
    const Bitboard flats = mine & ~s.walls & ~s.caps;
    const int flat_value = w.top_flat_opening + (w.top_flat_endgame - w.top_flat_opening) * endgame_permille / 1000;
    int score = popcount(flats) * flat_value;
    score += popcount(mine & s.walls) * w.wall;

    int central = 0;
    for (Bitboard b = mine & ~s.walls; b; b &= b - 1) central += centrality.value[s.size][lowest_square(b)];
    score += w.center * central / 2 * (1000 - endgame_permille) / 1000;
    for (Bitboard b = mine & s.caps; b; b &= b - 1) {
        score += w.capstone;
        if (s.height[lowest_square(b)] > 1) score += w.capstone_on_stack;
    }

    // Stack composition.
    for (Bitboard b = mine; b; b &= b - 1) {
        const int square = lowest_square(b);
        const int height = s.height[square];
        if (height < 2) continue;
        const int reach = std::min(height - 1, static_cast<int>(s.size));
        for (int depth = 1; depth <= reach; ++depth) {
            const bool own = s.color_at(square, height - 1 - depth) == side;
            score += own ? w.own_under_top : w.captive_under_top;
        }
    }

    // Road potential: every connected group by its span.
    for (Bitboard left = s.road_squares(side); left;) {
        const Bitboard group = flood(left & (~left + 1), left);
        left &= ~group;
        score += w.group_span[span_of(group)];
    }
    return score;
}

int TakEvaluator::evaluate(const State& s) const {
    const Side us = s.side_to_move();
    const Side them = opponent(us);
    const Geometry& g = geometry(s.size);

    // Road threats decide games: a road the mover can place now, or two the opponent has.
    const Bitboard our_threats = road_in_one_squares(s, us);
    if (our_threats) return weights_.road_in_one_to_move;
    const Bitboard their_threats = road_in_one_squares(s, them);

    // How close the game is to ending on flats: the fuller board or the emptier reserve.
    const int squares = s.size * s.size;
    const int filled = popcount(s.occupied() & g.board) * 1000 / squares;
    const Reserves r = reserves_for(s.size);
    const int total = r.stones + r.caps;
    const int fewest_left = std::min(pieces_left(s, Side::first), pieces_left(s, Side::second));
    const int spent = (total - fewest_left) * 1000 / total;
    const int endgame = std::max(filled, spent) * std::max(filled, spent) / 1000;

    int score = side_score(s, us, endgame) - side_score(s, them, endgame);
    // Komi is worth half a flat per step, for Black.
    const int komi = s.half_komi * weights_.top_flat_endgame / 2 * endgame / 1000;
    score += us == Side::second ? komi : -komi;
    score += weights_.tempo;

    const int threat_count = popcount(their_threats);
    if (threat_count >= 2)
        score += weights_.double_threat_against;
    else if (threat_count == 1)
        score += weights_.single_threat_against;
    return std::clamp(score, -weights_.road_in_one_to_move + 1, weights_.road_in_one_to_move - 1);
}

bool TakEvaluator::null_move_allowed(const State& s) const {
    if (s.ply < 4 || pieces_left(s, s.side_to_move()) == 0) return false;
    return road_in_one_squares(s, opponent(s.side_to_move())) == 0;
}

int TakEvaluator::order_hint(const State& s, const Move& move) const {
    const Side us = s.side_to_move();
    const int square = move.square();
    const Bitboard here = bit(square);
    const Bitboard around = neighbours(here);
    const int own_around = popcount(around & s.road_squares(us));
    const int their_around = popcount(around & s.top_of(opponent(us)));
    if (move.is_placement()) {
        const int central = centrality.value[s.size][square];
        switch (move.stone()) {
            case Stone::flat:
                return 30 + 10 * own_around + central;
            case Stone::cap:
                return 10 + 12 * their_around + central;
            case Stone::wall:
                return -20 + 15 * their_around;
        }
    }
    // Spreads: prefer covering opponent tops and carrying a capstone.
    int hint = -10 + ((s.caps & here) ? 10 : 0);
    const int step = step_of(move.direction());
    int target = square;
    for (int i = 0; i < move.squares_crossed(); ++i) {
        target += step;
        if (s.top_of(opponent(us)) & bit(target)) hint += 15;
    }
    return hint;
}

}  // namespace bge::tak
