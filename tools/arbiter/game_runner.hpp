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

// pbrain (Gomoku): the position's stones and mover, from the adapter; nullopt for other games.
template <GameAdapter A>
std::optional<PbrainPosition> pbrain_position(const GameRecord<typename A::Game>& record) {
    if constexpr (requires { A::pbrain_position(record); })
        return A::pbrain_position(record);
    else
        return std::nullopt;
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

// One search of the record's position by `engine` for `side` under `limits` (st=, nodes=, depth=)
// and `clocks`: a `go` command for TEI and UGI, the clock's INFO lines for pbrain.
template <GameAdapter A>
EngineReply think_about(EnginePlayer& engine, const GameRecord<typename A::Game>& record, const EngineConfig& limits,
                        Side side, const Clocks& clocks, std::chrono::milliseconds budget,
                        const SearchLineCallback& on_line = {}) {
    if (engine.dialect() == protocol::Dialect::pbrain)
        if (auto position = pbrain_position<A>(record))
            return engine.think_pbrain(*position, pbrain_clock_command(limits, side, clocks), budget, on_line);
    return engine.think(position_command<A>(engine.dialect(), record), go_command(engine.dialect(), limits, side, clocks),
                        budget, on_line);
}

// "+0.31/7 0.42s" as racetrack writes it (a mate score as cutechess does: "+M3/7", "-M2/6"); the
// time only when the engine plays on a clock, so fixed-node games give byte-identical records.
inline std::string move_comment(const EngineReply& reply, bool with_time) {
    if (!reply.info) return {};
    std::string comment = score_text(*reply.info);
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

// Sees a game as the referee plays it (the GUI's watch page). Called on the game's own thread.
template <Game G>
class GameObserver {
public:
    virtual ~GameObserver() = default;
    // Once before the first move, then after every move and roll.
    virtual void position_changed(const GameRecord<G>& record, const Clocks& clocks) = 0;
    // Every line an engine prints while it searches (info lines).
    virtual void search_line(Side side, std::string_view line) = 0;
};

// The referee of one game, turn by turn: it holds the record, the clocks and the dice and judges
// every move with the core rules. GameRunner drives it with two engines; the GUI drives it with
// a person at either seat, whose moves come from the page (docs/gui.md).
template <GameAdapter A>
class Referee {
public:
    using G = typename A::Game;

    // `time_controls[i]`, when set, gives side i a clock. `dice_seed` seeds the dice for games
    // with chance nodes (the engines never roll).
    Referee(const typename G::Variant& variant, const Opening<G>& opening, const Adjudication& adjudication,
            const std::array<std::optional<TimeControl>, 2>& time_controls, std::uint64_t dice_seed = 0)
        : variant_(variant), record_(opening.start), adjudication_(adjudication), score_watch_(adjudication_), dice_(dice_seed) {
        for (const auto& move : opening.moves) {
            record_.play(move);
            comments_.emplace_back("book");
        }
        for (int i = 0; i < 2; ++i)
            if (time_controls[i] && !time_controls[i]->infinite) clocks_[i].emplace(*time_controls[i]);
    }

    const typename G::Variant& variant() const { return variant_; }
    const GameRecord<G>& record() const { return record_; }
    const std::vector<std::string>& comments() const { return comments_; }
    const Clocks& clocks() const { return clocks_; }
    // The game could not be played at all (an engine that cannot start or cannot play the rules).
    const std::optional<std::string>& fatal_error() const { return fatal_error_; }

    // The end by the rules, or a -maxmoves draw; checked before every turn.
    std::optional<GameEnd> end_before_turn() const {
        if (const Outcome outcome = record_.outcome(); outcome.is_over()) return GameEnd::by_rules(outcome);
        // Dice rolls are not moves: -maxmoves counts the players' decisions only.
        if (adjudication_.max_moves > 0 &&
            record_.moves().size() - rolls_played_ >= 2 * static_cast<std::size_t>(adjudication_.max_moves))
            return GameEnd::max_moves_draw();
        return std::nullopt;
    }

    // At a chance node the referee rolls: an outcome drawn by its probability, recorded like a
    // move. Returns whether it rolled.
    bool roll_if_due() {
        if constexpr (StochasticGame<G>) {
            if (!G::is_chance_node(record_.current())) return false;
            record_.play(*drawn_chance_outcome<G>(record_.current(), dice_.unit()));
            comments_.emplace_back("roll");
            ++rolls_played_;
            return true;
        }
        return false;
    }

    // Gets `engine` ready to play `side` in this game: the process, the rule options, the new game.
    std::optional<GameEnd> prepare(Side side, EnginePlayer& engine) {
        if (engine.dialect() == protocol::Dialect::pbrain && !pbrain_position<A>(record_)) {
            fatal_error_ = fmt::format("engine {}: proto=pbrain is only for gomoku", engine.name());
            return std::nullopt;
        }
        if (auto end = loss_for_status(side, engine, engine.ensure_running()); end || fatal_error_) return end;
        auto options = A::rule_options(variant_, engine);
        if (!options) {
            fatal_error_ = options.error();
            return std::nullopt;
        }
        return loss_for_status(side, engine, engine.start_game(*options, A::new_game_command(engine.dialect(), variant_)));
    }

    struct Turn {
        std::optional<GameEnd> end;
        bool interrupted = false;  // the engine's interrupt flag stopped the search: nothing was played
    };

    // Asks `engine`, playing the side to move, for its move under its clock, checks it with the
    // rules and plays it.
    Turn engine_turn(EnginePlayer& engine, const SearchLineCallback& on_line = {}) {
        const Side side = G::side_to_move(record_.current());
        const EngineConfig& config = engine.config();
        const std::int64_t allowance = config.time_margin_ms + latency_slack_ms;
        auto& clock = clocks_[index_of(side)];
        const auto budget =
            config.move_time_ms ? std::chrono::milliseconds(*config.move_time_ms + allowance)
            : clock ? std::chrono::milliseconds(std::max<std::int64_t>(0, clock->remaining_ms() + allowance))
                    : stall_timeout;

        const EngineReply reply = think_about<A>(engine, record_, config, side, clocks_, budget, on_line);
        if (reply.kind == EngineReply::Kind::interrupted) {
            engine.abandon_search();
            return {std::nullopt, true};
        }
        if (reply.kind == EngineReply::Kind::stall) {
            warn(engine.last_error());
            return {GameEnd::loss_of(side, Termination::stall)};
        }
        if (reply.kind == EngineReply::Kind::closed) {
            warn(engine.last_error());
            return {GameEnd::loss_of(side, Termination::disconnect)};
        }
        if (reply.kind == EngineReply::Kind::timeout) {
            engine.abandon_search();
            if (engine.needs_restart()) warn(engine.last_error());
            return {GameEnd::loss_of(side, config.has_clock() ? Termination::time_forfeit : Termination::stall)};
        }
        const bool overdrawn = config.move_time_ms ? reply.elapsed_ms > *config.move_time_ms + allowance
                               : clock             ? !clock->charge_move(reply.elapsed_ms, allowance)
                                                   : false;
        if (overdrawn) return {GameEnd::loss_of(side, Termination::time_forfeit)};
        auto move = G::parse_move(record_.current(), reply.move);
        if (!move) return {GameEnd::loss_of(side, Termination::illegal_move, reply.move.empty() ? "(none)" : reply.move)};
        const std::size_t ply = record_.moves().size();
        record_.play(*move);
        comments_.push_back(move_comment(reply, config.has_clock()));
        last_info_ = reply.info;
        if (record_.outcome().is_over()) return {};  // the rules decide first
        return {score_watch_.after_move(side, ply, reply.info ? std::optional<int>(reply.info->score_cp) : std::nullopt)};
    }

    // A move decided elsewhere (a person at the GUI), legal by the rules, that took `elapsed_ms`
    // of the mover's clock: charged as an engine's move is, with the latency slack as allowance.
    std::optional<GameEnd> play_move(const typename G::Move& move, std::int64_t elapsed_ms) {
        const Side side = G::side_to_move(record_.current());
        if (auto& clock = clocks_[index_of(side)]; clock && !clock->charge_move(elapsed_ms, latency_slack_ms))
            return GameEnd::loss_of(side, Termination::time_forfeit);
        record_.play(move);
        comments_.emplace_back();
        last_info_.reset();
        return std::nullopt;
    }

    // Takes back the last `plies` moves and rolls (the GUI's undo). The clocks keep their time.
    void take_back(std::size_t plies) {
        plies = std::min(plies, record_.moves().size());
        const std::vector<typename G::Move> moves(record_.moves().begin(), record_.moves().end() - static_cast<std::ptrdiff_t>(plies));
        record_ = GameRecord<G>(record_.start());
        comments_.resize(moves.size());
        rolls_played_ = 0;
        for (const auto& move : moves) {
            if (is_chance_node<G>(record_.current())) ++rolls_played_;
            record_.play(move);
        }
        last_info_.reset();
    }

    // The score and depth the last engine move reported, if any.
    const std::optional<SearchInfo>& last_info() const { return last_info_; }

private:
    std::optional<GameEnd> loss_for_status(Side side, EnginePlayer& engine, EngineStatus status) {
        if (status == EngineStatus::ok) return std::nullopt;
        if (status == EngineStatus::fatal) {
            fatal_error_ = engine.last_error();
            return std::nullopt;
        }
        warn(engine.last_error());
        return GameEnd::loss_of(side, status == EngineStatus::stall ? Termination::stall : Termination::disconnect);
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
    Clocks clocks_;
    std::optional<std::string> fatal_error_;
    std::optional<SearchInfo> last_info_;
    Random dice_;
};

// One engine-against-engine game, played to its end by the referee above.
template <GameAdapter A>
class GameRunner {
public:
    using G = typename A::Game;

    // players[0] plays White (the side that moves first in the game's start position).
    // `dice_seed` seeds the arbiter's own dice for games with chance nodes (the engines never
    // roll): the match gives both games of an encounter the same seed, so both colour
    // assignments see the same rolls. `observer`, when set, sees every position and info line.
    GameRunner(const typename G::Variant& variant, const Opening<G>& opening, const Adjudication& adjudication,
               std::array<EnginePlayer*, 2> players, std::uint64_t dice_seed = 0, GameObserver<G>* observer = nullptr)
        : referee_(variant, opening, adjudication, {time_control_of(*players[0]), time_control_of(*players[1])}, dice_seed),
          adjudication_(adjudication),
          players_(players),
          observer_(observer) {}

    PlayedGame<G> run() {
        std::optional<GameEnd> end;
        for (Side side : {Side::first, Side::second})
            if (!end && !referee_.fatal_error()) end = referee_.prepare(side, player(side));
        if (observer_) observer_->position_changed(referee_.record(), referee_.clocks());
        while (!end && !referee_.fatal_error()) end = next_move();
        PlayedGame<G> played;
        played.start = referee_.record().start();
        played.moves = referee_.record().moves();
        played.comments = referee_.comments();
        played.final_position = referee_.record().current();
        if (end) played.end = *end;
        played.engine_failed = players_[0]->needs_restart() || players_[1]->needs_restart();
        played.interrupted = interrupted_;
        played.fatal_error = referee_.fatal_error();
        return played;
    }

private:
    static std::optional<TimeControl> time_control_of(const EnginePlayer& player) { return player.config().time_control; }

    EnginePlayer& player(Side side) { return *players_[index_of(side)]; }

    bool interrupt_requested() const { return adjudication_.interrupt && adjudication_.interrupt->load(); }

    std::optional<GameEnd> next_move() {
        if (auto end = referee_.end_before_turn()) return end;
        if (interrupt_requested()) {
            interrupted_ = true;
            return GameEnd{};
        }
        if (referee_.roll_if_due()) {
            if (observer_) observer_->position_changed(referee_.record(), referee_.clocks());
            return std::nullopt;
        }
        const Side side = G::side_to_move(referee_.record().current());
        SearchLineCallback on_line;
        if (observer_) on_line = [this, side](std::string_view line) { observer_->search_line(side, line); };
        auto turn = referee_.engine_turn(player(side), on_line);
        if (turn.interrupted) {
            interrupted_ = true;
            return GameEnd{};
        }
        if (observer_) observer_->position_changed(referee_.record(), referee_.clocks());
        return turn.end;
    }

    Referee<A> referee_;
    const Adjudication& adjudication_;
    std::array<EnginePlayer*, 2> players_;
    GameObserver<G>* observer_;
    bool interrupted_ = false;
};

}  // namespace bge::arbiter
