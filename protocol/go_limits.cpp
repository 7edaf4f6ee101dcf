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

// The limits `go` knows: each with the range its value is clamped to, and where it goes.
struct KnownLimit {
    std::string_view name;
    std::int64_t min;
    std::int64_t max;
    bool clock;  // a player's time left: below 0 it counts as 0 without a word
    void (*set)(GoRequest&, std::int64_t);
};

constexpr KnownLimit known_limits[] = {
    {"wtime", 0, big, true, [](GoRequest& r, std::int64_t v) { r.limits.time_left_ms[0] = v; }},
    {"p1time", 0, big, true, [](GoRequest& r, std::int64_t v) { r.limits.time_left_ms[0] = v; }},
    {"btime", 0, big, true, [](GoRequest& r, std::int64_t v) { r.limits.time_left_ms[1] = v; }},
    {"p2time", 0, big, true, [](GoRequest& r, std::int64_t v) { r.limits.time_left_ms[1] = v; }},
    {"winc", 0, big, false, [](GoRequest& r, std::int64_t v) { r.limits.increment_ms[0] = v; }},
    {"p1inc", 0, big, false, [](GoRequest& r, std::int64_t v) { r.limits.increment_ms[0] = v; }},
    {"binc", 0, big, false, [](GoRequest& r, std::int64_t v) { r.limits.increment_ms[1] = v; }},
    {"p2inc", 0, big, false, [](GoRequest& r, std::int64_t v) { r.limits.increment_ms[1] = v; }},
    {"movestogo", 1, 1000, false, [](GoRequest& r, std::int64_t v) { r.limits.moves_to_go = static_cast<int>(v); }},
    // 0: move now (still one ply)
    {"movetime", 0, big, false, [](GoRequest& r, std::int64_t v) { r.limits.move_time_ms = v; }},
    {"nodes", 1, big, false, [](GoRequest& r, std::int64_t v) { r.limits.nodes = static_cast<std::uint64_t>(v); }},
    {"depth", 1, 1000, false, [](GoRequest& r, std::int64_t v) { r.limits.depth = static_cast<int>(v); }},
    {"perft", 0, 30, false, [](GoRequest& r, std::int64_t v) { r.perft_depth = static_cast<int>(v); }},
};

const KnownLimit* find_limit(std::string_view name) {
    for (const KnownLimit& limit : known_limits)
        if (limit.name == name) return &limit;
    return nullptr;
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
        const KnownLimit* limit = find_limit(key);
        if (!limit) {
            // An unknown word takes a number after it along, as the value it presumably has.
            const bool with_value = i + 1 < words.size() && read_number(words[i + 1]);
            request.warnings.push_back(with_value ? fmt::format("go: unknown limit '{} {}' ignored", excerpt(key),
                                                                excerpt(words[i + 1]))
                                                  : fmt::format("go: unknown limit '{}' ignored", excerpt(key)));
            if (with_value) ++i;
            continue;
        }
        const bool has_value = i + 1 < words.size() && !find_limit(words[i + 1]) && words[i + 1] != "infinite" &&
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
        const std::int64_t clamped = std::clamp(*value, limit->min, limit->max);
        // A clock that ran out (some clients send a negative time after a flag) counts as 0
        // without a word: it means "move now", as movetime 0 does.
        if (clamped != *value && !(limit->clock && *value < 0))
            request.warnings.push_back(fmt::format("go {} {} is out of range ({} to {}); using {}", key, *value,
                                                   limit->min, limit->max, clamped));
        limit->set(request, clamped);
    }
    return request;
}

}  // namespace bge::protocol
