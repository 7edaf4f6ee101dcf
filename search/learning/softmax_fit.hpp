#pragma once
// Fitting a linear move policy, written once for every game: in each position the candidates
// (legal moves) have sparse binary features, the policy is softmax(w . phi(move)) over them, and
// the fit minimises the cross-entropy to the move that was chosen (a deeper search's, usually)
// with the learning core's Adam (adam.hpp) over shuffled mini-batches of positions, so a seed gives
// the same weights on any thread count.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <thread>
#include <vector>

#include "core/random.hpp"
#include "search/learning/adam.hpp"
#include "search/learning/schedule.hpp"

namespace bge::search::learning {

// Positions, each a list of candidates, each a list of active features (compressed rows).
class ChoiceDataset {
public:
    std::size_t size() const { return chosen_.size(); }
    // Starts a position; then add_candidate for each move, in any order; `chosen` is the index of
    // the chosen candidate within this position.
    void begin_position(std::uint32_t chosen) {
        chosen_.push_back(chosen);
        position_offset_.push_back(static_cast<std::uint32_t>(candidate_offset_.size() - 1));
    }
    void add_candidate(const std::vector<std::uint16_t>& features) {
        features_.insert(features_.end(), features.begin(), features.end());
        candidate_offset_.push_back(static_cast<std::uint32_t>(features_.size()));
    }
    std::uint32_t first_candidate(std::size_t position) const { return position_offset_[position]; }
    std::uint32_t end_candidate(std::size_t position) const {
        return position + 1 < position_offset_.size() ? position_offset_[position + 1]
                                                       : static_cast<std::uint32_t>(candidate_offset_.size() - 1);
    }
    std::uint32_t chosen(std::size_t position) const { return chosen_[position]; }
    const std::uint16_t* features_begin(std::uint32_t candidate) const { return features_.data() + candidate_offset_[candidate]; }
    const std::uint16_t* features_end(std::uint32_t candidate) const {
        return features_.data() + candidate_offset_[candidate + 1];
    }

private:
    std::vector<std::uint16_t> features_;
    std::vector<std::uint32_t> candidate_offset_{0};
    std::vector<std::uint32_t> position_offset_;
    std::vector<std::uint32_t> chosen_;
};

struct SoftmaxLoss {
    double cross_entropy = 0;
    double top1 = 0;  // share of positions where the chosen move had the highest logit (ties shared)
};

// How one choice scores under softmax(logits): the cross-entropy of the chosen candidate, and its
// share of first place (ties at the top share the credit: a policy that cannot tell the moves
// apart is not right). Leaves exp(logit - max) in `logits`, and their sum here, for a gradient.
struct ChoiceScore {
    double loss = 0;
    double top1 = 0;
    double sum = 0;
};
inline ChoiceScore score_choice(std::vector<double>& logits, std::size_t chosen) {
    const double top = *std::max_element(logits.begin(), logits.end());
    ChoiceScore score;
    for (double& l : logits) score.sum += (l = std::exp(l - top));
    score.loss = -std::log(std::max(1e-300, logits[chosen] / score.sum));
    int ahead = 0, level = 0;
    for (const double l : logits) {
        ahead += l > logits[chosen] ? 1 : 0;
        level += l == logits[chosen] ? 1 : 0;
    }
    score.top1 = ahead == 0 ? 1.0 / level : 0.0;
    return score;
}

class SoftmaxFit {
public:
    explicit SoftmaxFit(std::size_t features, std::vector<double> weights = {})
        : weights_(weights.empty() ? std::vector<double>(features, 0.0) : std::move(weights)), adam_(features, shards) {}

    const std::vector<double>& weights() const { return weights_; }

    SoftmaxLoss evaluate(const ChoiceDataset& data, int threads) const {
        std::vector<SoftmaxLoss> parts(static_cast<std::size_t>(threads));
        run_threads(threads, [&](int t) {
            std::vector<double> logits;
            for (std::size_t p = static_cast<std::size_t>(t); p < data.size(); p += static_cast<std::size_t>(threads)) {
                const auto [loss, best] = position_loss(data, p, logits, nullptr, 0.0);
                parts[static_cast<std::size_t>(t)].cross_entropy += loss;
                parts[static_cast<std::size_t>(t)].top1 += best;
            }
        });
        SoftmaxLoss total;
        for (const auto& part : parts) {
            total.cross_entropy += part.cross_entropy;
            total.top1 += part.top1;
        }
        const double n = static_cast<double>(std::max<std::size_t>(1, data.size()));
        return {total.cross_entropy / n, total.top1 / n};
    }

    // One epoch: Adam steps of `batch` positions in a shuffled order at step size `rate`, with an
    // L2 penalty per position. Returns the mean loss before each step.
    double train_epoch(const ChoiceDataset& data, std::size_t batch, double rate, double l2, Random& random, int threads) {
        std::vector<std::uint32_t> order(data.size());
        std::iota(order.begin(), order.end(), 0u);
        for (std::size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[random.below(static_cast<std::uint32_t>(i))]);
        std::vector<std::vector<double>> logits(static_cast<std::size_t>(std::max(1, threads)));
        const FitLoss loss = adam_.run(weights_.data(), order, batch, StepSettings{rate, l2}, threads,
                                       [&](int thread, std::uint32_t p, double* gradient) {
                                           return FitLoss{position_loss(data, p, logits[static_cast<std::size_t>(thread)],
                                                                        gradient, 1.0)
                                                              .first};
                                       });
        return loss.cross_entropy / static_cast<double>(std::max<std::size_t>(1, order.size()));
    }

private:
    template <class Work>
    static void run_threads(int threads, Work&& work) {
        std::vector<std::thread> workers;
        for (int t = 1; t < threads; ++t) workers.emplace_back(work, t);
        work(0);
        for (auto& worker : workers) worker.join();
    }

    // The position's cross-entropy and whether the chosen move ranks first; with `gradient`, adds
    // scale * d(loss)/d(weights) to it.
    std::pair<double, double> position_loss(const ChoiceDataset& data, std::size_t p, std::vector<double>& logits,
                                          double* gradient, double scale) const {
        const std::uint32_t first = data.first_candidate(p), last = data.end_candidate(p);
        logits.assign(last - first, 0.0);
        for (std::uint32_t c = first; c < last; ++c)
            for (const std::uint16_t* f = data.features_begin(c); f != data.features_end(c); ++f)
                logits[c - first] += weights_[*f];
        const std::uint32_t chosen = data.chosen(p);
        const ChoiceScore score = score_choice(logits, chosen);
        const double sum = score.sum;
        if (gradient) {
            for (std::uint32_t c = first; c < last; ++c) {
                const double g = scale * (logits[c - first] / sum - (c - first == chosen ? 1.0 : 0.0));
                for (const std::uint16_t* f = data.features_begin(c); f != data.features_end(c); ++f) gradient[*f] += g;
            }
        }
        return {score.loss, score.top1};
    }

    static constexpr int shards = 8;
    std::vector<double> weights_;
    Adam<double> adam_;
};

}  // namespace bge::search::learning
