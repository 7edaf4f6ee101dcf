#pragma once
// One game at the GUI: a person against an engine, two engines, or two people, on any variant.
// The game runs on its own thread through the arbiter's Referee (tools/arbiter/game_runner.hpp):
// the same legality checks, clocks, dice and results as a match. A person's move arrives as the
// text of a legal move the page offered; the referee checks it again before playing it.
//
// Engines: an engine that crashes loses by disconnect and is shown as crashed; one that stops
// answering loses on time (or by stall without a clock), is killed and shown as hung. Undo
// (back to the person's previous turn) or a new game brings the table back: a dead engine is
// restarted before it moves again.

#include <deque>
#include <thread>

#include <fmt/format.h>

#include "tools/arbiter/game_runner.hpp"
#include "tools/gui/game_view.hpp"
#include "tools/gui/session.hpp"

namespace bge::gui {

// The seat of one side: a person (no engine) or an engine from the GUI's list.
struct SeatConfig {
    std::optional<arbiter::EngineConfig> engine;  // with its limits already applied
    std::string name;                             // shown on the page
};

template <class View>
class PlayTable : public ThreadedSession {
public:
    using A = typename View::Adapter;
    using G = typename A::Game;

    PlayTable(std::int64_t id, const typename G::Variant& variant, const typename G::State& start,
              std::array<SeatConfig, 2> seats, std::optional<arbiter::TimeControl> time_control, std::uint64_t dice_seed)
        : id_(id),
          variant_(variant),
          seats_(std::move(seats)),
          referee_(variant, arbiter::Opening<G>{start, {}}, adjudication_, {time_control, time_control}, dice_seed) {
        for (int i = 0; i < 2; ++i)
            if (seats_[i].engine)
                engines_[i] = std::make_unique<arbiter::EnginePlayer>(
                    *seats_[i].engine, seats_[i].engine->dialect.value_or(A::default_dialect), arbiter::Timeouts{},
                    &interrupt_);
        snapshot_ = json::dump(state_json());
        thread_ = std::jthread([this] { run(); });
    }

    ~PlayTable() override { close(); }

    void handle(const Json& message, const std::shared_ptr<Client>& from) override {
        const std::string& type = json::text(message, "type");
        if (type == "view") return view(message, from);
        if (type != "move" && type != "undo") {
            from->send(error_message(fmt::format("a game table does not know '{}'", clipped(type)), id_));
            return;
        }
        if (type == "move" && !json::member(message, "move").is_string()) {
            from->send(error_message("a move message needs \"move\": the move's text", id_));
            return;
        }
        {
            std::lock_guard lock(mutex_);
            if (type == "move" && !awaiting_person_) {
                from->send(error_message("it is not a person's turn: wait for the engine's move", id_));
                return;
            }
            commands_.push_back({type, json::text(message, "move"), from});
            if (type == "undo" && thinking_) interrupt_ = true;  // the search is abandoned
        }
        wake_.notify_all();
    }

    // {"type": "view", "ply": k}: the board after k plies, to step through the game while it goes
    // on (the game itself does not move). Answered from the copy the last published state made,
    // on the server's thread: the table's thread may be waiting for an engine.
    void view(const Json& message, const std::shared_ptr<Client>& from) {
        const auto ply = optional_integer(message, "ply", 0, 100'000);
        if (!ply || !ply->has_value()) {
            from->send(error_message("a view message needs \"ply\": 0 to the number of moves", id_));
            return;
        }
        Json reply;
        {
            std::lock_guard lock(mutex_);
            const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(**ply), shown_moves_.size());
            auto position = shown_start_, before = position;
            for (std::size_t i = 0; i < count; ++i) {
                before = position;
                G::play(position, shown_moves_[i]);
            }
            reply["type"] = "view";
            reply["id"] = id_;
            reply["ply"] = count;
            reply["board"] = board_at<View>(before, count ? &shown_moves_[count - 1] : nullptr, position);
            reply["position"] = G::format_position(position);
        }
        from->send(json::dump(reply));
    }

    void close() override {
        if (!stop_thread()) return;
        for (auto& engine : engines_)
            if (engine) engine->quit();
    }

private:
    struct Command {
        std::string type;
        std::string move;
        std::shared_ptr<Client> from;
    };

