#pragma once
// Tak vocabulary: squares, bitboards, pieces, moves and the rules record (Variant).
//
// Squares use a fixed stride of 8 whatever the board size: index = row * 8 + column, row 0 is
// rank 1 (the bottom), column 0 is file a. One 64-bit bitboard layout then serves sizes 3 to 8.

#include <array>
#include <bit>
#include <cstdint>

namespace bge::tak {

constexpr int min_size = 3;
constexpr int max_size = 8;
constexpr int stride = 8;
constexpr int square_count = 64;  // stride * stride; squares off the board are never set

using Bitboard = std::uint64_t;
// Colours of a stack, bit i = piece i from the bottom, 1 = black. 128 bits hold the tallest
// possible stack: an 8x8 game has 104 pieces in all.
__extension__ using StackBits = unsigned __int128;
constexpr int max_stack_height = 128;

constexpr int square_at(int column, int row) { return row * stride + column; }
constexpr int column_of(int square) { return square % stride; }
constexpr int row_of(int square) { return square / stride; }
constexpr Bitboard bit(int square) { return Bitboard{1} << square; }

enum class Stone : std::uint8_t { flat = 0, wall = 1, cap = 2 };

// + up (towards higher ranks), - down, > right (towards higher files), < left.
enum class Direction : std::uint8_t { up = 0, down = 1, right = 2, left = 3 };
constexpr std::array<Direction, 4> all_directions{Direction::up, Direction::down, Direction::right, Direction::left};
constexpr int step_of(Direction d) {
    constexpr int steps[4] = {stride, -stride, 1, -1};
    return steps[static_cast<int>(d)];
}

// Stones and capstones each player starts with, by board size.
struct Reserves {
    int stones;
    int caps;
};
constexpr Reserves reserves_for(int size) {
    constexpr Reserves table[9] = {{0, 0}, {0, 0}, {0, 0}, {10, 0}, {15, 0}, {21, 1}, {30, 1}, {40, 2}, {50, 2}};
    return table[size];
}

// The rules chosen at new-game time.
struct Variant {
    int size = 6;
    int half_komi = 0;             // komi in half flats, added to Black's flat count
    bool repetition_draw = false;  // threefold repetition draws (an arbiter option; off in standard Tak)
    friend bool operator==(const Variant&, const Variant&) = default;
};

// A move in 16 bits.
//   bits 0-5   square (the placement square, or the square the spread starts from)
//   bits 6-7   Stone for a placement, Direction for a spread
//   bits 8-15  drop pattern; 0 means placement.
// The drop pattern describes a spread of k pieces as k bits, bit i for the i-th carried piece
// counted from the bottom of the carried stack (the first piece dropped). A set bit marks the last
// piece dropped on a square, so the top bit is always set: k = bit width, squares = popcount.
// Example: 3a1>12 carries 3 and drops 1 then 2: pieces 0 | 1 2 -> bits 0b101.
struct Move {
    std::uint16_t bits = 0;

    static constexpr Move place(int square, Stone stone) {
        return Move{static_cast<std::uint16_t>(square | (static_cast<int>(stone) << 6))};
    }
    static constexpr Move spread(int square, Direction direction, std::uint8_t pattern) {
        return Move{static_cast<std::uint16_t>(square | (static_cast<int>(direction) << 6) | (pattern << 8))};
    }
    // A value that is never a legal move (carrying 8 from h8 leftwards across 8 squares).
    static constexpr Move none() { return Move{0xFFFF}; }

    constexpr int square() const { return bits & 63; }
    constexpr bool is_placement() const { return (bits >> 8) == 0; }
    constexpr Stone stone() const { return static_cast<Stone>((bits >> 6) & 3); }
    constexpr Direction direction() const { return static_cast<Direction>((bits >> 6) & 3); }
    constexpr std::uint8_t pattern() const { return static_cast<std::uint8_t>(bits >> 8); }
    constexpr int carry() const { return std::bit_width(pattern()); }
    constexpr int squares_crossed() const { return std::popcount(pattern()); }

    friend constexpr bool operator==(Move, Move) = default;
};

}  // namespace bge::tak
