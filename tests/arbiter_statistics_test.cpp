// The arbiter's match statistics against worked numbers (formulas in docs/arbiter.md).

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tools/arbiter/statistics.hpp"

using namespace bge::arbiter;
using Catch::Detail::Approx;

TEST_CASE("arbiter statistics: 60 wins, 30 losses, 10 draws", "[arbiter][statistics]") {
    const Tally tally{60, 30, 10};
    CHECK(tally.games() == 100);
    CHECK(tally.score() == Approx(0.65));
    const EloEstimate e = estimate_elo(tally);
    // score 0.65; per-game variance 0.2025, standard error 0.045; interval 0.5618..0.7382.
    CHECK(e.elo == Approx(107.538).margin(0.001));
    CHECK(e.error_95 == Approx(68.458).margin(0.001));
    CHECK(e.los_percent == Approx(99.9217).margin(0.0001));
    CHECK(e.draw_percent == Approx(10.0));
    CHECK(elo_line(tally) == "Elo difference: 107.5 +/- 68.5, LOS: 99.9 %, DrawRatio: 10.0 %");
}

TEST_CASE("arbiter statistics: the mirror image flips the sign and the LOS", "[arbiter][statistics]") {
    const EloEstimate e = estimate_elo({30, 60, 10});
    CHECK(e.elo == Approx(-107.538).margin(0.001));
    CHECK(e.error_95 == Approx(68.458).margin(0.001));
    CHECK(e.los_percent == Approx(0.0783).margin(0.0001));
}

TEST_CASE("arbiter statistics: other worked numbers", "[arbiter][statistics]") {
    const EloEstimate even = estimate_elo({55, 45, 0});
    CHECK(even.elo == Approx(34.860).margin(0.001));
    CHECK(even.error_95 == Approx(69.374).margin(0.001));
    CHECK(even.los_percent == Approx(84.1345).margin(0.0001));

    const EloEstimate drawish = estimate_elo({10, 10, 80});
    CHECK(drawish.elo == 0.0);
    CHECK(drawish.error_95 == Approx(30.532).margin(0.001));
    CHECK(drawish.los_percent == Approx(50.0));
    CHECK(drawish.draw_percent == Approx(80.0));
}

TEST_CASE("arbiter statistics: a 100% score is infinite Elo with no error bound", "[arbiter][statistics]") {
    const EloEstimate e = estimate_elo({10, 0, 0});
    CHECK(std::isinf(e.elo));
    CHECK(e.elo > 0);
    CHECK(std::isnan(e.error_95));
    CHECK(e.los_percent == Approx(99.9217).margin(0.0001));
    CHECK(elo_line({10, 0, 0}) == "Elo difference: inf +/- nan, LOS: 99.9 %, DrawRatio: 0.0 %");
}

TEST_CASE("arbiter statistics: a 0% score is minus infinity", "[arbiter][statistics]") {
    const EloEstimate e = estimate_elo({0, 4, 0});
    CHECK(std::isinf(e.elo));
    CHECK(e.elo < 0);
    CHECK(std::isnan(e.error_95));
    CHECK(elo_line({0, 4, 0}) == "Elo difference: -inf +/- nan, LOS: 2.3 %, DrawRatio: 0.0 %");
}

TEST_CASE("arbiter statistics: all draws is zero Elo, no error, even odds", "[arbiter][statistics]") {
    const EloEstimate e = estimate_elo({0, 0, 10});
    CHECK(e.elo == 0.0);
    CHECK(e.error_95 == 0.0);
    CHECK(e.los_percent == 50.0);
    CHECK(e.draw_percent == 100.0);
    CHECK(elo_line({0, 0, 10}) == "Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %");
}

TEST_CASE("arbiter statistics: no games yet", "[arbiter][statistics]") {
    const Tally none{};
    CHECK(none.score() == 0.5);
    CHECK(elo_line(none) == "Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 0.0 %");
}

TEST_CASE("arbiter statistics: cutechess score line", "[arbiter][statistics]") {
    CHECK(score_line("A", "B", {3, 1, 0}) == "Score of A vs B: 3 - 1 - 0  [0.750] 4");
    CHECK(score_line("tak", "tak-2", {1, 1, 2}) == "Score of tak vs tak-2: 1 - 1 - 2  [0.500] 4");
}

