#pragma once
// Gomoku text: moves as algebraic `h8` (column letter from `a` at the left, row number from 1 at
// the bottom) or as pbrain's 0-based `x,y` (from the top-left corner); positions as a FEN-like
// line; a board drawing for the `d` command.

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/gomoku/rules.hpp"

namespace bge::gomoku {

// "h8" on a board `height` rows tall.
std::string square_name(int square, int height);
// "7,7": pbrain's coordinates.
std::string xy_text(Move move);

// Reads `h8` or `x,y` (no spaces inside). parse_move_syntax checks only that the cell is on the
// board; parse_move also that it is empty and the game goes on.
Expected<Move> parse_move_syntax(std::string_view text, int width, int height);
Expected<Move> parse_move(const State& state, std::string_view text);
std::string format_move(const State& state, Move move);

// Position text: the rows from the top, '/'-separated; in a row a number is that many empty
// cells, `x` a Black stone (the first player), `o` a White stone, `#` a blocked cell; then the
// side to move, `x` or `o`. The empty 15x15 board: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x".
// The rows give the board size; k, the rule and the move limit come from `variant`.
Expected<State> parse_position(std::string_view text, const Variant& variant);
std::string format_position(const State& state);

// The board as text, ending with the result line for `outcome`: the engine passes the outcome
// of the game so far (repetition included), so `d` agrees with `query result`.
std::string draw_board(const State& state, const Outcome& outcome);
// The same with the position's own outcome (no history).
std::string draw_board(const State& state);

// "1-0" (first player won), "0-1", "1/2-1/2"; "*" while the game goes on.
std::string result_text(const Outcome& outcome);

std::string_view rule_name(Rule rule);
Expected<Rule> parse_rule(std::string_view text);

}  // namespace bge::gomoku
