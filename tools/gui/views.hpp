#pragma once
// The five games as the GUI shows them (see game_view.hpp for what a view provides).

#include <cstddef>
#include <string_view>

#include "tools/arbiter/expendibots_adapter.hpp"
#include "tools/arbiter/gomoku_adapter.hpp"
#include "tools/arbiter/tak_adapter.hpp"
#include "tools/arbiter/twixt_adapter.hpp"
#include "tools/arbiter/ur_adapter.hpp"
#include "tools/gui/game_view.hpp"

namespace bge::gui {

struct TakView {
    using Adapter = arbiter::TakAdapter;
    using G = tak::Tak;
    static constexpr std::string_view game = "tak";
    // {"size", "komi", "stacks": {"a1": "12S"} (TPS: colours bottom to top, then S or C), "reserves":
    // [[stones, caps], ...], "flats": [white, black]}
    static Json board(const G::State& state, const G::State* before, const G::Move* last);
    // A placement is its square (kind flat, wall or cap); a spread is the stack's square, then the
    // square each carried piece is dropped on, in order: 3a1>12 is a1 b1 c1 c1.
    static MovePath path(const G::State& state, const G::Move& move);
    static Expected<RecordLine<G>> read_record(std::string_view text, std::size_t index);
};

struct GomokuView {
    using Adapter = arbiter::GomokuAdapter;
    using G = gomoku::Gomoku;
    static constexpr std::string_view game = "gomoku";
    // {"width", "height", "k", "rule", "stones": {"h8": "x"}, "blocked": [...], "forbidden": [...]}:
    // under renju, the empty cells where Black, to move, may not play (the rules' is_forbidden).
    static Json board(const G::State& state, const G::State* before, const G::Move* last);
    static MovePath path(const G::State& state, const G::Move& move);
    static Expected<RecordLine<G>> read_record(std::string_view text, std::size_t index);
};

struct TwixtView {
    using Adapter = arbiter::TwixtAdapter;
    using G = twixt::Twixt;
    static constexpr std::string_view game = "twixt";
    // {"size", "pegs": {"c5": "x"}, "bridges": [["c3", "d5"], ...], "swapped"}
    static Json board(const G::State& state, const G::State* before, const G::Move* last);
    static MovePath path(const G::State& state, const G::Move& move);
    static Expected<RecordLine<G>> read_record(std::string_view text, std::size_t index);
};

struct UrView {
    using Adapter = arbiter::UrAdapter;
    using G = ur::Ur;
    static constexpr std::string_view game = "ur";
    // {"ruleset", "pieces", "tiles": {"A3": "L"}, "rosettes": [...], "waiting": [light, dark],
    // "scored": [..], "roll": n or null, "paths": [[light's tiles], [dark's]]}. A move is the
    // piece's tile (or "pool-L"/"pool-D"), then where it lands (or "off-L"/"off-D").
    static Json board(const G::State& state, const G::State* before, const G::Move* last);
    static MovePath path(const G::State& state, const G::Move& move);
    static Expected<RecordLine<G>> read_record(std::string_view text, std::size_t index);
};

struct ExpendibotsView {
    using Adapter = arbiter::ExpendibotsAdapter;
    using G = expendibots::Expendibots;
    static constexpr std::string_view game = "expendibots";
    // {"stacks": {"a1": "w3"}, "blast": [squares the last BOOM destroyed]}. A MOVE is its two
    // squares; a BOOM is the stack's square alone.
    static Json board(const G::State& state, const G::State* before, const G::Move* last);
    static MovePath path(const G::State& state, const G::Move& move);
    static Expected<RecordLine<G>> read_record(std::string_view text, std::size_t index);
};

}  // namespace bge::gui
