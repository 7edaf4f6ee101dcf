#pragma once
// Expendibots rules (COMP30024 2020 referee): the position (State), move generation, playing
// and undoing actions, explosions, and the outcome. Exact rules: docs/expendibots.md.

#include <cstdint>

#include "core/expendibots/types.hpp"
#include "core/fixed_vector.hpp"
#include "core/game.hpp"

namespace bge::expendibots {

// Upper bound on legal actions. A stack of height h has one BOOM and h * (targets) MOVEs, with
// at most min(4h, 14) targets (14 squares share its row or column). Over stacks holding at most
// 12 tokens that sum peaks below 180 (three stacks of 4: 3 * (4 * 14 + 1) = 171).
constexpr std::size_t max_legal_moves = 192;

struct State {
    Bitboard white;  // squares holding a white stack
    Bitboard black;
    std::uint8_t height[square_count];  // 0 on empty squares
    std::uint64_t hash;                 // Zobrist hash of the board and the side to move
    std::uint16_t actions;              // actions played since the start, both sides (the turn limit)
    std::uint8_t tokens[2];             // tokens on the board, by Side
    Side to_move;
    // Tokens destroyed by the action that led here (0 after a MOVE or at a set-up position). Not
    // part of the position: the search reads it to tell a sudden swing from a quiet leaf.
    std::uint8_t last_destroyed;

    Side side_to_move() const { return to_move; }
    Bitboard occupied() const { return white | black; }
    Bitboard stacks_of(Side side) const { return side == Side::first ? white : black; }
};

// Copy-make: an explosion can remove up to 24 stacks, so undo restores the whole position.
using Undo = State;

State start_state(const Variant& variant = {});

void generate_moves(const State& state, FixedVector<Move, max_legal_moves>& moves);
std::uint64_t count_moves(const State& state);
bool is_legal(const State& state, Move move);

Undo play(State& state, Move move);
void undo(State& state, Move move, const Undo& undo);
// Passing is not an Expendibots action; searches use it for null-move pruning. It changes the
// side to move only (not the action count, so the turn limit is unaffected).
Undo play_null(State& state);
void undo_null(State& state, const Undo& undo);

// Every square a BOOM at `square` destroys: the stacks 8-connected to it through occupied
// squares, of either colour (the chain reaction). Empty when `square` is empty.
Bitboard blast_area(const State& state, int square);
// Tokens on the given squares, both colours together.
int tokens_on(const State& state, Bitboard squares);

// Checked in the referee's order: both sides without tokens is a draw ("no tokens"); one side
// without tokens loses ("elimination"); then the 500-action limit ("turn limit"). Repetition
// needs the history: GameRecord and the search apply it (repetition_limit() = 4).
Outcome outcome(const State& state);

// Recomputes the Zobrist hash from scratch (tests compare it with the incremental one).
std::uint64_t compute_hash(const State& state);
// Recomputes hash and token counts from the stacks; used after building a position by hand.
void rebuild_derived(State& state);

// Squares at orthogonal distance 1..reach from `square` (reach is clamped to 1..7).
Bitboard orthogonal_reach(int square, int reach);
// The 8 squares around each set square (never wrapping around a row end).
Bitboard king_neighbours(Bitboard squares);

}  // namespace bge::expendibots
