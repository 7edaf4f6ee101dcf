#include "engines/twixt/evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace bge::twixt {

namespace {

// Offsets reached by two knight's moves that no single knight's move reaches (and not 0).
struct TwoStepOffsets {
    FixedVector<std::array<int, 2>, 64> offsets;
};

TwoStepOffsets make_two_steps() {
    TwoStepOffsets table;
    for (const auto& a : knight_offsets)
        for (const auto& b : knight_offsets) {
            const std::array<int, 2> sum{a[0] + b[0], a[1] + b[1]};
            if (sum[0] == 0 && sum[1] == 0) continue;
            if (std::find(table.offsets.begin(), table.offsets.end(), sum) != table.offsets.end()) continue;
            table.offsets.push_back(sum);  // (a knight's move has an odd coordinate sum; these are even)
        }
    return table;
}

const TwoStepOffsets& two_steps() {
    static const TwoStepOffsets instance = make_two_steps();
    return instance;
}

// What entering each cell costs `side` in its 0-1 search: an own peg 0, an empty hole it may use
// 1 (0 on its own border lines with `free_border`), anything else closed.
constexpr std::uint8_t closed = 255;
using StepCosts = std::array<std::uint8_t, cell_count>;

void fill_step_costs(const State& s, Side side, bool free_border, StepCosts& costs) {
    costs.fill(closed);
    const std::uint8_t own = peg_of(side);
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = square_at(column, row);
            const std::uint8_t cell = s.cells[square];
            if (cell == own)
                costs[square] = 0;
            else if (cell == empty && playable_for(s, side, square))
                costs[square] = free_border && on_border_line(s, side, square) ? 0 : 1;
        }
}

// 0-1 BFS from one border over the knight graph `side` could still build.
void search_from(const State& s, Side side, bool from_first, const StepCosts& costs, DistanceMap& map) {
    map.to.fill(unreachable);
    map.total = unreachable;
    static thread_local std::array<std::uint16_t, 4 * cell_count> deque_buffer;
    // A deque in a flat buffer: cost-0 steps go to the front, cost-1 steps to the back.
    std::size_t front = 2 * cell_count, back = 2 * cell_count;
    const int last = s.size - 1;
    for (int i = 1; i < last; ++i) {
        const int line = from_first ? 0 : last;
        const int square = side == Side::first ? square_at(i, line) : square_at(line, i);
        if (costs[square] == closed) continue;
        map.to[square] = costs[square];
        if (map.to[square] == 0)
            deque_buffer[--front] = static_cast<std::uint16_t>(square);
        else
            deque_buffer[back++] = static_cast<std::uint16_t>(square);
    }
    while (front != back) {
        const int u = deque_buffer[front++];
        const int du = map.to[u];
        const std::uint8_t blocked = s.blocked[u];
        for (int d = 0; d < 8; ++d) {
            const int v = u + knight_step(d);
            const int cost = costs[v];
            if (cost == closed) continue;
            const int dv = du + cost;
            if (dv >= map.to[v] || ((blocked >> d) & 1u)) continue;
            map.to[v] = static_cast<std::uint16_t>(dv);
            if (cost == 0)
                deque_buffer[--front] = static_cast<std::uint16_t>(v);
            else
                deque_buffer[back++] = static_cast<std::uint16_t>(v);
        }
    }
    for (int i = 1; i < last; ++i) {
        const int line = from_first ? last : 0;
        const int square = side == Side::first ? square_at(i, line) : square_at(line, i);
        map.total = std::min<int>(map.total, map.to[square]);
    }
}

}  // namespace

int longest_chain_span(const State& s, Side side) {
    const std::uint8_t own = peg_of(side);
    static thread_local std::array<std::int8_t, node_count> low, high;
    low.fill(max_size);
    high.fill(-1);
    int best = 0;
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = square_at(column, row);
            if (s.cells[square] != own) continue;
            const int root = find_root(s, square);
            const int coordinate = side == Side::first ? row : column;
            low[root] = static_cast<std::int8_t>(std::min<int>(low[root], coordinate));
            high[root] = static_cast<std::int8_t>(std::max<int>(high[root], coordinate));
            best = std::max(best, high[root] - low[root] + 1);
        }
    return best;
}

