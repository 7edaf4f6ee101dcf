#pragma once
// The TwixT players selectable with `setoption name Player value <name>`: the strong `mcts`
// (the default) and the study's `minimax` here; `flat-mc` and `mcts-knight` in study_players.*.
// docs/twixt.md, "Players".

#include <vector>

#include "core/twixt/twixt.hpp"
#include "engines/twixt/evaluation.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::twixt {

// Leaf values and move priors of the strong player's PUCT search, from the connection estimate.
struct TwixtMctsPolicy {
    float value_scale = 2.0f;   // pegs of connection advantage that map to tanh(1)
    float tempo = 0.5f;         // what having the move is worth, in pegs
    bool two_distance = false;  // value from two-distances; false: from shortest connections
    int rollouts = 0;           // > 0: also this many playouts, averaged in
    PlayoutKind rollout_kind = PlayoutKind::uniform;
    float rollout_weight = 0.3f;
    KnightWeights knight;

    float value(const State& state, Random& random) const;
    void priors(const State& state, const MoveList<Twixt>& moves, float* out) const;
};

// Pegs still needed by the side to move and by its opponent (two-distances or shortest
// connections), as a value in (-1, 1).
float connection_value(const State& state, float value_scale, float tempo, bool two_distance);

// Every player's options (declared in the handshake), then the players themselves.
void add_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Twixt>> twixt_players();

}  // namespace bge::twixt
