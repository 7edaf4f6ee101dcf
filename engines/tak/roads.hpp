#pragma once
// Road knowledge the evaluation, the quiescence search and the tinuë search share: which moves
// finish a road at once, and how far each side is from one.
//
// "Road in one" means a move that completes a road for its mover right now. Placements are found
// with two floods per axis; spreads by playing only those that could possibly connect (a cheap
// bitboard bound discards almost every stack and direction first).

#include <cstdint>

#include "core/tak/tak.hpp"

namespace bge::tak {

// Empty squares where a placement (flat or capstone) by `side` completes a road. Empty when
// `side` has nothing left to place or in the opening plies.
Bitboard road_in_one_squares(const State& state, Side side);

// A move by `side` that completes a road for `side` at once (a placement first, else a spread),
// or Move::none(). `side` need not be the side to move: the opponent's threats are asked for
// with the same call. The state is played on and restored.
Move winning_road_move(State& state, Side side);
inline bool has_road_in_one(State& state, Side side) { return !(winning_road_move(state, side) == Move::none()); }

// Placements `side` needs, at least, to finish a road (0: there is one), counting own flats and
// capstones as free, empty squares as one each and everything else as impassable; `limit` + 1
// when it is further than `limit` (or impossible). `per_axis` receives the vertical (bottom to
// top) and horizontal distances.
// A move by `side` that wins at once: a road (winning_road_move), or the placement that ends the
// game on flats with `side` ahead (its last piece, or the last empty square). Move::none() if none.
Move winning_move(State& state, Side side);

int road_distance(const State& state, Side side, int limit, int per_axis[2] = nullptr);

}  // namespace bge::tak
