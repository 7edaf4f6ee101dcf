#pragma once
// Royal Game of Ur text (docs/ur.md, "Notation"):
// - tiles: RoyalUr's names, A1-C8 (A5, A6, C5, C6 do not exist);
// - moves, one word each: `A2B2` (the piece on A2 moves to B2), `onA3` (a new piece enters on A3),
//   `A7off` (the piece on A7 bears off), `pass`; at a chance node the roll `r0`-`r4`;
// - positions: "<column A>/<column B>/<column C> <light waiting>,<light scored> <dark waiting>,<dark
//   scored> <l|d> <roll 0-4, or - when a roll is due>", each column rows 1-8 as `.` (empty), `L`,
//   `D`, `_` (no tile). The start: "....__../......../....__.. 7,0 7,0 l -".

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/ur/rules.hpp"

namespace bge::ur {

std::string tile_name(int tile);  // "A1" .. "C8"
Expected<int> parse_tile(std::string_view text);

// Parsed, then checked for legality in `state`; the error says why a move is illegal.
Expected<Move> parse_move(const State& state, std::string_view text);
std::string format_move(const State& state, Move move);

// The variant supplies the ruleset; the piece count in the text must match it.
Expected<State> parse_position(const Variant& variant, std::string_view text);
std::string format_position(const State& state);

// The board as text, ending with the result line for `outcome`: the engine passes the outcome
// of the game so far (repetition included), so `d` agrees with `query result`.
std::string draw_board(const State& state, const Outcome& outcome);
// The same with the position's own outcome (no history).
std::string draw_board(const State& state);
std::string result_text(const Outcome& outcome);  // "1-0", "0-1", "*"

}  // namespace bge::ur
