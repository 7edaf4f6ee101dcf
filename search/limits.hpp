#pragma once
// What a search may spend: the clock (per side), a fixed time per move, nodes or depth.
// The protocol layer fills this from `go`; the time manager turns it into deadlines.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>

#include "core/game.hpp"

namespace bge::search {

using Clock = std::chrono::steady_clock;
using Milliseconds = std::chrono::milliseconds;

struct Limits {
    std::optional<std::int64_t> time_left_ms[2];  // by Side index
    std::int64_t increment_ms[2] = {0, 0};
    std::optional<int> moves_to_go;
    std::optional<std::int64_t> move_time_ms;
    std::optional<std::uint64_t> nodes;
    std::optional<int> depth;
    bool infinite = false;
    // Time kept back beyond the usual margins because this engine's searches have been finishing
    // late on this machine (LatenessTracker); never more than half of a fixed move time.
    std::int64_t reserve_ms = 0;
    // The player's own estimate of the mover's moves still to come (a Tak player counts its
    // reserves; Player::plan_limits), used on a clock without movestogo instead of a flat 25.
    std::optional<int> expected_moves_left;
    // A share of the usual time, for a move that needs little thought (Tak's first two plies only
    // place the opponent's flat); 1 otherwise.
    double time_share = 1.0;

    bool has_clock(Side side) const { return time_left_ms[index_of(side)].has_value(); }
};

// Under `go nodes N`, a player that runs pre-searches (a threat or endgame search) before its main
// search shares the N nodes among them, so N bounds the whole move. The nodes N leaves after
// `spent` (at least 1), or nothing without a node limit.
inline std::optional<std::uint64_t> nodes_left(const Limits& limits, std::uint64_t spent) {
    if (!limits.nodes) return std::nullopt;
    return std::max<std::uint64_t>(1, *limits.nodes - std::min(*limits.nodes, spent));
}

// A pre-search's node budget: its own, and under `go nodes N` at most half of what is left.
inline std::uint64_t pre_search_nodes(std::uint64_t own, const Limits& limits, std::uint64_t spent) {
    const auto left = nodes_left(limits, spent);
    return left ? std::min(own, std::max<std::uint64_t>(1, *left / 2)) : own;
}

// Deadlines for one move. `soft` is when not to start another iteration; `hard` is when to stop
// at once. Both are absent when only nodes, depth or `stop` end the search.
struct TimeBudget {
    std::optional<Clock::time_point> soft;
    std::optional<Clock::time_point> hard;
};

// Safety margin kept on the clock for process and pipe latency.
constexpr std::int64_t move_overhead_ms = 30;

// A point `ms` after `start`, with `ms` capped at 2^32 ms (49 days): a clock that a client sends
// as 2^50 ms would overflow the clock's nanoseconds, and players scale these spans by percentages.
inline Clock::time_point after_ms(Clock::time_point start, std::int64_t ms) {
    return start + Milliseconds(std::min<std::int64_t>(ms, std::int64_t{1} << 32));
}

inline TimeBudget plan_time(const Limits& limits, Side side, Clock::time_point start) {
    TimeBudget budget;
    if (limits.infinite) return budget;
    if (limits.move_time_ms) {
        // Keep a share of the move time for writing the move and for a busy machine, where a
        // process can wait tens of milliseconds for a core: a tenth, but at least a quarter up
        // to 40 ms (0.2 s keeps 40 ms), and never more than 100 ms.
        const std::int64_t move_time = *limits.move_time_ms;
        const std::int64_t margin =
            std::min<std::int64_t>(100, std::max(move_time / 10, std::min<std::int64_t>(move_time / 4, 40))) +
            std::clamp<std::int64_t>(limits.reserve_ms, 0, move_time / 2);
        const auto spend = std::max<std::int64_t>(1, *limits.move_time_ms - margin);
        budget.soft = budget.hard = after_ms(start, spend);
        return budget;
    }
    if (!limits.has_clock(side)) return budget;
    const std::int64_t left = std::max<std::int64_t>(0, *limits.time_left_ms[index_of(side)]);
    const std::int64_t increment = std::max<std::int64_t>(0, limits.increment_ms[index_of(side)]);
    const std::int64_t usable =
        std::max<std::int64_t>(1, left - move_overhead_ms - std::clamp<std::int64_t>(limits.reserve_ms, 0, left / 4));
    const int moves_left = limits.moves_to_go           ? std::clamp(*limits.moves_to_go, 1, 50)
                           : limits.expected_moves_left ? std::clamp(*limits.expected_moves_left, 1, 50)
                                                        : 25;
    // Aim for an even share of the clock plus most of the increment; never plan on more than a
    // fifth of what is left, and stop hard well before the flag falls.
    std::int64_t target = usable / moves_left + increment * 3 / 4;
    target = std::min(target, usable / 5 + increment / 2);
    const double share = std::clamp(limits.time_share, 0.01, 1.0);
    target = static_cast<std::int64_t>(static_cast<double>(target) * share);
    std::int64_t hard = std::min(usable / 4 + increment / 2, target * 5 / 2);
    target = std::max<std::int64_t>(1, std::min(target, usable));
    hard = std::max<std::int64_t>(target, std::min(hard, usable));
    budget.soft = after_ms(start, target);
    budget.hard = after_ms(start, hard);
    return budget;
}

// How late this engine's searches have finished lately: each one's finish past its hard deadline,
// kept as a maximum that decays by a twentieth per search. On a busy machine, where other
// processes hold the cores, a search thread can wait tens of milliseconds to run again and
// finish that late; the next searches then keep one and a half times as much in reserve
// (Limits::reserve_ms), and the reserve fades once the machine is quiet again.
class LatenessTracker {
public:
    void record(std::int64_t late_ms) {
        late_ms_ = std::max(late_ms_ * 0.95, static_cast<double>(std::max<std::int64_t>(0, late_ms)));
    }
    std::int64_t reserve_ms() const { return static_cast<std::int64_t>(late_ms_ * 1.5); }

private:
    double late_ms_ = 0.0;
};

}  // namespace bge::search
