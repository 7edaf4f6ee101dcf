#pragma once
// The Tak study's Monte Carlo search, written once against the Game concept: a "knowledge graph"
// of positions searched with epsilon-greedy selection and parallel rollouts.
//
// - Positions are nodes keyed by their Zobrist hash, so transpositions share a node. A node
//   records its parents (reverse edges); children are created, and linked back, when a node is
//   expanded.
// - Selection, from the root down to at most max_depth plies: with probability epsilon a
//   uniformly random child; otherwise a child never visited (uniformly among them) if there is
//   one, else the child with the best win rate for the side to move (a draw counts half a win;
//   ties go to the first child in move-generation order).
// - The first node reached that was never visited (or a finished position, or one at max_depth)
//   is the leaf: it gets rollout_runs playouts under the rollout policy, spread over `threads`
//   threads. Playout slot i always uses generator i, so the results do not depend on the number
//   of threads.
// - Back-propagation: the leaf and every ancestor reachable through reverse edges gets the
//   playouts' results, each node once per iteration (a visited stamp), so a result found through
//   one move order also counts for the other move orders that reach the same position.
// - The move played is the root child with the most wins for the side to move (a draw counts
//   half); ties go to the child with more visits, then to the first in move-generation order.
//
// Repetition is not scored (the study's search ignores it). The graph lives for one search; a
// search also ends when the graph holds max_nodes positions.

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/game.hpp"
#include "core/random.hpp"
#include "search/limits.hpp"
#include "search/player.hpp"
#include "search/rollout_policy.hpp"

namespace bge::search {

struct KnowledgeGraphSettings {
    double epsilon = 0.1;               // probability of a uniformly random child in selection
    int max_depth = 10;                 // plies from the root that selection may descend
    std::uint64_t iterations = 1000;    // per move, unless `go` limits say otherwise
    int rollout_runs = 4;               // playouts per leaf
    int threads = 2;                    // threads sharing a leaf's playouts (the caller's included)
    int max_rollout_plies = 1000;       // a playout cut here counts as a draw
    std::size_t max_nodes = 2'000'000;  // a full graph (about 200 bytes a node) ends the search
};

// Runs task(slot) for slots 0..count-1 on the caller and `helpers` threads: thread t takes the
// slots t, t + threads, ... The threads live as long as the pool.
class RolloutWorkers {
public:
    explicit RolloutWorkers(int helpers) {
        for (int i = 0; i < helpers; ++i) threads_.emplace_back([this, i] { work(i + 1); });
    }
    ~RolloutWorkers() {
        {
            std::lock_guard lock(mutex_);
            quitting_ = true;
        }
        start_.notify_all();
        for (auto& thread : threads_) thread.join();
    }
    RolloutWorkers(const RolloutWorkers&) = delete;
    RolloutWorkers& operator=(const RolloutWorkers&) = delete;

    int thread_count() const { return static_cast<int>(threads_.size()) + 1; }

    void run(int count, const std::function<void(int)>& task) {
        {
            std::lock_guard lock(mutex_);
            task_ = &task;
            count_ = count;
            busy_ = static_cast<int>(threads_.size());
            ++generation_;
        }
        start_.notify_all();
        run_slots(0, count, task);
        std::unique_lock lock(mutex_);
        done_.wait(lock, [this] { return busy_ == 0; });
        task_ = nullptr;
    }

private:
    void run_slots(int thread, int count, const std::function<void(int)>& task) const {
        for (int slot = thread; slot < count; slot += thread_count()) task(slot);
    }

    void work(int thread) {
        std::uint64_t seen = 0;
        while (true) {
            const std::function<void(int)>* task = nullptr;
            int count = 0;
            {
                std::unique_lock lock(mutex_);
                start_.wait(lock, [&] { return quitting_ || generation_ != seen; });
                if (quitting_) return;
                seen = generation_;
                task = task_;
                count = count_;
            }
            run_slots(thread, count, *task);
            {
                std::lock_guard lock(mutex_);
                --busy_;
            }
            done_.notify_one();
        }
    }

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable start_, done_;
    const std::function<void(int)>* task_ = nullptr;
    int count_ = 0;
    int busy_ = 0;
    std::uint64_t generation_ = 0;
    bool quitting_ = false;
};

template <Game G, RolloutPolicy<G> P>
class KnowledgeGraphMcts {
public:
    using State = typename G::State;
    using Move = typename G::Move;

    struct Node;
    struct Edge {
        Move move;
        Node* child;
    };
    struct Node {
        std::uint64_t hash = 0;
        std::uint64_t visits = 0;          // playouts counted here
        std::uint64_t points[2] = {0, 0};  // by Side index, in half wins: 2 per win, 1 per draw
        std::vector<Node*> parents;        // reverse edges
        std::vector<Edge> children;
        bool expanded = false;
        Side to_move = Side::first;  // set when expanded
        bool evaluated = false;      // `outcome` is known
        Outcome outcome;
        std::uint64_t stamp = 0;  // the last back-propagation that reached this node