int SpanEvaluator::evaluate(const State& s) const {
    const Side us = s.side_to_move();
    return longest_chain_span(s, us) - longest_chain_span(s, opponent(us));
}

void connection_distances(const State& s, Side side, DistanceMap& from_first, DistanceMap& from_second,
                          bool free_border) {
    static thread_local StepCosts costs;
    fill_step_costs(s, side, free_border, costs);
    search_from(s, side, true, costs, from_first);
    search_from(s, side, false, costs, from_second);
}

int connection_distance(const State& s, Side side, bool free_border) {
    static thread_local StepCosts costs;
    static thread_local DistanceMap map;
    fill_step_costs(s, side, free_border, costs);
    search_from(s, side, true, costs, map);
    return map.total;
}

int two_distance(const State& s, Side side) {
    const std::uint8_t own = peg_of(side);
    constexpr int limit = 2 * max_size * max_size;
    static thread_local std::array<std::uint16_t, cell_count> value;
    static thread_local std::array<std::uint8_t, cell_count> received;
    static thread_local std::array<bool, cell_count> done;
    static thread_local std::vector<std::vector<std::uint16_t>> buckets;
    value.fill(unreachable);
    received.fill(0);
    done.fill(false);
    if (buckets.size() < static_cast<std::size_t>(limit + 2)) buckets.resize(static_cast<std::size_t>(limit + 2));
    for (auto& bucket : buckets) bucket.clear();
    auto usable = [&](int square) {
        const std::uint8_t cell = s.cells[square];
        return cell == own || (cell == empty && playable_for(s, side, square));
    };
    auto offer = [&](int square, int candidate) {
        if (candidate < value[square] && candidate <= limit) {
            value[square] = static_cast<std::uint16_t>(candidate);
            buckets[static_cast<std::size_t>(candidate)].push_back(static_cast<std::uint16_t>(square));
        }
    };
    const int last = s.size - 1;
    for (int i = 1; i < last; ++i) {
        const int square = side == Side::first ? square_at(i, 0) : square_at(0, i);
        if (usable(square)) offer(square, s.cells[square] == own ? 0 : 1);
    }
    for (int level = 0; level <= limit; ++level) {
        auto& bucket = buckets[static_cast<std::size_t>(level)];
        for (std::size_t k = 0; k < bucket.size(); ++k) {
            const int u = bucket[k];
            if (done[u] || value[u] != level) continue;
            done[u] = true;
            for (int d = 0; d < 8; ++d) {
                const int v = u + knight_step(d);
                if (done[v] || !usable(v)) continue;
                if (s.links[u] & (1u << d)) {  // a built bridge: the same group
                    offer(v, level);
                    continue;
                }
                if (bridge_blocked(s, u, d)) continue;
                const int cost = s.cells[v] == own ? 0 : 1;
                // Neighbours finish in order of value, so the second one to arrive is the second best.
                if (++received[v] == 2) offer(v, level + cost);
            }
        }
    }
    int total = unreachable, first_hole = unreachable;
    for (int i = 1; i < last; ++i) {
        const int square = side == Side::first ? square_at(i, last) : square_at(last, i);
        const int here = value[square];
        if (here >= unreachable) continue;
        if (s.cells[square] == own) {
            total = std::min(total, here);
        } else if (here < first_hole) {
            total = std::min(total, first_hole);
            first_hole = here;
        } else {
            total = std::min(total, here);
        }
    }
    return total;
}

float mean_playout_result(const State& state, int playouts, PlayoutKind kind, const KnightWeights& weights,
                          Random& random) {
    const Side mover = state.side_to_move();
    float sum = 0;
    for (int i = 0; i < playouts; ++i) {
        State copy = state;
        const Outcome end = play_out(copy, kind, weights, random);
        sum += end.kind == OutcomeKind::draw ? 0.0f : end.is_win_for(mover) ? 1.0f : -1.0f;
    }
    return sum / static_cast<float>(playouts);
}

