#include "protocol/go_limits.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "protocol/text.hpp"

namespace bge::protocol {

namespace {

// The largest time or node count taken as given: 2^50 ms is 35 000 years.
constexpr std::int64_t big = std::int64_t{1} << 50;

// A whole number, saturated to +-2^62 when it has too many digits; nullopt when it is not one.
std::optional<std::int64_t> read_number(std::string_view text) {
    if (!text.empty() && text[0] == '+') text.remove_prefix(1);
    if (text.empty()) return std::nullopt;
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (end != text.data() + text.size()) return std::nullopt;
    if (error == std::errc::result_out_of_range) return text[0] == '-' ? -(std::int64_t{1} << 62) : std::int64_t{1} << 62;
    if (error != std::errc{}) return std::nullopt;
    return value;
}

struct Range {
    std::int64_t min;
    std::int64_t max;
};

// The limits `go` knows, each with the range its value is clamped to.
std::optional<Range> range_of(std::string_view key) {
    if (key == "wtime" || key == "btime" || key == "p1time" || key == "p2time") return Range{0, big};
    if (key == "winc" || key == "binc" || key == "p1inc" || key == "p2inc") return Range{0, big};
    if (key == "movestogo") return Range{1, 1000};
    if (key == "movetime") return Range{0, big};  // 0: move now (still one ply)
    if (key == "nodes") return Range{1, big};
    if (key == "depth") return Range{1, 1000};
    if (key == "perft") return Range{0, 30};
    return std::nullopt;
}

void apply(GoRequest& request, std::string_view key, std::int64_t value) {
    search::Limits& limits = request.limits;
    if (key == "wtime" || key == "p1time") limits.time_left_ms[0] = value;
    else if (key == "btime" || key == "p2time") limits.time_left_ms[1] = value;
    else if (key == "winc" || key == "p1inc") limits.increment_ms[0] = value;
    else if (key == "binc" || key == "p2inc") limits.increment_ms[1] = value;
    else if (key == "movestogo") limits.moves_to_go = static_cast<int>(value);
    else if (key == "movetime") limits.move_time_ms = value;
    else if (key == "nodes") limits.nodes = static_cast<std::uint64_t>(value);
    else if (key == "depth") limits.depth = static_cast<int>(value);
    else if (key == "perft") request.perft_depth = static_cast<int>(value);
}

}  // namespace

bool GoRequest::unbounded(Side to_move) const {
    const search::Limits& l = limits;
    return l.infinite || (!l.move_time_ms && !l.nodes && !l.depth && !l.has_clock(to_move));
}

GoRequest parse_go(const std::vector<std::string_view>& words) {
    GoRequest request;
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string_view key = words[i];
        if (key == "infinite") {
            request.limits.infinite = true;
            continue;
        }
        if (key == "ponder") continue;
        const auto range = range_of(key);
        if (!range) {
            // An unknown word takes a number after it along, as the value it presumably has.
            const bool with_value = i + 1 < words.size() && read_number(words[i + 1]);
            request.warnings.push_back(with_value ? fmt::format("go: unknown limit '{} {}' ignored", excerpt(key),
                                                                excerpt(words[i + 1]))
                                                  : fmt::format("go: unknown limit '{}' ignored", excerpt(key)));
            if (with_value) ++i;
            continue;
        }
        const bool has_value = i + 1 < words.size() && !range_of(words[i + 1]) && words[i + 1] != "infinite" &&
                               words[i + 1] != "ponder";
        if (!has_value) {
            request.warnings.push_back(fmt::format("go {} needs a value; ignored", key));
            continue;
        }
        const std::string_view text = words[++i];
        const auto value = read_number(text);
        if (!value) {
            request.warnings.push_back(
                fmt::format("go {}: '{}' is not a whole number; ignored", key, excerpt(text)));
            continue;
        }
        // A clock that ran out (some clients send a negative time after a flag) counts as 0
        // without a word: it means "move now", as movetime 0 does.
        const bool quiet_zero = *value < 0 && key.find("time") != std::string_view::npos && key != "movetime";
        const std::int64_t clamped = std::clamp(*value, range->min, range->max);
        if (clamped != *value && !quiet_zero)
            request.warnings.push_back(fmt::format("go {} {} is out of range ({} to {}); using {}", key, *value,
                                                   range->min, range->max, clamped));
        apply(request, key, clamped);
    }
    return request;
}

}  // namespace bge::protocol
