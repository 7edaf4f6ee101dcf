#include "engines/expendibots/game_budget.hpp"

#include <time.h>

#include <algorithm>

namespace bge::expendibots {

std::int64_t plan_move_ms(std::int64_t budget_ms, std::int64_t used_ms, int own_turns_played) {
    const std::int64_t reserve = std::max<std::int64_t>(200, budget_ms / 50);
    const std::int64_t left = budget_ms - used_ms - reserve;
    if (left <= 0) return 0;
    const int turns_left = std::max(15, 40 - own_turns_played);
    return std::min(left / turns_left, left / 10);
}

std::size_t hash_megabytes_under_cap(std::size_t requested_megabytes, std::size_t cap_megabytes) {
    constexpr std::size_t rest_of_process = 24;
    if (cap_megabytes <= rest_of_process + 1) return 1;
    std::size_t megabytes = 1;
    while (megabytes * 2 <= cap_megabytes - rest_of_process) megabytes *= 2;
    return std::max<std::size_t>(1, std::min(megabytes, requested_megabytes));
}

std::int64_t process_cpu_ms() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1'000'000;
}

}  // namespace bge::expendibots
