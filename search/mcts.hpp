#pragma once
// Monte Carlo tree search, written once for every game:
// - PUCT selection with priors and first-play urgency, or plain UCT;
// - a pluggable leaf evaluation: the game's policy gives a value for a position (a static value
//   function, rollouts, or both) and, optionally, prior probabilities for its moves;
// - proven wins, losses and draws propagated up the tree (MCTS-solver);
// - tree reuse between moves;
// - an optional transposition graph: nodes shared by hash, each node's value recomputed from its
//   children weighted by edge visits, as in Monte-Carlo graph search (Czech et al. 2021), instead
//   of summed per path;
// - chance nodes (dice): outcomes sampled by probability, never proven;
// - a memory bound: a tree that fills its budget stops growing and the search ends;
// - limits by iterations, time and clock; progress reported as Report structs;
// - several threads searching one tree (tree parallelism).
//
// Threads share one tree rather than growing one each: the tree then grows as deep as all their
// iterations together, the memory budget holds one tree, and nothing needs merging at the end.
// A thread's visit still in flight counts as a loss (virtual loss) until it is backed up, so
// the threads spread over different lines instead of queueing for one leaf. Statistics are
// relaxed atomics: a reader may see a visit before its value, which selection tolerates. One
// thread expands a node and publishes its edges with release/acquire; proofs only ever go from
// unknown to proven, so threads that prove a node at once agree. With one thread there is no
// virtual loss and no read-modify-write: the search is the single-threaded one, deterministic.
//
// Values are stored from the first player's point of view in [-1, 1] and turned to the mover's
// view during selection, so turns that do not alternate need nothing special.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <thread>
#include <tuple>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/game.hpp"
#include "core/random.hpp"
#include "search/limits.hpp"
#include "search/player.hpp"

namespace bge::search {
struct MctsSettings {
    bool puct = true;             // PUCT with the policy's priors; false: UCT with uniform priors
    float exploration = 1.4f;     // c in PUCT's c * P * sqrt(N) / (1 + n), or UCT's c * sqrt(ln N / n)
    float fpu_reduction = 0.3f;   // PUCT: an unvisited child starts at the parent's value minus this
    bool solver = true;           // propagate proven results
    bool reuse_tree = true;       // keep the subtree of the new position between moves
    bool graph = false;           // share nodes between transpositions
    std::size_t memory_mib = 256; // nodes and edges of one tree
    int max_path = 400;           // longest selection path; deeper leaves are evaluated statically
    // Maps a value in (-1, 1) to centipawns for info lines: cp = scale * atanh(value).
    float cp_scale = 300.0f;
    // Implicit minimax backups (Lanctot et al. 2014): each node also keeps the minimax of the
    // leaf evaluations below it, and selection uses (1 - w) * mean + w * minimax. Helps where the
    // evaluation is good and tactics are sharp; 0 turns it off.
    float minimax_weight = 0.0f;
    // At expansion, play every move once and create the children that end the game at once, so
    // the solver knows straight away about wins in one (and about moves that lose on the spot).
    // Costs a play/undo per legal move per expansion; makes the search tactically safe at 1 ply.
    bool decisive_checks = true;
    // Instead of PUCT/UCT, sample a child with probability proportional to prior / (visits + 1),
    // as the TwixT study's MCTS does (docs/twixt.md); the policy's priors are used.
    bool sampled_selection = false;
    // UCT: also ask the policy for priors, which then only order the first visits of unvisited
    // children (OpenSpiel shuffles them: a policy can give random priors for that).
    bool uct_priors = false;
};

// The game-specific part of MCTS.
//   float value(const State&, Random&)  the side to move's expected result in [-1, 1] (required)
//   void priors(const State&, const MoveList<G>&, float* out)  unnormalised move weights, >= 0
//                                                               (optional: uniform without it)
//   bool proves_win(State&)  whether the side to move has a forced win here (optional: a threat
//                            search such as Gomoku's VCF; it must leave the state as it found
//                            it). With the solver, such a node is a proven win at once.
// With several threads each thread gets its own copy of the policy, taken at each search.
template <class P, class G>
concept MctsPolicy = Game<G> && requires(P& policy, const typename G::State& state, Random& random) {
    { policy.value(state, random) } -> std::convertible_to<float>;
};

namespace mcts_detail {

// Raw memory for up to `capacity` objects, each constructed in place when the tree takes it: pages
// are touched only as the tree grows (as with a reserved vector), and nothing ever moves, so
// threads read nodes while others add more.
template <class T>
class Storage {
public:
    Storage() = default;
    Storage(Storage&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), capacity_(std::exchange(other.capacity_, 0)) {}
    Storage& operator=(Storage&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            capacity_ = std::exchange(other.capacity_, 0);
        }
        return *this;
    }
    ~Storage() { release(); }

    // False when the system will not give that much (the old block is freed either way).
    bool allocate(std::size_t capacity) {
        release();
        if (capacity == 0) return true;
        data_ = static_cast<T*>(::operator new(capacity * sizeof(T), std::align_val_t{alignof(T)}, std::nothrow));
        if (!data_) return false;
        capacity_ = capacity;
        return true;
    }
    std::size_t capacity() const { return capacity_; }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    const T* data() const { return data_; }

private:
    void release() {
        if (data_) ::operator delete(data_, std::align_val_t{alignof(T)});
        data_ = nullptr;
        capacity_ = 0;
    }
    T* data_ = nullptr;
    std::size_t capacity_ = 0;
};

// An atomic that a moved tree carries over (moves happen between searches, never during one).
template <class T>
struct Shared : std::atomic<T> {
    Shared(T value = T{}) : std::atomic<T>(value) {}
    Shared(Shared&& other) noexcept : std::atomic<T>(other.load(std::memory_order_relaxed)) {}
    Shared& operator=(Shared&& other) noexcept {
        this->store(other.load(std::memory_order_relaxed), std::memory_order_relaxed);
        return *this;
    }
};

// A mutex that a moved tree replaces with a fresh one.
struct Mutex : std::mutex {
    Mutex() = default;
    Mutex(Mutex&&) noexcept {}
    Mutex& operator=(Mutex&&) noexcept { return *this; }
};

}  // namespace mcts_detail

