#include "engines/gomoku/study_players.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "engines/gomoku/playout.hpp"
#include "protocol/game_seeds.hpp"
#include "search/knowledge_graph_mcts.hpp"

namespace bge::gomoku {

struct StudyMcts::Workers {
    explicit Workers(int helpers) : pool(helpers) {}
    search::RolloutWorkers pool;
};

StudyMcts::StudyMcts(std::uint64_t seed) { reseed(seed); }
StudyMcts::~StudyMcts() = default;

void StudyMcts::reseed(std::uint64_t seed) {
    seed_ = seed;
    randoms_.clear();
    clear();
}

void StudyMcts::clear() {
    nodes_.clear();
    root_ = 0;
}

int StudyMcts::potential(const State& state, int square) {
    const std::uint8_t stone = stone_of(state.side_to_move());
    int best = 0;
    for (const int step : line_steps) best = std::max(best, line_length(state, square, step, stone));
    return best;
}

void StudyMcts::expand(std::uint32_t index, const State& state, const StudySettings& settings) {
    MoveList<Gomoku> moves;
    generate_moves(state, moves);
    const std::uint8_t stone = stone_of(state.side_to_move());
    const auto first = static_cast<std::uint32_t>(nodes_.size());
    // A move that wins at once decides the node: only that child is kept.
    for (const Move& move : moves)
        if (wins_at(state, move.square, stone)) {
            Node child;
            child.move = move;
            child.potential = static_cast<std::uint8_t>(state.k);
            child.solved = 1;
            nodes_.push_back(child);
            Node& node = nodes_[index];
            node.first_child = first;
            node.child_count = 1;
            node.expanded = true;
            node.solved = -1;
            return;
        }
    for (const Move& move : moves) {
        Node child;
        child.move = move;
        if (settings.kind != StudyKind::vanilla)
            child.potential = static_cast<std::uint8_t>(std::min(255, potential(state, move.square)));
        nodes_.push_back(child);
    }
    Node& node = nodes_[index];
    node.first_child = first;
    node.child_count = static_cast<std::uint16_t>(moves.size());
    node.expanded = true;
}

std::uint32_t StudyMcts::select(std::uint32_t index, const StudySettings& settings) const {
    const Node& node = nodes_[index];
    const double log_visits = std::log(static_cast<double>(node.visits) + 1.0);
    double best_score = -std::numeric_limits<double>::infinity();
    std::uint32_t best = node.first_child;
    bool any_open = false;
    for (std::uint32_t i = node.first_child; i < node.first_child + node.child_count; ++i) {
        const Node& child = nodes_[i];
        if (child.solved == 1) return i;  // wins for the mover
        if (child.solved == -1) continue;
        any_open = true;
        const double visits = static_cast<double>(child.visits);
        const double q = child.visits ? child.value_sum / visits : 0.0;
        double score = q + settings.exploration * std::sqrt(2.0 * log_visits / (visits + 1.0));
        if (settings.kind == StudyKind::prior) score += settings.prior_weight * child.potential / (visits + 1.0);
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    (void)any_open;
    return best;
}

double StudyMcts::rollout_value(const State& state, const Node& leaf, const StudySettings& settings) {
    const int runs = std::max(1, settings.rollouts_per_leaf);
    while (static_cast<int>(randoms_.size()) < runs) {
        std::uint64_t mix = seed_ ^ (0xA24BAED4963EE407ULL * (randoms_.size() + 1));
        randoms_.emplace_back(splitmix64(mix));
    }
    const int into = index_of(opponent(state.side_to_move()));  // the player who moved into the leaf
    std::vector<double> rewards(static_cast<std::size_t>(runs));
    auto one = [&](int slot) {
        const PlayoutResult result = random_playout(state, randoms_[static_cast<std::size_t>(slot)]);
        double reward = result.winner < 0 ? 0.0 : result.winner == into ? 1.0 : -1.0;
        if (settings.gamma < 1.0) reward *= std::pow(settings.gamma, result.plies);
        rewards[static_cast<std::size_t>(slot)] = reward;
    };
    const int threads = std::clamp(settings.workers, 1, runs);
    if (threads > 1) {
        if (!workers_ || worker_count_ != threads) {
            workers_ = std::make_unique<Workers>(threads - 1);
            worker_count_ = threads;
        }
        workers_->pool.run(runs, one);
    } else {
        for (int slot = 0; slot < runs; ++slot) one(slot);
    }
    rollouts_ += static_cast<std::uint64_t>(runs);
    double sum = 0;
    for (const double reward : rewards) sum += reward;
    double value = sum / runs;
    if (settings.kind == StudyKind::shaping) value += settings.shaping_alpha * leaf.potential;
    return value;
}

void StudyMcts::update_solved(std::uint32_t index) {
    Node& node = nodes_[index];
    if (node.solved != 0 || !node.expanded || node.child_count == 0) return;
    bool all_lost = true;
    for (std::uint32_t i = node.first_child; i < node.first_child + node.child_count; ++i) {
        if (nodes_[i].solved == 1) {
            node.solved = -1;
            node.first_child = i;  // the siblings are dropped
            node.child_count = 1;
            return;
        }
        all_lost = all_lost && nodes_[i].solved == -1;
    }
    if (all_lost) node.solved = 1;
}

void StudyMcts::iterate(const StudySettings& settings) {
    State state = root_state_;
    std::vector<std::uint32_t> path{root_};
    std::uint32_t index = root_;
    int depth = 0;
    double value = 0;
    while (true) {
        if (nodes_[index].solved != 0) {
            value = nodes_[index].solved;
            break;
        }
        const Outcome over = outcome(state);
        if (over.is_over()) {
            if (over.kind == OutcomeKind::win) {
                const bool mover_won = over.winner != state.side_to_move();
                nodes_[index].solved = mover_won ? 1 : -1;
                value = nodes_[index].solved;
            }
            break;
        }
        if ((index != root_ && nodes_[index].visits == 0) || depth >= settings.max_depth) {
            value = rollout_value(state, nodes_[index], settings);
            break;
        }
        if (!nodes_[index].expanded) {
            if (nodes_.size() + count_moves(state) > settings.max_nodes) {
                value = rollout_value(state, nodes_[index], settings);
                break;
            }
            expand(index, state, settings);
            if (nodes_[index].solved != 0) {
                value = nodes_[index].solved;
                break;
            }
        }
        const std::uint32_t child = select(index, settings);
        play(state, nodes_[child].move);
        index = child;
        path.push_back(index);
        ++depth;
    }
    max_depth_seen_ = std::max(max_depth_seen_, depth);
    for (std::size_t i = path.size(); i-- > 0;) {
        Node& node = nodes_[path[i]];
        ++node.visits;
        node.value_sum += value;
        value = -value;
    }
    for (std::size_t i = path.size(); i-- > 0;) update_solved(path[i]);
}

std::uint32_t StudyMcts::best_root_child() const {
    const Node& root = nodes_[root_];
    std::uint32_t best = root.first_child;
    auto rank = [&](const Node& n) { return std::make_pair(n.solved == 1 ? 2 : n.solved == -1 ? 0 : 1, n.visits); };
    for (std::uint32_t i = root.first_child; i < root.first_child + root.child_count; ++i)
        if (rank(nodes_[i]) > rank(nodes_[best])) best = i;
    return best;
}

namespace {

int score_of(const double mean) {
    const double p = std::clamp((mean + 1.0) / 2.0, 0.01, 0.99);
    return static_cast<int>(std::lround(400.0 * std::log10(p / (1.0 - p))));
}

}  // namespace

void StudyMcts::report(const search::SearchControl<Gomoku>& control, const search::SearchRequest<Gomoku>& request,
                       std::uint64_t iterations) const {
    if (!control.report || nodes_[root_].child_count == 0) return;
    search::Report<Gomoku> line;
    line.depth = std::max(1, max_depth_seen_);
    line.seldepth = max_depth_seen_;
    line.nodes = iterations;
    line.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(search::Clock::now() - request.start).count();
    std::uint32_t index = root_;
    while (nodes_[index].child_count > 0 && line.pv.size() < 16) {
        const Node& node = nodes_[index];
        std::uint32_t best = node.first_child;
        for (std::uint32_t i = node.first_child; i < node.first_child + node.child_count; ++i)
            if (nodes_[i].visits > nodes_[best].visits) best = i;
        if (nodes_[best].visits == 0) break;
        if (line.pv.empty()) {
            const Node& child = nodes_[best];
            line.score = child.solved == 1    ? search::win_score - 1
                         : child.solved == -1 ? -(search::win_score - 1)
                                              : score_of(child.value_sum / child.visits);
        }
        line.pv.push_back(nodes_[best].move);
        index = best;
    }
    line.extra = fmt::format("rollouts {}", rollouts_);
    control.report(line);
}

search::SearchResult<Gomoku> StudyMcts::search(const search::SearchRequest<Gomoku>& request,
                                               const search::SearchControl<Gomoku>& control,
                                               const StudySettings& settings) {
    search::SearchResult<Gomoku> result;
    if (outcome(request.root).is_over()) return result;
    // Tree reuse: the new root is the old root or a node up to two plies below it.
    std::optional<std::uint32_t> reused;
    if (settings.reuse_tree && !nodes_.empty() && nodes_.size() < settings.max_nodes / 2) {
        if (request.root.hash == root_state_.hash) reused = root_;
        const Node& root = nodes_[root_];
        for (std::uint32_t i = root.first_child; !reused && i < root.first_child + root.child_count; ++i) {
            if (!nodes_[i].expanded) continue;
            State one = root_state_;
            play(one, nodes_[i].move);
            if (one.hash == request.root.hash) {
                reused = i;
                break;
            }
            for (std::uint32_t j = nodes_[i].first_child; j < nodes_[i].first_child + nodes_[i].child_count; ++j) {
                if (nodes_[j].visits == 0) continue;
                State two = one;
                play(two, nodes_[j].move);
                if (two.hash == request.root.hash) {
                    reused = j;
                    break;
                }
            }
        }
    }
    if (reused) {
        root_ = *reused;
    } else {
        nodes_.clear();
        nodes_.push_back(Node{});
        root_ = 0;
    }
    root_state_ = request.root;
    max_depth_seen_ = 0;

    const auto& limits = request.limits;
    const bool timed = limits.move_time_ms || limits.has_clock(request.root.side_to_move());
    std::uint64_t budget = settings.iterations;
    if (limits.nodes)
        budget = *limits.nodes;
    else if (limits.depth)
        budget = 1000 * static_cast<std::uint64_t>(*limits.depth);
    else if (timed || limits.infinite)
        budget = std::numeric_limits<std::uint64_t>::max();
    const search::TimeBudget time = search::plan_time(limits, request.root.side_to_move(), request.start);
    auto last_report = search::Clock::now();
    std::uint64_t iterations = 0;
    while (iterations < std::max<std::uint64_t>(budget, 1)) {
        if (iterations > 0) {
            if (control.stopped() || nodes_[root_].solved != 0) break;
            const auto now = search::Clock::now();
            if (time.soft && now >= *time.soft) break;
            if (control.report && now - last_report >= std::chrono::seconds(1)) {
                last_report = now;
                report(control, request, iterations);
            }
        }
        iterate(settings);
        ++iterations;
    }
    if (nodes_[root_].child_count == 0) return result;
    const std::uint32_t best = best_root_child();
    result.best = nodes_[best].move;
    result.has_move = true;
    result.nodes = iterations;
    const Node& chosen = nodes_[best];
    result.score = chosen.solved == 1    ? search::win_score - 1
                   : chosen.solved == -1 ? -(search::win_score - 1)
                   : chosen.visits       ? score_of(chosen.value_sum / chosen.visits)
                                         : 0;
    report(control, request, iterations);
    return result;
}

namespace {

using protocol::OptionRegistry;

class StudyPlayer : public search::Player<Gomoku> {
public:
    StudyPlayer(const OptionRegistry& options, StudyKind kind, std::string name)
        : options_(options), kind_(kind), name_(std::move(name)), seeds_(options), mcts_(seeds_.next()) {}
    std::string name() const override { return name_; }
    void new_game() override { mcts_.reseed(seeds_.next()); }
    search::Limits bench_limits(int depth) const override {
        search::Limits limits;
        limits.nodes = 100 * static_cast<std::uint64_t>(depth);
        return limits;
    }

    search::SearchResult<Gomoku> search(const search::SearchRequest<Gomoku>& request,
                                        const search::SearchControl<Gomoku>& control) override {
        StudySettings settings;
        settings.kind = kind_;
        settings.rollouts_per_leaf = static_cast<int>(options_.integer("RolloutsPerLeaf"));
        settings.workers = static_cast<int>(options_.integer("Workers"));
        settings.max_depth = static_cast<int>(options_.integer("MaxDepth"));
        settings.exploration = static_cast<double>(options_.integer("Exploration")) / 100.0;
        settings.gamma = static_cast<double>(options_.integer("Gamma")) / 1000.0;
        settings.shaping_alpha = static_cast<double>(options_.integer("ShapingAlpha")) / 1000.0;
        settings.prior_weight = static_cast<double>(options_.integer("PriorWeight")) / 100.0;
        settings.iterations = static_cast<std::uint64_t>(options_.integer("Iterations"));
        settings.reuse_tree = options_.boolean("ReuseTree");
        settings.max_nodes = static_cast<std::size_t>(options_.integer("MctsMemory")) * 1024 * 1024 / 32;
        return mcts_.search(request, control, settings);
    }

private:
    const OptionRegistry& options_;
    StudyKind kind_;
    std::string name_;
    protocol::GameSeeds seeds_;
    StudyMcts mcts_;
};

}  // namespace

void add_study_player_options(protocol::OptionRegistry& options) {
    options.add_spin("RolloutsPerLeaf", 4, 1, 256, "mcts-*: random rollouts from each new leaf (r)");
    options.add_spin("Workers", 1, 1, 64, "mcts-*: threads sharing a leaf's rollouts (w)");
    options.add_spin("MaxDepth", 10, 1, 500, "mcts-*: deepest ply selection descends to (d)");
    options.add_spin("Exploration", 100, 0, 10000, "mcts-*: UCT constant C, in hundredths");
    options.add_spin("Gamma", 1000, 0, 1000, "mcts-*: rollout reward discount per ply, in thousandths");
    options.add_spin("ShapingAlpha", 50, 0, 10000, "mcts-shaping: weight alpha of the chain potential, thousandths");
    options.add_spin("PriorWeight", 100, 0, 100000, "mcts-prior: weight z of the potential prior, in hundredths");
    options.add_spin("Iterations", 2000, 1, 1'000'000'000,
                     "mcts-*: iterations per move when go gives no time or node limit");
    options.add_spin("MctsMemory", 256, 16, 65536, "puct, mcts-*: tree memory in MiB; a full tree stops growing");
    options.add_check("ReuseTree", true, "mcts-*: keep the subtree of the new position between moves");
}

std::vector<protocol::PlayerEntry<Gomoku>> study_players() {
    auto entry = [](StudyKind kind, std::string name, std::string help) {
        return protocol::PlayerEntry<Gomoku>{name, std::move(help), [kind, name](const OptionRegistry& options) {
                                                 return std::make_unique<StudyPlayer>(options, kind, name);
                                             }};
    };
    return {entry(StudyKind::vanilla, "mcts-vanilla", "the study's UCT MCTS with uniformly random rollouts"),
            entry(StudyKind::shaping, "mcts-shaping", "mcts-vanilla plus a shaped reward alpha * chain potential"),
            entry(StudyKind::prior, "mcts-prior", "mcts-vanilla plus a selection prior z * potential / (visits + 1)")};
}

}  // namespace bge::gomoku
