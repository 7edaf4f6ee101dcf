#pragma once
// Tak as a model of the Game concept (core/game.hpp).

#include <string>
#include <string_view>

#include "core/game.hpp"
#include "core/tak/notation.hpp"
#include "core/tak/rules.hpp"

namespace bge::tak {

struct Tak {
    using Variant = tak::Variant;
    using State = tak::State;
    using Move = tak::Move;
    using Undo = tak::Undo;
    static constexpr std::string_view name = "tak";
    static constexpr std::size_t max_moves = max_legal_moves;

    static State start_state(const Variant& variant) { return tak::start_state(variant); }
    static void generate_moves(const State& state, MoveList<Tak>& moves) { tak::generate_moves(state, moves); }
    static std::uint64_t count_moves(const State& state) { return tak::count_moves(state); }
    static Undo play(State& state, const Move& move) { return tak::play(state, move); }
    static void undo(State& state, const Move& move, const Undo& record) { tak::undo(state, move, record); }
    static Undo play_null(State& state) { return tak::play_null(state); }
    static void undo_null(State& state, const Undo& record) { tak::undo_null(state, record); }
    static Side side_to_move(const State& state) { return state.side_to_move(); }
    static std::uint64_t hash(const State& state) { return state.hash; }
    static Outcome outcome(const State& state) { return tak::outcome(state); }
    static int repetition_limit(const State& state) { return state.repetition_draw ? 3 : 0; }
    static Variant variant_of(const State& state) { return tak::variant_of(state); }

    static Expected<Move> parse_move(const State& state, std::string_view text) { return tak::parse_move(state, text); }
    static std::string format_move(const State&, const Move& move) { return tak::format_move(move); }
    static Expected<State> parse_position(const Variant& variant, std::string_view text) {
        return parse_tps(text, variant);
    }
    static std::string format_position(const State& state) { return format_tps(state); }
    static std::string draw_board(const State& state, const Outcome& outcome) {
        return tak::draw_board(state, outcome);
    }
    static std::string result_text(const State&, const Outcome& outcome) { return tak::result_text(outcome); }
};

static_assert(Game<Tak>);
static_assert(CountsMoves<Tak>);

}  // namespace bge::tak
