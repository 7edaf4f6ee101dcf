#include "tools/arbiter/match_report.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace bge::arbiter {

MatchReport::MatchReport(std::vector<std::string> names, int total_games, int games_to_play)
    : names_(std::move(names)),
      total_games_(total_games),
      games_to_play_(games_to_play),
      progress_(::isatty(STDERR_FILENO) == 1) {}

void MatchReport::clear_progress() {
    if (progress_ && !progress_text_.empty()) std::fputs("\r\033[K", stderr);
}

void MatchReport::line(const std::string& text) {
    clear_progress();
    std::fputs(text.c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
    if (progress_ && !progress_text_.empty()) {
        std::fputs(progress_text_.c_str(), stderr);
        std::fflush(stderr);
    }
}

void MatchReport::game_started(const ScheduledGame& game) {
    line(fmt::format("Started game {} of {} ({} vs {})", game.number, total_games_, names_[game.white],
                     names_[game.black]));
}

std::string MatchReport::pair_score_line(const Results& results, int pair) const {
    const EnginePair& p = results.pairs()[static_cast<std::size_t>(pair)];
    return score_line(names_[p.first], names_[p.second], results.tally(pair));
}

void MatchReport::game_finished(const FinishedGame& game, const Results& results) {
    ++finished_this_run_;
    const ScheduledGame& s = game.scheduled;
    line(fmt::format("Finished game {} ({} vs {}): {} {{{}}}", s.number, names_[s.white], names_[s.black],
                     game.result, game.reason));
    line(pair_score_line(results, s.pair));
    draw_progress(results);
}

void MatchReport::draw_progress(const Results& results) {
    if (!progress_) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const int left = std::max(0, games_to_play_ - finished_this_run_);
    const int eta = finished_this_run_ > 0 ? static_cast<int>(elapsed / finished_this_run_ * left) : 0;
    std::string text = fmt::format("[{}/{}] ETA {}:{:02}:{:02}", finished_this_run_, games_to_play_, eta / 3600,
                                   eta / 60 % 60, eta % 60);
    if (!results.pairs().empty()) {
        const EnginePair& p = results.pairs()[0];
        const Tally tally = results.tally(0);
        const EloEstimate elo = estimate_elo(tally);
        text += fmt::format("  {} vs {}: {}-{}  Elo {:+.0f} +/- {:.0f}", names_[p.first], names_[p.second],
                            tally.wins + 0.5 * tally.draws, tally.losses + 0.5 * tally.draws, elo.elo, elo.error_95);
    }
    clear_progress();
    progress_text_ = text;
    std::fputs(progress_text_.c_str(), stderr);
    std::fflush(stderr);
}

void MatchReport::ratings(const Results& results) {
    if (names_.size() > 2) {
        for (const std::string& row : ranking_table(rank_engines(static_cast<int>(names_.size()), results.game_results()),
                                                    names_))
            line(row);
        return;
    }
    for (std::size_t pair = 0; pair < results.pairs().size(); ++pair) line(elo_line(results.tally(static_cast<int>(pair))));
}

void MatchReport::summary(const Results& results, const std::optional<SprtStatus>& sprt_status,
                          const std::optional<SprtConfig>& sprt_config) {
    for (std::size_t pair = 0; pair < results.pairs().size(); ++pair) {
        if (results.pairs().size() > 1) line(pair_score_line(results, static_cast<int>(pair)));
        line(elo_line(results.tally(static_cast<int>(pair))));
    }
    if (names_.size() > 2) {
        for (const std::string& row : ranking_table(rank_engines(static_cast<int>(names_.size()), results.game_results()),
                                                    names_))
            line(row);
    } else if (!results.pairs().empty()) {
        for (const std::string& row :
             result_block(names_[0], names_[1], results.tally(0), results.pentanomial(0), sprt_status, sprt_config))
            line(row);
    }
    clear_progress();
    progress_text_.clear();
    line("Finished match");
}

}  // namespace bge::arbiter
