#pragma once
// TwixT rules: the position (State), move generation, playing and undoing moves, the outcome.
// Exact rules and every choice: docs/twixt.md.
//
// Connection is kept by a union-find over the pegs and four virtual border nodes, with union by
// size and no path compression, so every union can be undone in make/unmake order.

#include <array>
#include <cstdint>
#include <vector>

#include "core/expected.hpp"
#include "core/fixed_vector.hpp"
#include "core/game.hpp"
#include "core/twixt/types.hpp"

namespace bge::twixt {

// Every cell but the corners, plus the swap: more than either side can ever have.
constexpr std::size_t max_legal_moves = max_size * max_size;

// Union-find nodes: every cell, then the borders (x's top and bottom rows, o's left and right).
constexpr int top_border = cell_count;
constexpr int bottom_border = cell_count + 1;
constexpr int left_border = cell_count + 2;
constexpr int right_border = cell_count + 3;
constexpr int node_count = cell_count + 4;

enum class Result : std::uint8_t { ongoing, first_wins, second_wins, draw };

struct State {
    std::array<std::uint8_t, cell_count> cells;  // Cell values
    std::array<std::uint8_t, cell_count> links;  // bit d: a bridge from here in knight direction d
    // bit d: a bridge from here in direction d would cross a bridge already built (kept with the
    // links, so the test is one lookup instead of nine)
    std::array<std::uint8_t, cell_count> blocked;
    std::array<std::uint16_t, node_count> parent;
    std::array<std::uint16_t, node_count> set_size;
    std::uint64_t hash;
    std::uint16_t plies;                // moves played; the swap counts as one
    std::uint16_t first_move;           // x's first peg while o may still swap it; 0 otherwise
    std::array<std::uint16_t, 2> open;  // empty cells each side may place on
    std::uint8_t size;
    bool swapped;
    Result result;

    Side side_to_move() const { return (plies & 1) ? Side::second : Side::first; }
    bool on_board(int column, int row) const {
        return column >= 0 && row >= 0 && column < size && row < size && cells[square_at(column, row)] != off;
    }
    bool swap_available() const { return plies == 1 && first_move != 0 && result == Result::ongoing; }
};

constexpr std::uint8_t peg_of(Side side) { return side == Side::first ? first_peg : second_peg; }

// Whether `side` may ever place on `square` (on the board, not on the opponent's border line).
inline bool playable_for(const State& s, Side side, int square) {
    if (s.cells[square] == off) return false;
    if (side == Side::first) {
        const int column = column_of(square);
        return column != 0 && column != s.size - 1;
    }
    const int row = row_of(square);
    return row != 0 && row != s.size - 1;
}

struct Undo {
    std::uint64_t hash;
    std::uint16_t first_move;
    Result result;
    std::uint8_t bridges;  // directions of the bridges the move added
    std::uint8_t unions;
    std::array<std::uint16_t, 10> attached;  // roots attached below another, in order
    // Links the move's bridges newly blocked, as (cell << 2 | direction 0-3), to unblock on undo;
    // a move blocking more (three bridges or more) has them recomputed instead.
    std::uint8_t newly_blocked_count;
    bool newly_blocked_overflow;
    std::array<std::uint16_t, 20> newly_blocked;
};

// Sizes from min_size to max_size; an error names what is wrong.
Expected<Variant> check_variant(const Variant& variant);

State start_state(const Variant& variant);
inline Variant variant_of(const State& state) { return Variant{state.size}; }

// OpenSpiel's action order: columns from a, within a column rows from the bottom; the swap sits
// where OpenSpiel lists it, at the first peg's cell.
void generate_moves(const State& state, FixedVector<Move, max_legal_moves>& moves);
std::uint64_t count_moves(const State& state);
bool is_legal(const State& state, Move move);

Undo play(State& state, Move move);
void undo(State& state, Move move, const Undo& undo);

Outcome outcome(const State& state);

// Whether `move` (legal in `state`) ends the game, by a connection or by leaving the next mover
// no placement: what play() then outcome() would say, without changing the position.
bool ends_game(const State& state, Move move);

// The union-find root of a node (a cell or a border).
inline int find_root(const State& s, int node) {
    while (s.parent[node] != node) node = s.parent[node];
    return node;
}
inline bool connected(const State& s, int a, int b) { return find_root(s, a) == find_root(s, b); }

// Where the swap puts o's peg: x's first peg turned a quarter turn clockwise, (column, row) ->
// (size - 1 - row, column). In OpenSpiel's coordinates (x = column, y = size - 1 - row) that is
// (x, y) -> (y, size - 1 - x).
int swapped_square(int size, int square);

// Whether a bridge from `square` in `direction` would cross a bridge already on the board.
inline bool bridge_blocked(const State& state, int square, int direction) {
    return (state.blocked[square] >> direction) & 1u;
}

// The bridges a `peg` placed on `square` gets: bit d for an own peg a knight's move away in
// direction d whose bridge would cross none already built. Bridges from one peg never cross each
// other, so every one of them is made.
inline std::uint8_t new_bridges(const State& state, int square, std::uint8_t peg) {
    std::uint8_t bridges = 0;
    for (int d = 0; d < 8; ++d)
        if (state.cells[square + knight_step(d)] == peg && !bridge_blocked(state, square, d))
            bridges |= static_cast<std::uint8_t>(1u << d);
    return bridges;
}

// The bridges that cross a bridge from the origin in `direction`, each as (column offset, row
// offset, direction) of one of its ends; derived geometrically at start-up (9 per direction).
struct Crossing {
    int column, row, direction;
};
const FixedVector<Crossing, 16>& crossings(int direction);

// Builds a position from pegs and bridges (after parsing a position text). Checks that every
// bridge joins two pegs of one colour a knight's move apart and that no two bridges cross; then
// recomputes the union-find, the counts, the hash and the result.
struct Bridge {
    int from, direction;
};
Status rebuild(State& state, Side to_move, const std::vector<Bridge>& bridges);

std::uint64_t compute_hash(const State& state);

}  // namespace bge::twixt
