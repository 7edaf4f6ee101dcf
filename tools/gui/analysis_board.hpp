#pragma once
// Analysis: a line of moves (from a record, a position text, or moves played on the board) that
// the person steps through, with an engine searching the shown position (`go infinite`) and its
// info lines, PV and score graph sent live. Moves made on the board branch the line at the
// shown position; the rules check them (and at a chance node the person picks the roll).

#include <deque>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "tools/arbiter/game_runner.hpp"
#include "tools/gui/game_view.hpp"
#include "tools/gui/session.hpp"

namespace bge::gui {

template <class View>
class AnalysisBoard : public ThreadedSession {
public:
    using A = typename View::Adapter;
    using G = typename A::Game;

    // Shows the position after `ply` moves of the line first.
    AnalysisBoard(std::int64_t id, const RecordLine<G>& line, std::vector<EngineEntry> engines, std::size_t ply = 0)
        : id_(id), line_(line), engines_(std::move(engines)), ply_(std::min(ply, line.moves.size())) {
        for (std::size_t ply = 0; ply < line_.moves.size(); ++ply) {
            const Side mover = mover_at(ply);
            auto score = score_from_comment(ply < line_.comments.size() ? line_.comments[ply] : std::string());
            scores_.push_back(score ? std::optional<int>(mover == Side::first ? *score : -*score) : std::nullopt);
        }
        line_.comments.resize(line_.moves.size());
        snapshot_ = json::dump(state_json());
        thread_ = std::jthread([this] { run(); });
    }

    ~AnalysisBoard() override { close(); }

    void handle(const Json& message, const std::shared_ptr<Client>& from) override {
        const std::string& type = json::text(message, "type");
        if (type != "goto" && type != "move" && type != "start" && type != "stop") {
            from->send(error_message(fmt::format("an analysis board does not know '{}'", clipped(type)), id_));
            return;
        }
        {
            std::lock_guard lock(mutex_);
            commands_.push_back({message, from});
            interrupt_ = true;  // any change stops the running search first
        }
        wake_.notify_all();
    }

    void close() override {
        if (stop_thread() && engine_) engine_->quit();
    }

private:
    struct Command {
        Json message;
        std::shared_ptr<Client> from;
    };

    typename G::State position_at(std::size_t ply) const {
        auto state = line_.start;
        for (std::size_t i = 0; i < ply; ++i) G::play(state, line_.moves[i]);
        return state;
    }

    Side mover_at(std::size_t ply) const { return G::side_to_move(position_at(ply)); }

    GameRecord<G> record_to(std::size_t ply) const {
        GameRecord<G> record(line_.start);
        for (std::size_t i = 0; i < ply; ++i) record.play(line_.moves[i]);
        return record;
    }

    void run() {
        std::unique_lock lock(mutex_);
        while (!closing_) {
            if (!commands_.empty()) {
                Command command = std::move(commands_.front());
                commands_.pop_front();
                execute(command, lock);
                continue;
            }
            if (!analysing_ || record_to(ply_).outcome().is_over()) {
                wake_.wait(lock, [&] { return closing_ || !commands_.empty(); });
                continue;
            }
            search(lock);
        }
    }

