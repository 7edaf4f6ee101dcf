#pragma once
// Hand-written Tak evaluation for alpha-beta: flat count with komi, road potential (connected
// groups and their span, roads that one placement completes), stack control (own pieces under
// own tops, captives), and capstone and wall use. Scores are centi-flats from the side to move's
// point of view. The weights are plain data so they can be tuned.

#include "core/tak/tak.hpp"

namespace bge::tak {

struct EvalWeights {
    int top_flat_opening = 90;   // a flat on top when the board is empty...
    int top_flat_endgame = 160;  // ...and when the game is about to end on flats
    int wall = 35;
    int capstone = 60;
    int capstone_on_stack = 25;
    int own_under_top = 25;                                      // own pieces below an own top, within the carry limit
    int captive_under_top = -5;                                  // opponent pieces below an own top
    int group_span[9] = {0, 0, 12, 35, 80, 150, 240, 340, 450};  // by the span of a group
    int road_in_one_to_move = 4000;                              // side to move can place a road next ply
    int double_threat_against = -1500;
    int single_threat_against = -120;
    int center = 6;  // per step closer to the centre, for flats and capstones
    int tempo = 50;  // the side to move is about to add a flat
};

class TakEvaluator {
public:
    TakEvaluator() = default;
    explicit TakEvaluator(const EvalWeights& weights) : weights_(weights) {}

    int evaluate(const State& state) const;
    int order_hint(const State& state, const Move& move) const;
    // A null move is no answer to a road threat, and means nothing in the opening plies or when
    // the mover has nothing left to place.
    bool null_move_allowed(const State& state) const;
    // Squares where a placement would complete a road for `side`.
    static Bitboard road_in_one_squares(const State& state, Side side);

    const EvalWeights& weights() const { return weights_; }

private:
    int side_score(const State& state, Side side, int endgame_permille) const;
    EvalWeights weights_;
};

}  // namespace bge::tak
