#pragma once
// The TwixT players selectable with `setoption name Player value <name>`: the strong `mcts`
// (the default) and the study's `minimax` here; `flat-mc` and `mcts-knight` in study_players.*.
// docs/twixt.md, "Players".

#include <vector>

#include "core/twixt/twixt.hpp"
#include "engines/twixt/evaluation.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::twixt {

// The leaf estimate: pegs still needed (shortest connection or two-distance), or the
// resistance of each side's network (evaluation.hpp, Circuit).
enum class Estimate { shortest, two_distance, resistance };

// The prior logit of a hole (players.cpp, priors): weights of its distance from each side's
// shortest connection and of its nearness to pegs.
struct PriorWeights {
    float own_route = 0.8f;    // per peg of slack on our shortest connection through the hole
    float their_route = 1.2f;  // per peg of slack on theirs (taking the hole, or cutting a link)
    float near_own = 1.0f;     // a knight's move from one of our pegs
    float near_theirs = 0.3f;  // a knight's move from one of theirs
};

// Leaf values and move priors of the strong player's PUCT search, from the connection estimate.
struct TwixtMctsPolicy {
    Estimate estimate = Estimate::shortest;
    float value_scale = 2.0f;       // pegs of connection advantage that map to tanh(1)
    float tempo = 0.5f;             // what having the move is worth, in pegs
    float resistance_scale = 0.4f;  // resistance: ln(their resistance / ours) that maps to tanh(1)
    bool free_border = true;        // own border holes cost no peg (evaluation.hpp, connection_distances)
    float prior_temperature = 1.0f; // priors are exp(logit / temperature): above 1 flatter
    bool current_priors = false;    // priors also from the currents through holes (resistance)
    float current_weight = 1.0f;    // weight of ln(current through a hole) in its prior logit
    bool cut_priors = true;         // priors also see the opponent links a peg's bridges cross
    PriorWeights prior_weights;
    int rollouts = 0;           // > 0: also this many playouts, averaged in
    PlayoutKind rollout_kind = PlayoutKind::uniform;
    float rollout_weight = 0.3f;
    KnightWeights knight;

    float value(const State& state, Random& random) const;
    void priors(const State& state, const MoveList<Twixt>& moves, float* out) const;
};

// Pegs still needed by the side to move and by its opponent (two-distances or shortest
// connections), as a value in (-1, 1).
float connection_value(const State& state, float value_scale, float tempo, bool two_distance,
                       bool free_border = false);
// ln(their resistance / ours) for the side to move, as a value in (-1, 1).
float resistance_value(float own_resistance, float their_resistance, float scale);

// Every player's options (declared in the handshake), then the players themselves.
void add_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Twixt>> twixt_players();

}  // namespace bge::twixt
