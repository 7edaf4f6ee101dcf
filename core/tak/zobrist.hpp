#pragma once
// Zobrist keys for Tak: one key per (square, height in stack, colour), plus keys for a wall or a
// capstone on top of a square, plus the side to move. Reserves need no keys: they follow from the
// pieces on the board.

#include <cstdint>

#include "core/tak/types.hpp"

namespace bge::tak::zobrist {

struct Keys {
    std::uint64_t piece[square_count][max_stack_height][2];
    std::uint64_t wall[square_count];
    std::uint64_t cap[square_count];
    std::uint64_t black_to_move;
};

const Keys& keys();

}  // namespace bge::tak::zobrist
