#include "core/twixt/rules.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/random.hpp"

namespace bge::twixt {

namespace {

struct Keys {
    std::uint64_t peg[cell_count][2];
    std::uint64_t bridge[cell_count][4];  // bridges are keyed at their end with direction 0-3
    std::uint64_t second_to_move;
    std::uint64_t swapped;
};

Keys make_keys() {
    Keys keys{};
    std::uint64_t seed = 0x7317'7000'2026'0008ULL;  // fixed, so hashes are the same in every run
    for (auto& cell : keys.peg)
        for (auto& key : cell) key = splitmix64(seed);
    for (auto& cell : keys.bridge)
        for (auto& key : cell) key = splitmix64(seed);
    keys.second_to_move = splitmix64(seed);
    keys.swapped = splitmix64(seed);
    return keys;
}

const Keys& keys() {
    static const Keys instance = make_keys();
    return instance;
}

std::uint64_t bridge_key(int square, int direction) {
    return direction < 4 ? keys().bridge[square][direction]
                         : keys().bridge[square + knight_step(direction)][reverse_direction(direction)];
}

// Sign of the cross product (b - a) x (c - a).
int orientation(int ax, int ay, int bx, int by, int cx, int cy) {
    const int value = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    return (value > 0) - (value < 0);
}

// Knight bridges have no lattice point inside, so two of them meet only at a shared peg (not a
// crossing) or by crossing properly: a strict orientation test decides it.
bool segments_cross(int ax, int ay, int bx, int by, int cx, int cy, int dx, int dy) {
    return orientation(ax, ay, bx, by, cx, cy) * orientation(ax, ay, bx, by, dx, dy) < 0 &&
           orientation(cx, cy, dx, dy, ax, ay) * orientation(cx, cy, dx, dy, bx, by) < 0;
}

struct CrossingTable {
    std::array<FixedVector<Crossing, 16>, 8> by_direction;
    std::array<FixedVector<int, 16>, 8> offsets;  // the same, as (square offset, direction) pairs
    std::array<FixedVector<int, 16>, 8> directions;
};

CrossingTable make_crossings() {
    CrossingTable table;
    for (int d = 0; d < 8; ++d) {
        const auto [bx, by] = knight_offsets[d];
        for (int row = -padding; row <= padding; ++row)
            for (int column = -padding; column <= padding; ++column)
                for (int e = 0; e < 4; ++e) {  // each bridge once, by its end with direction 0-3
                    const auto [ex, ey] = knight_offsets[e];
                    if (!segments_cross(0, 0, bx, by, column, row, column + ex, row + ey)) continue;
                    table.by_direction[d].push_back({column, row, e});
                    table.offsets[d].push_back(row * stride + column);
                    table.directions[d].push_back(e);
                }
    }
    return table;
}

const CrossingTable& crossing_table() {
    static const CrossingTable instance = make_crossings();
    return instance;
}

// Whether a bridge from `square` in `direction` crosses a built bridge, from the links themselves.
bool crosses_a_link(const State& s, int square, int direction) {
    const CrossingTable& table = crossing_table();
    const auto& offsets = table.offsets[direction];
    const auto& directions = table.directions[direction];
    for (std::size_t i = 0; i < offsets.size(); ++i)
        if (s.links[square + offsets[i]] & (1u << directions[i])) return true;
    return false;
}

// Sets or clears the blocked bit of the link from `from` in `direction`, at both its ends.
void set_blocked(State& s, int from, int direction, bool blocked) {
    const auto bit_from = static_cast<std::uint8_t>(1u << direction);
    const auto bit_to = static_cast<std::uint8_t>(1u << reverse_direction(direction));
    const int to = from + knight_step(direction);
    if (blocked) {
        s.blocked[from] |= bit_from;
        s.blocked[to] |= bit_to;
    } else {
        s.blocked[from] &= static_cast<std::uint8_t>(~bit_from);
        s.blocked[to] &= static_cast<std::uint8_t>(~bit_to);
    }
}

// Marks the links that cross the new bridge from `square` in `direction` as blocked, noting in
// `record` the ones that were not blocked before.
void block_crossings(State& s, int square, int direction, Undo& record) {
    const CrossingTable& table = crossing_table();
    const auto& offsets = table.offsets[direction];
    const auto& directions = table.directions[direction];
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        const int from = square + offsets[i], e = directions[i];
        if (bridge_blocked(s, from, e)) continue;
        set_blocked(s, from, e, true);
        if (record.newly_blocked_count < record.newly_blocked.size())
            record.newly_blocked[record.newly_blocked_count++] = static_cast<std::uint16_t>(from << 2 | e);
        else
            record.newly_blocked_overflow = true;
    }
}

// After bridges are removed: the blocked bits of the links that crossed the one from `square` in
// `direction`, from the links that are left.
void recompute_crossings(State& s, int square, int direction) {
    const CrossingTable& table = crossing_table();
    const auto& offsets = table.offsets[direction];
    const auto& directions = table.directions[direction];
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        const int from = square + offsets[i], e = directions[i];
        set_blocked(s, from, e, crosses_a_link(s, from, e));
    }
}

