#pragma once
// A tiny dice game for testing chance nodes in generic code (perft, MCTS): two runners on a
// track of `goal` squares; before each turn a coin-like die shows 1 or 2 (equally likely); the
// mover then either runs that many squares or rests. Reaching the goal wins. A 6 (the "roll")
// is part of the position, as in Ur.

#include <string>
#include <string_view>

#include "core/game.hpp"

namespace bge::testing {

struct DiceRace {
    struct Variant {
        int goal = 6;
        friend bool operator==(const Variant&, const Variant&) = default;
    };
    struct State {
        int position[2] = {0, 0};
        int roll = 0;  // 0: a roll is due
        Side to_move = Side::first;
        int goal = 6;
    };
    // kind 0: roll (value 1..2), 1: run, 2: rest
    struct Move {
        std::uint8_t kind = 0;
        std::uint8_t value = 0;
        friend bool operator==(Move, Move) = default;
    };
    struct Undo {
        State before;
    };
    static constexpr std::string_view name = "dice-race";
    static constexpr std::size_t max_moves = 2;
    static constexpr std::size_t max_chance_outcomes = 2;

    static State start_state(const Variant& v) {
        State s;
        s.goal = v.goal;
        return s;
    }
    static bool is_chance_node(const State& s) { return s.roll == 0 && !outcome(s).is_over(); }
    static void chance_outcomes(const State&, ChanceList<DiceRace>& rolls) {
        rolls.clear();
        rolls.push_back({Move{0, 1}, 0.5});
        rolls.push_back({Move{0, 2}, 0.5});
    }
    static void generate_moves(const State& s, MoveList<DiceRace>& moves) {
        moves.clear();
        if (outcome(s).is_over() || s.roll == 0) return;
        moves.push_back(Move{1, 0});
        moves.push_back(Move{2, 0});
    }
    static Undo play(State& s, const Move& m) {
        Undo undo{s};
        if (m.kind == 0) {
            s.roll = m.value;
            return undo;
        }
        if (m.kind == 1) s.position[index_of(s.to_move)] += s.roll;
        s.roll = 0;
        s.to_move = opponent(s.to_move);
        return undo;
    }
    static void undo(State& s, const Move&, const Undo& u) { s = u.before; }
    static Side side_to_move(const State& s) { return s.to_move; }
    static std::uint64_t hash(const State& s) {
        return static_cast<std::uint64_t>(s.position[0]) * 1000003u + static_cast<std::uint64_t>(s.position[1]) * 1009u +
               static_cast<std::uint64_t>(s.roll) * 17u + static_cast<std::uint64_t>(s.to_move == Side::second);
    }
    static Outcome outcome(const State& s) {
        if (s.position[0] >= s.goal) return Outcome::win(Side::first, "goal");
        if (s.position[1] >= s.goal) return Outcome::win(Side::second, "goal");
        return Outcome::ongoing();
    }
    static int repetition_limit(const State&) { return 0; }
    static Variant variant_of(const State& s) { return Variant{s.goal}; }
    static Expected<Move> parse_move(const State&, std::string_view text) {
        if (text == "run") return Move{1, 0};
        if (text == "rest") return Move{2, 0};
        return make_error("expected run or rest");
    }
    static std::string format_move(const State&, const Move& m) {
        return m.kind == 0 ? "roll" + std::to_string(m.value) : m.kind == 1 ? "run" : "rest";
    }
    static Expected<State> parse_position(const Variant&, std::string_view) { return make_error("not supported"); }
    static std::string format_position(const State& s) {
        return std::to_string(s.position[0]) + "/" + std::to_string(s.position[1]);
    }
    static std::string draw_board(const State& s, const Outcome&) { return format_position(s); }
    static std::string result_text(const State&, const Outcome& o) { return o.is_over() ? "over" : "*"; }
};

static_assert(StochasticGame<DiceRace>);

}  // namespace bge::testing
