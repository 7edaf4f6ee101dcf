#pragma once
// Shared helpers for the Gomoku tests: boards from lists of cells, moves by name, failing loudly.

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>

#include "core/gomoku/gomoku.hpp"

namespace bge::gomoku::testing {

inline int cell(const std::string& name, int width = 15, int height = 15) {
    auto move = parse_move_syntax(name, width, height);
    INFO("cell: " << name);
    if (!move) FAIL("bad cell: " << move.error());
    return move->square;
}

// Black and White stones placed by hand (no move order); Black is to move when the counts are
// equal. The rules' derived fields are rebuilt, so this fails on positions that already have a
// winner to move.
inline State board(std::initializer_list<const char*> blacks, std::initializer_list<const char*> whites,
                   Rule rule = Rule::freestyle, int size = 15, int k = 5) {
    Variant variant;
    variant.width = variant.height = size;
    variant.rule = rule;
    variant.k = k;
    State state = start_state(variant);
    for (const char* name : blacks) state.cells[static_cast<std::size_t>(cell(name, size, size))] = black;
    for (const char* name : whites) state.cells[static_cast<std::size_t>(cell(name, size, size))] = white;
    auto status = rebuild_derived(state);
    if (!status) FAIL("bad board: " << status.error());
    return state;
}

inline Move at(const State& state, const std::string& name) {
    auto move = parse_move(state, name);
    INFO("move: " << name);
    if (!move) FAIL("bad move: " << move.error());
    return *move;
}

inline State fen(const std::string& text, Rule rule = Rule::freestyle) {
    Variant variant;
    variant.rule = rule;
    auto parsed = parse_position(text, variant);
    INFO("position: " << text);
    if (!parsed) FAIL("bad position: " << parsed.error());
    return *parsed;
}

}  // namespace bge::gomoku::testing
