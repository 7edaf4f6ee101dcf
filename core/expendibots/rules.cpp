#include "core/expendibots/rules.hpp"

#include <array>
#include <bit>

#include "core/random.hpp"

namespace bge::expendibots {

namespace {

constexpr Bitboard not_column_0 = ~0x0101010101010101ULL;
constexpr Bitboard not_column_7 = ~0x8080808080808080ULL;

// Zobrist keys: one per (square, colour, height) for a whole stack, since a stack is one
// colour (height 0, an empty square, has key 0, so a move needs no special case for emptying or
// filling a square); and one for Black to move. The action count is not hashed: the referee's repetition
// rule compares the board and the side to move only.
struct Keys {
    std::uint64_t stack[square_count][2][max_stack_height + 1];
    std::uint64_t black_to_move;
};

Keys make_keys() {
    Keys keys{};
    std::uint64_t seed = 0xE8BD'2020'0000'0001ULL;  // fixed, so hashes are the same in every run
    for (auto& square : keys.stack)
        for (auto& colour : square)
            for (int height = 1; height <= max_stack_height; ++height) colour[height] = splitmix64(seed);
    keys.black_to_move = splitmix64(seed);
    return keys;
}
const Keys keys = make_keys();

// reach[square][d]: the squares at orthogonal distance 1..d, for d = 1..7.
struct ReachTable {
    Bitboard reach[square_count][8] = {};
    ReachTable() {
        for (int square = 0; square < square_count; ++square) {
            const int x = x_of(square), y = y_of(square);
            for (int d = 1; d < 8; ++d) {
                Bitboard b = reach[square][d - 1];
                if (x + d < 8) b |= bit(square_at(x + d, y));
                if (x - d >= 0) b |= bit(square_at(x - d, y));
                if (y + d < 8) b |= bit(square_at(x, y + d));
                if (y - d >= 0) b |= bit(square_at(x, y - d));
                reach[square][d] = b;
            }
        }
    }
};
const ReachTable reach_table;

inline int colour_index(const State& s, int square) { return (s.black & bit(square)) ? 1 : 0; }

}  // namespace

Bitboard king_neighbours(Bitboard b) {
    const Bitboard row = b | ((b << 1) & not_column_0) | ((b >> 1) & not_column_7);
    return (row | (row << 8) | (row >> 8)) & ~b;
}

Bitboard orthogonal_reach(int square, int reach) {
    if (reach < 1) return 0;
    return reach_table.reach[square][reach > 7 ? 7 : reach];
}

State start_state(const Variant&) {
    State s{};
    for (int x : {0, 1, 3, 4, 6, 7})
        for (int y : {0, 1, 6, 7}) {
            const int square = square_at(x, y);
            (y < 2 ? s.white : s.black) |= bit(square);
            s.height[square] = 1;
        }
    s.to_move = Side::first;
    rebuild_derived(s);
    return s;
}

std::uint64_t compute_hash(const State& s) {
    std::uint64_t hash = s.to_move == Side::second ? keys.black_to_move : 0;
    for (Bitboard b = s.occupied(); b; b &= b - 1) {
        const int square = std::countr_zero(b);
        hash ^= keys.stack[square][colour_index(s, square)][s.height[square]];
    }
    return hash;
}

void rebuild_derived(State& s) {
    s.tokens[0] = static_cast<std::uint8_t>(tokens_on(s, s.white));
    s.tokens[1] = static_cast<std::uint8_t>(tokens_on(s, s.black));
    s.hash = compute_hash(s);
}

int tokens_on(const State& s, Bitboard squares) {
    int total = 0;
    for (Bitboard b = squares & s.occupied(); b; b &= b - 1) total += s.height[std::countr_zero(b)];
    return total;
}

Bitboard blast_area(const State& s, int square) {
    const Bitboard occupied = s.occupied();
    Bitboard area = bit(square) & occupied;
    while (area) {
        const Bitboard grown = (area | king_neighbours(area)) & occupied;
        if (grown == area) break;
        area = grown;
    }
    return area;
}

// ---------------------------------------------------------------------------------------------
// Move generation: the referee's order, every BOOM first, then the MOVEs of each stack.

void generate_moves(const State& s, FixedVector<Move, max_legal_moves>& moves) {
    moves.clear();
    const Bitboard mine = s.stacks_of(s.to_move);
    const Bitboard theirs = s.stacks_of(opponent(s.to_move));
    for (Bitboard b = mine; b; b &= b - 1) moves.push_back(Move::boom(std::countr_zero(b)));
    for (Bitboard b = mine; b; b &= b - 1) {
        const int from = std::countr_zero(b);
        const int height = s.height[from];
        for (Bitboard targets = orthogonal_reach(from, height) & ~theirs; targets; targets &= targets - 1) {
            const int to = std::countr_zero(targets);
            for (int count = 1; count <= height; ++count) moves.push_back(Move::step(from, to, count));
        }
    }
}

std::uint64_t count_moves(const State& s) {
    const Bitboard mine = s.stacks_of(s.to_move);
    const Bitboard theirs = s.stacks_of(opponent(s.to_move));
    std::uint64_t count = static_cast<std::uint64_t>(std::popcount(mine));
    for (Bitboard b = mine; b; b &= b - 1) {
        const int from = std::countr_zero(b);
        const int height = s.height[from];
        count += static_cast<std::uint64_t>(std::popcount(orthogonal_reach(from, height) & ~theirs) * height);
    }
    return count;
}

bool is_legal(const State& s, Move move) {
    if (outcome(s).is_over()) return false;
    const Bitboard mine = s.stacks_of(s.to_move);
    const int from = move.from();
    if (!(mine & bit(from))) return false;
    if (move.is_boom()) return move.to() == 0;
    const int height = s.height[from];
    const int to = move.to();
    return move.count() <= height && (orthogonal_reach(from, height) & bit(to)) &&
           !(s.stacks_of(opponent(s.to_move)) & bit(to));
}

// ---------------------------------------------------------------------------------------------
// Playing and undoing.

Undo play(State& s, Move move) {
    const Undo before = s;
    const int mover = index_of(s.to_move);
    std::uint64_t hash = s.hash;
    if (move.is_boom()) {
        const Bitboard area = blast_area(s, move.from());
        int destroyed = 0;
        for (Bitboard b = area; b; b &= b - 1) {
            const int square = std::countr_zero(b);
            const int colour = colour_index(s, square);
            const int height = s.height[square];
            hash ^= keys.stack[square][colour][height];
            s.tokens[colour] = static_cast<std::uint8_t>(s.tokens[colour] - height);
            destroyed += height;
            s.height[square] = 0;
        }
        s.white &= ~area;
        s.black &= ~area;
        s.last_destroyed = static_cast<std::uint8_t>(destroyed);
    } else {
        const int from = move.from(), to = move.to(), count = move.count();
        Bitboard& mine = mover == 0 ? s.white : s.black;
        const int source = s.height[from];
        const int target = s.height[to];  // 0 when empty: a move never lands on the opponent
        hash ^= keys.stack[from][mover][source] ^ keys.stack[from][mover][source - count];
        hash ^= keys.stack[to][mover][target] ^ keys.stack[to][mover][target + count];
        s.height[from] = static_cast<std::uint8_t>(source - count);
        s.height[to] = static_cast<std::uint8_t>(target + count);
        if (source == count) mine &= ~bit(from);
        mine |= bit(to);
        s.last_destroyed = 0;
    }
    s.hash = hash ^ keys.black_to_move;
    s.to_move = opponent(s.to_move);
    ++s.actions;
    return before;
}

void undo(State& s, Move, const Undo& before) { s = before; }

Undo play_null(State& s) {
    const Undo before = s;
    s.hash ^= keys.black_to_move;
    s.to_move = opponent(s.to_move);
    s.last_destroyed = 0;
    return before;
}

void undo_null(State& s, const Undo& before) { s = before; }

// ---------------------------------------------------------------------------------------------
// Outcome, in the referee's order (Game.end): no tokens at all, then one side without tokens,
// then the turn limit.

Outcome outcome(const State& s) {
    if (s.tokens[0] == 0 && s.tokens[1] == 0) return Outcome::draw("no tokens");
    if (s.tokens[1] == 0) return Outcome::win(Side::first, "elimination");
    if (s.tokens[0] == 0) return Outcome::win(Side::second, "elimination");
    if (s.actions >= max_actions) return Outcome::draw("turn limit");
    return Outcome::ongoing();
}

}  // namespace bge::expendibots
