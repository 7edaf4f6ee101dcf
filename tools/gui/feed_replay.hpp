#pragma once
// The arbiter's live feed (tools/arbiter/live_feed.hpp) played back into a match's watch page:
// each event becomes the MatchObserver call the arbiter made, so `gui watch --feed` shows what
// `gui watch <arbiter flags>` shows for a match the GUI runs itself. Every position and move
// of the feed is read with the game's own rules; a line that does not fit is refused with an
// error and the rest goes on.

#include <map>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "tools/arbiter/live_feed.hpp"
#include "tools/arbiter/schedule.hpp"
#include "tools/gui/game_factory.hpp"
#include "tools/gui/match_watch.hpp"

namespace bge::gui {

template <class View>
class MatchFeedReplay : public FeedReplay {
public:
    using A = typename View::Adapter;
    using G = typename A::Game;

    MatchFeedReplay(MatchWatch<View>& watch, const typename G::Variant& variant, const arbiter::ResultsFile& header)
        : watch_(watch),
          variant_(variant),
          description_(header.match),
          results_(header.match.engine_names,
                   arbiter::engine_pairs(header.match.tournament, static_cast<int>(header.match.engine_names.size()))) {
        for (const arbiter::FinishedGame& game : header.games) results_.add(game);
    }

    void start() override { watch_.match_started(description_, results_); }

    bool over() const override { return over_; }

    Status apply(const Json& event) override {
        const std::string type = json::text(event, "event");
        if (type == "game") return game(event);
        if (type == "position") return position(event);
        if (type == "info") return info(event);
        if (type == "game_over") return game_over(event);
        if (type == "match_over") {
            over_ = true;
            watch_.match_finished(results_);
        }
        return success();  // an event a later arbiter may add: not this page's business
    }

private:
    struct RunningGame {
        arbiter::GameObserver<G>* observer = nullptr;
        std::optional<GameRecord<G>> record;
    };

    Expected<RunningGame*> running(const Json& event) {
        const auto number = json::small_integer(event, "number");
        if (!number) return make_error("the event names no game number");
        const auto found = games_.find(*number);
        if (found == games_.end()) return make_error(fmt::format("game {} has not started", *number));
        return &found->second;
    }

    Status game(const Json& event) {
        auto scheduled = arbiter::scheduled_game_from_feed(event);
        if (!scheduled) return make_error(scheduled.error());
        const int engines = static_cast<int>(description_.engine_names.size());
        if (scheduled->white < 0 || scheduled->white >= engines || scheduled->black < 0 || scheduled->black >= engines)
            return make_error(fmt::format("game {} names engines that are not in the match", scheduled->number));
        if (games_.contains(scheduled->number))
            return make_error(fmt::format("game {} started twice", scheduled->number));
        games_[scheduled->number].observer = watch_.game_started(*scheduled);
        return success();
    }

    Status position(const Json& event) {
        auto game = running(event);
        if (!game) return make_error(game.error());
        RunningGame& current = **game;
        if (!current.record) {
            const Json* start = json::find(event, "start");
            if (!start || !start->is_string()) return make_error("a game's first position event has no start");
            auto state = G::parse_position(variant_, start->get<std::string>());
            if (!state) return make_error(fmt::format("start position: {}", state.error()));
            current.record.emplace(*state);
        }
        GameRecord<G>& record = *current.record;
        if (json::integer(event, "from") != static_cast<std::int64_t>(record.moves().size()))
            return make_error(fmt::format("moves from ply {} expected", record.moves().size()));
        // All or nothing: every move is read before the first is played.
        std::vector<typename G::Move> moves;
        auto position = record.current();
        for (const Json& text : json::items(event, "moves")) {
            if (!text.is_string()) return make_error("a move is not text");
            auto move = G::parse_move(position, text.get<std::string>());
            if (!move) return make_error(fmt::format("move '{}': {}", clipped(text.get<std::string>()), move.error()));
            G::play(position, *move);
            moves.push_back(*move);
        }
        for (const auto& move : moves) record.play(move);  // the arbiter judged them: a game it let go on goes on here
        arbiter::Clocks clocks;
        const Json& clock_list = json::items(event, "clocks");
        for (std::size_t side = 0; side < clocks.size() && side < clock_list.size(); ++side)
            if (clock_list[side].is_number_integer())
                clocks[side].emplace(arbiter::TimeControl{.base_ms = clock_list[side].get<std::int64_t>()});
        if (current.observer) current.observer->position_changed(record, clocks);
        return success();
    }

    Status info(const Json& event) {
        auto game = running(event);
        if (!game) return make_error(game.error());
        const auto side = json::small_integer(event, "side");
        const Json* line = json::find(event, "line");
        if (!side || (*side != 0 && *side != 1) || !line || !line->is_string())
            return make_error("an info event needs side 0 or 1 and the line");
        if ((*game)->observer) (*game)->observer->search_line(*side == 0 ? Side::first : Side::second, line->get<std::string>());
        return success();
    }

    Status game_over(const Json& event) {
        auto finished = arbiter::FinishedGame::from_json(json::member(event, "game"));
        if (!finished) return make_error(finished.error());
        if (results_.contains(finished->scheduled.number))
            return make_error(fmt::format("game {} ended twice", finished->scheduled.number));
        const Json& ids = json::items(event, "engine_ids");
        if (ids.size() == description_.engine_ids.size())
            for (std::size_t i = 0; i < ids.size(); ++i)
                if (ids[i].is_string()) description_.engine_ids[i] = ids[i].get<std::string>();
        const arbiter::ScheduledGame scheduled = finished->scheduled;
        const int engines = static_cast<int>(description_.engine_names.size());
        if (scheduled.white < 0 || scheduled.white >= engines || scheduled.black < 0 || scheduled.black >= engines ||
            scheduled.pair < 0 || static_cast<std::size_t>(scheduled.pair) >= results_.pairs().size())
            return make_error(fmt::format("game {} names engines that are not in the match", scheduled.number));
        results_.add(std::move(*finished));
        watch_.game_finished(scheduled, results_.games().back(), results_, description_);
        games_.erase(scheduled.number);
        return success();
    }

    MatchWatch<View>& watch_;
    typename G::Variant variant_;
    arbiter::MatchDescription description_;
    arbiter::Results results_;
    std::map<int, RunningGame> games_;
    bool over_ = false;
};

}  // namespace bge::gui
