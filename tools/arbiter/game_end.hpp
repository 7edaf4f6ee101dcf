#pragma once
// How a game ended, and the texts the arbiter prints and records for it: the cutechess-style
// result ("1-0") and reason ("{White wins by road}"), and the PTN/PGN Termination tag.

#include <array>
#include <string>
#include <string_view>

#include "core/game.hpp"

namespace bge::arbiter {

enum class Termination {
    rules,         // the game's own end (road, flats, repetition...)
    max_moves,     // adjudicated a draw by -maxmoves
    time_forfeit,  // the mover's clock ran out (it had a clock)
    illegal_move,  // the mover sent an unparsable or illegal move
    stall,         // no answer in time where no clock runs (handshake, isready, nodes/depth search)
    disconnect,    // the engine exited, crashed or closed its pipes
    adjudication,  // -draw or -resign, from the engines' own scores
};

struct GameEnd {
    Outcome outcome;  // win (with the winner) or draw; reason is a short literal
    Termination termination = Termination::rules;
    std::string illegal_move;  // the text the engine sent, for Termination::illegal_move

    static GameEnd by_rules(Outcome outcome) { return {outcome, Termination::rules, {}}; }
    static GameEnd max_moves_draw() { return {Outcome::draw("max moves"), Termination::max_moves, {}}; }
    static GameEnd adjudicated_draw() { return {Outcome::draw("adjudication"), Termination::adjudication, {}}; }
    // The mover lost for a reason of its own making.
    static GameEnd loss_of(Side loser, Termination termination, std::string illegal_move = {});
};

// What the game calls its two sides in the texts below: White and Black (Tak, Expendibots), Black
// and White (Gomoku, where Black moves first), x and o (TwixT), Light and Dark (Ur).
using SideNames = std::array<std::string_view, 2>;
constexpr std::string_view side_name(Side side, const SideNames& names) {
    return names[side == Side::first ? 0 : 1];
}

// "1-0", "0-1" or "1/2-1/2".
std::string result_score(const Outcome& outcome);
// The Termination tag: the rules' reason ("road") or "max moves", "time forfeit", "illegal move",
// "stall", "disconnect", "adjudication".
std::string termination_tag(const GameEnd& end);
// The text inside the braces of a Finished line. `rule_phrase` words the rules' reason, e.g.
// "by road" or "on flats".
std::string describe(const GameEnd& end, std::string_view rule_phrase, const SideNames& names);

}  // namespace bge::arbiter
