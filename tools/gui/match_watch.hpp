#pragma once
// Watching a match that the GUI runs through the arbiter's library (`gui watch <arbiter flags>`):
// every running game live (board, clocks, the engines' info lines with the PV drawn), and the
// standings, pentanomial and Elo as games end, computed by the arbiter's statistics code.

#include <map>

#include <fmt/format.h>

#include "tools/arbiter/match.hpp"
#include "tools/gui/game_view.hpp"
#include "tools/gui/session.hpp"

namespace bge::gui {

// The statistics of the match so far: the results file's summary, plus the pair Elo from the
// pentanomial and, with more than two engines, the ranking.
Json match_standings(const arbiter::MatchDescription& description, const arbiter::Results& results);

template <class View>
class MatchWatch : public Session, public arbiter::MatchObserver<typename View::Adapter::Game> {
public:
    using A = typename View::Adapter;
    using G = typename A::Game;

    MatchWatch(std::int64_t id, std::vector<std::string> engine_names) : id_(id), names_(std::move(engine_names)) {}

    // ---- Session
    // {"type": "record", "number": N}: a finished game's record, to open it in the analysis tab.
    void handle(const Json& message, const std::shared_ptr<Client>& from) override {
        if (json::text(message, "type") != "record") {
            from->send(error_message(fmt::format("a watched match takes no '{}': it is run from the command line",
                                                 clipped(json::text(message, "type"))),
                                     id_));
            return;
        }
        const Json& number = json::member(message, "number");
        std::lock_guard lock(mutex_);
        const auto found = number.is_number_integer() ? records_.find(number.get<int>()) : records_.end();
        if (found == records_.end()) {
            from->send(error_message(fmt::format("no record of that game here: the page keeps the last {} finished games",
                                                 kept_records),
                                     id_));
            return;
        }
        Json reply;
        reply["type"] = "record";
        reply["id"] = id_;
        reply["number"] = found->first;
        reply["game"] = std::string(View::game);
        reply["text"] = found->second;
        from->send(json::dump(reply));
    }

    void subscribe(const std::shared_ptr<Client>& client) override {
        subscribers_.add(client);
        std::lock_guard lock(mutex_);
        client->send(json::dump(match_json()));
        for (const auto& [number, game] : games_)
            if (!game->finished && !game->snapshot.empty()) client->send(game->snapshot);
    }

    void unsubscribe(std::uint64_t client_id) override { subscribers_.remove(client_id); }
    void close() override {}

    // ---- MatchObserver (called on the match's threads)
    void match_started(const arbiter::MatchDescription& match, const arbiter::Results& results) override {
        std::lock_guard lock(mutex_);
        description_ = match;
        // Before any game is counted the page lists no pairs; a resumed match shows its games.
        standings_ = match_standings(match, results.games().empty() ? arbiter::Results(match.engine_names, {}) : results);
        subscribers_.send_all(json::dump(match_json()));
    }

    arbiter::GameObserver<G>* game_started(const arbiter::ScheduledGame& game) override {
        std::lock_guard lock(mutex_);
        auto& slot = games_[game.number];
        slot = std::make_unique<GameWatch>(*this, game);
        return slot.get();
    }

    void game_finished(const arbiter::ScheduledGame& game, const arbiter::FinishedGame& finished,
                       const arbiter::Results& results, const arbiter::MatchDescription& description) override {
        std::lock_guard lock(mutex_);
        standings_ = match_standings(description, results);
        records_[game.number] = finished.record;
        while (records_.size() > kept_records) records_.erase(records_.begin());
        if (auto found = games_.find(game.number); found != games_.end()) {
            found->second->finished = true;
            found->second->flush();  // the final position, if the throttle held it back
        }
        Json message;
        message["type"] = "watch_over";
        message["id"] = id_;
        message["number"] = game.number;
        message["result"] = finished.result;
        message["reason"] = finished.reason;
        subscribers_.send_all(json::dump(message));
        // Its runner is done with the observer by now: a finished game is dropped, keeping memory flat.
        games_.erase(game.number);
        subscribers_.send_all(json::dump(match_json()));
    }

    void match_finished(const arbiter::Results&) override {
        std::lock_guard lock(mutex_);
        over_ = true;
        subscribers_.send_all(json::dump(match_json()));
    }

private:
    struct GameWatch : arbiter::GameObserver<G> {
        GameWatch(MatchWatch& owner, const arbiter::ScheduledGame& game) : owner(owner), game(game) {}

