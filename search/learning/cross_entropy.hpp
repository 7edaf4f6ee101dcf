#pragma once
// The loss every fit in search/learning minimises: the cross-entropy of a predicted probability
// against a target probability, the prediction clamped away from 0 and 1 so a confident miss
// costs a large but finite amount.

#include <algorithm>
#include <cmath>

namespace bge::search::learning {

inline double cross_entropy(double prediction, double target) {
    const double p = std::clamp(prediction, 1e-12, 1 - 1e-12);
    return -(target * std::log(p) + (1 - target) * std::log(1 - p));
}

}  // namespace bge::search::learning
