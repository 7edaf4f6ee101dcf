#include "tools/arbiter/results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace bge::arbiter {

json::Value FinishedGame::to_json() const {
    json::Value value;
    value["number"] = scheduled.number;
    value["round"] = scheduled.round;
    value["encounter"] = scheduled.encounter;
    value["pair"] = scheduled.pair;
    value["white"] = scheduled.white;
    value["black"] = scheduled.black;
    value["opening"] = scheduled.opening;
    value["result"] = result;
    value["termination"] = termination;
    value["reason"] = reason;
    value["plies"] = plies;
    value["record"] = record;
    return value;
}

Expected<FinishedGame> FinishedGame::from_json(const json::Value& value) {
    if (!value.is_object()) return make_error("a game entry is not a JSON object");
    FinishedGame game;
    for (const char* key : {"number", "round", "encounter", "pair", "white", "black", "opening", "plies"})
        if (!value[key].is_integer()) return make_error(fmt::format("a game entry has no integer '{}'", key));
    for (const char* key : {"result", "termination", "reason", "record"})
        if (!value[key].is_string()) return make_error(fmt::format("a game entry has no text '{}'", key));
    game.scheduled.number = static_cast<int>(value["number"].as_integer());
    game.scheduled.round = static_cast<int>(value["round"].as_integer());
    game.scheduled.encounter = static_cast<int>(value["encounter"].as_integer());
    game.scheduled.pair = static_cast<int>(value["pair"].as_integer());
    game.scheduled.white = static_cast<int>(value["white"].as_integer());
    game.scheduled.black = static_cast<int>(value["black"].as_integer());
    game.scheduled.opening = static_cast<int>(value["opening"].as_integer());
    game.result = value["result"].as_string();
    game.termination = value["termination"].as_string();
    game.reason = value["reason"].as_string();
    game.plies = static_cast<int>(value["plies"].as_integer());
    game.record = value["record"].as_string();
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