// ---------------------------------------------------------------------------------------------
// Game pairs, normalized Elo, SPRT and ratings. The expected numbers come from a separate
// python3 script (math module only) that re-derives each formula: pair score mean/variance,
// fishtest's LLR_normalized (constrained MLE by its secular equation), and Bradley-Terry ratings
// by Hunter's MM algorithm with errors from a finite-difference Hessian (docs/arbiter.md).

namespace {

Pentanomial pentanomial_of(std::array<int, 5> counts) {
    Pentanomial p;
    p.counts = counts;
    return p;
}

// Games between two engines, colours alternating, `points` from `a`'s side game by game.
void play(std::vector<GameResult>& games, int a, int b, std::initializer_list<double> points) {
    int k = 0;
    for (double p : points) games.push_back(k++ % 2 == 0 ? GameResult{a, b, p} : GameResult{b, a, 1.0 - p});
}

void play(std::vector<GameResult>& games, int a, int b, int wins, int total) {
    for (int k = 0; k < total; ++k) {
        const double p = k < wins ? 1.0 : 0.0;
        games.push_back(k % 2 == 0 ? GameResult{a, b, p} : GameResult{b, a, 1.0 - p});
    }
}

const RankRow& row_of(const std::vector<RankRow>& rows, int engine) {
    for (const RankRow& row : rows)
        if (row.engine == engine) return row;
    FAIL("no row for engine " << engine);
    return rows.front();
}

}  // namespace

TEST_CASE("pentanomial: a pair's points pick the cell, WL and DD kept apart", "[arbiter][statistics]") {
    Pentanomial p;
    p.add_pair(0, 0);
    p.add_pair(0.5, 0);
    p.add_pair(0, 0.5);
    p.add_pair(1, 0);
    p.add_pair(0, 1);
    p.add_pair(0.5, 0.5);
    p.add_pair(1, 0.5);
    p.add_pair(1, 1);
    CHECK(p.counts == std::array<int, 5>{1, 2, 3, 1, 1});
    CHECK(p.wl == 2);
    CHECK(p.dd == 1);
    CHECK(p.pairs() == 8);
    CHECK(p.score() == Approx(15.0 / 32.0));  // 15 half-points of 32
    CHECK(pentanomial_line(p) == "Ptnml(0-2): [1, 2, 3, 1, 1]");
    CHECK(Pentanomial{}.score() == 0.5);
    CHECK(pentanomial_line(Pentanomial{}) == "Ptnml(0-2): [0, 0, 0, 0, 0]");
}

TEST_CASE("pentanomial Elo, nElo and LOS against worked numbers", "[arbiter][statistics]") {
    // [10, 100, 200, 150, 40]: 500 pairs, score 1110/2000 = 0.555, pair variance 0.053225,
    // se 0.010318; nElo = 0.055 / sqrt(2 * 0.053225) * 347.4356.
    const Pentanomial a = pentanomial_of({10, 100, 200, 150, 40});
    const EloInterval elo = elo_from_pentanomial(a);
    CHECK(elo.elo == Approx(38.3732).margin(1e-4));
    CHECK(elo.error_95 == Approx(14.2319).margin(1e-4));
    const EloInterval nelo = normalized_elo(a);
    CHECK(nelo.elo == Approx(58.5685).margin(1e-4));
    CHECK(nelo.error_95 == Approx(21.5339).margin(1e-4));
    CHECK(los_percent(a) == Approx(99.9999951).margin(1e-6));

    const Pentanomial b = pentanomial_of({5, 30, 60, 40, 15});  // score 0.55, variance 0.06
    CHECK(elo_from_pentanomial(b).elo == Approx(34.8601).margin(1e-4));
    CHECK(elo_from_pentanomial(b).error_95 == Approx(27.5731).margin(1e-4));
    CHECK(normalized_elo(b).elo == Approx(50.1480).margin(1e-4));
    CHECK(normalized_elo(b).error_95 == Approx(39.3153).margin(1e-4));
    CHECK(los_percent(b) == Approx(99.3790).margin(1e-4));

    const Pentanomial c = pentanomial_of({0, 20, 50, 25, 5});  // score 0.5375, variance 0.03921875
    CHECK(elo_from_pentanomial(c).elo == Approx(26.1067).margin(1e-4));
    CHECK(elo_from_pentanomial(c).error_95 == Approx(27.1800).margin(1e-4));
    CHECK(normalized_elo(c).elo == Approx(46.5204).margin(1e-4));
    CHECK(normalized_elo(c).error_95 == Approx(48.1512).margin(1e-4));

    // The mirror image flips the signs.
    const Pentanomial mirror = pentanomial_of({40, 150, 200, 100, 10});
    CHECK(elo_from_pentanomial(mirror).elo == Approx(-38.3732).margin(1e-4));
    CHECK(normalized_elo(mirror).elo == Approx(-58.5685).margin(1e-4));
}

