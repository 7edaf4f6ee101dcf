#pragma once
// Expendibots vocabulary: squares, bitboards, moves and the (empty) rules record.
//
// Squares are numbered y * 8 + x, where (x, y) are the referee's coordinates: x the column from
// the left (0-7), y the row from the bottom (0-7). White starts on rows 0-1, Black on rows 6-7.
// A stack holds tokens of one colour only (a move may land only on an empty square or an own
// stack), so no stack is taller than the 12 tokens a side starts with.

#include <cstdint>

namespace bge::expendibots {

constexpr int board_size = 8;
constexpr int square_count = 64;
constexpr int tokens_per_side = 12;
constexpr int max_stack_height = tokens_per_side;
constexpr int turns_per_player = 250;
constexpr int max_actions = 2 * turns_per_player;  // the game is drawn after the 500th action
constexpr int repetitions_for_draw = 4;             // a position seen a 4th time is a draw

using Bitboard = std::uint64_t;

constexpr int square_at(int x, int y) { return y * board_size + x; }
constexpr int x_of(int square) { return square & 7; }
constexpr int y_of(int square) { return square >> 3; }
constexpr Bitboard bit(int square) { return Bitboard{1} << square; }

// The rules have no options: one variant. It exists because the Game concept asks for one.
struct Variant {
    friend bool operator==(const Variant&, const Variant&) = default;
};

// An action in 16 bits:
//   bits 0-5    the square the stack moves from, or the square that explodes (BOOM)
//   bits 6-11   the target square (MOVE); 0 for BOOM
//   bits 12-15  the number of tokens moved, 1-12 (MOVE); 0 marks a BOOM
struct Move {
    std::uint16_t bits = 0;

    static constexpr Move boom(int square) { return Move{static_cast<std::uint16_t>(square)}; }
    static constexpr Move step(int from, int to, int count) {
        return Move{static_cast<std::uint16_t>(from | (to << 6) | (count << 12))};
    }

    constexpr bool is_boom() const { return (bits >> 12) == 0; }
    constexpr int from() const { return bits & 63; }  // also the BOOM square
    constexpr int to() const { return (bits >> 6) & 63; }
    constexpr int count() const { return bits >> 12; }

    friend constexpr bool operator==(Move, Move) = default;
};

}  // namespace bge::expendibots
