#pragma once
// Tinuë search: a proof that the side to move wins by a chain of threats the opponent cannot all
// answer, as VCF is for Gomoku (engines/gomoku/threat_search.hpp).
//
// The attacker only plays moves after which it threatens to win at once (a road in one, or the
// flat win of roads.hpp's winning_move) and the defender cannot win at once; the defender tries
// every move, and those that leave the attacker a win on the spot are refuted without search. The
// attacker wins when every remaining defence leads to another such position, within `depth`
// attacker moves. The search deepens one attacker move at a time, remembers proven and refuted
// positions in a small table, and stops at a node budget or when told to.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/tak/tak.hpp"
#include "search/limits.hpp"

namespace bge::tak {

// What a forced-road search may spend: moves played, a stop flag and a deadline (the clock and the
// flag are read every 256 checks: reading them is dearer than a move). Shared by TinueSearch and
// ProofNumberTinue (tinue_pns.hpp).
class TinueBudget {
public:
    void reset(std::uint64_t moves, const std::atomic<bool>* stop, std::optional<search::Clock::time_point> deadline) {
        moves_ = moves;
        stop_ = stop;
        deadline_ = deadline;
        aborted_ = false;
    }
    // True from the first check after `played` reached the budget, the flag was set or the
    // deadline passed.
    bool exhausted(std::uint64_t played) {
        if (aborted_) return true;
        if (played >= moves_) aborted_ = true;
        if ((++checks_ & 255) == 0 && ((stop_ && stop_->load(std::memory_order_relaxed)) ||
                                    (deadline_ && search::Clock::now() >= *deadline_)))
            aborted_ = true;
        return aborted_;
    }
    bool aborted() const { return aborted_; }
    void abort() { aborted_ = true; }

private:
    std::uint64_t moves_ = 0;
    std::uint64_t checks_ = 0;
    const std::atomic<bool>* stop_ = nullptr;
    std::optional<search::Clock::time_point> deadline_;
    bool aborted_ = false;
};

struct TinueResult {
    std::optional<Move> first;  // the attacker's first move of a proven win, if one was found
    std::vector<Move> line;     // a principal line of the win (attacker, defender, ..., winning move)
    int depth = 0;              // attacker moves of the proof, the winning move included
    std::uint64_t nodes = 0;
    bool complete = false;  // every depth up to the maximum was searched in full
};

class TinueSearch {
public:
    // Looks for a forced win for the side to move in at most `max_depth` attacker moves (the
    // final winning move included: depth 1 is a win on the spot, 2 a threat that cannot be
    // answered). `stop` and `deadline`, when given, end the search early.
    TinueResult search(const State& root, int max_depth, std::uint64_t node_budget,
                       const std::atomic<bool>* stop = nullptr,
                       std::optional<search::Clock::time_point> deadline = std::nullopt);

private:
    bool attack(State& state, int depth, int level);
    bool defend(State& state, int depth, int level);
    bool out_of_budget();
    // One move list per level of the recursion, made once (a move list is large).
    MoveList<Tak>& moves_at(int level);

    struct Known {
        std::int8_t proven_depth = -1;   // the attacker wins within this many moves
        std::int8_t refuted_depth = -1;  // no win within this many
    };
    std::unordered_map<std::uint64_t, Known> attack_table_;
    std::vector<std::unique_ptr<MoveList<Tak>>> move_lists_;
    std::vector<Move> line_;
    std::vector<Move> best_line_;
    std::uint64_t nodes_ = 0;
    TinueBudget budget_;
};

}  // namespace bge::tak
