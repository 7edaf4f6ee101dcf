#pragma once
// Independent Ur values for the tests: every position reachable from the start of a small game
// (both colours, no flipping, no packed index), found by playing the core rules, then solved by
// plain expectimax iterated to convergence.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/ur/ur.hpp"

namespace bge::testing {

using ur::Move;
using ur::Roll;
using ur::State;

struct BruteForce {
    std::vector<State> states;  // chance nodes, both sides to move
    std::vector<double> value;  // for the side to move
    std::map<std::string, int> index_of_text;

    // The side to move's winning chance in a position where a roll is due (1 or 0 at the end).
    double win_probability(const State& state) const {
        if (const Outcome o = ur::outcome(state); o.is_over()) return o.winner == state.to_move ? 1.0 : 0.0;
        return value[static_cast<std::size_t>(index_of_text.at(ur::format_position(state)))];
    }
};

// Reachable chance nodes and, per roll, each move's successor: (index or -1 for a win, same mover?).
inline BruteForce brute_force(ur::Variant variant) {
    BruteForce result;
    auto& index_of_text = result.index_of_text;
    struct Successor {
        int index;  // -1: the mover won
        bool same_mover;
    };
    std::vector<std::vector<std::pair<double, std::vector<Successor>>>> graph;
    auto find = [&](const State& state) {
        const std::string key = ur::format_position(state);
        auto [it, inserted] = index_of_text.emplace(key, static_cast<int>(result.states.size()));
        if (inserted) result.states.push_back(state);
        return it->second;
    };
    find(ur::start_state(variant));
    for (std::size_t i = 0; i < result.states.size(); ++i) {
        const State node = result.states[i];
        std::vector<std::pair<double, std::vector<Successor>>> rolls;
        for (const Roll& roll : ur::roll_outcomes(variant.ruleset)) {
            State decision = node;
            ur::play(decision, Move::make_roll(roll.number));
            FixedVector<Move, ur::max_legal_moves> moves;
            ur::generate_moves(decision, moves);
            std::vector<Successor> successors;
            for (const Move& move : moves) {
                State next = decision;
                ur::play(next, move);
                if (ur::outcome(next).is_over())
                    successors.push_back({-1, true});
                else
                    successors.push_back({find(next), next.to_move == node.to_move});
            }
            rolls.emplace_back(roll.probability, successors);
        }
        graph.push_back(std::move(rolls));
    }
    result.value.assign(result.states.size(), 0.5);
    for (int sweep = 0; sweep < 100000; ++sweep) {
        double change = 0;
        for (std::size_t i = 0; i < result.states.size(); ++i) {
            double total = 0;
            for (const auto& [probability, successors] : graph[i]) {
                double best = 0;
                for (const Successor& s : successors) {
                    const double v = s.index < 0    ? 1.0
                                     : s.same_mover ? result.value[s.index]
                                                    : 1.0 - result.value[s.index];
                    best = std::max(best, v);
                }
                total += probability * best;
            }
            change = std::max(change, std::abs(total - result.value[i]));
            result.value[i] = total;
        }
        if (change < 1e-12) break;
    }
    return result;
}


}  // namespace bge::testing
