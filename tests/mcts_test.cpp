// The generic MCTS: wins and threats in Tak, the solver, determinism, tree reuse, the memory
// bound, graph mode, root parallelism, and chance nodes on a toy dice game.

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <string>

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

TEST_CASE("MCTS player merges parallel trees", "[mcts]") {
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

TEST_CASE("perft expands chance nodes without using depth", "[mcts][chance]") {
    DiceRace::State s = DiceRace::start_state({});
    // Depth 1 from a due roll: 2 rolls x 2 choices.
    CHECK(perft<DiceRace>(s, 1) == 4);
    CHECK(perft<DiceRace>(s, 2) == 16);
}
