#include "tools/arbiter/match_report.hpp"

#include <cstdio>

#include <fmt/format.h>

namespace bge::arbiter {

MatchReport::MatchReport(std::vector<std::string> names, int total_games)
    : names_(std::move(names)),
      pairs_(round_robin_pairs(static_cast<int>(names_.size()))),
      tallies_(pairs_.size()),
      total_games_(total_games) {}

void MatchReport::print(const std::string& line) {
    std::fputs(line.c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

void MatchReport::game_started(const ScheduledGame& game) {
    std::lock_guard lock(mutex_);
    print(fmt::format("Started game {} of {} ({} vs {})", game.number, total_games_, names_[game.white],
                      names_[game.black]));
}

std::string MatchReport::pair_score_line(int pair) const {
    return score_line(names_[pairs_[pair].first], names_[pairs_[pair].second], tallies_[pair]);
}

void MatchReport::game_finished(const ScheduledGame& game, const Outcome& outcome, const std::string& description) {
    std::lock_guard lock(mutex_);
    ++finished_;
    Tally& tally = tallies_[game.pair];
    const bool first_is_white = pairs_[game.pair].first == game.white;
    if (outcome.kind == OutcomeKind::draw)
        ++tally.draws;
    else if ((outcome.winner == Side::first) == first_is_white)
        ++tally.wins;
    else
        ++tally.losses;
    print(fmt::format("Finished game {} ({} vs {}): {} {{{}}}", game.number, names_[game.white], names_[game.black],
                      result_score(outcome), description));
    print(pair_score_line(game.pair));
}

void MatchReport::print_summary() {
    std::lock_guard lock(mutex_);
    for (std::size_t pair = 0; pair < pairs_.size(); ++pair) {
        if (pairs_.size() > 1) print(pair_score_line(static_cast<int>(pair)));
        print(elo_line(tallies_[pair]));
    }
    print("Finished match");
}

int MatchReport::games_finished() const {
    std::lock_guard lock(mutex_);
    return finished_;
}

}  // namespace bge::arbiter
