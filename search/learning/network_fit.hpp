#pragma once
// Fitting a ValueNetwork to targets, written once for every trainer: samples (sparse inputs and
// a target probability) go through shuffled mini-batches, each step minimising the cross-entropy
// with Adam (Kingma and Ba 2015).
//
// Each batch is cut into a fixed number of shards whose gradients are summed in shard order, and
// the threads share the shards and then the parameter update, so a seed gives the same weights for
// any thread count.

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "search/learning/cross_entropy.hpp"
#include "search/learning/value_network.hpp"

namespace bge::search::learning {

// Training samples: compressed sparse rows and their targets.
class SampleBuffer {
public:
    std::size_t size() const { return targets_.size(); }
    void clear() {
        index_.clear();
        value_.clear();
        offset_.assign(1, 0);
        targets_.clear();
    }
    void add(const FeatureList& x, float target) {
        index_.insert(index_.end(), x.index.begin(), x.index.begin() + x.size);
        value_.insert(value_.end(), x.value.begin(), x.value.begin() + x.size);
        offset_.push_back(static_cast<std::uint32_t>(index_.size()));
        targets_.push_back(target);
    }
    void append(const SampleBuffer& other) {
        for (std::size_t i = 0; i < other.size(); ++i) {
            FeatureList x;
            other.row(i, x);
            add(x, other.target(i));
        }
    }
    void row(std::size_t i, FeatureList& x) const {
        const std::uint32_t begin = offset_[i], end = offset_[i + 1];
        x.size = static_cast<int>(end - begin);
        std::copy(index_.begin() + begin, index_.begin() + end, x.index.begin());
        std::copy(value_.begin() + begin, value_.begin() + end, x.value.begin());
    }
    float target(std::size_t i) const { return targets_[i]; }

private:
    std::vector<std::uint16_t> index_;
    std::vector<float> value_;
    std::vector<std::uint32_t> offset_{0};
    std::vector<float> targets_;
};

struct AdamSettings {
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
};

// Mean losses over the samples of a train() call, each taken before the step that used it.
struct FitLoss {
    double cross_entropy = 0;
    double squared_error = 0;  // (prediction - target)^2
};

// Net is ValueNetwork or any model with the same forward/backward/parameters interface
// (PerspectiveNetwork); one with constrain(from, to) has it called on each thread's range of
// parameters after every step.
template <class Net = ValueNetwork>
class NetworkFit {
public:
    NetworkFit(Net& net, int threads = 1, int shards = 2, AdamSettings adam = {})
        : net_(net),
          threads_(std::clamp(threads, 1, shards)),
          shards_(shards),
          adam_(adam),
          first_(net.parameters().size(), 0.0f),
          second_(net.parameters().size(), 0.0f),
          gradients_(static_cast<std::size_t>(shards), std::vector<float>(net.parameters().size(), 0.0f)) {}

    long long steps() const { return steps_; }

    // One Adam step per `batch_size` samples, taken in `order`, at learning rate `rate`.
    FitLoss train(const SampleBuffer& samples, const std::vector<std::uint32_t>& order, std::size_t batch_size,
                  double rate) {
        if (order.empty()) return {};
        batch_size = std::max<std::size_t>(batch_size, 1);
        std::vector<double> shard_loss(static_cast<std::size_t>(shards_), 0.0);
        std::vector<double> shard_squares(static_cast<std::size_t>(shards_), 0.0);
        double loss_sum = 0, squares_sum = 0;
        std::size_t begin = 0;  // the current batch, advanced by thread 0 between the barriers
        std::barrier sync(threads_);
        const std::size_t n = net_.parameters().size();
        auto work = [&](int t) {
            FeatureList x;
            typename Net::Activations act;
            while (true) {
                const std::size_t end = std::min(order.size(), begin + batch_size);
                const std::size_t count = end - begin;
                for (int s = t; s < shards_; s += threads_) {
                    std::vector<float>& gradient = gradients_[static_cast<std::size_t>(s)];
                    double loss = 0, squares = 0;
                    const std::size_t from = begin + count * static_cast<std::size_t>(s) / shards_;
                    const std::size_t to = begin + count * static_cast<std::size_t>(s + 1) / shards_;
                    for (std::size_t k = from; k < to; ++k) {
                        samples.row(order[k], x);
                        const double p = net_.forward(x, act);
                        const double y = samples.target(order[k]);
                        loss += cross_entropy(p, y);
                        squares += (p - y) * (p - y);
                        net_.backward(x, act, p - y, gradient.data());
                    }
                    shard_loss[static_cast<std::size_t>(s)] = loss;
                    shard_squares[static_cast<std::size_t>(s)] = squares;
                }
                sync.arrive_and_wait();
                // The update, each thread over its own range of parameters.
                const double step = static_cast<double>(steps_ + 1);
                const double c1 = 1 - std::pow(adam_.beta1, step), c2 = 1 - std::pow(adam_.beta2, step);
                const float b1 = static_cast<float>(adam_.beta1), b2 = static_cast<float>(adam_.beta2);
                const float scale = 1.0f / static_cast<float>(count);
                const float r = static_cast<float>(rate / c1), root_c2 = static_cast<float>(std::sqrt(c2));
                const float eps = static_cast<float>(adam_.epsilon);
                float* w = net_.parameters().data();
                const std::size_t p_from = n * static_cast<std::size_t>(t) / threads_;
                const std::size_t p_to = n * static_cast<std::size_t>(t + 1) / threads_;
                for (std::size_t p = p_from; p < p_to; ++p) {
                    float g = 0;
                    for (auto& part : gradients_) {
                        g += part[p];
                        part[p] = 0.0f;
                    }
                    g *= scale;
                    first_[p] = b1 * first_[p] + (1 - b1) * g;
                    second_[p] = b2 * second_[p] + (1 - b2) * g * g;
                    w[p] -= r * first_[p] / (std::sqrt(second_[p]) / root_c2 + eps);
                }
                if constexpr (requires { net_.constrain(p_from, p_to); }) net_.constrain(p_from, p_to);
                sync.arrive_and_wait();
                if (t == 0) {
                    for (int k = 0; k < shards_; ++k) {
                        loss_sum += shard_loss[static_cast<std::size_t>(k)];
                        squares_sum += shard_squares[static_cast<std::size_t>(k)];
                    }
                    ++steps_;
                    begin = end;
                }
                sync.arrive_and_wait();
                if (begin >= order.size()) return;
            }
        };
        std::vector<std::thread> workers;
        for (int t = 1; t < threads_; ++t) workers.emplace_back(work, t);
        work(0);
        for (auto& worker : workers) worker.join();
        const double count = static_cast<double>(order.size());
        return {loss_sum / count, squares_sum / count};
    }

private:
    Net& net_;
    int threads_;
    int shards_;
    AdamSettings adam_;
    std::vector<float> first_, second_;
    std::vector<std::vector<float>> gradients_;
    long long steps_ = 0;
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
