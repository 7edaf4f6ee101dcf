#pragma once
// The Tak players selectable with `setoption name Player value <name>`.

#include <vector>

#include "core/tak/tak.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::tak {

// Every player's options (declared in the handshake), then the players themselves. The study's
// agents live in study_players.*, the MCTS player in mcts_player.*.
void add_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Tak>> tak_players();

}  // namespace bge::tak
