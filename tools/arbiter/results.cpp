#include "tools/arbiter/results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace bge::arbiter {

void write_scheduled_game(const ScheduledGame& game, Json& value) {
    value["number"] = game.number;
    value["round"] = game.round;
    value["encounter"] = game.encounter;
    value["pair"] = game.pair;
    value["white"] = game.white;
    value["black"] = game.black;
    value["opening"] = game.opening;
}

Json FinishedGame::to_json() const {
    Json value;
    write_scheduled_game(scheduled, value);
    value["result"] = result;
    value["termination"] = termination;
    value["reason"] = reason;
    value["plies"] = plies;
    value["record"] = record;
    return value;
}

Expected<ScheduledGame> read_scheduled_game(const Json& value, std::string_view what) {
    ScheduledGame game{};
    const std::pair<const char*, int*> fields[] = {{"number", &game.number},       {"round", &game.round},
                                                   {"encounter", &game.encounter}, {"pair", &game.pair},
                                                   {"white", &game.white},         {"black", &game.black},
                                                   {"opening", &game.opening}};
    for (const auto& [key, target] : fields) {
        const auto number = json::small_integer(value, key);
        if (!number) return make_error(fmt::format("{} has no whole number '{}'", what, key));
        *target = *number;
    }
    return game;
}

Expected<FinishedGame> FinishedGame::from_json(const Json& value) {
    if (!value.is_object()) return make_error("a game entry is not a JSON object");
    FinishedGame game;
    auto scheduled = read_scheduled_game(value, "a game entry");
    if (!scheduled) return make_error(scheduled.error());
    game.scheduled = *scheduled;
    const auto plies = json::small_integer(value, "plies");
    if (!plies) return make_error("a game entry has no whole number 'plies'");
    game.plies = *plies;
    const std::pair<const char*, std::string*> texts[] = {{"result", &game.result},
                                                          {"termination", &game.termination},
                                                          {"reason", &game.reason},
                                                          {"record", &game.record}};
    for (const auto& [key, target] : texts) {
        const Json* member = json::find(value, key);
        if (!member || !member->is_string()) return make_error(fmt::format("a game entry has no text '{}'", key));
        *target = member->get<std::string>();
    }
    if (game.result != "1-0" && game.result != "0-1" && game.result != "1/2-1/2")
        return make_error(fmt::format("game {}: result '{}' is not 1-0, 0-1 or 1/2-1/2", game.scheduled.number,
                                      game.result));
    return game;
}

bool Results::contains(int number) const {
    for (const FinishedGame& game : games_)
        if (game.scheduled.number == number) return true;
    return false;
}

Tally Results::tally(int pair) const {
    Tally tally;
    for (const FinishedGame& game : games_) {
        if (game.scheduled.pair != pair) continue;
        const bool first_is_white = pairs_[static_cast<std::size_t>(pair)].first == game.scheduled.white;
        const double points = first_is_white ? game.white_points() : 1.0 - game.white_points();
        if (points == 1.0) ++tally.wins;
        else if (points == 0.0) ++tally.losses;
        else ++tally.draws;
    }
    return tally;
}

Pentanomial Results::pentanomial(int pair) const {
    // The games of one encounter, in schedule order, from the pair's first engine's view.
    std::map<int, std::vector<std::pair<int, double>>> encounters;
    for (const FinishedGame& game : games_) {
        if (game.scheduled.pair != pair) continue;
        const bool first_is_white = pairs_[static_cast<std::size_t>(pair)].first == game.scheduled.white;
        encounters[game.scheduled.encounter].emplace_back(
            game.scheduled.number, first_is_white ? game.white_points() : 1.0 - game.white_points());
    }
    Pentanomial pentanomial;
    for (auto& [encounter, points] : encounters) {
        std::sort(points.begin(), points.end());
        for (std::size_t i = 0; i + 1 < points.size(); i += 2) pentanomial.add_pair(points[i].second, points[i + 1].second);
    }
    return pentanomial;
}

std::vector<GameResult> Results::game_results() const {
    std::vector<GameResult> results;
    for (const FinishedGame& game : games_)
        results.push_back({game.scheduled.white, game.scheduled.black, game.white_points()});
    return results;
}

}  // namespace bge::arbiter
