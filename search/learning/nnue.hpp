#pragma once
// An NNUE-style value network, written once for every game (Nasu 2018; Stockfish's .nnue):
//
//   acc_p  = b1 + sum of the W1 rows of the inputs active from perspective p (p = side to move,
//            or the other side), the same W1 for both perspectives;
//   logit  = wo[0..H) . crelu(acc_stm) + wo[H..2H) . crelu(acc_other) + bo,
//   value  = sigmoid(logit), the side to move's winning chance;
//
// with crelu(x) = min(max(x, 0), 1). Because the first layer is a sum of rows, a move changes
// acc_p by the rows of the few inputs it turns on or off: the engine keeps both accumulators and
// updates them (QuantisedNetwork::Accumulator) instead of recomputing them.
//
// PerspectiveNetwork is the float model that NetworkFit trains. A sample's FeatureList holds the
// side to move's active inputs as indices [0, inputs) and the other side's as [inputs, 2 inputs).
// QuantisedNetwork is its integer copy for the engine: int16 rows scaled by 255 and output
// weights scaled by 64, so the first layer's clipped activations are 0..255 and the output is one
// int32 dot product. The trainer keeps every first-layer weight and bias inside
// +-first_layer_limit, which keeps every int16 accumulator from overflowing as long as at most
// max_active inputs are on (checked on load). A game whose positions turn on more inputs (an input
// may count several times, as Gomoku's cell shapes do) trains with the smaller limit
// first_layer_limit_for(its max_active) and loads with that max_active.
//
// The file, written by the trainer and read by the engine, is little-endian:
//   "BGENNUE1"  8 bytes
//   uint32      inputs, hidden
//   uint32      length of the description, then its bytes (how the net was made; UTF-8)
//   float32     the parameters in PerspectiveNetwork's order: W1 (inputs x hidden, input-major),
//               b1 (hidden), wo (2 hidden), bo (1)

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "core/random.hpp"
#include "search/learning/value_network.hpp"

namespace bge::search::learning {

namespace nnue {
constexpr int max_hidden = 1024;
constexpr int activation_scale = 255;  // QA: crelu's 1.0 in the quantised first layer
constexpr int output_scale = 64;       // QB: the output weights' unit
// With |W1|, |b1| <= first_layer_limit, an accumulator of at most max_active rows and the bias
// stays within (max_active + 1) * limit * 255 <= 32767.
constexpr float first_layer_limit = 1.15f;
constexpr int max_active = 110;
// The largest first-layer limit that keeps (active + 1) rows within int16.
constexpr float first_layer_limit_for(int active) {
    return 32767.0f / (static_cast<float>(activation_scale) * static_cast<float>(active + 1)) * 0.999f;
}
static_assert(first_layer_limit <= first_layer_limit_for(max_active));
constexpr char magic[8] = {'B', 'G', 'E', 'N', 'N', 'U', 'E', '1'};
}  // namespace nnue

class PerspectiveNetwork {
public:
    PerspectiveNetwork() = default;
    PerspectiveNetwork(int inputs, int hidden) : inputs_(inputs), hidden_(hidden) {
        parameters_.assign(parameter_count(inputs, hidden), 0.0f);
    }
    static std::size_t parameter_count(int inputs, int hidden) {
        const auto h = static_cast<std::size_t>(hidden);
        return static_cast<std::size_t>(inputs) * h + h + 2 * h + 1;
    }

    int inputs() const { return inputs_; }
    int hidden() const { return hidden_; }
    std::vector<float>& parameters() { return parameters_; }
    const std::vector<float>& parameters() const { return parameters_; }
    std::size_t b1_offset() const { return static_cast<std::size_t>(inputs_) * hidden_; }
    std::size_t wo_offset() const { return b1_offset() + static_cast<std::size_t>(hidden_); }

