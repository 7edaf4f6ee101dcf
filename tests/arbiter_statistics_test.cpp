// The arbiter's match statistics against worked numbers (formulas in docs/arbiter.md).

#include <catch2/catch.hpp>

#include <cmath>

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
