#pragma once
// The Expendibots evaluation for alpha-beta, built from the study's features and aware of the
// game phase (docs/expendibots.md, "Evaluation"):
//
//   value(s, P) = sum over phases p of blend_p(s) * (w_p . phi(s, P))
//
// phi describes the position from one player's view P (the "perspective"): token balance with
// separate weights for own and enemy tokens, so destruction can be rewarded above friendly loss;
// centre control and corner penalties; the closest enemy distance; cluster exposure (what one
// explosion could take). blend(s) mixes the opening, middlegame and endgame weight sets by the
// action count and the tokens left. The weights are learned by TDLeaf(lambda) self-play
// (tools/train/train_expendibots_tdleaf), where tanh(value) predicts the result for P.
//
// Own and enemy tokens weigh differently, so value(s, White) != -value(s, Black): the search
// maximises the root player's value and assumes the opponent minimises it (the study's minimax
// over its own utility). The evaluator is told the root player before each search.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/expendibots/expendibots.hpp"

namespace bge::expendibots {

enum class Phase { opening = 0, middlegame = 1, endgame = 2 };
constexpr std::size_t phase_count = 3;
constexpr std::array<std::string_view, phase_count> phase_names = {"opening", "middlegame", "endgame"};

struct EvalFeatures {
    static constexpr std::size_t count = 13;
    static constexpr std::array<std::string_view, count> names = {
        "own_tokens",        // own tokens / 12
        "enemy_tokens",      // enemy tokens / 12
        "own_centre",        // own tokens on the central 4x4 squares / 12
        "enemy_centre",      //
        "own_corners",       // own tokens on the four corner squares / 12
        "enemy_corners",     //
        "closeness",         // (14 - closest Manhattan distance between opposing stacks) / 14
        "hunt",              // closeness * (own - enemy tokens) / 12: the side ahead closes in
        "own_exposed",       // most own tokens in one cluster that holds an enemy stack / 12
        "enemy_exposed",     // most enemy tokens in one cluster that holds an own stack / 12
        "own_cluster",       // most own tokens in one cluster (8-connected stacks) / 12
        "enemy_cluster",     //
        "to_move",           // 1 when P is to move
    };
    using Vector = std::array<double, count>;

    static void compute(const State& state, Side perspective, Vector& phi);
};

using PhaseBlend = std::array<double, phase_count>;
// Opening share: fades over the first 24 actions while (almost) every token is on the board;
// endgame share: grows as the tokens left fall from 14 to 6; the middlegame takes the rest.
PhaseBlend phase_blend(const State& state);
Phase dominant_phase(const State& state);

struct EvalWeights {
    std::array<EvalFeatures::Vector, phase_count> by_phase{};
    static constexpr std::size_t size = phase_count * EvalFeatures::count;
    double& at(std::size_t i) { return by_phase[i / EvalFeatures::count][i % EvalFeatures::count]; }
    double at(std::size_t i) const { return by_phase[i / EvalFeatures::count][i % EvalFeatures::count]; }
};

// The linear value for `perspective`; its gradient with respect to the weights is
// blend_p * phi for phase p (TDLeaf needs both, so `phi` and `blend` are optional outputs).
double linear_value(const EvalWeights& weights, const State& state, Side perspective,
                    EvalFeatures::Vector* phi = nullptr, PhaseBlend* blend = nullptr);

// Centi-units per unit of linear value: with the own_tokens weight near 1 a token is ~100.
constexpr double centi_per_unit = 1200.0;

// The hand-set starting point of training.
EvalWeights initial_weights();
// The weights built in: engines/expendibots/nets/eval_weights.txt, the file
// train_expendibots_tdleaf --out writes, embedded at build time and read by parse_weights like
// any EvalWeights file.
constexpr std::string_view builtin_weights_file = "eval_weights.txt";
const EvalWeights& builtin_weights();

// The weights file: a first line `bge-expendibots-weights 1`, `comment` as '#' lines, then
// `<phase> <feature> <value>` for every phase and feature (17 significant digits, so a file read
// back gives the same doubles); blank lines and lines starting with '#' are ignored.
std::string format_weights(const EvalWeights& weights, std::string_view comment);
Expected<EvalWeights> parse_weights(std::string_view text);
Expected<EvalWeights> load_weights(const std::string& path);

// Smallest Manhattan distance between a stack of `from` and one of `to`; 0 when either is empty.
int closest_distance(Bitboard from, Bitboard to);

// Net tokens a BOOM at `square` destroys for the side to move: enemy tokens minus own tokens.
struct BlastCount {
    int own = 0;
    int enemy = 0;
};
BlastCount blast_count(const State& state, int square);

// The alpha-beta evaluator (search/alphabeta.hpp's hooks).
class Evaluator {
public:
    explicit Evaluator(const EvalWeights* weights = &builtin_weights()) : weights_(weights) {}

    void set_weights(const EvalWeights* weights) { weights_ = weights; }
    void set_perspective(Side side) { perspective_ = side; }
    Side perspective() const { return perspective_; }
    // The study's inverted quiescence (see noisy_moves); off: leaves are evaluated as they are.
    void set_quiescence(bool on) { quiescence_ = on; }

    // Centi-units for the side to move: + the perspective's value when it is to move, - otherwise.
    int evaluate(const State& state) const;
    // Booms first, ordered by what they destroy; suicidal booms last.
    int order_hint(const State& state, const Move& move) const;
    // Inverted quiescence: at a quiet leaf (the move into it destroyed nothing) the side to move
    // may still explode any stack whose blast reaches an enemy token; after such a swing the
    // position is scored as it stands, with no further extension.
    void noisy_moves(const State& state, MoveList<Expendibots>& moves) const;
    // No null move with few tokens left, where tempo decides everything.
    bool null_move_allowed(const State& state) const;

private:
    const EvalWeights* weights_;
    Side perspective_ = Side::first;
    bool quiescence_ = true;
};

}  // namespace bge::expendibots