template <Game G, MctsPolicy<G> Policy>
class Mcts {
public:
    using State = typename G::State;
    using Move = typename G::Move;

    // A root move's statistics.
    struct RootChild {
        Move move;
        std::uint32_t visits;
        float value;  // mean, from the root mover's point of view
        int proven;   // +1 proven win for the root mover, -1 proven loss, 0 unknown or draw
        bool proven_draw;
    };

    explicit Mcts(Policy policy = {}, MctsSettings settings = {}, std::uint64_t seed = 1)
        : policy_(std::move(policy)), settings_(settings), seed_(seed) {
        main_.random.reseed(seed);
        // Until the first search: a tree of node 0 alone, the root of nothing.
        if (!nodes_.allocate(1)) throw std::bad_alloc();
        ::new (&nodes_[0]) Node{};
    }
    // Moved between searches only (a player starting a new game afresh); never copied.
    Mcts(Mcts&&) = default;
    Mcts& operator=(Mcts&&) = default;

    MctsSettings& settings() { return settings_; }
    // The policy every thread uses: the first thread this one, the others a copy taken at the
    // start of each search (policies may keep per-thread state: random numbers, accumulators).
    Policy& policy() { return policy_; }
    void clear() {
        reset_tree();
        main_.random.reseed(seed_);
        for (std::size_t i = 0; i < helpers_.size(); ++i) helpers_[i]->random.reseed(helper_seed(i));
    }

    // Threads that search the tree together, from the next search on. Each thread beyond the
    // first needs its own copy of the policy, so a policy that cannot be copied searches alone.
    void set_threads(int threads) {
        threads_ = std::is_copy_constructible_v<Policy> ? std::max(1, threads) : 1;
        while (helpers_.size() + 1 < static_cast<std::size_t>(threads_)) {
            helpers_.push_back(std::make_unique<Worker>());
            helpers_.back()->random.reseed(helper_seed(helpers_.size() - 1));
        }
    }
    int threads() const { return threads_; }

    // Runs iterations from `root` until a limit; `report`ing (if given) about once a second. The
    // iteration limit counts the iterations of every thread; the first thread reports.
    SearchResult<G> search(const SearchRequest<G>& request, const SearchControl<G>& control,
                           std::optional<std::uint64_t> iteration_limit = std::nullopt, bool report_at_end = true) {
        control_ = &control;
        start_ = request.start;
        budget_ = plan_time(request.limits, G::side_to_move(request.root), request.start);
        infinite_ = request.limits.infinite;
        root_state_ = request.root;
        iterations_.store(0, std::memory_order_relaxed);
        tickets_.store(0, std::memory_order_relaxed);
        max_depth_.store(0, std::memory_order_relaxed);
        done_.store(false, std::memory_order_relaxed);
        // A root restricted to `search_moves` is built afresh, and is not reused by the next
        // search either: its missing edges would hide moves.
        const bool was_restricted = !root_moves_.empty();
        root_moves_ = request.search_moves;
        if (was_restricted || !root_moves_.empty()) reset_tree();
        prepare_root(request.root);
        limit_ = iteration_limit      ? *iteration_limit
                 : request.limits.nodes ? *request.limits.nodes
                                        : std::numeric_limits<std::uint64_t>::max();
        SearchResult<G> result;
        if (nodes_[root_].terminal) return result;
        main_.policy = &policy_;
        if (threads_ == 1) {
            run(main_, true);
        } else {
            if constexpr (std::is_copy_constructible_v<Policy>) {
                for (int i = 1; i < threads_; ++i) {
                    Worker& helper = *helpers_[static_cast<std::size_t>(i - 1)];
                    helper.own.emplace(policy_);
                    helper.policy = &*helper.own;
                }
            }
            multi_ = true;
            {
                std::vector<std::jthread> helpers;
                for (int i = 1; i < threads_; ++i)
                    helpers.emplace_back([this, i] { run(*helpers_[static_cast<std::size_t>(i - 1)], false); });
                run(main_, true);
            }
            multi_ = false;
        }
        const std::uint64_t iterations = iterations_.load(std::memory_order_relaxed);
        if (report_at_end && control_->report) report(iterations);
        const auto children = root_children();
        if (children.empty()) return result;
        result.best = children[best_child(children)].move;
        result.has_move = true;
        result.nodes = iterations;
        result.score = score_of_root();
        return result;
    }

    std::vector<RootChild> root_children() const {
        std::vector<RootChild> children;
        const Node& root = nodes_[root_];
        const auto [first, count] = edges_of(root);
        for (std::uint32_t i = 0; i < count; ++i) {
            const Edge& edge = edges_[first + i];
            const std::uint32_t index = edge.child.load(std::memory_order_acquire);
            RootChild child{edge.move, edge_visits(first + i, index), 0.0f, 0, false};
            if (index) {
                const Node& node = nodes_[index];
                child.value = for_side(root.to_move, mean_value(node));
                const Proven proven = node.proven.load(std::memory_order_relaxed);
                if (proven == Proven::draw) child.proven_draw = true;
                else if (proven != Proven::unknown) child.proven = winner_is(proven, root.to_move) ? 1 : -1;
            }
            children.push_back(child);
        }
        return children;
    }

    // The most visited child, except that a proven win is always taken and a proven loss avoided.
    static std::size_t best_child(const std::vector<RootChild>& children) {
        std::size_t best = 0;
        auto rank = [](const RootChild& c) {
            return std::make_tuple(c.proven == 1 ? 2 : c.proven == -1 ? 0 : 1, c.visits, c.value);
        };
        for (std::size_t i = 1; i < children.size(); ++i)
            if (rank(children[i]) > rank(children[best])) best = i;
        return best;
    }

    // The root's value for its mover as centipawns (or a decisive score when proven).
    int score_of_root() const {
        const Node& root = nodes_[root_];
        const Proven proven = root.proven.load(std::memory_order_relaxed);
        if (proven != Proven::unknown && proven != Proven::draw)
            return winner_is(proven, root.to_move) ? win_score - 1 : -(win_score - 1);
        const auto children = root_children();
        if (children.empty()) return 0;
        const RootChild& best = children[best_child(children)];
        if (best.proven == 1) return win_score - 1;
        return value_to_cp(best.value, settings_.cp_scale);
    }

