#pragma once
// Moves as the playtak server writes them, to and from our Tak moves (PTN).
//
//   server                 PTN
//   P A1                   a1        a flat
//   P A1 W / P A1 C        Sa1 / Ca1 a wall / a capstone
//   M A1 C1 1 2            3a1>12    a spread from A1 towards C1, dropping 1 then 2
//
// Server squares are uppercase (lowercase is accepted too). A spread lists one drop count for
// every square after the start, up to and including the end square, so the end square is as far
// from the start as there are counts.

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/tak/rules.hpp"

namespace bge::playtak {

// The server's move words ("P A1 W", "M A1 C1 1 2") as PTN, checked against the board size only.
Expected<std::string> server_move_to_ptn(std::string_view server_move, int size);
// The same, and checked for legality in `state`.
Expected<tak::Move> parse_server_move(const tak::State& state, std::string_view server_move);
// Our move in the server's words: "P A1", "P A1 W", "M A1 C1 1 2".
std::string format_server_move(tak::Move move);
// A PTN move (as an engine's bestmove) in the server's words, checked for legality in `state`.
Expected<std::string> ptn_to_server_move(const tak::State& state, std::string_view ptn);

}  // namespace bge::playtak