    enum class EngineState { idle, thinking, crashed, hung, failed };

    static std::string_view state_name(EngineState state) {
        switch (state) {
            case EngineState::thinking: return "thinking";
            case EngineState::crashed: return "crashed";
            case EngineState::hung: return "hung";
            case EngineState::failed: return "failed";
            case EngineState::idle: break;
        }
        return "ready";
    }

    bool person_at(Side side) const { return !engines_[index_of(side)]; }

    void run() {
        std::unique_lock lock(mutex_);
        prepare_engines(lock);
        publish(lock);
        while (!closing_) {
            if (!commands_.empty()) {
                Command command = std::move(commands_.front());
                commands_.pop_front();
                execute(command, lock);
                continue;
            }
            if (finished_ || fatal_) {
                wake_.wait(lock, [&] { return closing_ || !commands_.empty(); });
                continue;
            }
            if (auto end = referee_.end_before_turn()) {
                finish(*end, lock);
                continue;
            }
            if (referee_.roll_if_due()) {
                scores_.emplace_back();
                publish(lock);
                continue;
            }
            const Side side = G::side_to_move(referee_.record().current());
            if (person_at(side))
                await_person(side, lock);
            else
                engine_turn(side, lock);
        }
    }

    void prepare_engines(std::unique_lock<std::mutex>& lock) {
        for (Side side : {Side::first, Side::second}) {
            auto& engine = engines_[index_of(side)];
            if (!engine || (prepared_[index_of(side)] && !engine->needs_restart())) continue;
            lock.unlock();
            auto end = referee_.prepare(side, *engine);
            lock.lock();
            prepared_[index_of(side)] = !end && !referee_.fatal_error();
            if (referee_.fatal_error()) {
                fatal_ = true;
                engine_state_[index_of(side)] = EngineState::failed;
                return;
            }
            if (end) {
                engine_state_[index_of(side)] = end->termination == arbiter::Termination::stall ? EngineState::hung : EngineState::crashed;
                finish(*end, lock);
                return;
            }
            engine_state_[index_of(side)] = EngineState::idle;
        }
    }

    void await_person(Side side, std::unique_lock<std::mutex>& lock) {
        awaiting_person_ = true;
        turn_started_ = std::chrono::steady_clock::now();
        publish(lock);
        const auto& clock = referee_.clocks()[index_of(side)];
        const bool woken = clock ? wake_.wait_until(lock, turn_started_ + std::chrono::milliseconds(std::max<std::int64_t>(0, clock->remaining_ms() + arbiter::latency_slack_ms)),
                                                    [&] { return closing_ || !commands_.empty(); })
                                 : (wake_.wait(lock, [&] { return closing_ || !commands_.empty(); }), true);
        awaiting_person_ = false;
        if (!woken) finish(arbiter::GameEnd::loss_of(side, arbiter::Termination::time_forfeit), lock);
    }

    void engine_turn(Side side, std::unique_lock<std::mutex>& lock) {
        arbiter::EnginePlayer& engine = *engines_[index_of(side)];
        if (engine.needs_restart()) {
            prepare_engines(lock);
            if (finished_ || fatal_) return;
        }
        interrupt_ = false;
        thinking_ = true;
        engine_state_[index_of(side)] = EngineState::thinking;
        turn_started_ = std::chrono::steady_clock::now();
        info_ = Json();
        publish(lock);
        info_throttle_.reset();
        const auto position = referee_.record().current();
        lock.unlock();
        // Only this thread touches the referee, so it is read here without the lock.
        auto turn = referee_.engine_turn(engine, [&](std::string_view line) { search_line(side, position, line); });
        lock.lock();
        thinking_ = false;
        if (turn.interrupted) {
            engine_state_[index_of(side)] = engine.needs_restart() ? EngineState::hung : EngineState::idle;
            return;
        }
        if (turn.end) {
            const auto termination = turn.end->termination;
            if (termination == arbiter::Termination::disconnect) engine_state_[index_of(side)] = EngineState::crashed;
            else if (engine.needs_restart()) engine_state_[index_of(side)] = EngineState::hung;
            else engine_state_[index_of(side)] = EngineState::idle;
            finish(*turn.end, lock);
            return;
        }
        engine_state_[index_of(side)] = EngineState::idle;
        // The last search's line stays on show, but its PV belonged to the position before the move.
        if (info_.is_object()) info_["pv"] = nullptr;
        const auto& info = referee_.last_info();
        scores_.push_back(info ? std::optional<int>(side == Side::first ? info->score_cp : -info->score_cp) : std::nullopt);
        publish(lock);
    }

