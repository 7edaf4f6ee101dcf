#pragma once
// Gomoku rules: the position (State), move generation, playing and undoing moves, the outcome,
// and renju's forbidden moves. Exact rules: docs/gomoku.md.

#include <cstdint>
#include <optional>

#include "core/fixed_vector.hpp"
#include "core/game.hpp"
#include "core/gomoku/types.hpp"

namespace bge::gomoku {

constexpr std::size_t max_legal_moves = max_board_cells;

// How the game stands, kept in the state because it depends on the last move.
enum class Result : std::uint8_t { ongoing, first_five, second_five, first_forbidden, board_full, move_limit };

struct State {
    std::array<std::uint8_t, cell_count> cells;  // Cell values; everything off the board is wall
    std::uint64_t hash;
    std::uint16_t stones;    // stones on the board (blocked cells do not count)
    std::uint16_t playable;  // cells of the board that are not blocked
    std::uint16_t last;      // square of the last stone, 0 if none
    std::uint16_t move_limit;
    std::uint8_t width, height, k;
    Rule rule;
    Result result;
    // 1 when the side to move is not the one the stone count implies: a pbrain BOARD with
    // stone counts no game reaches, or a search's null move. 0 in every game played from a start.
    std::uint8_t turn_offset;

    Side side_to_move() const { return static_cast<Side>((stones + turn_offset) & 1); }
    bool on_board(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
};

constexpr std::uint8_t stone_of(Side side) { return side == Side::first ? black : white; }

struct Undo {
    std::uint16_t last;
    Result result;
};

// Sizes from min_side to max_side, k from 3 to the longer side; renju needs k = 5. An error
// names what is wrong.
Expected<Variant> check_variant(const Variant& variant);

State start_state(const Variant& variant);
Variant variant_of(const State& state);

// Every empty cell, row by row from the top left.
void generate_moves(const State& state, FixedVector<Move, max_legal_moves>& moves);
std::uint64_t count_moves(const State& state);
bool is_legal(const State& state, Move move);

Undo play(State& state, Move move);
void undo(State& state, Move move, const Undo& undo);

Outcome outcome(const State& state);

// Stones of `stone` in an unbroken line through `square` along `step` (the square counts as one
// of them whatever it holds).
int line_length(const State& state, int square, int step, std::uint8_t stone);
// Whether a stone of `stone` on empty `square` would win at once under the state's rules (for
// Black under renju: exactly five).
bool wins_at(const State& state, int square, std::uint8_t stone);

// Renju: whether Black placing a stone on the empty `square` would be forbidden (overline,
// double-four or double-three, with threes judged recursively), a five taking precedence.
bool is_forbidden(const State& state, int square);

// Recomputes the hash from the cells (tests compare it with the incremental one).
std::uint64_t compute_hash(const State& state);
// Recomputes stones, playable cells, hash and the result from the cells (after building a
// position by hand). The result is a win for whoever has a winning line; an error when both do,
// or when the side to move already has one.
// With `to_move`, that side moves whatever the stone counts (a pbrain BOARD the brain must
// answer); without it, the counts decide and must be ones a game can reach.
Status rebuild_derived(State& state, std::optional<Side> to_move = std::nullopt);

// Hands the move to the other side without a stone (search only: a null move; not a legal move
// of the game). Calling it twice restores the state.
void pass_turn(State& state);

}  // namespace bge::gomoku
