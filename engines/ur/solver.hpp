#pragma once
// The Finkel-ruleset solver (docs/ur.md, "Solver"): the exact probability that the side to move
// wins, for every position where a roll is due, by value iteration over score layers.
//
// Keys are always from the mover's side ("colour-flipped"): a position with Dark to move is
// stored as the mirrored position with Light to move, so one table holds both. The table has a
// float per position, packed by score layer (light scored, dark scored); within a layer by the
// shared middle row (8 tiles: empty, mover or opponent), then the mover's and the opponent's
// private tiles (6 each), counting only the piece placements that fit in the pieces left.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/ur/rules.hpp"

namespace bge::ur {

class FinkelTable {
public:
    static constexpr int path_length = 14;

    explicit FinkelTable(int pieces);

    int pieces() const { return pieces_; }
    std::uint64_t size() const { return values_.size(); }
    // mover_mask / opponent_mask: bit i = a piece on path index i of that side's own path.
    std::uint64_t index(unsigned mover_mask, unsigned opponent_mask, int mover_scored, int opponent_scored) const;
    float value(unsigned mover_mask, unsigned opponent_mask, int mover_scored, int opponent_scored) const {
        return values_[index(mover_mask, opponent_mask, mover_scored, opponent_scored)];
    }
    std::vector<float>& values() { return values_; }
    const std::vector<float>& values() const { return values_; }

    // The probability that the side to move wins `state`, a Finkel position of this piece count
    // where a roll is due (1 or 0 when the game is over, for the side to move).
    double win_probability(const State& state) const;

    // Index range of one score layer, and the layer's states in index order.
    std::uint64_t layer_begin(int mover_scored, int opponent_scored) const;
    std::uint64_t layer_end(int mover_scored, int opponent_scored) const;
    template <class Visit>  // visit(index, mover_mask, opponent_mask)
    void for_each_in_layer(int mover_scored, int opponent_scored, Visit&& visit) const;

    Status save(const std::string& path) const;
    static Expected<FinkelTable> load(const std::string& path);

    // Path masks of `side`'s pieces in a Finkel state.
    static unsigned path_mask(const State& state, int side);

private:
    int layer_of(int mover_scored, int opponent_scored) const { return mover_scored * pieces_ + opponent_scored; }

    int pieces_;
    std::vector<std::uint32_t> shared_offset_;  // [layer][ternary code of the middle row], relative to layer
    std::vector<std::uint64_t> layer_offset_;   // pieces^2 + 1 entries
    std::vector<float> values_;
};

struct SolveSettings {
    int pieces = 7;
    double tolerance = 1e-6;
    std::function<void(const std::string&)> log;  // progress lines (stderr); may be empty
};

struct SolveReport {
    std::uint64_t states = 0;
    std::uint64_t sweeps = 0;          // sum over layer groups
    std::uint64_t state_updates = 0;   // states x sweeps
    double light_win_probability = 0;  // from the start position, Light to roll
};

// Solves the Finkel game with `settings.pieces` pieces a side.
FinkelTable solve_finkel(const SolveSettings& settings, SolveReport& report);

}  // namespace bge::ur
