#pragma once
// The strong Tak player: PUCT MCTS (search/mcts.hpp) over a Tak policy and value built from
// hand-tuned features, as the strongest public Tak engine works. Options: docs/tak.md.

#include <memory>
#include <vector>

#include "core/random.hpp"
#include "core/tak/tak.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/policy.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::tak {

// Leaf values and move priors for MCTS.
struct TakMctsPolicy {
    TakEvaluator evaluator;
    float value_scale = 400.0f;      // centi-flats that map to tanh(1)
    float prior_temperature = 1.0f;  // softmax temperature of the move logits
    int leaf_depth = 0;              // > 0: leaves are valued by a small alpha-beta search this deep
    // The learned move policy's logits as priors (UsePolicy); nullptr: the hand-written hint / 25.
    std::shared_ptr<const policy::Policy> move_policy;

    float value(const State& state, Random& random) const;
    void priors(const State& state, const MoveList<Tak>& moves, float* out) const;
    // The unnormalised log-weight of one move; `context` holds what all moves share.
    struct Context {
        Bitboard our_threats;    // empty squares where our placement makes a road
        Bitboard their_threats;  // ... where theirs does
        Bitboard our_roads;
        Bitboard their_tops;
    };
    Context context(const State& state) const;
    float logit(const State& state, const Context& context, const Move& move) const;

private:
    int negamax(State& state, int depth, int alpha, int beta) const;
};

void add_mcts_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Tak>> mcts_players();

}  // namespace bge::tak
