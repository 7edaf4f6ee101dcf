#include "engines/twixt/study_players.hpp"

#include <memory>
#include <optional>

#include "engines/twixt/evaluation.hpp"
#include "protocol/game_seeds.hpp"
#include "search/flat_monte_carlo.hpp"
#include "search/mcts.hpp"

namespace bge::twixt {

namespace {

using protocol::OptionRegistry;

KnightWeights knight_weights(const OptionRegistry& options) {
    KnightWeights weights;
    weights.one_step = static_cast<float>(options.integer("KnightWeight1"));
    weights.two_steps = static_cast<float>(options.integer("KnightWeight2"));
    return weights;
}

// Depth D as 1000·D iterations (playouts for flat-mc): `bench`, and the MCTS agents' `go depth D`.
constexpr std::uint64_t iterations_per_depth = 1000;

search::Limits iterations_for_depth(int depth) {
    search::Limits limits;
    limits.nodes = iterations_per_depth * static_cast<std::uint64_t>(depth);
    return limits;
}

class FlatMcPlayer : public search::Player<Twixt> {
public:
    explicit FlatMcPlayer(const OptionRegistry& options) : options_(options), seeds_(options), random_(seeds_.next()) {}
    std::string name() const override { return "flat-mc"; }
    void new_game() override { random_.reseed(seeds_.next()); }
    search::Limits bench_limits(int depth) const override { return iterations_for_depth(depth); }

    search::SearchResult<Twixt> search(const search::SearchRequest<Twixt>& request,
                                       const search::SearchControl<Twixt>& control) override {
        search::FlatMonteCarloSettings settings;
        settings.playouts_per_move = static_cast<std::uint64_t>(options_.integer("FlatMcPlayouts"));
        const KnightWeights unused;
        return search::flat_monte_carlo<Twixt>(
            request, control, settings,
            [&](State& state, Random& random) { return play_out(state, PlayoutKind::uniform, unused, random); },
            random_);
    }

private:
    const OptionRegistry& options_;
    protocol::GameSeeds seeds_;
    Random random_;
};

// The study's policy pi: selection priors and playouts.
struct KnightPolicy {
    KnightWeights weights;
    float value(const State& state, Random& random) const {
        return mean_playout_result(state, 1, PlayoutKind::knight, weights, random);
    }
    void priors(const State& state, const MoveList<Twixt>& moves, float* out) const {
        for (std::size_t i = 0; i < moves.size(); ++i)
            out[i] = moves[i].is_swap() ? 1.0f : knight_weight(state, moves[i].square, weights);
    }
};

// How many iterations a study or reference agent runs: `fixed` when set, otherwise as many as the
// time allows, or 1000 per depth without any time limit (iterations_for_depth).
std::optional<std::uint64_t> agent_iterations(const search::SearchRequest<Twixt>& request, std::uint64_t fixed) {
    if (request.limits.nodes) return std::nullopt;  // the search takes `go nodes` itself
    if (fixed > 0) return fixed;
    const bool timed =
        request.limits.move_time_ms || request.limits.infinite || request.limits.has_clock(request.root.side_to_move());
    if (timed) return std::nullopt;
    return *iterations_for_depth(request.limits.depth.value_or(1)).nodes;
}

class MctsKnightPlayer : public search::Player<Twixt> {
public:
    explicit MctsKnightPlayer(const OptionRegistry& options)
        : options_(options), seeds_(options), tree_(KnightPolicy{}, settings(), seeds_.next()) {}
    std::string name() const override { return "mcts-knight"; }
    void new_game() override { tree_ = Tree(KnightPolicy{}, settings(), seeds_.next()); }
    search::Limits bench_limits(int depth) const override { return iterations_for_depth(depth); }

