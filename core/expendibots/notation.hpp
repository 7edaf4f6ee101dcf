#pragma once
// Expendibots text (docs/expendibots.md, "Notation"):
// - compact moves, one word each (as UGI move lists need): `c2c4` and `3c2c5` (MOVE 1 or 3
//   tokens from c2), `xc2` (BOOM at c2). Squares are a1-h8: the file letter is the referee's x
//   (a = 0), the rank digit is y + 1 (rank 1 = y 0, White's back row);
// - the referee's action tuples: ("MOVE", 3, (2, 1), (2, 4)) and ("BOOM", (2, 1));
// - the referee's log lines: "MOVE 3 from (2, 1) to (2, 4)." and "BOOM at (2, 1).";
// - positions as FEN: "<rows y=7..0, '/'-separated, cells ','-separated> <w|b> <actions>",
//   cells `x`/`x<n>` (n empty squares), `w<h>`/`b<h>` (a stack of height h; `w` = `w1`).

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/expendibots/rules.hpp"

namespace bge::expendibots {

std::string square_name(int square);  // "a1" .. "h8"
Expected<int> parse_square(std::string_view text);

// Compact text only, checked against the board but not against the position.
Expected<Move> parse_move_syntax(std::string_view text);
// Any of the three forms (compact, tuple, log line, with or without a "[white] - " prefix), then
// checked for legality in `state`; the error says why a move is illegal.
Expected<Move> parse_move(const State& state, std::string_view text);
std::string format_move(Move move);  // compact: the count is left out when it is 1

// ("MOVE", n, (x, y), (x2, y2)) / ("BOOM", (x, y)); either quote style, any spacing.
std::string format_action_tuple(Move move);
Expected<Move> parse_action_tuple(std::string_view text);
// MOVE n from (x, y) to (x2, y2). / BOOM at (x, y).  (the final '.' is optional when reading)
std::string format_log_line(Move move);
Expected<Move> parse_log_line(std::string_view text);

Expected<State> parse_fen(std::string_view text);
std::string format_fen(const State& state);

// The referee's board (its ASCII template: White stacks "(n)", Black "[n]", heights in hex),
// then FEN, side to move, action count, hash and result lines.
// The board as text, ending with the result line for `outcome`: the engine passes the outcome
// of the game so far (repetition included), so `d` agrees with `query result`.
std::string draw_board(const State& state, const Outcome& outcome);
// The same with the position's own outcome (no history).
std::string draw_board(const State& state);

// "1-0", "0-1", "1/2-1/2"; "*" while the game goes on.
std::string result_text(const Outcome& outcome);
// The referee's closing message: "winner: white", "draw detected: no tokens remaining",
// "draw detected: maximum number of turns reached.", "draw detected: game state occurred 4 times."
std::string referee_result_message(const Outcome& outcome);

}  // namespace bge::expendibots
