// The generic parts of the Tak study's agents, on the toy counter game where every number can be
// worked out by hand: the NLMS/SARSA update, a SARSA self-play episode, and the knowledge graph's
// transpositions and back-propagation.

#include <catch2/catch.hpp>

#include <atomic>

#include "search/knowledge_graph_mcts.hpp"
#include "search/learning/sarsa.hpp"
#include "toy_counter_game.hpp"

using namespace bge;
using bge::testing::CounterFeatures;
using bge::testing::CounterGame;

namespace {

using CounterSarsa = search::learning::Sarsa<CounterGame, CounterFeatures>;
using CounterMcts = search::KnowledgeGraphMcts<CounterGame, search::UniformRollout<CounterGame>>;

std::uint64_t hash_of(int a, int b) { return CounterGame::hash(CounterGame::State{a, b, {}}); }

}  // namespace

TEST_CASE("NLMS: one update moves Q a fraction alpha of the way to the target", "[learning]") {
    search::learning::LinearFunction<3> q;
    q.weights = {0.5, -1.0, 2.0};
    const std::array<double, 3> phi = {1.0, 2.0, 0.0};
    CHECK(q.value(phi) == Approx(-1.5));
    // target 0.9, error 2.4, ||phi||^2 = 5: step 0.5 * 2.4 / 5 = 0.24 along phi.
    const double error = q.nlms_update(phi, 0.9, 0.5);
    CHECK(error == Approx(2.4));
    CHECK(q.weights[0] == Approx(0.74));
    CHECK(q.weights[1] == Approx(-0.52));
    CHECK(q.weights[2] == Approx(2.0));
    CHECK(q.value(phi) == Approx(-0.3));  // half way from -1.5 to 0.9
}

TEST_CASE("SARSA: the study's update rule, by hand", "[learning]") {
    search::learning::SarsaParameters parameters;
    parameters.alpha = 0.5;
    parameters.gamma = 0.9;
    CounterSarsa::Q q;
    q.weights = {0.1, 0.2};
    const CounterSarsa::Phi phi = {1.0, 1.0 / 3};
    // Non-terminal: target = r + gamma * Q(s', a') = 0 + 0.9 * 0.3.
    CounterSarsa::update(q, phi, 0.0, 0.3, parameters);
    CHECK(q.weights[0] == Approx(0.1465));
    CHECK(q.weights[1] == Approx(0.2155));
    // Terminal: the target is the reward alone.
    CounterSarsa::Q terminal;
    CounterSarsa::update(terminal, {1.0, 1.0}, 1.0, std::nullopt, parameters);  // error 1, ||phi||^2 2
    CHECK(terminal.weights[0] == Approx(0.25));
    CHECK(terminal.weights[1] == Approx(0.25));
    CHECK(search::learning::terminal_reward(Outcome::win(Side::first, "x"), Side::first) == 1.0);
    CHECK(search::learning::terminal_reward(Outcome::win(Side::first, "x"), Side::second) == -1.0);
    CHECK(search::learning::terminal_reward(Outcome::draw("x"), Side::second) == 0.0);
}

TEST_CASE("SARSA: a self-play episode updates each side's chain in the study's order", "[learning]") {
    // Only "a" is legal, target 3: White, Black, White play a; White wins 3-0.
    //   ply 1 White: phi1 = (1, 1/3).  ply 2 Black: phi2 = (1, -2/3).
    //   ply 3 White chooses phi3 = (1, 1); before playing it, White's (s1, a1) is updated towards
    //   0.9 * Q(phi3). The game ends: White's pending pair gets +1, then Black's gets -1.
    CounterGame::Variant variant;
    variant.target = 3;
    variant.only_a = true;
    search::learning::SarsaParameters parameters;
    parameters.epsilon = 0;
    parameters.alpha = 0.5;
    parameters.gamma = 0.9;
    CounterSarsa::Q q;
    q.weights = {0.1, 0.2};
    Random random(1);
    const auto episode = CounterSarsa::self_play(CounterGame::start_state(variant), q, parameters, random, 100);
    CHECK(episode.plies == 3);
    CHECK(episode.updates == 3);
    CHECK(episode.outcome.is_win_for(Side::first));
    // Worked out step by step (see the comment above): (0.1465, 0.2155), (0.306, 0.375), then
    CHECK(q.weights[0] == Approx(-0.0595384614).epsilon(1e-6));
    CHECK(q.weights[1] == Approx(0.6186923074).epsilon(1e-6));
}