    void execute(const Command& command, std::unique_lock<std::mutex>& lock) {
        const Json& message = command.message;
        const std::string& type = json::text(message, "type");
        if (type == "goto") {
            auto ply = optional_integer(message, "ply", 0, static_cast<std::int64_t>(line_.moves.size()));
            if (!ply || !*ply) {
                command.from->send(error_message(ply ? "goto needs \"ply\"" : ply.error(), id_));
                return;
            }
            ply_ = static_cast<std::size_t>(**ply);
        } else if (type == "move") {
            auto record = record_to(ply_);
            const auto& state = record.current();
            if (record.outcome().is_over()) {
                command.from->send(error_message("the game is over in this position", id_));
                return;
            }
            const std::string& text = json::text(message, "move");
            auto move = G::parse_move(state, text);
            if (!move) {
                command.from->send(
                    error_message(fmt::format("'{}' is not a legal move: {}", clipped(text), move.error()), id_));
                return;
            }
            // The same move as the line's next one just steps forward; another one branches.
            if (!(ply_ < line_.moves.size() && line_.moves[ply_] == *move)) {
                std::erase_if(analysed_, [&](const auto& entry) { return entry.first > ply_; });
                line_.moves.resize(ply_);
                line_.comments.resize(ply_);
                scores_.resize(ply_);
                line_.moves.push_back(*move);
                line_.comments.emplace_back();
                scores_.emplace_back();
            }
            ++ply_;
        } else if (type == "start") {
            const std::string& name = json::text(message, "engine");
            const EngineEntry* entry = nullptr;
            for (const EngineEntry& candidate : engines_)
                if (candidate.config.name == name && candidate.game == View::game) entry = &candidate;
            if (!entry) {
                command.from->send(error_message(
                    fmt::format("no {} engine named '{}' was given to the GUI", View::game, clipped(name)), id_));
                return;
            }
            const auto dialect = entry->config.dialect.value_or(A::default_dialect);
            if (dialect == protocol::Dialect::pbrain) {
                command.from->send(error_message("a pbrain engine cannot analyse (pbrain has no infinite search)", id_));
                return;
            }
            if (!engine_ || engine_->name() != name) {
                if (engine_) engine_->quit();
                engine_ = std::make_unique<arbiter::EnginePlayer>(entry->config, dialect, arbiter::Timeouts{}, &interrupt_);
                prepared_ = false;
            }
            analysing_ = true;
            engine_error_.clear();
        } else if (type == "stop") {
            analysing_ = false;
        }
        info_ = Json();
        publish(lock);
    }

    // One search of the shown position, until a command interrupts it.
    void search(std::unique_lock<std::mutex>& lock) {
        const GameRecord<G> record = record_to(ply_);
        const std::size_t ply = ply_;
        interrupt_ = false;
        lock.unlock();
        if (!prepared_ || engine_->needs_restart()) {
            // The referee's preparation: the process, the rule options, a new game.
            arbiter::Referee<A> referee(line_.variant, arbiter::Opening<G>{line_.start, {}}, adjudication_, {}, 0);
            auto end = referee.prepare(Side::first, *engine_);
            prepared_ = !end && !referee.fatal_error();
            if (!prepared_) {
                lock.lock();
                analysing_ = false;
                engine_error_ = engine_->last_error().empty() ? referee.fatal_error().value_or("the engine failed")
                                                              : engine_->last_error();
                publish(lock);
                return;
            }
        }
        const auto state = record.current();
        info_throttle_.reset();
        const auto reply = engine_->think(arbiter::position_command<A>(engine_->dialect(), record), "go infinite",
                                          std::chrono::hours(24 * 365), [&](std::string_view text) {
                                              const auto line = parse_search_line(text);
                                              if (!line) return;
                                              std::lock_guard guard(mutex_);
                                              info_ = shown_search_line(info_, *line, pv_json<View>(state, line->pv));
                                              info_["side"] = index_of(G::side_to_move(state));
                                              if (line->score_cp) {
                                                  // The score of the position after ply moves, from the first player's view.
                                                  const int score = G::side_to_move(state) == Side::first ? *line->score_cp : -*line->score_cp;
                                                  analysed_[ply] = score;
                                              }
                                              if (info_throttle_.ready(line->depth)) send_info();
                                          });
        lock.lock();
        if (reply.kind == arbiter::EngineReply::Kind::interrupted) {
            lock.unlock();
            engine_->abandon_search();
            lock.lock();
            if (engine_->needs_restart()) {
                analysing_ = false;
                engine_error_ = fmt::format("engine {} did not answer stop: it was killed", engine_->name());
            }
        } else {
            // The engine ended an infinite search by itself (a decided position), or died.
            analysing_ = false;
            if (reply.kind == arbiter::EngineReply::Kind::closed || engine_->needs_restart())
                engine_error_ = fmt::format("engine {} crashed or closed its output", engine_->name());
        }
        publish(lock);
    }

    void send_info() {
        Json message;
        message["type"] = "info";
        message["id"] = id_;
        message["ply"] = static_cast<std::int64_t>(ply_);
        message["info"] = info_;
        // The graph's point for this ply (first player's view), so the graph follows the search.
        if (const auto found = analysed_.find(ply_); found != analysed_.end()) message["graph_score"] = found->second;
        subscribers_.send_all(json::dump(message));
    }

