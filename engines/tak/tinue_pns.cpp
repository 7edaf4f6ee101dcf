#include "engines/tak/tinue_pns.hpp"

#include <algorithm>

#include "engines/tak/roads.hpp"

namespace bge::tak {

namespace {

bool wins_at_once(State& state, Side side) { return !(winning_move(state, side) == Move::none()); }

// Proof numbers add up without overflowing past "infinite".
std::uint32_t saturating_add(std::uint32_t a, std::uint32_t b, std::uint32_t cap) { return std::min(cap, a + b); }

// The tree never holds more nodes than this (28 bytes each), whatever the move budget.
constexpr std::size_t max_nodes = 8'000'000;

}  // namespace

TinueResult ProofNumberTinue::search(const State& root, std::uint64_t node_budget, const std::atomic<bool>* stop,
                                     std::optional<search::Clock::time_point> deadline) {
    TinueResult result;
    nodes_.assign(1, Node{});
    wins_.assign(1, Move::none());
    played_ = 0;
    budget_.reset(node_budget, stop, deadline);
    if (outcome(root).is_over()) return result;
    while (nodes_[0].proof != 0 && nodes_[0].disproof != 0 && !out_of_budget()) {
        // Down to the most-proving leaf: the cheapest proof at the attacker's nodes, the cheapest
        // disproof at the defender's.
        State state = root;
        std::uint32_t index = 0;
        while (nodes_[index].expanded) {
            const Node& node = nodes_[index];
            std::uint32_t best = node.first_child;
            for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c) {
                const bool better = node.attacker_to_move ? nodes_[c].proof < nodes_[best].proof
                                                          : nodes_[c].disproof < nodes_[best].disproof;
                if (better) best = c;
            }
            play(state, nodes_[best].move);
            index = best;
        }
        expand(index, state);
        update(index);
    }
    result.nodes = played_;
    if (nodes_[0].proof == 0) {
        proof_line(0, result.line);
        result.first = result.line.front();
        result.depth = proof_depth(0);
    }
    result.complete = nodes_[0].disproof == 0;  // no forced road at any depth
    return result;
}

bool ProofNumberTinue::out_of_budget() {
    if (nodes_.size() >= max_nodes) budget_.abort();
    return budget_.exhausted(played_);
}

void ProofNumberTinue::expand(std::uint32_t index, State& state) {
    MoveList<Tak> moves;
    generate_moves(state, moves);
    const Side mover = state.side_to_move();
    const Side other = opponent(mover);
    const bool attacker = nodes_[index].attacker_to_move;
    const auto first = static_cast<std::uint32_t>(nodes_.size());
    auto add_child = [&](Move move) {
        Node child;
        child.move = move;
        child.parent = index;
        child.attacker_to_move = !attacker;
        nodes_.push_back(child);
        wins_.push_back(Move::none());
    };
    auto settle = [&](bool proven) {
        Node& node = nodes_[index];
        node.expanded = true;
        node.child_count = 0;
        node.proof = proven ? 0 : infinite;
        node.disproof = proven ? infinite : 0;
    };
    if (attacker) {
        if (const Move win = winning_move(state, mover); !(win == Move::none())) {
            wins_[index] = win;
            return settle(true);
        }
        for (const Move& move : moves) {
            ++played_;
            const Undo record = play(state, move);
            // Only threats the defender cannot overtake with a win of its own.
            if (!outcome(state).is_over() && wins_at_once(state, mover) && !wins_at_once(state, other))
                add_child(move);
            undo(state, move, record);
        }
        if (nodes_.size() == first) return settle(false);
    } else {
        for (const Move& move : moves) {
            ++played_;
            const Undo record = play(state, move);
            const Outcome o = outcome(state);
            bool refuted = false, holds = false;
            if (o.is_over()) {
                refuted = o.kind == OutcomeKind::win && o.winner == other;
                holds = !refuted;
            } else {
                refuted = wins_at_once(state, other);
            }
            if (!refuted && !holds) add_child(move);
            undo(state, move, record);
            if (holds) {
                nodes_.resize(first);
                wins_.resize(first);
                return settle(false);  // a defence that ends the game without losing
            }
        }
        if (nodes_.size() == first) return settle(true);  // every defence loses on the spot
    }
    Node& node = nodes_[index];
    node.expanded = true;
    node.first_child = first;
    node.child_count = static_cast<std::uint32_t>(nodes_.size()) - first;
}

void ProofNumberTinue::update(std::uint32_t index) {
    for (; index != none; index = nodes_[index].parent) {
        Node& node = nodes_[index];
        if (node.child_count == 0) continue;  // settled by expand
        std::uint32_t sum = 0, least = infinite;
        for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c) {
            const Node& child = nodes_[c];
            sum = saturating_add(sum, node.attacker_to_move ? child.disproof : child.proof, infinite);
            least = std::min(least, node.attacker_to_move ? child.proof : child.disproof);
        }
        if (node.attacker_to_move) {
            node.proof = least;
            node.disproof = sum;
        } else {
            node.proof = sum;
            node.disproof = least;
        }
    }
}

int ProofNumberTinue::proof_depth(std::uint32_t index) const {
    const Node& node = nodes_[index];
    if (node.attacker_to_move) {
        if (!(wins_[index] == Move::none())) return 1;
        int best = 1 << 20;
        for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c)
            if (nodes_[c].proof == 0) best = std::min(best, 1 + proof_depth(c));
        return best;
    }
    int longest = 1;  // every defence loses on the spot: the attacker's next move wins
    for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c)
        longest = std::max(longest, proof_depth(c));
    return longest;
}

void ProofNumberTinue::proof_line(std::uint32_t index, std::vector<Move>& line) const {
    const Node& node = nodes_[index];
    if (node.attacker_to_move && !(wins_[index] == Move::none())) {
        line.push_back(wins_[index]);
        return;
    }
    // The attacker's shortest proven move; the defender's longest resistance.
    std::uint32_t pick = none;
    int pick_depth = 0;
    for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c) {
        if (node.attacker_to_move && nodes_[c].proof != 0) continue;
        const int depth = proof_depth(c);
        if (pick == none || (node.attacker_to_move ? depth < pick_depth : depth > pick_depth)) {
            pick = c;
            pick_depth = depth;
        }
    }
    if (pick == none) return;  // every defence loses on the spot
    line.push_back(nodes_[pick].move);
    proof_line(pick, line);
}

}  // namespace bge::tak
