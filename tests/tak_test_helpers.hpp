#pragma once
// Shared helpers for the Tak tests: positions from TPS, moves from PTN, failing loudly.

#include <catch2/catch.hpp>

#include <string>

#include "core/tak/tak.hpp"

namespace bge::tak::testing {

inline State tps(const std::string& text, int half_komi = 0) {
    Variant variant;
    variant.half_komi = half_komi;
    auto parsed = parse_tps(text, variant);
    INFO("TPS: " << text);
    if (!parsed) FAIL("bad TPS: " << parsed.error());
    return *parsed;
}

inline Move move_in(const State& state, const std::string& ptn) {
    auto parsed = parse_move(state, ptn);
    INFO("move " << ptn << " in " << format_tps(state));
    if (!parsed) FAIL("illegal: " << parsed.error());
    return *parsed;
}

// Plays a PTN move and returns the resulting TPS.
inline std::string after(const std::string& position, const std::string& ptn, int half_komi = 0) {
    State state = tps(position, half_komi);
    play(state, move_in(state, ptn));
    return format_tps(state);
}

inline bool legal(const std::string& position, const std::string& ptn) { return parse_move(tps(position), ptn).ok(); }

inline std::string result_of(const State& state) { return result_text(outcome(state)); }

}  // namespace bge::tak::testing
