#pragma once
// The solver (docs/ur.md, "Solver"): the exact probability that the side to move wins, for every
// position where a roll is due, by value iteration over score layers, for any ruleset (Finkel,
// Masters, Blitz) and piece count.
//
// Keys are always from the mover's side ("colour-flipped"): a position with Dark to move is
// stored as the mirrored position with Light to move, so one table holds both. The table has a
// float per position, packed by score layer (mover scored, opponent scored); within a layer by the
// tiles both sides walk (the shared tiles: empty, mover or opponent), then the mover's and the
// opponent's private tiles, counting only the piece placements that fit in the pieces left.
// Finkel: path indices 4-11 are shared (the middle row), 0-3 and 12-13 private. Masters and
// Blitz: 4-15 are shared (the middle row and both ends, which each side crosses the other's way),
// 0-3 private.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/ur/rules.hpp"

namespace bge::ur {

class SolverTable {
public:
    SolverTable(Ruleset ruleset, int pieces);

    Ruleset ruleset() const { return ruleset_; }
    int pieces() const { return pieces_; }
    Variant variant() const { return {ruleset_, pieces_}; }
    int path_length() const { return path_length_; }
    std::uint64_t size() const { return values_.size(); }
    // mover_mask / opponent_mask: bit i = a piece on path index i of that side's own path.
    std::uint64_t index(unsigned mover_mask, unsigned opponent_mask, int mover_scored, int opponent_scored) const;
    float value(unsigned mover_mask, unsigned opponent_mask, int mover_scored, int opponent_scored) const {
        return values_[index(mover_mask, opponent_mask, mover_scored, opponent_scored)];
    }
    std::vector<float>& values() { return values_; }
    const std::vector<float>& values() const { return values_; }

    // The probability that the side to move wins `state`, a position of this table's variant
    // (the roll, if any, is ignored: the value is that of the position before it). 1 or 0 when
    // the game is over, for the side to move.
    double win_probability(const State& state) const;
    // The winning chance, for the side to move in `decision` (a position with its roll), of the
    // position after `move`: kept when the move earns another roll, one minus the opponent's
    // otherwise.
    double move_value(const State& decision, Move move) const;

    // Index range of one score layer, and the layer's states in index order.
    std::uint64_t layer_begin(int mover_scored, int opponent_scored) const;
    std::uint64_t layer_end(int mover_scored, int opponent_scored) const;
    template <class Visit>  // visit(index, mover_mask, opponent_mask)
    void for_each_in_layer(int mover_scored, int opponent_scored, Visit&& visit) const;

    Status save(const std::string& path) const;
    static Expected<SolverTable> load(const std::string& path);

private:
    int layer_of(int mover_scored, int opponent_scored) const { return mover_scored * pieces_ + opponent_scored; }

    Ruleset ruleset_;
    int pieces_;
    int path_length_;
    std::size_t codes_;                         // shared-tile fillings: 3^shared tiles
    std::vector<std::uint32_t> shared_offset_;  // [layer][ternary code of the shared tiles], relative to layer
    std::vector<std::uint64_t> layer_offset_;   // pieces^2 + 1 entries
    std::vector<float> values_;
};

struct SolveSettings {
    Ruleset ruleset = Ruleset::finkel;
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

// Solves `settings.ruleset` with `settings.pieces` pieces a side.
SolverTable solve(const SolveSettings& settings, SolveReport& report);

}  // namespace bge::ur
