#pragma once
// Logistic regression of game results on the features of a linear evaluation ("Texel tuning"),
// written once for every game's trainer.
//
// The model is a phase-blended linear function: for a sample with features x and phase weights
// b (SparseDataset),
//
//     logit = sum_p b_p * sum_i w[p][i] * x_i,     prediction = 1 / (1 + exp(-logit))
//
// fitted to the targets by minimising the cross-entropy plus an L2 penalty, with Adam over
// shuffled mini-batches. Each batch's gradient is summed over `threads` slices in a fixed order,
// so a seed gives the same weights on any machine with the same thread count.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <thread>
#include <vector>

#include "core/random.hpp"
#include "search/learning/cross_entropy.hpp"
#include "search/learning/schedule.hpp"
#include "search/learning/sparse_dataset.hpp"

namespace bge::search::learning {

struct LogisticSettings {
    int epochs = 20;
    std::size_t batch_size = 16384;
    Schedule learning_rate = Schedule::cosine(0.02, 0.0005);
    double l2 = 1e-6;  // per sample, on every weight not frozen
    double beta1 = 0.9;
    double beta2 = 0.999;
    int threads = 1;
    std::uint64_t seed = 1;
};

struct EpochReport {
    int epoch = 0;  // 1-based
    double learning_rate = 0;
    double train_loss = 0;       // mean cross-entropy over the epoch's batches, before each step
    double validation_loss = 0;  // after the epoch; 0 without validation samples
};

// The mean cross-entropy of `weights` (phase-major, phase_count * feature_count) on `data`.
inline double logistic_loss(const SparseDataset& data, const std::vector<double>& weights, std::size_t feature_count);

class LogisticFit {
public:
    // `weights` starts the fit (phase-major: w[p * feature_count + i]); `frozen` (optional, one
    // flag per weight) keeps a weight where it is (ablations, features a size does not have).
    LogisticFit(std::size_t feature_count, std::vector<double> weights, std::vector<bool> frozen = {})
        : features_(feature_count), weights_(std::move(weights)), frozen_(std::move(frozen)) {
        if (frozen_.empty()) frozen_.assign(weights_.size(), false);
    }

    const std::vector<double>& weights() const { return weights_; }

    // Runs the epochs; calls `report` after each. Returns the curve.
    std::vector<EpochReport> run(const SparseDataset& train, const SparseDataset& validation,
                                 const LogisticSettings& settings,
                                 const std::function<void(const EpochReport&)>& report = {}) {
        const std::size_t phases = train.phase_count();
        const std::size_t n = weights_.size();
        std::vector<double> first(n, 0.0), second(n, 0.0);
        const int threads = std::max(1, settings.threads);
        std::vector<std::vector<double>> gradients(static_cast<std::size_t>(threads), std::vector<double>(n));
        std::vector<double> losses(static_cast<std::size_t>(threads));
        std::vector<std::size_t> order(train.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        Random random(settings.seed);
        std::vector<EpochReport> curve;
        long long step = 0;

        for (int epoch = 0; epoch < settings.epochs; ++epoch) {
            for (std::size_t i = order.size(); i > 1; --i)
                std::swap(order[i - 1], order[random.below(static_cast<std::uint32_t>(i))]);
            const double rate = settings.learning_rate.at(epoch, settings.epochs);
            double loss_sum = 0;
            for (std::size_t begin = 0; begin < order.size(); begin += settings.batch_size) {
                const std::size_t end = std::min(order.size(), begin + settings.batch_size);
                auto slice = [&](int t) {
                    std::vector<double>& gradient = gradients[static_cast<std::size_t>(t)];
                    std::fill(gradient.begin(), gradient.end(), 0.0);
                    double loss = 0;
                    const std::size_t length = (end - begin + static_cast<std::size_t>(threads) - 1) / threads;
                    const std::size_t from = begin + length * static_cast<std::size_t>(t);
                    const std::size_t to = std::min(end, from + length);
                    for (std::size_t k = from; k < to; ++k) {
                        const std::size_t i = order[k];
                        const double prediction = predict(train, i, phases);
                        const double target = train.target(i);
                        loss += cross_entropy(prediction, target);
                        const double error = prediction - target;
                        const auto row = train.row(i);
                        const float* blend = train.phases(i);
                        for (std::size_t p = 0; p < phases; ++p) {
                            const double scaled = error * blend[p];
                            if (scaled == 0) continue;
                            double* g = gradient.data() + p * features_;
                            for (const SparseEntry* e = row.begin; e != row.end; ++e) g[e->index] += scaled * e->value;
                        }
                    }
                    losses[static_cast<std::size_t>(t)] = loss;
                };
                run_slices(threads, slice);
                const double count = static_cast<double>(end - begin);
                ++step;
                const double correction1 = 1 - std::pow(settings.beta1, static_cast<double>(step));
                const double correction2 = 1 - std::pow(settings.beta2, static_cast<double>(step));
                for (std::size_t w = 0; w < n; ++w) {
                    if (frozen_[w]) continue;
                    double g = 0;
                    for (const auto& part : gradients) g += part[w];
                    g = g / count + settings.l2 * weights_[w];
                    first[w] = settings.beta1 * first[w] + (1 - settings.beta1) * g;
                    second[w] = settings.beta2 * second[w] + (1 - settings.beta2) * g * g;
                    weights_[w] -= rate * (first[w] / correction1) / (std::sqrt(second[w] / correction2) + 1e-8);
                }
                for (double loss : losses) loss_sum += loss;
            }
            EpochReport epoch_report;
            epoch_report.epoch = epoch + 1;
            epoch_report.learning_rate = rate;
            epoch_report.train_loss = train.size() ? loss_sum / static_cast<double>(train.size()) : 0;
            epoch_report.validation_loss = validation.size() ? logistic_loss(validation, weights_, features_) : 0;
            curve.push_back(epoch_report);
            if (report) report(epoch_report);
        }
        return curve;
    }

    double predict(const SparseDataset& data, std::size_t i, std::size_t phases) const {
        return sigmoid(logit(data, i, phases, weights_, features_));
    }

    static double logit(const SparseDataset& data, std::size_t i, std::size_t phases,
                        const std::vector<double>& weights, std::size_t feature_count) {
        const auto row = data.row(i);
        const float* blend = data.phases(i);
        double sum = 0;
        for (std::size_t p = 0; p < phases; ++p) {
            if (blend[p] == 0) continue;
            const double* w = weights.data() + p * feature_count;
            double part = 0;
            for (const SparseEntry* e = row.begin; e != row.end; ++e) part += w[e->index] * e->value;
            sum += blend[p] * part;
        }
        return sum;
    }
    static double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

private:
    template <class Slice>
    static void run_slices(int threads, Slice& slice) {
        if (threads == 1) {
            slice(0);
            return;
        }
        std::vector<std::thread> workers;
        for (int t = 1; t < threads; ++t) workers.emplace_back([&slice, t] { slice(t); });
        slice(0);
        for (auto& worker : workers) worker.join();
    }

    std::size_t features_;
    std::vector<double> weights_;
    std::vector<bool> frozen_;
};

inline double logistic_loss(const SparseDataset& data, const std::vector<double>& weights, std::size_t feature_count) {
    if (data.size() == 0) return 0;
    double sum = 0;
    for (std::size_t i = 0; i < data.size(); ++i) {
        const double prediction =
            LogisticFit::sigmoid(LogisticFit::logit(data, i, data.phase_count(), weights, feature_count));
        sum += cross_entropy(prediction, data.target(i));
    }
    return sum / static_cast<double>(data.size());
}

}  // namespace bge::search::learning
