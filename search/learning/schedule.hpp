#pragma once
// Schedules for a learning rate, a trace decay or any other training constant that changes over
// a run: a value at step t of T. Shared by the trainers (fitting epochs, TD episodes).

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace bge::search::learning {

struct Schedule {
    enum class Kind { constant, linear, cosine, step, inverse };
    Kind kind = Kind::constant;
    double start = 0.01;
    double end = 0.01;       // linear and cosine: the value at the last step
    double factor = 0.5;     // step: multiply by this every `interval` steps
    double interval = 1e30;  // step; inverse: start / (1 + t / interval)

    // The value at step t (0-based) of `total` steps.
    double at(double t, double total) const {
        const double progress = total > 1 ? std::clamp(t / (total - 1), 0.0, 1.0) : 0.0;
        switch (kind) {
            case Kind::constant:
                return start;
            case Kind::linear:
                return start + (end - start) * progress;
            case Kind::cosine:
                return end + (start - end) * 0.5 * (1 + std::cos(3.141592653589793 * progress));
            case Kind::step:
                return start * std::pow(factor, std::floor(t / interval));
            case Kind::inverse:
                return start / (1 + t / interval);
        }
        return start;
    }

    static Schedule constant(double value) { return {Kind::constant, value, value}; }
    static Schedule linear(double from, double to) { return {Kind::linear, from, to}; }
    static Schedule cosine(double from, double to) { return {Kind::cosine, from, to}; }

    // "0.01", "linear:0.01:0.001", "cosine:0.01:0.0001", "step:0.01:0.5:10", "inverse:0.01:100".
    static std::optional<Schedule> parse(std::string_view text) {
        auto number = [](std::string_view part) -> std::optional<double> {
            std::string copy(part);
            char* end = nullptr;
            const double value = std::strtod(copy.c_str(), &end);
            if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
            return value;
        };
        std::string_view parts[4];
        int count = 0;
        while (count < 4) {
            const auto colon = text.find(':');
            parts[count++] = text.substr(0, colon);
            if (colon == std::string_view::npos) break;
            text.remove_prefix(colon + 1);
            if (count == 4) return std::nullopt;
        }
        std::optional<double> values[3];
        for (int i = 1; i < count; ++i)
            if (!(values[i - 1] = number(parts[i]))) return std::nullopt;
        if (count == 1) {
            if (auto value = number(parts[0])) return constant(*value);
            return std::nullopt;
        }
        if (parts[0] == "linear" && count == 3) return linear(*values[0], *values[1]);
        if (parts[0] == "cosine" && count == 3) return cosine(*values[0], *values[1]);
        if (parts[0] == "step" && count == 4 && *values[2] > 0)
            return Schedule{Kind::step, *values[0], *values[0], *values[1], *values[2]};
        if (parts[0] == "inverse" && count == 3 && *values[1] > 0)
            return Schedule{Kind::inverse, *values[0], *values[0], 0.5, *values[1]};
        return std::nullopt;
    }
};

}  // namespace bge::search::learning
