// The solver against an independent computation: every position reachable from the start of a
// 1- and 2-piece game, in each ruleset, found by playing the core rules (both colours, no flipping, no
// packed index), then solved by plain expectimax iterated to convergence. Also the table file's
// checks, and the search's Star1/Star2 pruning against expectimax without pruning.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "core/random.hpp"
#include "core/ur/ur.hpp"
#include "engines/ur/evaluation.hpp"
#include "engines/ur/solver.hpp"
#include "search/expectimax.hpp"
#include "ur_brute_force.hpp"

using namespace bge;
using namespace bge::ur;


TEST_CASE("ur solver: 1 and 2 pieces match brute-force expectimax", "[ur][solver]") {
    const Ruleset ruleset = GENERATE(Ruleset::finkel, Ruleset::masters, Ruleset::blitz);
    for (int pieces = 1; pieces <= 2; ++pieces) {
        INFO(ruleset_name(ruleset) << ", " << pieces << " pieces");
        SolveSettings settings;
        settings.ruleset = ruleset;
        settings.pieces = pieces;
        settings.tolerance = 1e-7;
        SolveReport report;
        const SolverTable table = solve(settings, report);
        const testing::BruteForce brute = testing::brute_force({ruleset, pieces});
        // Every position with Light to move is stored once, and Dark's are its mirror images.
        // Masters' dice never show 0, so some stored positions cannot arise (Dark to roll with
        // no piece entered and none borne off, for one).
        if (ruleset == Ruleset::masters)
            CHECK(brute.states.size() < 2 * table.size());
        else
            CHECK(brute.states.size() == 2 * table.size());
        double worst = 0;
        for (std::size_t i = 0; i < brute.states.size(); ++i)
            worst = std::max(worst, std::abs(brute.value[i] - table.win_probability(brute.states[i])));
        CHECK(worst < 1e-5);
        CHECK(report.light_win_probability == Approx(brute.value[0]).margin(1e-6));
        CHECK(report.light_win_probability > 0.5);  // moving first is an advantage
    }
}

TEST_CASE("ur solver: the table file round-trips and bad files are refused", "[ur][solver]") {
    const auto dir = std::filesystem::temp_directory_path() / "bge_ur_solver_test";
    std::filesystem::create_directories(dir);
    SolveSettings settings;
    settings.ruleset = Ruleset::blitz;
    settings.pieces = 2;
    SolveReport report;
    const SolverTable table = solve(settings, report);
    const std::string path = (dir / "two.table").string();
    REQUIRE(table.save(path));
    auto loaded = SolverTable::load(path);
    REQUIRE(loaded);
    CHECK(loaded->values() == table.values());
    CHECK(loaded->pieces() == 2);
    CHECK(loaded->ruleset() == Ruleset::blitz);

    const std::string cut = (dir / "cut.table").string();
    std::filesystem::copy_file(path, cut, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::resize_file(cut, std::filesystem::file_size(path) - 8);
    auto truncated = SolverTable::load(cut);
    REQUIRE_FALSE(truncated);
    CHECK_THAT(truncated.error(), Catch::Contains("truncated"));

    const std::string junk = (dir / "junk.table").string();
    std::ofstream(junk) << "not a table at all, just some text";
    auto bad = SolverTable::load(junk);
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error(), Catch::Contains("bad header"));
    auto missing = SolverTable::load((dir / "missing.table").string());
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error(), Catch::Contains("cannot open"));
    std::filesystem::remove_all(dir);
}

namespace {

// Expectimax with no pruning at all, for comparison.
double plain_expectimax(State& state, int depth) {
    if (const Outcome o = outcome(state); o.is_over()) return o.winner == state.to_move ? 1.0 : -1.0;
    if (is_chance_node(state)) {
        if (depth <= 0) return hand_evaluation(state);
        double total = 0;
        for (const Roll& roll : roll_outcomes(state.ruleset)) {
            State next = state;
            play(next, Move::make_roll(roll.number));
            const double v = plain_expectimax(next, depth);
            total += roll.probability * (next.to_move == state.to_move ? v : -v);
        }
        return total;
    }
    if (depth <= 0) return hand_evaluation(state);
    FixedVector<Move, max_legal_moves> moves;
    generate_moves(state, moves);
    double best = -2;
    for (const Move& move : moves) {
        State next = state;
        play(next, move);
        const double v = plain_expectimax(next, depth - 1);
        best = std::max(best, next.to_move == state.to_move ? v : -v);
    }
    return best;
}

}  // namespace

TEST_CASE("ur search: Star1/Star2 pruning gives expectimax's values", "[ur][search]") {
    Random random(99);
    search::Expectimax<Ur, HandEvaluator> search;
    int compared = 0;
    for (int game = 0; game < 6; ++game) {
        State state = start_state({});
        for (int ply = 0; ply < 120 && !outcome(state).is_over(); ++ply) {
            if (is_chance_node(state)) {
                play(state, Move::make_roll(static_cast<int>(random.below(5))));
                continue;
            }
            if (ply % 10 == 3) {
                for (int depth = 1; depth <= 3; ++depth) {
                    const auto found = search.search(state, depth);
                    State copy = state;
                    INFO(format_position(state) << " depth " << depth);
                    CHECK(found.value == Approx(plain_expectimax(copy, depth)).margin(1e-9));
                    ++compared;
                }
            }
            FixedVector<Move, max_legal_moves> moves;
            generate_moves(state, moves);
            play(state, moves[random.below(static_cast<std::uint32_t>(moves.size()))]);
        }
    }
    CHECK(compared > 20);
}