        double win_rate(Side side) const {
            return visits == 0 ? 0.0
                               : static_cast<double>(points[index_of(side)]) / (2.0 * static_cast<double>(visits));
        }
    };

    explicit KnowledgeGraphMcts(std::uint64_t seed = 1) { reseed(seed); }

    // Playouts and selection start again from `seed` (a new game).
    void reseed(std::uint64_t seed) {
        seed_ = seed;
        selection_random_.reseed(seed);
        rollout_randoms_.clear();
    }

    // ------------------------------------------------------------------------------------------
    // The graph (public so tests can build one by hand).

    void clear() {
        nodes_.clear();
        root_ = nullptr;
        stamp_ = 0;
    }
    std::size_t size() const { return nodes_.size(); }
    Node* find(std::uint64_t hash) {
        auto it = nodes_.find(hash);
        return it == nodes_.end() ? nullptr : &it->second;
    }
    Node& node_for(std::uint64_t hash) {
        auto [it, inserted] = nodes_.try_emplace(hash);
        if (inserted) it->second.hash = hash;
        return it->second;
    }

    // Creates (or finds) a node for every legal move of `state` (the position of `node`) and links
    // each back to `node`. `state` is played on and restored.
    void expand(Node& node, State& state) {
        MoveList<G> moves;
        G::generate_moves(state, moves);
        node.to_move = G::side_to_move(state);
        node.children.reserve(moves.size());
        for (const auto& move : moves) {
            const auto undo = G::play(state, move);
            Node& child = node_for(G::hash(state));
            G::undo(state, move, undo);
            if (std::find(child.parents.begin(), child.parents.end(), &node) == child.parents.end())
                child.parents.push_back(&node);
            node.children.push_back({move, &child});
        }
        node.expanded = true;
    }

    // Adds `tally` to `leaf` and to every node reachable from it through reverse edges, once
    // each. Returns how many nodes were updated.
    std::size_t backpropagate(Node& leaf, const RolloutTally& tally) {
        ++stamp_;
        std::vector<Node*> frontier{&leaf};
        leaf.stamp = stamp_;
        std::size_t updated = 0;
        while (!frontier.empty()) {
            Node* node = frontier.back();
            frontier.pop_back();
            node->visits += tally.total();
            node->points[0] += 2 * tally.wins[0] + tally.draws;
            node->points[1] += 2 * tally.wins[1] + tally.draws;
            ++updated;
            for (Node* parent : node->parents)
                if (parent->stamp != stamp_) {
                    parent->stamp = stamp_;
                    frontier.push_back(parent);
                }
        }
        return updated;
    }

    // ------------------------------------------------------------------------------------------
    // Search

    SearchResult<G> search(const SearchRequest<G>& request, const SearchControl<G>& control,
                           const KnowledgeGraphSettings& settings, const P& policy) {
        SearchResult<G> result;
        clear();
        const State& root_state = request.root;
        if (G::outcome(root_state).is_over()) return result;
        root_ = &node_for(G::hash(root_state));
        root_->evaluated = true;
        const Side us = G::side_to_move(root_state);

        const int runs = std::max(1, settings.rollout_runs);
        while (static_cast<int>(rollout_randoms_.size()) < runs) {
            std::uint64_t mix = seed_ ^ (0xA24BAED4963EE407ULL * (rollout_randoms_.size() + 1));
            rollout_randoms_.emplace_back(splitmix64(mix));
        }
        const int threads = std::clamp(settings.threads, 1, runs);
        std::unique_ptr<RolloutWorkers> workers;
        if (threads > 1) workers = std::make_unique<RolloutWorkers>(threads - 1);

        std::uint64_t budget = settings.iterations;
        if (request.limits.nodes)
            budget = *request.limits.nodes;
        else if (request.limits.infinite)
            budget = std::numeric_limits<std::uint64_t>::max();
        budget = std::max<std::uint64_t>(budget, 1);
        const TimeBudget time = plan_time(request.limits, us, request.start);

        std::uint64_t iterations = 0;
        int max_depth_reached = 0;
        auto last_report = Clock::now();
        std::vector<RolloutTally> tallies(static_cast<std::size_t>(runs));
        while (iterations < budget) {
            // Always one iteration, so there is a move to play.
            if (iterations > 0) {
                if (control.stopped()) break;
                const auto now = Clock::now();
                if (time.soft && now >= *time.soft) break;
                if (nodes_.size() >= settings.max_nodes) break;
                if (control.report && now - last_report >= std::chrono::seconds(1)) {
                    last_report = now;
                    report(control, request, iterations, max_depth_reached);
                }
            }
            State state = root_state;
            Node* node = root_;
            int depth = 0;
            while (true) {
                if (!node->evaluated) {
                    node->outcome = G::outcome(state);
                    node->evaluated = true;
                }
                if (node->outcome.is_over() || depth >= settings.max_depth) break;
                if (node != root_ && node->visits == 0) break;
                if (!node->expanded) expand(*node, state);
                if (node->children.empty()) break;
                const Edge& edge = select(*node, G::side_to_move(state), settings.epsilon);
                G::play(state, edge.move);
                node = edge.child;
                ++depth;
            }
            max_depth_reached = std::max(max_depth_reached, depth);

            RolloutTally tally;
            if (node->outcome.is_over()) {
                if (node->outcome.kind == OutcomeKind::win)
                    tally.wins[index_of(node->outcome.winner)] = static_cast<std::uint64_t>(runs);
                else
                    tally.draws = static_cast<std::uint64_t>(runs);
            } else {
                auto playout = [&](int slot) {
                    State copy = state;
                    tallies[static_cast<std::size_t>(slot)] = play_out<G>(
                        copy, policy, rollout_randoms_[static_cast<std::size_t>(slot)], settings.max_rollout_plies);
                };
                if (workers)
                    workers->run(runs, playout);
                else
                    for (int slot = 0; slot < runs; ++slot) playout(slot);
                for (const auto& one : tallies) tally += one;
            }
            backpropagate(*node, tally);
            ++iterations;
        }

        const Edge* best = best_child(*root_, us);
        if (best) {
            result.best = best->move;
            result.has_move = true;
            result.score = score_of(best->child->win_rate(us));
        }
        result.nodes = iterations;
        if (control.report) report(control, request, iterations, max_depth_reached);
        return result;
    }

