#pragma once
// What the arbiter needs from a game beyond the Game concept: the variant from the command line,
// the protocol details (TEI new-game command, rule options such as HalfKomi), how to word a
// rules ending, and the game record format. Everything else (referee, clocks, openings, schedule,
// output) is written once against this. core/tak's adapter is tools/arbiter/tak_adapter.hpp.

#include <concepts>
#include <ctime>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/game.hpp"
#include "protocol/engine_spec.hpp"
#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/engine_player.hpp"
#include "tools/arbiter/game_end.hpp"

namespace bge::arbiter {

// Where a game starts: a position and moves already played from it (both engines get them).
template <Game G>
struct Opening {
    typename G::State start;
    std::vector<typename G::Move> moves;
};

// A game record read for `arbiter analyse`: where it starts, its legal moves, what stopped them
// early, the result it gives, and how to write it again with a comment and a mark per move.
template <Game G>
struct AnalysisRecord {
    typename G::State start{};
    std::vector<typename G::Move> moves;  // the record's moves up to the first illegal one
    std::string problem;                  // why the moves stop early ("ply 23 (a7): ..."), or empty
    std::string result;                   // as the record gives it ("R-0", "1-0", "*"), or empty
    // Unset when the record could not be read at all (its start position, say): `problem` says why.
    std::function<std::string(const std::vector<std::string>& comments, const std::vector<std::string>& marks)> write;
};

// A finished game, as the runner hands it back.
template <Game G>
struct PlayedGame {
    typename G::State start{};
    std::vector<typename G::Move> moves;
    std::vector<std::string> comments;  // one per move, may be empty
    typename G::State final_position{};
    GameEnd end;
    bool engine_failed = false;              // an engine crashed or had to be killed
    bool interrupted = false;                // stopped by SIGINT: not a result, played again on -resume
    std::optional<std::string> fatal_error;  // the game could not be played at all
};

// The record's date: today, local time, YYYY.MM.DD.
inline std::string today() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    return fmt::format("{:04}.{:02}.{:02}", local.tm_year + 1900, local.tm_mon + 1, local.tm_mday);
}

// What the record of a game says besides the moves.
struct RecordInfo {
    std::string white;
    std::string black;
    int round = 1;
    std::string date;  // YYYY.MM.DD
};

using OptionList = std::vector<std::pair<std::string, std::string>>;

template <class A>
concept GameAdapter = Game<typename A::Game> &&
    requires(const MatchConfig& config, const typename A::Game::Variant& variant, const EnginePlayer& player,
             protocol::Dialect dialect, const Outcome& outcome, std::string_view text,
             const PlayedGame<typename A::Game>& played, const RecordInfo& info) {
    { A::default_dialect } -> std::convertible_to<protocol::Dialect>;
    { A::tei_position_keyword } -> std::convertible_to<std::string_view>;  // position <keyword> <text>
    { A::make_variant(config) } -> std::same_as<Expected<typename A::Game::Variant>>;
    { A::variant_text(variant) } -> std::same_as<std::string>;
    // Options that carry the rules to an engine; an error when the engine cannot play them.
    { A::rule_options(variant, player) } -> std::same_as<Expected<OptionList>>;
    { std::span<const std::string_view>(A::rule_option_names) };  // every name rule_options() may send
    { A::new_game_command(dialect, variant) } -> std::same_as<std::string>;
    { A::rule_phrase(outcome) } -> std::same_as<std::string>;  // "by road", "on flats"
    { A::side_names } -> std::convertible_to<SideNames>;         // "White wins", "x wins"
    { A::parse_record_openings(text, variant) } -> std::same_as<Expected<std::vector<Opening<typename A::Game>>>>;
    { A::format_record(played, info) } -> std::same_as<std::string>;
    // Every record of a file, each on its own: one with an illegal move keeps the moves before it.
    { A::analysis_records(text, variant) } -> std::same_as<Expected<std::vector<AnalysisRecord<typename A::Game>>>>;
};

}  // namespace bge::arbiter
