// The regret counter on a 2-piece Finkel table, against values the test computes on its own
// (tests/ur_brute_force.hpp: every reachable position, plain expectimax iterated to convergence).

#include <catch2/catch.hpp>

#include "core/random.hpp"
#include "core/ur/ur.hpp"
#include "engines/ur/regret.hpp"
#include "engines/ur/solver.hpp"
#include "ur_brute_force.hpp"
#include "ur_test_helpers.hpp"

using namespace bge;
using namespace bge::ur;

namespace {

SolverTable two_piece_table() {
    SolveSettings settings;
    settings.pieces = 2;
    settings.tolerance = 1e-7;
    SolveReport report;
    return solve(settings, report);
}

// The mover's winning chance after `move`, from the brute-force values.
double brute_move_value(const testing::BruteForce& brute, const State& decision, Move move) {
    State next = decision;
    play(next, move);
    const double p = brute.win_probability(next);
    return next.to_move == decision.to_move ? p : 1 - p;
}

}  // namespace

TEST_CASE("ur regret: one decision with a known answer", "[ur][regret]") {
    const SolverTable table = two_piece_table();
    const testing::BruteForce brute = testing::brute_force({Ruleset::finkel, 2});
    // Light rolled a 2 with a piece on B1 and one waiting; Dark has B3 and one waiting. Capturing
    // (B1B3) wins 59.5% (the perfect player's score, cp 190); entering (onA3) is worse.
    const State decision = testing::ur_position("....__../L.D...../....__.. 1,0 1,0 l 2", Ruleset::finkel, 2);
    const Move capture = *parse_move(decision, "B1B3");
    const Move enter = *parse_move(decision, "onA3");
    const double best = brute_move_value(brute, decision, capture);
    const double worse = brute_move_value(brute, decision, enter);
    CHECK(best == Approx(0.595).margin(0.0006));
    REQUIRE(best - worse > 0.01);

    RegretCounter counter;
    CHECK(counter.record(table, decision, enter) == Approx(best - worse).margin(1e-5));
    CHECK(counter.total().decisions == 1);
    CHECK(counter.total().choices == 1);
    CHECK(counter.total().best == 0);
    CHECK(counter.record(table, decision, capture) == 0.0);
    CHECK(counter.total().best == 1);
    CHECK(counter.total().best_share() == 0.5);
    CHECK(counter.total().per_decision() == Approx((best - worse) / 2).margin(1e-5));
    // Both decisions fall in the same phase: B1 (5) and B3 (7) are 12 of 2 x 2 x 15 steps run.
    CHECK(RegretCounter::phase_of(decision) == 1);
    CHECK(counter.phase(1).decisions == 2);
    // A forced move is a decision but not a choice, and costs nothing.
    const State forced = testing::ur_position("....__../L.D...../....__.. 1,0 1,0 l 0", Ruleset::finkel, 2);
    CHECK(counter.record(table, forced, Move::make_pass()) == 0.0);
    CHECK(counter.total().decisions == 3);
    CHECK(counter.total().choices == 2);
}

TEST_CASE("ur regret: phases of the race", "[ur][regret]") {
    CHECK(RegretCounter::phase_of(start_state({Ruleset::finkel, 2})) == 0);
    // Light: one borne off (15) and one on A7 (index 13: 14); Dark: one borne off (15), one
    // waiting. 44 of 60 steps: the fourth fifth.
    const State late = testing::ur_position("....__L./......../....__.. 0,1 1,1 l -", Ruleset::finkel, 2);
    CHECK(RegretCounter::phase_of(late) == 3);
    CHECK(RegretCounter::phase_name(3) == "60-80%");
}

TEST_CASE("ur regret: whole games against brute-force values", "[ur][regret]") {
    const SolverTable table = two_piece_table();
    const testing::BruteForce brute = testing::brute_force({Ruleset::finkel, 2});
    // Two players: always the first legal move, and perfect play by the brute-force values.
    for (const bool perfect : {false, true}) {
        INFO((perfect ? "perfect" : "first legal move"));
        RegretCounter counter, halves[2];
        double expected = 0;
        long decisions = 0, choices = 0, best_moves = 0;
        for (int game = 0; game < 60; ++game) {
            Random dice(1000 + game);
            State state = start_state({Ruleset::finkel, 2});
            while (!outcome(state).is_over()) {
                play(state, Move::make_roll(static_cast<int>(dice.below(5))));
                FixedVector<Move, max_legal_moves> moves;
                generate_moves(state, moves);
                double top = -1;
                for (const Move& move : moves) top = std::max(top, brute_move_value(brute, state, move));
                Move chosen = moves[0];
                if (perfect)
                    for (const Move& move : moves)
                        if (brute_move_value(brute, state, move) >= top) {
                            chosen = move;
                            break;
                        }
                const double regret = top - brute_move_value(brute, state, chosen);
                expected += regret;
                ++decisions;
                if (moves.size() > 1) {
                    ++choices;
                    best_moves += regret <= 1e-6 ? 1 : 0;
                }
                CHECK(counter.record(table, state, chosen) == Approx(regret).margin(1e-5));
                halves[game % 2].record(table, state, chosen);
                play(state, chosen);
            }
            counter.count_game();
            halves[game % 2].count_game();
        }
        CHECK(counter.games() == 60);
        CHECK(counter.total().decisions == decisions);
        CHECK(counter.total().choices == choices);
        CHECK(counter.total().best == best_moves);
        CHECK(counter.total().regret == Approx(expected).margin(1e-4));
        if (perfect) {
            CHECK(counter.total().regret < 1e-4);
            CHECK(counter.total().best_share() == 1.0);
        } else {
            CHECK(counter.total().per_decision() > 0.001);  // the first move is often a poor one
            CHECK(counter.total().best_share() < 0.9);
        }
        long by_phase = 0;
        double regret_by_phase = 0;
        for (int p = 0; p < RegretCounter::phase_count; ++p) {
            by_phase += counter.phase(p).decisions;
            regret_by_phase += counter.phase(p).regret;
        }
        CHECK(by_phase == decisions);
        CHECK(regret_by_phase == Approx(counter.total().regret));
        halves[0].merge(halves[1]);
        CHECK(halves[0].total().decisions == decisions);
        CHECK(halves[0].games() == 60);
        CHECK(halves[0].total().regret == Approx(counter.total().regret));
        CHECK_THAT(counter.report(), Catch::Contains("mean-regret-per-move") && Catch::Contains("60-80%"));
    }
}
