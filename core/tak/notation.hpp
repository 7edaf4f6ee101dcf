#pragma once
// Tak text: PTN moves and TPS positions (https://ustak.org/portable-tak-notation/), and a board
// drawing for the `d` command.

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/tak/rules.hpp"

namespace bge::tak {

std::string square_name(int square);

// PTN move text. Accepts `c2+` and `1c2+1`, an optional F/S/C placement prefix and the trailing
// marks * ' " ! ?. parse_move_syntax checks only the text against the board size;
// parse_move also checks that the move is legal in the position.
Expected<Move> parse_move_syntax(std::string_view text, int size);
Expected<Move> parse_move(const State& state, std::string_view text);
// Shortest PTN: `a1`, `Sa1`, `Ca1`, `a1>`, `3a1>12`. With mark_flattening, a capstone move that
// flattens a wall gets the `*` mark.
std::string format_move(Move move);
std::string format_move(const State& state, Move move, bool mark_flattening);

// TPS: "<rows from the top, '/'-separated> <player 1|2> <move number>". Reads compressed (x3)
// and uncompressed (x,x,x) rows; writes compressed. Komi and the repetition rule come from
// `variant` (the size comes from the TPS itself).
Expected<State> parse_tps(std::string_view text, const Variant& variant);
std::string format_tps(const State& state);

// A readable drawing of the board: one line per rank, stacks bottom to top.
// The board as text, ending with the result line for `outcome`: the engine passes the outcome
// of the game so far (repetition included), so `d` agrees with `query result`.
std::string draw_board(const State& state, const Outcome& outcome);
// The same with the position's own outcome (no history).
std::string draw_board(const State& state);

// PTN result text for a finished game: R-0, 0-R, F-0, 0-F, 1/2-1/2; "*" while it goes on.
std::string result_text(const Outcome& outcome);

}  // namespace bge::tak
