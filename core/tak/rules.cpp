#include "core/tak/rules.hpp"

#include <array>
#include <bit>
#include <cassert>

#include "core/tak/bitboard.hpp"
#include "core/tak/zobrist.hpp"

namespace bge::tak {

namespace {

constexpr StackBits low_bits(int count) { return count >= 128 ? ~StackBits{0} : ((StackBits{1} << count) - 1); }

// ---------------------------------------------------------------------------------------------
// Geometry per board size.

std::array<Geometry, max_size + 1> make_geometries() {
    std::array<Geometry, max_size + 1> all{};
    for (int size = min_size; size <= max_size; ++size) {
        Geometry& g = all[size];
        for (int row = 0; row < size; ++row)
            for (int column = 0; column < size; ++column) {
                const int square = square_at(column, row);
                g.board |= bit(square);
                if (row == 0) g.bottom_row |= bit(square);
                if (row == size - 1) g.top_row |= bit(square);
                if (column == 0) g.left_column |= bit(square);
                if (column == size - 1) g.right_column |= bit(square);
                g.steps_to_edge[square][static_cast<int>(Direction::up)] = static_cast<std::uint8_t>(size - 1 - row);
                g.steps_to_edge[square][static_cast<int>(Direction::down)] = static_cast<std::uint8_t>(row);
                g.steps_to_edge[square][static_cast<int>(Direction::right)] =
                    static_cast<std::uint8_t>(size - 1 - column);
                g.steps_to_edge[square][static_cast<int>(Direction::left)] = static_cast<std::uint8_t>(column);
            }
    }
    return all;
}
const std::array<Geometry, max_size + 1> geometries = make_geometries();

// ---------------------------------------------------------------------------------------------
// Drop patterns, precomputed by (carry limit, free squares).
//
// spreads[c][d]: every pattern carrying at most c pieces over at most d squares.
// flattens[c][d]: every pattern carrying at most c pieces over exactly d + 1 squares whose last
// drop is a single piece: a capstone flattening the wall just beyond d free squares.

struct PatternList {
    std::uint8_t count = 0;
    std::uint8_t patterns[255];
};

struct PatternTables {
    PatternList spreads[max_size + 1][max_size];
    PatternList flattens[max_size + 1][max_size];
};

constexpr bool last_drop_is_single(unsigned pattern) {
    const int width = std::bit_width(pattern);
    return width == 1 || ((pattern >> (width - 2)) & 1);
}

PatternTables make_pattern_tables() {
    PatternTables t{};
    for (int carry = 1; carry <= max_size; ++carry)
        for (int free = 0; free < max_size; ++free)
            for (unsigned pattern = 1; pattern < 256; ++pattern) {
                const int width = std::bit_width(pattern);
                const int squares = std::popcount(pattern);
                if (width > carry) continue;
                if (squares <= free) {
                    PatternList& list = t.spreads[carry][free];
                    list.patterns[list.count++] = static_cast<std::uint8_t>(pattern);
                }
                if (squares == free + 1 && last_drop_is_single(pattern)) {
                    PatternList& list = t.flattens[carry][free];
                    list.patterns[list.count++] = static_cast<std::uint8_t>(pattern);
                }
            }
    return t;
}
const PatternTables pattern_tables = make_pattern_tables();

// ---------------------------------------------------------------------------------------------

void set_top(State& s, int square) {
    const Bitboard b = bit(square);
    s.top_white &= ~b;
    s.top_black &= ~b;
    if (s.height[square] == 0) return;
    if ((s.stack_colors[square] >> (s.height[square] - 1)) & 1)
        s.top_black |= b;
    else
        s.top_white |= b;
}

bool connects(Bitboard roads, Bitboard from_edge, Bitboard to_edge) {
    Bitboard reached = roads & from_edge;
    if (!reached || !(roads & to_edge)) return false;
    while (true) {
        if (reached & to_edge) return true;
        const Bitboard grown = (reached | neighbours(reached)) & roads;
        if (grown == reached) return false;
        reached = grown;
    }
}

// Free squares from `square` in `direction` before the edge, a wall or a capstone; also says
// whether the square just beyond is a wall (which a lone capstone may flatten).
struct Reach {
    int free;
    bool wall_beyond;
};
inline Reach reach(const State& s, const Geometry& g, int square, Direction direction) {
    const int limit = g.steps_to_edge[square][static_cast<int>(direction)];
    const int step = step_of(direction);
    const Bitboard blockers = s.walls | s.caps;
    int free = 0;
    int target = square;
    while (free < limit) {
        target += step;
        if (blockers & bit(target)) return {free, (s.walls & bit(target)) != 0};
        ++free;
    }
    return {free, false};
}

// Calls visit(square, direction, patterns) for every stack the side to move controls and every
// direction, with the drop patterns legal there (plus the wall-flattening ones for a capstone).
template <class Visit>
inline void for_each_spread_list(const State& s, const Geometry& g, Visit&& visit) {
    for (Bitboard mine = s.top_of(s.side_to_move()); mine; mine &= mine - 1) {
        const int square = std::countr_zero(mine);
        const int carry = s.height[square] < s.size ? s.height[square] : s.size;
        const bool is_cap = (s.caps & bit(square)) != 0;
        for (Direction direction : all_directions) {
            const Reach r = reach(s, g, square, direction);
            visit(square, direction, pattern_tables.spreads[carry][r.free]);
            if (is_cap && r.wall_beyond) visit(square, direction, pattern_tables.flattens[carry][r.free]);
        }
    }
}

}  // namespace

const Geometry& geometry(int size) { return geometries[size]; }

State start_state(const Variant& variant) {
    State s{};
    s.size = static_cast<std::uint8_t>(variant.size);
    s.half_komi = static_cast<std::int8_t>(variant.half_komi);
    s.repetition_draw = variant.repetition_draw;
    const Reserves r = reserves_for(variant.size);
    s.stones_left[0] = s.stones_left[1] = static_cast<std::uint8_t>(r.stones);
    s.caps_left[0] = s.caps_left[1] = static_cast<std::uint8_t>(r.caps);
    s.hash = compute_hash(s);
    return s;
}

Variant variant_of(const State& s) { return Variant{s.size, s.half_komi, s.repetition_draw}; }

// ---------------------------------------------------------------------------------------------
// Move generation.

void generate_moves(const State& s, FixedVector<Move, max_legal_moves>& moves) {
    moves.clear();
    const Geometry& g = geometry(s.size);
    Bitboard empty = g.board & ~s.occupied();
    const int side = s.ply & 1;

    if (s.in_opening()) {
        for (; empty; empty &= empty - 1) moves.push_back(Move::place(std::countr_zero(empty), Stone::flat));
        return;
    }

    const bool has_stones = s.stones_left[side] > 0;
    const bool has_caps = s.caps_left[side] > 0;
    for (; empty; empty &= empty - 1) {
        const int square = std::countr_zero(empty);
        if (has_stones) {
            moves.push_back(Move::place(square, Stone::flat));
            moves.push_back(Move::place(square, Stone::wall));
        }
        if (has_caps) moves.push_back(Move::place(square, Stone::cap));
    }

    for_each_spread_list(s, g, [&](int square, Direction direction, const PatternList& list) {
        for (int i = 0; i < list.count; ++i) moves.push_back(Move::spread(square, direction, list.patterns[i]));
    });
}

void spreads_from(const State& s, int square, Direction direction, SpreadList& moves) {
    moves.clear();
    if (s.height[square] == 0) return;
    const Geometry& g = geometry(s.size);
    const int carry = s.height[square] < s.size ? s.height[square] : s.size;
    const Reach r = reach(s, g, square, direction);
    const PatternList& spreads = pattern_tables.spreads[carry][r.free];
    for (int i = 0; i < spreads.count; ++i) moves.push_back(Move::spread(square, direction, spreads.patterns[i]));
    if ((s.caps & bit(square)) && r.wall_beyond) {
        const PatternList& flattens = pattern_tables.flattens[carry][r.free];
        for (int i = 0; i < flattens.count; ++i) moves.push_back(Move::spread(square, direction, flattens.patterns[i]));
    }
}

std::uint64_t count_moves(const State& s) {
    const Geometry& g = geometry(s.size);
    const int empty = std::popcount(g.board & ~s.occupied());
    if (s.in_opening()) return static_cast<std::uint64_t>(empty);
    const int side = s.ply & 1;
    std::uint64_t count = 0;
    if (s.stones_left[side] > 0) count += 2 * static_cast<std::uint64_t>(empty);
    if (s.caps_left[side] > 0) count += static_cast<std::uint64_t>(empty);
    for_each_spread_list(s, g, [&](int, Direction, const PatternList& list) { count += list.count; });
    return count;
}

bool is_legal(const State& s, Move move) {
    FixedVector<Move, max_legal_moves> moves;
    generate_moves(s, moves);
    for (Move m : moves)
        if (m == move) return true;
    return false;
}

bool flattens_wall(const State& s, Move move) {
    if (move.is_placement() || !(s.caps & bit(move.square()))) return false;
    const int last = move.square() + step_of(move.direction()) * move.squares_crossed();
    return last >= 0 && last < square_count && (s.walls & bit(last)) != 0;
}

// ---------------------------------------------------------------------------------------------
// Playing and undoing.

Undo play(State& s, Move move) {
    const zobrist::Keys& keys = zobrist::keys();
    Undo record{s.hash, false};
    const int square = move.square();
    const int mover = s.ply & 1;

    if (move.is_placement()) {
        const Stone stone = move.stone();
        // In the opening each player places one of the opponent's flats.
        const int color = s.in_opening() ? 1 - mover : mover;
        s.stack_colors[square] = static_cast<StackBits>(color);
        s.height[square] = 1;
        if (color)
            s.top_black |= bit(square);
        else
            s.top_white |= bit(square);
        std::uint64_t hash = s.hash ^ keys.piece[square][0][color];
        if (stone == Stone::cap) {
            s.caps |= bit(square);
            --s.caps_left[mover];
            hash ^= keys.cap[square];
        } else {
            if (stone == Stone::wall) {
                s.walls |= bit(square);
                hash ^= keys.wall[square];
            }
            --s.stones_left[color];
        }
        s.hash = hash ^ keys.black_to_move;
        ++s.ply;
        return record;
    }

    const int carry = move.carry();
    const int step = step_of(move.direction());
    const int source_height = s.height[square];
    const int remaining = source_height - carry;
    const Bitboard source_bit = bit(square);
    const Stone moving_top = s.top_stone(square);
    std::uint64_t hash = s.hash;

    // Lift the carried pieces.
    StackBits carried = s.stack_colors[square] >> remaining;
    for (int level = remaining; level < source_height; ++level)
        hash ^= keys.piece[square][level][static_cast<int>((carried >> (level - remaining)) & 1)];
    s.stack_colors[square] &= low_bits(remaining);
    s.height[square] = static_cast<std::uint8_t>(remaining);
    if (moving_top == Stone::wall) {
        s.walls &= ~source_bit;
        hash ^= keys.wall[square];
    } else if (moving_top == Stone::cap) {
        s.caps &= ~source_bit;
        hash ^= keys.cap[square];
    }
    set_top(s, square);

    // Drop them square by square, the bottom of the carried stack first.
    unsigned pattern = move.pattern();
    int target = square;
    while (pattern) {
        target += step;
        const int group = std::countr_zero(pattern) + 1;
        pattern >>= group;
        const Bitboard target_bit = bit(target);
        if (s.walls & target_bit) {  // only a lone capstone gets here: it flattens the wall
            s.walls &= ~target_bit;
            hash ^= keys.wall[target];
            record.flattened_wall = true;
        }
        const int base = s.height[target];
        for (int i = 0; i < group; ++i) hash ^= keys.piece[target][base + i][static_cast<int>((carried >> i) & 1)];
        s.stack_colors[target] |= (carried & low_bits(group)) << base;
        s.height[target] = static_cast<std::uint8_t>(base + group);
        const bool top_is_black = (carried >> (group - 1)) & 1;
        carried >>= group;
        if (top_is_black) {
            s.top_black |= target_bit;
            s.top_white &= ~target_bit;
        } else {
            s.top_white |= target_bit;
            s.top_black &= ~target_bit;
        }
    }
    // The moving stack's top piece keeps its kind on the last square.
    if (moving_top == Stone::wall) {
        s.walls |= bit(target);
        hash ^= keys.wall[target];
    } else if (moving_top == Stone::cap) {
        s.caps |= bit(target);
        hash ^= keys.cap[target];
    }
    s.hash = hash ^ keys.black_to_move;
    ++s.ply;
    return record;
}

void undo(State& s, Move move, const Undo& record) {
    --s.ply;
    s.hash = record.hash;
    const int square = move.square();
    const int mover = s.ply & 1;

    if (move.is_placement()) {
        const Bitboard b = bit(square);
        const int color = s.in_opening() ? 1 - mover : mover;
        s.stack_colors[square] = 0;
        s.height[square] = 0;
        s.top_white &= ~b;
        s.top_black &= ~b;
        if (s.caps & b) {
            s.caps &= ~b;
            ++s.caps_left[mover];
        } else {
            s.walls &= ~b;
            ++s.stones_left[color];
        }
        return;
    }

    const int step = step_of(move.direction());
    const int crossed = move.squares_crossed();
    const int last = square + step * crossed;
    const Bitboard last_bit = bit(last);
    const Stone moving_top = (s.walls & last_bit) ? Stone::wall : (s.caps & last_bit) ? Stone::cap : Stone::flat;
    s.walls &= ~last_bit;
    s.caps &= ~last_bit;
    if (record.flattened_wall) s.walls |= last_bit;

    // Pick the groups back up, last square first, rebuilding the carried stack from its top.
    unsigned pattern = move.pattern();
    int groups[max_size];
    int group_count = 0;
    while (pattern) {
        const int group = std::countr_zero(pattern) + 1;
        groups[group_count++] = group;
        pattern >>= group;
    }
    StackBits carried = 0;
    int target = last;
    for (int i = group_count - 1; i >= 0; --i) {
        const int group = groups[i];
        const int new_height = s.height[target] - group;
        carried = (carried << group) | ((s.stack_colors[target] >> new_height) & low_bits(group));
        s.stack_colors[target] &= low_bits(new_height);
        s.height[target] = static_cast<std::uint8_t>(new_height);
        set_top(s, target);
        target -= step;
    }
    const int base = s.height[square];
    s.stack_colors[square] |= carried << base;
    s.height[square] = static_cast<std::uint8_t>(base + move.carry());
    set_top(s, square);
    if (moving_top == Stone::wall)
        s.walls |= bit(square);
    else if (moving_top == Stone::cap)
        s.caps |= bit(square);
}

Undo play_null(State& s) {
    const Undo record{s.hash, false};
    s.hash ^= zobrist::keys().black_to_move;
    ++s.ply;
    return record;
}

void undo_null(State& s, const Undo& record) {
    --s.ply;
    s.hash = record.hash;
}

// ---------------------------------------------------------------------------------------------
// Outcome.

bool has_road(const State& s, Side side) {
    const Geometry& g = geometry(s.size);
    const Bitboard roads = s.road_squares(side);
    return connects(roads, g.bottom_row, g.top_row) || connects(roads, g.left_column, g.right_column);
}

int flat_count(const State& s, Side side) { return std::popcount(s.top_of(side) & ~s.walls & ~s.caps); }

int pieces_left(const State& s, Side side) { return s.stones_left[index_of(side)] + s.caps_left[index_of(side)]; }

Outcome outcome(const State& s) {
    const bool white_road = has_road(s, Side::first);
    const bool black_road = has_road(s, Side::second);
    if (white_road && black_road) return Outcome::win(opponent(s.side_to_move()), "road");
    if (white_road) return Outcome::win(Side::first, "road");
    if (black_road) return Outcome::win(Side::second, "road");

    const Geometry& g = geometry(s.size);
    const bool board_full = (s.occupied() & g.board) == g.board;
    if (!board_full && pieces_left(s, Side::first) > 0 && pieces_left(s, Side::second) > 0) return Outcome::ongoing();
    const int white = 2 * flat_count(s, Side::first);
    const int black = 2 * flat_count(s, Side::second) + s.half_komi;
    if (white > black) return Outcome::win(Side::first, "flats");
    if (black > white) return Outcome::win(Side::second, "flats");
    return Outcome::draw("flats");
}

// ---------------------------------------------------------------------------------------------

std::uint64_t compute_hash(const State& s) {
    const zobrist::Keys& keys = zobrist::keys();
    std::uint64_t hash = 0;
    for (int square = 0; square < square_count; ++square) {
        for (int level = 0; level < s.height[square]; ++level)
            hash ^= keys.piece[square][level][static_cast<int>((s.stack_colors[square] >> level) & 1)];
        if (s.walls & bit(square)) hash ^= keys.wall[square];
        if (s.caps & bit(square)) hash ^= keys.cap[square];
    }
    if (s.side_to_move() == Side::second) hash ^= keys.black_to_move;
    return hash;
}

void rebuild_derived(State& s) {
    const Reserves r = reserves_for(s.size);
    int stones_used[2] = {0, 0};
    int caps_used[2] = {0, 0};
    s.top_white = s.top_black = 0;
    for (int square = 0; square < square_count; ++square) {
        set_top(s, square);
        for (int level = 0; level < s.height[square]; ++level) {
            const int color = static_cast<int>((s.stack_colors[square] >> level) & 1);
            const bool is_top = level == s.height[square] - 1;
            if (is_top && (s.caps & bit(square)))
                ++caps_used[color];
            else
                ++stones_used[color];
        }
    }
    for (int color = 0; color < 2; ++color) {
        s.stones_left[color] = static_cast<std::uint8_t>(r.stones - stones_used[color]);
        s.caps_left[color] = static_cast<std::uint8_t>(r.caps - caps_used[color]);
    }
    s.hash = compute_hash(s);
}

}  // namespace bge::tak