    // Uniform first-layer weights for `active` inputs that are on at once, small output weights;
    // biases 0.
    void randomize(std::uint64_t seed, double active) {
        Random random(seed);
        std::fill(parameters_.begin(), parameters_.end(), 0.0f);
        const double first = std::sqrt(1.0 / std::max(1.0, active));
        for (std::size_t i = 0; i < b1_offset(); ++i)
            parameters_[i] = static_cast<float>((random.unit() * 2 - 1) * first);
        const double out = std::sqrt(1.0 / hidden_);
        for (int h = 0; h < 2 * hidden_; ++h)
            parameters_[wo_offset() + static_cast<std::size_t>(h)] = static_cast<float>((random.unit() * 2 - 1) * out);
    }

    struct Activations {
        std::array<float, 2 * nnue::max_hidden> z, a;  // both perspectives, side to move first
        double probability = 0;
    };

    double forward(const FeatureList& x, Activations& act) const {
        const int h = hidden_;
        // The side to move's inputs come first, sorted or not: split them by index.
        std::array<std::uint16_t, FeatureList::capacity> rows[2];
        std::array<float, FeatureList::capacity> values[2];
        int counts[2] = {0, 0};
        split(x, rows, values, counts);
        for (int p = 0; p < 2; ++p) {
            float* z = act.z.data() + p * h;
            sum_rows(z, parameters_.data() + b1_offset(), parameters_.data(), h, rows[p].data(), values[p].data(),
                     counts[p]);
            float* a = act.a.data() + p * h;
            for (int k = 0; k < h; ++k) a[k] = std::clamp(z[k], 0.0f, 1.0f);
        }
        const float logit = dot(parameters_.data() + wo_offset(), act.a.data(), 2 * h) + parameters_.back();
        act.probability = 1.0 / (1.0 + std::exp(-static_cast<double>(logit)));
        return act.probability;
    }
    double probability(const FeatureList& x) const {
        Activations scratch;
        return forward(x, scratch);
    }
    double logit(const FeatureList& x) const {
        const double p = std::clamp(probability(x), 1e-12, 1 - 1e-12);
        return std::log(p / (1 - p));
    }

    void backward(const FeatureList& x, const Activations& act, double logit_gradient, float* gradient) const {
        const int h = hidden_;
        const float g = static_cast<float>(logit_gradient);
        const float* wo = parameters_.data() + wo_offset();
        float* g_wo = gradient + wo_offset();
        std::array<float, 2 * nnue::max_hidden> d;
        for (int k = 0; k < 2 * h; ++k) {
            g_wo[k] += g * act.a[static_cast<std::size_t>(k)];
            const float z = act.z[static_cast<std::size_t>(k)];
            d[static_cast<std::size_t>(k)] = (z > 0.0f && z < 1.0f) ? g * wo[k] : 0.0f;
        }
        gradient[parameters_.size() - 1] += g;
        float* g_b1 = gradient + b1_offset();
        for (int k = 0; k < h; ++k) g_b1[k] += d[static_cast<std::size_t>(k)] + d[static_cast<std::size_t>(h + k)];
        for (int k = 0; k < x.size; ++k) {
            const int index = x.index[static_cast<std::size_t>(k)];
            const int p = index >= inputs_ ? 1 : 0;
            float* row = gradient + static_cast<std::size_t>(index - p * inputs_) * h;
            const float v = x.value[static_cast<std::size_t>(k)];
            const float* dp = d.data() + p * h;
            for (int j = 0; j < h; ++j) row[j] += v * dp[j];
        }
    }

    // NetworkFit's hook after each step: the first layer stays where int16 cannot overflow.
    void constrain(std::size_t from, std::size_t to) {
        const std::size_t end = std::min(to, wo_offset());
        for (std::size_t i = from; i < end; ++i)
            parameters_[i] = std::clamp(parameters_[i], -first_layer_limit_, first_layer_limit_);
    }
    // For inputs that can be on more than nnue::max_active times at once (first_layer_limit_for).
    void set_first_layer_limit(float limit) { first_layer_limit_ = limit; }

