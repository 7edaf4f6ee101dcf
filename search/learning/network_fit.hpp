#pragma once
// Fitting a ValueNetwork (or a PerspectiveNetwork) to targets, written once for every trainer:
// samples (a SparseDataset of sparse inputs and target probabilities) go through mini-batches,
// each step minimising the cross-entropy with the learning core's Adam (adam.hpp), so the weights
// depend on the seed and the shard count, not on the thread count.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "search/learning/adam.hpp"
#include "search/learning/cross_entropy.hpp"
#include "search/learning/sparse_dataset.hpp"
#include "search/learning/value_network.hpp"

namespace bge::search::learning {

// Net is ValueNetwork or any model with the same forward/backward/parameters interface
// (PerspectiveNetwork); one with constrain(from, to) has it called on each thread's range of
// parameters after every step.
template <class Net = ValueNetwork>
class NetworkFit {
public:
    NetworkFit(Net& net, int threads = 1, int shards = 2, AdamSettings adam = {})
        : net_(net),
          threads_(std::clamp(threads, 1, shards)),
          adam_(net.parameters().size(), shards, adam),
          scratch_(static_cast<std::size_t>(threads_)) {}

    long long steps() const { return adam_.steps(); }

    // One Adam step per `batch_size` samples, taken in `order`, at learning rate `rate`. Returns
    // the mean losses.
    FitLoss train(const SparseDataset& samples, const std::vector<std::uint32_t>& order, std::size_t batch_size,
                  double rate) {
        if (order.empty()) return {};
        auto sample = [&](int thread, std::uint32_t i, float* gradient) {
            Scratch& scratch = scratch_[static_cast<std::size_t>(thread)];
            samples.row(i, scratch.x);
            const double p = net_.forward(scratch.x, scratch.act);
            const double y = samples.target(i);
            net_.backward(scratch.x, scratch.act, p - y, gradient);
            return FitLoss{cross_entropy(p, y), (p - y) * (p - y)};
        };
        auto constrain = [&](std::size_t from, std::size_t to) {
            if constexpr (requires { net_.constrain(from, to); }) net_.constrain(from, to);
        };
        const FitLoss sum = adam_.run(net_.parameters().data(), order, batch_size, StepSettings{rate}, threads_,
                                      sample, constrain);
        const double count = static_cast<double>(order.size());
        return {sum.cross_entropy / count, sum.squared_error / count};
    }

private:
    struct Scratch {
        FeatureList x;
        typename Net::Activations act;
    };

    Net& net_;
    int threads_;
    Adam<float> adam_;
    std::vector<Scratch> scratch_;
};

// TD(lambda) targets after a game, the forward view (the lambda-return; Sutton and Barto 2018,
// 12.1): for positions s_0..s_{T-1} with values v_t = V(s_t) for one fixed side and the game's
// result z for that side,
//     G_{T-1} = z,   G_t = (1 - lambda) v_{t+1} + lambda G_{t+1}.
// lambda = 0 is one-step TD (each position learns the next one's value), lambda = 1 learns the
// result (Monte Carlo). The values may come from the network being trained or from a teacher.
inline std::vector<float> lambda_returns(const std::vector<float>& values, double result, double lambda) {
    std::vector<float> returns(values.size());
    double g = result;
    for (std::size_t t = values.size(); t-- > 0;) {
        if (t + 1 < values.size()) g = (1 - lambda) * values[t + 1] + lambda * g;
        returns[t] = static_cast<float>(g);
    }
    return returns;
}

}  // namespace bge::search::learning