    // On this table's thread, during a search: the live line goes out at most ten times a second.
    void search_line(Side side, const typename G::State& position, std::string_view text) {
        const auto line = parse_search_line(text);
        if (!line) return;
        Json message;
        message["type"] = "info";
        message["id"] = id_;
        message["side"] = index_of(side);
        {
            std::lock_guard lock(mutex_);
            info_ = shown_search_line(info_, *line, pv_json<View>(position, line->pv));
            info_["side"] = index_of(side);  // whose view its score is
            message["info"] = info_;
            message["pv"] = info_["pv"];
        }
        std::string text_message = json::dump(message);
        if (info_throttle_.ready(line->depth)) subscribers_.send_all(text_message);
    }

    void execute(const Command& command, std::unique_lock<std::mutex>& lock) {
        if (command.type == "undo") return undo(command, lock);
        const auto& state = referee_.record().current();
        const Side side = G::side_to_move(state);
        if (finished_ || fatal_ || !person_at(side) || is_chance_node<G>(state)) {
            command.from->send(error_message("it is not a person's turn", id_));
            return;
        }
        auto move = G::parse_move(state, command.move);
        if (!move) {
            command.from->send(
                error_message(fmt::format("'{}' is not a legal move: {}", clipped(command.move), move.error()), id_));
            return;  // the person's clock runs on
        }
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - turn_started_).count();
        auto end = referee_.play_move(*move, elapsed);
        scores_.emplace_back();
        if (end) finish(*end, lock);
        else publish(lock);
    }

    // Back to the last position where a person was to move (one ply with two engines).
    void undo(const Command& command, std::unique_lock<std::mutex>& lock) {
        const auto& moves = referee_.record().moves();
        if (moves.empty()) {
            command.from->send(error_message("there is no move to take back", id_));
            return;
        }
        const bool anyone = person_at(Side::first) || person_at(Side::second);
        // Replay to find the decision points: plies where a person chose the move.
        GameRecord<G> replay(referee_.record().start());
        std::optional<std::size_t> target;
        for (std::size_t ply = 0; ply < moves.size(); ++ply) {
            const auto& state = replay.current();
            if (!is_chance_node<G>(state) && (!anyone || person_at(G::side_to_move(state)))) target = ply;
            replay.play(moves[ply]);
        }
        if (!target) {
            command.from->send(error_message("no move of a person to take back", id_));
            return;
        }
        referee_.take_back(moves.size() - *target);
        scores_.resize(*target);
        finished_ = false;
        end_.reset();
        result_ = Json();
        info_ = Json();
        publish(lock);
    }

    void finish(const arbiter::GameEnd& end, std::unique_lock<std::mutex>& lock) {
        finished_ = true;
        end_ = end;
        Json result;
        result["score"] = arbiter::result_score(end.outcome);
        result["reason"] = arbiter::describe(end, A::rule_phrase(end.outcome), A::side_names);
        result["termination"] = arbiter::termination_tag(end);
        result_ = std::move(result);
        publish(lock);
    }

