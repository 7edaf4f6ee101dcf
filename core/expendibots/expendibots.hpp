#pragma once
// Expendibots as a model of the Game concept (core/game.hpp).

#include <string>
#include <string_view>

#include "core/expendibots/notation.hpp"
#include "core/expendibots/rules.hpp"
#include "core/game.hpp"

namespace bge::expendibots {

struct Expendibots {
    using Variant = expendibots::Variant;
    using State = expendibots::State;
    using Move = expendibots::Move;
    using Undo = expendibots::Undo;
    static constexpr std::string_view name = "expendibots";
    static constexpr std::size_t max_moves = max_legal_moves;

    static State start_state(const Variant& variant) { return expendibots::start_state(variant); }
    static void generate_moves(const State& state, MoveList<Expendibots>& moves) {
        expendibots::generate_moves(state, moves);
    }
    static std::uint64_t count_moves(const State& state) { return expendibots::count_moves(state); }
    static Undo play(State& state, const Move& move) { return expendibots::play(state, move); }
    static void undo(State& state, const Move& move, const Undo& record) { expendibots::undo(state, move, record); }
    static Undo play_null(State& state) { return expendibots::play_null(state); }
    static void undo_null(State& state, const Undo& record) { expendibots::undo_null(state, record); }
    static Side side_to_move(const State& state) { return state.to_move; }
    static std::uint64_t hash(const State& state) { return state.hash; }
    static Outcome outcome(const State& state) { return expendibots::outcome(state); }
    static int repetition_limit(const State&) { return repetitions_for_draw; }
    static Variant variant_of(const State&) { return {}; }

    static Expected<Move> parse_move(const State& state, std::string_view text) {
        return expendibots::parse_move(state, text);
    }
    static std::string format_move(const State&, const Move& move) { return expendibots::format_move(move); }
    static Expected<State> parse_position(const Variant&, std::string_view text) { return parse_fen(text); }
    static std::string format_position(const State& state) { return format_fen(state); }
    static std::string draw_board(const State& state, const Outcome& outcome) {
        return expendibots::draw_board(state, outcome);
    }
    static std::string result_text(const State&, const Outcome& outcome) { return expendibots::result_text(outcome); }
};

static_assert(Game<Expendibots>);
static_assert(CountsMoves<Expendibots>);

}  // namespace bge::expendibots
