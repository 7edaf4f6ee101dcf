// The generic MCTS: wins and threats in Tak, the solver, determinism, tree reuse, the memory
// bound, graph mode, threads sharing one tree, and chance nodes on a toy dice game.

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "core/perft.hpp"
#include "engines/tak/mcts_player.hpp"
#include "engines/tak/network.hpp"
#include "engines/tak/policy.hpp"
#include "search/mcts.hpp"
#include "search/mcts_player.hpp"
#include "tak_test_helpers.hpp"
#include "toys/dice_race.hpp"

using namespace bge;
using namespace bge::tak;
using namespace bge::tak::testing;
using bge::testing::DiceRace;

namespace {

using TakTree = search::Mcts<Tak, TakMctsPolicy>;

template <Game G, class Policy>
search::SearchResult<G> search_iterations(search::Mcts<G, Policy>& tree, const typename G::State& root,
                                          std::uint64_t iterations) {
    static std::atomic<bool> never{false};
    search::SearchRequest<G> request;
    request.root = root;
    search::SearchControl<G> control;
    control.stop = &never;
    return tree.search(request, control, iterations);
}

bool wins_at_once(const State& root, Move move) {
    State s = root;
    play(s, move);
    return outcome(s).is_win_for(root.side_to_move());
}

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

}  // namespace

TEST_CASE("MCTS takes a road in one and proves it", "[mcts]") {
    for (const bool graph : {false, true}) {
        search::MctsSettings settings;
        settings.graph = graph;
        TakTree tree(TakMctsPolicy{}, settings);
        const State root = tps("x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 6");
        const auto result = search_iterations(tree, root, 2000);
        REQUIRE(result.has_move);
        CHECK(wins_at_once(root, result.best));
        CHECK(result.score == search::win_score - 1);
        CHECK(result.nodes < 2000);  // the solver stops the search once the root is proven
    }
}

TEST_CASE("MCTS blocks a road in one", "[mcts]") {
    for (const char* position : {"x5/x5/2,2,2,2,x/x5/1,1,x3 1 6", "x,2,x4/x,2,x4/x,2,x4/x,2,x4/x,2,1,1,x2/x6 1 7"}) {
        TakTree tree;
        const State root = tps(position);
        INFO(position);
        const auto result = search_iterations(tree, root, 3000);
        REQUIRE(result.has_move);
        CHECK_FALSE(allows_win_in_one(root, result.best));
    }
}