    // The best root child's expected score for the root mover, in [0, 1].
    float win_rate() const {
        const auto children = root_children();
        if (children.empty()) return 0.5f;
        const RootChild& best = children[best_child(children)];
        if (best.proven == 1) return 1.0f;
        if (best.proven == -1) return 0.0f;
        return (best.value + 1.0f) / 2.0f;
    }

    static int value_to_cp(float value, float scale) {
        const float clamped = std::clamp(value, -0.999f, 0.999f);
        return static_cast<int>(std::lround(scale * std::atanh(clamped)));
    }

    // The most visited line from the root.
    std::vector<Move> principal_variation(int max_length = 32) const {
        std::vector<Move> pv;
        std::uint32_t node = root_;
        std::vector<std::uint32_t> seen;
        while (static_cast<int>(pv.size()) < max_length) {
            const Node& n = nodes_[node];
            const auto [first, count] = edges_of(n);
            if (count == 0 || n.chance) break;
            std::uint32_t best = 0, best_node = 0, best_visits = 0;
            for (std::uint32_t i = 0; i < count; ++i) {
                const std::uint32_t child = edges_[first + i].child.load(std::memory_order_acquire);
                if (!child) continue;
                const std::uint32_t visits = edge_visits(first + i, child);
                if (!best_node || visits > best_visits) {
                    best = first + i;
                    best_node = child;
                    best_visits = visits;
                }
            }
            if (!best_node || best_visits == 0) break;
            pv.push_back(edges_[best].move);
            if (std::find(seen.begin(), seen.end(), best_node) != seen.end()) break;  // a cycle in the graph
            seen.push_back(best_node);
            node = best_node;
        }
        return pv;
    }

    std::uint64_t iterations() const { return iterations_.load(std::memory_order_relaxed); }
    int max_depth() const { return max_depth_.load(std::memory_order_relaxed); }
    std::size_t node_count() const { return node_count_.load(std::memory_order_relaxed); }
    std::size_t memory_bytes() const { return node_count() * sizeof(Node) + edge_count() * edge_bytes(); }
    // How full the tree's memory is, in thousandths (UCI's hashfull): at 1000 the search ends.
    int permille_full() const {
        const std::size_t nodes = node_count() * 1000 / std::max<std::size_t>(node_capacity_, 1);
        const std::size_t edges = edge_count() * 1000 / std::max<std::size_t>(edge_capacity_, 1);
        return static_cast<int>(std::min<std::size_t>(1000, std::max(nodes, edges)));
    }

private:
    enum class Proven : std::uint8_t { unknown, first_wins, second_wins, draw };
    // A node's edges: none yet; being created by one thread; created and published.
    enum Expansion : std::uint8_t { unexpanded, expanding, expanded };

    // Edges are created for every legal move at expansion, so they are kept small; graph mode
    // keeps each edge's own visit count in edge_visits_, alongside.
    struct Edge {
        Move move;
        float prior;
        std::atomic<std::uint32_t> child{0};  // 0: not created yet (node 0 is never a child)
    };
    // (Nodes and edges are overwritten, never destroyed, when the tree is rebuilt.)
    static_assert(std::is_trivially_destructible_v<Edge>, "MCTS expects moves without destructors");

    // `hash`, `to_move`, `chance` are set before the node is published (linked from an edge or
    // the hash map), `first_edge`, `edge_count` and `terminal` before `expansion` turns
    // `expanded` (release): a reader that sees `expanded` (acquire) may read them.
    struct Node {
        std::uint64_t hash = 0;
        std::uint32_t first_edge = 0;
        std::uint32_t edge_count = 0;
        std::atomic<std::uint32_t> visits{0};
        std::atomic<std::uint32_t> in_flight{0};  // threads whose iteration passes here: virtual losses
        std::atomic<float> value_sum{0};          // tree mode: sum of results, first player's view
        std::atomic<float> own_value{0};          // graph mode: the leaf evaluation of this node
        std::atomic<float> graph_value{0};        // graph mode: value recomputed from the children
        std::atomic<float> minimax{0};            // minimax of the leaf evaluations below, first player's view
        Side to_move = Side::first;
        std::atomic<Proven> proven{Proven::unknown};
        std::atomic<std::uint8_t> expansion{unexpanded};
        bool terminal = false;
        bool chance = false;
        std::atomic_flag lock;  // held while a child is created on one of the edges (tree mode)
    };

    // What each thread has of its own: the policy, random numbers and scratch space.
    struct Worker {
        Policy* policy = nullptr;    // the tree's policy (first thread) or `own`
        std::optional<Policy> own;   // a copy for a helper thread, taken at each search
        Random random;
        MoveList<G> moves;
        std::vector<float> priors;
        std::vector<double> weights;  // sampled selection
        std::vector<std::uint32_t> path;
        std::vector<std::uint32_t> edge_path;
    };

    static bool winner_is(Proven proven, Side side) {
        return (proven == Proven::first_wins && side == Side::first) ||
               (proven == Proven::second_wins && side == Side::second);
    }
    static Proven win_for(Side side) { return side == Side::first ? Proven::first_wins : Proven::second_wins; }
    static float for_side(Side side, float first_value) { return side == Side::first ? first_value : -first_value; }
    static float proven_value(Proven proven) {
        return proven == Proven::first_wins ? 1.0f : proven == Proven::second_wins ? -1.0f : 0.0f;
    }

    // The node's edges as (first, count): none until it is expanded.
    static std::pair<std::uint32_t, std::uint32_t> edges_of(const Node& node) {
        if (node.expansion.load(std::memory_order_acquire) != expanded) return {0, 0};
        return {node.first_edge, node.edge_count};
    }
    static bool is_expanded(const Node& node) { return node.expansion.load(std::memory_order_acquire) == expanded; }

