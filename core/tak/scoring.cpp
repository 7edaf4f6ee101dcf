#include "core/tak/scoring.hpp"

namespace bge::tak {

int study_score(const State& final_position, const Outcome& outcome) {
    if (outcome.kind != OutcomeKind::win) return 0;
    const int size = final_position.size;
    const int points = size * size + pieces_left(final_position, outcome.winner);
    return outcome.winner == Side::first ? points : -points;
}

std::string study_score_text(const State& final_position, const Outcome& outcome) {
    const int score = study_score(final_position, outcome);
    if (score == 0) return "0";
    return (score > 0 ? "W+" : "B+") + std::to_string(score > 0 ? score : -score);
}

}  // namespace bge::tak
