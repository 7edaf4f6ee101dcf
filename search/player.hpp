#pragma once
// The interface between the protocol loop and any search algorithm. A Player chooses a move for a
// position within limits; it never prints. It reports progress through SearchControl::report,
// and the protocol layer formats those reports (as Stockfish separates search from UCI output).

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "search/limits.hpp"

namespace bge::search {

// Scores are from the side to move's point of view, in centi-units ("cp"). Game-theoretic wins
// and losses sit beyond +-win_threshold: win_score - n means a forced win n plies from the root.
constexpr int win_score = 1'000'000;
constexpr int win_threshold = win_score - 10'000;
constexpr bool is_decisive(int score) { return score >= win_threshold || score <= -win_threshold; }

template <Game G>
struct Report {
    int depth = 0;
    int seldepth = 0;
    int score = 0;
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    std::vector<typename G::Move> pv;
    std::string extra;  // algorithm-specific fields, already formatted ("hashfull 12")
};

template <Game G>
struct SearchRequest {
    typename G::State root;
    // Hashes of the positions that led to the root, oldest first, the root included: searches
    // with a repetition rule use them.
    std::vector<std::uint64_t> history;
    Limits limits;
    Clock::time_point start = Clock::now();
    // When not empty, the root moves a search may choose from (UCI's searchmoves; a player's own
    // pre-search may also narrow the root, e.g. to the answers of a forced win).
    std::vector<typename G::Move> search_moves;
};

template <Game G>
struct SearchControl {
    const std::atomic<bool>* stop = nullptr;  // set by the protocol loop on `stop` / `quit`
    std::function<void(const Report<G>&)> report;
    bool stopped() const { return stop && stop->load(std::memory_order_relaxed); }
};

template <Game G>
struct SearchResult {
    typename G::Move best{};
    bool has_move = false;
    std::uint64_t nodes = 0;
    int score = 0;
};

template <Game G>
class Player {
public:
    virtual ~Player() = default;
    virtual std::string name() const = 0;
    // A new game starts: forget what was learned about the previous one.
    virtual void new_game() {}
    virtual SearchResult<G> search(const SearchRequest<G>& request, const SearchControl<G>& control) = 0;
    // The player's own view of what the move at `root` deserves on a clock (Limits::
    // expected_moves_left, time_share). The protocol loop asks before the search and plans with
    // the result too, so the search and the loop's lateness check agree on the deadlines.
    virtual void plan_limits(Limits& /*limits*/, const typename G::State& /*root*/) const {}
    // The fixed limits `bench <depth>` uses: depth for depth-first searches; players that do not
    // search by depth translate it (MCTS: a number of iterations).
    virtual Limits bench_limits(int depth) const {
        Limits limits;
        limits.depth = depth;
        return limits;
    }
};

}  // namespace bge::search