    // Visits through edge `e`, whose child is `child` (0: none yet).
    std::uint32_t edge_visits(std::uint32_t e, std::uint32_t child) const {
        if (settings_.graph) return edge_visits_[e].load(std::memory_order_relaxed);
        return child ? nodes_[child].visits.load(std::memory_order_relaxed) : 0;
    }
    float mean_value(const Node& node) const {
        const Proven proven = node.proven.load(std::memory_order_relaxed);
        if (proven != Proven::unknown) return proven_value(proven);
        if (settings_.graph) return node.graph_value.load(std::memory_order_relaxed);
        const std::uint32_t visits = node.visits.load(std::memory_order_relaxed);
        return visits ? node.value_sum.load(std::memory_order_relaxed) / static_cast<float>(visits) : 0.0f;
    }
    Proven proven_of(std::uint32_t node) const { return nodes_[node].proven.load(std::memory_order_relaxed); }

    // ------------------------------------------------------------------------------------------
    // Shared counters and statistics. With one thread nothing else touches the tree: a plain load
    // and store, as a single-threaded search would do; with more, a relaxed read-modify-write.

    template <class T>
    void add(std::atomic<T>& value, T amount) const {
        if (multi_) value.fetch_add(amount, std::memory_order_relaxed);
        else value.store(value.load(std::memory_order_relaxed) + amount, std::memory_order_relaxed);
    }

    // Takes `amount` from a counter that may not pass `capacity`: the old value, or nothing.
    template <class T>
    std::optional<T> take(std::atomic<T>& counter, T amount, T capacity) const {
        T current = counter.load(std::memory_order_relaxed);
        do {
            if (current > capacity || capacity - current < amount) return std::nullopt;
            if (!multi_) {
                counter.store(current + amount, std::memory_order_relaxed);
                return current;
            }
        } while (!counter.compare_exchange_weak(current, current + amount, std::memory_order_relaxed));
        return current;
    }

    // A proof is written once: threads that prove the same node at once agree on its result.
    void set_proven(Node& node, Proven proven) const {
        Proven unknown = Proven::unknown;
        if (multi_) node.proven.compare_exchange_strong(unknown, proven, std::memory_order_relaxed);
        else node.proven.store(proven, std::memory_order_relaxed);
    }

    // Holds a node's lock while it lives (only when threads share the tree).
    class Locked {
    public:
        Locked(std::atomic_flag& flag, bool active) : flag_(active ? &flag : nullptr) {
            if (!flag_) return;
            while (flag_->test_and_set(std::memory_order_acquire))
                while (flag_->test(std::memory_order_relaxed)) std::this_thread::yield();
        }
        ~Locked() {
            if (flag_) flag_->clear(std::memory_order_release);
        }
        Locked(const Locked&) = delete;
        Locked& operator=(const Locked&) = delete;

    private:
        std::atomic_flag* flag_;
    };

    // ------------------------------------------------------------------------------------------
    // The tree's memory

    std::size_t edge_bytes() const { return sizeof(Edge) + (settings_.graph ? sizeof(std::uint32_t) : 0); }
    // (Indices are 32 bits: a budget beyond that many nodes or edges is not used.)
    std::size_t node_capacity() const {
        return std::min<std::size_t>(settings_.memory_mib * 1024 * 1024 / 5 / sizeof(Node),
                                     std::numeric_limits<std::uint32_t>::max());
    }
    std::size_t edge_capacity() const {
        return std::min<std::size_t>(settings_.memory_mib * 1024 * 1024 * 4 / 5 / edge_bytes(),
                                     std::numeric_limits<std::uint32_t>::max());
    }
    std::size_t edge_count() const { return edge_count_.load(std::memory_order_relaxed); }

    void reset_tree() {
        // The memory is taken at full size once, untouched until the tree grows into it. A budget
        // the system will not give (no overcommit) is halved until it does.
        const bool graph_storage = settings_.graph;
        if (!storage_ || storage_mib_ != settings_.memory_mib || storage_graph_ != graph_storage) {
            std::size_t nodes = std::max<std::size_t>(node_capacity(), 2), edges = edge_capacity();
            while (!(nodes_.allocate(nodes) && edges_.allocate(edges) &&
                     edge_visits_.allocate(graph_storage ? edges : 0))) {
                if (nodes <= 64 && edges <= 64) throw std::bad_alloc();
                nodes = std::max<std::size_t>(nodes / 2, 2);
                edges /= 2;
            }
            node_capacity_ = static_cast<std::uint32_t>(nodes);
            edge_capacity_ = static_cast<std::uint32_t>(edges);
            storage_ = true;
            storage_mib_ = settings_.memory_mib;
            storage_graph_ = graph_storage;
        }
        edge_count_.store(0, std::memory_order_relaxed);
        by_hash_.clear();
        ::new (&nodes_[0]) Node{};  // node 0: "no child"
        node_count_.store(1, std::memory_order_relaxed);
        root_ = 0;
    }

    // A new node for `state`; 0 when the tree is full. In graph mode the caller holds
    // graph_mutex_ (when threads share the tree): the node is entered in by_hash_.
    std::uint32_t new_node(const State& state) {
        const auto taken = take<std::uint32_t>(node_count_, 1, node_capacity_);
        if (!taken) return 0;
        const std::uint32_t index = *taken;
        Node& node = *::new (&nodes_[index]) Node{};
        node.hash = G::hash(state);
        node.to_move = G::side_to_move(state);
        node.chance = is_chance_node<G>(state);
        if (const Outcome outcome = G::outcome(state); outcome.is_over()) {
            node.terminal = true;
            node.expansion.store(expanded, std::memory_order_relaxed);
            const Proven proven = outcome.kind == OutcomeKind::draw ? Proven::draw : win_for(outcome.winner);
            node.proven.store(proven, std::memory_order_relaxed);
            const float value = proven_value(proven);
            node.graph_value.store(value, std::memory_order_relaxed);
            node.own_value.store(value, std::memory_order_relaxed);
            node.minimax.store(value, std::memory_order_relaxed);
        }
        if (settings_.graph) by_hash_[node.hash] = index;
        return index;
    }

    // Takes `count` edges; their first index, or nothing when the tree is full.
    std::optional<std::uint32_t> new_edges(std::size_t count) {
        const auto taken = take<std::uint64_t>(edge_count_, count, edge_capacity_);
        if (!taken) return std::nullopt;
        if (settings_.graph)
            for (std::size_t i = 0; i < count; ++i) ::new (&edge_visits_[*taken + i]) std::atomic<std::uint32_t>(0);
        return static_cast<std::uint32_t>(*taken);
    }

