#pragma once
// The referee of one game, written once for every game: prepares both engines, then asks the
// side to move for a move under its clock, checks it with the core rules and plays it, until the
// rules, an adjudication or a forfeit end the game.
//
// Forfeit rule: with a clock (tc= or st=), no bestmove before the deadline or a bestmove that
// overdraws the clock is a time forfeit. Without a clock (nodes=/depth= only), no bestmove within
// the stall timeout is a stall. Protocol timeouts (handshake, isready) are stalls too.

#include <array>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/game_record.hpp"
#include "tools/arbiter/game_adapter.hpp"
#include "tools/arbiter/time_control.hpp"

namespace bge::arbiter {

// Granted on top of timemargin for pipe and scheduling latency, as a budget for the whole game.
constexpr std::int64_t latency_slack_ms = 50;
// How long a search without a clock may take before the engine is judged stalled.
constexpr std::chrono::milliseconds stall_timeout{60'000};

// "position startpos moves a1 f6", "position tps <tps> moves ...", "position fen <tps> ...".
template <GameAdapter A>
std::string position_command(protocol::Dialect dialect, const GameRecord<typename A::Game>& record) {
    using G = typename A::Game;
    const std::string start = G::format_position(record.start());
    const std::string standard = G::format_position(G::start_state(G::variant_of(record.start())));
    std::string command;
    if (dialect == protocol::Dialect::tei && start == standard)
        command = "position startpos";
    else
        command =
            fmt::format("position {} {}",
                        dialect == protocol::Dialect::tei ? std::string_view(A::tei_position_keyword) : "fen", start);
    if (record.moves().empty()) return command;
    command += " moves";
    auto position = record.start();
    for (const auto& move : record.moves()) {
        command += ' ';
        command += G::format_move(position, move);
        G::play(position, move);
    }
    return command;
}

using Clocks = std::array<std::optional<PlayerClock>, 2>;

// "go wtime 9000 btime 9000 winc 100 binc 100 [movestogo N] [nodes N] [depth N]" and UGI's
// p1time/p2time/p1inc/p2inc; "go movetime N" for st=.
inline std::string go_command(protocol::Dialect dialect, const EngineConfig& mover, Side side, const Clocks& clocks) {
    const bool tei = dialect == protocol::Dialect::tei;
    std::string command = "go";
    if (mover.move_time_ms) {
        command += fmt::format(" movetime {}", *mover.move_time_ms);
    } else if (clocks[index_of(side)]) {
        const char* time_key[2] = {tei ? "wtime" : "p1time", tei ? "btime" : "p2time"};
        const char* increment_key[2] = {tei ? "winc" : "p1inc", tei ? "binc" : "p2inc"};
        for (int i = 0; i < 2; ++i)
            if (clocks[i])
                command += fmt::format(" {} {}", time_key[i], std::max<std::int64_t>(0, clocks[i]->remaining_ms()));
        for (int i = 0; i < 2; ++i)
            if (clocks[i]) command += fmt::format(" {} {}", increment_key[i], clocks[i]->increment_ms());
        if (const int to_go = clocks[index_of(side)]->moves_to_go(); to_go > 0)
            command += fmt::format(" movestogo {}", to_go);
    }
    if (mover.nodes) command += fmt::format(" nodes {}", *mover.nodes);
    if (mover.depth) command += fmt::format(" depth {}", *mover.depth);
    return command;
}

// "+0.31/7 0.42s" as racetrack writes it; the time only when the engine plays on a clock, so
// fixed-node games give byte-identical records.
inline std::string move_comment(const EngineReply& reply, bool with_time) {
    if (!reply.info) return {};
    std::string comment = fmt::format("{:+.2f}/{}", reply.info->score_cp / 100.0, reply.info->depth);
    if (with_time) comment += fmt::format(" {:.2f}s", static_cast<double>(reply.elapsed_ms) / 1000.0);
    return comment;
}

template <GameAdapter A>
class GameRunner {
public:
    using G = typename A::Game;

    // players[0] plays White (the side that moves first in the game's start position).
    GameRunner(const typename G::Variant& variant, const Opening<G>& opening, int max_moves,
               std::array<EnginePlayer*, 2> players)
        : variant_(variant), record_(opening.start), max_moves_(max_moves), players_(players) {
        for (const auto& move : opening.moves) {
            record_.play(move);
            comments_.emplace_back("book");
        }
        for (int i = 0; i < 2; ++i)
            if (const auto& tc = players_[i]->config().time_control; tc && !tc->infinite) clocks_[i].emplace(*tc);
    }

    PlayedGame<G> run() {
        std::optional<GameEnd> end;
        for (Side side : {Side::first, Side::second})
            if (!end && !fatal_error_) end = prepare(side);
        while (!end && !fatal_error_) end = next_move();
        PlayedGame<G> played;
        played.start = record_.start();
        played.moves = record_.moves();
        played.comments = comments_;
        played.final_position = record_.current();
        if (end) played.end = *end;
        played.engine_failed = players_[0]->needs_restart() || players_[1]->needs_restart();
        played.fatal_error = fatal_error_;
        return played;
    }

private:
    EnginePlayer& player(Side side) { return *players_[index_of(side)]; }

    std::optional<GameEnd> loss_for_status(Side side, EngineStatus status) {
        if (status == EngineStatus::ok) return std::nullopt;
        if (status == EngineStatus::fatal) {
            fatal_error_ = player(side).last_error();
            return std::nullopt;
        }
        warn(player(side).last_error());
        return GameEnd::loss_of(side, status == EngineStatus::stall ? Termination::stall : Termination::disconnect);
    }

    std::optional<GameEnd> prepare(Side side) {
        EnginePlayer& engine = player(side);
        if (auto end = loss_for_status(side, engine.ensure_running()); end || fatal_error_) return end;
        auto options = A::rule_options(variant_, engine);
        if (!options) {
            fatal_error_ = options.error();
            return std::nullopt;
        }
        return loss_for_status(side, engine.start_game(*options, A::new_game_command(engine.dialect(), variant_)));
    }

    std::optional<GameEnd> next_move() {
        if (const Outcome outcome = record_.outcome(); outcome.is_over()) return GameEnd::by_rules(outcome);
        if (max_moves_ > 0 && record_.moves().size() >= 2 * static_cast<std::size_t>(max_moves_))
            return GameEnd::max_moves_draw();
        const Side side = G::side_to_move(record_.current());
        EnginePlayer& engine = player(side);
        const EngineConfig& config = engine.config();
        const std::int64_t allowance = config.time_margin_ms + latency_slack_ms;
        auto& clock = clocks_[index_of(side)];
        const auto budget =
            config.move_time_ms ? std::chrono::milliseconds(*config.move_time_ms + allowance)
            : clock ? std::chrono::milliseconds(std::max<std::int64_t>(0, clock->remaining_ms() + allowance))
                    : stall_timeout;

        const EngineReply reply = engine.think(position_command<A>(engine.dialect(), record_),
                                               go_command(engine.dialect(), config, side, clocks_), budget);
        if (reply.kind == EngineReply::Kind::closed) {
            warn(engine.last_error());
            return GameEnd::loss_of(side, Termination::disconnect);
        }
        if (reply.kind == EngineReply::Kind::timeout) {
            engine.abandon_search();
            if (engine.needs_restart()) warn(engine.last_error());
            return GameEnd::loss_of(side, config.has_clock() ? Termination::time_forfeit : Termination::stall);
        }
        const bool overdrawn = config.move_time_ms ? reply.elapsed_ms > *config.move_time_ms + allowance
                               : clock             ? !clock->charge_move(reply.elapsed_ms, allowance)
                                                   : false;
        if (overdrawn) return GameEnd::loss_of(side, Termination::time_forfeit);
        auto move = G::parse_move(record_.current(), reply.move);
        if (!move) return GameEnd::loss_of(side, Termination::illegal_move, reply.move.empty() ? "(none)" : reply.move);
        record_.play(*move);
        comments_.push_back(move_comment(reply, config.has_clock()));
        return std::nullopt;
    }

    static void warn(const std::string& message) {
        if (!message.empty()) std::fputs(fmt::format("arbiter: {}\n", message).c_str(), stderr);
    }

    typename G::Variant variant_;
    GameRecord<G> record_;
    std::vector<std::string> comments_;
    int max_moves_;
    std::array<EnginePlayer*, 2> players_;
    Clocks clocks_;
    std::optional<std::string> fatal_error_;
};

}  // namespace bge::arbiter
