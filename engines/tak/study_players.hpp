#pragma once
// The Tak study's agents (weighted-random, sarsa, mcts-study): their options and their entries
// in the Player option. See docs/tak.md ("Players").

#include <vector>

#include "core/tak/tak.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::tak {

void add_study_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Tak>> study_players();

}  // namespace bge::tak
