#include "tools/playtak/bridge.hpp"

#include <algorithm>
#include <cstdio>
#include <variant>

#include <fmt/format.h>

#include "core/tak/notation.hpp"
#include "protocol/text.hpp"
#include "tools/playtak/game_record.hpp"
#include "tools/playtak/move_conversion.hpp"

namespace bge::playtak {

namespace asio = boost::asio;
using SteadyClock = std::chrono::steady_clock;

namespace {

std::string seconds_text(Milliseconds delay) { return fmt::format("{:.1f} s", delay.count() / 1000.0); }

template <class... Handlers>
struct Overloaded : Handlers... {
    using Handlers::operator()...;
};
template <class... Handlers>
Overloaded(Handlers...) -> Overloaded<Handlers...>;

}  // namespace

// ---- Timer ------------------------------------------------------------------------------------

void Timer::start(Milliseconds delay, std::function<void()> action) {
    const std::uint64_t generation = ++generation_;
    timer_.expires_after(delay);
    timer_.async_wait([this, generation, action = std::move(action)](const boost::system::error_code& error) {
        if (error || generation != generation_) return;
        action();
    });
}

void Timer::cancel() {
    ++generation_;
    timer_.cancel();
}

// ---- Bridge -----------------------------------------------------------------------------------

bool Bridge::Game::our_turn() const {
    return state.side_to_move() == (start.we_are_white ? Side::first : Side::second);
}

Bridge::Bridge(asio::io_context& io, BridgeConfig config, EngineConfig engine, Logger& log)
    : io_(io),
      config_(std::move(config)),
      log_(log),
      worker_(io, std::move(engine), log),
      reconnect_delay_(config_.reconnect_min),
      ping_timer_(io),
      ping_reply_timer_(io),
      idle_timer_(io),
      reconnect_timer_(io),
      login_timer_(io),
      seek_timer_(io),
      resume_timer_(io),
      settle_timer_(io),
      exit_timer_(io),
      refusal_timer_(io) {}

Bridge::~Bridge() {
    if (connection_) connection_->close();
}

void Bridge::start() {
    worker_.start([this](const Expected<EngineCapabilities>& engine) {
        if (!engine) {
            log_.info(fmt::format("cannot start the engine: {}", engine.error()));
            exit_code_ = exit_engine;
            io_.stop();
            return;
        }
        engine_ = *engine;
        const std::string komi = engine_->half_komi
                                     ? fmt::format("HalfKomi {}..{}", engine_->half_komi->min, engine_->half_komi->max)
                                     : std::string("no komi");
        log_.info(fmt::format("engine '{}' is ready: sizes {}..{}, {}", engine_->name, engine_->min_size,
                              engine_->max_size, komi));
        if (config_.seek) {
            const SeekSettings& seek = config_.seek_settings;
            if (auto why = unplayable_reason(*engine_, seek.size, seek.half_komi, seek.pieces, seek.capstones)) {
                log_.info(fmt::format("the engine cannot play the games this seek asks for: {}", *why));
                exit_code_ = exit_usage;
                io_.stop();
                return;
            }
        }
        if (interrupts_ > 0) return begin_exit();
        connect();
    });
}

// ---- connection -------------------------------------------------------------------------------

void Bridge::connect() {
    if (exiting_) return;
    log_.info(fmt::format("connecting to {}:{}", config_.host, config_.port));
    auto connection = std::make_shared<ServerConnection>(io_, log_);
    connection_ = connection;
    std::weak_ptr<ServerConnection> weak = connection;
    auto current = [this, weak] { return !weak.expired() && weak.lock() == connection_; };
    connection->open(config_.host, config_.port, config_.connect_timeout,
                     {[this, current] {
                          if (current()) on_connected();
                      },
                      [this, current](const std::string& line) {
                          if (current()) on_line(line);
                      },
                      [this, current](const std::string& why) {
                          if (current()) on_closed(why);
                      }});
}

void Bridge::on_connected() {
    idle_timer_.start(config_.idle_timeout, [this] {
        drop_connection(fmt::format("nothing from the server for {}", seconds_text(config_.idle_timeout)));
    });
    // The server opens with "Login or Register"; log in anyway if it does not.
    login_timer_.start(Milliseconds(3'000), [this] {
        if (!login_sent_) send_login();
    });
}

void Bridge::on_closed(const std::string& why) {
    const bool was_connected = connection_ && connection_->was_connected();
    log_.info(fmt::format("{}: {}", was_connected ? "connection lost" : "cannot reach the server", why));
    const bool was_stable =
        logged_in_ && SteadyClock::now() - logged_in_at_ >= std::max(config_.reconnect_max, Milliseconds(60'000));
    connection_.reset();
    logged_in_ = false;
    login_sent_ = false;
    pending_.clear();
    refused_.reset();
    ping_outstanding_ = false;
    seek_active_ = false;  // the server drops the seeks of a client that leaves
    seek_announced_ = false;
    accept_pending_ = -1;
    for (Timer* timer : {&ping_timer_, &ping_reply_timer_, &idle_timer_, &login_timer_, &seek_timer_, &resume_timer_,
                         &settle_timer_, &refusal_timer_})
        timer->cancel();
    if (exiting_) return;
    if (game_) {
        cancel_thinking();
        game_->awaiting_resume = true;
        game_->settling = false;
    }
    if (stopping_ && !game_) return begin_exit();
    if (was_stable) reconnect_delay_ = config_.reconnect_min;
    log_.info(fmt::format("reconnecting in {}", seconds_text(reconnect_delay_)));
    reconnect_timer_.start(reconnect_delay_, [this] { connect(); });
    reconnect_delay_ = std::min(reconnect_delay_ * 2, config_.reconnect_max);
}

void Bridge::drop_connection(const std::string& why) {
    if (auto connection = connection_) {
        connection->close();
        on_closed(why);
    }
}

void Bridge::send(const std::string& line, std::optional<Pending> reply, std::int64_t game) {
    if (!connection_ || !connection_->is_open()) {
        log_.info(fmt::format("not connected: cannot send '{}'", loggable(line)));
        return;
    }
    connection_->send(line);
    if (reply) pending_.push_back({*reply, game, SteadyClock::now()});
}

void Bridge::send_login() {
    login_sent_ = true;
    send(client_line(config_.client_name), Pending::handshake);
    send(protocol_line(), Pending::handshake);
    send(config_.user.empty() ? guest_login_line(config_.guest_token) : login_line(config_.user, config_.password),
         Pending::login);
    login_timer_.start(config_.login_timeout, [this] {
        if (!logged_in_) drop_connection("no answer to Login");
    });
}

void Bridge::arm_ping() {
    // The server drops a client that sends no PING for 60 s, whatever else it sends, and never
    // PINGs us: an unanswered PING is how a half-dead connection shows.
    ping_timer_.start(config_.ping_interval, [this] {
        if (logged_in_ && !ping_outstanding_) {
            ping_outstanding_ = true;
            send("PING", Pending::ping);
            ping_reply_timer_.start(config_.ping_timeout, [this] {
                drop_connection(fmt::format("no answer to PING within {}", seconds_text(config_.ping_timeout)));
            });
        }
        arm_ping();
    });
}

void Bridge::on_logged_in(const std::string& name) {
    logged_in_ = true;
    logged_in_at_ = SteadyClock::now();
    our_name_ = name;
    login_timer_.cancel();
    pending_.clear();
    log_.info(fmt::format("logged in as {}", name));
    arm_ping();
    if (!config_.seek) send("List");
    if (game_ && game_->awaiting_resume) {
        log_.info(fmt::format("waiting up to {} for the server to resend game {}", seconds_text(config_.resume_timeout),
                              game_->start.game));
        resume_timer_.start(config_.resume_timeout, [this] {
            if (!game_ || !game_->awaiting_resume) return;
            log_.info(fmt::format("the server did not resend game {}: giving it up", game_->start.game));
            const std::string result = best_known_result();
            const bool over = tak::outcome(game_->state).is_over();
            finish_game(result, over            ? "ended while we were disconnected; result from the final position"
                                : result != "*" ? "connection lost after we resigned"
                                                : "connection lost; not resumed");
        });
        return;
    }
    // A guest's game is resent before its Welcome: think now if it is our turn.
    if (game_) return maybe_think();
    if (stopping_) return begin_exit();
    maybe_seek();
}

void Bridge::on_line(const std::string& line) {
    idle_timer_.start(config_.idle_timeout, [this] {
        drop_connection(fmt::format("nothing from the server for {}", seconds_text(config_.idle_timeout)));
    });
    const ServerMessage message = parse_server_line(line);
    if (refused_) {
        // A refused move is answered "NOK", then "Error:<reason>": one answer, with its reason.
        const auto* error = std::get_if<ServerError>(&message);
        if (error) log_.info(fmt::format("< {}", protocol::excerpt(line, 300)));
        const auto connection = connection_;
        flush_refusal(error ? error->text : "NOK");
        if (error || connection != connection_ || exiting_) return;
    }
    const bool quiet = std::holds_alternative<Chatter>(message) || std::holds_alternative<SeekNew>(message) ||
                       std::holds_alternative<SeekRemove>(message) || std::holds_alternative<Ok>(message);
    if (quiet)
        log_.debug(fmt::format("< {}", protocol::excerpt(line, 300)));
    else
        log_.info(fmt::format("< {}", protocol::excerpt(line, 300)));

    std::visit(
        Overloaded{
            [&](const Greeting&) {},
            [&](const LoginPrompt&) {
                if (!login_sent_) send_login();
            },
            [&](const LoggedIn& logged) {
                if (!logged_in_) on_logged_in(logged.name);
            },
            [&](const AuthenticationFailure&) {
                log_.info(
                    fmt::format("authentication failed for user '{}': check --user and the password "
                                "(not retrying)",
                                config_.user.empty() ? "Guest" : config_.user));
                exit_code_ = exit_authentication;
                stopping_ = true;
                begin_exit();
            },
            [&](const AlreadyLoggedIn&) { drop_connection("the server still holds an older session of this account"); },
            [&](const Ok&) { on_reply(true, line); },
            [&](const Nok&) { on_reply(false, line); },
            [&](const ServerError&) {},  // only ever after a NOK; an Error alone answers nothing
            [&](const SeekNew& seek) {
                if (config_.seek && protocol::equals_ignoring_case(seek.player, our_name_)) {
                    seek_announced_ = true;
                    seek_timer_.cancel();
                    const SeekSettings& sent = config_.seek_settings;
                    const SeekSettings& posted = seek.settings;
                    if (posted.size != sent.size || posted.time_s != sent.time_s ||
                        posted.increment_s != sent.increment_s || posted.half_komi != sent.half_komi ||
                        posted.pieces != sent.pieces || posted.capstones != sent.capstones)
                        log_.info(fmt::format("warning: the server posted our seek as {}x{}, {}+{} s, komi {}, {} "
                                              "stones, {} capstones",
                                              posted.size, posted.size, posted.time_s, posted.increment_s,
                                              posted.half_komi, posted.pieces, posted.capstones));
                    return;
                }
                consider_accept(seek);
            },
            [&](const SeekRemove&) {},
            [&](const GameStart& start) {
                // A successful Accept is answered by Game Start alone.
                std::erase_if(pending_, [](const PendingReply& reply) { return reply.kind == Pending::accept; });
                on_game_start(start);
            },
            [&](const GameMove& move) { on_game_move(move); },
            [&](const GameTime& time) { on_game_time(time); },
            [&](const GameOver& over) {
                if (!is_current(over.game)) return log_.info(fmt::format("ignored: game {} is not ours", over.game));
                finish_game(over.result, "");
            },
            [&](const GameAbandoned& abandoned) {
                if (!is_current(abandoned.game))
                    return log_.info(fmt::format("ignored: game {} is not ours", abandoned.game));
                finish_game(game_->start.we_are_white ? "1-0" : "0-1", "opponent abandoned");
            },
            [&](const GameRequest& request) { on_game_request(request); },
            [&](const Chatter&) {},
            [&](const Malformed& malformed) { log_.info(fmt::format("ignored: {}", malformed.why)); },
        },
        message);
}

void Bridge::on_reply(bool ok, const std::string& text) {
    const auto now = SteadyClock::now();
    while (!pending_.empty() && now - pending_.front().sent > std::chrono::seconds(60)) pending_.pop_front();
    if (pending_.empty()) {
        if (!ok) log_.info(fmt::format("server says '{}' with no command of ours waiting: ignored", text));
        return;
    }
    const PendingReply front = pending_.front();
    pending_.pop_front();
    if (front.kind == Pending::ping) {
        ping_outstanding_ = false;
        ping_reply_timer_.cancel();
    }
    if (ok) {
        if (front.kind == Pending::accept) {
            log_.info("the server said OK to Accept, which it answers with Game Start: ignored");
            accept_pending_ = -1;
        }
        return;
    }
    refused_ = front;
    refusal_timer_.start(Milliseconds(500), [this] { flush_refusal("NOK"); });
}

void Bridge::flush_refusal(const std::string& text) {
    if (!refused_) return;
    const PendingReply what = *refused_;
    refused_.reset();
    refusal_timer_.cancel();
    on_refused(what, text);
}

void Bridge::on_refused(const PendingReply& what, const std::string& text) {
    switch (what.kind) {
        case Pending::ping:
            log_.info(fmt::format("the server refused PING ('{}'): ignored", text));
            return;
        case Pending::handshake:
            log_.info(fmt::format("the server refused our Client or Protocol line ('{}'): ignored", text));
            return;
        case Pending::login:
            log_.info(fmt::format("the server could not read our Login line ('{}'): check --user and the password "
                                  "(not retrying)",
                                  text));
            exit_code_ = exit_authentication;
            stopping_ = true;
            return begin_exit();
        case Pending::accept:
            log_.info(fmt::format("the server refused to start game from seek {} ('{}')", accept_pending_, text));
            accept_pending_ = -1;
            return;
        case Pending::move:
            if (!is_current(what.game) || !game_->playable) return;
            resync(fmt::format("the server refused our move ('{}')", text));
            return;
        case Pending::request:
            log_.info(fmt::format("the server refused a draw or undo command ('{}'): ignored", text));
            return;
    }
}

// ---- seeking and accepting --------------------------------------------------------------------

void Bridge::maybe_seek() {
    if (!config_.seek || !logged_in_ || !engine_ || game_ || stopping_ || exiting_ || seek_active_) return;
    seek_timer_.cancel();
    const SeekSettings& seek = config_.seek_settings;
    log_.info(fmt::format("seeking a {}x{} game, {}+{} s, colour {}, komi {}{}", seek.size, seek.size, seek.time_s,
                          seek.increment_s, seek.color, seek.half_komi,
                          seek.opponent.empty() ? std::string() : " against " + seek.opponent));
    send(seek_line(seek));  // no answer: the server announces it with Seek new, to us too
    seek_active_ = true;
    seek_announced_ = false;
    seek_timer_.start(config_.seek_retry, [this] {
        if (!seek_active_ || seek_announced_ || game_) return;
        log_.info(fmt::format("the server did not announce our seek within {}: seeking again",
                              seconds_text(config_.seek_retry)));
        seek_active_ = false;
        maybe_seek();
    });
}

void Bridge::consider_accept(const SeekNew& seek) {
    if (config_.seek || !logged_in_ || !engine_ || game_ || stopping_ || exiting_ || accept_pending_ >= 0) return;
    const auto listed = [&](const std::string& name) {
        return std::any_of(config_.accept_from.begin(), config_.accept_from.end(),
                           [&](const std::string& wanted) { return protocol::equals_ignoring_case(wanted, name); });
    };
    if (!listed(seek.player) || protocol::equals_ignoring_case(seek.player, our_name_)) return;
    const SeekSettings& s = seek.settings;
    if (!s.opponent.empty() && !protocol::equals_ignoring_case(s.opponent, our_name_))
        return log_.debug(fmt::format("seek {} from {} is for {}", seek.number, seek.player, s.opponent));
    if (auto why = unplayable_reason(*engine_, s.size, s.half_komi, s.pieces, s.capstones))
        return log_.info(fmt::format("not accepting seek {} from {}: {}", seek.number, seek.player, *why));
    log_.info(fmt::format("accepting seek {} from {}: {}x{}, {}+{} s, komi {}", seek.number, seek.player, s.size,
                          s.size, s.time_s, s.increment_s, s.half_komi));
    accept_pending_ = seek.number;
    send(accept_line(seek.number), Pending::accept);
}

// ---- games ------------------------------------------------------------------------------------

void Bridge::apply(tak::Move move) {
    tak::play(game_->state, move);
    game_->moves.push_back(move);
}

bool Bridge::is_ours(const GameStart& start) const {
    if (is_current(start.game)) return true;
    if (our_name_.empty()) return false;
    return protocol::equals_ignoring_case(start.white, our_name_) ||
           protocol::equals_ignoring_case(start.black, our_name_);
}

void Bridge::on_game_start(const GameStart& start) {
    if (!is_ours(start))
        return log_.info(fmt::format("ignored: game {} is between {} and {}, not us ({})", start.game, start.white,
                                     start.black, our_name_.empty() ? "not logged in yet" : our_name_));
    seek_active_ = false;  // the server removes the seeks of both players when a game starts
    accept_pending_ = -1;
    seek_timer_.cancel();
    if (is_current(start.game)) {
        Game& game = *game_;
        cancel_thinking();
        if (game.before_resume.empty()) game.before_resume = game.moves;
        game.moves.clear();
        if (game.playable) game.state = tak::start_state(tak::Variant{start.size, start.half_komi, false});
        game.awaiting_resume = false;
        game.settling = true;
        game.resumed = true;
        resume_timer_.cancel();
        reconnect_delay_ = config_.reconnect_min;  // the game is back: the next drop starts the back-off afresh
        log_.info(fmt::format("game {}: the server resent it; rebuilding the position from its moves", start.game));
        if (game.resigned) send(game_line(start.game, "Resign"));  // it may not have arrived
        settle_timer_.start(config_.settle, [this] { end_settling(); });
        return;
    }
    if (game_) {
        log_.info(
            fmt::format("game {} started while game {} was on: giving that one up", start.game, game_->start.game));
        finish_game(best_known_result(), "replaced by another game");
        if (exiting_) return;
    }
    Game game;
    game.start = start;
    game.started_at = timestamp_now();
    game.white_ms = game.black_ms = std::int64_t{start.time_s} * 1000;
    std::optional<std::string> refusal;
    if (!engine_)
        refusal = "the engine is not ready";
    else
        refusal = unplayable_reason(*engine_, start.size, start.half_komi, start.pieces, start.capstones);
    game.playable = !refusal;
    if (game.playable) game.state = tak::start_state(tak::Variant{start.size, start.half_komi, false});
    game_ = std::move(game);
    log_.info(fmt::format("game {} started: {} (white) vs {} (black), we are {}; {}x{}, komi {}, {}+{} s", start.game,
                          start.white, start.black, start.we_are_white ? "white" : "black", start.size, start.size,
                          start.half_komi, start.time_s, start.increment_s));
    if (refusal) return resign(fmt::format("the engine cannot play it: {}", *refusal));
    if (stopping_ && config_.resign_on_interrupt) return resign("interrupted (--on-interrupt resign)");
    settle_timer_.start(config_.settle, [this] { end_settling(); });
}

void Bridge::end_settling() {
    if (!game_ || !game_->settling) return;
    settle_timer_.cancel();
    Game& game = *game_;
    game.settling = false;
    if (game.resumed) {
        const std::vector<tak::Move>& ours = game.before_resume;
        const std::vector<tak::Move>& theirs = game.moves;
        std::size_t common = 0;
        while (common < ours.size() && common < theirs.size() && ours[common] == theirs[common]) ++common;
        if (common == ours.size() && common == theirs.size())
            log_.info(fmt::format("game {}: resumed at ply {}; the server's moves match ours", game.start.game,
                                  theirs.size()));
        else if (common == theirs.size())
            log_.info(fmt::format("game {}: resumed at ply {}; the server does not have our last {} move(s)",
                                  game.start.game, theirs.size(), ours.size() - common));
        else if (common == ours.size())
            log_.info(fmt::format("game {}: resumed at ply {}; {} move(s) were played while we were away",
                                  game.start.game, theirs.size(), theirs.size() - common));
        else
            log_.info(
                fmt::format("game {}: resumed at ply {}; the server's moves differ from ours from ply {}: "
                            "following the server",
                            game.start.game, theirs.size(), common + 1));
        game.before_resume.clear();
        game.resumed = false;
    }
    maybe_think();
}

void Bridge::on_game_move(const GameMove& server_move) {
    if (!is_current(server_move.game)) return log_.info(fmt::format("ignored: game {} is not ours", server_move.game));
    Game& game = *game_;
    if (!game.playable || game.resigned) return;
    if (tak::outcome(game.state).is_over())
        return log_.info(fmt::format("game {}: ignored a move after the end of the game", game.start.game));
    auto move = parse_server_move(game.state, server_move.move);
    if (!move)
        return resync(fmt::format("cannot apply the server's move '{}' at ply {}: {}", server_move.move,
                                  game.moves.size() + 1, move.error()));
    // The server never sends us our own moves but in the replay after Game Start: following one
    // would leave us waiting for the opponent while the server waits for us.
    if (!game.settling && game.our_turn())
        return resync(fmt::format("the server sent a move for our side ('{}') at ply {}", server_move.move,
                                  game.moves.size() + 1));
    cancel_thinking();
    const std::string ptn = tak::format_move(*move);
    apply(*move);
    if (game.settling) return log_.debug(fmt::format("game {}: replayed {}", game.start.game, ptn));
    log_.info(fmt::format("game {} ply {}: opponent plays {}", game.start.game, game.moves.size(), ptn));
    maybe_think();
}

void Bridge::on_game_time(const GameTime& time) {
    if (!is_current(time.game)) return log_.info(fmt::format("ignored: game {} is not ours", time.game));
    game_->white_ms = time.white_ms;
    game_->black_ms = time.black_ms;
    if (game_->settling) end_settling();
}

void Bridge::on_game_request(const GameRequest& request) {
    if (!is_current(request.game)) return log_.info(fmt::format("ignored: game {} is not ours", request.game));
    Game& game = *game_;
    using Kind = GameRequest::Kind;
    switch (request.kind) {
        case Kind::offer_draw:
            if (!config_.accept_draws) return log_.info("draw offer declined (--accept-draws is off)");
            log_.info("accepting the draw offer");
            return send(game_line(game.start.game, "OfferDraw"), Pending::request);
        case Kind::request_undo:
            if (!config_.accept_undo) return log_.info("undo request declined (--accept-undo is off)");
            log_.info("accepting the undo request");
            return send(game_line(game.start.game, "RequestUndo"), Pending::request);
        case Kind::remove_draw:
            return log_.info("the opponent withdrew the draw offer");
        case Kind::remove_undo:
            return log_.info("the opponent withdrew the undo request");
        case Kind::undo: {
            if (!game.playable || game.moves.empty()) return;
            cancel_thinking();
            game.moves.pop_back();
            game.state = tak::start_state(tak::Variant{game.start.size, game.start.half_komi, false});
            for (tak::Move move : game.moves) tak::play(game.state, move);
            log_.info(fmt::format("game {}: undo; back to ply {}", game.start.game, game.moves.size()));
            return maybe_think();
        }
    }
}

void Bridge::maybe_think() {
    if (!game_ || exiting_ || !logged_in_) return;
    Game& game = *game_;
    if (!game.playable || game.resigned || game.settling || game.awaiting_resume || game.thinking != 0) return;
    if (tak::outcome(game.state).is_over() || !game.our_turn()) return;

    const std::int64_t margin = config_.lag_margin_ms;
    const std::int64_t ours = game.start.we_are_white ? game.white_ms : game.black_ms;
    MoveRequest request;
    request.id = ++next_request_;
    request.game = game.start.game;
    request.size = game.start.size;
    request.half_komi = game.start.half_komi;
    for (tak::Move move : game.moves) request.moves.push_back(tak::format_move(move));
    if (config_.movetime_ms > 0) {
        const std::int64_t movetime =
            std::min<std::int64_t>(config_.movetime_ms, std::max<std::int64_t>((ours - margin) / 10, 10));
        request.go = fmt::format("go movetime {}", movetime);
        request.budget = Milliseconds(movetime + 5'000);
    } else {
        const std::int64_t increment = std::int64_t{game.start.increment_s} * 1000;
        request.go =
            fmt::format("go wtime {} btime {} winc {} binc {}", std::max<std::int64_t>(game.white_ms - margin, 0),
                        std::max<std::int64_t>(game.black_ms - margin, 0), increment, increment);
        request.budget = Milliseconds(std::max<std::int64_t>(ours, 0) + 5'000);
    }
    request.fresh_engine = game.restart_engine;
    game.restart_engine = false;
    game.thinking = request.id;
    worker_.request_move(std::move(request), [this](const MoveReply& reply) { on_engine_reply(reply); });
}

void Bridge::cancel_thinking() {
    if (!game_ || game_->thinking == 0) return;
    worker_.cancel(game_->thinking);
    game_->thinking = 0;
}

void Bridge::on_engine_reply(const MoveReply& reply) {
    if (!game_ || game_->thinking != reply.id) return;  // cancelled, or for a game that is over
    Game& game = *game_;
    game.thinking = 0;
    switch (reply.kind) {
        case MoveReply::Kind::cancelled:
            return;
        case MoveReply::Kind::failed:
            log_.info(fmt::format("the engine keeps failing ({}): resigning and stopping", reply.error));
            exit_code_ = exit_engine;
            stopping_ = true;
            return resign("the engine failed");
        case MoveReply::Kind::move:
            break;
    }
    auto move = tak::parse_move(game.state, reply.move);
    if (!move) {
        ++game.illegal_engine_moves;
        log_.info(fmt::format("game {}: the engine played '{}', which is not legal here: {}", game.start.game,
                              protocol::excerpt(reply.move), move.error()));
        if (game.illegal_engine_moves >= 2) return resign("the engine played illegal moves twice");
        game.restart_engine = true;
        return maybe_think();
    }
    const std::string server_move = format_server_move(*move);
    apply(*move);
    log_.info(fmt::format("game {} ply {}: we play {}", game.start.game, game.moves.size(), tak::format_move(*move)));
    send(game_line(game.start.game, server_move), Pending::move, game.start.game);
}

void Bridge::resync(const std::string& why) {
    if (!game_) return;
    if (++game_->resyncs > config_.max_resyncs_per_game)
        return resign(fmt::format("{}; resynchronising failed {} times", why, config_.max_resyncs_per_game));
    log_.info(fmt::format("game {}: {}; reconnecting so that the server resends the game", game_->start.game, why));
    reconnect_delay_ = config_.reconnect_min;
    drop_connection("resynchronising");
}

void Bridge::resign(const std::string& why) {
    if (!game_ || game_->resigned) return;
    log_.info(fmt::format("game {}: resigning: {}", game_->start.game, why));
    cancel_thinking();
    game_->resigned = true;
    send(game_line(game_->start.game, "Resign"));  // answered by Game#<no> Over
    if (stopping_) exit_timer_.start(Milliseconds(10'000), [this] { begin_exit(); });
}

std::string Bridge::best_known_result() const {
    if (!game_) return "*";
    const Game& game = *game_;
    if (game.playable) {
        const auto outcome = tak::outcome(game.state);
        if (outcome.is_over()) return tak::result_text(outcome);
    }
    if (game.resigned) return game.start.we_are_white ? "0-1" : "1-0";
    return "*";
}

void Bridge::finish_game(const std::string& result, const std::string& termination) {
    record_game(result, termination);
    ++games_finished_;
    if (config_.games > 0 && games_finished_ >= config_.games && !stopping_) {
        log_.info(fmt::format("played {} game(s): done", games_finished_));
        stopping_ = true;
    }
    if (stopping_) return begin_exit();
    if (!config_.seek && logged_in_) send("List");
    maybe_seek();
}

void Bridge::record_game(const std::string& result, const std::string& termination) {
    if (!game_) return;
    cancel_thinking();
    settle_timer_.cancel();
    resume_timer_.cancel();
    const Game game = std::move(*game_);
    game_.reset();

    const GameStart& start = game.start;
    std::string record_note;
    if (!config_.ptn_dir.empty() && start.size >= tak::min_size && start.size <= tak::max_size) {
        GameRecordInfo info{start, game.moves, result, termination, config_.host + ":" + config_.port, game.started_at};
        auto path = write_game_record(config_.ptn_dir, info);
        if (path)
            record_note = ", record " + *path;
        else
            log_.info(fmt::format("cannot write the game record: {}", path.error()));
    }
    const int score = result_for(result, start.we_are_white);
    const std::string verdict = result == "*" ? "unfinished" : score > 0 ? "a win" : score < 0 ? "a loss" : "a draw";
    const std::string summary =
        fmt::format("game {}: {} vs {}: {}, {} (we were {}{}), {} plies{}", start.game, start.white, start.black,
                    result, verdict, start.we_are_white ? "white" : "black",
                    termination.empty() ? "" : "; " + termination, game.moves.size(), record_note);
    log_.info(summary);
    std::fputs((summary + "\n").c_str(), stdout);
    std::fflush(stdout);
}

// ---- stopping ---------------------------------------------------------------------------------

void Bridge::interrupt() {
    ++interrupts_;
    if (exiting_) return;
    if (!engine_) return;  // start() sees the interrupt when the engine is up
    if (interrupts_ >= 2) {
        log_.info("interrupted again: quitting now");
        if (game_ && !game_->resigned && logged_in_) resign("interrupted twice");
        return begin_exit();
    }
    stopping_ = true;
    seek_timer_.cancel();
    if (seek_active_ && logged_in_) {
        log_.info("interrupted: removing our seek");
        send(remove_seek_line());
        seek_active_ = false;
    }
    if (!game_) {
        log_.info("interrupted: no game on; quitting");
        return begin_exit();
    }
    if (config_.resign_on_interrupt) {
        if (!logged_in_) return begin_exit();
        return resign("interrupted (--on-interrupt resign)");
    }
    log_.info(fmt::format("interrupted: finishing game {} first (interrupt again to quit at once)", game_->start.game));
}

void Bridge::begin_exit() {
    if (exiting_) return;
    exiting_ = true;
    for (Timer* timer : {&ping_timer_, &ping_reply_timer_, &idle_timer_, &reconnect_timer_, &login_timer_, &seek_timer_,
                         &resume_timer_, &settle_timer_, &exit_timer_, &refusal_timer_})
        timer->cancel();
    cancel_thinking();
    // Every game gets its record, even when we leave before its end.
    if (game_) record_game(best_known_result(), "the bridge stopped before the server ended the game");
    auto done = [this] {
        connection_.reset();
        log_.info("bye");
        io_.stop();
    };
    if (connection_ && connection_->is_open() && logged_in_) {
        connection_->send("quit");
        connection_->close_when_sent(Milliseconds(2'000), done);
    } else {
        if (connection_) connection_->close();
        asio::post(io_, done);
    }
}

}  // namespace bge::playtak
