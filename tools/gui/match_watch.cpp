#include "tools/gui/match_watch.hpp"

#include <cmath>

#include "tools/arbiter/results_file.hpp"
#include "tools/arbiter/statistics.hpp"

namespace bge::gui {

json::Value match_standings(const arbiter::MatchDescription& description, const arbiter::Results& results) {
    json::Value standings = arbiter::results_json(description, results);
    // The page lists results; the records stay in the -pgnout file.
    json::Array games;
    for (const json::Value& game : standings["games"].as_array()) {
        json::Value brief = game;
        brief.object()["record"] = json::Value();
        games.push_back(std::move(brief));
    }
    standings["games"] = std::move(games);
    json::Array pairs;
    for (std::size_t pair = 0; pair < results.pairs().size(); ++pair) {
        json::Value value = standings["summary"]["pairs"].as_array().at(pair);
        const arbiter::Pentanomial pentanomial = results.pentanomial(static_cast<int>(pair));
        if (pentanomial.pairs() > 0) {
            const arbiter::EloInterval elo = arbiter::elo_from_pentanomial(pentanomial);
            value["pair_elo"] = elo.elo;
            value["pair_elo_error_95"] = elo.error_95;
            const arbiter::EloInterval normalized = arbiter::normalized_elo(pentanomial);
            value["nelo"] = normalized.elo;
            value["nelo_error_95"] = normalized.error_95;
        }
        pairs.push_back(std::move(value));
    }
    standings["summary"]["pairs"] = std::move(pairs);
    if (description.engine_names.size() > 2) {
        json::Array ranking;
        for (const arbiter::RankRow& row :
             arbiter::rank_engines(static_cast<int>(description.engine_names.size()), results.game_results())) {
            json::Value value;
            value["engine"] = row.engine;
            value["elo"] = row.elo;
            value["elo_error_95"] = row.error_95;
            value["games"] = row.games;
            value["score"] = row.score;
            value["draw_ratio"] = row.draw_ratio;
            ranking.push_back(std::move(value));
        }
        standings["ranking"] = std::move(ranking);
    }
    return standings;
}

}  // namespace bge::gui
