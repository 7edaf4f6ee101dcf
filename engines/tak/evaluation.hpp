#pragma once
// The Tak evaluation for alpha-beta and MCTS: a value network for the board sizes that have one
// (network.hpp), when the player asks for it, and otherwise a linear model over the features of
// eval_features.hpp, with opening and endgame weights per board size, fitted to self-play results
// by tools/train/train_tak_eval (docs/tak.md, "Evaluation"). Scores are centi-flats from the side
// to move's point of view.
//
// Two things stay outside the linear model because they are not a matter of degree: a side to
// move that can place a road wins (road_in_one_score), and the score is kept inside
// (-road_in_one_score, road_in_one_score) otherwise, below every proven win or loss.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/tak/tak.hpp"
#include "engines/tak/eval_features.hpp"
#include "engines/tak/network.hpp"
#include "engines/tak/policy.hpp"

namespace bge::tak {

// Weights in 1/16 centi-flat per unit of the feature.
constexpr int weight_unit = 16;

struct EvalWeights {
    std::array<std::int32_t, features::count> opening{};
    std::array<std::int32_t, features::count> endgame{};
    friend bool operator==(const EvalWeights&, const EvalWeights&) = default;
};

// One set per board size; sizes without their own weights use the nearest size that has them.
struct EvalWeightSet {
    std::array<EvalWeights, max_size + 1> by_size{};
    std::array<bool, max_size + 1> present{};
    const EvalWeights& for_size(int size) const;
};

// The weights built in: engines/tak/nets/eval_weights.txt, the file train_tak_eval fit writes,
// embedded at build time and read by parse_eval_weights like any EvalFile.
constexpr std::string_view builtin_eval_file = "eval_weights.txt";
const EvalWeightSet& builtin_eval_weights();

// The weights text: a first line `bge-tak-eval 1`, then `<size> <feature> <opening> <endgame>`
// lines (feature names as features::name_of gives them; missing features weigh 0); blank lines
// and lines starting with '#' are ignored.
Expected<EvalWeightSet> parse_eval_weights(std::string_view text);
Expected<EvalWeightSet> load_eval_weights(const std::string& path);
// The text train_tak_eval writes: the header, `comment` as '#' lines, a line naming the columns,
// then the weights of every size present.
std::string format_eval_weights(const EvalWeightSet& weights, std::string_view comment);

// The linear part alone, in centi-flats for the side to move (no road-in-one check, no clamp).
int linear_eval(const EvalWeights& weights, const State& state);

// Remembers recent evaluations by position (the search evaluates many positions more than once:
// each iteration revisits the last one's leaves). A copy starts empty, so every search thread
// that copies an evaluator gets its own.
class EvalCache {
public:
    EvalCache() = default;
    EvalCache(const EvalCache&) {}
    EvalCache& operator=(const EvalCache&) { return *this; }

    bool probe(std::uint64_t key, int& value) const {
        if (!entries_) return false;
        const Entry& entry = entries_[key & (size - 1)];
        if (entry.key != key) return false;
        value = entry.value;
        return true;
    }
    void store(std::uint64_t key, int value) {
        if (!entries_) entries_ = std::make_unique<Entry[]>(size);
        entries_[key & (size - 1)] = {key, value};
    }

private:
    static constexpr std::size_t size = 1 << 16;
    struct Entry {
        std::uint64_t key = 0;
        int value = 0;
    };
    std::unique_ptr<Entry[]> entries_;
};

class TakEvaluator {
public:
    static constexpr int road_in_one_score = 4000;

    TakEvaluator() : weights_(&builtin_eval_weights()) {}
    // Shares the weights: evaluators are copied into every search.
    explicit TakEvaluator(std::shared_ptr<const EvalWeightSet> weights)
        : owned_(std::move(weights)), weights_(owned_.get()) {}

    // Board sizes that `nets` covers are evaluated by their value network, the others by the
    // linear model; nullptr: the linear model everywhere (the default).
    void use_networks(std::shared_ptr<const network::NetworkSet> nets) {
        network_ = network::NetworkEvaluator(std::move(nets));
        cache_ = EvalCache();
    }
    const std::shared_ptr<const network::NetworkSet>& networks() const { return network_.networks(); }
    // Where a network covers the size: its share of the evaluation in percent, the linear model
    // having the rest (NnueWeight). Each model alone is optimistic in the positions a search over
    // it steers to, and an opponent finds those (docs/experiments/tak-tiltak.md).
    void set_network_weight(int percent) {
        if (percent != network_percent_) cache_ = EvalCache();
        network_percent_ = percent;
    }
    // Orders moves by the learned policy instead of static_hint; nullptr: static_hint (the default).
    void use_policy(std::shared_ptr<const policy::Policy> policy) { policy_ = std::move(policy); }

    int evaluate(const State& state) const;
    // evaluate, when the side to move is known to have no win on the spot (the search has just
    // asked winning_move): the road-in-one test is skipped.
    int evaluate_quiet(const State& state) const;
    // Move ordering for alpha-beta: the policy's logit (x 100) or static_hint, and first of all the
    // answers to a road threat
    // (placements on the opponent's road-in-one squares, spreads whose first or last square is one).
    int order_hint(const State& state, const Move& move) const;
    // For late-move and futility pruning: placements, and spreads that cover none of the
    // opponent's pieces and flatten no wall. Captures change the flat count and roads at once.
    bool is_quiet(const State& state, const Move& move) const;
    // The move's merit from its kind, its square and its neighbours alone (MCTS's priors).
    int static_hint(const State& state, const Move& move) const;
    // A null move is no answer to a road threat, and means nothing in the opening plies or when
    // the mover has nothing left to place.
    bool null_move_allowed(const State& state) const;
    // Squares where a placement would complete a road for `side` (roads.hpp).
    static Bitboard road_in_one_squares(const State& state, Side side);
    // The alpha-beta hooks for tactics: a move that wins at once for the side to move (a road,
    // or the placement ending the game ahead on flats), and whether the opponent has one.
    std::optional<Move> winning_move(State& state) const;
    bool threatened(State& state) const;
    // Only a road threat extends the search (FlatThreatExtension off): the threat to end the game
    // ahead on flats stands at nearly every node of a flat race, and extending them all made depth
    // 5 of a 6x6 race out of reach in 15 s (depth 7 in 3 s without).
    bool threat_extends(State& state) const;
    void extend_flat_threats(bool on) { extend_flat_threats_ = on; }

    const EvalWeightSet& weights() const { return *weights_; }

private:
    std::shared_ptr<const EvalWeightSet> owned_;
    const EvalWeightSet* weights_;
    network::NetworkEvaluator network_;
    std::shared_ptr<const policy::Policy> policy_;
    mutable EvalCache cache_;
    // The opponent's road-in-one squares of the last position ordered (by hash).
    mutable std::uint64_t threats_hash_ = 0;
    mutable Bitboard their_threats_ = 0;
    bool extend_flat_threats_ = false;
    int network_percent_ = 100;
};

}  // namespace bge::tak
