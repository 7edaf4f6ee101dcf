#pragma once
// A small multilayer perceptron whose output is a probability (the side to move's winning chance,
// usually), over sparse inputs: one or two hidden layers (sigmoid or ReLU), a sigmoid output.
// Game-agnostic: the game turns a position into a FeatureList.
//
// Training minimises the cross-entropy to a target in [0, 1] (a game result, a TD(lambda) return
// or a solved value), so the gradient at the output's logit is simply prediction - target.
// Parameters live in one flat vector (for the optimiser and the weights files), in this order:
//   W1  inputs x hidden1, input-major (an input's weights to every unit are contiguous, so a
//       sparse input costs one pass over hidden1 floats)
//   b1  hidden1
//   W2  hidden1 x hidden2, input-major too, so units of the first layer that are off (ReLU) cost
//       nothing (absent when hidden2 is 0)
//   b2  hidden2
//   wo  the last hidden layer's size
//   bo  1

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/random.hpp"
#include "search/learning/feature_list.hpp"

namespace bge::search::learning {

enum class Activation : std::uint8_t { sigmoid, relu };

// A dot product in 16 independent partial sums, so the compiler can vectorise it without
// reordering a single float sum (the result is the same on every run and thread).
inline float dot(const float* a, const float* b, int n) {
    constexpr int lanes = 16;
    float partial[lanes] = {};
    int i = 0;
    for (; i + lanes <= n; i += lanes)
        for (int k = 0; k < lanes; ++k) partial[k] += a[i + k] * b[i + k];
    for (; i < n; ++i) partial[0] += a[i] * b[i];
    float sum = 0;
    for (float p : partial) sum += p;
    return sum;
}

// out[j] = bias[j] + sum over k of value[k] * matrix[row[k] * n + j], for j < n: a layer over
// sparse inputs. Outputs go in blocks of 64 held in eight 8-float vector registers (GCC's vector
// extension) while the rows stream past; each output is summed in the same order as a plain
// loop, so the results are the same.
template <class Index>
inline void sum_rows(float* out, const float* bias, const float* matrix, int n, const Index* row, const float* value,
                     int count) {
    typedef float v8 __attribute__((vector_size(32)));
    constexpr int lanes = 8, block = 8 * lanes;
    auto load = [](const float* p) {
        v8 v;
        std::memcpy(&v, p, sizeof v);
        return v;
    };
    int first = 0;
    for (; first + block <= n; first += block) {
        v8 a0 = load(bias + first), a1 = load(bias + first + 8), a2 = load(bias + first + 16),
           a3 = load(bias + first + 24), a4 = load(bias + first + 32), a5 = load(bias + first + 40),
           a6 = load(bias + first + 48), a7 = load(bias + first + 56);
        for (int k = 0; k < count; ++k) {
            const float* r = matrix + static_cast<std::size_t>(row[k]) * n + first;
            const float v = value[k];
            a0 += v * load(r);
            a1 += v * load(r + 8);
            a2 += v * load(r + 16);
            a3 += v * load(r + 24);
            a4 += v * load(r + 32);
            a5 += v * load(r + 40);
            a6 += v * load(r + 48);
            a7 += v * load(r + 56);
        }
        const v8 all[8] = {a0, a1, a2, a3, a4, a5, a6, a7};
        std::memcpy(out + first, all, sizeof all);
    }
    for (; first + lanes <= n; first += lanes) {
        v8 a = load(bias + first);
        for (int k = 0; k < count; ++k) a += value[k] * load(matrix + static_cast<std::size_t>(row[k]) * n + first);
        std::memcpy(out + first, &a, sizeof a);
    }
    for (; first < n; ++first) {
        float a = bias[first];
        for (int k = 0; k < count; ++k) a += value[k] * matrix[static_cast<std::size_t>(row[k]) * n + first];
        out[first] = a;
    }
}

class ValueNetwork {
public:
    static constexpr int max_hidden = 1024;

