// Independent, deliberately simple reference implementation of Expendibots, written after the
// COMP30024 2020 referee (referee/game.py): a board of signed counts (+n a white stack of n, -n a
// black one), actions as the referee's log texts, its draw detection and its end messages.
// Used only by tests to cross-check the fast engine; clarity matters here, speed does not.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace expendibots_reference {

struct Game {
    int board[8][8] = {};  // [x][y]
    int score_white = 12;
    int score_black = 12;
    int nturns = 0;
    std::map<std::string, int> history;  // snapshot -> occurrences, the start counted
    std::string drawmsg;
};

Game start();
// A game from a board (for positions the engine set up); history holds just that position.
Game from_board(const int board[8][8], int nturns);

// The referee's _available_actions for the colour, as _FORMAT_ACTION texts
// ("MOVE 2 from (0, 1) to (0, 3)." and "BOOM at (0, 1)."), BOOMs first.
std::vector<std::string> available_actions(const Game& game, bool white);
// The referee's update: applies the action (one of available_actions; otherwise throws
// std::invalid_argument) and then its turn bookkeeping (turn count, 4-fold repetition).
void update(Game& game, bool white, const std::string& action);
bool over(const Game& game);
// The referee's end(): "winner: white", "draw detected: no tokens remaining", or
// "draw detected: <drawmsg>"; "" while the game goes on.
std::string end(const Game& game);

// perft without history: 1 at depth 0; a game over() counts 0; else the sum over actions.
std::uint64_t perft(const Game& game, int depth);

}  // namespace expendibots_reference
