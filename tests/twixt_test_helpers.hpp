#pragma once
// An independent model of OpenSpiel's TwixT rules for the tests, written from the rules text and
// not from core/twixt: pegs on a plain grid, bridges as a list of segments, crossing decided by a
// geometric segment-intersection test, connection by a breadth-first search over the bridges.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "core/twixt/twixt.hpp"

namespace bge::testing {

struct Point {
    int column, row;
    friend bool operator==(Point, Point) = default;
};

// Strictly opposite sides on both segments: a proper crossing. Touching at a shared peg is not.
inline bool segments_cross(Point a, Point b, Point c, Point d) {
    auto orientation = [](Point p, Point q, Point r) {
        const long value = static_cast<long>(q.column - p.column) * (r.row - p.row) -
                           static_cast<long>(q.row - p.row) * (r.column - p.column);
        return (value > 0) - (value < 0);
    };
    return orientation(a, b, c) * orientation(a, b, d) < 0 && orientation(c, d, a) * orientation(c, d, b) < 0;
}

inline bool knight_apart(Point a, Point b) {
    const int dc = std::abs(a.column - b.column), dr = std::abs(a.row - b.row);
    return (dc == 1 && dr == 2) || (dc == 2 && dr == 1);
}

struct ReferenceTwixt {
    int size;
    std::vector<int> cells;  // 0 empty, 1 x, 2 o, 3 missing corner; index row * size + column
    std::vector<std::pair<Point, Point>> bridges;
    std::vector<int> colour_of_bridge;
    int plies = 0;
    Point first{-1, -1};
    int result = 0;  // 0 ongoing, 1 x won, 2 o won, 3 draw

    explicit ReferenceTwixt(int n) : size(n), cells(static_cast<std::size_t>(n * n), 0) {
        for (const int r : {0, n - 1})
            for (const int c : {0, n - 1}) at({c, r}) = 3;
    }
    int& at(Point p) { return cells[static_cast<std::size_t>(p.row * size + p.column)]; }
    int at(Point p) const { return cells[static_cast<std::size_t>(p.row * size + p.column)]; }
    int mover() const { return plies % 2 == 0 ? 1 : 2; }
    bool playable(int colour, Point p) const {
        if (at(p) == 3) return false;
        if (colour == 1) return p.column != 0 && p.column != size - 1;
        return p.row != 0 && p.row != size - 1;
    }
    bool swap_allowed() const { return plies == 1 && result == 0 && first.row > 0 && first.row < size - 1; }
    // Moves as cells; the swap as {-1, -1}.
    std::vector<Point> moves() const {
        std::vector<Point> list;
        if (result != 0) return list;
        if (swap_allowed()) list.push_back({-1, -1});
        for (int r = 0; r < size; ++r)
            for (int c = 0; c < size; ++c)
                if (at({c, r}) == 0 && playable(mover(), {c, r})) list.push_back({c, r});
        return list;
    }
    void place(int colour, Point p) {
        at(p) = colour;
        for (int r = 0; r < size; ++r)
            for (int c = 0; c < size; ++c) {
                const Point q{c, r};
                if (at(q) != colour || !knight_apart(p, q)) continue;
                bool crossing = false;
                for (const auto& [a, b] : bridges) crossing = crossing || segments_cross(p, q, a, b);
                if (!crossing) {
                    bridges.emplace_back(p, q);
                    colour_of_bridge.push_back(colour);
                }
            }
    }
    bool connected(int colour) const {
        std::vector<int> seen(cells.size(), 0);
        std::vector<Point> stack;
        for (int i = 1; i < size - 1; ++i) {
            const Point start = colour == 1 ? Point{i, 0} : Point{0, i};
            if (at(start) == colour) stack.push_back(start);
        }
        while (!stack.empty()) {
            const Point p = stack.back();
            stack.pop_back();
            if (seen[static_cast<std::size_t>(p.row * size + p.column)]++) continue;
            if ((colour == 1 && p.row == size - 1) || (colour == 2 && p.column == size - 1)) return true;
            for (std::size_t i = 0; i < bridges.size(); ++i) {
                if (colour_of_bridge[i] != colour) continue;
                if (bridges[i].first == p) stack.push_back(bridges[i].second);
                if (bridges[i].second == p) stack.push_back(bridges[i].first);
            }
        }
        return false;
    }
    void play(Point p) {
        const int colour = mover();
        if (p.column < 0) {  // swap: x's peg turned a quarter turn clockwise becomes o's
            at(first) = 0;
            place(2, {size - 1 - first.row, first.column});
        } else {
            place(colour, p);
            if (plies == 0) first = p;
        }
        ++plies;
        if (connected(colour)) {
            result = colour;
            return;
        }
        int open = 0;
        for (int r = 0; r < size; ++r)
            for (int c = 0; c < size; ++c) open += at({c, r}) == 0 && playable(mover(), {c, r});
        if (open == 0 && !swap_allowed()) result = 3;
    }
};

inline std::uint64_t reference_perft(const ReferenceTwixt& game, int depth) {
    if (game.result != 0) return 0;
    const auto moves = game.moves();
    if (depth == 1) return moves.size();
    std::uint64_t total = 0;
    for (const Point move : moves) {
        ReferenceTwixt next = game;
        next.play(move);
        total += reference_perft(next, depth - 1);
    }
    return total;
}

// Plays `moves` (cell names or swap) on the real rules; fails the test on an illegal one.
inline twixt::State twixt_after(int size, std::initializer_list<const char*> moves) {
    twixt::State state = twixt::start_state(twixt::Variant{size});
    for (const char* text : moves) {
        auto move = twixt::parse_move(state, text);
        INFO(text << ": " << (move ? "" : move.error()));
        REQUIRE(move);
        twixt::play(state, *move);
    }
    return state;
}

}  // namespace bge::testing
