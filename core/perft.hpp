#pragma once
// Perft, written once for every game. Conventions (the same as the public Tak tables):
// perft(0) = 1; a finished position counts 0 at depth > 0; perft(1) counts every legal move,
// including moves that end the game. The last ply is bulk-counted: the moves are counted, not
// played. Chance nodes (dice) are expanded without using up depth, so depth counts decisions.
//
// A count may be cut short by a stop predicate (the engine loop's `stop`). It is asked before
// each child of a node more than two plies from the leaves, so a deep count ends promptly while
// the last two plies, where the time goes, run the plain count and never ask. The plain count's
// predicate is the constant NeverStop, whose check the compiler removes. A stopped count is
// partial.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/game.hpp"

namespace bge {

// The predicate of a count that runs to the end.
struct NeverStop {
    constexpr bool operator()() const noexcept { return false; }
};

template <class Stop>
concept PerftStop = std::predicate<const Stop&>;

template <Game G, PerftStop Stop = NeverStop>
std::uint64_t perft(typename G::State& state, int depth, const Stop& stop = {}) {
    // The two plies next to the leaves run the plain count, exactly as fast as without a stop.
    if constexpr (!std::same_as<Stop, NeverStop>) {
        if (depth <= 2) return perft<G>(state, depth);
    }
    if (depth == 0) return 1;
    if constexpr (StochasticGame<G>) {
        if (G::is_chance_node(state)) {
            ChanceList<G> rolls;
            G::chance_outcomes(state, rolls);
            std::uint64_t total = 0;
            for (const auto& roll : rolls) {
                const auto record = G::play(state, roll.roll);
                total += perft<G>(state, depth, stop);
                G::undo(state, roll.roll, record);
            }
            return total;
        }
    }
    if (G::outcome(state).is_over()) return 0;
    if constexpr (CountsMoves<G>) {
        if (depth == 1) return G::count_moves(state);
    }
    MoveList<G> moves;
    G::generate_moves(state, moves);
    if (depth == 1) return moves.size();
    std::uint64_t total = 0;
    for (const auto& move : moves) {
        if (stop()) break;
        const auto record = G::play(state, move);
        total += perft<G>(state, depth - 1, stop);
        G::undo(state, move, record);
    }
    return total;
}

// What a divided count did: the total of the root moves counted, and how many of how many were
// counted (fewer when it was stopped).
struct PerftDivision {
    std::uint64_t total = 0;
    std::size_t counted = 0;
    std::size_t moves = 0;
    bool stopped = false;
};

// Perft one root move at a time ("divide"), in generation order: `counted(move, count)` hears each
// count as soon as it is known. At a chance node the root "moves" are the rolls, which use up no
// depth. The stop predicate is asked before and after each root move; a root move whose count
// was cut short is not reported, and the total holds only the moves reported.
template <Game G, class Counted, PerftStop Stop = NeverStop>
    requires std::invocable<Counted&, const typename G::Move&, std::uint64_t>
PerftDivision perft_divide(typename G::State& state, int depth, Counted&& counted, const Stop& stop = {}) {
    PerftDivision division;
    if (depth == 0) {
        division.total = 1;
        return division;
    }
    if (G::outcome(state).is_over()) return division;
    const bool chance = is_chance_node<G>(state);
    const int child_depth = chance ? depth : depth - 1;
    std::vector<typename G::Move> moves;
    if constexpr (StochasticGame<G>) {
        if (chance) {
            ChanceList<G> rolls;
            G::chance_outcomes(state, rolls);
            for (const auto& roll : rolls) moves.push_back(roll.roll);
        }
    }
    if (!chance) {
        MoveList<G> legal;
        G::generate_moves(state, legal);
        moves.assign(legal.begin(), legal.end());
    }
    division.moves = moves.size();
    for (const auto& move : moves) {
        if (stop()) break;
        const auto record = G::play(state, move);
        const std::uint64_t count = perft<G>(state, child_depth, stop);
        G::undo(state, move, record);
        if (stop()) break;
        counted(move, count);
        division.total += count;
        ++division.counted;
    }
    division.stopped = division.counted < division.moves;
    return division;
}

}  // namespace bge
