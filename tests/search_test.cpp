// Search sanity: wins in one are always taken, threats are met, limits are honoured, and
// fixed-depth searches are deterministic.

#include <catch2/catch.hpp>

#include <atomic>

#include "core/tak/tak.hpp"
#include "engines/tak/evaluation.hpp"
#include "search/alphabeta.hpp"
#include "search/limits.hpp"
#include "search/random_player.hpp"
#include "tak_test_helpers.hpp"

using namespace bge;
using namespace bge::tak;
using namespace bge::tak::testing;

namespace {

using TakAlphaBeta = search::AlphaBeta<Tak, TakEvaluator>;

search::SearchResult<Tak> run(TakAlphaBeta& engine, const State& root, search::Limits limits) {
    static std::atomic<bool> never{false};
    search::SearchRequest<Tak> request;
    request.root = root;
    request.history = {root.hash};
    request.limits = limits;
    search::SearchControl<Tak> control;
    control.stop = &never;
    return engine.search(request, control);
}

bool wins_at_once(const State& root, Move move) {
    State s = root;
    play(s, move);
    return outcome(s).is_win_for(root.side_to_move());
}

// After `move`, can the opponent win with one move?
bool allows_win_in_one(const State& root, Move move) {
    State s = root;
    play(s, move);
    MoveList<Tak> replies;
    generate_moves(s, replies);
    for (Move reply : replies) {
        State t = s;
        play(t, reply);
        if (outcome(t).is_win_for(s.side_to_move())) return true;
    }
    return false;
}

// Positions where the side to move must stop the opponent's road in one.
constexpr const char* must_block[] = {"x5/x5/2,2,2,2,x/x5/1,1,x3 1 6", "x5/x5/1,1,1,1,x/x5/2,2,x3 2 6",
                                      "x,2,x4/x,2,x4/x,2,x4/x,2,x4/x,2,1,1,x2/x6 1 7"};

// The engine's move at `depth` leaves the opponent no road in one.
void check_blocks(TakAlphaBeta& engine, const char* position, int depth) {
    const State root = tps(position);
    INFO(position);
    search::Limits limits;
    limits.depth = depth;
    const auto result = run(engine, root, limits);
    REQUIRE(result.has_move);
    CHECK_FALSE(allows_win_in_one(root, result.best));
}

}  // namespace

TEST_CASE("alpha-beta always takes a road in one, whatever the limits", "[search]") {
    auto engine = std::make_unique<TakAlphaBeta>();
    const char* positions[] = {
        "x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 6",          // place e3
        "x5/x5/2,2,2,2,x/x5/1,1,1,x2 2 6",          // Black: place e3
        "x6/x6/x,1,1,1,1,1/x6/2,2,2,2,x2/x6 1 8",   // place a4
        "x4,1/x4,1/x4,21/x4,1/x5 1 7",              // place e1 under a mixed stack
        "x,1,x3/x2,1,x2/x,1,x3/x,1,x3/x,1,x3 1 9",  // place b4, or spread c4<
    };
    for (const char* position : positions) {
        const State root = tps(position);
        INFO(position);
        for (search::Limits limits : {search::Limits{}, search::Limits{}, search::Limits{}}) {
            limits.depth = 1;
            const auto result = run(*engine, root, limits);
            REQUIRE(result.has_move);
            CHECK(wins_at_once(root, result.best));
        }
        search::Limits one_node;
        one_node.nodes = 1;
        CHECK(wins_at_once(root, run(*engine, root, one_node).best));
        search::Limits no_time;
        no_time.time_left_ms[index_of(root.side_to_move())] = 1;
        CHECK(wins_at_once(root, run(*engine, root, no_time).best));
    }
}

TEST_CASE("alpha-beta blocks a road in one", "[search]") {
    auto engine = std::make_unique<TakAlphaBeta>();
    for (const char* position : must_block) check_blocks(*engine, position, 3);
}

TEST_CASE("alpha-beta finds a double threat that wins in three plies", "[search]") {
    // White c3 threatens both d3 (row 3: a3 b3 c3 _ e3) and c2 (file c: c5 c4 c3 _ c1). Black
    // can spoil only one of them, by a placement or by covering e3 or c1.
    auto engine = std::make_unique<TakAlphaBeta>();
    const State root = tps("2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 1 7");
    search::Limits limits;
    limits.depth = 4;
    const auto result = run(*engine, root, limits);
    REQUIRE(result.has_move);
    // A flat or the capstone on c3: both make the double threat.
    CHECK((format_move(result.best) == "c3" || format_move(result.best) == "Cc3"));
    CHECK(result.score == search::win_score - 3);
}

TEST_CASE("fixed-depth search is deterministic", "[search]") {
    const State root = tps("x2,2,x2,1/x3,1,x2/x,2,2C,1,1,x/x,2,x,1C,x2/x2,2,1,x2/x6 2 8");
    search::Limits limits;
    limits.depth = 4;
    auto a = std::make_unique<TakAlphaBeta>();
    auto b = std::make_unique<TakAlphaBeta>();
    const auto first = run(*a, root, limits);
    const auto second = run(*b, root, limits);
    CHECK(first.nodes == second.nodes);
    CHECK(first.best == second.best);
    CHECK(first.score == second.score);
}

