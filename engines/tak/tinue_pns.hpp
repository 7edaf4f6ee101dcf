#pragma once
// Tinuë by proof-number search (Allis 1994): the same game as TinueSearch (tinue.hpp) — the
// attacker plays only moves after which it wins at once unless answered and the defender cannot
// win at once, the defender every move, and a defence that leaves a win on the spot is refuted
// without search — but explored best first: each step expands the most-proving leaf, the one whose
// proof or disproof would settle the root soonest. With no depth limit it follows narrow forcing
// lines far deeper than the iterative deepening of TinueSearch for the same number of moves
// played; a wide position is given up once the budget is spent.
//
// The tree lives in one vector of compact nodes; a position is reached again by replaying the
// moves from the root (positions are not stored). Transpositions are not merged.

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tak/tak.hpp"
#include "engines/tak/tinue.hpp"
#include "search/limits.hpp"

namespace bge::tak {

class ProofNumberTinue {
public:
    // `node_budget` counts moves played, as TinueSearch does; the tree holds at most as many nodes.
    // A proof's depth is its length in attacker moves against the longest defence in the proof
    // tree, the winning move included (not always the shortest win).
    TinueResult search(const State& root, std::uint64_t node_budget, const std::atomic<bool>* stop = nullptr,
                       std::optional<search::Clock::time_point> deadline = std::nullopt);

private:
    static constexpr std::uint32_t infinite = 1u << 30;
    static constexpr std::uint32_t none = ~0u;
    struct Node {
        Move move;                     // the move into this node
        std::uint32_t parent = none;
        std::uint32_t first_child = none;
        std::uint32_t child_count = 0;
        std::uint32_t proof = 1, disproof = 1;
        bool attacker_to_move = true;  // an OR node; the defender's nodes are AND nodes
        bool expanded = false;
    };

    void expand(std::uint32_t index, State& state);
    void update(std::uint32_t index);
    int proof_depth(std::uint32_t index) const;
    void proof_line(std::uint32_t index, std::vector<Move>& line) const;
    bool out_of_budget();

    std::vector<Node> nodes_;
    std::vector<Move> wins_;  // an OR node's win on the spot, by node index (Move::none() if none)
    std::uint64_t played_ = 0;
    TinueBudget budget_;
};

}  // namespace bge::tak
