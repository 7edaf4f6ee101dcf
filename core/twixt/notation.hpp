#pragma once
// TwixT text: moves as a column letter and a row number, `a1` at the top left as in OpenSpiel's
// action strings (which also carry the player: `xc5`, `oc5`, accepted here), and `swap`;
// positions as a FEN-like line; a board drawing for the `d` command. docs/twixt.md.

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/twixt/rules.hpp"

namespace bge::twixt {

// "c5": column letter from `a` at the left, row number from 1 at the top.
std::string square_name(int square);

// Reads `c5`, `xc5`/`oc5` (the player letter must be the side to move's) or `swap`.
// parse_move_syntax checks only that the cell is on a board of `size`; parse_move also that the
// move is legal. As in OpenSpiel, o naming x's first peg on its first turn means the swap.
Expected<Move> parse_move_syntax(std::string_view text, int size);
Expected<Move> parse_move(const State& state, std::string_view text);
std::string format_move(const State& state, Move move);
// OpenSpiel's action string for a move: the player letter, then the cell; the swap is the first
// peg's cell, as OpenSpiel encodes it.
std::string openspiel_action_string(const State& state, Move move);

// Position text: the rows from the top, '/'-separated, a number being that many empty cells (the
// missing corners count as empty cells), `x` and `o` pegs; then the side to move, `x` or `o`;
// then the bridges, comma-separated pairs of cells such as `c3d5`, or `-` for none. The empty
// 8x8 board: "8/8/8/8/8/8/8/8 x -". The rows give the board size. Whether a swap happened follows
// from the peg counts and the side to move.
Expected<State> parse_position(std::string_view text, const Variant& variant);
std::string format_position(const State& state);

// The pegs (x, o), empty holes (.), and each bridge drawn at its midpoint (/ or \), with the
// column letters and row numbers around, and the bridges listed underneath.
// The board as text, ending with the result line for `outcome`: the engine passes the outcome
// of the game so far (repetition included), so `d` agrees with `query result`.
std::string draw_board(const State& state, const Outcome& outcome);
// The same with the position's own outcome (no history).
std::string draw_board(const State& state);

// "1-0" (x won), "0-1", "1/2-1/2"; "*" while the game goes on.
std::string result_text(const Outcome& outcome);

}  // namespace bge::twixt
