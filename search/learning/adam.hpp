#pragma once
// The optimiser of the learning core, written once for every fit: Adam (Kingma and Ba 2015) over
// mini-batches, used by the logistic fit of linear evaluations (LogisticFit), the networks' fit
// (NetworkFit) and the move policies' softmax fit (SoftmaxFit).
//
// Each batch is cut into a fixed number of shards whose gradients are summed in shard order; the
// threads share the shards, then each updates its own range of parameters. So a seed gives the
// same parameters for any thread count (the shard count does change them). Real is float for the
// networks and double for the linear models; both take the same expressions below.

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

namespace bge::search::learning {

struct AdamSettings {
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
};

// Losses summed (or averaged, where a fit says so) over samples, each taken before the step that
// used it.
struct FitLoss {
    double cross_entropy = 0;
    double squared_error = 0;  // (prediction - target)^2
};

// What one step applies besides the gradient.
struct StepSettings {
    double rate = 0.001;                        // the step size
    double l2 = 0;                              // penalty per sample, on every parameter not frozen
    const std::vector<bool>* frozen = nullptr;  // optional, one flag per parameter: left where it is
};

template <class Real>
class Adam {
public:
    Adam(std::size_t parameters, int shards = 2, AdamSettings settings = {})
        : shards_(std::max(1, shards)),
          settings_(settings),
          first_(parameters, Real(0)),
          second_(parameters, Real(0)),
          gradients_(static_cast<std::size_t>(shards_), std::vector<Real>(parameters, Real(0))) {}

    long long steps() const { return steps_; }
    int shards() const { return shards_; }

    // One step per `batch_size` samples, taken in `order`, on `threads` threads (at most one a
    // shard). sample(thread, index, gradient) adds the gradient of sample `index`'s loss to
    // `gradient` (its shard's, one Real a parameter) and returns that loss; after(from, to) is
    // called after every update on each thread's range of parameters (to constrain them).
    // Returns the losses summed over `order`.
    template <class Sample, class After>
    FitLoss run(Real* parameters, const std::vector<std::uint32_t>& order, std::size_t batch_size,
                const StepSettings& step, int threads, Sample&& sample, After&& after) {
        if (order.empty()) return {};
        batch_size = std::max<std::size_t>(batch_size, 1);
        threads = std::clamp(threads, 1, shards_);
        std::vector<FitLoss> shard_loss(static_cast<std::size_t>(shards_));
        FitLoss total;
        std::size_t begin = 0;  // the current batch, advanced by thread 0 between the barriers
        std::barrier sync(threads);
        const std::size_t n = first_.size();
        auto work = [&](int t) {
            while (true) {
                const std::size_t end = std::min(order.size(), begin + batch_size);
                const std::size_t count = end - begin;
                for (int s = t; s < shards_; s += threads) {
                    Real* gradient = gradients_[static_cast<std::size_t>(s)].data();
                    FitLoss loss;
                    const std::size_t from = begin + count * static_cast<std::size_t>(s) / shards_;
                    const std::size_t to = begin + count * static_cast<std::size_t>(s + 1) / shards_;
                    for (std::size_t k = from; k < to; ++k) {
                        const FitLoss one = sample(t, order[k], gradient);
                        loss.cross_entropy += one.cross_entropy;
                        loss.squared_error += one.squared_error;
                    }
                    shard_loss[static_cast<std::size_t>(s)] = loss;
                }
                sync.arrive_and_wait();
                const std::size_t p_from = n * static_cast<std::size_t>(t) / threads;
                const std::size_t p_to = n * static_cast<std::size_t>(t + 1) / threads;
                update(parameters, p_from, p_to, count, step);
                after(p_from, p_to);
                sync.arrive_and_wait();
                if (t == 0) {
                    for (const FitLoss& loss : shard_loss) {
                        total.cross_entropy += loss.cross_entropy;
                        total.squared_error += loss.squared_error;
                    }
                    ++steps_;
                    begin = end;
                }
                sync.arrive_and_wait();
                if (begin >= order.size()) return;
            }
        };
        std::vector<std::thread> workers;
        for (int t = 1; t < threads; ++t) workers.emplace_back(work, t);
        work(0);
        for (auto& worker : workers) worker.join();
        return total;
    }
    template <class Sample>
    FitLoss run(Real* parameters, const std::vector<std::uint32_t>& order, std::size_t batch_size,
                const StepSettings& step, int threads, Sample&& sample) {
        return run(parameters, order, batch_size, step, threads, sample, [](std::size_t, std::size_t) {});
    }

private:
    // Adam's step on parameters [from, to) with the mean gradient of `count` samples; the bias
    // corrections of step t are folded into the rate and the second moment's root.
    void update(Real* w, std::size_t from, std::size_t to, std::size_t count, const StepSettings& step) {
        const double t = static_cast<double>(steps_ + 1);
        const double c1 = 1 - std::pow(settings_.beta1, t), c2 = 1 - std::pow(settings_.beta2, t);
        const Real b1 = static_cast<Real>(settings_.beta1), b2 = static_cast<Real>(settings_.beta2);
        const Real scale = Real(1) / static_cast<Real>(count);
        const Real rate = static_cast<Real>(step.rate / c1), root_c2 = static_cast<Real>(std::sqrt(c2));
        const Real epsilon = static_cast<Real>(settings_.epsilon), l2 = static_cast<Real>(step.l2);
        for (std::size_t p = from; p < to; ++p) {
            Real g = 0;
            for (auto& part : gradients_) {
                g += part[p];
                part[p] = Real(0);
            }
            if (step.frozen && (*step.frozen)[p]) continue;
            g *= scale;
            if (l2 != Real(0)) g += l2 * w[p];
            first_[p] = b1 * first_[p] + (1 - b1) * g;
            second_[p] = b2 * second_[p] + (1 - b2) * g * g;
            w[p] -= rate * first_[p] / (std::sqrt(second_[p]) / root_c2 + epsilon);
        }
    }

    int shards_;
    AdamSettings settings_;
    std::vector<Real> first_, second_;
    std::vector<std::vector<Real>> gradients_;
    long long steps_ = 0;
};

}  // namespace bge::search::learning