float knight_weight(const State& s, int square, const KnightWeights& weights) {
    const std::uint8_t own = peg_of(s.side_to_move());
    for (int d = 0; d < 8; ++d)
        if (s.cells[square + knight_step(d)] == own) return weights.one_step;
    const int column = column_of(square), row = row_of(square);
    for (const auto& [dc, dr] : two_steps().offsets) {
        const int c = column + dc, r = row + dr;
        if (c >= 0 && r >= 0 && c < s.size && r < s.size && s.cells[square_at(c, r)] == own) return weights.two_steps;
    }
    return 1.0f;
}

namespace {

// Counts of each side's pegs one and two knight's moves from each square, kept during a playout.
// Squares are shifted by a margin so offsets of up to four rows or columns stay inside.
constexpr int near_margin = 4 * stride + 4;
struct Nearness {
    std::array<std::array<std::uint8_t, cell_count + 2 * near_margin>, 2> one{}, two{};
    void add(Side side, int square) {
        auto& ones = one[index_of(side)];
        auto& twos = two[index_of(side)];
        for (int d = 0; d < 8; ++d) ++ones[static_cast<std::size_t>(near_margin + square + knight_step(d))];
        for (const auto& [dc, dr] : two_steps().offsets)
            ++twos[static_cast<std::size_t>(near_margin + square + dr * stride + dc)];
    }
    float weight(Side side, int square, const KnightWeights& w) const {
        const auto at = static_cast<std::size_t>(near_margin + square);
        if (one[index_of(side)][at]) return w.one_step;
        if (two[index_of(side)][at]) return w.two_steps;
        return 1.0f;
    }
};

Move pick_from_list(const State& s, const MoveList<Twixt>& moves, PlayoutKind kind, const KnightWeights& w,
                    Random& random) {
    if (kind == PlayoutKind::uniform) return moves[random.below(static_cast<std::uint32_t>(moves.size()))];
    std::vector<float> weights(moves.size());
    float total = 0;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        weights[i] = moves[i].is_swap() ? 1.0f : knight_weight(s, moves[i].square, w);
        total += weights[i];
    }
    float draw = static_cast<float>(random.unit()) * total;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        draw -= weights[i];
        if (draw < 0) return moves[i];
    }
    return moves[moves.size() - 1];
}

}  // namespace

Outcome play_out(State& s, PlayoutKind kind, const KnightWeights& w, Random& random) {
    // The first two plies (where the swap may come) through the rules' own move list.
    while (s.result == Result::ongoing && s.plies < 2) {
        MoveList<Twixt> moves;
        generate_moves(s, moves);
        play(s, pick_from_list(s, moves, kind, w, random));
    }
    if (s.result != Result::ongoing) return outcome(s);

    std::array<std::uint16_t, max_size * max_size> empties;
    int count = 0;
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = square_at(column, row);
            if (s.cells[square] == empty)
                empties[static_cast<std::size_t>(count++)] = static_cast<std::uint16_t>(square);
        }
    static thread_local Nearness nearness;
    static thread_local std::array<float, max_size * max_size> weights;
    if (kind == PlayoutKind::knight) {
        nearness = Nearness{};
        for (int row = 0; row < s.size; ++row)
            for (int column = 0; column < s.size; ++column) {
                const int square = square_at(column, row);
                if (s.cells[square] == first_peg) nearness.add(Side::first, square);
                if (s.cells[square] == second_peg) nearness.add(Side::second, square);
            }
    }
    while (s.result == Result::ongoing) {
        const Side mover = s.side_to_move();
        int pick = 0;
        if (kind == PlayoutKind::uniform) {
            // Rejection: the mover has an open hole (or the game would be drawn), so this ends.
            do pick = static_cast<int>(random.below(static_cast<std::uint32_t>(count)));
            while (!playable_for(s, mover, empties[static_cast<std::size_t>(pick)]));
        } else {
            float total = 0;
            for (int i = 0; i < count; ++i) {
                const int square = empties[static_cast<std::size_t>(i)];
                const float weight = playable_for(s, mover, square) ? nearness.weight(mover, square, w) : 0.0f;
                weights[static_cast<std::size_t>(i)] = weight;
                total += weight;
            }
            float draw = static_cast<float>(random.unit()) * total;
            pick = -1;
            for (int i = 0; i < count; ++i) {
                const float weight = weights[static_cast<std::size_t>(i)];
                if (weight <= 0) continue;
                pick = i;
                draw -= weight;
                if (draw < 0) break;
            }
        }
        const int square = empties[static_cast<std::size_t>(pick)];
        empties[static_cast<std::size_t>(pick)] = empties[static_cast<std::size_t>(--count)];
        play(s, Move{static_cast<std::uint16_t>(square)});
        if (kind == PlayoutKind::knight) nearness.add(mover, square);
    }
    return outcome(s);
}

