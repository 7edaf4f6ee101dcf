#pragma once
// Scoring a finished Tak game, as the MCTS-for-Tak study did (docs/tak.md, "Scoring"): the winner
// scores the board's area (N*N) plus the pieces they have not played (stones and capstones left);
// a draw scores 0. Road and flat wins score alike, as on playtak.com.

#include <string>

#include "core/game.hpp"
#include "core/tak/rules.hpp"

namespace bge::tak {

// From White's point of view: positive when White won, negative when Black won, 0 for a draw or a
// game still going. `outcome` may come from a referee (a win on time or by an illegal move scores
// like any other win).
int study_score(const State& final_position, const Outcome& outcome);

// The winner's points as a record tag writes them: "W+31", "B+27", or "0" for a draw (and a game
// still going).
std::string study_score_text(const State& final_position, const Outcome& outcome);

}  // namespace bge::tak
