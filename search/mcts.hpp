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
// - limits by iterations, time and clock; progress reported as Report structs.
//
// One Mcts object is one tree and one thread; MctsPlayer (mcts_player.hpp) runs several trees in
// parallel (root parallelism) and merges their root statistics.
//
// Values are stored from the first player's point of view in [-1, 1] and turned to the mover's
// view during selection, so turns that do not alternate need nothing special.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <tuple>
#include <string>
#include <unordered_map>
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
template <class P, class G>
concept MctsPolicy = Game<G> && requires(P& policy, const typename G::State& state, Random& random) {
    { policy.value(state, random) } -> std::convertible_to<float>;
};

template <Game G, MctsPolicy<G> Policy>
class Mcts {
public:
    using State = typename G::State;
    using Move = typename G::Move;

    // Root statistics, as MctsPlayer merges them across threads.
    struct RootChild {
        Move move;
        std::uint32_t visits;
        float value;  // mean, from the root mover's point of view
        int proven;   // +1 proven win for the root mover, -1 proven loss, 0 unknown or draw
        bool proven_draw;
    };

    explicit Mcts(Policy policy = {}, MctsSettings settings = {}, std::uint64_t seed = 1)
        : policy_(std::move(policy)), settings_(settings), random_(seed), seed_(seed) {}

    MctsSettings& settings() { return settings_; }
    Policy& policy() { return policy_; }
    void clear() {
        reset_tree();
        random_.reseed(seed_);
    }

    // Runs iterations from `root` until a limit; `report`ing (if given) about once a second.
    SearchResult<G> search(const SearchRequest<G>& request, const SearchControl<G>& control,
                           std::optional<std::uint64_t> iteration_limit = std::nullopt, bool report_at_end = true) {
        control_ = &control;
        start_ = request.start;
        budget_ = plan_time(request.limits, G::side_to_move(request.root), request.start);
        root_state_ = request.root;
        iterations_ = 0;
        max_depth_ = 0;
        // A root restricted to `search_moves` is built afresh, and is not reused by the next
        // search either: its missing edges would hide moves.
        const bool was_restricted = !root_moves_.empty();
        root_moves_ = request.search_moves;
        if (was_restricted || !root_moves_.empty()) reset_tree();
        prepare_root(request.root);
        const std::uint64_t limit = iteration_limit ? *iteration_limit
                                    : request.limits.nodes ? *request.limits.nodes
                                                           : std::numeric_limits<std::uint64_t>::max();
        auto last_report = Clock::now();
        SearchResult<G> result;
        if (nodes_[root_].terminal) return result;
        while (iterations_ < limit) {
            if (!iterate()) break;  // the tree is full
            ++iterations_;
            if (settings_.solver && proven_of(root_) != Proven::unknown) break;
            if ((iterations_ & 63) == 0) {
                if (control_->stopped()) break;
                const auto now = Clock::now();
                if (!request.limits.infinite && budget_.soft && now >= *budget_.soft) break;
                if (control_->report && now - last_report >= std::chrono::seconds(1)) {
                    last_report = now;
                    report(iterations_);
                }
            }
        }
        if (report_at_end && control_->report) report(iterations_);
        const auto children = root_children();
        if (children.empty()) return result;
        result.best = children[best_child(children)].move;
        result.has_move = true;
        result.nodes = iterations_;
        result.score = score_of_root();
        return result;
    }

