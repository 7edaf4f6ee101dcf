#pragma once
// Uniformly random playouts, as fast as the rules allow: the empty cells are kept in an array and
// removed by swapping with the last, and only the line through each new stone is checked for a
// win (under renju, Black's stones are also checked for forbidden shapes, which costs more).

#include <cstdint>

#include "core/gomoku/rules.hpp"
#include "core/random.hpp"

namespace bge::gomoku {

struct PlayoutResult {
    int winner = -1;  // Side index of the winner, -1 for a draw
    int plies = 0;    // stones played in the playout
};

inline PlayoutResult random_playout(const State& start, Random& random) {
    PlayoutResult result;
    const Outcome before = outcome(start);
    if (before.is_over()) {
        if (before.kind == OutcomeKind::win) result.winner = index_of(before.winner);
        return result;
    }
    State s = start;
    std::uint16_t free_cells[max_board_cells];
    int count = 0;
    for (int y = 0; y < s.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < s.width; ++x)
            if (s.cells[static_cast<std::size_t>(row + x)] == empty)
                free_cells[count++] = static_cast<std::uint16_t>(row + x);
    }
    int mover = index_of(s.side_to_move());
    int stones = s.stones;
    const bool renju = s.rule == Rule::renju;
    while (count > 0) {
        const std::uint32_t pick = random.below(static_cast<std::uint32_t>(count));
        const int square = free_cells[pick];
        free_cells[pick] = free_cells[--count];
        const std::uint8_t stone = mover == 0 ? black : white;
        ++result.plies;
        if (wins_at(s, square, stone)) {
            result.winner = mover;
            return result;
        }
        if (renju && stone == black && is_forbidden(s, square)) {
            result.winner = 1;
            return result;
        }
        s.cells[static_cast<std::size_t>(square)] = stone;
        ++stones;
        if (s.move_limit > 0 && stones >= s.move_limit) return result;
        mover ^= 1;
    }
    return result;
}

}  // namespace bge::gomoku