        // At most twenty positions a second per game go out (a fast match moves faster than anyone
        // can watch); one held back is sent with the next, or when the game ends.
        void position_changed(const GameRecord<G>& record, const arbiter::Clocks& clocks) override {
            current = record.current();
            if (last_score) {
                scores.resize(record.moves().size());
                if (!record.moves().empty()) scores.back() = *last_score;
                last_score.reset();
            }
            if (!position_throttle.ready()) {
                held.emplace(record, clocks);
                return;
            }
            held.reset();
            send_position(record, clocks);
        }

        // Called under the owner's lock.
        void flush() {
            if (!held) return;
            std::string text = position_text(held->first, held->second);
            held.reset();
            snapshot = text;
            owner.subscribers_.send_all(text);
        }

        void send_position(const GameRecord<G>& record, const arbiter::Clocks& clocks) {
            std::string text = position_text(record, clocks);
            std::lock_guard lock(owner.mutex_);
            snapshot = text;
            owner.subscribers_.send_all(text);
        }

        std::string position_text(const GameRecord<G>& record, const arbiter::Clocks& clocks) {
            Json message;
            message["type"] = "watch_game";
            message["id"] = owner.id_;
            message["number"] = game.number;
            message["round"] = game.round;
            message["players"] = Json::array({owner.name(game.white), owner.name(game.black)});
            message["side_names"] = Json::array({std::string(A::side_names[0]), std::string(A::side_names[1])});
            message["game"] = std::string(View::game);
            const auto& moves = record.moves();
            auto position = record.start(), before = position;
            Json texts = Json::array();
            for (const auto& move : moves) {
                texts.push_back(G::format_move(position, move));
                before = position;
                G::play(position, move);
            }
            message["moves"] = std::move(texts);
            message["movers"] = movers_json<G>(record.start(), moves);
            message["board"] = board_at<View>(before, moves.empty() ? nullptr : &moves.back(), record.current());
            message["position"] = G::format_position(record.current());
            message["to_move"] = index_of(G::side_to_move(record.current()));
            Json clock_list = Json::array();
            for (const auto& clock : clocks) clock_list.push_back(clock ? Json(clock->remaining_ms()) : Json());
            message["clocks"] = std::move(clock_list);
            scores.resize(moves.size());
            Json score_list = Json::array();
            for (const auto& score : scores) score_list.push_back(score ? Json(*score) : Json());
            message["scores"] = std::move(score_list);
            return json::dump(message);
        }

        void search_line(Side side, std::string_view text) override {
            const auto line = parse_search_line(text);
            if (!line) return;
            if (line->score_cp) last_score = side == Side::first ? *line->score_cp : -*line->score_cp;
            if (!throttle.ready(line->depth)) return;
            Json message;
            message["type"] = "watch_info";
            message["id"] = owner.id_;
            message["number"] = game.number;
            message["side"] = index_of(side);
            message["info"] = search_line_json(*line);
            if (current) message["pv"] = pv_json<View>(*current, line->pv);
            owner.subscribers_.send_all(json::dump(message));
        }

        MatchWatch& owner;
        arbiter::ScheduledGame game;
        std::optional<typename G::State> current;  // the position being searched
        std::optional<std::pair<GameRecord<G>, arbiter::Clocks>> held;
        Throttle position_throttle{std::chrono::milliseconds(50)};
        std::vector<std::optional<int>> scores;  // per ply, first player's view
        std::optional<int> last_score;
        Throttle throttle{std::chrono::milliseconds(200)};
        std::string snapshot;
        bool finished = false;
    };

    std::string name(int engine) const {
        return engine >= 0 && static_cast<std::size_t>(engine) < names_.size() ? names_[static_cast<std::size_t>(engine)]
                                                                               : fmt::format("engine {}", engine + 1);
    }

    Json match_json() const {
        Json message;
        message["type"] = "match";
        message["id"] = id_;
        message["game"] = std::string(View::game);
        message["over"] = over_;
        message["standings"] = standings_;
        Json running = Json::array();
        for (const auto& [number, game] : games_)
            if (!game->finished) running.push_back(number);
        message["running"] = std::move(running);
        return message;
    }

    std::int64_t id_;
    std::vector<std::string> names_;
    std::mutex mutex_;
    std::optional<arbiter::MatchDescription> description_;
    Json standings_;
    std::map<int, std::unique_ptr<GameWatch>> games_;
    static constexpr std::size_t kept_records = 500;
    std::map<int, std::string> records_;  // the last finished games' records, by game number
    bool over_ = false;
    Subscribers subscribers_;
};

}  // namespace bge::gui
