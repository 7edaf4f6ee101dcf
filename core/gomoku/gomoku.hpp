#pragma once
// Gomoku as a model of the Game concept (core/game.hpp).

#include <string>
#include <string_view>

#include "core/game.hpp"
#include "core/gomoku/notation.hpp"
#include "core/gomoku/rules.hpp"

namespace bge::gomoku {

struct Gomoku {
    using Variant = gomoku::Variant;
    using State = gomoku::State;
    using Move = gomoku::Move;
    using Undo = gomoku::Undo;
    static constexpr std::string_view name = "gomoku";
    static constexpr std::size_t max_moves = max_legal_moves;

    static State start_state(const Variant& variant) { return gomoku::start_state(variant); }
    static void generate_moves(const State& state, MoveList<Gomoku>& moves) { gomoku::generate_moves(state, moves); }
    static std::uint64_t count_moves(const State& state) { return gomoku::count_moves(state); }
    static Undo play(State& state, const Move& move) { return gomoku::play(state, move); }
    static void undo(State& state, const Move& move, const Undo& record) { gomoku::undo(state, move, record); }
    static Side side_to_move(const State& state) { return state.side_to_move(); }
    static std::uint64_t hash(const State& state) { return state.hash; }
    static Outcome outcome(const State& state) { return gomoku::outcome(state); }
    static int repetition_limit(const State&) { return 0; }
    static Variant variant_of(const State& state) { return gomoku::variant_of(state); }

    static Expected<Move> parse_move(const State& state, std::string_view text) {
        return gomoku::parse_move(state, text);
    }
    static std::string format_move(const State& state, const Move& move) { return gomoku::format_move(state, move); }
    static Expected<State> parse_position(const Variant& variant, std::string_view text) {
        return gomoku::parse_position(text, variant);
    }
    static std::string format_position(const State& state) { return gomoku::format_position(state); }
    static std::string draw_board(const State& state, const Outcome& outcome) {
        return gomoku::draw_board(state, outcome);
    }
    static std::string result_text(const State&, const Outcome& outcome) { return gomoku::result_text(outcome); }
};

static_assert(Game<Gomoku>);
static_assert(CountsMoves<Gomoku>);

}  // namespace bge::gomoku