TEST_CASE("trinomial nElo against worked numbers", "[arbiter][statistics]") {
    // 60 - 30 - 10: score 0.65, sigma 0.45, nElo = 0.15 / 0.45 * 347.4356; error 1.96 * 347.4356 / 10.
    const EloInterval nelo = normalized_elo(Tally{60, 30, 10});
    CHECK(nelo.elo == Approx(115.8119).margin(1e-4));
    CHECK(nelo.error_95 == Approx(68.0961).margin(1e-4));
    CHECK(normalized_elo(Tally{30, 60, 10}).elo == Approx(-115.8119).margin(1e-4));
}

TEST_CASE("pentanomial and nElo edge cases give no NaN Elo", "[arbiter][statistics]") {
    const EloInterval none = elo_from_pentanomial(Pentanomial{});
    CHECK(none.elo == 0.0);
    CHECK(none.error_95 == 0.0);
    CHECK(normalized_elo(Pentanomial{}).elo == 0.0);
    CHECK(normalized_elo(Tally{}).elo == 0.0);
    CHECK(los_percent(Pentanomial{}) == 50.0);

    const Pentanomial all_won = pentanomial_of({0, 0, 0, 0, 7});
    CHECK(std::isinf(elo_from_pentanomial(all_won).elo));
    CHECK(elo_from_pentanomial(all_won).elo > 0);
    CHECK(std::isnan(elo_from_pentanomial(all_won).error_95));
    CHECK(std::isinf(normalized_elo(all_won).elo));
    CHECK(los_percent(all_won) == 100.0);

    const Pentanomial all_level = pentanomial_of({0, 0, 9, 0, 0});  // zero variance at 50%
    CHECK(elo_from_pentanomial(all_level).elo == 0.0);
    CHECK(elo_from_pentanomial(all_level).error_95 == 0.0);
    CHECK(normalized_elo(all_level).elo == 0.0);
    CHECK(normalized_elo(all_level).error_95 == 0.0);
    CHECK(los_percent(all_level) == 50.0);

    // Every pair 1.5 of 2: zero variance at 75%: Elo 190.85 exactly, nElo unbounded.
    const Pentanomial steady = pentanomial_of({0, 0, 0, 5, 0});
    CHECK(elo_from_pentanomial(steady).elo == Approx(190.8485).margin(1e-4));
    CHECK(elo_from_pentanomial(steady).error_95 == 0.0);
    CHECK(std::isinf(normalized_elo(steady).elo));
    CHECK(std::isnan(normalized_elo(steady).error_95));
    CHECK(normalized_elo(Tally{0, 0, 10}).elo == 0.0);
    CHECK(std::isinf(normalized_elo(Tally{3, 0, 0}).elo));
}

