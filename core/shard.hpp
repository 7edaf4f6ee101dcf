#pragma once
// Slice k of K of a run split over machines or cluster tasks: the arbiter's -shard k/K (which
// encounters a shard plays: tools/arbiter/schedule.hpp) and the trainers' selfplay --shard k/K
// (which block of games). The slices of one run add up to the whole run exactly.

#include <charconv>
#include <string>
#include <string_view>
#include <utility>

#include "core/expected.hpp"

namespace bge {

struct Shard {
    int index = 1;  // 1-based
    int count = 1;

    // The contiguous block [first, last) of `total` items (games) that this shard takes: the
    // blocks of shards 1..K follow each other, so their outputs joined in shard order are the
    // unsharded run's.
    std::pair<long, long> block(long total) const {
        return {total * (index - 1) / count, total * index / count};
    }
};

// "k/K" with 1 <= k <= K <= 1,000,000.
inline Expected<Shard> parse_shard(std::string_view text) {
    const auto number = [](std::string_view digits, int& value) {
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        return error == std::errc() && end == digits.data() + digits.size() && value >= 1 && value <= 1'000'000;
    };
    const std::size_t slash = text.find('/');
    Shard shard;
    if (slash == std::string_view::npos || !number(text.substr(0, slash), shard.index) ||
        !number(text.substr(slash + 1), shard.count))
        return make_error("'" + std::string(text) + "' is not a shard: expected k/K with 1 <= k <= K, e.g. 2/8");
    if (shard.index > shard.count)
        return make_error("'" + std::string(text) + "' is not a shard: k must be at most K");
    return shard;
}

}  // namespace bge
