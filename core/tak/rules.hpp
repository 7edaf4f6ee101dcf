#pragma once
// Tak rules: the position (State), move generation, playing and undoing moves, and the outcome.
// Exact rules: docs/tak.md.

#include <cstdint>

#include "core/fixed_vector.hpp"
#include "core/game.hpp"
#include "core/tak/types.hpp"

namespace bge::tak {

// Upper bound on legal moves in any position. A stack of height h moves at most
// 2 * sum_{j<N} C(min(h,N), j) ways per pair of opposite directions; per piece in the stack that
// peaks at 508/8 on 8x8, and 8x8 has 104 pieces: 104 * 64 + 192 placements + capstone
// flattenings (4 caps * 4 directions * 128) < 9216.
constexpr std::size_t max_legal_moves = 9216;

struct State {
    StackBits stack_colors[square_count];  // bit i = colour of piece i from the bottom, 1 = black
    std::uint8_t height[square_count];
    Bitboard top_white;  // squares whose top piece is White's
    Bitboard top_black;
    Bitboard walls;  // squares whose top piece is a wall
    Bitboard caps;   // squares whose top piece is a capstone
    std::uint64_t hash;
    std::uint16_t ply;  // plies played since the start of the game
    std::uint8_t size;
    std::uint8_t stones_left[2];
    std::uint8_t caps_left[2];
    std::int8_t half_komi;
    bool repetition_draw;

    Side side_to_move() const { return static_cast<Side>(ply & 1); }
    bool in_opening() const { return ply < 2; }  // the first two plies place the opponent's flat
    Bitboard occupied() const { return top_white | top_black; }
    Bitboard top_of(Side side) const { return side == Side::first ? top_white : top_black; }
    Bitboard road_squares(Side side) const { return top_of(side) & ~walls; }
    Stone top_stone(int square) const {
        return (walls & bit(square)) ? Stone::wall : (caps & bit(square)) ? Stone::cap : Stone::flat;
    }
    // Colour of the piece `depth` places below the top of the stack (0 = top).
    Side color_at(int square, int level) const {
        return static_cast<Side>(static_cast<int>((stack_colors[square] >> level) & 1));
    }
};

struct Undo {
    std::uint64_t hash;
    bool flattened_wall;
};

// Board geometry for one size.
struct Geometry {
    Bitboard board;
    Bitboard bottom_row, top_row, left_column, right_column;
    std::uint8_t steps_to_edge[square_count][4];  // by Direction
};
const Geometry& geometry(int size);

State start_state(const Variant& variant);
Variant variant_of(const State& state);

void generate_moves(const State& state, FixedVector<Move, max_legal_moves>& moves);
// The spreads of the stack on `square` towards `direction`, as generate_moves makes them for the
// stack's owner (whoever is to move); none for an empty square. At most 255 drop patterns exist.
using SpreadList = FixedVector<Move, 256>;
void spreads_from(const State& state, int square, Direction direction, SpreadList& moves);
std::uint64_t count_moves(const State& state);
bool is_legal(const State& state, Move move);

Undo play(State& state, Move move);
void undo(State& state, Move move, const Undo& undo);
// Passing is not a Tak move; searches use it for null-move pruning (never in the opening plies).
Undo play_null(State& state);
void undo_null(State& state, const Undo& undo);

bool has_road(const State& state, Side side);
Outcome outcome(const State& state);
// Flats on top for each side, without komi.
int flat_count(const State& state, Side side);
int pieces_left(const State& state, Side side);

// Recomputes the Zobrist hash from scratch (tests compare it with the incremental one).
std::uint64_t compute_hash(const State& state);
// Recomputes the bitboards and reserves from the stacks; used after building a position by hand.
void rebuild_derived(State& state);

// Whether playing `move` would flatten a wall (for the PTN `*` mark).
bool flattens_wall(const State& state, Move move);

}  // namespace bge::tak