TEST_CASE("SARSA: epsilon-greedy picks the highest Q, or anything with epsilon 1", "[learning]") {
    CounterGame::Variant variant;
    variant.target = 4;
    CounterGame::State state = CounterGame::start_state(variant);
    MoveList<CounterGame> moves;
    CounterGame::generate_moves(state, moves);
    CounterSarsa::Q q;
    q.weights = {0.0, 1.0};  // White likes a lead: "a"
    Random random(3);
    for (int i = 0; i < 20; ++i) CHECK(CounterSarsa::choose(state, moves, q, 0.0, random).move == CounterGame::Move{0});
    int b_moves = 0;
    for (int i = 0; i < 400; ++i) b_moves += CounterSarsa::choose(state, moves, q, 1.0, random).move.counter;
    CHECK(b_moves > 140);  // about 200 of 400; the bound is 6 standard deviations
    CHECK(b_moves < 260);
}

TEST_CASE("knowledge graph: transpositions share a node; back-propagation reaches each ancestor once", "[mcts-study]") {
    CounterMcts mcts;
    CounterGame::State state = CounterGame::start_state({});
    auto& root = mcts.node_for(CounterGame::hash(state));
    mcts.expand(root, state);
    REQUIRE(root.children.size() == 2);
    CounterGame::play(state, CounterGame::Move{0});
    mcts.expand(*mcts.find(hash_of(1, 0)), state);
    CounterGame::undo(state, CounterGame::Move{0}, CounterGame::Move{0});
    CounterGame::play(state, CounterGame::Move{1});
    mcts.expand(*mcts.find(hash_of(0, 1)), state);
    // (0,0) (1,0) (0,1) (2,0) (1,1) (0,2): six positions, (1,1) once.
    CHECK(mcts.size() == 6);
    auto* diamond = mcts.find(hash_of(1, 1));
    REQUIRE(diamond);
    CHECK(diamond->parents.size() == 2);

    search::RolloutTally tally;
    tally.wins[0] = 3;
    tally.draws = 1;
    // The diamond's bottom: itself, both middles and the root (reached twice, counted once).
    CHECK(mcts.backpropagate(*diamond, tally) == 4);
    for (auto hash : {hash_of(1, 1), hash_of(1, 0), hash_of(0, 1), hash_of(0, 0)}) {
        const auto* node = mcts.find(hash);
        CHECK(node->visits == 4);
        CHECK(node->points[0] == 7);  // 2 per win, 1 per draw
        CHECK(node->points[1] == 1);
    }
    CHECK(mcts.find(hash_of(2, 0))->visits == 0);
    CHECK(mcts.find(hash_of(0, 2))->visits == 0);
    // A leaf on one side only reaches its own ancestors.
    CHECK(mcts.backpropagate(*mcts.find(hash_of(2, 0)), tally) == 3);
    CHECK(mcts.find(hash_of(0, 1))->visits == 4);
    CHECK(mcts.find(hash_of(0, 0))->visits == 8);
}

TEST_CASE("knowledge graph MCTS: a whole search on the toy game", "[mcts-study]") {
    // Target 3: White wins by playing a whenever possible; Black cannot stop 2-1.
    CounterGame::Variant variant;
    variant.target = 3;
    search::SearchRequest<CounterGame> request;
    request.root = CounterGame::start_state(variant);
    request.history = {CounterGame::hash(request.root)};
    search::KnowledgeGraphSettings settings;
    settings.iterations = 300;
    settings.rollout_runs = 4;
    settings.threads = 2;
    std::atomic<bool> stop{false};
    search::SearchControl<CounterGame> control;
    control.stop = &stop;
    int reports = 0;
    search::Report<CounterGame> last;
    control.report = [&](const search::Report<CounterGame>& report) {
        ++reports;
        last = report;
    };
    CounterMcts mcts(7);
    const auto result = mcts.search(request, control, settings, search::UniformRollout<CounterGame>{});
    REQUIRE(result.has_move);
    CHECK(result.best == CounterGame::Move{0});
    CHECK(result.nodes == 300);
    REQUIRE(reports >= 1);
    CHECK(last.nodes == 300);
    CHECK(last.depth == 3);
    REQUIRE_FALSE(last.pv.empty());
    CHECK(last.pv[0] == CounterGame::Move{0});
    CHECK(last.score > 0);
    CHECK(mcts.size() == 10);               // every (a, b) with a + b <= 3, each once
    CHECK(mcts.root()->visits == 300 * 4);  // the root counts each iteration's playouts once

    // `go nodes` replaces the iteration count; the same seed gives the same search whatever the
    // number of threads.
    request.limits.nodes = 50;
    control.report = nullptr;
    CounterMcts one(11), two(11);
    settings.threads = 1;
    const auto a = one.search(request, control, settings, search::UniformRollout<CounterGame>{});
    settings.threads = 3;
    const auto b = two.search(request, control, settings, search::UniformRollout<CounterGame>{});
    CHECK(a.nodes == 50);
    CHECK(b.nodes == 50);
    CHECK(one.root()->visits == two.root()->visits);
    CHECK(one.root()->points[0] == two.root()->points[0]);
}