namespace {

// The network of solve_circuit: node 0 is the first border (potential 1), node 1 the second
// (potential 0), then one node per empty hole or bridged group the side can still use.
struct Network {
    static constexpr int max_nodes = max_size * max_size + 2;
    static constexpr int max_edges = 5 * max_size * max_size;
    struct Edge {
        std::uint16_t a, b;
        float conductance;
    };
    int node_count = 2;
    int edge_count = 0;
    std::array<std::int16_t, cell_count> node_of{};  // per cell; -1 outside the network
    std::array<std::int16_t, cell_count> root_node{};  // per union-find root of own pegs
    std::array<Edge, max_edges> edges;
    std::array<float, max_nodes> diagonal, rhs, potential, residual, direction, product;

    void add_edge(int a, int b, float conductance) {
        edges[static_cast<std::size_t>(edge_count++)] = {static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b),
                                                         conductance};
    }
};

// Builds `side`'s network: each usable cell once, each knight step once (the four forward
// directions), own pegs merged by their union-find root.
void build_network(const State& s, Side side, Network& net) {
    const std::uint8_t own = peg_of(side);
    const int first_border = find_root(s, side == Side::first ? top_border : left_border);
    const int second_border = find_root(s, side == Side::first ? bottom_border : right_border);
    net.node_count = 2;
    net.edge_count = 0;
    net.node_of.fill(-1);
    net.root_node.fill(-1);
    const int last = s.size - 1;
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = square_at(column, row);
            const std::uint8_t cell = s.cells[square];
            if (cell == own) {
                const int root = find_root(s, square);
                if (root == first_border) {
                    net.node_of[static_cast<std::size_t>(square)] = 0;
                } else if (root == second_border) {
                    net.node_of[static_cast<std::size_t>(square)] = 1;
                } else {
                    // Roots are cells (a peg group off both borders), so the per-cell table serves.
                    auto& node = net.root_node[static_cast<std::size_t>(root)];
                    if (node < 0) node = static_cast<std::int16_t>(net.node_count++);
                    net.node_of[static_cast<std::size_t>(square)] = node;
                }
            } else if (cell == empty && playable_for(s, side, square)) {
                const int node = net.node_count++;
                net.node_of[static_cast<std::size_t>(square)] = static_cast<std::int16_t>(node);
                // A hole on a border line joins that border through its own resistance of 1.
                const int line = side == Side::first ? row : column;
                if (line == 0) net.add_edge(node, 0, 1.0f);
                if (line == last) net.add_edge(node, 1, 1.0f);
            }
        }
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = square_at(column, row);
            const int a = net.node_of[static_cast<std::size_t>(square)];
            if (a < 0) continue;
            for (int d = 0; d < 4; ++d) {
                const int other = square + knight_step(d);
                const int b = net.node_of[static_cast<std::size_t>(other)];
                if (b < 0) continue;
                const bool hole_a = s.cells[square] == empty, hole_b = s.cells[other] == empty;
                if (!hole_a && !hole_b) continue;  // two own pegs: bridged (one node) or blocked for good
                if (bridge_blocked(s, square, d)) continue;
                net.add_edge(a, b, hole_a && hole_b ? 0.5f : 1.0f);
            }
        }
}

