#pragma once
// Logistic regression of game results on the features of a linear evaluation ("Texel tuning"),
// written once for every game's trainer.
//
// The model is a phase-blended linear function: for a sample with features x and phase weights
// b (SparseDataset),
//
//     logit = sum_p b_p * sum_i w[p][i] * x_i,     prediction = 1 / (1 + exp(-logit))
//
// fitted to the targets by minimising the cross-entropy plus an L2 penalty, with the learning
// core's Adam (adam.hpp) over shuffled mini-batches: a seed gives the same weights for any thread
// count.

#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "core/random.hpp"
#include "search/learning/adam.hpp"
#include "search/learning/cross_entropy.hpp"
#include "search/learning/schedule.hpp"
#include "search/learning/sparse_dataset.hpp"

namespace bge::search::learning {

struct LogisticSettings {
    int epochs = 20;
    std::size_t batch_size = 16384;
    Schedule learning_rate = Schedule::cosine(0.02, 0.0005);
    double l2 = 1e-6;  // per sample, on every weight not frozen
    AdamSettings adam;
    int threads = 1;
    int shards = 8;  // the weights depend on these, not on the threads
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

    // Runs the epochs over shuffled batches; calls `report` after each. Returns the curve.
    std::vector<EpochReport> run(const SparseDataset& train, const SparseDataset& validation,
                                 const LogisticSettings& settings,
                                 const std::function<void(const EpochReport&)>& report = {}) {
        const std::size_t phases = train.phase_count();
        Adam<double> adam(weights_.size(), settings.shards, settings.adam);
        std::vector<std::uint32_t> order(train.size());
        std::iota(order.begin(), order.end(), 0u);
        Random random(settings.seed);
        std::vector<EpochReport> curve;
        auto sample = [&](int, std::uint32_t i, double* gradient) {
            const double prediction = predict(train, i, phases);
            const double target = train.target(i);
            const double error = prediction - target;
            const auto row = train.row(i);
            const float* blend = train.phases(i);
            for (std::size_t p = 0; p < phases; ++p) {
                const double scaled = error * blend[p];
                if (scaled == 0) continue;
                double* g = gradient + p * features_;
                for (std::size_t k = 0; k < row.size; ++k) g[row.index[k]] += scaled * row.value[k];
            }
            return FitLoss{cross_entropy(prediction, target), error * error};
        };
        for (int epoch = 0; epoch < settings.epochs; ++epoch) {
            for (std::size_t i = order.size(); i > 1; --i)
                std::swap(order[i - 1], order[random.below(static_cast<std::uint32_t>(i))]);
            const double rate = settings.learning_rate.at(epoch, settings.epochs);
            const FitLoss loss = adam.run(weights_.data(), order, settings.batch_size,
                                          StepSettings{rate, settings.l2, &frozen_}, settings.threads, sample);
            EpochReport epoch_report;
            epoch_report.epoch = epoch + 1;
            epoch_report.learning_rate = rate;
            epoch_report.train_loss = train.size() ? loss.cross_entropy / static_cast<double>(train.size()) : 0;
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
            for (std::size_t k = 0; k < row.size; ++k) part += w[row.index[k]] * row.value[k];
            sum += blend[p] * part;
        }
        return sum;
    }
    static double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

private:
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