void link(State& s, int square, int direction, Undo& record) {
    s.links[square] |= static_cast<std::uint8_t>(1u << direction);
    s.links[square + knight_step(direction)] |= static_cast<std::uint8_t>(1u << reverse_direction(direction));
    s.hash ^= bridge_key(square, direction);
    block_crossings(s, square, direction, record);
}

// Removes the link only; undo unblocks the links it crossed.
void unlink(State& s, int square, int direction) {
    s.links[square] &= static_cast<std::uint8_t>(~(1u << direction));
    s.links[square + knight_step(direction)] &= static_cast<std::uint8_t>(~(1u << reverse_direction(direction)));
    s.hash ^= bridge_key(square, direction);
}

// Union by size; records the root that was attached so undo can detach it.
void unite(State& s, int a, int b, Undo& record) {
    int ra = find_root(s, a), rb = find_root(s, b);
    if (ra == rb) return;
    if (s.set_size[ra] < s.set_size[rb]) std::swap(ra, rb);
    s.parent[rb] = static_cast<std::uint16_t>(ra);
    s.set_size[ra] = static_cast<std::uint16_t>(s.set_size[ra] + s.set_size[rb]);
    record.attached[record.unions++] = static_cast<std::uint16_t>(rb);
}

void detach(State& s, int attached) {
    const int root = s.parent[attached];
    s.set_size[root] = static_cast<std::uint16_t>(s.set_size[root] - s.set_size[attached]);
    s.parent[attached] = static_cast<std::uint16_t>(attached);
}

void change_open(State& s, int square, int delta) {
    for (const Side side : {Side::first, Side::second})
        if (playable_for(s, side, square))
            s.open[index_of(side)] = static_cast<std::uint16_t>(s.open[index_of(side)] + delta);
}

// The border nodes a peg of `side` on `square` touches by standing on its own border line.
void attach_to_borders(State& s, Side side, int square, Undo& record) {
    if (side == Side::first) {
        const int row = row_of(square);
        if (row == 0) unite(s, square, top_border, record);
        if (row == s.size - 1) unite(s, square, bottom_border, record);
    } else {
        const int column = column_of(square);
        if (column == 0) unite(s, square, left_border, record);
        if (column == s.size - 1) unite(s, square, right_border, record);
    }
}

bool has_won(const State& s, Side side) {
    return side == Side::first ? connected(s, top_border, bottom_border) : connected(s, left_border, right_border);
}

// After a move by `mover`: a win for it, or a draw when the next mover has nowhere to go.
Result result_after(const State& s, Side mover) {
    if (has_won(s, mover)) return mover == Side::first ? Result::first_wins : Result::second_wins;
    if (s.open[index_of(opponent(mover))] == 0 && !s.swap_available()) return Result::draw;
    return Result::ongoing;
}

}  // namespace

const FixedVector<Crossing, 16>& crossings(int direction) { return crossing_table().by_direction[direction]; }

int swapped_square(int size, int square) { return square_at(size - 1 - row_of(square), column_of(square)); }

Expected<Variant> check_variant(const Variant& v) {
    if (v.size < min_size || v.size > max_size)
        return make_error(fmt::format("board size {} must be from {} to {}", v.size, min_size, max_size));
    return v;
}

State start_state(const Variant& variant) {
    State s{};
    s.size = static_cast<std::uint8_t>(std::clamp(variant.size, min_size, max_size));
    s.cells.fill(off);
    s.links.fill(0);
    s.blocked.fill(0);
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const bool corner = (row == 0 || row == s.size - 1) && (column == 0 || column == s.size - 1);
            if (!corner) s.cells[square_at(column, row)] = empty;
        }
    for (int node = 0; node < node_count; ++node) {
        s.parent[node] = static_cast<std::uint16_t>(node);
        s.set_size[node] = 1;
    }
    const auto per_side = static_cast<std::uint16_t>(s.size * (s.size - 2));
    s.open = {per_side, per_side};
    s.hash = 0;
    s.plies = 0;
    s.first_move = 0;
    s.swapped = false;
    s.result = Result::ongoing;
    return s;
}

void generate_moves(const State& s, FixedVector<Move, max_legal_moves>& moves) {
    moves.clear();
    if (s.result != Result::ongoing) return;
    const Side mover = s.side_to_move();
    const bool swap = s.swap_available();
    for (int column = 0; column < s.size; ++column)
        for (int row = s.size - 1; row >= 0; --row) {
            const int square = square_at(column, row);
            if (swap && square == s.first_move)
                moves.push_back(Move::swap());
            else if (s.cells[square] == empty && playable_for(s, mover, square))
                moves.push_back(Move{static_cast<std::uint16_t>(square)});
        }
}

