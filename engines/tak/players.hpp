#pragma once
// The Tak players selectable with `setoption name Player value <name>`.

#include <vector>

#include "core/tak/tak.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::tak {

std::vector<protocol::PlayerEntry<Tak>> tak_players();

}  // namespace bge::tak
