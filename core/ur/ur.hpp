#pragma once
// The Royal Game of Ur as a model of the StochasticGame concept (core/game.hpp): the roll is part
// of the State, and at a chance node the moves are the rolls.

#include <string>
#include <string_view>

#include "core/game.hpp"
#include "core/ur/notation.hpp"
#include "core/ur/rules.hpp"

namespace bge::ur {

struct Ur {
    using Variant = ur::Variant;
    using State = ur::State;
    using Move = ur::Move;
    using Undo = ur::Undo;
    static constexpr std::string_view name = "ur";
    static constexpr std::size_t max_moves = max_legal_moves;
    static constexpr std::size_t max_chance_outcomes = max_roll_outcomes;

    static State start_state(const Variant& variant) { return ur::start_state(variant); }
    static void generate_moves(const State& state, MoveList<Ur>& moves) { ur::generate_moves(state, moves); }
    static Undo play(State& state, const Move& move) { return ur::play(state, move); }
    static void undo(State& state, const Move& move, const Undo& record) { ur::undo(state, move, record); }
    static Side side_to_move(const State& state) { return state.to_move; }
    static std::uint64_t hash(const State& state) { return ur::hash(state); }
    static Outcome outcome(const State& state) { return ur::outcome(state); }
    static int repetition_limit(const State&) { return 0; }
    static Variant variant_of(const State& state) { return state.variant(); }

    static bool is_chance_node(const State& state) { return ur::is_chance_node(state); }
    static void chance_outcomes(const State& state, ChanceList<Ur>& rolls) {
        rolls.clear();
        for (const Roll& roll : roll_outcomes(state.ruleset))
            rolls.push_back({Move::make_roll(roll.number), roll.probability});
    }

    static Expected<Move> parse_move(const State& state, std::string_view text) { return ur::parse_move(state, text); }
    static std::string format_move(const State& state, const Move& move) { return ur::format_move(state, move); }
    static Expected<State> parse_position(const Variant& variant, std::string_view text) {
        return ur::parse_position(variant, text);
    }
    static std::string format_position(const State& state) { return ur::format_position(state); }
    static std::string draw_board(const State& state, const Outcome& outcome) {
        return ur::draw_board(state, outcome);
    }
    static std::string result_text(const State&, const Outcome& outcome) { return ur::result_text(outcome); }
};

static_assert(StochasticGame<Ur>);

}  // namespace bge::ur
