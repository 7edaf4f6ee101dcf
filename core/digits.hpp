#pragma once
// Reading the small decimal numbers of the games' notations (rows, counts, move numbers): only
// digits, no sign or spaces, at most a given number of them so no overflow is possible.

#include <cstddef>
#include <optional>
#include <string_view>

namespace bge {

// The number `text` spells in 1 to `max_digits` decimal digits (at most 9), or nothing.
inline std::optional<int> parse_digits(std::string_view text, std::size_t max_digits) {
    if (text.empty() || text.size() > max_digits) return std::nullopt;
    int value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

}  // namespace bge
