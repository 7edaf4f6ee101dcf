#pragma once
// Time controls in cutechess-cli syntax and the clock the arbiter keeps for each player.
// Header-only so the unit tests can use it without linking the arbiter.
//
//   [moves/]time[+increment]   time as seconds ("60", "0.5") or minutes:seconds ("1:30");
//                              e.g. "40/1:00+0.5", "10+0.1", "inf".
// Clocks are integer milliseconds.

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/expected.hpp"

namespace bge::arbiter {

struct TimeControl {
    bool infinite = false;
    int moves_per_period = 0;  // 0: the base time covers the whole game
    std::int64_t base_ms = 0;
    std::int64_t increment_ms = 0;

    friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

namespace detail {

// "12", "0.25", "1.5" -> milliseconds (at most three decimals, exact).
inline Expected<std::int64_t> parse_decimal_seconds(std::string_view text) {
    std::int64_t whole = 0, fraction_ms = 0;
    std::size_t i = 0, digits = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, ++digits) {
        if (digits >= 9) return make_error(fmt::format("'{}' is too large", text));
        whole = whole * 10 + (text[i] - '0');
    }
    if (i < text.size() && text[i] == '.') {
        std::int64_t scale = 100;
        for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, ++digits) {
            if (scale == 0) return make_error(fmt::format("'{}' has more than three decimals", text));
            fraction_ms += (text[i] - '0') * scale;
            scale /= 10;
        }
    }
    if (digits == 0 || i != text.size()) return make_error(fmt::format("'{}' is not a number of seconds", text));
    return whole * 1000 + fraction_ms;
}

// "90", "1:30", "1:30.5" -> milliseconds.
inline Expected<std::int64_t> parse_clock_time(std::string_view text) {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos) return parse_decimal_seconds(text);
    const std::string_view minutes_text = text.substr(0, colon);
    const std::string_view seconds_text = text.substr(colon + 1);
    auto minutes = parse_decimal_seconds(minutes_text);  // read as a number, scaled below
    auto seconds = parse_decimal_seconds(seconds_text);
    if (!minutes || !seconds || minutes_text.find('.') != std::string_view::npos)
        return make_error(fmt::format("'{}' is not minutes:seconds", text));
    return *minutes * 60 + *seconds;
}

}  // namespace detail

inline Expected<TimeControl> parse_time_control(std::string_view text) {
    TimeControl tc;
    if (text == "inf" || text == "infinite") {
        tc.infinite = true;
        return tc;
    }
    std::string_view rest = text;
    if (const std::size_t slash = rest.find('/'); slash != std::string_view::npos) {
        const std::string_view moves = rest.substr(0, slash);
        int count = 0;
        for (char c : moves) {
            if (!std::isdigit(static_cast<unsigned char>(c)) || count > 100000)
                return make_error(fmt::format("time control '{}': '{}' is not a number of moves", text, moves));
            count = count * 10 + (c - '0');
        }
        if (count == 0)
            return make_error(fmt::format("time control '{}': the moves per period must be at least 1", text));
        tc.moves_per_period = count;
        rest = rest.substr(slash + 1);
    }
    std::string_view increment;
    if (const std::size_t plus = rest.find('+'); plus != std::string_view::npos) {
        increment = rest.substr(plus + 1);
        rest = rest.substr(0, plus);
    }
    auto base = detail::parse_clock_time(rest);
    if (!base) return make_error(fmt::format("time control '{}': {}", text, base.error()));
    if (*base <= 0) return make_error(fmt::format("time control '{}': the time must be positive", text));
    tc.base_ms = *base;
    if (!increment.empty() || text.ends_with('+')) {
        auto inc = detail::parse_decimal_seconds(increment);
        if (!inc) return make_error(fmt::format("time control '{}': increment {}", text, inc.error()));
        tc.increment_ms = *inc;
    }
    return tc;
}

inline std::string format_time_control(const TimeControl& tc) {
    if (tc.infinite) return "inf";
    auto seconds = [](std::int64_t ms) {
        return ms % 1000 == 0 ? std::to_string(ms / 1000) : fmt::format("{:.3f}", static_cast<double>(ms) / 1000);
    };
    std::string text = tc.moves_per_period > 0 ? fmt::format("{}/", tc.moves_per_period) : "";
    text += seconds(tc.base_ms);
    if (tc.increment_ms > 0) text += "+" + seconds(tc.increment_ms);
    return text;
}

// One player's clock during a game. The time left may go negative by up to the allowance (time
// margin plus latency slack): that allowance is a budget for the whole game, not a gift per move.
class PlayerClock {
public:
    explicit PlayerClock(const TimeControl& tc) : tc_(tc), remaining_ms_(tc.base_ms) {}

    std::int64_t remaining_ms() const { return remaining_ms_; }
    std::int64_t increment_ms() const { return tc_.increment_ms; }
    // Moves left in the current period (for `movestogo`), 0 when the base time is for the game.
    int moves_to_go() const {
        return tc_.moves_per_period > 0 ? tc_.moves_per_period - moves_made_ % tc_.moves_per_period : 0;
    }

    // Charges one move's thinking time. Returns false if the flag fell (the time left went below
    // -allowance); the clock then keeps the overdrawn value and gets no increment.
    bool charge_move(std::int64_t elapsed_ms, std::int64_t allowance_ms) {
        remaining_ms_ -= elapsed_ms;
        if (remaining_ms_ < -allowance_ms) return false;
        ++moves_made_;
        if (tc_.moves_per_period > 0 && moves_made_ % tc_.moves_per_period == 0) remaining_ms_ += tc_.base_ms;
        remaining_ms_ += tc_.increment_ms;
        return true;
    }

private:
    TimeControl tc_;
    std::int64_t remaining_ms_;
    int moves_made_ = 0;
};

}  // namespace bge::arbiter
