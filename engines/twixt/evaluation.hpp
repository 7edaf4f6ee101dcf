#pragma once
// TwixT evaluation pieces:
// - the study's minimax evaluation: how far the longest bridged chain reaches along each side's
//   own direction (rows for x, columns for o);
// - a connection estimate for the strong player: for each side, the fewest pegs still needed to
//   join its borders, by a 0-1 breadth-first search over knight steps (an own peg costs 0, an
//   empty hole it may use costs 1; opponent pegs, the opponent's border line and steps whose
//   bridge would cross an existing bridge are closed). Bridges already built are knight steps of
//   cost 0, so each bridged chain counts as one group, as the union-find sees it.
// - fast playouts (uniform, or the study's knight-weighted policy) on a copy of the position.

#include <array>
#include <cstdint>

#include "core/random.hpp"
#include "core/twixt/twixt.hpp"

namespace bge::twixt {

// Rows (x) or columns (o) spanned by `side`'s longest bridged chain; 0 with no peg.
int longest_chain_span(const State& state, Side side);

// The study's evaluation for alpha-beta: own span minus the opponent's, for the side to move.
struct SpanEvaluator {
    int evaluate(const State& state) const;
};

constexpr int unreachable = 1000;

// Distances of one side's 0-1 search from one of its borders: per square, pegs needed to reach
// it from that border (counting the square itself when empty).
struct DistanceMap {
    std::array<std::uint16_t, cell_count> to;
    int total = unreachable;  // pegs needed to join both borders
};

// From the first border (x: row 1, o: column a) and from the second. With `free_border`, holes
// on the side's own border lines cost nothing: the opponent may never place there (only cross
// their links), so those last pegs cannot be contested, and what counts is the contested pegs.
void connection_distances(const State& state, Side side, DistanceMap& from_first, DistanceMap& from_second,
                          bool free_border = false);
// Just the number of pegs `side` still needs (unreachable when it cannot connect any more).
int connection_distance(const State& state, Side side, bool free_border = false);
// Whether `square` is on one of `side`'s own border lines (x: rows 1 and N, o: columns a and N).
inline bool on_border_line(const State& state, Side side, int square) {
    const int line = side == Side::first ? row_of(square) : column_of(square);
    return line == 0 || line == state.size - 1;
}

// The two-distance (as in Hex programs): a hole's value is its cost plus the second-best value
// among its knight neighbours, since the opponent can take the best one; pegs joined by an
// existing bridge share a value (a bridge cannot be cut). The far border takes the second-best
// hole of its line (or an own peg already there). Pegs `side` still needs against resistance.
int two_distance(const State& state, Side side);

// Playout policies, on the engine's own fast loop: a copy of the position is played to its end.
enum class PlayoutKind { uniform, knight };
struct KnightWeights {
    float one_step = 20.0f;  // a hole a knight's move from an own peg
    float two_steps = 5.0f;  // two knight's moves away (and not one)
};

// Plays `state` out (it is changed) and returns the outcome.
Outcome play_out(State& state, PlayoutKind kind, const KnightWeights& weights, Random& random);
// The mean result of `playouts` playouts from copies of `state`, for its side to move, in [-1, 1]
// (win 1, draw 0, loss -1).
float mean_playout_result(const State& state, int playouts, PlayoutKind kind, const KnightWeights& weights,
                          Random& random);

// The study's policy weight of placing on `square` for the side to move (1 elsewhere).
float knight_weight(const State& state, int square, const KnightWeights& weights);

}  // namespace bge::twixt

namespace bge::twixt {

// The resistance estimate (as in Hex programs, Anshelevich's "circuit"): one side's holes and
// bridged groups as an electrical network between its two borders. A knight step the side could
// still bridge is a resistor of r(a) + r(b), with r = 1 for an empty hole and 0 for an own peg;
// opponent pegs, the opponent's border line and blocked steps are open circuits. Many short,
// disjoint routes give a low resistance, so unlike a shortest connection it sees how hard a
// connection is to cut, and the current through a hole says how much the routes rely on it.
struct Circuit {
    float resistance = 0;                        // between the borders; infinity when cut off
    std::array<float, cell_count> current;       // through each empty hole, as a share of the total
};
void solve_circuit(const State& state, Side side, Circuit& out);

}  // namespace bge::twixt
