#include "engines/tak/roads.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "core/tak/bitboard.hpp"

namespace bge::tak {

namespace {

// The road pieces of one side joined to each edge: bottom, top, left, right.
struct EdgeGroups {
    Bitboard roads;
    Bitboard edge[4];
    Bitboard joined[4];
    EdgeGroups(const State& s, Side side) : roads(s.road_squares(side)) {
        const Geometry& g = geometry(s.size);
        edge[0] = g.bottom_row;
        edge[1] = g.top_row;
        edge[2] = g.left_column;
        edge[3] = g.right_column;
        for (int i = 0; i < 4; ++i) joined[i] = flood(roads & edge[i], roads);
    }
    // Empty squares where one more road piece joins two opposite edges.
    Bitboard completing(Bitboard empty) const {
        auto axis = [&](int a, int b) {
            return (neighbours(joined[a]) | edge[a]) & (neighbours(joined[b]) | edge[b]) & empty;
        };
        return axis(0, 1) | axis(2, 3);
    }
};

// Squares from which a connected set reaches each edge's group: the edge, the group, its
// neighbours. Turning every square of a connected set into road pieces joins two opposite edges
// (when they are not joined yet) exactly when the set meets the zones of both.
struct Zones {
    Bitboard zone[4];
    explicit Zones(const EdgeGroups& groups) {
        for (int i = 0; i < 4; ++i) zone[i] = groups.edge[i] | groups.joined[i] | neighbours(groups.joined[i]);
    }
    bool could_join_through(Bitboard line) const {
        return ((line & zone[0]) && (line & zone[1])) || ((line & zone[2]) && (line & zone[3]));
    }
};

// ray[square][direction][k]: the first k squares from `square` towards `direction` on the
// stride-8 layout (k up to the steps to that edge of an 8x8 board).
struct Rays {
    Bitboard ray[square_count][4][max_size + 1] = {};
    Rays() {
        for (int square = 0; square < square_count; ++square)
            for (Direction direction : all_directions) {
                const int d = static_cast<int>(direction);
                int column = column_of(square), row = row_of(square);
                for (int k = 1; k <= max_size; ++k) {
                    column += direction == Direction::right ? 1 : direction == Direction::left ? -1 : 0;
                    row += direction == Direction::up ? 1 : direction == Direction::down ? -1 : 0;
                    const bool inside = column >= 0 && column < max_size && row >= 0 && row < max_size;
                    ray[square][d][k] = ray[square][d][k - 1] | (inside ? bit(square_at(column, row)) : 0);
                }
            }
    }
};
const Rays rays;

// The squares a spread from `square` towards `direction` can change, the start included: as far
// as the stack can carry, up to the edge or a blocker (a wall a capstone could flatten counts).
// The squares form a straight, connected line.
Bitboard spread_line(const State& s, const Geometry& g, int square, Direction direction) {
    const int d = static_cast<int>(direction);
    int reach = std::min<int>(g.steps_to_edge[square][d], std::min<int>(s.height[square], s.size));
    if (const Bitboard blockers = (s.walls | s.caps) & rays.ray[square][d][reach]) {
        // The nearest blocker, by distance along the ray.
        const int nearest = (direction == Direction::up || direction == Direction::right)
                                ? lowest_square(blockers)
                                : 63 - std::countl_zero(blockers);
        const int distance = std::abs(nearest - square) / std::abs(step_of(direction));
        const bool flattens = (s.caps & bit(square)) && (s.walls & bit(nearest));
        reach = flattens ? distance : distance - 1;
    }
    return bit(square) | rays.ray[square][d][reach];
}

}  // namespace

Bitboard road_in_one_squares(const State& state, Side side) {
    if (state.in_opening() || pieces_left(state, side) == 0) return 0;
    const Bitboard empty = geometry(state.size).board & ~state.occupied();
    return EdgeGroups(state, side).completing(empty);
}

Move winning_road_move(State& s, Side side) {
    if (s.in_opening()) return Move::none();
    const Geometry& g = geometry(s.size);
    const EdgeGroups groups(s, side);
    if (pieces_left(s, side) > 0) {
        if (const Bitboard squares = groups.completing(g.board & ~s.occupied())) {
            const Stone stone = s.stones_left[index_of(side)] > 0 ? Stone::flat : Stone::cap;
            return Move::place(lowest_square(squares), stone);
        }
    }
    const Zones zones(groups);
    thread_local SpreadList spreads;
    for (Bitboard b = s.top_of(side); b; b &= b - 1) {
        const int square = lowest_square(b);
        for (Direction direction : all_directions) {
            if (!zones.could_join_through(spread_line(s, g, square, direction))) continue;
            spreads_from(s, square, direction, spreads);
            for (const Move& move : spreads) {
                const Undo record = play(s, move);
                const bool wins = has_road(s, side);
                undo(s, move, record);
                if (wins) return move;
            }
        }
    }
    return Move::none();
}

Move winning_move(State& s, Side side) {
    const Move road = winning_road_move(s, side);
    if (!(road == Move::none()) || s.in_opening()) return road;
    const int own = index_of(side);
    const Bitboard empty = geometry(s.size).board & ~s.occupied();
    const int left = pieces_left(s, side);
    if (left == 0 || !empty || (left > 1 && popcount(empty) > 1)) return Move::none();
    // Placing now ends the game; a flat adds to the count, a last capstone does not.
    const bool flat = s.stones_left[own] > 0;
    const int komi = side == Side::second ? s.half_komi : -s.half_komi;
    const int lead = 2 * (flat_count(s, side) + (flat ? 1 : 0) - flat_count(s, opponent(side))) + komi;
    if (lead <= 0) return Move::none();
    return Move::place(lowest_square(empty), flat ? Stone::flat : Stone::cap);
}

int road_distance(const State& s, Side side, int limit, int per_axis[2]) {
    const Geometry& g = geometry(s.size);
    const Bitboard own = s.road_squares(side);
    const Bitboard empty = g.board & ~s.occupied();
    const Bitboard edges[2][2] = {{g.bottom_row, g.top_row}, {g.left_column, g.right_column}};
    int best = limit + 1;
    for (int axis = 0; axis < 2; ++axis) {
        const Bitboard from = edges[axis][0];
        const Bitboard to = edges[axis][1];
        // reached: squares joined to the first edge with at most `cost` placements.
        Bitboard reached = flood(own & from, own);
        int cost = 0;
        while (!(reached & to) && cost <= limit) {
            const Bitboard next = (neighbours(reached) | from) & empty & ~reached;
            if (!next) {
                cost = limit + 1;
                break;
            }
            ++cost;
            reached = flood(reached | next, reached | next | own);
        }
        cost = std::min(cost, limit + 1);
        if (per_axis) per_axis[axis] = cost;
        best = std::min(best, cost);
    }
    return best;
}

}  // namespace bge::tak