    Json state_json() const override {
        const auto& record = referee_.record();
        Json state;
        state["type"] = "state";
        state["mode"] = "play";
        state["id"] = id_;
        state["game"] = std::string(View::game);
        state["variant"] = A::variant_text(variant_);
        state["side_names"] = Json::array({std::string(A::side_names[0]), std::string(A::side_names[1])});
        Json players = Json::array(), seats = Json::array(), status = Json::array(), reasons = Json::array();
        for (int i = 0; i < 2; ++i) {
            players.push_back(seats_[i].name);
            seats.push_back(engines_[i] ? "engine" : "person");
            status.push_back(engines_[i] ? std::string(state_name(engine_state_[i])) : std::string("person"));
            // Why an engine failed, crashed or hung ("cannot execute ...", "no 'ugiok' ..."), for the page.
            const bool broken = engines_[i] && engine_state_[i] != EngineState::idle && engine_state_[i] != EngineState::thinking;
            reasons.push_back(broken ? Json(reason_of(i)) : Json());
        }
        state["players"] = std::move(players);
        state["seats"] = std::move(seats);
        state["status"] = std::move(status);
        state["status_reasons"] = std::move(reasons);
        const auto& moves = record.moves();
        auto position = record.start();
        Json move_texts = Json::array();
        typename G::State before = position;
        for (const auto& move : moves) {
            move_texts.push_back(G::format_move(position, move));
            before = position;
            G::play(position, move);
        }
        state["start"] = G::format_position(record.start());
        state["position"] = G::format_position(record.current());
        state["board"] = board_at<View>(before, moves.empty() ? nullptr : &moves.back(), record.current());
        state["moves"] = std::move(move_texts);
        Json scores = Json::array();
        for (const auto& score : scores_) scores.push_back(score ? Json(*score) : Json());
        state["scores"] = std::move(scores);
        state["movers"] = movers_json<G>(record.start(), record.moves());
        state["to_move"] = index_of(G::side_to_move(record.current()));
        state["chance"] = is_chance_node<G>(record.current());
        const bool person_to_move = !finished_ && !fatal_ && awaiting_person_;
        state["legal"] = person_to_move ? legal_moves_json<View>(record) : Json::array();
        Json clocks = Json::array();
        for (int i = 0; i < 2; ++i) {
            const auto& clock = referee_.clocks()[i];
            if (!clock) {
                clocks.push_back(nullptr);
                continue;
            }
            Json value;
            value["ms"] = clock->remaining_ms();
            value["running"] = !finished_ && !fatal_ && (awaiting_person_ || thinking_) &&
                               index_of(G::side_to_move(record.current())) == i;
            clocks.push_back(std::move(value));
        }
        state["clocks"] = std::move(clocks);
        state["result"] = result_;
        state["info"] = info_;
        if (referee_.fatal_error()) state["error"] = *referee_.fatal_error();
        state["record"] = record_text();
        shown_start_ = record.start();
        shown_moves_ = record.moves();
        return state;
    }

    // The game so far in its record format (PTN for Tak), as the arbiter writes it: for Save and
    // for "Analyse this game".
    std::string record_text() const {
        const auto& record = referee_.record();
        arbiter::PlayedGame<G> played;
        played.start = record.start();
        played.moves = record.moves();
        played.comments = referee_.comments();
        played.comments.resize(played.moves.size());
        played.final_position = record.current();
        if (end_) played.end = *end_;
        else played.end = arbiter::GameEnd::by_rules(record.outcome());
        return A::format_record(played, arbiter::RecordInfo{seats_[0].name, seats_[1].name, 1, date_});
    }

    std::string reason_of(int seat) const {
        std::string reason = engines_[seat]->last_error();
        if (reason.empty() && referee_.fatal_error()) reason = *referee_.fatal_error();
        return reason;
    }

    std::int64_t id_;
    // The game as the last state showed it, for view requests (written by state_json, under the lock).
    mutable typename G::State shown_start_{};
    mutable std::vector<typename G::Move> shown_moves_;
    std::string date_ = arbiter::today();
    std::optional<arbiter::GameEnd> end_;
    typename G::Variant variant_;
    std::array<SeatConfig, 2> seats_;
    arbiter::Adjudication adjudication_;  // none at the GUI: only the rules and the clocks end a game
    arbiter::Referee<A> referee_;
    std::array<std::unique_ptr<arbiter::EnginePlayer>, 2> engines_;
    std::array<EngineState, 2> engine_state_{EngineState::idle, EngineState::idle};
    std::array<bool, 2> prepared_{false, false};
    std::vector<std::optional<int>> scores_;  // per ply, centipawns from the first player's view

    std::deque<Command> commands_;
    bool finished_ = false;
    bool fatal_ = false;
    bool awaiting_person_ = false;
    bool thinking_ = false;
    std::chrono::steady_clock::time_point turn_started_{};
    Json result_;
    Json info_;
    Throttle info_throttle_{std::chrono::milliseconds(100)};
};

}  // namespace bge::gui
