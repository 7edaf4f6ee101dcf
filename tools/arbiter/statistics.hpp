#pragma once
// Match statistics (formulas in docs/arbiter.md, "Statistics"): the trinomial Elo lines as
// cutechess-cli prints them (inline here), and in statistics.cpp the game-pair (pentanomial) Elo,
// normalized Elo, the generalized SPRT as fishtest computes it, the fastchess result block, and
// maximum-likelihood ratings for more than two engines with cutechess's ranking table.

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace bge::arbiter {

struct Tally {
    int wins = 0;
    int losses = 0;
    int draws = 0;

    int games() const { return wins + losses + draws; }
    // Points per game in [0, 1]; 0.5 before any game.
    double score() const { return games() == 0 ? 0.5 : (wins + 0.5 * draws) / games(); }
};

struct EloEstimate {
    double elo;          // +-infinity at a 100% / 0% score
    double error_95;     // half-width of the 95% interval; NaN when the score is 100% or 0%
    double los_percent;  // likelihood of superiority
    double draw_percent;
};

// Logistic Elo difference for an expected score in (0, 1).
inline double elo_from_score(double score) {
    return score == 0.5 ? 0.0 : -400.0 * std::log10(1.0 / score - 1.0);  // never print "-0.0"
}

inline EloEstimate estimate_elo(const Tally& tally) {
    const double n = tally.games();
    if (n == 0) return {0.0, 0.0, 50.0, 0.0};
    const double w = tally.wins / n, l = tally.losses / n, d = tally.draws / n;
    const double score = tally.score();
    // Variance of one game's points, then the standard error of the mean score.
    const double variance = w * std::pow(1.0 - score, 2) + l * std::pow(0.0 - score, 2) + d * std::pow(0.5 - score, 2);
    const double standard_error = std::sqrt(variance / n);
    constexpr double z_95 = 1.959963984540054;

    EloEstimate estimate{};
    estimate.draw_percent = 100.0 * d;
    const int decisive = tally.wins + tally.losses;
    // No decisive game: nothing says either side is better.
    estimate.los_percent =
        decisive == 0 ? 50.0 : 50.0 * (1.0 + std::erf((tally.wins - tally.losses) / std::sqrt(2.0 * decisive)));
    if (score >= 1.0 || score <= 0.0) {
        estimate.elo =
            score >= 1.0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
        estimate.error_95 = std::numeric_limits<double>::quiet_NaN();
        return estimate;
    }
    estimate.elo = elo_from_score(score);
    const double low = score - z_95 * standard_error;
    const double high = score + z_95 * standard_error;
    // The interval may poke out of (0, 1) on tiny samples: the error is then unbounded.
    estimate.error_95 = (low <= 0.0 || high >= 1.0) ? std::numeric_limits<double>::quiet_NaN()
                                                    : (elo_from_score(high) - elo_from_score(low)) / 2.0;
    return estimate;
}

// "Elo difference: 107.5 +/- 68.4, LOS: 99.9 %, DrawRatio: 10.0 %" (inf and nan as cutechess
// prints them).
inline std::string elo_line(const Tally& tally) {
    const EloEstimate e = estimate_elo(tally);
    return fmt::format("Elo difference: {:.1f} +/- {:.1f}, LOS: {:.1f} %, DrawRatio: {:.1f} %", e.elo, e.error_95,
                       e.los_percent, e.draw_percent);
}

// "Score of A vs B: 3 - 1 - 0  [0.750] 4"
inline std::string score_line(const std::string& first, const std::string& second, const Tally& tally) {
    return fmt::format("Score of {} vs {}: {} - {} - {}  [{:.3f}] {}", first, second, tally.wins, tally.losses,
                       tally.draws, tally.score(), tally.games());
}

// ---------------------------------------------------------------------------------------------
// Game pairs (pentanomial): the two games of an encounter, same opening, colours swapped.

struct Pentanomial {
    // Pairs by the engine of interest's points over the two games: [LL, LD, WL+DD, WD, WW].
    std::array<int, 5> counts{};
    // counts[2] split up, for the WL/DD ratio.
    int wl = 0;
    int dd = 0;

    // Each argument is the engine's points in one game of the pair: 0, 0.5 or 1 (other values
    // are rounded to the nearest of those).
    void add_pair(double first_points, double second_points);
    int pairs() const;
    // Points per game in [0, 1] (the pair score halved); 0.5 before any pair.
    double score() const;
};

// "Ptnml(0-2): [LL, LD, WL+DD, WD, WW]"
std::string pentanomial_line(const Pentanomial& pentanomial);

struct EloInterval {
    double elo;       // +-infinity at a 100% / 0% score
    double error_95;  // half-width of the 95% interval; NaN when it is unbounded
};

// Logistic Elo from the mean and variance of the pair scores (fastchess, fishtest).
EloInterval elo_from_pentanomial(const Pentanomial& pentanomial);
// Normalized Elo (fishtest): (score - 1/2) / (per-game standard deviation) * 800 / ln 10.
EloInterval normalized_elo(const Tally& tally);
EloInterval normalized_elo(const Pentanomial& pentanomial);
// Likelihood of superiority in percent, normal approximation on the mean score (fastchess).
double los_percent(const Tally& tally);
double los_percent(const Pentanomial& pentanomial);

// ---------------------------------------------------------------------------------------------
// Generalized SPRT, normalized-Elo model (fishtest's LLR_normalized).

struct SprtConfig {
    double elo0;  // bounds in normalized Elo
    double elo1;
    double alpha;
    double beta;
};

struct SprtStatus {
    double llr;
    double lower;  // ln(beta / (1 - alpha))
    double upper;  // ln((1 - beta) / alpha)
    enum class Verdict { continue_testing, accept_h0, accept_h1 } verdict;
};

SprtStatus sprt(const Pentanomial& pentanomial, const SprtConfig& config);
SprtStatus sprt(const Tally& tally, const SprtConfig& config);  // unpaired games

// "LLR: 2.95 (-2.94, 2.94) [0.00, 5.00]"
std::string sprt_line(const SprtStatus& status, const SprtConfig& config);

// The fastchess summary of one pair of engines (from the first engine's side). Elo, nElo, LOS
// and DrawRatio come from the pentanomial when there is a complete pair, else from the tally;
// the LLR line is there only with both an SPRT status and its configuration.
std::vector<std::string> result_block(const std::string& first, const std::string& second, const Tally& tally,
                                      const Pentanomial& pentanomial, const std::optional<SprtStatus>& status,
                                      const std::optional<SprtConfig>& config);

// ---------------------------------------------------------------------------------------------
// Ratings for any number of engines: Bradley-Terry (logistic) maximum likelihood.

struct GameResult {
    int white;  // engine indices
    int black;
    double white_points;  // 1, 0.5 or 0
};

struct RankRow {
    int engine;
    double elo;       // mean of the finite ratings is 0; +-infinity for an all-win / all-loss record
    double error_95;  // NaN where unbounded
    int games;
    double score;       // points per game in [0, 1]; NaN without games
    double draw_ratio;  // draws per game in [0, 1]; NaN without games
};

// One row per engine, best first (ties by engine index). Games naming an engine out of range or
// the same engine twice are ignored.
std::vector<RankRow> rank_engines(int engine_count, const std::vector<GameResult>& games);

// cutechess-cli's table: a header line, then one line per row (rank from 1). A missing name
// prints as the engine's number.
std::vector<std::string> ranking_table(const std::vector<RankRow>& rows, const std::vector<std::string>& names);

}  // namespace bge::arbiter
