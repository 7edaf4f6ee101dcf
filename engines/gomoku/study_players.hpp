#pragma once
// The Gomoku study's MCTS agents, with the study's hyperparameters as options (docs/gomoku.md):
//   mcts-vanilla  random rollouts; UCT selection -value(child) + C sqrt(2 ln(T+1) / (visits+1))
//   mcts-shaping  adds a shaped reward alpha * potential to every rollout's result
//   mcts-prior    adds z * potential / (visits+1) to the selection score
// where potential is the longest unbroken chain through the move. All three propagate solved
// nodes (a child that wins for the mover marks its parent won and its siblings are dropped),
// reuse the tree between moves, and spread a leaf's rollouts over worker threads.

#include <cstdint>
#include <memory>
#include <vector>

#include "core/gomoku/gomoku.hpp"
#include "core/random.hpp"
#include "protocol/engine_spec.hpp"
#include "search/player.hpp"

namespace bge::gomoku {

enum class StudyKind { vanilla, shaping, prior };

struct StudySettings {
    StudyKind kind = StudyKind::vanilla;
    int rollouts_per_leaf = 4;          // r
    int workers = 1;                    // w: threads sharing a leaf's rollouts
    int max_depth = 10;                 // d: deepest ply selection descends to
    double exploration = 1.0;           // C
    double gamma = 1.0;                 // rollout reward discount per ply
    double shaping_alpha = 0.05;        // alpha (mcts-shaping)
    double prior_weight = 1.0;          // z (mcts-prior)
    std::uint64_t iterations = 2000;    // per move when `go` gives no limit
    std::size_t max_nodes = 4'000'000;  // a full tree stops growing (leaves are still rolled out)
    bool reuse_tree = true;
};

class StudyMcts {
public:
    explicit StudyMcts(std::uint64_t seed = 1);
    ~StudyMcts();
    void reseed(std::uint64_t seed);
    void clear();
    search::SearchResult<Gomoku> search(const search::SearchRequest<Gomoku>& request,
                                        const search::SearchControl<Gomoku>& control, const StudySettings& settings);
    std::uint64_t rollouts() const { return rollouts_; }
    std::size_t node_count() const { return nodes_.size(); }

    // The longest unbroken chain a stone of the side to move on `square` would be part of.
    static int potential(const State& state, int square);

private:
    struct Node {
        std::uint64_t hash = 0;
        double value_sum = 0;  // rewards, for the player who moved into this node
        std::uint32_t visits = 0;
        std::uint32_t first_child = 0;
        std::uint16_t child_count = 0;
        Move move{};
        std::uint8_t potential = 0;
        std::int8_t solved = 0;  // +1 won / -1 lost for the player who moved into this node
        bool expanded = false;
    };

    void iterate(const StudySettings& settings);
    void expand(std::uint32_t index, const State& state, const StudySettings& settings);
    std::uint32_t select(std::uint32_t index, const StudySettings& settings) const;
    double rollout_value(const State& state, const Node& leaf, const StudySettings& settings);
    void update_solved(std::uint32_t index);
    std::uint32_t best_root_child() const;
    void report(const search::SearchControl<Gomoku>& control, const search::SearchRequest<Gomoku>& request,
                std::uint64_t iterations) const;

    std::vector<Node> nodes_;
    std::uint32_t root_ = 0;
    State root_state_{};
    std::uint64_t seed_ = 1;
    std::vector<Random> randoms_;
    std::uint64_t rollouts_ = 0;
    int max_depth_seen_ = 0;
    struct Workers;
    std::unique_ptr<Workers> workers_;
    int worker_count_ = 0;
};

void add_study_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Gomoku>> study_players();

}  // namespace bge::gomoku
