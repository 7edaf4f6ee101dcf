#pragma once
// A one-hidden-layer sigmoid network trained by TD(lambda), as in TD-Gammon (Tesauro 1992): the
// output is the probability that the side to move wins, and after each move the weights follow
//     w += alpha * (V(s_{t+1}) - V(s_t)) * e_t,   e_t = lambda * e_{t-1} + grad V(s_t)
// with eligibility traces e reset at the start of each game. Game-agnostic: inputs are a vector
// of features the game computes.
//
// Games whose features are seen from the side to move (colour-flipped) learn one fixed side's
// winning chance P: a position seen from the other side has P = 1 - V, so its gradient changes
// sign (`flipped`). Traces then stay meaningful when turns do not alternate.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/random.hpp"

namespace bge::search::learning {

struct SigmoidNetwork {
    int inputs = 0;
    int hidden = 0;
    std::vector<float> hidden_weights;  // hidden x inputs, row by row
    std::vector<float> hidden_bias;     // hidden
    std::vector<float> output_weights;  // hidden
    float output_bias = 0;

    static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

    static SigmoidNetwork random(int inputs, int hidden, std::uint64_t seed, double scale = 0.1) {
        SigmoidNetwork net;
        net.inputs = inputs;
        net.hidden = hidden;
        Random random(seed);
        auto draw = [&] { return static_cast<float>((random.unit() * 2 - 1) * scale); };
        net.hidden_weights.resize(static_cast<std::size_t>(inputs) * hidden);
        for (auto& w : net.hidden_weights) w = draw();
        net.hidden_bias.assign(hidden, 0.0f);
        net.output_weights.resize(hidden);
        for (auto& w : net.output_weights) w = draw();
        return net;
    }

    std::size_t parameter_count() const {
        return hidden_weights.size() + hidden_bias.size() + output_weights.size() + 1;
    }

    // The output; `activations` (hidden units) is filled when given, for the gradient.
    double evaluate(const float* features, std::vector<double>* activations = nullptr) const {
        double out = output_bias;
        if (activations) activations->resize(hidden);
        for (int h = 0; h < hidden; ++h) {
            const float* row = &hidden_weights[static_cast<std::size_t>(h) * inputs];
            double sum = hidden_bias[h];
            for (int i = 0; i < inputs; ++i) sum += row[i] * features[i];
            const double a = sigmoid(sum);
            if (activations) (*activations)[h] = a;
            out += output_weights[h] * a;
        }
        return sigmoid(out);
    }
};

// TD(lambda) with eligibility traces over every parameter (the same order as the network's
// vectors: hidden weights, hidden biases, output weights, output bias).
class TdLambdaLearner {
public:
    TdLambdaLearner(SigmoidNetwork& net, double alpha, double lambda)
        : net_(net), alpha_(alpha), lambda_(lambda), trace_(net.parameter_count(), 0.0) {}

    void start_game() { std::fill(trace_.begin(), trace_.end(), 0.0); }

    // s_t's features; `target` is P(s_{t+1}) for the fixed side, or the game's result for it
    // (1 or 0) after the last move. Returns P(s_t).
    double learn(const float* features, bool flipped, double target) {
        std::vector<double> activations;
        const double output = net_.evaluate(features, &activations);
        const double value = flipped ? 1 - output : output;
        const double output_slope = (flipped ? -1.0 : 1.0) * output * (1 - output);
        // e = lambda e + grad V(s_t)
        std::size_t k = 0;
        for (int h = 0; h < net_.hidden; ++h) {
            const double a = activations[h];
            const double hidden_slope = output_slope * net_.output_weights[h] * a * (1 - a);
            for (int i = 0; i < net_.inputs; ++i, ++k) trace_[k] = lambda_ * trace_[k] + hidden_slope * features[i];
        }
        for (int h = 0; h < net_.hidden; ++h, ++k) {
            const double a = activations[h];
            trace_[k] = lambda_ * trace_[k] + output_slope * net_.output_weights[h] * a * (1 - a);
        }
        for (int h = 0; h < net_.hidden; ++h, ++k) trace_[k] = lambda_ * trace_[k] + output_slope * activations[h];
        trace_[k] = lambda_ * trace_[k] + output_slope;
        // w += alpha (V(s_{t+1}) - V(s_t)) e
        const double step = alpha_ * (target - value);
        k = 0;
        for (auto& w : net_.hidden_weights) w += static_cast<float>(step * trace_[k++]);
        for (auto& w : net_.hidden_bias) w += static_cast<float>(step * trace_[k++]);
        for (auto& w : net_.output_weights) w += static_cast<float>(step * trace_[k++]);
        net_.output_bias += static_cast<float>(step * trace_[k]);
        return value;
    }

private:
    SigmoidNetwork& net_;
    double alpha_;
    double lambda_;
    std::vector<double> trace_;
};

}  // namespace bge::search::learning