std::uint64_t count_moves(const State& s) {
    if (s.result != Result::ongoing) return 0;
    return s.open[index_of(s.side_to_move())] + (s.swap_available() ? 1u : 0u);
}

bool is_legal(const State& s, Move move) {
    if (s.result != Result::ongoing) return false;
    if (move.is_swap()) return s.swap_available();
    return move.square < cell_count && s.cells[move.square] == empty && playable_for(s, s.side_to_move(), move.square);
}

Undo play(State& s, Move move) {
    Undo record{};
    record.hash = s.hash;
    record.first_move = s.first_move;
    record.result = s.result;
    const Side mover = s.side_to_move();
    if (move.is_swap()) {
        // x's first peg has no bridges and, off its border rows, no unions: it just moves.
        const int from = s.first_move;
        const int to = swapped_square(s.size, from);
        s.cells[from] = empty;
        change_open(s, from, +1);
        s.hash ^= keys().peg[from][0];
        s.cells[to] = second_peg;
        change_open(s, to, -1);
        s.hash ^= keys().peg[to][1] ^ keys().swapped;
        s.swapped = true;
    } else {
        const int square = move.square;
        const std::uint8_t peg = peg_of(mover);
        s.cells[square] = peg;
        change_open(s, square, -1);
        s.hash ^= keys().peg[square][index_of(mover)];
        record.bridges = new_bridges(s, square, peg);
        for (int d = 0; d < 8; ++d) {
            if (!((record.bridges >> d) & 1u)) continue;
            link(s, square, d, record);
            unite(s, square, square + knight_step(d), record);
        }
        attach_to_borders(s, mover, square, record);
        // The first peg may be swapped unless it stands on x's own border row (o may not go there).
        const int row = row_of(square);
        s.first_move = s.plies == 0 && row != 0 && row != s.size - 1 ? static_cast<std::uint16_t>(square) : 0;
    }
    ++s.plies;
    s.hash ^= keys().second_to_move;
    s.result = result_after(s, mover);
    return record;
}

void undo(State& s, Move move, const Undo& record) {
    --s.plies;
    if (move.is_swap()) {
        const int from = record.first_move;
        const int to = swapped_square(s.size, from);
        s.cells[to] = empty;
        change_open(s, to, +1);
        s.cells[from] = first_peg;
        change_open(s, from, -1);
        s.swapped = false;
    } else {
        for (int i = record.unions; i-- > 0;) detach(s, record.attached[i]);
        for (int d = 0; d < 8; ++d)
            if (record.bridges & (1u << d)) unlink(s, move.square, d);
        if (record.newly_blocked_overflow) {
            for (int d = 0; d < 8; ++d)
                if (record.bridges & (1u << d)) recompute_crossings(s, move.square, d);
        } else {
            for (int i = 0; i < record.newly_blocked_count; ++i)
                set_blocked(s, record.newly_blocked[i] >> 2, record.newly_blocked[i] & 3, false);
        }
        s.cells[move.square] = empty;
        change_open(s, move.square, +1);
    }
    s.hash = record.hash;
    s.first_move = record.first_move;
    s.result = record.result;
}

bool ends_game(const State& s, Move move) {
    if (s.result != Result::ongoing || move.is_swap()) return false;  // a swap leaves x a free board
    const int square = move.square;
    const Side mover = s.side_to_move();
    const std::uint8_t peg = peg_of(mover);
    // A draw: the next mover has no hole left. (The swap, open only after x's first peg, never
    // matters here: o then still has N(N-2) holes.)
    const Side next = opponent(mover);
    if (s.open[index_of(next)] <= 1 && s.open[index_of(next)] - (playable_for(s, next, square) ? 1 : 0) == 0)
        return true;
    // A win needs a bridge to an own group: most holes have no own peg a knight's move away.
    const std::uint8_t bridges = new_bridges(s, square, peg);
    if (!bridges) return false;
    const int first = find_root(s, mover == Side::first ? top_border : left_border);
    const int second = find_root(s, mover == Side::first ? bottom_border : right_border);
    const int line = mover == Side::first ? row_of(square) : column_of(square);
    bool reaches_first = line == 0, reaches_second = line == s.size - 1;
    for (int d = 0; d < 8; ++d) {
        if (!((bridges >> d) & 1u)) continue;
        const int root = find_root(s, square + knight_step(d));
        reaches_first = reaches_first || root == first;
        reaches_second = reaches_second || root == second;
    }
    return reaches_first && reaches_second;
}