TEST_CASE("node and time limits are honoured", "[search]") {
    auto engine = std::make_unique<TakAlphaBeta>();
    const State root = tps("x6/x6/x6/x6/x6/x6 1 1");
    search::Limits nodes;
    nodes.nodes = 5'000;
    const auto result = run(*engine, root, nodes);
    CHECK(result.has_move);
    CHECK(result.nodes <= 5'000 + 64);  // the root's win-in-one scan may add a few
}

TEST_CASE("the time plan never spends more than the clock holds", "[search]") {
    const auto start = search::Clock::now();
    for (std::int64_t left : {0, 1, 10, 50, 100, 1'000, 10'000, 60'000, 600'000}) {
        for (std::int64_t increment : {0, 10, 100, 1'000}) {
            search::Limits limits;
            limits.time_left_ms[0] = left;
            limits.increment_ms[0] = increment;
            const auto budget = search::plan_time(limits, Side::first, start);
            REQUIRE(budget.soft);
            REQUIRE(budget.hard);
            const auto hard = std::chrono::duration_cast<search::Milliseconds>(*budget.hard - start).count();
            const auto soft = std::chrono::duration_cast<search::Milliseconds>(*budget.soft - start).count();
            INFO("left " << left << " inc " << increment);
            CHECK(soft <= hard);
            CHECK(hard <= std::max<std::int64_t>(1, left - search::move_overhead_ms));
        }
    }
    search::Limits fixed;
    fixed.move_time_ms = 1000;
    const auto budget = search::plan_time(fixed, Side::first, start);
    CHECK(std::chrono::duration_cast<search::Milliseconds>(*budget.hard - start).count() <= 1000);
    // A fixed move time keeps a quarter up to 40 ms, a tenth from 400 ms, at most 100 ms.
    auto fixed_spend = [&](std::int64_t move_time, std::int64_t reserve = 0) {
        search::Limits limits;
        limits.move_time_ms = move_time;
        limits.reserve_ms = reserve;
        return std::chrono::duration_cast<search::Milliseconds>(*search::plan_time(limits, Side::first, start).hard -
                                                                start)
            .count();
    };
    CHECK(fixed_spend(100) == 75);
    CHECK(fixed_spend(200) == 160);
    CHECK(fixed_spend(1000) == 900);
    CHECK(fixed_spend(5000) == 4900);
    // A reserve for a busy machine comes on top, up to half the move time.
    CHECK(fixed_spend(200, 30) == 130);
    CHECK(fixed_spend(200, 500) == 60);
    search::Limits clock;
    clock.time_left_ms[0] = 10'000;
    const auto relaxed = search::plan_time(clock, Side::first, start);
    clock.reserve_ms = 2'000;
    const auto reserved = search::plan_time(clock, Side::first, start);
    CHECK(*reserved.hard < *relaxed.hard);
}

TEST_CASE("the lateness tracker keeps a reserve that fades", "[search]") {
    search::LatenessTracker tracker;
    CHECK(tracker.reserve_ms() == 0);
    tracker.record(-5);  // early: nothing to keep
    CHECK(tracker.reserve_ms() == 0);
    tracker.record(40);
    CHECK(tracker.reserve_ms() == 60);
    tracker.record(10);  // a later, smaller lateness does not lower it at once
    CHECK(tracker.reserve_ms() == 57);
    for (int search = 0; search < 100; ++search) tracker.record(0);
    CHECK(tracker.reserve_ms() < 1);
}

TEST_CASE("the random player plays legal moves", "[search]") {
    search::RandomPlayer<Tak> player(3);
    std::atomic<bool> never{false};
    search::SearchControl<Tak> control;
    control.stop = &never;
    State s = start_state(Variant{5, 0, false});
    for (int ply = 0; ply < 200 && !outcome(s).is_over(); ++ply) {
        search::SearchRequest<Tak> request;
        request.root = s;
        const auto result = player.search(request, control);
        REQUIRE(result.has_move);
        REQUIRE(is_legal(s, result.best));
        play(s, result.best);
    }
}

TEST_CASE("the evaluation sees roads that one placement completes", "[search][eval]") {
    const State s = tps("x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 6");
    CHECK(TakEvaluator::road_in_one_squares(s, Side::first) == bit(square_at(4, 2)));
    CHECK(TakEvaluator::road_in_one_squares(s, Side::second) == 0);
    const TakEvaluator evaluator;
    CHECK(evaluator.evaluate(s) > 1000);
    // Symmetric positions score the same for either side to move, up to the tempo bonus.
    const State mirror = tps("x5/x5/2,2,2,2,x/x5/1,1,1,x2 2 6");
    CHECK(evaluator.evaluate(mirror) == evaluator.evaluate(s));
}

TEST_CASE("null-move pruning keeps the tactics and saves nodes", "[search]") {
    // Summed over quiet middlegames: one position alone can go either way.
    std::uint64_t nodes_without = 0, nodes_with = 0;
    for (const char* quiet : {"x2,2,x2,1/x3,1,x2/x,2,2C,1,1,x/x,2,x,1C,x2/x2,2,1,x2/x6 2 8",
                              "x6/x,1,x,2,x2/x,2,1C,21,x2/x2,1,2C,1,x/x,2,x,1,x2/x6 1 9",
                              "2,x5/x,1,1,x3/x,2,21C,x,1,x/x2,12C,2,x2/x,1,x2,2,x/x6 1 10"}) {
        const State root = tps(quiet);
        search::Limits limits;
        limits.depth = 6;
        auto plain = std::make_unique<TakAlphaBeta>();
        auto pruned = std::make_unique<TakAlphaBeta>();
        pruned->settings().null_move = true;
        nodes_without += run(*plain, root, limits).nodes;
        nodes_with += run(*pruned, root, limits).nodes;
    }
    CHECK(nodes_with < nodes_without);
    auto pruned = std::make_unique<TakAlphaBeta>();
    pruned->settings().null_move = true;
    for (const char* position : {must_block[0], "2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 1 7"})
        check_blocks(*pruned, position, 4);
    // A null move and its undo leave the position as it was.
    const State root = tps("x2,2,x2,1/x3,1,x2/x,2,2C,1,1,x/x,2,x,1C,x2/x2,2,1,x2/x6 2 8");
    State s = root;
    const Undo record = play_null(s);
    CHECK(s.side_to_move() == Side::first);
    CHECK(s.hash == compute_hash(s));
    undo_null(s, record);
    CHECK(format_tps(s) == format_tps(root));
    CHECK(s.hash == root.hash);
}

TEST_CASE("aspiration windows, extensions, selective pruning and threat quiescence keep the tactics", "[search]") {
    struct Setting {
        const char* name;
        void (*apply)(search::AlphaBetaSettings&);
    };
    const Setting settings[] = {
        {"aspiration", [](search::AlphaBetaSettings& s) { s.aspiration_window = 20, s.aspiration_min_depth = 2; }},
        {"extension", [](search::AlphaBetaSettings& s) { s.threat_extension = true; }},
        {"static pruning", [](search::AlphaBetaSettings& s) { s.static_prune_depth = 3; }},
        {"quiescence", [](search::AlphaBetaSettings& s) { s.quiescence_answer_plies = 4; }},
        {"logarithmic reductions", [](search::AlphaBetaSettings& s) { s.lmr_divisor = 200; }},
        {"move count pruning", [](search::AlphaBetaSettings& s) { s.move_count_pruning = true; }},
        {"hint reductions", [](search::AlphaBetaSettings& s) { s.hint_reduction_step = 50; }},
        {"single reply extension", [](search::AlphaBetaSettings& s) { s.forced_reply_moves = 1; }},
        {"all", [](search::AlphaBetaSettings& s) {
             s.aspiration_window = 20, s.aspiration_min_depth = 2, s.threat_extension = true;
             s.quiescence_answer_plies = 4, s.lmr_divisor = 200, s.null_move = true;
             s.move_count_pruning = true, s.hint_reduction_step = 50, s.forced_reply_moves = 1;
         }},
    };
    for (const Setting& setting : settings) {
        INFO(setting.name);
        auto engine = std::make_unique<TakAlphaBeta>();
        setting.apply(engine->settings());
        for (const char* position : must_block) check_blocks(*engine, position, 4);
        const State double_threat = tps("2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 1 7");
        search::Limits limits;
        limits.depth = 5;
        const auto result = run(*engine, double_threat, limits);
        CHECK((format_move(result.best) == "c3" || format_move(result.best) == "Cc3"));
        CHECK(result.score == search::win_score - 3);
        // The defender sees the loss coming: every Black move loses within four plies.
        const State lost = tps("2,x,1,x2/x2,1,x2/1,1,1,x,1/x4,2/2,2,1,x2 2 7");
        const auto defence = run(*engine, lost, limits);
        CHECK(defence.score <= -(search::win_score - 4));
    }
}

TEST_CASE("a win on the spot is scored at every node, by a spread as well as a placement", "[search]") {
    // White to move wins only with a spread: b2+ puts a White flat on Black's b3, joining a3 b3
    // c3 d3 e3; no placement completes a road.
    const State root = tps("x5/x5/1,2,1,1,1/x,21,x3/2,x4 1 6");
    TakEvaluator evaluator;
    State s = root;
    const auto win = evaluator.winning_move(s);
    REQUIRE(win);
    State t = root;
    play(t, *win);
    CHECK(outcome(t).is_win_for(Side::first));
    CHECK_FALSE(win->is_placement());
    auto engine = std::make_unique<TakAlphaBeta>();
    search::Limits limits;
    limits.depth = 3;
    const auto result = run(*engine, root, limits);
    CHECK(result.score == search::win_score - 1);
    // Black, to move here, is threatened and must answer.
    State black = tps("x5/x5/1,2,1,1,1/x,21,x3/2,x4 2 6");
    CHECK(evaluator.threatened(black));
    CHECK_FALSE(evaluator.threatened(s));
}
