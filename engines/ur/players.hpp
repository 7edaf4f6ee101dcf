#pragma once
// The Ur players selectable with `setoption name Player value <name>` (docs/ur.md, "Players"):
// random, greedy, expectimax (the default), td and perfect. None of them ever rolls: the
// position they are asked about holds the roll.

#include <memory>
#include <string>
#include <vector>

#include "core/ur/ur.hpp"
#include "engines/ur/solver.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::ur {

void add_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Ur>> ur_players();

// The solver table named by TablePath, loaded once and shared; nullptr with `error` set when it
// cannot be used.
std::shared_ptr<const SolverTable> solver_table(const std::string& path, std::string& error);

}  // namespace bge::ur
