#pragma once
// What the match prints on stdout, in cutechess-cli's words so existing scripts parse it, and the
// per-pair tallies behind the Score and Elo lines. Thread-safe; every line is flushed at once.
//
//   Started game 1 of 4 (A vs B)
//   Finished game 1 (A vs B): 1-0 {White wins by road}
//   Score of A vs B: 1 - 0 - 0  [1.000] 1
//   ...
//   Elo difference: 190.8 +/- 200.1, LOS: 92.1 %, DrawRatio: 0.0 %
//   Finished match

#include <mutex>
#include <string>
#include <vector>

#include "tools/arbiter/game_end.hpp"
#include "tools/arbiter/schedule.hpp"
#include "tools/arbiter/statistics.hpp"

namespace bge::arbiter {

class MatchReport {
public:
    MatchReport(std::vector<std::string> names, int total_games);

    void game_started(const ScheduledGame& game);
    // `description` is the text inside the braces, e.g. "White wins by road".
    void game_finished(const ScheduledGame& game, const Outcome& outcome, const std::string& description);
    // Per pair: (its Score line when several pairs play,) the Elo line; then "Finished match".
    void print_summary();

    int games_finished() const;

private:
    void print(const std::string& line);  // the caller holds mutex_
    std::string pair_score_line(int pair) const;

    std::vector<std::string> names_;
    std::vector<EnginePair> pairs_;
    std::vector<Tally> tallies_;  // by pair, from the first engine's point of view
    int total_games_;
    int finished_ = 0;
    mutable std::mutex mutex_;
};

}  // namespace bge::arbiter
