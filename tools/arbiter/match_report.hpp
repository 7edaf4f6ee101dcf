#pragma once
// What the match prints on stdout, in cutechess-cli's words so existing scripts parse it:
//
//   Started game 1 of 4 (A vs B)
//   Finished game 1 (A vs B): 1-0 {White wins by road}
//   Score of A vs B: 1 - 0 - 0  [1.000] 1
//   ...
//   Elo difference: 190.8 +/- 200.1, LOS: 92.1 %, DrawRatio: 0.0 %
//   (a ranking table with more than two engines; fastchess's result block with two)
//   Finished match
//
// On a terminal it also keeps a live progress line on stderr (games done, ETA, score, Elo).
// Not thread-safe: the match calls it under its own lock.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "tools/arbiter/results.hpp"

namespace bge::arbiter {

class MatchReport {
public:
    // `games_to_play` is how many games this run will play (for the progress line); game
    // numbers in the Started lines count against `total_games`.
    MatchReport(std::vector<std::string> names, int total_games, int games_to_play);

    void game_started(const ScheduledGame& game);
    void game_finished(const FinishedGame& game, const Results& results);
    // The Elo lines, or the ranking table with more than two engines (-ratinginterval and the end).
    void ratings(const Results& results);
    void summary(const Results& results, const std::optional<SprtStatus>& sprt_status,
                 const std::optional<SprtConfig>& sprt_config);
    void line(const std::string& text);  // any other stdout line

private:
    void clear_progress();
    void draw_progress(const Results& results);
    std::string pair_score_line(const Results& results, int pair) const;

    std::vector<std::string> names_;
    int total_games_;
    int games_to_play_;
    int finished_this_run_ = 0;
    bool progress_ = false;  // stderr is a terminal
    std::string progress_text_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace bge::arbiter
