#pragma once
// Expectimax for games with dice (the StochasticGame concept), written once: alpha-beta at
// decision nodes, Star1 and Star2 pruning at chance nodes (Ballard 1983; Hauk, Buro and Schaeffer
// 2004). Depth counts decisions; chance nodes do not use it up, as in perft.
//
// Values are from the side to move's point of view and lie in [-1, 1] (the evaluator must keep
// to that: Star1's bounds rest on it). A child's value is negated only when the mover changes,
// so extra turns (Ur's rosettes) need nothing special.
//
// The evaluator provides `double evaluate(const State&)` for a leaf (a decision or a chance
// node), and may provide `void order(const State&, MoveList<G>&)` to put good moves first (Star2
// probes the first move, so ordering pays twice).

#include <algorithm>
#include <cstdint>
#include <functional>

#include "core/game.hpp"

namespace bge::search {

template <StochasticGame G, class Evaluator>
class Expectimax {
public:
    using State = typename G::State;
    using Move = typename G::Move;
    static constexpr double lowest = -1.0;
    static constexpr double highest = 1.0;

    struct Result {
        Move best{};
        bool has_move = false;
        bool complete = true;  // false when stopped before the depth was searched
        double value = 0;
        std::uint64_t nodes = 0;
    };

    explicit Expectimax(Evaluator evaluator = {}) : evaluator_(std::move(evaluator)) {}
    Evaluator& evaluator() { return evaluator_; }

    // `root` is a decision node. `should_stop` (asked every 1024 nodes; may be empty) and
    // `node_limit` (0: none) cut the search short.
    Result search(const State& root, int depth, std::function<bool()> should_stop = {}, std::uint64_t node_limit = 0) {
        should_stop_ = std::move(should_stop);
        node_limit_ = node_limit;
        nodes_ = 0;
        aborted_ = false;
        Result result;
        State state = root;
        MoveList<G> moves;
        G::generate_moves(state, moves);
        order(state, moves);
        double alpha = lowest - 1;
        for (const Move& move : moves) {
            const Side mover = G::side_to_move(state);
            const auto record = G::play(state, move);
            const bool same = G::side_to_move(state) == mover;
            // The root searches each move with an open window above the best so far.
            const double child = same ? value(state, depth - 1, std::max(alpha, lowest), highest)
                                      : -value(state, depth - 1, lowest, -std::max(alpha, lowest));
            G::undo(state, move, record);
            if (aborted_) break;
            if (!result.has_move || child > alpha) {
                alpha = child;
                result.best = move;
                result.has_move = true;
            }
        }
        result.value = result.has_move ? alpha : 0;
        result.complete = !aborted_;
        result.nodes = nodes_;
        return result;
    }

    // The value of `state` (either kind of node) for its side to move, within (alpha, beta):
    // fail-soft, so a value <= alpha is an upper bound and >= beta a lower bound.
    double value(State& state, int depth, double alpha, double beta) {
        ++nodes_;
        if ((nodes_ & 1023) == 0 && ((should_stop_ && should_stop_()) || (node_limit_ && nodes_ >= node_limit_)))
            aborted_ = true;
        if (aborted_) return 0;
        if (const Outcome outcome = G::outcome(state); outcome.is_over())
            return outcome.kind == OutcomeKind::draw          ? 0.0
                   : outcome.winner == G::side_to_move(state) ? highest
                                                              : lowest;
        if (G::is_chance_node(state)) return chance_value(state, depth, alpha, beta);
        if (depth <= 0) return evaluator_.evaluate(state);
        MoveList<G> moves;
        G::generate_moves(state, moves);
        if (moves.empty()) return evaluator_.evaluate(state);
        order(state, moves);
        double best = lowest - 1;
        for (const Move& move : moves) {
            const double child = child_value(state, move, depth - 1, std::max(alpha, best), beta);
            if (child > best) best = child;
            if (best >= beta || aborted_) break;
        }
        return best;
    }

    std::uint64_t nodes() const { return nodes_; }

private:
    double child_value(State& state, const Move& move, int depth, double alpha, double beta) {
        const Side mover = G::side_to_move(state);
        const auto record = G::play(state, move);
        const double v =
            G::side_to_move(state) == mover ? value(state, depth, alpha, beta) : -value(state, depth, -beta, -alpha);
        G::undo(state, move, record);
        return v;
    }

    // The expected value over the rolls. Star2 first probes every outcome with its first move
    // only: each probe is a lower bound on that outcome (its mover picks the best move), so their
    // weighted sum may already reach beta. Star1 then searches the outcomes one by one with
    // windows narrowed by what the others can still contribute, and stops once the bounds leave
    // (alpha, beta).
    double chance_value(State& state, int depth, double alpha, double beta) {
        if (depth <= 0) return evaluator_.evaluate(state);
        ChanceList<G> rolls;
        G::chance_outcomes(state, rolls);
        const Side roller = G::side_to_move(state);
        double lower_bound[G::max_chance_outcomes];
        double remaining_lower = 0;  // sum of p * lower bound over outcomes not yet searched
        for (std::size_t i = 0; i < rolls.size(); ++i) {
            lower_bound[i] = lowest;
            const auto record = G::play(state, rolls[i].roll);
            if (G::side_to_move(state) == roller && !G::outcome(state).is_over() && !G::is_chance_node(state)) {
                MoveList<G> moves;
                G::generate_moves(state, moves);
                order(state, moves);
                if (!moves.empty()) lower_bound[i] = child_value(state, moves[0], depth - 1, lowest, highest);
            }
            G::undo(state, rolls[i].roll, record);
            if (aborted_) return 0;
            remaining_lower += rolls[i].probability * lower_bound[i];
        }
        if (remaining_lower >= beta) return remaining_lower;  // Star2 cut
        double sum = 0;
        double remaining_probability = 1;
        for (std::size_t i = 0; i < rolls.size(); ++i) {
            const double p = rolls[i].probability;
            remaining_probability -= p;
            remaining_lower -= p * lower_bound[i];
            const double child_alpha = std::max(lowest, (alpha - sum - remaining_probability * highest) / p);
            const double child_beta = std::min(highest, (beta - sum - remaining_lower) / p);
            const auto record = G::play(state, rolls[i].roll);
            const double v = G::side_to_move(state) == roller ? value(state, depth, child_alpha, child_beta)
                                                              : -value(state, depth, -child_beta, -child_alpha);
            G::undo(state, rolls[i].roll, record);
            if (aborted_) return 0;
            sum += p * v;
            const double upper = sum + std::max(0.0, remaining_probability) * highest;
            if (upper <= alpha) return upper;  // Star1 cut: even the best remaining rolls cannot lift it
            const double lower = sum + remaining_lower;
            if (lower >= beta) return lower;
        }
        return sum;
    }

    void order(const State& state, MoveList<G>& moves) {
        if constexpr (requires { evaluator_.order(state, moves); }) evaluator_.order(state, moves);
    }

    Evaluator evaluator_;
    std::function<bool()> should_stop_;
    std::uint64_t node_limit_ = 0;
    std::uint64_t nodes_ = 0;
    bool aborted_ = false;
};

}  // namespace bge::search
