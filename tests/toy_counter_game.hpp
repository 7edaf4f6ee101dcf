#pragma once
// A tiny test-only game modelling the Game concept, small enough to check searches and learning by
// hand. Two counters a and b start at 0; a move adds one to either (or only to a, with `only_a`);
// the sides alternate, White first. When a + b reaches `target` the game ends: White wins if
// a > b, Black if b > a, else a draw. Positions depend only on (a, b), so move orders transpose:
// (1,1) is reached through (1,0) and through (0,1), a diamond.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/game.hpp"
#include "core/random.hpp"

namespace bge::testing {

struct CounterGame {
    struct Variant {
        int target = 2;
        bool only_a = false;
        friend bool operator==(const Variant&, const Variant&) = default;
    };
    struct State {
        int a = 0;
        int b = 0;
        Variant variant;
    };
    struct Move {
        std::uint8_t counter = 0;  // 0: a, 1: b
        friend bool operator==(Move, Move) = default;
    };
    using Undo = Move;
    static constexpr std::string_view name = "counter";
    static constexpr std::size_t max_moves = 2;

    static State start_state(const Variant& variant) { return State{0, 0, variant}; }
    static void generate_moves(const State& state, MoveList<CounterGame>& moves) {
        moves.clear();
        if (state.a + state.b >= state.variant.target) return;
        moves.push_back(Move{0});
        if (!state.variant.only_a) moves.push_back(Move{1});
    }
    static Undo play(State& state, const Move& move) {
        (move.counter == 0 ? state.a : state.b) += 1;
        return move;
    }
    static void undo(State& state, const Move& move, const Undo&) { (move.counter == 0 ? state.a : state.b) -= 1; }
    static Side side_to_move(const State& state) { return (state.a + state.b) % 2 == 0 ? Side::first : Side::second; }
    static std::uint64_t hash(const State& state) {
        std::uint64_t seed = static_cast<std::uint64_t>(state.a) * 1000 + static_cast<std::uint64_t>(state.b);
        return splitmix64(seed);
    }
    static Outcome outcome(const State& state) {
        if (state.a + state.b < state.variant.target) return Outcome::ongoing();
        if (state.a > state.b) return Outcome::win(Side::first, "count");
        if (state.b > state.a) return Outcome::win(Side::second, "count");
        return Outcome::draw("count");
    }
    static int repetition_limit(const State&) { return 0; }
    static Variant variant_of(const State& state) { return state.variant; }
    static Expected<Move> parse_move(const State& state, std::string_view text) {
        if (text == "a" || (text == "b" && !state.variant.only_a)) return Move{static_cast<std::uint8_t>(text == "b")};
        return make_error("no such move");
    }
    static std::string format_move(const State&, const Move& move) { return move.counter == 0 ? "a" : "b"; }
    static Expected<State> parse_position(const Variant&, std::string_view) { return make_error("not supported"); }
    static std::string format_position(const State& state) {
        return std::to_string(state.a) + "," + std::to_string(state.b);
    }
    static std::string draw_board(const State& state, const Outcome&) { return format_position(state); }
    static std::string result_text(const State&, const Outcome& outcome) {
        if (outcome.kind == OutcomeKind::draw) return "1/2-1/2";
        if (outcome.kind == OutcomeKind::win) return outcome.winner == Side::first ? "1-0" : "0-1";
        return "*";
    }
};

static_assert(Game<CounterGame>);

// phi = (1, lead) where lead = (own count - the other's) / target, from the mover's view: White
// owns a, Black owns b.
struct CounterFeatures {
    static constexpr std::size_t count = 2;
    static void compute(const CounterGame::State& after, const CounterGame::Move&, Side mover,
                        std::array<double, count>& phi) {
        const double lead = static_cast<double>(after.a - after.b) / after.variant.target;
        phi = {1.0, mover == Side::first ? lead : -lead};
    }
};

}  // namespace bge::testing
