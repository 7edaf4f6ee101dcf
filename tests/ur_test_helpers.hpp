#pragma once
// Small helpers for the Ur tests: positions and moves from text, failing the test on bad text.

#include <catch2/catch.hpp>

#include <string>

#include "core/ur/ur.hpp"

namespace bge::testing {

inline ur::State ur_position(const std::string& text, ur::Ruleset ruleset = ur::Ruleset::finkel, int pieces = 0) {
    auto state = ur::parse_position(ur::Variant{ruleset, pieces}, text);
    INFO("position: " << text);
    if (!state) FAIL("bad position: " << state.error());
    return *state;
}

inline ur::State ur_after(ur::State state, const std::string& move_text) {
    auto move = ur::parse_move(state, move_text);
    INFO("move: " << move_text << " in " << ur::format_position(state));
    if (!move) FAIL("illegal: " << move.error());
    ur::play(state, *move);
    return state;
}

inline std::string ur_refusal(const ur::State& state, const std::string& move_text) {
    auto move = ur::parse_move(state, move_text);
    if (move) return "";
    return move.error();
}

inline std::vector<std::string> ur_legal(const ur::State& state) {
    FixedVector<ur::Move, ur::max_legal_moves> moves;
    ur::generate_moves(state, moves);
    std::vector<std::string> texts;
    for (const auto& move : moves) texts.push_back(ur::format_move(state, move));
    return texts;
}

}  // namespace bge::testing
