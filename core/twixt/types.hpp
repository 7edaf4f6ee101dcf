#pragma once
// TwixT vocabulary: cells, knight directions, moves and the rules record (Variant). The variant is
// the paper-and-pencil one of OpenSpiel's `twixt` game (docs/twixt.md): no bridge removal, no
// crossing of any bridge, pie rule by a quarter-turn swap, a draw when the mover has no placement.
//
// The board is padded: three rings of off-board cells surround it inside a fixed 30 x 30 array,
// so every size shares one layout and a knight's step (or a crossing bridge's far end, at most
// three cells away) never leaves the array. (column, row) = (0, 0) is the top-left cell `a1`;
// index = (row + 3) * stride + (column + 3).

#include <array>
#include <cstdint>

namespace bge::twixt {

constexpr int min_size = 5;
constexpr int max_size = 24;
constexpr int default_size = 24;
constexpr int padding = 3;
constexpr int stride = max_size + 2 * padding;
constexpr int cell_count = stride * stride;

constexpr int square_at(int column, int row) { return (row + padding) * stride + (column + padding); }
constexpr int column_of(int square) { return square % stride - padding; }
constexpr int row_of(int square) { return square / stride - padding; }

// What a cell holds. `off` is outside the board or one of its four missing corners.
enum Cell : std::uint8_t { empty = 0, first_peg = 1, second_peg = 2, off = 3 };

// The eight knight's steps as (column, row) offsets, rows growing downwards. Direction d + 4 is
// the reverse of d, so a bridge is stored at both ends: as d at one, as d + 4 (mod 8) at the other.
constexpr std::array<std::array<int, 2>, 8> knight_offsets{
    {{1, -2}, {2, -1}, {2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}}};
constexpr int reverse_direction(int direction) { return (direction + 4) & 7; }
constexpr int knight_step(int direction) {
    return knight_offsets[direction][1] * stride + knight_offsets[direction][0];
}

// The rules chosen at new-game time: only the board size varies.
struct Variant {
    int size = default_size;
    friend bool operator==(const Variant&, const Variant&) = default;
};

// A move is the index of the cell a peg goes on, or the pie-rule swap. Indices 0 and 1 are
// padding, so they are never a cell.
struct Move {
    std::uint16_t square = 0;
    static constexpr std::uint16_t swap_code = 1;
    static constexpr Move at(int column, int row) { return Move{static_cast<std::uint16_t>(square_at(column, row))}; }
    static constexpr Move swap() { return Move{swap_code}; }
    static constexpr Move none() { return Move{0}; }
    constexpr bool is_swap() const { return square == swap_code; }
    friend constexpr bool operator==(Move, Move) = default;
};

}  // namespace bge::twixt