    Json state_json() const override {
        const auto record = record_to(ply_);
        Json state;
        state["type"] = "state";
        state["mode"] = "analysis";
        state["id"] = id_;
        state["game"] = std::string(View::game);
        state["variant"] = A::variant_text(line_.variant);
        state["side_names"] = Json::array({std::string(A::side_names[0]), std::string(A::side_names[1])});
        state["players"] = Json::array({line_.first_player, line_.second_player});
        Json moves = Json::array(), comments = Json::array();
        auto position = line_.start;
        for (std::size_t i = 0; i < line_.moves.size(); ++i) {
            moves.push_back(G::format_move(position, line_.moves[i]));
            comments.push_back(line_.comments[i]);
            G::play(position, line_.moves[i]);
        }
        state["moves"] = std::move(moves);
        state["comments"] = std::move(comments);
        state["ply"] = static_cast<std::int64_t>(ply_);
        const auto before = ply_ > 0 ? position_at(ply_ - 1) : line_.start;
        state["board"] = board_at<View>(before, ply_ > 0 ? &line_.moves[ply_ - 1] : nullptr, record.current());
        state["start"] = G::format_position(line_.start);
        state["position"] = G::format_position(record.current());
        state["to_move"] = index_of(G::side_to_move(record.current()));
        state["chance"] = is_chance_node<G>(record.current());
        Json legal = legal_moves_json<View>(record);
        if constexpr (StochasticGame<G>) {
            // Here the person sets the dice: each roll is a button.
            if (G::is_chance_node(record.current()) && !record.outcome().is_over()) {
                ChanceList<G> rolls;
                G::chance_outcomes(record.current(), rolls);
                for (const auto& roll : rolls) {
                    Json entry;
                    entry["m"] = G::format_move(record.current(), roll.roll);
                    entry["p"] = Json::array();
                    legal.push_back(std::move(entry));
                }
            }
        }
        state["legal"] = std::move(legal);
        // Scores per ply: the engine's analysis where there is one, else the record's comment.
        Json scores = Json::array();
        for (std::size_t ply = 1; ply <= line_.moves.size(); ++ply) {
            if (auto found = analysed_.find(ply); found != analysed_.end())
                scores.push_back(found->second);
            else if (ply - 1 < scores_.size() && scores_[ply - 1])
                scores.push_back(*scores_[ply - 1]);
            else
                scores.push_back(nullptr);
        }
        state["scores"] = std::move(scores);
        state["movers"] = movers_json<G>(line_.start, line_.moves);
        const Outcome outcome = record.outcome();
        if (outcome.is_over()) {
            Json result;
            const arbiter::GameEnd end = arbiter::GameEnd::by_rules(outcome);
            result["score"] = arbiter::result_score(outcome);
            result["reason"] = arbiter::describe(end, A::rule_phrase(outcome), A::side_names);
            result["termination"] = arbiter::termination_tag(end);
            state["result"] = std::move(result);
        }
        Json engines = Json::array();
        for (const EngineEntry& entry : engines_)
            if (entry.game == View::game) engines.push_back(entry.config.name);
        state["engines"] = std::move(engines);
        state["engine"] = engine_ ? Json(engine_->name()) : Json();
        state["analysing"] = analysing_;
        if (!engine_error_.empty()) state["error"] = engine_error_;
        state["info"] = info_;
        return state;
    }

    std::int64_t id_;
    RecordLine<G> line_;
    std::vector<EngineEntry> engines_;
    std::size_t ply_;
    std::vector<std::optional<int>> scores_;  // from the record's comments, first player's view
    std::map<std::size_t, int> analysed_;     // ply -> the analysing engine's last score there
    arbiter::Adjudication adjudication_;
    std::unique_ptr<arbiter::EnginePlayer> engine_;
    bool prepared_ = false;
    bool analysing_ = false;
    std::string engine_error_;

    std::deque<Command> commands_;
    Json info_;
    Throttle info_throttle_{std::chrono::milliseconds(100)};
};

}  // namespace bge::gui
