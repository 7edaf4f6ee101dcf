#pragma once
// TwixT as a model of the Game concept (core/game.hpp).

#include <string>
#include <string_view>

#include "core/game.hpp"
#include "core/twixt/notation.hpp"
#include "core/twixt/rules.hpp"

namespace bge::twixt {

struct Twixt {
    using Variant = twixt::Variant;
    using State = twixt::State;
    using Move = twixt::Move;
    using Undo = twixt::Undo;
    static constexpr std::string_view name = "twixt";
    static constexpr std::size_t max_moves = max_legal_moves;

    static State start_state(const Variant& variant) { return twixt::start_state(variant); }
    static void generate_moves(const State& state, MoveList<Twixt>& moves) { twixt::generate_moves(state, moves); }
    static std::uint64_t count_moves(const State& state) { return twixt::count_moves(state); }
    static Undo play(State& state, const Move& move) { return twixt::play(state, move); }
    static void undo(State& state, const Move& move, const Undo& record) { twixt::undo(state, move, record); }
    static Side side_to_move(const State& state) { return state.side_to_move(); }
    static std::uint64_t hash(const State& state) { return state.hash; }
    static Outcome outcome(const State& state) { return twixt::outcome(state); }
    static bool ends_game(const State& state, const Move& move) { return twixt::ends_game(state, move); }
    static int repetition_limit(const State&) { return 0; }
    static Variant variant_of(const State& state) { return twixt::variant_of(state); }

    static Expected<Move> parse_move(const State& state, std::string_view text) {
        return twixt::parse_move(state, text);
    }
    static std::string format_move(const State& state, const Move& move) { return twixt::format_move(state, move); }
    static Expected<State> parse_position(const Variant& variant, std::string_view text) {
        return twixt::parse_position(text, variant);
    }
    static std::string format_position(const State& state) { return twixt::format_position(state); }
    static std::string draw_board(const State& state, const Outcome& outcome) {
        return twixt::draw_board(state, outcome);
    }
    static std::string result_text(const State&, const Outcome& outcome) { return twixt::result_text(outcome); }
};

static_assert(Game<Twixt>);
static_assert(CountsMoves<Twixt>);
static_assert(PredictsGameEnd<Twixt>);

}  // namespace bge::twixt
