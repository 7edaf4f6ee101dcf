#pragma once
// Shared helpers for the Expendibots tests: positions from FEN or from a list of stacks, moves
// from text, failing loudly.

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "core/expendibots/expendibots.hpp"

namespace bge::expendibots::testing {

inline State fen(const std::string& text) {
    auto parsed = parse_fen(text);
    INFO("FEN: " << text);
    if (!parsed) FAIL("bad FEN: " << parsed.error());
    return *parsed;
}

// A FEN from stacks by square name ("d4" -> "w3"), the side to move and the action count.
inline std::string fen_of(const std::map<std::string, std::string>& stacks, char side = 'w', int actions = 0) {
    std::string text;
    for (int y = 7; y >= 0; --y) {
        for (int x = 0; x < 8; ++x) {
            const std::string name = {static_cast<char>('a' + x), static_cast<char>('1' + y)};
            const auto found = stacks.find(name);
            text += found == stacks.end() ? "x" : found->second;
            if (x < 7) text += ',';
        }
        if (y > 0) text += '/';
    }
    return text + " " + side + " " + std::to_string(actions);
}

inline State position(const std::map<std::string, std::string>& stacks, char side = 'w', int actions = 0) {
    return fen(fen_of(stacks, side, actions));
}

inline Move move_in(const State& state, const std::string& text) {
    auto parsed = parse_move(state, text);
    INFO("move " << text << " in " << format_fen(state));
    if (!parsed) FAIL("illegal: " << parsed.error());
    return *parsed;
}

inline State after(State state, const std::string& text) {
    play(state, move_in(state, text));
    return state;
}

inline bool legal(const State& state, const std::string& text) { return parse_move(state, text).ok(); }

inline int height_at(const State& state, const std::string& square) {
    return state.height[*parse_square(square)];
}

// "w3", "b1" or "" for an empty square.
inline std::string stack_at(const State& state, const std::string& square) {
    const int s = *parse_square(square);
    if (state.white & bit(s)) return "w" + std::to_string(state.height[s]);
    if (state.black & bit(s)) return "b" + std::to_string(state.height[s]);
    return "";
}

}  // namespace bge::expendibots::testing
