#pragma once
// The study's baselines: random (uniform), greedy (the best immediate outcome by tokens
// destroyed, then the closest distance to the enemy) and minimax2 (plain depth-2 minimax over
// material). docs/expendibots.md, "Players".

#include <vector>

#include "core/expendibots/expendibots.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::expendibots {

std::vector<protocol::PlayerEntry<Expendibots>> study_players();

// The greedy player's choice, for tests and the trainer's evaluation games: every best move by
// (tokens destroyed net of own losses, then the smallest distance to the enemy afterwards).
std::vector<Move> greedy_best_moves(const State& state);
// The minimax2 player's choice: every move with the best depth-2 material score.
std::vector<Move> minimax2_best_moves(const State& state, int* best_score = nullptr);

}  // namespace bge::expendibots
