#pragma once
// Bitboard helpers on the stride-8 layout (see types.hpp).

#include <bit>

#include "core/tak/types.hpp"

namespace bge::tak {

// Orthogonal neighbours of every set square (never wrapping around a row end).
constexpr Bitboard neighbours(Bitboard squares) {
    constexpr Bitboard not_file_a = ~0x0101010101010101ULL;
    constexpr Bitboard not_file_h = ~0x8080808080808080ULL;
    return (squares << 8) | (squares >> 8) | ((squares << 1) & not_file_a) | ((squares >> 1) & not_file_h);
}

// Every square of `within` orthogonally connected to `seed` (seed squares outside `within` are
// dropped).
constexpr Bitboard flood(Bitboard seed, Bitboard within) {
    Bitboard reached = seed & within;
    while (true) {
        const Bitboard grown = (reached | neighbours(reached)) & within;
        if (grown == reached) return reached;
        reached = grown;
    }
}

constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr int lowest_square(Bitboard b) { return std::countr_zero(b); }

}  // namespace bge::tak