    ValueNetwork() = default;
    // All parameters zero; see randomize.
    ValueNetwork(int inputs, int hidden1, int hidden2, Activation activation)
        : inputs_(inputs), hidden1_(hidden1), hidden2_(hidden2), activation_(activation) {
        parameters_.assign(parameter_count(inputs, hidden1, hidden2), 0.0f);
    }

    static std::size_t parameter_count(int inputs, int hidden1, int hidden2) {
        const std::size_t h1 = static_cast<std::size_t>(hidden1), h2 = static_cast<std::size_t>(hidden2);
        return static_cast<std::size_t>(inputs) * h1 + h1 + h2 * h1 + h2 + (h2 ? h2 : h1) + 1;
    }

    int inputs() const { return inputs_; }
    int hidden1() const { return hidden1_; }
    int hidden2() const { return hidden2_; }
    Activation activation() const { return activation_; }
    std::vector<float>& parameters() { return parameters_; }
    const std::vector<float>& parameters() const { return parameters_; }

    // Uniform weights scaled by each layer's fan-in (Glorot for sigmoid, He for ReLU); biases 0.
    // `input_fan_in` is the typical number of active inputs, not the input count.
    void randomize(std::uint64_t seed, double input_fan_in) {
        Random random(seed);
        const double gain = activation_ == Activation::relu ? 6.0 : 3.0;
        auto fill = [&](float* begin, std::size_t count, double fan_in) {
            const double scale = std::sqrt(gain / std::max(1.0, fan_in));
            for (std::size_t i = 0; i < count; ++i) begin[i] = static_cast<float>((random.unit() * 2 - 1) * scale);
        };
        std::fill(parameters_.begin(), parameters_.end(), 0.0f);
        fill(w1(), static_cast<std::size_t>(inputs_) * hidden1_, input_fan_in);
        if (hidden2_) fill(w2(), static_cast<std::size_t>(hidden2_) * hidden1_, hidden1_);
        fill(wo(), static_cast<std::size_t>(last()), last());
    }

    // What backward needs from the forward pass.
    struct Activations {
        std::array<float, max_hidden> z1, a1, z2, a2;
        std::array<std::uint16_t, max_hidden> on;  // first-layer units feeding the second layer
        std::array<float, max_hidden> level;        // their activations
        int on_count = 0;
        double probability = 0;
    };

    double probability(const FeatureList& x) const {
        Activations scratch;
        return forward(x, scratch);
    }

    double forward(const FeatureList& x, Activations& act) const {
        const int h1 = hidden1_;
        float* z1 = act.z1.data();
        sum_rows(z1, parameters_.data() + b1_offset(), w1(), h1, x.index.data(), x.value.data(), x.size);
        activate(z1, act.a1.data(), h1);
        const float* top = act.a1.data();
        if (hidden2_) {
            // Only the units that are on (ReLU) feed the second layer.
            auto& on = act.on;
            auto& level = act.level;
            int count = 0;
            for (int h = 0; h < h1; ++h) {  // branch-free: the signs are unpredictable
                on[static_cast<std::size_t>(count)] = static_cast<std::uint16_t>(h);
                level[static_cast<std::size_t>(count)] = top[h];
                count += top[h] != 0.0f ? 1 : 0;
            }
            act.on_count = count;
            sum_rows(act.z2.data(), parameters_.data() + b2_offset(), w2(), hidden2_, on.data(), level.data(), count);
            activate(act.z2.data(), act.a2.data(), hidden2_);
            top = act.a2.data();
        }
        const float* w_o = wo();
        const int n = last();
        const float logit = dot(w_o, top, n) + parameters_.back();
        act.probability = 1.0 / (1.0 + std::exp(-static_cast<double>(logit)));
        return act.probability;
    }

