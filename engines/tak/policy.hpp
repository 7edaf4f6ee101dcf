#pragma once
// A learned move policy for Tak: a move's merit is a weighted sum of its features (below), and
// the policy over a position's moves is the softmax of those sums. It is fitted to the moves the
// search chose in self-play (`train_tak_eval policy`, search/learning/softmax_fit.hpp) and orders
// moves in alpha-beta (docs/tak.md, "Move policy").
//
// Features see the move and its neighbourhood, from the mover's side, the same for every board
// size (rings count from the edge):
//   placements   kind (flat, wall, cap); kind x ring; kind x own and their orthogonal neighbours;
//                kind x own and their tops in the same row and column; whether it fills a square
//                where the opponent would complete a road; the ring of the first two plies
//   spreads      carry, squares crossed, the moving top's kind, whether a capstone flattens a
//                wall; how many drops cover their tops, cover our own, leave their colour on top,
//                land on empty squares; what the start square shows afterwards; the change in
//                tops owned; the rings of the start and the last square; whether a drop with our
//                colour on top lands on their road-in-one square
//   context      whether the opponent threatens a road in one (placement or spread)
// Weights live in a text file, `bge-tak-policy 1` then `<feature name> <weight>` lines (missing
// features weigh 0), in engines/tak/nets/policy.txt, compiled in.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "core/tak/tak.hpp"

namespace bge::tak::policy {

int feature_count();
std::string feature_name(int index);

// What every move of one position shares.
struct Context {
    Side us;
    Bitboard their_threats;  // squares where the opponent's placement would complete a road
};
Context context_of(const State& state);

// Calls add(index) once for each active feature of `move` (a legal move in `state`).
void move_features(const State& state, const Context& context, Move move, std::vector<std::uint16_t>& out);

class Policy {
public:
    Policy() = default;
    explicit Policy(std::vector<float> weights) : weights_(std::move(weights)) {}

    static std::shared_ptr<const Policy> builtin();
    static Expected<Policy> parse(std::string_view text);
    static Expected<Policy> load(const std::string& path);
    std::string format(std::string_view comment) const;

    bool empty() const { return weights_.empty(); }
    const std::vector<float>& weights() const { return weights_; }
    // The move's logit.
    float logit(const State& state, const Context& context, Move move) const;

private:
    std::vector<float> weights_;
};

}  // namespace bge::tak::policy