TEST_CASE("SPRT on game pairs: LLR of fishtest's normalized model, and verdicts", "[arbiter][statistics]") {
    const SprtConfig config{0.0, 5.0, 0.05, 0.05};
    const SprtStatus a = sprt(pentanomial_of({10, 100, 200, 150, 40}), config);
    CHECK(a.llr == Approx(2.28535).margin(1e-4));
    CHECK(a.lower == Approx(-2.944439).margin(1e-6));
    CHECK(a.upper == Approx(2.944439).margin(1e-6));
    CHECK(a.verdict == SprtStatus::Verdict::continue_testing);
    CHECK(sprt_line(a, config) == "LLR: 2.29 (-2.94, 2.94) [0.00, 5.00]");

    const SprtStatus twice = sprt(pentanomial_of({20, 200, 400, 300, 80}), config);
    CHECK(twice.llr == Approx(4.57069).margin(1e-4));
    CHECK(twice.verdict == SprtStatus::Verdict::accept_h1);

    const SprtStatus b = sprt(pentanomial_of({5, 30, 60, 40, 15}), config);
    CHECK(b.llr == Approx(0.585613).margin(1e-4));
    const SprtStatus worse = sprt(pentanomial_of({40, 150, 200, 100, 10}), config);
    CHECK(worse.llr == Approx(-2.48746).margin(1e-4));
    CHECK(worse.verdict == SprtStatus::Verdict::continue_testing);

    // Large samples (fishtest's own examples), other bounds.
    const SprtConfig narrow{-3.0, 1.0, 0.05, 0.05};
    CHECK(sprt(pentanomial_of({1187, 7410, 13475, 7378, 1164}), narrow).llr == Approx(0.600266).margin(1e-4));
    const SprtStatus rejected = sprt(pentanomial_of({10789, 19328, 33806, 19402, 10543}), {0.0, 2.0, 0.05, 0.05});
    CHECK(rejected.llr == Approx(-6.07043).margin(1e-4));
    CHECK(rejected.verdict == SprtStatus::Verdict::accept_h0);
    CHECK(sprt_line(rejected, {0.0, 2.0, 0.05, 0.05}) == "LLR: -6.07 (-2.94, 2.94) [0.00, 2.00]");

    // Empty cells count 1e-3 (fishtest's regularization): a one-sided record still decides.
    const SprtStatus crushing = sprt(pentanomial_of({0, 0, 0, 0, 300}), config);
    CHECK(crushing.llr == Approx(6.04312).margin(1e-3));
    CHECK(crushing.verdict == SprtStatus::Verdict::accept_h1);
    const SprtStatus crushed = sprt(pentanomial_of({300, 0, 0, 0, 0}), config);
    CHECK(crushed.llr == Approx(-6.16736).margin(1e-3));
    CHECK(crushed.verdict == SprtStatus::Verdict::accept_h0);

    // Wide bounds far from 0 (nElo 150/250, 200/300): the constrained maximum likelihood has no
    // first step from the uniform distribution there, and the LLR used to read 0 whatever the
    // record. Values from an independent Python solution by continuation in t.
    CHECK(sprt(pentanomial_of({4, 0, 33, 0, 63}), {150.0, 250.0, 0.05, 0.05}).llr == Approx(4.0901).margin(1e-3));
    CHECK(sprt(pentanomial_of({4, 0, 33, 0, 63}), {200.0, 300.0, 0.05, 0.05}).llr == Approx(0.4584).margin(1e-3));
    CHECK(sprt(pentanomial_of({12, 0, 65, 1, 22}), {200.0, 300.0, 0.05, 0.05}).llr == Approx(-24.861).margin(1e-2));
    CHECK(sprt(pentanomial_of({0, 0, 23, 2, 154}), {200.0, 300.0, 0.05, 0.05}).llr == Approx(13.650).margin(1e-2));
    CHECK(sprt(pentanomial_of({0, 0, 23, 2, 154}), {200.0, 300.0, 0.05, 0.05}).verdict ==
          SprtStatus::Verdict::accept_h1);
}

TEST_CASE("SPRT on unpaired games, and degenerate inputs", "[arbiter][statistics]") {
    const SprtConfig config{0.0, 5.0, 0.05, 0.05};
    const SprtStatus t = sprt(Tally{300, 270, 430}, config);
    CHECK(t.llr == Approx(0.468319).margin(1e-4));
    CHECK(t.verdict == SprtStatus::Verdict::continue_testing);
    CHECK(sprt(Tally{10, 2, 0}, {0.0, 10.0, 0.05, 0.05}).llr == Approx(0.225267).margin(1e-4));

    for (const SprtStatus& empty : {sprt(Pentanomial{}, config), sprt(Tally{}, config)}) {
        CHECK(empty.llr == 0.0);
        CHECK(empty.verdict == SprtStatus::Verdict::continue_testing);
    }
    const SprtStatus level = sprt(pentanomial_of({0, 0, 10, 0, 0}), config);
    CHECK(std::isfinite(level.llr));
    CHECK(level.llr == Approx(-0.0027).margin(1e-3));
    CHECK(level.verdict == SprtStatus::Verdict::continue_testing);
    // Other error rates move the bounds: ln(0.1 / 0.95) and ln(0.9 / 0.05).
    const SprtStatus loose = sprt(Pentanomial{}, {0.0, 5.0, 0.05, 0.1});
    CHECK(loose.lower == Approx(std::log(0.1 / 0.95)));
    CHECK(loose.upper == Approx(std::log(0.9 / 0.05)));
}

