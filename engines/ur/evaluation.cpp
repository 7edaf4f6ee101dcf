#include "engines/ur/evaluation.hpp"

#include <cmath>

namespace bge::ur {

namespace {

// The chance that at least one opponent piece (or entry) hits `tile` next turn, roughly: the
// probability of the nearest roll that reaches it from behind.
double threat(const State& state, int side, int tile) {
    constexpr double reach[5] = {0, 4.0 / 16, 6.0 / 16, 4.0 / 16, 1.0 / 16};
    const int opponent = 1 - side;
    const int target = path_index_of(state.ruleset, opponent, tile);
    if (target < 0) return 0;  // not on the opponent's path: out of reach
    if (is_rosette(tile) && traits_of(state.ruleset).rosettes_safe) return 0;
    double hit = 0;
    for (int roll = 1; roll <= 4; ++roll) {
        const int from = target - roll;
        const bool piece = from >= 0 ? (state.tiles[opponent] & tile_bit(path_tile(state.ruleset, opponent, from))) != 0
                                     : (from == -1 && state.waiting[opponent] > 0);
        if (piece) hit = std::max(hit, reach[roll]);
    }
    return hit;
}

double side_score(const State& state, int side) {
    const int length = state.path_length();
    double score = state.scored[side] * (length + 1.0);
    for (int index = 0; index < length; ++index) {
        const int tile = path_tile(state.ruleset, side, index);
        if (!(state.tiles[side] & tile_bit(tile))) continue;
        const double progress = index + 1.0;
        // A piece that may be sent home is worth its progress minus the expected loss.
        score += progress * (1.0 - threat(state, side, tile));
        if (tile == tile_at(1, 4) && traits_of(state.ruleset).rosettes_safe) score += 2.0;  // holds B4
    }
    return score;
}

}  // namespace

double hand_evaluation(const State& state) {
    if (const Outcome o = outcome(state); o.is_over()) return o.winner == state.to_move ? 1.0 : -1.0;
    const int me = index_of(state.to_move);
    const double scale = state.pieces * (state.path_length() + 1.0);
    const double lead = (side_score(state, me) - side_score(state, 1 - me)) / scale;
    // Being the one to roll is worth about half a step per piece.
    return std::tanh(3.0 * lead + 0.05);
}

}  // namespace bge::ur