    std::string description;  // how it was made; kept in the file

private:
    void split(const FeatureList& x, std::array<std::uint16_t, FeatureList::capacity> (&rows)[2],
               std::array<float, FeatureList::capacity> (&values)[2], int (&counts)[2]) const {
        for (int k = 0; k < x.size; ++k) {
            const int index = x.index[static_cast<std::size_t>(k)];
            const int p = index >= inputs_ ? 1 : 0;
            rows[p][static_cast<std::size_t>(counts[p])] = static_cast<std::uint16_t>(index - p * inputs_);
            values[p][static_cast<std::size_t>(counts[p])] = x.value[static_cast<std::size_t>(k)];
            ++counts[p];
        }
    }

    int inputs_ = 0;
    int hidden_ = 0;
    std::vector<float> parameters_;
    float first_layer_limit_ = nnue::first_layer_limit;
};

// The file format above.
inline std::string format_network(const PerspectiveNetwork& net) {
    std::string bytes(nnue::magic, sizeof nnue::magic);
    auto put32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    };
    put32(static_cast<std::uint32_t>(net.inputs()));
    put32(static_cast<std::uint32_t>(net.hidden()));
    put32(static_cast<std::uint32_t>(net.description.size()));
    bytes += net.description;
    for (float f : net.parameters()) {
        std::uint32_t v;
        std::memcpy(&v, &f, sizeof v);
        put32(v);
    }
    return bytes;
}

inline Expected<PerspectiveNetwork> parse_network(std::string_view bytes) {
    std::size_t at = 0;
    auto get32 = [&](std::uint32_t& v) {
        if (bytes.size() - at < 4) return false;
        v = 0;
        for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
        at += 4;
        return true;
    };
    if (bytes.size() < sizeof nnue::magic || bytes.substr(0, sizeof nnue::magic) != std::string_view(nnue::magic, 8))
        return make_error("not a network file (it does not start with BGENNUE1)");
    at = sizeof nnue::magic;
    std::uint32_t inputs = 0, hidden = 0, text = 0;
    if (!get32(inputs) || !get32(hidden) || !get32(text)) return make_error("network file cut short in its header");
    if (inputs < 1 || inputs > 65535 / 2 || hidden < 1 || hidden > static_cast<std::uint32_t>(nnue::max_hidden) ||
        hidden % 16 != 0)
        return make_error("network file: " + std::to_string(inputs) + " inputs and " + std::to_string(hidden) +
                          " hidden units (1..32767 inputs, 16..1024 hidden units in steps of 16)");
    if (bytes.size() - at < text) return make_error("network file cut short in its description");
    PerspectiveNetwork net(static_cast<int>(inputs), static_cast<int>(hidden));
    net.description = std::string(bytes.substr(at, text));
    at += text;
    const std::size_t count = net.parameters().size();
    if ((bytes.size() - at) / 4 != count || (bytes.size() - at) % 4 != 0)
        return make_error("network file: expected " + std::to_string(count) + " parameters, found " +
                          std::to_string((bytes.size() - at) / 4) + " and " + std::to_string((bytes.size() - at) % 4) +
                          " stray bytes");
    for (std::size_t i = 0; i < count; ++i) {
        std::uint32_t v = 0;
        get32(v);
        float f;
        std::memcpy(&f, &v, sizeof f);
        if (!std::isfinite(f)) return make_error("network file: parameter " + std::to_string(i) + " is not finite");
        net.parameters()[i] = f;
    }
    return net;
}

