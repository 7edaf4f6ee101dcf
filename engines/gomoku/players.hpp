#pragma once
// The Gomoku players selectable with `setoption name Player value <name>`: the strong player
// (threat search plus alpha-beta over the pattern evaluation, the default), `random`, and the
// study's three MCTS agents (study_players.hpp).

#include <vector>

#include "core/gomoku/gomoku.hpp"
#include "engines/gomoku/board.hpp"
#include "protocol/engine_spec.hpp"
#include "search/player.hpp"

namespace bge::gomoku {

void add_player_options(protocol::OptionRegistry& options);
std::vector<protocol::PlayerEntry<Gomoku>> gomoku_players();

// Runs a search written for the search view (GomokuSearch) as a search of the rules game.
search::SearchRequest<GomokuSearch> search_request(const search::SearchRequest<Gomoku>& request);
search::SearchControl<GomokuSearch> search_control(const search::SearchControl<Gomoku>& control);
search::Report<Gomoku> rules_report(const search::Report<GomokuSearch>& report);

}  // namespace bge::gomoku