Outcome outcome(const State& s) {
    switch (s.result) {
        case Result::ongoing:
            return Outcome::ongoing();
        case Result::first_wins:
            return Outcome::win(Side::first, "connection");
        case Result::second_wins:
            return Outcome::win(Side::second, "connection");
        case Result::draw:
            return Outcome::draw("no placement");
    }
    return Outcome::ongoing();
}

std::uint64_t compute_hash(const State& s) {
    std::uint64_t hash = 0;
    for (int square = 0; square < cell_count; ++square) {
        if (s.cells[square] == first_peg) hash ^= keys().peg[square][0];
        if (s.cells[square] == second_peg) hash ^= keys().peg[square][1];
        for (int d = 0; d < 4; ++d)
            if (s.links[square] & (1u << d)) hash ^= keys().bridge[square][d];
    }
    if (s.side_to_move() == Side::second) hash ^= keys().second_to_move;
    if (s.swapped) hash ^= keys().swapped;
    return hash;
}

Status rebuild(State& s, Side to_move, const std::vector<Bridge>& bridges) {
    int pegs[2] = {0, 0};
    for (int square = 0; square < cell_count; ++square) {
        if (s.cells[square] == first_peg) ++pegs[0];
        if (s.cells[square] == second_peg) ++pegs[1];
        if (s.cells[square] == first_peg || s.cells[square] == second_peg) {
            const Side side = s.cells[square] == first_peg ? Side::first : Side::second;
            if (!playable_for(s, side, square))
                return make_error(fmt::format("{} peg on {}'s border line", side == Side::first ? "an x" : "an o",
                                              side == Side::first ? "o" : "x"));
        }
    }
    // Without a swap x has as many pegs as o (x to move) or one more; after a swap one fewer
    // (x to move) or as many (o to move).
    const bool x_to_move = to_move == Side::first;
    bool swapped;
    if (x_to_move && pegs[0] == pegs[1])
        swapped = false;
    else if (!x_to_move && pegs[0] == pegs[1] + 1)
        swapped = false;
    else if ((x_to_move && pegs[1] == pegs[0] + 1) || (!x_to_move && pegs[0] == pegs[1] && pegs[0] > 0))
        swapped = true;
    else
        return make_error(
            fmt::format("{} x pegs and {} o pegs cannot have {} to move", pegs[0], pegs[1], x_to_move ? "x" : "o"));
    s.result = Result::ongoing;
    s.links.fill(0);
    s.blocked.fill(0);
    for (int node = 0; node < node_count; ++node) {
        s.parent[node] = static_cast<std::uint16_t>(node);
        s.set_size[node] = 1;
    }
    Undo scratch{};
    for (const Bridge& bridge : bridges) {
        const int target = bridge.from + knight_step(bridge.direction);
        const std::uint8_t peg = s.cells[bridge.from];
        if ((peg != first_peg && peg != second_peg) || s.cells[target] != peg)
            return make_error("a bridge must join two pegs of one colour");
        if (s.links[bridge.from] & (1u << bridge.direction)) return make_error("a bridge is listed twice");
        if (bridge_blocked(s, bridge.from, bridge.direction)) return make_error("two bridges cross");
        scratch.newly_blocked_count = 0;
        link(s, bridge.from, bridge.direction, scratch);
        scratch.unions = 0;
        unite(s, bridge.from, target, scratch);
    }
    for (int square = 0; square < cell_count; ++square) {
        const std::uint8_t peg = s.cells[square];
        if (peg != first_peg && peg != second_peg) continue;
        scratch.unions = 0;
        attach_to_borders(s, peg == first_peg ? Side::first : Side::second, square, scratch);
    }
    s.plies = static_cast<std::uint16_t>(pegs[0] + pegs[1] + (swapped ? 1 : 0));
    s.swapped = swapped;
    s.first_move = 0;
    if (s.plies == 1)
        for (int square = 0; square < cell_count; ++square)
            if (s.cells[square] == first_peg && row_of(square) != 0 && row_of(square) != s.size - 1)
                s.first_move = static_cast<std::uint16_t>(square);
    s.open = {0, 0};
    for (int square = 0; square < cell_count; ++square)
        if (s.cells[square] == empty) change_open(s, square, +1);
    s.hash = compute_hash(s);
    const bool x_won = has_won(s, Side::first), o_won = has_won(s, Side::second);
    if (x_won && o_won) return make_error("both sides are connected");
    if ((x_won && x_to_move) || (o_won && !x_to_move)) return make_error("the side to move is already connected");
    if (x_won)
        s.result = Result::first_wins;
    else if (o_won)
        s.result = Result::second_wins;
    else if (s.open[index_of(to_move)] == 0 && !s.swap_available())
        s.result = Result::draw;
    else
        s.result = Result::ongoing;
    return success();
}

}  // namespace bge::twixt