TEST_CASE("MCTS proves a double threat that wins in three plies", "[mcts]") {
    TakTree tree;
    const State root = tps("2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 1 7");
    const auto result = search_iterations(tree, root, 200'000);
    REQUIRE(result.has_move);
    CHECK(format_move(result.best) == "c3");
    CHECK(result.score == search::win_score - 1);
}

TEST_CASE("Tak MCTS: the learned policy gives the priors and the network the values", "[mcts]") {
    const State root = tps("x2,2,x2,1/x3,1,x2/x,2,2C,1,1,x/x,2,x,1C,x2/x2,2,1,x2/x6 2 8");
    MoveList<Tak> moves;
    generate_moves(root, moves);
    TakMctsPolicy hand;
    TakMctsPolicy learned;
    learned.move_policy = policy::Policy::builtin();
    learned.evaluator.use_networks(network::NetworkSet::builtin());
    std::vector<float> hand_priors(moves.size()), learned_priors(moves.size());
    hand.priors(root, moves, hand_priors.data());
    learned.priors(root, moves, learned_priors.data());
    // With no road threat either way, the priors are exp(logit - highest) of the policy's logits.
    const auto context = policy::context_of(root);
    float highest = -1e9f;
    for (const Move& move : moves) highest = std::max(highest, learned.move_policy->logit(root, context, move));
    for (std::size_t i = 0; i < moves.size(); ++i)
        CHECK(learned_priors[i] ==
              Approx(std::exp(learned.move_policy->logit(root, context, moves[i]) - highest)).epsilon(1e-4));
    CHECK(learned_priors != hand_priors);
    Random random(1);
    CHECK(learned.value(root, random) != hand.value(root, random));
}

TEST_CASE("MCTS with one tree and a seed is deterministic", "[mcts]") {
    const State root = tps("x2,2,x2,1/x3,1,x2/x,2,2C,1,1,x/x,2,x,1C,x2/x2,2,1,x2/x6 2 8");
    TakTree a, b;
    const auto first = search_iterations(a, root, 5000);
    const auto second = search_iterations(b, root, 5000);
    CHECK(first.best == second.best);
    CHECK(first.score == second.score);
    CHECK(a.node_count() == b.node_count());
    CHECK(a.principal_variation() == b.principal_variation());
}

TEST_CASE("MCTS searches only the requested root moves, and rebuilds the root afterwards", "[mcts]") {
    static std::atomic<bool> never{false};
    search::SearchControl<Tak> control;
    control.stop = &never;
    TakTree tree;
    const State root = tps("x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 6");
    MoveList<Tak> all;
    generate_moves(root, all);
    // Two moves that do not win: the road in one is left out, so it cannot be chosen.
    search::SearchRequest<Tak> request;
    request.root = root;
    for (const Move& move : all)
        if (!wins_at_once(root, move) && request.search_moves.size() < 2) request.search_moves.push_back(move);
    REQUIRE(request.search_moves.size() == 2);
    const auto restricted = tree.search(request, control, 500);
    REQUIRE(restricted.has_move);
    CHECK(std::find(request.search_moves.begin(), request.search_moves.end(), restricted.best) !=
          request.search_moves.end());
    CHECK(tree.root_children().size() == 2);
    // The next search of the same position sees every move again and finds the road.
    request.search_moves.clear();
    const auto free = tree.search(request, control, 2000);
    CHECK(tree.root_children().size() == all.size());
    CHECK(wins_at_once(root, free.best));
}

TEST_CASE("MCTS reuses its tree after a move pair", "[mcts]") {
    TakTree tree;
    State root = tps("x6/x6/x6/x6/x6/x6 1 1");
    const auto first = search_iterations(tree, root, 20'000);
    REQUIRE(first.has_move);
    const auto pv = tree.principal_variation();
    REQUIRE(pv.size() >= 2);
    play(root, pv[0]);
    play(root, pv[1]);
    const std::size_t nodes_before = tree.node_count();
    search_iterations(tree, root, 1);
    CHECK(tree.node_count() >= nodes_before);  // kept, not rebuilt
    tree.settings().reuse_tree = false;
    search_iterations(tree, root, 1);
    CHECK(tree.node_count() < 10);  // rebuilt from scratch
}

TEST_CASE("MCTS stops growing at its memory bound", "[mcts]") {
    search::MctsSettings settings;
    settings.memory_mib = 1;
    TakTree tree(TakMctsPolicy{}, settings);
    const State root = tps("x6/x6/x6/x6/x6/x6 1 1");
    const auto result = search_iterations(tree, root, 10'000'000);
    REQUIRE(result.has_move);
    CHECK(result.nodes < 10'000'000);
    CHECK(tree.memory_bytes() <= 1024 * 1024);
    CHECK(tree.permille_full() >= 900);  // it ended because the next expansion did not fit

    // The info lines say how full the tree is.
    TakTree roomy(TakMctsPolicy{}, search::MctsSettings{});
    static std::atomic<bool> never{false};
    search::SearchRequest<Tak> request;
    request.root = root;
    search::SearchControl<Tak> control;
    control.stop = &never;
    std::string extra;
    control.report = [&](const search::Report<Tak>& report) { extra = report.extra; };
    roomy.search(request, control, 200);
    CHECK(extra.find("hashfull 0") != std::string::npos);
}

TEST_CASE("MCTS in graph mode shares transpositions", "[mcts]") {
    search::MctsSettings graph;
    graph.graph = true;
    TakTree shared(TakMctsPolicy{}, graph);
    TakTree plain;
    const State root = tps("x3/x,2,x/1,x2 1 2");  // 3x3: placements transpose within a few plies
    search_iterations(shared, root, 20'000);
    search_iterations(plain, root, 20'000);
    CHECK(shared.node_count() < plain.node_count());  // transposed positions are one node
    const auto result = search_iterations(shared, root, 100);
    CHECK(result.has_move);
}

TEST_CASE("MCTS player reports while two threads search one tree", "[mcts][threads]") {
    search::MctsPlayer<Tak, TakMctsPolicy> player("mcts", [] { return TakMctsPolicy{}; }, {}, 2);
    std::atomic<bool> never{false};
    search::SearchRequest<Tak> request;
    request.root = tps("x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 6");
    request.limits.nodes = 4000;
    search::SearchControl<Tak> control;
    control.stop = &never;
    int reports = 0;
    control.report = [&](const search::Report<Tak>& report) {
        ++reports;
        CHECK_FALSE(report.pv.empty());
    };
    const auto result = player.search(request, control);
    REQUIRE(result.has_move);
    CHECK(wins_at_once(request.root, result.best));
    CHECK(reports >= 1);
}

namespace {

search::SearchResult<Tak> player_search(search::MctsPlayer<Tak, TakMctsPolicy>& player, const State& root,
                                        std::uint64_t nodes) {
    static std::atomic<bool> never{false};
    search::SearchRequest<Tak> request;
    request.root = root;
    request.limits.nodes = nodes;
    search::SearchControl<Tak> control;
    control.stop = &never;
    return player.search(request, control);
}

}  // namespace

TEST_CASE("MCTS threads share one tree and its node limit", "[mcts][threads]") {
    const State root = tps("x2,2,x2,1/x3,1,x2/x,2,2C,1,1,x/x,2,x,1C,x2/x2,2,1,x2/x6 2 8");
    for (const int threads : {2, 4}) {
        INFO(threads << " threads");
        search::MctsPlayer<Tak, TakMctsPolicy> player("mcts", [] { return TakMctsPolicy{}; }, {}, threads);
        CHECK(player.threads() == threads);
        const auto result = player_search(player, root, 3000);
        REQUIRE(result.has_move);
        CHECK(is_legal(root, result.best));
        // `nodes` counts the iterations of every thread together: none beyond the limit, and
        // at most one per thread short of it.
        CHECK(result.nodes <= 3000);
        CHECK(result.nodes + static_cast<std::uint64_t>(threads) >= 3000);
        CHECK(player.tree().iterations() == result.nodes);
        // One tree: every iteration but the first (which expanded the root) went on to a child.
        std::uint64_t visits = 0;
        for (const auto& child : player.tree().root_children()) visits += child.visits;
        CHECK(visits + 1 == result.nodes);
    }
}

TEST_CASE("MCTS with four threads stops promptly on the stop flag", "[mcts][threads]") {
    search::MctsSettings settings;
    settings.memory_mib = 512;
    search::MctsPlayer<Tak, TakMctsPolicy> player("mcts", [] { return TakMctsPolicy{}; }, settings, 4);
    std::atomic<bool> stop{false};
    search::SearchRequest<Tak> request;
    request.root = tps("x6/x6/x6/x6/x6/x6 1 1");
    request.limits.infinite = true;
    search::SearchControl<Tak> control;
    control.stop = &stop;
    search::SearchResult<Tak> result;
    std::atomic<bool> returned{false};
    search::Clock::time_point finished;
    std::thread searcher([&] {
        result = player.search(request, control);
        finished = search::Clock::now();
        returned.store(true);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const bool ran_until_stopped = !returned.load();  // infinite: only the stop flag ends it
    const auto stopped = search::Clock::now();
    stop.store(true);
    // Promptly means in iterations, not milliseconds (an iteration under a sanitizer can take
    // 100 ms): each thread finishes at most the iteration it is in, then sees the flag.
    const std::uint64_t iterations_at_stop = player.tree().iterations();
    searcher.join();
    CHECK(ran_until_stopped);
    const auto latency = std::chrono::duration_cast<std::chrono::microseconds>(finished - stopped);
    INFO("stopped after " << latency.count() << " us, " << iterations_at_stop << " iterations at the stop, "
                          << result.nodes << " in all");
    CHECK(result.nodes <= iterations_at_stop + 4);
    REQUIRE(result.has_move);
    CHECK(is_legal(request.root, result.best));
    CHECK(result.nodes > 0);
}

TEST_CASE("MCTS with one thread gives the same search every time", "[mcts][threads]") {
    const State root = tps("x2,2,x2,1/x3,1,x2/x,2,2C,1,1,x/x,2,x,1C,x2/x2,2,1,x2/x6 2 8");
    search::MctsPlayer<Tak, TakMctsPolicy> player("mcts", [] { return TakMctsPolicy{}; }, {}, 1);
    const auto first = player_search(player, root, 4000);
    const auto first_pv = player.tree().principal_variation();
    const std::size_t first_nodes = player.tree().node_count();
    player.new_game();
    const auto second = player_search(player, root, 4000);
    search::MctsPlayer<Tak, TakMctsPolicy> other("mcts", [] { return TakMctsPolicy{}; }, {}, 1);
    const auto third = player_search(other, root, 4000);
    REQUIRE(first.has_move);
    for (const auto* again : {&second, &third}) {
        CHECK(again->best == first.best);
        CHECK(again->score == first.score);
        CHECK(again->nodes == first.nodes);
    }
    CHECK(first.nodes == 4000);
    CHECK(player.tree().node_count() == first_nodes);
    CHECK(other.tree().node_count() == first_nodes);
    CHECK(player.tree().principal_variation() == first_pv);
    CHECK(other.tree().principal_variation() == first_pv);
    // Back to one thread after several: the same search again.
    search::MctsPlayer<Tak, TakMctsPolicy> switched("mcts", [] { return TakMctsPolicy{}; }, {}, 4);
    player_search(switched, root, 1000);
    switched.configure({}, 1, 1);
    switched.new_game();
    const auto fourth = player_search(switched, root, 4000);
    CHECK(fourth.best == first.best);
    CHECK(fourth.score == first.score);
    CHECK(switched.tree().node_count() == first_nodes);
}

TEST_CASE("MCTS with two threads proves a double threat that wins in three plies", "[mcts][threads]") {
    for (const bool graph : {false, true}) {
        INFO("graph " << graph);
        search::MctsSettings settings;
        settings.graph = graph;
        search::MctsPlayer<Tak, TakMctsPolicy> player("mcts", [] { return TakMctsPolicy{}; }, settings, 2);
        const State root = tps("2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 1 7");
        const auto result = player_search(player, root, 200'000);
        REQUIRE(result.has_move);
        // A flat or the capstone on c3 makes the same two road threats: both win in three
        // plies, and which one two threads prove first depends on their timing.
        const std::string best = format_move(result.best);
        CHECK((best == "c3" || best == "Cc3"));
        CHECK(result.score == search::win_score - 1);
        CHECK(result.nodes < 200'000);  // the proof ended the search
    }
}

TEST_CASE("MCTS threads: every selection mode, graph, memory bound and tree reuse", "[mcts][threads]") {
    const State root = tps("x6/x6/x6/x6/x6/x6 1 1");
    SECTION("selection modes and graph") {
        for (int mode = 0; mode < 5; ++mode) {
            INFO("mode " << mode);
            search::MctsSettings settings;
            settings.puct = mode != 1;
            settings.graph = mode == 2;
            settings.minimax_weight = mode == 3 ? 0.3f : 0.0f;
            settings.sampled_selection = mode == 4;
            search::MctsPlayer<Tak, TakMctsPolicy> player("mcts", [] { return TakMctsPolicy{}; }, settings, 4);
            const auto result = player_search(player, root, 3000);
            REQUIRE(result.has_move);
            CHECK(is_legal(root, result.best));
            CHECK(result.nodes <= 3000);
            CHECK(result.nodes + 4 >= 3000);
        }
    }
    SECTION("the memory bound holds for the shared tree") {
        search::MctsSettings settings;
        settings.memory_mib = 1;
        search::MctsPlayer<Tak, TakMctsPolicy> player("mcts", [] { return TakMctsPolicy{}; }, settings, 4);
        const auto result = player_search(player, root, 10'000'000);
        REQUIRE(result.has_move);
        CHECK(result.nodes < 10'000'000);
        CHECK(player.tree().memory_bytes() <= 1024 * 1024);
        CHECK(player.tree().permille_full() >= 900);
    }
    SECTION("the shared tree is reused after a move pair") {
        search::MctsPlayer<Tak, TakMctsPolicy> player("mcts", [] { return TakMctsPolicy{}; }, {}, 2);
        State position = root;
        REQUIRE(player_search(player, position, 20'000).has_move);
        const auto pv = player.tree().principal_variation();
        REQUIRE(pv.size() >= 2);
        play(position, pv[0]);
        play(position, pv[1]);
        const std::size_t nodes_before = player.tree().node_count();
        const auto result = player_search(player, position, 2000);
        REQUIRE(result.has_move);
        CHECK(is_legal(position, result.best));
        CHECK(player.tree().node_count() >= nodes_before);  // kept, not rebuilt
    }
}

namespace {
struct DicePolicy {
    float value(const DiceRace::State& s, Random&) const {
        // The runner ahead is more likely to win.
        const int me = index_of(s.to_move);
        return 0.1f * static_cast<float>(s.position[me] - s.position[1 - me]);
    }
};
}  // namespace

TEST_CASE("MCTS handles chance nodes", "[mcts][chance]") {
    search::Mcts<DiceRace, DicePolicy> tree;
    DiceRace::State s = DiceRace::start_state({});
    s.roll = 2;  // the mover has rolled: run or rest
    const auto result = search_iterations(tree, s, 5000);
    REQUIRE(result.has_move);
    CHECK(DiceRace::format_move(s, result.best) == "run");
    // Running wins more often than resting, by a clear margin.
    const auto children = tree.root_children();
    REQUIRE(children.size() == 2);
    const auto& run = children[0].move.kind == 1 ? children[0] : children[1];
    const auto& rest = children[0].move.kind == 1 ? children[1] : children[0];
    CHECK(run.value > rest.value);
}

TEST_CASE("MCTS threads search a game with chance nodes", "[mcts][chance][threads]") {
    search::Mcts<DiceRace, DicePolicy> tree;
    tree.set_threads(3);
    DiceRace::State s = DiceRace::start_state({});
    s.roll = 2;
    const auto result = search_iterations(tree, s, 5000);
    REQUIRE(result.has_move);
    CHECK(DiceRace::format_move(s, result.best) == "run");
    CHECK(result.nodes <= 5000);
}

TEST_CASE("perft expands chance nodes without using depth", "[mcts][chance]") {
    DiceRace::State s = DiceRace::start_state({});
    // Depth 1 from a due roll: 2 rolls x 2 choices.
    CHECK(perft<DiceRace>(s, 1) == 4);
    CHECK(perft<DiceRace>(s, 2) == 16);
}
