#pragma once
// Teacher labels for the trainers: the datasets `arbiter analyse` writes (docs/arbiter.md,
// "Analysis"), one JSON line per position searched by a teacher engine (Tiltak, Rapfi, or our
// own), read back and grouped into games again, in any game. Each trainer turns the games into
// its own positions and features (tak_games.hpp for Tak).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace bge::train {

// What the teacher said about one position.
struct LabelledPosition {
    int ply = 0;
    std::string position;  // the game's position text (TPS for Tak)
    std::string played;    // the record's move from here; empty after the last
    std::string best;      // the teacher's move
    std::optional<int> score_cp;  // side to move's view; a mate as +-(100000 - plies)
    std::optional<int> mate;
};

// The positions of one record, by ply from its start, as far as they follow one another (a
// position the teacher left out ends the game there: the moves after it are unknown).
struct LabelledGame {
    std::string file;  // the record file the analysis read
    int game = 0;      // its number in that file
    std::string variant;  // as the arbiter words it: "size 6, komi 2"
    std::string outcome;  // p1win, p2win, draw or none
    std::string engine;   // the teacher
    std::vector<LabelledPosition> positions;
};

// Every game of the datasets, in the order of their first line; a line that does not parse
// names its file and line.
Expected<std::vector<LabelledGame>> read_labelled_games(const std::vector<std::string>& paths);

// How a teacher's `score cp` maps to its expected score (0 a loss, 1 a win) for the side to
// move: "tiltak" (Tiltak prints 200 p - 100, linear in p) or "logistic:S" (1 / (1 + e^(-cp/S)),
// as our own engines' centi-flats, S = 200). A mate is a win or a loss whatever the scale.
class TeacherScale {
public:
    static Expected<TeacherScale> parse(std::string_view text);
    double expected_score(int score_cp, std::optional<int> mate) const;
    // That expected score as a trainer's score: scale logit(p), the inverse of the fits'
    // sigmoid(score / scale), with p kept within [1e-4, 1 - 1e-4] (a mate: +-9.21 scale).
    std::int16_t training_score(int score_cp, std::optional<int> mate, double scale) const;

private:
    bool linear_ = false;
    double scale_ = 200;
};

}  // namespace bge::train
