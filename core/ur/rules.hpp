#pragma once
// Royal Game of Ur rules for the Finkel, Masters and Blitz rulesets (docs/ur.md): the position
// (State, which includes the roll), rolls as chance outcomes, move generation, playing a move and
// the outcome.

#include <cstdint>

#include "core/expected.hpp"
#include "core/fixed_vector.hpp"
#include "core/game.hpp"
#include "core/ur/types.hpp"

namespace bge::ur {

// At most every piece on the board plus an entry; a pass is only ever generated alone.
constexpr std::size_t max_legal_moves = max_pieces + 1;
constexpr std::size_t max_roll_outcomes = 5;
constexpr std::int8_t roll_due = -1;

struct State {
    std::uint32_t tiles[2] = {0, 0};   // tile bits holding a piece, by side (0 = Light)
    std::uint8_t waiting[2] = {0, 0};  // pieces not yet entered
    std::uint8_t scored[2] = {0, 0};   // pieces borne off
    std::int8_t roll = roll_due;       // the number thrown for the side to move, or roll_due
    Side to_move = Side::first;
    Ruleset ruleset = Ruleset::finkel;
    std::uint8_t pieces = 7;  // per side

    Variant variant() const { return {ruleset, pieces}; }
    int path_length() const { return traits_of(ruleset).path_length; }
    friend bool operator==(const State&, const State&) = default;
};

using Undo = State;  // copy-make: a State is 12 bytes

struct Roll {
    int number;
    double probability;
};
using RollList = FixedVector<Roll, max_roll_outcomes>;

// The variant with its piece count resolved (0 -> the ruleset's default), or why it is invalid.
Expected<Variant> resolve_variant(Variant variant);
State start_state(const Variant& variant);
// The dice of the ruleset, each possible number with its probability.
RollList roll_outcomes(Ruleset ruleset);
bool is_chance_node(const State& state);

// The tile a piece at path index `from` (from_pool: entering) of `side` lands on with `roll`
// steps: a tile index, `off_board` when it bears off exactly, `overshoot` past the end.
constexpr int off_board = -1;
constexpr int overshoot = -2;
int landing_tile(const State& state, int side, int from, int roll);

void generate_moves(const State& state, FixedVector<Move, max_legal_moves>& moves);
// Whether `move` may be played now; the error says why not.
Status check_move(const State& state, Move move);

Undo play(State& state, Move move);
void undo(State& state, Move move, const Undo& undo);

Outcome outcome(const State& state);
std::uint64_t hash(const State& state);
// Consistency of a set-up position (piece counts, tiles on the paths, the roll); the error says
// what is wrong.
Status validate(const State& state);

// The path index of `side`'s piece on `tile`, or -1 when the tile is not on that side's path.
int path_index_of(Ruleset ruleset, int side, int tile);
// `side`'s pieces as path indices: bit i = a piece on index i of its own path.
unsigned path_mask(const State& state, int side);
// How far `side` has run: a piece at path index i counts i + 1, a borne-off piece the path
// length + 1 (at most pieces * (path length + 1)).
int race_progress(const State& state, int side);

}  // namespace bge::ur
