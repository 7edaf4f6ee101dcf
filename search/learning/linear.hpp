#pragma once
// A linear function approximator, value = w . phi, trained by the normalised least-mean-squares
// rule (NLMS):
//
//     w += alpha * (target - w . phi) * phi / (epsilon + ||phi||^2)
//
// Normalising by ||phi||^2 makes alpha the fraction of the error one update removes on that
// sample (alpha = 1 fits it exactly), whatever the features' scale, so the rule is stable for any
// 0 < alpha < 2. That is what lets the Tak study's alpha = 0.99 work with features of any size.

#include <array>
#include <cstddef>

namespace bge::search::learning {

template <std::size_t N>
struct LinearFunction {
    static constexpr std::size_t size = N;
    using Features = std::array<double, N>;
    static constexpr double norm_floor = 1e-9;  // keeps an all-zero phi from dividing by zero

    std::array<double, N> weights{};

    double value(const Features& phi) const {
        double sum = 0;
        for (std::size_t i = 0; i < N; ++i) sum += weights[i] * phi[i];
        return sum;
    }

    // Moves value(phi) a fraction alpha of the way to target; returns the error before the update.
    double nlms_update(const Features& phi, double target, double alpha) {
        const double error = target - value(phi);
        double norm = norm_floor;
        for (double x : phi) norm += x * x;
        const double step = alpha * error / norm;
        for (std::size_t i = 0; i < N; ++i) weights[i] += step * phi[i];
        return error;
    }
};

}  // namespace bge::search::learning