TEST_CASE("fastchess result block", "[arbiter][statistics]") {
    Pentanomial p = pentanomial_of({10, 100, 200, 150, 40});
    p.wl = 120;
    p.dd = 80;
    const SprtConfig config{0.0, 5.0, 0.05, 0.05};
    const auto lines = result_block("A", "B", Tally{300, 270, 430}, p, sprt(p, config), config);
    CHECK(lines == std::vector<std::string>{
                       "Results of A vs B:",
                       "Elo: 38.37 +/- 14.23, nElo: 58.57 +/- 21.53",
                       "LOS: 100.00 %, DrawRatio: 40.00 %, PairsRatio: 1.73",
                       "Games: 1000, Wins: 300, Losses: 270, Draws: 430, Points: 515.0 (51.50 %)",
                       "Ptnml(0-2): [10, 100, 200, 150, 40], WL/DD Ratio: 1.50",
                       "LLR: 2.29 (-2.94, 2.94) [0.00, 5.00]",
                   });
    // Without pairs the numbers come from the games; no SPRT, no LLR line; ratios of nothing are nan.
    const auto unpaired = result_block("x", "y", Tally{60, 30, 10}, Pentanomial{}, std::nullopt, std::nullopt);
    CHECK(unpaired == std::vector<std::string>{
                          "Results of x vs y:",
                          "Elo: 107.54 +/- 68.46, nElo: 115.81 +/- 68.10",
                          "LOS: 99.96 %, DrawRatio: 10.00 %, PairsRatio: nan",
                          "Games: 100, Wins: 60, Losses: 30, Draws: 10, Points: 65.0 (65.00 %)",
                          "Ptnml(0-2): [0, 0, 0, 0, 0], WL/DD Ratio: nan",
                      });
}

TEST_CASE("ratings: a symmetric round robin rates everyone 0", "[arbiter][statistics]") {
    std::vector<GameResult> games;
    play(games, 0, 1, {1, 0, 0.5, 0.5});
    play(games, 1, 2, {1, 0, 0.5, 0.5});
    play(games, 0, 2, {1, 0, 0.5, 0.5});
    const auto rows = rank_engines(3, games);
    REQUIRE(rows.size() == 3);
    for (int e = 0; e < 3; ++e) {
        CHECK(rows[e].engine == e);  // ties keep engine order
        CHECK(rows[e].elo == Approx(0.0).margin(1e-9));
        CHECK(rows[e].error_95 == Approx(160.504).margin(1e-2));
        CHECK(rows[e].games == 8);
        CHECK(rows[e].score == Approx(0.5));
        CHECK(rows[e].draw_ratio == Approx(0.5));
    }
}

TEST_CASE("ratings: a transitive set", "[arbiter][statistics]") {
    // A beats B 75%, B beats C 75%, A beats C 90% (20 games each): the odds 3, 3 and 9 fit the
    // model exactly, so A = elo(0.75) = 190.85, B = 0, C = -190.85.
    std::vector<GameResult> games;
    play(games, 1, 2, 15, 20);  // B, C, A as engines 1, 2, 0
    play(games, 0, 1, 15, 20);
    play(games, 0, 2, 18, 20);
    const auto rows = rank_engines(3, games);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].engine == 0);
    CHECK(rows[1].engine == 1);
    CHECK(rows[2].engine == 2);
    CHECK(rows[0].elo == Approx(190.8485).margin(1e-3));
    CHECK(rows[1].elo == Approx(0.0).margin(1e-3));
    CHECK(rows[2].elo == Approx(-190.8485).margin(1e-3));
    CHECK(rows[0].error_95 == Approx(97.998).margin(1e-2));
    CHECK(rows[1].error_95 == Approx(82.884).margin(1e-2));
    CHECK(rows[2].error_95 == Approx(97.998).margin(1e-2));
    CHECK(rows[0].score == Approx(33.0 / 40));
    CHECK(rows[2].draw_ratio == 0.0);

    const std::vector<std::string> names{"alphabeta", "mcts", "random"};
    CHECK(ranking_table(rows, names) == std::vector<std::string>{
                                            "Rank Name                          Elo     +/-   Games   Score    Draw",
                                            "   1 alphabeta                     191      98      40   82.5%    0.0%",
                                            "   2 mcts                            0      83      40   50.0%    0.0%",
                                            "   3 random                       -191      98      40   17.5%    0.0%",
                                        });
}

