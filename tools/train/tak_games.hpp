#pragma once
// Self-play games for training the Tak evaluation, and the binary file that holds them.
//
// A games file is "bge-tak-games-1" and then one record per game: the variant (size, komi), the
// result, how many opening plies came from the book or were random, and every move with the
// search score the engine gave it (from the mover's side, centi-flats; none for opening plies).
// Moves are two bytes, so a million positions take about 4 MB and reload in a blink; the
// features are computed afresh on loading, so a change of features needs no new games.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/tak/tak.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/network.hpp"
#include "tools/train/analysis_labels.hpp"

namespace bge::train {

struct TakGame {
    tak::Variant variant;
    int result = 0;  // +1 White won, -1 Black won, 0 a draw (or unfinished)
    int opening_plies = 0;
    std::vector<tak::Move> moves;
    std::vector<std::int16_t> scores;  // by ply; no_score for opening plies
    static constexpr std::int16_t no_score = INT16_MIN;
};

Status write_games(const std::string& path, const std::vector<TakGame>& games, bool append);
Expected<std::vector<TakGame>> read_games(const std::string& path);

struct SelfPlaySettings {
    int size = 6;
    int half_komi = 4;
    int games = 1000;
    int first_game = 0;  // the games are numbers first_game .. first_game + games - 1 (a shard's block)
    std::uint64_t nodes = 20000;  // per move; 0: use depth
    int depth = 0;
    int min_random_plies = 1;  // after the book line, this many to random_plies uniformly random plies
    int random_plies = 2;
    int max_plies = 400;  // longer games are stopped and scored as draws
    int threads = 2;
    std::uint64_t seed = 1;
    std::vector<std::vector<std::string>> book;  // opening lines (PTN moves); empty: the start
    // The value networks the players evaluate with, where one covers the size (the engine's
    // UseNnue); nullptr: the linear evaluation of `weights`.
    std::shared_ptr<const tak::network::NetworkSet> networks;
};

// Plays the games with the alpha-beta player over `weights`, on `threads` threads; the games come
// back in game order whatever the thread count, and the same settings give the same games. A
// game's opening and random plies depend only on the seed and its number, so the blocks of a
// sharded run are the games of the whole run.
// `progress` is called (from any thread, serialised) after each game with the count finished.
std::vector<TakGame> play_self_games(const SelfPlaySettings& settings,
                                     std::shared_ptr<const tak::EvalWeightSet> weights,
                                     const std::function<void(int)>& progress = {});

// Lines of PTN moves, one opening a line (the arbiter's `book` output, format moves).
Expected<std::vector<std::vector<std::string>>> read_book(const std::string& path);

// Games labelled by a teacher (`arbiter analyse` datasets, read by read_labelled_games) as games
// to train on: every move of each game, and as its score the teacher's expected score turned into
// centi-flats at `scale` (scale * logit(p), the inverse of the fit's sigmoid(score / scale)), so
// --score-weight 1 fits the teacher and 0 the results. Only games from the standard start of a
// size with its komi given ("variant": "size 6, komi 2") are used; `skipped` says why others were
// not.
struct LabelledGames {
    std::vector<TakGame> games;
    std::vector<std::string> skipped;  // "games.ptn game 3: ..."
};
LabelledGames games_from_labels(const std::vector<LabelledGame>& labelled, const TeacherScale& teacher, double scale);

}  // namespace bge::train
