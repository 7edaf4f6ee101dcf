#pragma once
// A learned move policy for Gomoku: a candidate cell's merit is a weighted sum of its features
// (below), and the policy over a position's candidates is the softmax of those sums. It is fitted
// to the moves the search chose in self-play (`train_gomoku_eval policy`,
// search/learning/softmax_fit.hpp) and orders alpha-beta's moves (docs/gomoku.md, "Pattern
// network and policy").
//
// Features of a stone of the side to move on an empty cell, one active in each group:
//   cell      the cell's shape pair (own shape class, opponent's shape class), as the pattern
//             network's inputs (network.hpp): 43 x 43
//   threats   the threat the stone makes for us x the one it takes from the opponent (board.hpp's
//             Threat, 8 x 8)
//   last      the Chebyshev distance to the last stone played, 1..4, or 5 for farther (or none)
// Weights are text (search/learning/named_weights.hpp), header "bge-gomoku-policy 1", one file
// per rule: engines/gomoku/nets/RULE.policy, compiled in.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "core/gomoku/gomoku.hpp"

namespace bge::gomoku {
struct SearchBoard;
}

namespace bge::gomoku::policy {

int feature_count();
std::string feature_name(int index);
// The active features of a stone of the side to move on empty `square`.
void move_features(const SearchBoard& board, int square, std::vector<std::uint16_t>& out);

class Policy {
public:
    Policy() = default;
    explicit Policy(std::vector<float> weights) : weights_(std::move(weights)) {}

    static Expected<Policy> parse(std::string_view text);
    static Expected<Policy> load(const std::string& path);
    std::string format(std::string_view comment) const;

    const std::vector<float>& weights() const { return weights_; }
    // The logit of a stone of the side to move on empty `square`.
    float logit(const SearchBoard& board, int square) const;

private:
    std::vector<float> weights_;
};

// engines/gomoku/nets/RULE.policy by rule; nullptr where none ships.
const Policy* builtin_policy(Rule rule);

}  // namespace bge::gomoku::policy
