#pragma once
// Self-play games for training the Gomoku network, and the text file that holds them.
//
// A games file is the line "bge-gomoku-games-1", then one game a line:
//   RULE WIDTH HEIGHT K RESULT OPENING_PLIES MOVE[/SCORE] ...
// RESULT is 1 (Black won), -1 (White won) or 0 (a draw or unfinished); opening plies were random
// and carry no score; every other move carries the search's score for its mover (centi-units).
// The features are computed afresh on loading, so a change of features needs no new games.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/gomoku/gomoku.hpp"
#include "tools/train/analysis_labels.hpp"

namespace bge::train {

struct GomokuGame {
    gomoku::Variant variant;
    int result = 0;
    int opening_plies = 0;
    std::vector<gomoku::Move> moves;
    std::vector<std::int16_t> scores;  // by ply; no_score for opening plies
    // By ply, the teacher's move where a teacher labelled the game (gomoku_games_from_labels);
    // empty for self-play games, and not part of the games file.
    std::vector<std::optional<gomoku::Move>> teacher_best;
    static constexpr std::int16_t no_score = INT16_MIN;
};

// One game's line (without the newline).
std::string format_game(const GomokuGame& game);
Status write_games(const std::string& path, const std::vector<GomokuGame>& games);
// Every game checked move by move against the rules; an error names the line.
Expected<std::vector<GomokuGame>> read_games(const std::string& path);
// Reads the files in order and calls take(game, held_out) for every game of `rule`; every n-th
// of them is held out for validation (n = validation_every; 0: none). The count of games taken.
Expected<long> for_each_game(const std::vector<std::string>& paths, gomoku::Rule rule, int validation_every,
                             const std::function<void(const GomokuGame&, bool held_out)>& take);

// Games labelled by a teacher (`arbiter analyse` datasets, read by read_labelled_games: Rapfi's
// judgement, or any engine's) as games to train on: every move of each game, and as its score the
// teacher's expected score for the mover turned into centi-units (200 logit(p), the inverse of the
// network fit's sigmoid(score / 200)), so --score-weight 1 fits the teacher and 0 the results.
// A game's variant is read from its "variant" ("15x15, renju, 5 in a row"); only games recorded
// from the empty board are used (a match's records hold the book's moves too). A position the
// teacher gave no score keeps none; its move (`best`) is kept in teacher_best, for the policy fit.
// `skipped` says why a game was not used.
struct LabelledGomokuGames {
    std::vector<GomokuGame> games;
    std::vector<std::string> skipped;  // "games.txt game 3: ..."
};
LabelledGomokuGames gomoku_games_from_labels(const std::vector<LabelledGame>& labelled, const TeacherScale& teacher);

}  // namespace bge::train
