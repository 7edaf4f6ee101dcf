#pragma once
// The bridge: one state machine on one io_context that keeps a connection to the game server,
// logs in, seeks or accepts games, plays them with the engine worker, reconnects and resumes
// after a dropped connection, and stops cleanly on SIGINT. docs/playtak.md describes what it
// sends on every event.

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/tak/rules.hpp"
#include "tools/playtak/engine_worker.hpp"
#include "tools/playtak/logger.hpp"
#include "tools/playtak/server_connection.hpp"
#include "tools/playtak/server_protocol.hpp"

namespace bge::playtak {

using Milliseconds = std::chrono::milliseconds;

struct BridgeConfig {
    std::string host = "playtak.com";
    std::string port = "10000";
    std::string client_name = "bge-playtak";
    std::string user;      // empty: Login Guest
    std::string password;  // never logged
    std::string guest_token;  // for Login Guest <token>: one per run, so a reconnection keeps the guest
    bool seek = true;      // false: accept the seeks of accept_from instead
    SeekSettings seek_settings;
    std::vector<std::string> accept_from;
    int games = 0;  // stop after this many games; 0: never
    int lag_margin_ms = 300;
    int movetime_ms = 0;  // 0: think on the clock (go wtime/btime/winc/binc)
    bool accept_draws = false;
    bool accept_undo = false;
    std::string ptn_dir;  // empty: no records
    bool resign_on_interrupt = false;
    Milliseconds ping_interval{30'000};  // the server drops a client that sends no PING for 60 s
    Milliseconds ping_timeout{10'000};   // a PING unanswered for this long: the connection is dead
    Milliseconds idle_timeout{90'000};   // nothing received for this long: the connection is dead
    Milliseconds connect_timeout{20'000};
    Milliseconds login_timeout{30'000};
    Milliseconds reconnect_min{1'000};
    Milliseconds reconnect_max{60'000};
    Milliseconds resume_timeout{30'000};  // after logging in again, for the server to resend our game
    Milliseconds seek_retry{10'000};      // our seek not announced back by then: seek again
    Milliseconds settle{300};             // after Game Start, for a replay of the moves to arrive
    int max_resyncs_per_game = 3;
};

// Exit codes of the program.
enum ExitCode { exit_ok = 0, exit_usage = 1, exit_authentication = 2, exit_engine = 3 };

// A timer whose action never runs once it was cancelled or re-armed.
class Timer {
public:
    explicit Timer(boost::asio::io_context& io) : timer_(io) {}
    void start(Milliseconds delay, std::function<void()> action);
    void cancel();

private:
    boost::asio::steady_timer timer_;
    std::uint64_t generation_ = 0;
};

class Bridge {
public:
    Bridge(boost::asio::io_context& io, BridgeConfig config, EngineConfig engine, Logger& log);
    ~Bridge();

    // Starts the engine, then connects. The io_context runs until the bridge is done.
    void start();
    // SIGINT/SIGTERM: the first stops seeking and finishes (or resigns) the game; the second quits.
    void interrupt();
    int exit_code() const { return exit_code_; }

private:
    struct Game {
        GameStart start;
        bool playable = true;  // false: refused (resigned) at the start
        tak::State state{};
        std::vector<tak::Move> moves;
        std::int64_t white_ms = 0, black_ms = 0;
        bool settling = true;          // after Game Start, moves may be a replay: no thinking yet
        bool awaiting_resume = false;  // disconnected: waiting for the server to resend it
        std::vector<tak::Move> before_resume;
        bool resumed = false;
        std::uint64_t thinking = 0;  // the outstanding move request, 0 when none
        int resyncs = 0;
        int illegal_engine_moves = 0;
        bool restart_engine = false;  // before the next move request (after an illegal move)
        bool resigned = false;
        std::string started_at;
        bool our_turn() const;
    };
    // The commands the server answers, each exactly once: `handshake` (Client, Protocol),
    // `ping`, `move` and `request` (draw and undo commands) with OK, or NOK (a refused move: NOK,
    // then Error:<reason>); `login` with Welcome, Authentication failure or NOK; `accept` with
    // Game Start or NOK. Seek, List, Resign and quit get no answer and are not queued.
    enum class Pending { handshake, login, ping, accept, move, request };
    struct PendingReply {
        Pending kind;
        std::int64_t game;
        std::chrono::steady_clock::time_point sent;
    };

    // Connection.
    void connect();
    void on_connected();
    void on_closed(const std::string& why);
    void drop_connection(const std::string& why);
    void send(const std::string& line, std::optional<Pending> reply = std::nullopt, std::int64_t game = 0);
    void send_login();
    void arm_ping();
    void on_line(const std::string& line);
    void on_logged_in(const std::string& name);
    void on_reply(bool ok, const std::string& text);
    void on_refused(const PendingReply& what, const std::string& text);
    void flush_refusal(const std::string& text);

    // Seeking and accepting.
    void maybe_seek();
    void consider_accept(const SeekNew& seek);

    // Games.
    void on_game_start(const GameStart& start);
    void on_game_move(const GameMove& move);
    void on_game_time(const GameTime& time);
    void on_game_request(const GameRequest& request);
    void end_settling();
    void maybe_think();
    void on_engine_reply(const MoveReply& reply);
    void cancel_thinking();
    void resync(const std::string& why);
    void resign(const std::string& why);
    void finish_game(const std::string& result, const std::string& termination);
    // Writes the record and the summary line of the current game and forgets it.
    void record_game(const std::string& result, const std::string& termination);
    // The result as far as we know it: the rules' verdict on our position, a loss if we resigned,
    // else "*".
    std::string best_known_result() const;
    bool is_ours(const GameStart& start) const;
    bool is_current(std::int64_t game) const { return game_ && game_->start.game == game; }
    void apply(tak::Move move);

    // Stopping.
    void begin_exit();

    boost::asio::io_context& io_;
    BridgeConfig config_;
    Logger& log_;
    EngineWorker worker_;
    std::optional<EngineCapabilities> engine_;

    std::shared_ptr<ServerConnection> connection_;
    bool logged_in_ = false;
    bool login_sent_ = false;
    std::string our_name_;
    Milliseconds reconnect_delay_;
    std::chrono::steady_clock::time_point logged_in_at_{};
    std::deque<PendingReply> pending_;
    std::optional<PendingReply> refused_;  // NOK received; its Error:<reason> may follow
    bool seek_announced_ = false;
    bool ping_outstanding_ = false;

    bool seek_active_ = false;
    std::int64_t accept_pending_ = -1;

    std::optional<Game> game_;
    std::uint64_t next_request_ = 0;
    int games_finished_ = 0;

    int interrupts_ = 0;
    bool stopping_ = false;
    bool exiting_ = false;
    int exit_code_ = exit_ok;

    Timer ping_timer_, ping_reply_timer_, idle_timer_, reconnect_timer_, login_timer_, seek_timer_, resume_timer_,
        settle_timer_, exit_timer_, refusal_timer_;
};

}  // namespace bge::playtak
