#pragma once
// The hand-written Ur evaluation the expectimax and greedy players use (docs/ur.md, "Players"):
// the race (how far each side's pieces have come, borne-off pieces counting a full path plus
// one), the safe central rosette, and pieces the opponent can hit next turn, squashed into
// [-1, 1] from the side to move's point of view.

#include "core/ur/ur.hpp"

namespace bge::ur {

double hand_evaluation(const State& state);

struct HandEvaluator {
    double evaluate(const State& state) const { return hand_evaluation(state); }
};

}  // namespace bge::ur
