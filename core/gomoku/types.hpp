#pragma once
// Gomoku vocabulary: cells, moves and the rules record (Variant). Covers k in a row on any m x n
// board from 3 x 3 (tic-tac-toe) to 22 x 22, under freestyle, standard (exactly k) or renju.
//
// The board is padded: a ring of wall cells surrounds it inside a fixed 24 x 24 array, so every
// board size shares one layout, a cell's index never depends on the size, and a scan along a
// line stops at the first wall without bounds checks. (x, y) = (0, 0) is the top-left corner,
// as in the pbrain protocol; index = (y + 1) * stride + (x + 1).

#include <array>
#include <cstdint>

namespace bge::gomoku {

constexpr int min_side = 3;
constexpr int max_side = 22;
constexpr int stride = max_side + 2;
constexpr int cell_count = stride * stride;
constexpr int max_board_cells = max_side * max_side;

constexpr int square_at(int x, int y) { return (y + 1) * stride + (x + 1); }
constexpr int x_of(int square) { return square % stride - 1; }
constexpr int y_of(int square) { return square / stride - 1; }

// What a cell holds. `wall` is off the board, or a blocked cell (pbrain's field 3).
enum Cell : std::uint8_t { empty = 0, black = 1, white = 2, wall = 3 };

// The four line directions as index steps: horizontal, vertical, and the two diagonals.
constexpr std::array<int, 4> line_steps{1, stride, stride + 1, stride - 1};

enum class Rule : std::uint8_t {
    freestyle,  // k or more in a row wins
    standard,   // exactly k wins; an overline does not (for either side)
    renju,      // k = 5: Black must make exactly five and may not play double-three, double-four
                // or overline (such a move loses at once); White wins with five or more
};

// The rules chosen at new-game time.
struct Variant {
    int width = 15;
    int height = 15;
    int k = 5;  // stones in a row that win
    Rule rule = Rule::freestyle;
    int move_limit = 0;  // > 0: the game is drawn once this many stones are on the board
    friend bool operator==(const Variant&, const Variant&) = default;
};

// A move is the index of the cell a stone goes on. Index 0 is a wall, so it is never legal.
struct Move {
    std::uint16_t square = 0;
    static constexpr Move at(int x, int y) { return Move{static_cast<std::uint16_t>(square_at(x, y))}; }
    static constexpr Move none() { return Move{0}; }
    constexpr int x() const { return x_of(square); }
    constexpr int y() const { return y_of(square); }
    friend constexpr bool operator==(Move, Move) = default;
};

}  // namespace bge::gomoku
