#pragma once
// The Tak value network (search/learning/nnue.hpp): its inputs, the networks the engine ships
// (engines/tak/nets/, one file per board size, embedded at build time), and the evaluator that
// keeps both perspectives' accumulators up to date from one position to the next.
//
// Inputs, from one player's perspective ("own" = that player's pieces), for an N x N board with
// S stones and C capstones a side, squares s = row * N + column:
//   top piece        kind k * N*N + s, k = own flat, own wall, own cap, their flat, wall, cap
//   pieces below     6 N*N + ((level - 1) * 2 + (own ? 0 : 1)) * N*N + s, levels 1..6 below the
//                    top (deeper pieces are not seen)
//   reserves         own stones left 0..S, their stones 0..S, own caps 0..C, their caps 0..C,
//                    one-hot each
//   colour and komi  (this player is Black) * 9 + half komi clamped to 0..8, one-hot
// The network sees the side to move's perspective and the other one (nnue.hpp).

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/tak/tak.hpp"
#include "search/learning/nnue.hpp"

namespace bge::tak::network {

constexpr int levels_below_top = 6;
// The evaluation in centi-flats is this times the network's logit (the linear evaluation's
// logistic fit uses the same scale, so search margins keep their meaning).
constexpr double centiflats_per_logit = 200;

int input_count(int size);
// The board size whose input count this is, or 0.
int size_for_inputs(int inputs);

// The active inputs from `perspective`, added to `out` shifted by `offset`.
void add_inputs(const State& state, Side perspective, search::learning::FeatureList& out, int offset = 0);
// A training sample: the side to move's inputs, then the other side's shifted by input_count.
void sample_inputs(const State& state, search::learning::FeatureList& out);
// The input that `index` becomes when the board is turned by one of the 8 symmetries of the
// square (0 is the identity): the same position seen from another side of the table.
int transformed_input(int index, int size, int symmetry);

// Quantised networks by board size, as the engine uses them.
class NetworkSet {
public:
    // The networks in engines/tak/nets/, compiled in.
    static std::shared_ptr<const NetworkSet> builtin();
    // Adds a network file; its input count names its board size.
    Status add_file(const std::string& path);
    Status add_bytes(std::string_view bytes, std::string_view origin);

    const search::learning::QuantisedNetwork* for_size(int size) const {
        return size >= min_size && size <= max_size && nets_[static_cast<std::size_t>(size)]
                   ? &*nets_[static_cast<std::size_t>(size)]
                   : nullptr;
    }
    std::string describe() const;

private:
    std::array<std::optional<search::learning::QuantisedNetwork>, max_size + 1> nets_;
    std::array<std::string, max_size + 1> descriptions_;
};

// Evaluates positions with a NetworkSet. It remembers the last position it saw and its two
// accumulators, and brings them to the next position by the inputs of the squares (and
// reserves) that differ: in a search, consecutive positions differ by a move or two. A copy starts
// with nothing remembered, so every search thread that copies an evaluator gets its own.
class NetworkEvaluator {
public:
    NetworkEvaluator();
    explicit NetworkEvaluator(std::shared_ptr<const NetworkSet> nets);
    NetworkEvaluator(const NetworkEvaluator& other);
    NetworkEvaluator& operator=(const NetworkEvaluator& other);
    ~NetworkEvaluator();

    bool covers(int size) const { return nets_ && nets_->for_size(size); }
    const std::shared_ptr<const NetworkSet>& networks() const { return nets_; }
    // The network's logit for the side to move (covers(state.size) must hold).
    double logit(const State& state) const;
    // In centi-flats for the side to move.
    int evaluate(const State& state) const;
    // The same from nothing (tests compare the two).
    double logit_from_scratch(const State& state) const;

private:
    struct Cache;
    std::shared_ptr<const NetworkSet> nets_;
    mutable std::unique_ptr<Cache> cache_;
};

}  // namespace bge::tak::network
