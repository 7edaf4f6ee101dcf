#pragma once
// The Game concept: the one interface every game's rules provide and every search algorithm,
// protocol loop and referee is written against. A game is a traits struct (e.g. bge::tak::Tak)
// with static functions, so search code is instantiated per game with no virtual calls.
//
// What it covers, so the five games fit without changing it:
// - any board shape and rule set: chosen by the game's Variant record at new-game time;
// - turns that do not alternate (Ur's extra rolls): side_to_move() is asked at every node;
// - special moves (TwixT's pie swap): just another Move value of that game;
// - draws by repetition (Expendibots, optional in Tak): repetition_limit() plus GameRecord;
// - turn limits: part of the State and reported by outcome();
// - dice: the StochasticGame refinement below adds chance nodes.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/expected.hpp"
#include "core/fixed_vector.hpp"

namespace bge {

enum class Side : std::uint8_t { first = 0, second = 1 };

constexpr Side opponent(Side side) { return side == Side::first ? Side::second : Side::first; }
constexpr int index_of(Side side) { return static_cast<int>(side); }

enum class OutcomeKind : std::uint8_t { ongoing, win, draw };

// How a position stands. `reason` is a short static text ("road", "flats", "five", "repetition",
// ...) that referees and records print; it always points at a string literal.
struct Outcome {
    OutcomeKind kind = OutcomeKind::ongoing;
    Side winner = Side::first;  // meaningful only when kind == win
    std::string_view reason;

    static constexpr Outcome ongoing() { return {}; }
    static constexpr Outcome win(Side winner, std::string_view reason) { return {OutcomeKind::win, winner, reason}; }
    static constexpr Outcome draw(std::string_view reason) { return {OutcomeKind::draw, Side::first, reason}; }
    constexpr bool is_over() const { return kind != OutcomeKind::ongoing; }
    constexpr bool is_win_for(Side side) const { return kind == OutcomeKind::win && winner == side; }
    friend constexpr bool operator==(const Outcome&, const Outcome&) = default;
};

template <class G>
using MoveList = FixedVector<typename G::Move, G::max_moves>;

// clang-format 14 garbles requires-expressions joined with &&.
// clang-format off
template <class G>
concept Game =
    requires {
        typename G::Variant;
        typename G::State;
        typename G::Move;
        typename G::Undo;  // what undo() needs; copy-make games may make it the whole State
        { G::name } -> std::convertible_to<std::string_view>;
        { G::max_moves } -> std::convertible_to<std::size_t>;
    } && std::is_trivially_copyable_v<typename G::Move> &&
    std::equality_comparable<typename G::Move> && std::copyable<typename G::State> &&
    requires(typename G::State& state, const typename G::State& position,
             const typename G::Move& move, const typename G::Undo& undo, MoveList<G>& moves,
             const typename G::Variant& variant, std::string_view text) {
        // Rules.
        { G::start_state(variant) } -> std::same_as<typename G::State>;
        { G::generate_moves(position, moves) } -> std::same_as<void>;
        { G::play(state, move) } -> std::same_as<typename G::Undo>;
        { G::undo(state, move, undo) } -> std::same_as<void>;
        { G::side_to_move(position) } -> std::same_as<Side>;
        { G::hash(position) } -> std::same_as<std::uint64_t>;
        // Intrinsic end of the game (road, five in a row, turn limit...). Repetition needs the
        // history, so GameRecord adds it on top, using repetition_limit().
        { G::outcome(position) } -> std::same_as<Outcome>;
        { G::repetition_limit(position) } -> std::same_as<int>;  // 0: no repetition rule
        { G::variant_of(position) } -> std::same_as<typename G::Variant>;
        // Text codecs. Parsing checks legality and never throws.
        { G::parse_move(position, text) } -> std::same_as<Expected<typename G::Move>>;
        { G::format_move(position, move) } -> std::same_as<std::string>;
        { G::parse_position(variant, text) } -> std::same_as<Expected<typename G::State>>;
        { G::format_position(position) } -> std::same_as<std::string>;
        // The board as text for `d`, with the result line for the outcome given (the game's,
        // repetition included, so every view of a position agrees).
        { G::draw_board(position, Outcome{}) } -> std::same_as<std::string>;
        { G::result_text(position, Outcome{}) } -> std::same_as<std::string>;
    };
// clang-format on

// Games with dice: at a chance node the "moves" are the roll outcomes, each with a probability.
template <class G>
struct ChanceOutcome {
    typename G::Move roll;
    double probability;
};

template <class G>
using ChanceList = FixedVector<ChanceOutcome<G>, G::max_chance_outcomes>;

template <class G>
concept StochasticGame = Game<G> && requires(const typename G::State& position, ChanceList<G>& rolls) {
    { G::max_chance_outcomes } -> std::convertible_to<std::size_t>;
    { G::is_chance_node(position) } -> std::same_as<bool>;
    { G::chance_outcomes(position, rolls) } -> std::same_as<void>;
};

template <class G>
constexpr bool is_chance_node(const typename G::State& position) {
    if constexpr (StochasticGame<G>)
        return G::is_chance_node(position);
    else
        return false;
}

// A throw of the dice at a chance node: `draw`, uniform in [0, 1), picks the first outcome whose
// cumulative probability exceeds it (the last one when rounding leaves the sum short of 1); none
// when the node has no outcomes. The arbiter's referee, its book generator and the Ur trainer
// roll with it.
template <StochasticGame G>
std::optional<typename G::Move> drawn_chance_outcome(const typename G::State& position, double draw) {
    ChanceList<G> rolls;
    G::chance_outcomes(position, rolls);
    if (rolls.empty()) return std::nullopt;
    for (const auto& outcome : rolls) {
        if (draw < outcome.probability) return outcome.roll;
        draw -= outcome.probability;
    }
    return rolls[rolls.size() - 1].roll;
}

// Optional fast path for bulk perft: count the legal moves without writing them out.
template <class G>
concept CountsMoves = Game<G> && requires(const typename G::State& position) {
    { G::count_moves(position) } -> std::convertible_to<std::uint64_t>;
};

// Optional fast path for MCTS's decisive-move checks: whether playing `move` ends the game,
// answered without playing it.
template <class G>
concept PredictsGameEnd = Game<G> && requires(const typename G::State& position, const typename G::Move& move) {
    { G::ends_game(position, move) } -> std::same_as<bool>;
};

}  // namespace bge