// The engine's integer copy, with accumulators updated row by row.
class QuantisedNetwork {
public:
    QuantisedNetwork() = default;
    // Fails when a first-layer weight lies outside the limit for `max_active` inputs on at once
    // (overflow would be possible).
    static Expected<QuantisedNetwork> from(const PerspectiveNetwork& net, int max_active = nnue::max_active) {
        const float limit = max_active == nnue::max_active ? nnue::first_layer_limit
                                                           : nnue::first_layer_limit_for(max_active);
        QuantisedNetwork q;
        q.inputs_ = net.inputs();
        q.hidden_ = net.hidden();
        const float* p = net.parameters().data();
        const std::size_t first = net.wo_offset();
        for (std::size_t i = 0; i < first; ++i)
            if (std::abs(p[i]) > limit + 1e-6f)
                return make_error("network: first-layer parameter " + std::to_string(i) + " is " + std::to_string(p[i]) +
                                  ", outside +-" + std::to_string(limit));
        q.w1_.resize(net.b1_offset());
        for (std::size_t i = 0; i < q.w1_.size(); ++i)
            q.w1_[i] = static_cast<std::int16_t>(std::lround(p[i] * nnue::activation_scale));
        q.b1_.resize(static_cast<std::size_t>(q.hidden_));
        for (int h = 0; h < q.hidden_; ++h)
            q.b1_[static_cast<std::size_t>(h)] =
                static_cast<std::int16_t>(std::lround(p[net.b1_offset() + static_cast<std::size_t>(h)] * nnue::activation_scale));
        q.wo_.resize(2 * static_cast<std::size_t>(q.hidden_));
        for (int h = 0; h < 2 * q.hidden_; ++h) {
            const float w = p[net.wo_offset() + static_cast<std::size_t>(h)] * nnue::output_scale;
            q.wo_[static_cast<std::size_t>(h)] = static_cast<std::int16_t>(std::clamp(std::lround(w), -32767L, 32767L));
        }
        q.bo_ = static_cast<std::int32_t>(
            std::lround(static_cast<double>(net.parameters().back()) * nnue::activation_scale * nnue::output_scale));
        return q;
    }

    int inputs() const { return inputs_; }
    int hidden() const { return hidden_; }

    // One perspective's first-layer sums.
    struct alignas(64) Accumulator {
        std::array<std::int16_t, nnue::max_hidden> sums;
    };

    void reset(Accumulator& acc) const { std::copy(b1_.begin(), b1_.end(), acc.sums.begin()); }
    void add(Accumulator& acc, int input) const { apply<+1>(acc, input); }
    void remove(Accumulator& acc, int input) const { apply<-1>(acc, input); }

    // The output logit times activation_scale * output_scale.
    std::int32_t raw_output(const Accumulator& stm, const Accumulator& other) const {
        return bo_ + half_output(stm, wo_.data()) + half_output(other, wo_.data() + hidden_);
    }
    double logit(const Accumulator& stm, const Accumulator& other) const {
        return raw_output(stm, other) / static_cast<double>(nnue::activation_scale * nnue::output_scale);
    }

private:
    template <int sign>
    void apply(Accumulator& acc, int input) const {
        // GCC's vector extension: 16 lanes of int16, one AVX2 register (two SSE ones without it).
        typedef std::int16_t v16 __attribute__((vector_size(32)));
        const std::int16_t* row = w1_.data() + static_cast<std::size_t>(input) * static_cast<std::size_t>(hidden_);
        for (int h = 0; h < hidden_; h += 16) {
            v16 a, r;
            std::memcpy(&a, acc.sums.data() + h, sizeof a);
            std::memcpy(&r, row + h, sizeof r);
            if constexpr (sign > 0) a += r;
            else a -= r;
            std::memcpy(acc.sums.data() + h, &a, sizeof a);
        }
    }
    std::int32_t half_output(const Accumulator& acc, const std::int16_t* weights) const {
        // A widening multiply-add that GCC turns into pmaddwd.
        std::int32_t sum = 0;
        for (int h = 0; h < hidden_; ++h) {
            const std::int32_t a = std::clamp<std::int32_t>(acc.sums[static_cast<std::size_t>(h)], 0,
                                                            nnue::activation_scale);
            sum += a * weights[h];
        }
        return sum;
    }

    int inputs_ = 0;
    int hidden_ = 0;
    std::vector<std::int16_t> w1_, b1_, wo_;
    std::int32_t bo_ = 0;
};

}  // namespace bge::search::learning
