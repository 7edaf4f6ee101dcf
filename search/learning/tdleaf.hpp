#pragma once
// TDLeaf(lambda) (Baxter, Tridgell and Weaver, "Learning to play chess using temporal
// differences", 2000): TD(lambda) applied to the leaves of the principal variations a minimax
// search found, rather than to the positions played. For one player's positions in one game,
// with r_t the evaluation of the leaf of its t-th search (t = 0..N-1) and r_N the game's result:
//
//     d_t = r_{t+1} - r_t
//     w  += eta * sum_t grad r_t * sum_{j >= t} lambda^(j - t) * d_j
//
// Games are learned from after they end, with the weights fixed during the game, as in the
// paper. The evaluation is usually squashed, r = tanh(w . phi), so results are +-1 (0 a draw);
// the caller supplies r_t and its gradient, so any differentiable evaluation fits.

#include <array>
#include <cstddef>
#include <vector>

namespace bge::search::learning {

template <std::size_t N>
struct TdLeafStep {
    double value = 0;                // r_t: the evaluation of the principal leaf
    std::array<double, N> gradient{};  // d r_t / d w (all zero for a decided leaf)
};

// The weight change for one player's sequence of leaves and the game's result for that player.
template <std::size_t N>
std::array<double, N> tdleaf_delta(const std::vector<TdLeafStep<N>>& steps, double result, double lambda,
                                   double eta) {
    std::array<double, N> delta{};
    // Backwards: trace_t = d_t + lambda * trace_{t+1}, the discounted sum of later differences.
    double trace = 0;
    for (std::size_t t = steps.size(); t-- > 0;) {
        const double next = t + 1 < steps.size() ? steps[t + 1].value : result;
        trace = (next - steps[t].value) + lambda * trace;
        for (std::size_t i = 0; i < N; ++i) delta[i] += eta * steps[t].gradient[i] * trace;
    }
    return delta;
}

}  // namespace bge::search::learning
