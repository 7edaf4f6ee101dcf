#pragma once
// The Expendibots players selectable with `setoption name Player value <name>`: alphabeta (the
// study's agent, the default) here; the baselines random, greedy and minimax2 in
// study_players.*. docs/expendibots.md, "Players".

#include <vector>

#include "core/expendibots/expendibots.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::expendibots {

// Every player's options (declared in the handshake), then the players themselves.
void add_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Expendibots>> expendibots_players();

}  // namespace bge::expendibots
