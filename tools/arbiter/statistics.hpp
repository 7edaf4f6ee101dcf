#pragma once
// Match statistics as cutechess-cli reports them (formulas in docs/arbiter.md). Header-only so the
// unit tests can check them against worked numbers without linking the arbiter.

#include <cmath>
#include <limits>
#include <string>

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

}  // namespace bge::arbiter