    // Finds the new root in the old tree (a few plies below the old root), or starts afresh.
    void prepare_root(const State& state) {
        const std::uint64_t hash = G::hash(state);
        if (settings_.reuse_tree && root_ != 0 && storage_mib_ == settings_.memory_mib &&
            storage_graph_ == settings_.graph && node_count() < node_capacity_ / 2 &&
            edge_count() < edge_capacity_ / 2) {
            if (const auto found = find_below(root_, hash, 4)) {
                root_ = *found;
                return;
            }
        }
        reset_tree();
        root_ = new_node(state);
    }

    std::optional<std::uint32_t> find_below(std::uint32_t from, std::uint64_t hash, int depth) const {
        std::vector<std::uint32_t> level{from};
        for (int d = 0; d <= depth && !level.empty(); ++d) {
            std::vector<std::uint32_t> next;
            for (const std::uint32_t node : level) {
                if (nodes_[node].hash == hash) return node;
                const auto [first, count] = edges_of(nodes_[node]);
                for (std::uint32_t i = 0; i < count; ++i)
                    if (const std::uint32_t child = edges_[first + i].child.load(std::memory_order_relaxed))
                        next.push_back(child);
            }
            level = std::move(next);
        }
        return std::nullopt;
    }

    // Creates the edges, with priors, of a node this thread has claimed (`expanding`), and
    // publishes them; false when the tree's memory is full.
    bool expand(Worker& w, std::uint32_t index, State& state) {
        Node& node = nodes_[index];
        if constexpr (StochasticGame<G>) {
            if (node.chance) {
                ChanceList<G> rolls;
                G::chance_outcomes(state, rolls);
                const auto first = new_edges(rolls.size());
                if (!first) return give_up(node);
                for (std::size_t i = 0; i < rolls.size(); ++i)
                    ::new (&edges_[*first + i]) Edge{rolls[i].roll, static_cast<float>(rolls[i].probability)};
                node.first_edge = *first;
                node.edge_count = static_cast<std::uint32_t>(rolls.size());
                node.expansion.store(expanded, std::memory_order_release);
                return true;
            }
        }
        MoveList<G>& moves = w.moves;
        G::generate_moves(state, moves);
        if (index == root_ && !root_moves_.empty()) {
            std::size_t kept = 0;
            for (std::size_t i = 0; i < moves.size(); ++i)
                if (std::find(root_moves_.begin(), root_moves_.end(), moves[i]) != root_moves_.end())
                    moves[kept++] = moves[i];
            if (kept > 0) moves.resize(kept);  // none of them legal here: search every move
        }
        const auto first = new_edges(moves.size());
        if (!first) return give_up(node);
        std::vector<float>& priors = w.priors;
        priors.resize(moves.size());
        Policy& policy = *w.policy;
        if constexpr (requires { policy.priors(state, moves, priors.data()); }) {
            if (settings_.puct || settings_.sampled_selection || settings_.uct_priors)
                policy.priors(state, moves, priors.data());
            else std::fill(priors.begin(), priors.end(), 1.0f);
        } else {
            std::fill(priors.begin(), priors.end(), 1.0f);
        }
        float total = 0;
        for (const float p : priors) total += std::max(p, 0.0f);
        const float uniform = moves.size() ? 1.0f / static_cast<float>(moves.size()) : 0.0f;
        for (std::size_t i = 0; i < moves.size(); ++i)
            ::new (&edges_[*first + i]) Edge{moves[i], total > 0 ? std::max(priors[i], 0.0f) / total : uniform};
        node.first_edge = *first;
        node.edge_count = static_cast<std::uint32_t>(moves.size());
        if (moves.empty()) {  // no move and no result: call it a draw
            node.terminal = true;
            node.proven.store(Proven::draw, std::memory_order_relaxed);
        }
        // A win the policy proves here (a forcing line) needs no tree below: the node is a leaf
        // with its result, as a finished game is, and the solver takes it up the tree.
        if constexpr (requires { policy.proves_win(state); }) {
            if (settings_.solver && index != root_ && !node.terminal && policy.proves_win(state))
                node.proven.store(win_for(node.to_move), std::memory_order_relaxed);
        }
        // The decisive children are made before the edges are published: no other thread
        // creates children on them meanwhile.
        const bool fits = !(settings_.decisive_checks && settings_.solver) || create_decisive_children(index, state);
        node.expansion.store(expanded, std::memory_order_release);
        return fits;
    }

    // The tree is full: the claimed node goes back to unexpanded (threads waiting for its edges
    // give up their iterations too).
    bool give_up(Node& node) {
        node.expansion.store(unexpanded, std::memory_order_release);
        return false;
    }

    bool create_decisive_children(std::uint32_t index, const State& state) {
        State probe = state;
        Node& node = nodes_[index];
        const std::uint32_t first = node.first_edge;
        const std::uint32_t count = node.edge_count;
        for (std::uint32_t i = 0; i < count; ++i) {
            const Move move = edges_[first + i].move;
            if constexpr (PredictsGameEnd<G>)
                if (!G::ends_game(state, move)) continue;
            const auto record = G::play(probe, move);
            if (G::outcome(probe).is_over()) {
                if (node_count() >= node_capacity_) return false;
                std::unique_lock lock(graph_mutex_, std::defer_lock);
                if (settings_.graph && multi_) lock.lock();
                const std::uint32_t child = new_node(probe);
                if (!child) return false;
                edges_[first + i].child.store(child, std::memory_order_release);
            }
            G::undo(probe, move, record);
        }
        prove(node);
        return true;
    }

    // The child on edge `e` of `parent`, created if missing; 0 when the tree is full.
    std::uint32_t child_of(std::uint32_t parent, std::uint32_t e, const State& state) {
        if (const std::uint32_t child = edges_[e].child.load(std::memory_order_acquire)) return child;
        if (node_count() >= node_capacity_) return 0;
        if (settings_.graph) {
            std::unique_lock lock(graph_mutex_, std::defer_lock);
            if (multi_) lock.lock();
            std::uint32_t child = edges_[e].child.load(std::memory_order_acquire);
            if (!child) {
                if (const auto found = by_hash_.find(G::hash(state)); found != by_hash_.end()) child = found->second;
                if (!child) child = new_node(state);
                if (child) edges_[e].child.store(child, std::memory_order_release);
            }
            return child;
        }
        const Locked lock(nodes_[parent].lock, multi_);
        std::uint32_t child = edges_[e].child.load(std::memory_order_acquire);
        if (!child) {
            child = new_node(state);
            if (child) edges_[e].child.store(child, std::memory_order_release);
        }
        return child;
    }

