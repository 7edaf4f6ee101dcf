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

// Per-game seeds for the players that use chance: seeded by the Seed option and the game's
// number, counted from 0 since the player was made or Seed last changed.
class GameSeeds {
public:
    explicit GameSeeds(const protocol::OptionRegistry& options) : options_(options) {}
    std::uint64_t next();

private:
    const protocol::OptionRegistry& options_;
    bool started_ = false;
    std::uint64_t seed_ = 0;
    std::uint64_t game_ = 0;
};

}  // namespace bge::twixt