    search::SearchResult<Twixt> search(const search::SearchRequest<Twixt>& request,
                                       const search::SearchControl<Twixt>& control) override {
        tree_.settings() = settings();
        tree_.policy().weights = knight_weights(options_);
        const auto iterations =
            agent_iterations(request, static_cast<std::uint64_t>(options_.integer("KnightIterations")));
        auto result = tree_.search(request, control, iterations);
        // Selection never looks at results, so visits follow pi, not merit: the move played is
        // the child with the best mean result among those visited at least a quarter as often as
        // the average child (a proven win is always taken).
        const auto children = tree_.root_children();
        std::uint64_t visits = 0;
        for (const auto& child : children) visits += child.visits;
        const double floor = children.empty() ? 0.0 : static_cast<double>(visits) / children.size() / 4.0;
        const search::Mcts<Twixt, KnightPolicy>::RootChild* best = nullptr;
        for (const auto& child : children) {
            if (child.visits == 0 || static_cast<double>(child.visits) < floor) continue;
            if (!best || child.value > best->value) best = &child;
        }
        if (best && result.has_move) {
            result.best = best->move;
            result.score = Tree::value_to_cp(best->value, 300.0f);
        }
        return result;
    }

private:
    using Tree = search::Mcts<Twixt, KnightPolicy>;
    search::MctsSettings settings() const {
        search::MctsSettings s;
        s.puct = false;
        s.sampled_selection = true;
        s.solver = false;  // the study's search knows nothing of proven results
        s.decisive_checks = false;
        s.reuse_tree = false;
        s.memory_mib = static_cast<std::size_t>(options_.integer("MctsMemory"));
        return s;
    }
    const OptionRegistry& options_;
    protocol::GameSeeds seeds_;
    Tree tree_;
};

// OpenSpiel's MCTSBot with its RandomRolloutEvaluator, as OpenSpiel's examples run it: UCT with
// c = UctC, every child tried once before any twice (in random order: OpenSpiel shuffles them),
// leaves valued by UctRollouts uniform random playouts, proven results backed up, the most
// visited child played. A new tree every move, as OpenSpiel's bot builds.
struct UniformRolloutPolicy {
    int rollouts = 1;
    mutable Random order{1};  // random priors: the order of the first visits
    float value(const State& state, Random& random) const {
        return mean_playout_result(state, rollouts, PlayoutKind::uniform, KnightWeights{}, random);
    }
    void priors(const State&, const MoveList<Twixt>& moves, float* out) const {
        for (std::size_t i = 0; i < moves.size(); ++i) out[i] = 1.0f + static_cast<float>(order.unit());
    }
};

class UctPlayer : public search::Player<Twixt> {
public:
    explicit UctPlayer(const OptionRegistry& options)
        : options_(options), seeds_(options), tree_(UniformRolloutPolicy{}, settings(), seeds_.next()) {}
    std::string name() const override { return "uct"; }
    void new_game() override {
        const std::uint64_t seed = seeds_.next();
        tree_ = Tree(UniformRolloutPolicy{}, settings(), seed);
        tree_.policy().order.reseed(seed ^ 0x9e3779b97f4a7c15ULL);
    }
    search::Limits bench_limits(int depth) const override { return iterations_for_depth(depth); }

    search::SearchResult<Twixt> search(const search::SearchRequest<Twixt>& request,
                                       const search::SearchControl<Twixt>& control) override {
        tree_.settings() = settings();
        tree_.policy().rollouts = static_cast<int>(options_.integer("UctRollouts"));
        const auto simulations =
            agent_iterations(request, static_cast<std::uint64_t>(options_.integer("UctSimulations")));
        return tree_.search(request, control, simulations);
    }

private:
    using Tree = search::Mcts<Twixt, UniformRolloutPolicy>;
    search::MctsSettings settings() const {
        search::MctsSettings s;
        s.puct = false;
        s.uct_priors = true;
        s.exploration = static_cast<float>(options_.integer("UctC")) / 100.0f;
        s.solver = true;
        s.decisive_checks = false;  // OpenSpiel finds wins in one by visiting the children
        s.reuse_tree = false;
        s.memory_mib = static_cast<std::size_t>(options_.integer("MctsMemory"));
        return s;
    }
    const OptionRegistry& options_;
    protocol::GameSeeds seeds_;
    Tree tree_;
};

}  // namespace

void add_study_player_options(protocol::OptionRegistry& options) {
    options.add_spin("FlatMcPlayouts", 0, 0, 1'000'000,
                     "flat-mc: playouts per legal move (0: as many as the time allows; 100 without a time limit)");
    options.add_spin("KnightIterations", 0, 0, 1'000'000'000,
                     "mcts-knight: iterations per move (0: as many as the time allows; 1000 without a time limit)");
    options.add_spin("KnightWeight1", 20, 1, 1000,
                     "mcts-knight: policy weight of a hole a knight's move from own pegs");
    options.add_spin("KnightWeight2", 5, 1, 1000, "mcts-knight: policy weight of a hole two knight's moves away");
    options.add_spin("UctSimulations", 0, 0, 1'000'000'000,
                     "uct: simulations per move (0: as many as the time allows; 1000 without a time limit)");
    options.add_spin("UctC", 200, 1, 10000,
                     "uct: the UCT exploration constant, in hundredths (OpenSpiel's examples: 2)");
    options.add_spin("UctRollouts", 1, 1, 1000, "uct: random playouts per leaf (OpenSpiel's n_rollouts)");
}

std::vector<protocol::PlayerEntry<Twixt>> study_players() {
    std::vector<protocol::PlayerEntry<Twixt>> players;
    players.push_back({"flat-mc", "for each legal move FlatMcPlayouts uniform random playouts; the most wins is played",
                       [](const OptionRegistry& options) { return std::make_unique<FlatMcPlayer>(options); }});
    players.push_back({"mcts-knight",
                       "the study's MCTS: selection samples pi(a)/(n+1), pi favours knight's moves from own pegs; "
                       "playouts follow pi",
                       [](const OptionRegistry& options) { return std::make_unique<MctsKnightPlayer>(options); }});
    players.push_back({"uct",
                       "OpenSpiel's MCTS bot: UCT (UctC), unvisited children first in random order, UctRollouts "
                       "random playouts per leaf, solver, most visited child",
                       [](const OptionRegistry& options) { return std::make_unique<UctPlayer>(options); }});
    return players;
}

}  // namespace bge::twixt
