#include "tools/gui/match_watch.hpp"

#include <cmath>

#include "tools/arbiter/results_file.hpp"
#include "tools/arbiter/statistics.hpp"

namespace bge::gui {

Json match_standings(const arbiter::MatchDescription& description, const arbiter::Results& results) {
    Json standings = arbiter::results_json(description, results);
    // The page lists results; the records stay in the -pgnout file.
    for (Json& game : standings["games"]) game["record"] = nullptr;
    Json& pairs = standings["summary"]["pairs"];
    for (std::size_t pair = 0; pair < results.pairs().size() && pair < pairs.size(); ++pair) {
        Json& value = pairs[pair];
        const arbiter::Pentanomial pentanomial = results.pentanomial(static_cast<int>(pair));
        if (pentanomial.pairs() > 0) {
            const arbiter::EloInterval elo = arbiter::elo_from_pentanomial(pentanomial);
            value["pair_elo"] = elo.elo;
            value["pair_elo_error_95"] = elo.error_95;
            const arbiter::EloInterval normalized = arbiter::normalized_elo(pentanomial);
            value["nelo"] = normalized.elo;
            value["nelo_error_95"] = normalized.error_95;
        }
    }
    if (description.engine_names.size() > 2) {
        Json ranking = Json::array();
        for (const arbiter::RankRow& row :
             arbiter::rank_engines(static_cast<int>(description.engine_names.size()), results.game_results())) {
            Json value;
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
