#pragma once
// The rollout policies of the study's MCTS (RolloutPolicy=random|weighted|sarsa), as one policy
// type chosen at run time, so KnowledgeGraphMcts is instantiated once for Tak.

#include <cstdint>

#include "core/random.hpp"
#include "core/tak/tak.hpp"
#include "engines/tak/sarsa_features.hpp"
#include "search/weighted_random.hpp"

namespace bge::tak {

struct TakRolloutPolicy {
    enum class Kind { random, weighted, sarsa };
    Kind kind = Kind::random;
    double place_probability = 0.5;         // weighted
    const SarsaWeights* weights = nullptr;  // sarsa (must outlive the search)
    double sarsa_epsilon = 0.1;             // sarsa

    Move choose(State& state, const MoveList<Tak>& moves, Random& random) const {
        switch (kind) {
            case Kind::weighted:
                return search::choose_by_kind<Tak>(
                    moves, [](const Move& move) { return move.is_placement(); }, place_probability, random);
            case Kind::sarsa:
                if (weights) return TakSarsa::choose(state, moves, *weights, sarsa_epsilon, random).move;
                break;
            case Kind::random:
                break;
        }
        return moves[random.below(static_cast<std::uint32_t>(moves.size()))];
    }
};

}  // namespace bge::tak
