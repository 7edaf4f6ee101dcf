#pragma once
// The TwixT study's Monte Carlo agents: `flat-mc` (N uniform random playouts per legal move, the
// most wins played) and `mcts-knight` (MCTS whose selection samples a child with probability
// proportional to pi(a) / (n + 1), pi favouring holes one or two knight's moves from own pegs,
// and whose playouts follow pi). docs/twixt.md, "Players".

#include <vector>

#include "core/twixt/twixt.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::twixt {

void add_study_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Twixt>> study_players();

}  // namespace bge::twixt
