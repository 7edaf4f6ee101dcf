#pragma once
// Perft, written once for every game. Conventions (the same as the public Tak tables):
// perft(0) = 1; a finished position counts 0 at depth > 0; perft(1) counts every legal move,
// including moves that end the game. The last ply is bulk-counted: the moves are counted, not
// played. Chance nodes (dice) are expanded without using up depth, so depth counts decisions.

#include <cstdint>
#include <utility>
#include <vector>

#include "core/game.hpp"

namespace bge {

template <Game G>
std::uint64_t perft(typename G::State& state, int depth) {
    if (depth == 0) return 1;
    if constexpr (StochasticGame<G>) {
        if (G::is_chance_node(state)) {
            ChanceList<G> rolls;
            G::chance_outcomes(state, rolls);
            std::uint64_t total = 0;
            for (const auto& roll : rolls) {
                const auto record = G::play(state, roll.roll);
                total += perft<G>(state, depth);
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
        const auto record = G::play(state, move);
        total += perft<G>(state, depth - 1);
        G::undo(state, move, record);
    }
    return total;
}

// Per-move counts at the root, in generation order ("divide").
template <Game G>
std::vector<std::pair<typename G::Move, std::uint64_t>> perft_divide(typename G::State& state, int depth) {
    std::vector<std::pair<typename G::Move, std::uint64_t>> counts;
    if (depth < 1 || G::outcome(state).is_over()) return counts;
    MoveList<G> moves;
    G::generate_moves(state, moves);
    for (const auto& move : moves) {
        const auto record = G::play(state, move);
        counts.emplace_back(move, perft<G>(state, depth - 1));
        G::undo(state, move, record);
    }
    return counts;
}

}  // namespace bge