    // Adds d(loss)/d(parameters) to `gradient` (parameter_count() floats), given the forward pass
    // on `x` and d(loss)/d(output logit) (prediction - target for the cross-entropy).
    void backward(const FeatureList& x, const Activations& act, double logit_gradient, float* gradient) const {
        const int h1 = hidden1_, n = last();
        const float g = static_cast<float>(logit_gradient);
        std::array<float, max_hidden> d1, d2;
        std::fill(d1.begin(), d1.begin() + h1, 0.0f);  // stays 0 for units that are off
        const float* top = hidden2_ ? act.a2.data() : act.a1.data();
        const float* w_o = wo();
        float* g_wo = gradient + wo_offset();
        float* d_top = hidden2_ ? d2.data() : d1.data();
        for (int h = 0; h < n; ++h) {
            g_wo[h] += g * top[h];
            d_top[h] = g * w_o[h];
        }
        gradient[parameters_.size() - 1] += g;
        if (hidden2_) {
            const int h2 = hidden2_;
            derivative(act.z2.data(), act.a2.data(), d2.data(), h2);
            const float* w_2 = w2();
            float* g_w2 = gradient + w2_offset();
            float* g_b2 = gradient + b2_offset();
            for (int j = 0; j < h2; ++j) g_b2[j] += d2[static_cast<std::size_t>(j)];
            // Only units that were on: a unit at exactly 0 has no weight gradient and passes none back
            // (ReLU's slope there is 0; a sigmoid's a (1 - a) is 0).
            for (int k = 0; k < act.on_count; ++k) {
                const std::size_t h = act.on[static_cast<std::size_t>(k)];
                const float* row = w_2 + h * h2;
                float* g_row = g_w2 + h * h2;
                const float a = act.level[static_cast<std::size_t>(k)];
                for (int j = 0; j < h2; ++j) g_row[j] += a * d2[static_cast<std::size_t>(j)];
                d1[h] = dot(row, d2.data(), h2);
            }
        }
        derivative(act.z1.data(), act.a1.data(), d1.data(), h1);
        float* g_b1 = gradient + b1_offset();
        for (int h = 0; h < h1; ++h) g_b1[h] += d1[static_cast<std::size_t>(h)];
        float* g_w1 = gradient;
        for (int k = 0; k < x.size; ++k) {
            float* column = g_w1 + static_cast<std::size_t>(x.index[static_cast<std::size_t>(k)]) * h1;
            const float v = x.value[static_cast<std::size_t>(k)];
            for (int h = 0; h < h1; ++h) column[h] += v * d1[static_cast<std::size_t>(h)];
        }
    }

    std::size_t b1_offset() const { return static_cast<std::size_t>(inputs_) * hidden1_; }
    std::size_t w2_offset() const { return b1_offset() + static_cast<std::size_t>(hidden1_); }
    std::size_t b2_offset() const { return w2_offset() + static_cast<std::size_t>(hidden2_) * hidden1_; }
    std::size_t wo_offset() const { return b2_offset() + static_cast<std::size_t>(hidden2_); }

private:
    int last() const { return hidden2_ ? hidden2_ : hidden1_; }
    float* w1() { return parameters_.data(); }
    const float* w1() const { return parameters_.data(); }
    float* w2() { return parameters_.data() + w2_offset(); }
    const float* w2() const { return parameters_.data() + w2_offset(); }
    float* wo() { return parameters_.data() + wo_offset(); }
    const float* wo() const { return parameters_.data() + wo_offset(); }

    void activate(const float* z, float* a, int n) const {
        if (activation_ == Activation::relu) {
            for (int h = 0; h < n; ++h) a[h] = std::max(z[h], 0.0f);
        } else {
            for (int h = 0; h < n; ++h) a[h] = 1.0f / (1.0f + std::exp(-z[h]));
        }
    }
    // d <- d * activation'(z)
    void derivative(const float* z, const float* a, float* d, int n) const {
        if (activation_ == Activation::relu) {
            for (int h = 0; h < n; ++h) d[h] = z[h] > 0.0f ? d[h] : 0.0f;
        } else {
            for (int h = 0; h < n; ++h) d[h] *= a[h] * (1.0f - a[h]);
        }
    }

    int inputs_ = 0;
    int hidden1_ = 0;
    int hidden2_ = 0;
    Activation activation_ = Activation::relu;
    std::vector<float> parameters_;
};

}  // namespace bge::search::learning