    std::vector<RootChild> root_children() const {
        std::vector<RootChild> children;
        const Node& root = nodes_[root_];
        for (std::uint32_t i = 0; i < root.edge_count; ++i) {
            const Edge& edge = edges_[root.first_edge + i];
            RootChild child{edge.move, edge_visits(edge), 0.0f, 0, false};
            if (edge.child) {
                const Node& node = nodes_[edge.child];
                child.value = for_side(root.to_move, mean_value(node));
                const Proven proven = node.proven;
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
        if (root.proven != Proven::unknown && root.proven != Proven::draw)
            return winner_is(root.proven, root.to_move) ? win_score - 1 : -(win_score - 1);
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
            if (n.edge_count == 0 || n.chance) break;
            const Edge* best = nullptr;
            for (std::uint32_t i = 0; i < n.edge_count; ++i) {
                const Edge& edge = edges_[n.first_edge + i];
                if (edge.child && (!best || edge_visits(edge) > edge_visits(*best))) best = &edge;
            }
            if (!best || edge_visits(*best) == 0) break;
            pv.push_back(best->move);
            if (std::find(seen.begin(), seen.end(), best->child) != seen.end()) break;  // a cycle in the graph
            seen.push_back(best->child);
            node = best->child;
        }
        return pv;
    }

    std::uint64_t iterations() const { return iterations_; }
    int max_depth() const { return max_depth_; }
    std::size_t node_count() const { return nodes_.size(); }
    std::size_t memory_bytes() const { return nodes_.size() * sizeof(Node) + edges_.size() * edge_bytes(); }
    // How full the tree's memory is, in thousandths (UCI's hashfull): at 1000 the search ends.
    int permille_full() const {
        const std::size_t nodes = nodes_.size() * 1000 / std::max<std::size_t>(node_capacity(), 1);
        const std::size_t edges = edges_.size() * 1000 / std::max<std::size_t>(edge_capacity(), 1);
        return static_cast<int>(std::min<std::size_t>(1000, std::max(nodes, edges)));
    }

private:
    enum class Proven : std::uint8_t { unknown, first_wins, second_wins, draw };

    // Edges are created for every legal move at expansion, so they are kept small; graph mode
    // keeps each edge's own visit count in edge_visits_, alongside.
    struct Edge {
        Move move;
        float prior;
        std::uint32_t child = 0;  // 0: not created yet (node 0 is never a child)
    };

    struct Node {
        std::uint64_t hash = 0;
        std::uint32_t first_edge = 0;
        std::uint32_t edge_count = 0;
        std::uint32_t visits = 0;
        float value_sum = 0;    // tree mode: sum of results, first player's view
        float own_value = 0;    // graph mode: the leaf evaluation of this node
        float graph_value = 0;  // graph mode: value recomputed from the children
        float minimax = 0;      // minimax of the leaf evaluations below, first player's view
        Side to_move = Side::first;
        Proven proven = Proven::unknown;
        bool expanded = false;
        bool terminal = false;
        bool chance = false;
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

    std::uint32_t edge_visits(const Edge& edge) const {
        if (settings_.graph) return edge_visits_[static_cast<std::size_t>(&edge - edges_.data())];
        return edge.child ? nodes_[edge.child].visits : 0;
    }
    float mean_value(const Node& node) const {
        if (node.proven != Proven::unknown) return proven_value(node.proven);
        if (settings_.graph) return node.graph_value;
        return node.visits ? node.value_sum / static_cast<float>(node.visits) : 0.0f;
    }
    Proven proven_of(std::uint32_t node) const { return nodes_[node].proven; }

    // ------------------------------------------------------------------------------------------
    // The tree's memory

    std::size_t edge_bytes() const { return sizeof(Edge) + (settings_.graph ? sizeof(std::uint32_t) : 0); }
    std::size_t node_capacity() const { return settings_.memory_mib * 1024 * 1024 / 5 / sizeof(Node); }
    std::size_t edge_capacity() const { return settings_.memory_mib * 1024 * 1024 * 4 / 5 / edge_bytes(); }

    void reset_tree() {
        nodes_.clear();
        edges_.clear();
        edge_visits_.clear();
        // Reserved at full size once: pages are touched only as the tree grows, and growth by
        // doubling would otherwise hold up to one and a half times the budget while copying.
        // A budget the system will not even reserve (no overcommit) falls back to growing.
        try {
            nodes_.reserve(node_capacity());
            edges_.reserve(edge_capacity());
            if (settings_.graph) edge_visits_.reserve(edge_capacity());
        } catch (const std::bad_alloc&) {
        }
        by_hash_.clear();
        nodes_.emplace_back();  // node 0: "no child"
        root_ = 0;
    }

    std::uint32_t new_node(const State& state) {
        Node node;
        node.hash = G::hash(state);
        node.to_move = G::side_to_move(state);
        node.chance = is_chance_node<G>(state);
        if (const Outcome outcome = G::outcome(state); outcome.is_over()) {
            node.terminal = true;
            node.expanded = true;
            node.proven = outcome.kind == OutcomeKind::draw ? Proven::draw : win_for(outcome.winner);
            node.graph_value = node.own_value = node.minimax = proven_value(node.proven);
        }
        nodes_.push_back(node);
        const auto index = static_cast<std::uint32_t>(nodes_.size() - 1);
        if (settings_.graph) by_hash_[node.hash] = index;
        return index;
    }

    // Finds the new root in the old tree (a few plies below the old root), or starts afresh.
    void prepare_root(const State& state) {
        const std::uint64_t hash = G::hash(state);
        if (settings_.reuse_tree && root_ != 0 && nodes_.size() < node_capacity() / 2 &&
            edges_.size() < edge_capacity() / 2) {
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
                const Node& n = nodes_[node];
                for (std::uint32_t i = 0; i < n.edge_count; ++i)
                    if (const std::uint32_t child = edges_[n.first_edge + i].child) next.push_back(child);
            }
            level = std::move(next);
        }
        return std::nullopt;
    }

    // Creates the node's edges, with priors; false when the tree's memory is full.
    bool expand(std::uint32_t index, const State& state) {
        Node& node = nodes_[index];
        if constexpr (StochasticGame<G>) {
            if (node.chance) {
                ChanceList<G> rolls;
                G::chance_outcomes(state, rolls);
                if (edges_.size() + rolls.size() > edge_capacity()) return false;
                node.first_edge = static_cast<std::uint32_t>(edges_.size());
                node.edge_count = static_cast<std::uint32_t>(rolls.size());
                for (const auto& roll : rolls) edges_.push_back({roll.roll, static_cast<float>(roll.probability)});
                if (settings_.graph) edge_visits_.resize(edges_.size(), 0);
                node.expanded = true;
                return true;
            }
        }
        G::generate_moves(state, moves_);
        if (index == root_ && !root_moves_.empty()) {
            std::size_t kept = 0;
            for (std::size_t i = 0; i < moves_.size(); ++i)
                if (std::find(root_moves_.begin(), root_moves_.end(), moves_[i]) != root_moves_.end())
                    moves_[kept++] = moves_[i];
            if (kept > 0) moves_.resize(kept);  // none of them legal here: search every move
        }
        if (edges_.size() + moves_.size() > edge_capacity()) return false;
        priors_.resize(moves_.size());
        if constexpr (requires { policy_.priors(state, moves_, priors_.data()); }) {
            if (settings_.puct || settings_.sampled_selection || settings_.uct_priors)
                policy_.priors(state, moves_, priors_.data());
            else std::fill(priors_.begin(), priors_.end(), 1.0f);
        } else {
            std::fill(priors_.begin(), priors_.end(), 1.0f);
        }
        float total = 0;
        for (const float p : priors_) total += std::max(p, 0.0f);
        const float uniform = moves_.size() ? 1.0f / static_cast<float>(moves_.size()) : 0.0f;
        Node& fresh = nodes_[index];  // (no reallocation of nodes_ above, but keep it explicit)
        fresh.first_edge = static_cast<std::uint32_t>(edges_.size());
        fresh.edge_count = static_cast<std::uint32_t>(moves_.size());
        for (std::size_t i = 0; i < moves_.size(); ++i)
            edges_.push_back({moves_[i], total > 0 ? std::max(priors_[i], 0.0f) / total : uniform});
        if (settings_.graph) edge_visits_.resize(edges_.size(), 0);
        fresh.expanded = true;
        if (moves_.empty()) {  // no move and no result: call it a draw
            fresh.terminal = true;
            fresh.proven = Proven::draw;
        }
        if (settings_.decisive_checks && settings_.solver) return create_decisive_children(index, state);
        return true;
    }

    bool create_decisive_children(std::uint32_t index, const State& state) {
        State probe = state;
        const std::uint32_t first = nodes_[index].first_edge;
        const std::uint32_t count = nodes_[index].edge_count;
        for (std::uint32_t i = 0; i < count; ++i) {
            const Move move = edges_[first + i].move;
            if constexpr (PredictsGameEnd<G>)
                if (!G::ends_game(state, move)) continue;
            const auto record = G::play(probe, move);
            if (G::outcome(probe).is_over()) {
                if (nodes_.size() >= node_capacity()) return false;
                const std::uint32_t child = new_node(probe);
                edges_[first + i].child = child;
            }
            G::undo(probe, move, record);
        }
        update_proven(index);
        return true;
    }

    // ------------------------------------------------------------------------------------------
    // Selection

    std::uint32_t select_edge(const Node& node) {
        if (node.chance) {  // sample an outcome by its probability
            float draw = static_cast<float>(random_.unit());
            for (std::uint32_t i = 0; i < node.edge_count; ++i) {
                draw -= edges_[node.first_edge + i].prior;
                if (draw <= 0) return node.first_edge + i;
            }
            return node.first_edge + node.edge_count - 1;
        }
        if (settings_.sampled_selection) return sample_edge(node);
        const Side mover = node.to_move;
        const std::uint32_t parent_visits = settings_.graph ? std::max<std::uint32_t>(node.visits, 1) : node.visits;
        const float parent_value = node.visits ? for_side(mover, mean_value(node)) : 0.0f;
        const float sqrt_visits = std::sqrt(static_cast<float>(std::max<std::uint32_t>(parent_visits, 1)));
        const float log_visits = std::log(static_cast<float>(std::max<std::uint32_t>(parent_visits, 1)));
        float best_score = -std::numeric_limits<float>::infinity();
        std::uint32_t best = node.first_edge;
        for (std::uint32_t i = 0; i < node.edge_count; ++i) {
            const std::uint32_t e = node.first_edge + i;
            const Edge& edge = edges_[e];
            const std::uint32_t visits = edge_visits(edge);
            float q;
            if (edge.child && visits > 0) {
                const Node& child = nodes_[edge.child];
                if (settings_.solver && child.proven != Proven::unknown) {
                    if (winner_is(child.proven, mover)) return e;  // (the solver marks the parent won)
                    if (child.proven != Proven::draw) continue;    // a proven loss is never chosen
                }
                q = for_side(mover, mean_value(child));
                if (settings_.minimax_weight > 0)
                    q = (1.0f - settings_.minimax_weight) * q + settings_.minimax_weight * for_side(mover, child.minimax);
            } else {
                q = settings_.puct ? parent_value - settings_.fpu_reduction : 0.0f;
            }
            float score;
            if (settings_.puct) {
                score = q + settings_.exploration * edge.prior * sqrt_visits / (1.0f + static_cast<float>(visits));
            } else {
                if (visits == 0) score = 1e9f + edge.prior;  // UCT: every child once first
                else score = q + settings_.exploration * std::sqrt(log_visits / static_cast<float>(visits));
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
    std::uint32_t sample_edge(const Node& node) {
        double total = 0;
        weights_.resize(node.edge_count);
        for (std::uint32_t i = 0; i < node.edge_count; ++i) {
            const Edge& edge = edges_[node.first_edge + i];
            double weight = static_cast<double>(edge.prior) / (1.0 + static_cast<double>(edge_visits(edge)));
            if (settings_.solver && edge.child && nodes_[edge.child].proven != Proven::unknown) {
                const Proven proven = nodes_[edge.child].proven;
                if (winner_is(proven, node.to_move)) return node.first_edge + i;
                if (proven != Proven::draw) weight = 0;
            }
            weights_[i] = weight;
            total += weight;
        }
        if (total <= 0) return node.first_edge + random_.below(node.edge_count);
        double draw = random_.unit() * total;
        for (std::uint32_t i = 0; i < node.edge_count; ++i) {
            draw -= weights_[i];
            if (draw < 0 && weights_[i] > 0) return node.first_edge + i;
        }
        for (std::uint32_t i = node.edge_count; i-- > 0;)
            if (weights_[i] > 0) return node.first_edge + i;
        return node.first_edge;
    }

    // ------------------------------------------------------------------------------------------
    // One iteration: select, expand and evaluate, back up. False when the tree is full.

    bool iterate() {
        State state = root_state_;
        path_.clear();
        edge_path_.clear();
        std::uint32_t node = root_;
        path_.push_back(node);
        float leaf_value_first;  // the leaf's value, first player's view
        bool revisited = false;
        while (true) {
            Node& n = nodes_[node];
            if (n.terminal || (settings_.solver && n.proven != Proven::unknown && node != root_)) {
                leaf_value_first = proven_value(n.proven);
                break;
            }
            if (!n.expanded) {
                if (!expand(node, state)) return false;
                Node& fresh = nodes_[node];
                if (fresh.terminal || (settings_.solver && fresh.proven != Proven::unknown)) {
                    leaf_value_first = proven_value(fresh.proven);
                } else if (fresh.chance) {
                    // A chance node's value is its outcomes' average: let selection sample one.
                    continue;
                } else {
                    leaf_value_first = for_side(fresh.to_move, std::clamp(policy_.value(state, random_), -1.0f, 1.0f));
                }
                fresh.own_value = leaf_value_first;
                fresh.graph_value = leaf_value_first;
                fresh.minimax = leaf_value_first;
                break;
            }
            if (static_cast<int>(path_.size()) > settings_.max_path) {
                leaf_value_first = for_side(n.to_move, std::clamp(policy_.value(state, random_), -1.0f, 1.0f));
                break;
            }
            const std::uint32_t e = select_edge(n);
            const Move move = edges_[e].move;
            G::play(state, move);
            std::uint32_t child = edges_[e].child;
            if (!child) {
                if (nodes_.size() >= node_capacity()) return false;
                if (settings_.graph) {
                    const auto found = by_hash_.find(G::hash(state));
                    if (found != by_hash_.end()) child = found->second;
                }
                if (!child) child = new_node(state);
                edges_[e].child = child;
            }
            edge_path_.push_back(e);
            if (std::find(path_.begin(), path_.end(), child) != path_.end()) {
                revisited = true;  // a cycle through transpositions: score it as a repetition
                leaf_value_first = 0.0f;
                break;
            }
            path_.push_back(child);
            node = child;
        }
        max_depth_ = std::max(max_depth_, static_cast<int>(edge_path_.size()));
        back_up(leaf_value_first, revisited);
        return true;
    }

    void back_up(float leaf_value_first, bool revisited) {
        if (!settings_.graph) {
            for (const std::uint32_t node : path_) {
                nodes_[node].visits += 1;
                nodes_[node].value_sum += leaf_value_first;
            }
        } else {
            // The leaf (if new) counts its own evaluation; every node above recomputes its value
            // from its children, weighted by the visits of its own edges.
            if (!revisited) nodes_[path_.back()].visits += 1;
            for (std::size_t i = edge_path_.size(); i-- > 0;) {
                edge_visits_[edge_path_[i]] += 1;
                Node& parent = nodes_[path_[i]];
                parent.visits += 1;
                recompute_graph_value(parent);
            }
        }
        if (settings_.solver)
            for (std::size_t i = path_.size(); i-- > 0;) update_proven(path_[i]);
        if (settings_.minimax_weight > 0)
            for (std::size_t i = path_.size() - 1; i-- > 0;) update_minimax(nodes_[path_[i]]);
    }

    // The best child's minimax for the node's mover (children not yet visited do not count).
    void update_minimax(Node& node) {
        if (node.proven != Proven::unknown) {
            node.minimax = proven_value(node.proven);
            return;
        }
        if (node.chance) return;
        float best = -2.0f;
        for (std::uint32_t i = 0; i < node.edge_count; ++i) {
            const Edge& edge = edges_[node.first_edge + i];
            if (!edge.child) continue;
            const Node& child = nodes_[edge.child];
            if (!child.expanded && !child.terminal) continue;
            best = std::max(best, for_side(node.to_move, child.proven != Proven::unknown ? proven_value(child.proven)
                                                                                          : child.minimax));
        }
        if (best > -2.0f) node.minimax = for_side(node.to_move, best);
    }

    void recompute_graph_value(Node& node) {
        if (node.proven != Proven::unknown) return;
        // A chance node has no evaluation of its own: only its outcomes count.
        double sum = node.chance ? 0.0 : node.own_value;
        double weight = node.chance ? 0.0 : 1.0;
        for (std::uint32_t i = 0; i < node.edge_count; ++i) {
            const std::uint32_t e = node.first_edge + i;
            const Edge& edge = edges_[e];
            const std::uint32_t visits = edge_visits_[e];
            if (!edge.child || visits == 0) continue;
            sum += static_cast<double>(visits) * mean_value(nodes_[edge.child]);
            weight += visits;
        }
        if (weight == 0) return;
        node.graph_value = static_cast<float>(sum / weight);
    }

    // A node is won for its mover if one child is; lost (or drawn) once every child is proven.
    void update_proven(std::uint32_t index) {
        Node& node = nodes_[index];
        if (node.proven != Proven::unknown || !node.expanded || node.chance || node.edge_count == 0) return;
        bool all_proven = true;
        bool any_draw = false;
        for (std::uint32_t i = 0; i < node.edge_count; ++i) {
            const Edge& edge = edges_[node.first_edge + i];
            const Proven child = edge.child ? nodes_[edge.child].proven : Proven::unknown;
            if (child == Proven::unknown) {
                all_proven = false;
                continue;
            }
            if (winner_is(child, node.to_move)) {
                node.proven = child;
                return;
            }
            if (child == Proven::draw) any_draw = true;
        }
        if (all_proven) node.proven = any_draw ? Proven::draw : win_for(opponent(node.to_move));
    }

    void report(std::uint64_t iterations) {
        Report<G> r;
        r.depth = std::max(1, static_cast<int>(principal_variation().size()));
        r.seldepth = max_depth_;
        r.score = score_of_root();
        r.nodes = iterations;
        r.time_ms = std::chrono::duration_cast<Milliseconds>(Clock::now() - start_).count();
        r.pv = principal_variation();
        r.extra = fmt::format("visits {} winrate {:.4f} hashfull {}", nodes_[root_].visits, win_rate(), permille_full());
        control_->report(r);
    }

    Policy policy_;
    MctsSettings settings_;
    Random random_;
    std::uint64_t seed_;
    std::vector<Node> nodes_{Node{}};
    std::vector<Edge> edges_;
    std::vector<std::uint32_t> edge_visits_;  // graph mode only
    std::unordered_map<std::uint64_t, std::uint32_t> by_hash_;
    std::uint32_t root_ = 0;
    State root_state_{};
    std::vector<Move> root_moves_;  // the request's search_moves: the root's only edges when given
    MoveList<G> moves_;
    std::vector<float> priors_;
    std::vector<double> weights_;  // sampled selection
    std::vector<std::uint32_t> path_;
    std::vector<std::uint32_t> edge_path_;
    const SearchControl<G>* control_ = nullptr;
    Clock::time_point start_;
    TimeBudget budget_;
    std::uint64_t iterations_ = 0;
    int max_depth_ = 0;
};

}  // namespace bge::search
