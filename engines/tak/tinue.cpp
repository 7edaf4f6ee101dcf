#include "engines/tak/tinue.hpp"

#include "engines/tak/roads.hpp"

namespace bge::tak {

namespace {

bool wins_at_once(State& state, Side side) { return !(winning_move(state, side) == Move::none()); }

}  // namespace

TinueResult TinueSearch::search(const State& root, int max_depth, std::uint64_t node_budget,
                                const std::atomic<bool>* stop,
                                std::optional<search::Clock::time_point> deadline) {
    TinueResult result;
    attack_table_.clear();
    nodes_ = 0;
    budget_.reset(node_budget, stop, deadline);
    if (outcome(root).is_over()) return result;
    State state = root;
    for (int depth = 1; depth <= max_depth; ++depth) {
        line_.clear();
        const bool won = attack(state, depth, 0);
        if (budget_.aborted()) break;
        if (won) {
            result.first = line_.front();
            result.line = line_;
            result.depth = depth;
            break;
        }
        if (depth == max_depth) result.complete = true;
    }
    result.nodes = nodes_;
    return result;
}

MoveList<Tak>& TinueSearch::moves_at(int level) {
    while (static_cast<int>(move_lists_.size()) <= level) move_lists_.push_back(std::make_unique<MoveList<Tak>>());
    return *move_lists_[static_cast<std::size_t>(level)];
}

bool TinueSearch::out_of_budget() { return budget_.exhausted(nodes_); }

// The attacker (side to move) wins within `depth` moves. On success line_ holds the line from
// here; on failure it is as it was.
bool TinueSearch::attack(State& state, int depth, int level) {
    const Side attacker = state.side_to_move();
    const Side defender = opponent(attacker);
    const Move win = winning_move(state, attacker);
    if (!(win == Move::none())) {
        line_.push_back(win);
        return true;
    }
    if (depth <= 1 || out_of_budget()) return false;
    const Known known = attack_table_[state.hash];
    if (known.refuted_depth >= depth) return false;
    // A position proven before: the line stops here (the root itself is never looked up).
    if (known.proven_depth >= 0 && known.proven_depth <= depth && !line_.empty()) return true;

    MoveList<Tak>& moves = moves_at(level);
    generate_moves(state, moves);
    const std::size_t mark = line_.size();
    for (const Move& move : moves) {
        if (out_of_budget()) return false;
        ++nodes_;
        const Undo record = play(state, move);
        bool proven = false;
        // Only threats: the attacker must win at once next move unless answered, and the defender
        // must not win at once itself.
        if (!outcome(state).is_over() && wins_at_once(state, attacker) && !wins_at_once(state, defender)) {
            line_.push_back(move);
            proven = defend(state, depth - 1, level + 1);
            if (!proven) line_.resize(mark);
        }
        undo(state, move, record);
        if (proven) {
            attack_table_[state.hash].proven_depth = static_cast<std::int8_t>(depth);
            return true;
        }
    }
    if (!budget_.aborted()) attack_table_[state.hash].refuted_depth = static_cast<std::int8_t>(depth);
    return false;
}

// The defender (side to move) faces a threat to win at once; true when every answer loses
// within `depth` more attacker moves. line_ then continues with the last real defence tried.
bool TinueSearch::defend(State& state, int depth, int level) {
    const Side defender = state.side_to_move();
    const Side attacker = opponent(defender);
    MoveList<Tak>& moves = moves_at(level);
    generate_moves(state, moves);
    const std::size_t mark = line_.size();
    bool any_line = false;
    for (const Move& move : moves) {
        if (out_of_budget()) return false;
        ++nodes_;
        const Undo record = play(state, move);
        const Outcome o = outcome(state);
        bool refuted;
        if (o.is_over()) {
            refuted = o.kind == OutcomeKind::win && o.winner == attacker;
            if (refuted && !any_line) {
                line_.resize(mark);
                line_.push_back(move);
                any_line = true;
            }
        } else {
            const Move win = winning_move(state, attacker);
            if (!(win == Move::none())) {
                refuted = true;
                if (!any_line) {
                    line_.resize(mark);
                    line_.push_back(move);
                    line_.push_back(win);
                    any_line = true;
                }
            } else {
                line_.resize(mark);
                line_.push_back(move);
                refuted = attack(state, depth, level + 1);
                any_line = any_line || refuted;
            }
        }
        undo(state, move, record);
        if (!refuted) {
            line_.resize(mark);
            return false;
        }
    }
    return true;
}

}  // namespace bge::tak
