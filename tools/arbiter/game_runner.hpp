#pragma once
// The referee of one game, written once for every game: prepares both engines, then asks the
// side to move for a move under its clock, checks it with the core rules and plays it, until the
// rules, an adjudication or a forfeit end the game.
//
// Forfeit rule: with a clock (tc= or st=), no bestmove before the deadline or a bestmove that
// overdraws the clock is a time forfeit. Without a clock (nodes=/depth= only), no bestmove within
// the stall timeout is a stall. Protocol timeouts (handshake, isready) are stalls too.

#include <array>
#include <atomic>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/game_record.hpp"
#include "core/random.hpp"
#include "tools/arbiter/game_adapter.hpp"
#include "tools/arbiter/time_control.hpp"

namespace bge::arbiter {

// Granted on top of timemargin for pipe and scheduling latency, as a budget for the whole game.
constexpr std::int64_t latency_slack_ms = 50;
// How long a search without a clock may take before the engine is judged stalled.
constexpr std::chrono::milliseconds stall_timeout{60'000};

// "position startpos moves a1 f6" whenever the game began at the standard start, in TEI and UGI
// alike: many UGI engines know only `startpos` (cutegames sends nothing else). A game from
// another position (a book given as positions) is "position tps <tps> ..." (TEI) or
// "position fen <fen> ..." (UGI).
template <GameAdapter A>
std::string position_command(protocol::Dialect dialect, const GameRecord<typename A::Game>& record) {
    using G = typename A::Game;
    const std::string start = G::format_position(record.start());
    const std::string standard = G::format_position(G::start_state(G::variant_of(record.start())));
    std::string command;
    if (start == standard)
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

// pbrain (Gomoku): the whole board as a BOARD block, from the adapter; empty for games without one.
template <GameAdapter A>
std::string pbrain_board_command(const GameRecord<typename A::Game>& record) {
    if constexpr (requires { A::pbrain_board(record); })
        return A::pbrain_board(record);
    else
        return {};
}

// pbrain's clock: INFO lines for the mover (pbrain has no node or depth limits). A clock sends the
// time left as both the match's and the move's limit; st= sends the move time.
inline std::string pbrain_clock_command(const EngineConfig& mover, Side side, const Clocks& clocks) {
    if (mover.move_time_ms)
        return fmt::format("INFO timeout_match 0\nINFO timeout_turn {}", *mover.move_time_ms);
    if (const auto& clock = clocks[index_of(side)]) {
        const std::int64_t left = std::max<std::int64_t>(0, clock->remaining_ms());
        return fmt::format("INFO timeout_match {}\nINFO timeout_turn {}\nINFO time_left {}", std::max<std::int64_t>(1, left),
                           std::max<std::int64_t>(1, left), left);
    }
    return "INFO timeout_match 0\nINFO timeout_turn 0";
}

// "+0.31/7 0.42s" as racetrack writes it; the time only when the engine plays on a clock, so
// fixed-node games give byte-identical records.
inline std::string move_comment(const EngineReply& reply, bool with_time) {
    if (!reply.info) return {};
    std::string comment = fmt::format("{:+.2f}/{}", reply.info->score_cp / 100.0, reply.info->depth);
    if (with_time) comment += fmt::format(" {:.2f}s", static_cast<double>(reply.elapsed_ms) / 1000.0);
    return comment;
}

// How a game may end besides the rules and the engines' own failures.
struct Adjudication {
    int max_moves = 0;  // 0: never
    std::optional<DrawAdjudication> draw;
    std::optional<ResignAdjudication> resign;
    const std::atomic<bool>* interrupt = nullptr;  // SIGINT: abandon the game
};

// Follows the engines' scores for -draw and -resign (cutechess's rules): a draw when both sides'
// scores stayed within +-score for movecount moves each, from full move movenumber on; a loss for
// a side whose own score stayed at or below -score for its last movecount moves.
class ScoreWatch {
public:
    explicit ScoreWatch(const Adjudication& rules) : rules_(rules) {}

    // After `mover` played at ply `ply` (0-based, from the game's start) reporting `score`
    // (centipawns from its own point of view), or no score at all.
    std::optional<GameEnd> after_move(Side mover, std::size_t ply, std::optional<int> score) {
        if (!score) {
            quiet_plies_ = 0;
            losing_moves_[index_of(mover)] = 0;
            return std::nullopt;
        }
        if (rules_.resign) {
            int& losing = losing_moves_[index_of(mover)];
            losing = *score <= -rules_.resign->score_cp ? losing + 1 : 0;
            if (losing >= rules_.resign->move_count) return GameEnd{Outcome::win(opponent(mover), "adjudication"),
                                                                    Termination::adjudication, {}};
        }
        if (rules_.draw) {
            quiet_plies_ = std::abs(*score) <= rules_.draw->score_cp ? quiet_plies_ + 1 : 0;
            const std::size_t full_moves = ply / 2 + 1;
            if (quiet_plies_ >= 2 * rules_.draw->move_count &&
                full_moves >= static_cast<std::size_t>(rules_.draw->move_number))
                return GameEnd::adjudicated_draw();
        }
        return std::nullopt;
    }

private:
    const Adjudication& rules_;
    int quiet_plies_ = 0;
    int losing_moves_[2] = {0, 0};
};

template <GameAdapter A>
class GameRunner {
public:
    using G = typename A::Game;

    // players[0] plays White (the side that moves first in the game's start position).
    // `dice_seed` seeds the arbiter's own dice for games with chance nodes (the engines never
    // roll): the match gives both games of an encounter the same seed, so both colour
    // assignments see the same rolls.
    GameRunner(const typename G::Variant& variant, const Opening<G>& opening, const Adjudication& adjudication,
               std::array<EnginePlayer*, 2> players, std::uint64_t dice_seed = 0)
        : variant_(variant),
          record_(opening.start),
          adjudication_(adjudication),
          score_watch_(adjudication_),
          players_(players),
          dice_(dice_seed) {
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
        played.interrupted = interrupted_;
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
        if (engine.dialect() == protocol::Dialect::pbrain && pbrain_board_command<A>(record_).empty()) {
            fatal_error_ = fmt::format("engine {}: proto=pbrain is only for gomoku", engine.name());
            return std::nullopt;
        }
        if (auto end = loss_for_status(side, engine.ensure_running()); end || fatal_error_) return end;
        auto options = A::rule_options(variant_, engine);
        if (!options) {
            fatal_error_ = options.error();
            return std::nullopt;
        }
        return loss_for_status(side, engine.start_game(*options, A::new_game_command(engine.dialect(), variant_)));
    }

    bool interrupt_requested() const { return adjudication_.interrupt && adjudication_.interrupt->load(); }

    std::optional<GameEnd> next_move() {
        if (const Outcome outcome = record_.outcome(); outcome.is_over()) return GameEnd::by_rules(outcome);
        // Dice rolls are not moves: -maxmoves counts the players' decisions only.
        if (adjudication_.max_moves > 0 &&
            record_.moves().size() - rolls_played_ >= 2 * static_cast<std::size_t>(adjudication_.max_moves))
            return GameEnd::max_moves_draw();
        if (interrupt_requested()) {
            interrupted_ = true;
            return GameEnd{};
        }
        if constexpr (StochasticGame<G>) {
            if (G::is_chance_node(record_.current())) {
                roll_dice();
                return std::nullopt;
            }
        }
        const Side side = G::side_to_move(record_.current());
        EnginePlayer& engine = player(side);
        const EngineConfig& config = engine.config();
        const std::int64_t allowance = config.time_margin_ms + latency_slack_ms;
        auto& clock = clocks_[index_of(side)];
        const auto budget =
            config.move_time_ms ? std::chrono::milliseconds(*config.move_time_ms + allowance)
            : clock ? std::chrono::milliseconds(std::max<std::int64_t>(0, clock->remaining_ms() + allowance))
                    : stall_timeout;

        const bool pbrain = engine.dialect() == protocol::Dialect::pbrain;
        const EngineReply reply =
            engine.think(pbrain ? pbrain_board_command<A>(record_) : position_command<A>(engine.dialect(), record_),
                         pbrain ? pbrain_clock_command(config, side, clocks_)
                                : go_command(engine.dialect(), config, side, clocks_),
                         budget);
        if (reply.kind == EngineReply::Kind::interrupted) {
            engine.abandon_search();
            interrupted_ = true;
            return GameEnd{};
        }
        if (reply.kind == EngineReply::Kind::stall) {
            warn(engine.last_error());
            return GameEnd::loss_of(side, Termination::stall);
        }
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
        const std::size_t ply = record_.moves().size();
        record_.play(*move);
        comments_.push_back(move_comment(reply, config.has_clock()));
        if (record_.outcome().is_over()) return std::nullopt;  // the rules decide first
        return score_watch_.after_move(side, ply,
                                       reply.info ? std::optional<int>(reply.info->score_cp) : std::nullopt);
    }

    // The arbiter rolls: an outcome drawn by its probability, recorded like a move.
    void roll_dice() {
        if constexpr (StochasticGame<G>) {
            ChanceList<G> rolls;
            G::chance_outcomes(record_.current(), rolls);
            double draw = dice_.unit();
            std::size_t chosen = rolls.size() - 1;
            for (std::size_t i = 0; i < rolls.size(); ++i) {
                draw -= rolls[i].probability;
                if (draw < 0) {
                    chosen = i;
                    break;
                }
            }
            record_.play(rolls[chosen].roll);
            comments_.emplace_back("roll");
            ++rolls_played_;
        }
    }

    static void warn(const std::string& message) {
        if (!message.empty()) std::fputs(fmt::format("arbiter: {}\n", message).c_str(), stderr);
    }

    typename G::Variant variant_;
    GameRecord<G> record_;
    std::vector<std::string> comments_;
    std::size_t rolls_played_ = 0;  // rolls among record_.moves() (the opening's are counted as moves)
    const Adjudication& adjudication_;
    ScoreWatch score_watch_;
    std::array<EnginePlayer*, 2> players_;
    Clocks clocks_;
    std::optional<std::string> fatal_error_;
    bool interrupted_ = false;
    Random dice_;
};

}  // namespace bge::arbiter
