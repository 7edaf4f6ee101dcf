#include "tools/arbiter/statistics.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>

#include <fmt/format.h>

namespace bge::arbiter {

namespace {

constexpr double z_95 = 1.959963984540054;
// Normalized Elo per unit of t-value (fishtest's nelo_divided_by_nt).
const double nelo_per_t = 800.0 / std::log(10.0);
constexpr double infinity = std::numeric_limits<double>::infinity();
// Written out rather than computed as 0/0: x86 makes that a negative NaN, which prints "-nan".
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

double ratio(double numerator, double denominator) {
    if (denominator != 0.0) return numerator / denominator;
    return numerator == 0.0 ? not_a_number : (numerator > 0 ? infinity : -infinity);
}

// Mean and variance of one pair's score (scaled to [0, 1]: 0, 1/4, ..., 1) over the sample.
struct PairMoments {
    double mean;
    double variance;
};

PairMoments pair_moments(const Pentanomial& pentanomial) {
    const double n = pentanomial.pairs();
    const double mean = pentanomial.score();
    double variance = 0.0;
    for (int i = 0; i < 5; ++i) variance += pentanomial.counts[i] / n * std::pow(i / 4.0 - mean, 2);
    return {mean, variance};
}

double game_variance(const Tally& tally) {
    const double n = tally.games();
    const double s = tally.score();
    return (tally.wins * std::pow(1.0 - s, 2) + tally.losses * s * s + tally.draws * std::pow(0.5 - s, 2)) / n;
}

// Logistic Elo and its 95% interval from a mean score and the standard error of that mean.
EloInterval logistic_interval(double score, double standard_error) {
    if (score >= 1.0) return {infinity, not_a_number};
    if (score <= 0.0) return {-infinity, not_a_number};
    const double low = score - z_95 * standard_error;
    const double high = score + z_95 * standard_error;
    // (Zero spread is tested apart: contracted arithmetic could make elo(s) - elo(s) a tiny non-zero.)
    const double error = standard_error == 0.0         ? 0.0
                         : (low <= 0.0 || high >= 1.0) ? not_a_number
                                                       : (elo_from_score(high) - elo_from_score(low)) / 2.0;
    return {elo_from_score(score), error};
}

// nElo = (score - 1/2) / sigma * 800 / ln 10, sigma the per-game standard deviation; its error
// is linear in the score's standard error.
EloInterval normalized_interval(double score, double sigma_per_game, double standard_error) {
    if (sigma_per_game == 0.0) {
        if (score == 0.5) return {0.0, 0.0};
        return {score > 0.5 ? infinity : -infinity, not_a_number};
    }
    return {(score - 0.5) / sigma_per_game * nelo_per_t, z_95 * standard_error / sigma_per_game * nelo_per_t};
}

double normal_los_percent(double score, double standard_error) {
    if (standard_error == 0.0) return score > 0.5 ? 100.0 : score < 0.5 ? 0.0 : 50.0;
    return 50.0 * (1.0 + std::erf((score - 0.5) / (std::sqrt(2.0) * standard_error)));
}

// ---- generalized SPRT (Michel Van den Bergh, "Comments on normalized Elo", section 4.1) ------

template <std::size_t N>
using Distribution = std::array<double, N>;

template <std::size_t N>
PairMoments moments(const Distribution<N>& values, const Distribution<N>& probabilities) {
    double mean = 0.0, variance = 0.0;
    for (std::size_t i = 0; i < N; ++i) mean += probabilities[i] * values[i];
    for (std::size_t i = 0; i < N; ++i) variance += probabilities[i] * std::pow(values[i] - mean, 2);
    return {mean, variance};
}

// The x solving sum_i p_i a_i / (1 + x a_i) = 0 with every 1 + x a_i > 0 (the "secular
// equation"). The sum falls strictly from +inf to -inf over that interval, so bisection finds the
// root to the last bit. Needs some a_i < 0 < some a_j; otherwise nothing.
template <std::size_t N>
std::optional<double> solve_secular(const Distribution<N>& a, const Distribution<N>& p) {
    const double smallest = *std::min_element(a.begin(), a.end());
    const double largest = *std::max_element(a.begin(), a.end());
    if (!(smallest < 0.0 && largest > 0.0)) return std::nullopt;
    double low = -1.0 / largest, high = -1.0 / smallest;
    for (int step = 0; step < 2000; ++step) {
        const double middle = low + (high - low) / 2.0;
        if (middle <= low || middle >= high) break;
        double sum = 0.0;
        for (std::size_t i = 0; i < N; ++i) sum += p[i] * a[i] / (1.0 + middle * a[i]);
        (sum > 0.0 ? low : high) = middle;
    }
    return low + (high - low) / 2.0;
}

// The maximum-likelihood distribution on `values` given the observed frequencies `observed`,
// under the constraint (mean - 1/2) / sigma = t. Fixed-point iteration, as fishtest's MLE_t_value
// does, but reached by continuation: t grows from 0 in steps, each solved from the last one's
// answer. Started from the uniform distribution at a large t (nElo bounds of 150 and more) the
// iteration's first step has no solution, and the LLR used to read 0 for any record.
template <std::size_t N>
std::optional<Distribution<N>> constrained_mle(const Distribution<N>& values, const Distribution<N>& observed,
                                               double t) {
    constexpr int continuation_steps = 32;
    Distribution<N> estimate;
    estimate.fill(1.0 / N);
    for (int step = 1; step <= continuation_steps; ++step) {
        const double target = t * step / continuation_steps;
        for (int iteration = 0; iteration < 200; ++iteration) {
            const auto [mean, variance] = moments(values, estimate);
            const double sigma = std::sqrt(variance);
            if (!(sigma > 0.0)) return std::nullopt;
            Distribution<N> phi;
            for (std::size_t i = 0; i < N; ++i)
                phi[i] = values[i] - 0.5 - target * sigma * (1.0 + std::pow((mean - values[i]) / sigma, 2)) / 2.0;
            const std::optional<double> x = solve_secular(phi, observed);
            if (!x) return std::nullopt;
            double change = 0.0;
            for (std::size_t i = 0; i < N; ++i) {
                const double next = observed[i] / (1.0 + *x * phi[i]);
                change = std::max(change, std::abs(next - estimate[i]));
                estimate[i] = next;
            }
            if (change < 1e-12) break;
        }
    }
    return estimate;
}

// N * sum_i phat_i ln(p1_i / p0_i), with p0, p1 the constrained MLEs at t0, t1. Empty cells get
// 1e-3 of a count, as fishtest's regularize() does, so a one-sided record still has a finite LLR.
template <std::size_t N>
double generalized_llr(const Distribution<N>& values, const std::array<int, N>& counts, double t0, double t1) {
    if (std::accumulate(counts.begin(), counts.end(), 0) <= 0) return 0.0;
    Distribution<N> observed;
    double total = 0.0;
    for (std::size_t i = 0; i < N; ++i) {
        observed[i] = counts[i] > 0 ? counts[i] : 1e-3;
        total += observed[i];
    }
    for (double& p : observed) p /= total;
    const auto h0 = constrained_mle(values, observed, t0);
    const auto h1 = constrained_mle(values, observed, t1);
    if (!h0 || !h1) return 0.0;
    double llr = 0.0;
    for (std::size_t i = 0; i < N; ++i) llr += observed[i] * (std::log((*h1)[i]) - std::log((*h0)[i]));
    llr *= total;
    return std::isfinite(llr) ? llr : 0.0;
}

SprtStatus sprt_status(double llr, const SprtConfig& config) {
    SprtStatus status{llr, std::log(config.beta / (1.0 - config.alpha)), std::log((1.0 - config.beta) / config.alpha),
                      SprtStatus::Verdict::continue_testing};
    if (std::isfinite(status.lower) && std::isfinite(status.upper)) {
        if (llr >= status.upper)
            status.verdict = SprtStatus::Verdict::accept_h1;
        else if (llr <= status.lower)
            status.verdict = SprtStatus::Verdict::accept_h0;
    }
    return status;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

void Pentanomial::add_pair(double first_points, double second_points) {
    const auto halves = [](double points) { return static_cast<int>(std::lround(std::clamp(points, 0.0, 1.0) * 2.0)); };
    const int first = halves(first_points), second = halves(second_points);
    ++counts[first + second];
    if (first + second == 2) ++(first == 1 ? dd : wl);
}

int Pentanomial::pairs() const { return std::accumulate(counts.begin(), counts.end(), 0); }

double Pentanomial::score() const {
    const int n = pairs();
    if (n == 0) return 0.5;
    double points = 0.0;
    for (int i = 0; i < 5; ++i) points += i * counts[i];
    return points / (4.0 * n);
}

std::string pentanomial_line(const Pentanomial& pentanomial) {
    const auto& c = pentanomial.counts;
    return fmt::format("Ptnml(0-2): [{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4]);
}

EloInterval elo_from_pentanomial(const Pentanomial& pentanomial) {
    const int n = pentanomial.pairs();
    if (n == 0) return {0.0, 0.0};
    const auto [mean, variance] = pair_moments(pentanomial);
    return logistic_interval(mean, std::sqrt(variance / n));
}

EloInterval normalized_elo(const Tally& tally) {
    const int n = tally.games();
    if (n == 0) return {0.0, 0.0};
    const double variance = game_variance(tally);
    return normalized_interval(tally.score(), std::sqrt(variance), std::sqrt(variance / n));
}

EloInterval normalized_elo(const Pentanomial& pentanomial) {
    const int n = pentanomial.pairs();
    if (n == 0) return {0.0, 0.0};
    const auto [mean, variance] = pair_moments(pentanomial);
    // A pair is two games: the per-game variance is twice the variance of the pair's mean.
    return normalized_interval(mean, std::sqrt(2.0 * variance), std::sqrt(variance / n));
}

double los_percent(const Tally& tally) {
    const int n = tally.games();
    if (n == 0) return 50.0;
    return normal_los_percent(tally.score(), std::sqrt(game_variance(tally) / n));
}

double los_percent(const Pentanomial& pentanomial) {
    const int n = pentanomial.pairs();
    if (n == 0) return 50.0;
    const auto [mean, variance] = pair_moments(pentanomial);
    return normal_los_percent(mean, std::sqrt(variance / n));
}

SprtStatus sprt(const Pentanomial& pentanomial, const SprtConfig& config) {
    // The t-value of a pair is sqrt(2) times the per-game one.
    const double t0 = std::sqrt(2.0) * config.elo0 / nelo_per_t;
    const double t1 = std::sqrt(2.0) * config.elo1 / nelo_per_t;
    return sprt_status(generalized_llr<5>({0.0, 0.25, 0.5, 0.75, 1.0}, pentanomial.counts, t0, t1), config);
}

SprtStatus sprt(const Tally& tally, const SprtConfig& config) {
    const std::array<int, 3> counts{tally.losses, tally.draws, tally.wins};
    return sprt_status(generalized_llr<3>({0.0, 0.5, 1.0}, counts, config.elo0 / nelo_per_t, config.elo1 / nelo_per_t),
                       config);
}

std::string sprt_line(const SprtStatus& status, const SprtConfig& config) {
    return fmt::format("LLR: {:.2f} ({:.2f}, {:.2f}) [{:.2f}, {:.2f}]", status.llr, status.lower, status.upper,
                       config.elo0, config.elo1);
}

std::vector<std::string> result_block(const std::string& first, const std::string& second, const Tally& tally,
                                      const Pentanomial& pentanomial, const std::optional<SprtStatus>& status,
                                      const std::optional<SprtConfig>& config) {
    const bool paired = pentanomial.pairs() > 0;
    EloInterval elo{}, nelo{};
    double los = 50.0, draw_percent = 0.0;
    if (paired) {
        elo = elo_from_pentanomial(pentanomial);
        nelo = normalized_elo(pentanomial);
        los = los_percent(pentanomial);
        // fastchess counts the pairs that scored one point (WL + DD) here.
        draw_percent = 100.0 * pentanomial.counts[2] / pentanomial.pairs();
    } else {
        const EloEstimate estimate = estimate_elo(tally);
        elo = {estimate.elo, estimate.error_95};
        nelo = normalized_elo(tally);
        los = los_percent(tally);
        draw_percent = estimate.draw_percent;
    }
    const auto& c = pentanomial.counts;
    const double points = tally.wins + 0.5 * tally.draws;
    std::vector<std::string> lines{
        fmt::format("Results of {} vs {}:", first, second),
        fmt::format("Elo: {:.2f} +/- {:.2f}, nElo: {:.2f} +/- {:.2f}", elo.elo, elo.error_95, nelo.elo, nelo.error_95),
        fmt::format("LOS: {:.2f} %, DrawRatio: {:.2f} %, PairsRatio: {:.2f}", los, draw_percent,
                    ratio(c[3] + c[4], c[0] + c[1])),
        fmt::format("Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1f} ({:.2f} %)", tally.games(), tally.wins,
                    tally.losses, tally.draws, points, 100.0 * ratio(points, tally.games())),
        fmt::format("{}, WL/DD Ratio: {:.2f}", pentanomial_line(pentanomial), ratio(pentanomial.wl, pentanomial.dd)),
    };
    if (status && config) lines.push_back(sprt_line(*status, *config));
    return lines;
}

// ---------------------------------------------------------------------------------------------
// Ratings

namespace {

double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

struct FitGame {
    int white;
    int black;
    double white_points;
    double weight;
};

// Solves a * x = b (a symmetric positive definite, small) by Gaussian elimination with partial
// pivoting; false when singular.
bool solve_linear(std::vector<std::vector<double>> a, std::vector<double>& b) {
    const std::size_t n = b.size();
    for (std::size_t column = 0; column < n; ++column) {
        std::size_t pivot = column;
        for (std::size_t row = column + 1; row < n; ++row)
            if (std::abs(a[row][column]) > std::abs(a[pivot][column])) pivot = row;
        if (!(std::abs(a[pivot][column]) > 1e-300)) return false;
        std::swap(a[pivot], a[column]);
        std::swap(b[pivot], b[column]);
        for (std::size_t row = 0; row < n; ++row) {
            if (row == column) continue;
            const double factor = a[row][column] / a[column][column];
            if (factor == 0.0) continue;
            for (std::size_t k = column; k < n; ++k) a[row][k] -= factor * a[column][k];
            b[row] -= factor * b[column];
        }
    }
    for (std::size_t i = 0; i < n; ++i) b[i] /= a[i][i];
    return true;
}

// Is every engine of `members` reachable from every other along "scored at least a draw
// against" edges? Exactly then the maximum-likelihood ratings exist and are finite.
bool strongly_connected(const std::vector<int>& members, const std::vector<FitGame>& games, int engine_count) {
    std::vector<std::vector<bool>> scored(engine_count, std::vector<bool>(engine_count, false));
    for (const FitGame& g : games) {
        if (g.white_points > 0.0) scored[g.white][g.black] = true;
        if (g.white_points < 1.0) scored[g.black][g.white] = true;
    }
    for (bool forward : {true, false}) {
        std::vector<bool> seen(engine_count, false);
        std::vector<int> stack{members.front()};
        seen[members.front()] = true;
        while (!stack.empty()) {
            const int from = stack.back();
            stack.pop_back();
            for (int to : members)
                if (!seen[to] && (forward ? scored[from][to] : scored[to][from])) {
                    seen[to] = true;
                    stack.push_back(to);
                }
        }
        for (int m : members)
            if (!seen[m]) return false;
    }
    return true;
}

double log_likelihood(const std::vector<double>& x, const std::vector<FitGame>& games) {
    double sum = 0.0;
    for (const FitGame& g : games) {
        const double d = x[g.white] - x[g.black];
        // ln(logistic(d)) = -ln(1 + e^-d), computed without overflow.
        const auto log_logistic = [](double v) {
            return v >= 0 ? -std::log1p(std::exp(-v)) : v - std::log1p(std::exp(v));
        };
        sum += g.weight * (g.white_points * log_logistic(d) + (1.0 - g.white_points) * log_logistic(-d));
    }
    return sum;
}

// Newton's method with step halving on the log-likelihood (which is concave), the first member
// held at 0. Fills the ratings (natural log-odds units, mean 0 over the members) and their
// variances about that mean, from the inverse of the observed information.
void fit_ratings(const std::vector<int>& members, const std::vector<FitGame>& games, int engine_count,
                 std::vector<double>& rating, std::vector<double>& variance) {
    const std::size_t m = members.size();
    std::vector<int> slot(engine_count, -1);  // member -> free parameter (the first one is fixed)
    for (std::size_t k = 1; k < m; ++k) slot[members[k]] = static_cast<int>(k) - 1;
    std::vector<double> x(engine_count, 0.0);
    std::vector<std::vector<double>> information(m - 1, std::vector<double>(m - 1, 0.0));

    const auto build = [&](std::vector<double>& gradient) {
        for (auto& row : information) std::fill(row.begin(), row.end(), 0.0);
        gradient.assign(m - 1, 0.0);
        for (const FitGame& g : games) {
            const double p = logistic(x[g.white] - x[g.black]);
            const double residual = g.weight * (g.white_points - p);
            const double curvature = g.weight * p * (1.0 - p);
            const int w = slot[g.white], b = slot[g.black];
            if (w >= 0) {
                gradient[w] += residual;
                information[w][w] += curvature;
            }
            if (b >= 0) {
                gradient[b] -= residual;
                information[b][b] += curvature;
            }
            if (w >= 0 && b >= 0) {
                information[w][b] -= curvature;
                information[b][w] -= curvature;
            }
        }
    };

    std::vector<double> gradient;
    for (int iteration = 0; iteration < 200 && m > 1; ++iteration) {
        build(gradient);
        std::vector<double> step = gradient;
        if (!solve_linear(information, step)) break;
        const double before = log_likelihood(x, games);
        double scale = 1.0, largest = 0.0;
        std::vector<double> trial;
        for (int halving = 0; halving < 60; ++halving, scale /= 2.0) {
            trial = x;
            for (std::size_t k = 1; k < m; ++k) trial[members[k]] += scale * step[k - 1];
            if (log_likelihood(trial, games) >= before - 1e-12) break;
        }
        for (std::size_t k = 1; k < m; ++k) largest = std::max(largest, std::abs(scale * step[k - 1]));
        x = trial;
        if (largest < 1e-12) break;
    }
    build(gradient);

    // Covariance of the free parameters, then of the ratings centred on their mean:
    // V = C S C with C = I - 11'/m and S the covariance with the first member fixed.
    std::vector<std::vector<double>> covariance(m, std::vector<double>(m, 0.0));
    bool invertible = true;
    for (std::size_t k = 0; k + 1 < m && invertible; ++k) {
        std::vector<double> column(m - 1, 0.0);
        column[k] = 1.0;
        invertible = solve_linear(information, column);
        for (std::size_t j = 0; j + 1 < m; ++j) covariance[j + 1][k + 1] = column[j];
    }
    double mean = 0.0, total = 0.0;
    std::vector<double> row_sum(m, 0.0);
    for (std::size_t i = 0; i < m; ++i) {
        mean += x[members[i]] / m;
        for (std::size_t j = 0; j < m; ++j) row_sum[i] += covariance[i][j];
        total += row_sum[i];
    }
    for (std::size_t i = 0; i < m; ++i) {
        rating[members[i]] = x[members[i]] - mean;
        const double v = covariance[i][i] - 2.0 * row_sum[i] / m + total / (double(m) * m);
        variance[members[i]] = invertible && m > 1 ? std::max(v, 0.0) : not_a_number;
    }
}

}  // namespace

std::vector<RankRow> rank_engines(int engine_count, const std::vector<GameResult>& games) {
    engine_count = std::max(engine_count, 0);
    std::vector<RankRow> rows(engine_count);
    std::vector<double> points(engine_count, 0.0);
    std::vector<int> draws(engine_count, 0);
    std::vector<FitGame> valid;
    for (const GameResult& g : games) {
        if (g.white < 0 || g.black < 0 || g.white >= engine_count || g.black >= engine_count || g.white == g.black ||
            !std::isfinite(g.white_points))
            continue;
        const double white_points = std::clamp(g.white_points, 0.0, 1.0);
        valid.push_back({g.white, g.black, white_points, 1.0});
        ++rows[g.white].games;
        ++rows[g.black].games;
        points[g.white] += white_points;
        points[g.black] += 1.0 - white_points;
        if (white_points == 0.5) ++draws[g.white], ++draws[g.black];
    }
    std::vector<double> rating(engine_count, 0.0), variance(engine_count, not_a_number);

    // Peel off engines that won (lost) every game against the engines still in: their maximum-
    // likelihood rating is +infinity (-infinity). Repeat, since that can expose further ones.
    std::vector<bool> in(engine_count);
    for (int e = 0; e < engine_count; ++e) in[e] = rows[e].games > 0;
    for (bool peeled = true; peeled;) {
        peeled = false;
        std::vector<double> scored(engine_count, 0.0);
        std::vector<int> played(engine_count, 0);
        for (const FitGame& g : valid) {
            if (!in[g.white] || !in[g.black]) continue;
            ++played[g.white], ++played[g.black];
            scored[g.white] += g.white_points;
            scored[g.black] += 1.0 - g.white_points;
        }
        for (int e = 0; e < engine_count; ++e) {
            if (!in[e] || played[e] == 0) continue;
            if (scored[e] == played[e] || scored[e] == 0.0) {
                rating[e] = scored[e] == 0.0 ? -infinity : infinity;
                in[e] = false;
                peeled = true;
            }
        }
    }

    // The rest: engines with games among themselves are fitted together; one whose games were all
    // against peeled engines stays at 0 with no error bound.
    std::vector<int> members;
    std::vector<FitGame> among;
    std::vector<bool> has_game(engine_count, false);
    for (const FitGame& g : valid)
        if (in[g.white] && in[g.black]) {
            among.push_back(g);
            has_game[g.white] = has_game[g.black] = true;
        }
    for (int e = 0; e < engine_count; ++e)
        if (in[e] && has_game[e]) members.push_back(e);
    if (!members.empty()) {
        // Separate groups (no games between them, or one group only ever beaten by another) have
        // no finite maximum: tie them with one virtual draw per pair of engines.
        if (!strongly_connected(members, among, engine_count))
            for (std::size_t i = 0; i < members.size(); ++i)
                for (std::size_t j = i + 1; j < members.size(); ++j)
                    among.push_back({members[i], members[j], 0.5, 1.0});
        fit_ratings(members, among, engine_count, rating, variance);
    }

    const double elo_per_unit = 400.0 / std::log(10.0);
    for (int e = 0; e < engine_count; ++e) {
        RankRow& row = rows[e];
        row.engine = e;
        row.elo = rating[e] * elo_per_unit;
        row.error_95 = std::isfinite(rating[e]) && std::isfinite(variance[e])
                           ? z_95 * std::sqrt(variance[e]) * elo_per_unit
                           : not_a_number;
        row.score = row.games > 0 ? points[e] / row.games : not_a_number;
        row.draw_ratio = row.games > 0 ? double(draws[e]) / row.games : not_a_number;
    }
    std::stable_sort(rows.begin(), rows.end(), [](const RankRow& a, const RankRow& b) { return a.elo > b.elo; });
    return rows;
}

std::vector<std::string> ranking_table(const std::vector<RankRow>& rows, const std::vector<std::string>& names) {
    // Whole Elo as cutechess prints them, without a "-0" for a rating that rounds to zero.
    // fmt aligns inf and nan to the left in a width: format first, then right-align the text.
    const auto whole = [](double value) {
        const double rounded = std::round(value);
        return fmt::format("{:.0f}", rounded == 0.0 ? 0.0 : rounded);
    };
    const auto percent = [](double fraction) { return fmt::format("{:.1f}%", 100.0 * fraction); };
    std::vector<std::string> lines{"Rank Name                          Elo     +/-   Games   Score    Draw"};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const RankRow& row = rows[i];
        const std::string name = row.engine >= 0 && static_cast<std::size_t>(row.engine) < names.size()
                                     ? names[row.engine]
                                     : std::to_string(row.engine + 1);
        lines.push_back(fmt::format("{:4} {:<25} {:>7} {:>7} {:7} {:>7} {:>7}", i + 1, name, whole(row.elo),
                                    whole(row.error_95), row.games, percent(row.score), percent(row.draw_ratio)));
    }
    return lines;
}

}  // namespace bge::arbiter