    // ------------------------------------------------------------------------------------------
    // Selection. A child with threads' iterations in flight below it counts each as a visit
    // lost for the mover (virtual loss); with one thread there are none.

    std::uint32_t select_edge(Worker& w, const Node& node) {
        const std::uint32_t first = node.first_edge;
        const std::uint32_t count = node.edge_count;
        if (node.chance) {  // sample an outcome by its probability
            float draw = static_cast<float>(w.random.unit());
            for (std::uint32_t i = 0; i < count; ++i) {
                draw -= edges_[first + i].prior;
                if (draw <= 0) return first + i;
            }
            return first + count - 1;
        }
        if (settings_.sampled_selection) return sample_edge(w, node);
        const Side mover = node.to_move;
        const std::uint32_t node_visits = node.visits.load(std::memory_order_relaxed);
        const std::uint32_t parent_visits = settings_.graph ? std::max<std::uint32_t>(node_visits, 1) : node_visits;
        const float parent_value = node_visits ? for_side(mover, mean_value(node)) : 0.0f;
        const float sqrt_visits = std::sqrt(static_cast<float>(std::max<std::uint32_t>(parent_visits, 1)));
        const float log_visits = std::log(static_cast<float>(std::max<std::uint32_t>(parent_visits, 1)));
        // (Read once: the atomic loads in the loop would have the compiler read them per edge.)
        const bool graph = settings_.graph, solver = settings_.solver, puct = settings_.puct, multi = multi_;
        const float exploration = settings_.exploration, minimax_weight = settings_.minimax_weight;
        const float unvisited = puct ? parent_value - settings_.fpu_reduction : 0.0f;
        const Edge* const edges = &edges_[0];
        const Node* const nodes = &nodes_[0];
        const std::atomic<std::uint32_t>* const edge_visits = edge_visits_.data();  // graph mode
        float best_score = -std::numeric_limits<float>::infinity();
        std::uint32_t best = first;
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t e = first + i;
            const Edge& edge = edges[e];
            const std::uint32_t child_index = edge.child.load(std::memory_order_acquire);
            const Node& child = nodes[child_index];  // (node 0 when there is none: not read then)
            const std::uint32_t visits = graph         ? edge_visits[e].load(std::memory_order_relaxed)
                                         : child_index ? child.visits.load(std::memory_order_relaxed)
                                                       : 0;
            const std::uint32_t virtual_losses =
                multi && child_index ? child.in_flight.load(std::memory_order_relaxed) : 0;
            float q;
            if (child_index && visits > 0) {
                const Proven proven = child.proven.load(std::memory_order_relaxed);
                if (solver && proven != Proven::unknown) {
                    if (winner_is(proven, mover)) return e;  // (the solver marks the parent won)
                    if (proven != Proven::draw) continue;    // a proven loss is never chosen
                }
                // mean_value(child), with the visits already read (in tree mode the child's own)
                q = for_side(mover, proven != Proven::unknown ? proven_value(proven)
                                    : graph ? child.graph_value.load(std::memory_order_relaxed)
                                            : child.value_sum.load(std::memory_order_relaxed) /
                                                  static_cast<float>(visits));
                if (minimax_weight > 0)
                    q = (1.0f - minimax_weight) * q +
                        minimax_weight * for_side(mover, child.minimax.load(std::memory_order_relaxed));
                if (virtual_losses)
                    q = (q * static_cast<float>(visits) - static_cast<float>(virtual_losses)) /
                        static_cast<float>(visits + virtual_losses);
            } else {
                q = virtual_losses ? -1.0f : unvisited;
            }
            const std::uint32_t tried = visits + virtual_losses;
            float score;
            if (puct) {
                score = q + exploration * edge.prior * sqrt_visits / (1.0f + static_cast<float>(tried));
            } else {
                if (tried == 0) score = 1e9f + edge.prior;  // UCT: every child once first
                else score = q + exploration * std::sqrt(log_visits / static_cast<float>(tried));
            }
            if (score > best_score) {
                best_score = score;
                best = e;
            }
        }
        return best;
    }

    // A child drawn with probability proportional to prior / (visits + 1); with the solver, a
    // proven win is taken at once and proven losses are never drawn (unless nothing else is left).
    std::uint32_t sample_edge(Worker& w, const Node& node) {
        const std::uint32_t first = node.first_edge;
        const std::uint32_t count = node.edge_count;
        double total = 0;
        std::vector<double>& weights = w.weights;
        weights.resize(count);
        for (std::uint32_t i = 0; i < count; ++i) {
            const Edge& edge = edges_[first + i];
            const std::uint32_t child = edge.child.load(std::memory_order_acquire);
            const std::uint32_t tried =
                edge_visits(first + i, child) +
                (multi_ && child ? nodes_[child].in_flight.load(std::memory_order_relaxed) : 0);
            double weight = static_cast<double>(edge.prior) / (1.0 + static_cast<double>(tried));
            if (settings_.solver && child) {
                const Proven proven = nodes_[child].proven.load(std::memory_order_relaxed);
                if (proven != Proven::unknown) {
                    if (winner_is(proven, node.to_move)) return first + i;
                    if (proven != Proven::draw) weight = 0;
                }
            }
            weights[i] = weight;
            total += weight;
        }
        if (total <= 0) return first + w.random.below(count);
        double draw = w.random.unit() * total;
        for (std::uint32_t i = 0; i < count; ++i) {
            draw -= weights[i];
            if (draw < 0 && weights[i] > 0) return first + i;
        }
        for (std::uint32_t i = count; i-- > 0;)
            if (weights[i] > 0) return first + i;
        return first;
    }

    // ------------------------------------------------------------------------------------------
    // One thread's iterations, until a limit or another thread ends the search.

    void run(Worker& w, bool reporter) {
        struct Done {  // however this thread ends, the others end too
            std::atomic<bool>& done;
            ~Done() { done.store(true, std::memory_order_relaxed); }
        } finish{done_};
        auto last_report = Clock::now();
        std::uint64_t own = 0;
        while (!done_.load(std::memory_order_relaxed)) {
            if (!take<std::uint64_t>(tickets_, 1, limit_)) break;  // the iteration limit, of all threads together
            if (!iterate(w)) break;  // the tree is full
            add<std::uint64_t>(iterations_, 1);
            ++own;
            if (settings_.solver && proven_of(root_) != Proven::unknown) break;
            if (control_->stopped()) break;
            if ((own & 15) == 0) {
                const auto now = Clock::now();
                if (!infinite_ && budget_.soft && now >= *budget_.soft) break;
                if (reporter && control_->report && now - last_report >= std::chrono::seconds(1)) {
                    last_report = now;
                    report(iterations_.load(std::memory_order_relaxed));
                }
            }
        }
    }

    // Whether this thread may expand the node (no other thread does or has).
    bool claim(Node& node, std::uint8_t stage) const {
        if (stage != unexpanded) return false;
        if (multi_) return node.expansion.compare_exchange_strong(stage, expanding, std::memory_order_acquire);
        node.expansion.store(expanding, std::memory_order_relaxed);
        return true;
    }

    // Waits while another thread creates the node's edges (moves and priors: microseconds).
    // False when it gave up (the tree is full) or the search is ending.
    bool wait_for_expansion(const Node& node) const {
        while (true) {
            const std::uint8_t stage = node.expansion.load(std::memory_order_acquire);
            if (stage == expanded) return true;
            if (stage == unexpanded || done_.load(std::memory_order_relaxed)) return false;
            std::this_thread::yield();
        }
    }

    // One iteration: select, expand and evaluate, back up. False when the tree is full (or, with
    // several threads, when the search ended while this one waited).
    bool iterate(Worker& w) {
        State state = root_state_;
        std::vector<std::uint32_t>& path = w.path;
        path.clear();
        w.edge_path.clear();
        std::uint32_t node = root_;
        path.push_back(node);
        float leaf_value_first;  // the leaf's value, first player's view
        bool revisited = false;
        while (true) {
            Node& n = nodes_[node];
            std::uint8_t stage = n.expansion.load(std::memory_order_acquire);
            const Proven proven = n.proven.load(std::memory_order_relaxed);
            if ((stage == expanded && n.terminal) || (settings_.solver && proven != Proven::unknown && node != root_)) {
                leaf_value_first = proven_value(proven);
                break;
            }
            if (stage != expanded) {
                if (!claim(n, stage)) {
                    if (wait_for_expansion(n)) continue;  // expanded by another thread: go on below
                    return abandon(w);
                }
                if (!expand(w, node, state)) return abandon(w);
                const Proven now = n.proven.load(std::memory_order_relaxed);
                if (n.terminal || (settings_.solver && now != Proven::unknown)) {
                    leaf_value_first = proven_value(now);
                } else if (n.chance) {
                    // A chance node's value is its outcomes' average: let selection sample one.
                    continue;
                } else {
                    leaf_value_first =
                        for_side(n.to_move, std::clamp(w.policy->value(state, w.random), -1.0f, 1.0f));
                }
                n.own_value.store(leaf_value_first, std::memory_order_relaxed);
                n.graph_value.store(leaf_value_first, std::memory_order_relaxed);
                n.minimax.store(leaf_value_first, std::memory_order_relaxed);
                break;
            }
            if (static_cast<int>(path.size()) > settings_.max_path) {
                leaf_value_first = for_side(n.to_move, std::clamp(w.policy->value(state, w.random), -1.0f, 1.0f));
                break;
            }
            const std::uint32_t e = select_edge(w, n);
            G::play(state, edges_[e].move);
            const std::uint32_t child = child_of(node, e, state);
            if (!child) return abandon(w);
            w.edge_path.push_back(e);
            if (std::find(path.begin(), path.end(), child) != path.end()) {
                revisited = true;  // a cycle through transpositions: score it as a repetition
                leaf_value_first = 0.0f;
                break;
            }
            path.push_back(child);
            if (multi_) nodes_[child].in_flight.fetch_add(1, std::memory_order_relaxed);
            node = child;
        }
        const int depth = static_cast<int>(w.edge_path.size());
        for (int deepest = max_depth_.load(std::memory_order_relaxed); depth > deepest;)
            if (max_depth_.compare_exchange_weak(deepest, depth, std::memory_order_relaxed)) break;
        back_up(w, leaf_value_first, revisited);
        return true;
    }

    // An iteration that ends without a result takes back its virtual losses.
    bool abandon(Worker& w) {
        release_virtual_losses(w);
        return false;
    }
    void release_virtual_losses(Worker& w) {
        if (multi_)
            for (std::size_t i = 1; i < w.path.size(); ++i)
                nodes_[w.path[i]].in_flight.fetch_sub(1, std::memory_order_relaxed);
    }

    void back_up(Worker& w, float leaf_value_first, bool revisited) {
        const std::vector<std::uint32_t>& path = w.path;
        const std::vector<std::uint32_t>& edge_path = w.edge_path;
        if (!settings_.graph) {
            for (const std::uint32_t node : path) {
                add<std::uint32_t>(nodes_[node].visits, 1);
                add<float>(nodes_[node].value_sum, leaf_value_first);
            }
        } else {
            // The leaf (if new) counts its own evaluation; every node above recomputes its value
            // from its children, weighted by the visits of its own edges.
            if (!revisited) add<std::uint32_t>(nodes_[path.back()].visits, 1);
            for (std::size_t i = edge_path.size(); i-- > 0;) {
                add<std::uint32_t>(edge_visits_[edge_path[i]], 1);
                Node& parent = nodes_[path[i]];
                add<std::uint32_t>(parent.visits, 1);
                recompute_graph_value(parent);
            }
        }
        release_virtual_losses(w);
        if (settings_.solver)
            for (std::size_t i = path.size(); i-- > 0;) update_proven(path[i]);
        if (settings_.minimax_weight > 0)
            for (std::size_t i = path.size() - 1; i-- > 0;) update_minimax(nodes_[path[i]]);
    }

    // The best child's minimax for the node's mover (children not yet visited do not count).
    void update_minimax(Node& node) {
        const Proven proven = node.proven.load(std::memory_order_relaxed);
        if (proven != Proven::unknown) {
            node.minimax.store(proven_value(proven), std::memory_order_relaxed);
            return;
        }
        if (node.chance) return;
        const auto [first, count] = edges_of(node);
        float best = -2.0f;
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t index = edges_[first + i].child.load(std::memory_order_acquire);
            if (!index) continue;
            const Node& child = nodes_[index];
            if (!is_expanded(child)) continue;
            const Proven child_proven = child.proven.load(std::memory_order_relaxed);
            best = std::max(best, for_side(node.to_move, child_proven != Proven::unknown
                                                             ? proven_value(child_proven)
                                                             : child.minimax.load(std::memory_order_relaxed)));
        }
        if (best > -2.0f) node.minimax.store(for_side(node.to_move, best), std::memory_order_relaxed);
    }

    // (Threads recomputing one node at once may store a value just short of the latest visit;
    // the next visit recomputes it.)
    void recompute_graph_value(Node& node) {
        if (node.proven.load(std::memory_order_relaxed) != Proven::unknown) return;
        // A chance node has no evaluation of its own: only its outcomes count.
        double sum = node.chance ? 0.0 : node.own_value.load(std::memory_order_relaxed);
        double weight = node.chance ? 0.0 : 1.0;
        const auto [first, count] = edges_of(node);
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t e = first + i;
            const std::uint32_t child = edges_[e].child.load(std::memory_order_acquire);
            const std::uint32_t visits = edge_visits_[e].load(std::memory_order_relaxed);
            if (!child || visits == 0) continue;
            sum += static_cast<double>(visits) * mean_value(nodes_[child]);
            weight += visits;
        }
        if (weight == 0) return;
        node.graph_value.store(static_cast<float>(sum / weight), std::memory_order_relaxed);
    }

    // A node is won for its mover if one child is; lost (or drawn) once every child is proven.
    void update_proven(std::uint32_t index) {
        Node& node = nodes_[index];
        if (node.proven.load(std::memory_order_relaxed) != Proven::unknown || !is_expanded(node)) return;
        prove(node);
    }
    // (The node's edges are readable: it is expanded, or being expanded by this thread.)
    void prove(Node& node) {
        if (node.proven.load(std::memory_order_relaxed) != Proven::unknown || node.chance || node.edge_count == 0)
            return;
        bool all_proven = true;
        bool any_draw = false;
        for (std::uint32_t i = 0; i < node.edge_count; ++i) {
            const std::uint32_t index = edges_[node.first_edge + i].child.load(std::memory_order_acquire);
            const Proven child = index ? nodes_[index].proven.load(std::memory_order_relaxed) : Proven::unknown;
            if (child == Proven::unknown) {
                all_proven = false;
                continue;
            }
            if (winner_is(child, node.to_move)) {
                set_proven(node, child);
                return;
            }
            if (child == Proven::draw) any_draw = true;
        }
        if (all_proven) set_proven(node, any_draw ? Proven::draw : win_for(opponent(node.to_move)));
    }

    void report(std::uint64_t iterations) {
        Report<G> r;
        r.pv = principal_variation();
        // The line starts with the move the search would play (a proven win may have no visits).
        const auto children = root_children();
        if (!children.empty()) {
            const Move best = children[best_child(children)].move;
            if (r.pv.empty() || !(r.pv.front() == best)) r.pv = {best};
        }
        r.depth = std::max(1, static_cast<int>(r.pv.size()));
        r.seldepth = max_depth();
        r.score = score_of_root();
        r.nodes = iterations;
        r.time_ms = std::chrono::duration_cast<Milliseconds>(Clock::now() - start_).count();
        r.extra = fmt::format("visits {} winrate {:.4f} hashfull {}",
                              nodes_[root_].visits.load(std::memory_order_relaxed), win_rate(), permille_full());
        control_->report(r);
    }

    std::uint64_t helper_seed(std::size_t helper) const { return seed_ + 1 + static_cast<std::uint64_t>(helper); }

    Policy policy_;
    MctsSettings settings_;
    std::uint64_t seed_;
    // The tree: nodes and edges in fixed blocks, taken by atomic counters.
    mcts_detail::Storage<Node> nodes_;
    mcts_detail::Storage<Edge> edges_;
    mcts_detail::Storage<std::atomic<std::uint32_t>> edge_visits_;  // graph mode only
    mcts_detail::Shared<std::uint32_t> node_count_{1};  // node 0 included
    mcts_detail::Shared<std::uint64_t> edge_count_{0};
    std::uint32_t node_capacity_ = 0;
    std::uint32_t edge_capacity_ = 0;
    bool storage_ = false;           // the blocks are allocated, for:
    std::size_t storage_mib_ = 0;    //   this memory budget
    bool storage_graph_ = false;     //   and this mode
    std::unordered_map<std::uint64_t, std::uint32_t> by_hash_;  // graph mode, under graph_mutex_
    mcts_detail::Mutex graph_mutex_;
    std::uint32_t root_ = 0;
    State root_state_{};
    std::vector<Move> root_moves_;  // the request's search_moves: the root's only edges when given
    // The threads
    int threads_ = 1;
    bool multi_ = false;  // several threads are searching now (set only between searches)
    Worker main_;
    std::vector<std::unique_ptr<Worker>> helpers_;
    // The running search
    const SearchControl<G>* control_ = nullptr;
    Clock::time_point start_;
    TimeBudget budget_;
    bool infinite_ = false;
    std::uint64_t limit_ = 0;
    mcts_detail::Shared<std::uint64_t> tickets_{0};     // iterations started or about to start
    mcts_detail::Shared<std::uint64_t> iterations_{0};  // iterations completed
    mcts_detail::Shared<bool> done_{false};              // a thread met a limit: all stop
    mcts_detail::Shared<int> max_depth_{0};
};

}  // namespace bge::search