    Node* root() { return root_; }

    // The child with the most wins for `mover` (ties: more visits, then the first).
    static const Edge* best_child(const Node& node, Side mover) {
        const Edge* best = nullptr;
        for (const auto& edge : node.children) {
            if (!best) {
                best = &edge;
                continue;
            }
            const auto points = edge.child->points[index_of(mover)];
            const auto best_points = best->child->points[index_of(mover)];
            if (points > best_points || (points == best_points && edge.child->visits > best->child->visits))
                best = &edge;
        }
        return best;
    }

    // Centipawn-like score of a win rate: 400 * log10(p / (1 - p)), p kept within [0.01, 0.99].
    static int score_of(double win_rate) {
        const double p = std::clamp(win_rate, 0.01, 0.99);
        return static_cast<int>(std::lround(400.0 * std::log10(p / (1.0 - p))));
    }

private:
    const Edge& select(const Node& node, Side mover, double epsilon) {
        const auto count = static_cast<std::uint32_t>(node.children.size());
        if (epsilon > 0 && selection_random_.unit() < epsilon) return node.children[selection_random_.below(count)];
        std::uint32_t unvisited = 0;
        for (const auto& edge : node.children)
            if (edge.child->visits == 0) ++unvisited;
        if (unvisited > 0) {
            std::uint32_t pick = selection_random_.below(unvisited);
            for (const auto& edge : node.children)
                if (edge.child->visits == 0 && pick-- == 0) return edge;
        }
        const Edge* best = &node.children[0];
        double best_rate = best->child->win_rate(mover);
        for (const auto& edge : node.children) {
            const double rate = edge.child->win_rate(mover);
            if (rate > best_rate) {
                best = &edge;
                best_rate = rate;
            }
        }
        return *best;
    }

    void report(const SearchControl<G>& control, const SearchRequest<G>& request, std::uint64_t iterations,
                int max_depth_reached) {
        Report<G> line;
        line.depth = max_depth_reached;
        line.seldepth = max_depth_reached;
        line.nodes = iterations;
        line.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - request.start).count();
        // The most-wins line, while it stays on visited nodes and does not come back on itself.
        std::unordered_set<std::uint64_t> seen{root_->hash};
        const Node* node = root_;
        while (node && node->expanded && line.pv.size() < 64) {
            const Side mover = node->to_move;
            const Edge* best = best_child(*node, mover);
            if (!best || best->child->visits == 0 || !seen.insert(best->child->hash).second) break;
            if (line.pv.empty()) line.score = score_of(best->child->win_rate(mover));
            line.pv.push_back(best->move);
            node = best->child;
        }
        control.report(line);
    }

    std::unordered_map<std::uint64_t, Node> nodes_;
    Node* root_ = nullptr;
    std::uint64_t stamp_ = 0;
    std::uint64_t seed_ = 1;
    Random selection_random_;
    std::vector<Random> rollout_randoms_;
};

}  // namespace bge::search