TEST_CASE("ratings: a small mixed set against the MM reference", "[arbiter][statistics]") {
    std::vector<GameResult> games;
    play(games, 0, 1, 3, 4);
    play(games, 1, 2, 2, 4);
    play(games, 0, 2, 2, 4);
    const auto rows = rank_engines(3, games);
    CHECK(row_of(rows, 0).elo == Approx(59.5863).margin(1e-3));
    CHECK(row_of(rows, 1).elo == Approx(-59.5863).margin(1e-3));
    CHECK(row_of(rows, 2).elo == Approx(0.0).margin(1e-3));
    CHECK(row_of(rows, 0).error_95 == Approx(166.389).margin(1e-2));
    CHECK(row_of(rows, 2).error_95 == Approx(162.870).margin(1e-2));
    CHECK(rows[1].engine == 2);
}

TEST_CASE("ratings: perfect records are infinite, not a hang", "[arbiter][statistics]") {
    std::vector<GameResult> games;
    play(games, 0, 1, 4, 4);  // A wins everything
    play(games, 0, 2, 4, 4);
    play(games, 1, 2, {1, 0, 0.5, 0.5, 1, 0});
    const auto rows = rank_engines(4, games);  // engine 3 never played
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].engine == 0);
    CHECK(std::isinf(rows[0].elo));
    CHECK(rows[0].elo > 0);
    CHECK(std::isnan(rows[0].error_95));
    // B and C among themselves: 50% over 6 games, so 0 each, error 1.96 * sqrt(1/6) * 173.72.
    CHECK(row_of(rows, 1).elo == Approx(0.0).margin(1e-9));
    CHECK(row_of(rows, 1).error_95 == Approx(139.0006).margin(1e-3));
    CHECK(row_of(rows, 3).games == 0);
    CHECK(row_of(rows, 3).elo == 0.0);
    CHECK(std::isnan(row_of(rows, 3).score));
    const auto table = ranking_table(rows, {"A", "B", "C"});
    CHECK(table[1] == "   1 A                             inf     nan       8  100.0%    0.0%");
    CHECK(table[4] == "   4 4                               0     nan       0    nan%    nan%");

    // A chain of perfect results: A > B > C.
    std::vector<GameResult> chain;
    play(chain, 0, 1, 2, 2);
    play(chain, 1, 2, 2, 2);
    const auto ranked = rank_engines(3, chain);
    CHECK(ranked[0].engine == 0);
    CHECK(ranked[0].elo == std::numeric_limits<double>::infinity());
    CHECK(ranked[1].engine == 1);
    CHECK(ranked[1].elo == 0.0);
    CHECK(std::isnan(ranked[1].error_95));
    CHECK(ranked[2].elo == -std::numeric_limits<double>::infinity());
}

TEST_CASE("ratings: groups without a finite maximum still get finite ratings", "[arbiter][statistics]") {
    // Two groups that never met, and bad games that are ignored.
    std::vector<GameResult> games;
    play(games, 0, 1, {1, 0.5, 0});
    play(games, 2, 3, {1, 1, 0});
    games.push_back({0, 0, 1.0});
    games.push_back({0, 7, 1.0});
    const auto rows = rank_engines(4, games);
    double sum = 0.0;
    for (const RankRow& row : rows) {
        CHECK(std::isfinite(row.elo));
        CHECK(std::isfinite(row.error_95));
        CHECK(row.games == 3);
        sum += row.elo;
    }
    CHECK(sum == Approx(0.0).margin(1e-9));
    CHECK(rows[0].engine == 2);
    CHECK(rank_engines(0, games).empty());
}