// Solves the node potentials with the borders held at 1 and 0: conjugate gradients on the
// Laplacian with a diagonal preconditioner. Returns the current leaving the first border.
float solve_potentials(Network& net) {
    const int n = net.node_count;
    for (int i = 0; i < n; ++i) net.diagonal[i] = net.rhs[i] = net.potential[i] = 0;
    for (int e = 0; e < net.edge_count; ++e) {
        const auto& edge = net.edges[static_cast<std::size_t>(e)];
        net.diagonal[edge.a] += edge.conductance;
        net.diagonal[edge.b] += edge.conductance;
        if (edge.a == 0) net.rhs[edge.b] += edge.conductance;  // the first border's potential, 1
        if (edge.b == 0) net.rhs[edge.a] += edge.conductance;
    }
    auto multiply = [&](const std::array<float, Network::max_nodes>& x, std::array<float, Network::max_nodes>& y) {
        for (int i = 2; i < n; ++i) y[i] = net.diagonal[i] * x[i];
        for (int e = 0; e < net.edge_count; ++e) {
            const auto& edge = net.edges[static_cast<std::size_t>(e)];
            if (edge.a < 2 || edge.b < 2) continue;
            y[edge.a] -= edge.conductance * x[edge.b];
            y[edge.b] -= edge.conductance * x[edge.a];
        }
    };
    float rhs_norm = 0, rz = 0;
    for (int i = 2; i < n; ++i) {
        if (net.diagonal[i] == 0) net.diagonal[i] = 1;  // an isolated hole: potential 0, no current
        net.residual[i] = net.rhs[i];
        net.direction[i] = net.residual[i] / net.diagonal[i];
        rhs_norm += net.rhs[i] * net.rhs[i];
        rz += net.residual[i] * net.direction[i];
    }
    const float tolerance = 1e-6f * rhs_norm;  // a relative residual of 1e-3: values to about 0.1 %
    for (int iteration = 0; iteration < 4 * n && rhs_norm > 0; ++iteration) {
        multiply(net.direction, net.product);
        float curvature = 0;
        for (int i = 2; i < n; ++i) curvature += net.direction[i] * net.product[i];
        if (curvature <= 0) break;
        const float step = rz / curvature;
        float residual_norm = 0;
        for (int i = 2; i < n; ++i) {
            net.potential[i] += step * net.direction[i];
            net.residual[i] -= step * net.product[i];
            residual_norm += net.residual[i] * net.residual[i];
        }
        if (residual_norm <= tolerance) break;
        float next_rz = 0;
        for (int i = 2; i < n; ++i) next_rz += net.residual[i] * net.residual[i] / net.diagonal[i];
        const float beta = next_rz / rz;
        rz = next_rz;
        for (int i = 2; i < n; ++i) net.direction[i] = net.residual[i] / net.diagonal[i] + beta * net.direction[i];
    }
    net.potential[0] = 1;
    net.potential[1] = 0;
    float current = 0;
    for (int e = 0; e < net.edge_count; ++e) {
        const auto& edge = net.edges[static_cast<std::size_t>(e)];
        if (edge.a == 0) current += edge.conductance * (1 - net.potential[edge.b]);
        if (edge.b == 0) current += edge.conductance * (1 - net.potential[edge.a]);
    }
    return current;
}

}  // namespace

void solve_circuit(const State& s, Side side, Circuit& out) {
    static thread_local Network net;
    build_network(s, side, net);
    const float current = solve_potentials(net);
    out.resistance = current > 1e-6f ? 1.0f / current : std::numeric_limits<float>::infinity();
    // Through-current of each hole: half the current on its resistors, as a share of the total.
    std::array<float, Network::max_nodes> through{};
    for (int e = 0; e < net.edge_count; ++e) {
        const auto& edge = net.edges[static_cast<std::size_t>(e)];
        const float flow = edge.conductance * std::fabs(net.potential[edge.a] - net.potential[edge.b]);
        through[edge.a] += flow;
        through[edge.b] += flow;
    }
    const float share = current > 1e-6f ? 0.5f / current : 0.0f;
    out.current.fill(0);
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = square_at(column, row);
            const int node = net.node_of[static_cast<std::size_t>(square)];
            if (node >= 2 && s.cells[square] == empty) out.current[static_cast<std::size_t>(square)] = through[node] * share;
        }
}

}  // namespace bge::twixt
