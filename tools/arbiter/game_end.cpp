#include "tools/arbiter/game_end.hpp"

#include <fmt/format.h>

namespace bge::arbiter {

namespace {

std::string_view reason_literal(Termination termination) {
    switch (termination) {
        case Termination::rules:
            break;
        case Termination::max_moves:
            return "max moves";
        case Termination::time_forfeit:
            return "time forfeit";
        case Termination::illegal_move:
            return "illegal move";
        case Termination::stall:
            return "stall";
        case Termination::disconnect:
            return "disconnect";
        case Termination::adjudication:
            return "adjudication";
    }
    return "rules";
}

}  // namespace

GameEnd GameEnd::loss_of(Side loser, Termination termination, std::string illegal_move) {
    return {Outcome::win(opponent(loser), reason_literal(termination)), termination, std::move(illegal_move)};
}

std::string result_score(const Outcome& outcome) {
    if (outcome.kind == OutcomeKind::draw) return "1/2-1/2";
    if (outcome.kind == OutcomeKind::ongoing) return "*";
    return outcome.winner == Side::first ? "1-0" : "0-1";
}

std::string termination_tag(const GameEnd& end) {
    if (end.termination == Termination::rules) return std::string(end.outcome.reason);
    return std::string(reason_literal(end.termination));
}

std::string describe(const GameEnd& end, std::string_view rule_phrase, const SideNames& names) {
    const Side winner = end.outcome.winner;
    const std::string_view loser = side_name(opponent(winner), names);
    switch (end.termination) {
        case Termination::rules:
            if (end.outcome.kind == OutcomeKind::draw) return fmt::format("Draw {}", rule_phrase);
            return fmt::format("{} wins {}", side_name(winner, names), rule_phrase);
        case Termination::max_moves:
            return "Draw by adjudication: max moves";
        case Termination::time_forfeit:
            return fmt::format("{} loses on time", loser);  // cutechess wording
        case Termination::illegal_move:
            return fmt::format("{} makes an illegal move: {}", loser, end.illegal_move);
        case Termination::stall:
            return fmt::format("{}'s connection stalls", loser);
        case Termination::disconnect:
            return fmt::format("{} disconnects", loser);
        case Termination::adjudication:
            if (end.outcome.kind == OutcomeKind::draw) return "Draw by adjudication";
            return fmt::format("{} wins by adjudication", side_name(winner, names));
    }
    return "unknown";
}

}  // namespace bge::arbiter
