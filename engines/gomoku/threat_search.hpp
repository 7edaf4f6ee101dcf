#pragma once
// Threat-space searches for a forced win, both over SearchBoard's incremental threat classes.
//
// VCF (victory by continuous fours): every attacker move is a four, so the defender's reply is
// the one block; a defender's block that makes a four of its own must be answered first, by a
// move that is itself a four.
//
// VCT (victory by continuous threats): attacker moves are fours or open threes. A four has one
// answer. A three (the attacker threatens an open four) must be answered, and the defender may
// play any of the cells where the attacker would make a four or better (every cell that breaks a
// five-window through the three is one), or a four of its own; the attacker wins only if every
// such answer loses. At the tip of the depth the attacker may still win by fours (VCF).
//
// Under renju the rules decide Black's forbidden moves: a forbidden attacker move is never
// tried, a Black three whose open-four cells are all forbidden is no threat, and a forced
// Black block that is forbidden loses. Each search is node-bounded and stops on `stop` or a
// deadline (checked every 64 positions), answering "no win found".

#include <atomic>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engines/gomoku/board.hpp"
#include "search/limits.hpp"

namespace bge::gomoku {

namespace policy {
class Policy;
}

struct ThreatLimits {
    std::uint64_t nodes = 200'000;
    const std::atomic<bool>* stop = nullptr;
    std::optional<search::Clock::time_point> deadline;
};

struct VcfResult {
    std::optional<Move> first;  // the move that starts the win
    std::vector<Move> line;     // attacker and defender moves to the five (VCT: one defence each)
    std::uint64_t nodes = 0;
    bool interrupted = false;   // the node limit, `stop` or the deadline ended the search
};

class VcfSearch {
public:
    // Keep the positions proved lost between searches (until forget()).
    void set_remembering(bool remembering) { remembering_ = remembering; }
    void forget() { failed_.clear(); }
    // Searches at most `max_plies` attacker moves deep.
    VcfResult search(SearchBoard& board, int max_plies = 30, std::uint64_t node_limit = 200'000);
    VcfResult search(SearchBoard& board, int max_plies, const ThreatLimits& limits);

    // The fours-only search from the current position with the caller's counters (VCT's tip).
    bool attack(SearchBoard& board, int plies_left, std::vector<Move>& line);
    void start(const ThreatLimits& limits);
    bool out_of_budget();
    std::uint64_t nodes() const { return nodes_; }
    bool interrupted() const { return interrupted_; }
    void count_node() { ++nodes_; }

private:
    std::uint64_t nodes_ = 0;
    ThreatLimits limits_;
    bool interrupted_ = false;
    bool remembering_ = false;
    std::unordered_set<std::uint64_t> failed_;
};

class VctSearch {
public:
    // At most `max_threes` threes along any line (fours do not count, nor a three that still
    // stands after the attacker blocked a counter-four), then VCF at the tip; tried with 1, 2,
    // ... threes in turn, so the shortest win is found first.
    VcfResult search(SearchBoard& board, int max_threes, const ThreatLimits& limits);
    // The same, keeping what earlier searches proved (positions without a win within a number
    // of threes, and won ones) until forget(): for many small searches inside one tree search.
    VcfResult search_remembering(SearchBoard& board, int max_threes, const ThreatLimits& limits);
    void forget();
    // Tries the attacker's threats of one class in the order of this learned policy (nullptr:
    // by the cells' pattern values). Only the order changes, so only which proof is found first
    // and how many positions it takes.
    void set_policy(const policy::Policy* move_policy) { policy_ = move_policy; }
    // Also counts as a threat a move that makes a cell where the attacker would make a
    // four-three or a double four; the defender's answers are four_three_answers (board.hpp).
    // Off: fours and open threes only.
    void set_four_three(bool on) { four_three_ = on; }

private:
    bool attack(SearchBoard& board, int threes_left, int plies, std::vector<Move>& line);
    // The attacker has just moved (or blocked): the defender's answers, all of which must lose.
    // `new_threat`: the attacker's move was its own threat, not the block of a counter-four.
    bool defend_all(SearchBoard& board, int threes_left, int plies, std::vector<Move>& line, bool new_threat);
    bool four_three_threats(const SearchBoard& board, Side attacker) const;
    // Appends to `tries` the attacker's moves that make a four-three cell (no threat of their own).
    void add_four_three_makers(SearchBoard& board, Side attacker, MoveList<GomokuSearch>& tries);
    VcfSearch vcf_;
    bool four_three_ = false;
    const policy::Policy* policy_ = nullptr;
    std::unordered_map<std::uint64_t, int> failed_;  // position -> threes it failed with
    std::unordered_map<std::uint64_t, Move> won_;  // position -> the move that starts its win
};

// Cells where `side` would make five right now (near stones), at most `max` written to `out`.
int five_cells(const SearchBoard& board, Side side, int* out, int max);
// Whether `side` playing `square` makes a four or better along some line (a double three is not).
bool makes_four(const SearchBoard& board, Side side, int square);
// Whether `side` has a real open-four cell: a cell making an open four (or five) that is not
// forbidden for Black under renju.
bool has_open_four_cell(const SearchBoard& board, Side side);

}  // namespace bge::gomoku
