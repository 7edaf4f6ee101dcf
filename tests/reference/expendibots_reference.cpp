#include "expendibots_reference.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace expendibots_reference {

namespace {

bool on_board(int x, int y) { return x >= 0 && x < 8 && y >= 0 && y < 8; }

std::string snap(const Game& game) {
    std::string key;
    for (int x = 0; x < 8; ++x)
        for (int y = 0; y < 8; ++y)
            if (game.board[x][y] != 0) key += std::to_string(x) + "," + std::to_string(y) + ":" +
                                              std::to_string(game.board[x][y]) + ";";
    return key + "/" + std::to_string(game.nturns % 2);
}

std::string move_text(int n, int x, int y, int x2, int y2) {
    char buffer[80];
    std::snprintf(buffer, sizeof buffer, "MOVE %d from (%d, %d) to (%d, %d).", n, x, y, x2, y2);
    return buffer;
}

std::string boom_text(int x, int y) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "BOOM at (%d, %d).", x, y);
    return buffer;
}

}  // namespace

Game start() {
    Game game;
    for (int x : {0, 1, 3, 4, 6, 7}) {
        game.board[x][0] = game.board[x][1] = +1;
        game.board[x][6] = game.board[x][7] = -1;
    }
    game.history[snap(game)] = 1;
    return game;
}

Game from_board(const int board[8][8], int nturns) {
    Game game;
    game.score_white = game.score_black = 0;
    for (int x = 0; x < 8; ++x)
        for (int y = 0; y < 8; ++y) {
            game.board[x][y] = board[x][y];
            if (board[x][y] > 0) game.score_white += board[x][y];
            if (board[x][y] < 0) game.score_black -= board[x][y];
        }
    game.nturns = nturns;
    game.history[snap(game)] = 1;
    return game;
}

std::vector<std::string> available_actions(const Game& game, bool white) {
    const int sign = white ? 1 : -1;
    std::vector<std::string> actions;
    for (int x = 0; x < 8; ++x)
        for (int y = 0; y < 8; ++y)
            if (game.board[x][y] * sign > 0) actions.push_back(boom_text(x, y));
    for (int x = 0; x < 8; ++x)
        for (int y = 0; y < 8; ++y) {
            const int n = game.board[x][y] * sign;
            if (n <= 0) continue;
            for (int d = 1; d <= n; ++d) {
                const int targets[4][2] = {{x, y + d}, {x - d, y}, {x + d, y}, {x, y - d}};
                for (const auto& t : targets) {
                    if (!on_board(t[0], t[1])) continue;
                    const int there = game.board[t[0]][t[1]] * sign;
                    if (there < 0) continue;  // only empty squares and own stacks
                    for (int m = 1; m <= n; ++m) actions.push_back(move_text(m, x, y, t[0], t[1]));
                }
            }
        }
    return actions;
}

void update(Game& game, bool white, const std::string& action) {
    bool found = false;
    for (const auto& a : available_actions(game, white)) found = found || a == action;
    if (!found) throw std::invalid_argument("not an available action: " + action);
    int n, x, y, x2, y2;
    if (std::sscanf(action.c_str(), "MOVE %d from (%d, %d) to (%d, %d).", &n, &x, &y, &x2, &y2) == 5) {
        const int moved = game.board[x][y] < 0 ? -n : n;
        game.board[x][y] -= moved;
        game.board[x2][y2] += moved;
    } else if (std::sscanf(action.c_str(), "BOOM at (%d, %d).", &x, &y) == 2) {
        std::vector<std::pair<int, int>> to_boom = {{x, y}};
        for (std::size_t i = 0; i < to_boom.size(); ++i) {
            const auto [bx, by] = to_boom[i];
            const int count = game.board[bx][by];
            (count > 0 ? game.score_white : game.score_black) -= std::abs(count);
            game.board[bx][by] = 0;
            for (int dx = -1; dx <= 1; ++dx)
                for (int dy = -1; dy <= 1; ++dy)
                    if ((dx || dy) && on_board(bx + dx, by + dy) && game.board[bx + dx][by + dy] != 0)
                        to_boom.emplace_back(bx + dx, by + dy);
        }
    } else {
        throw std::invalid_argument("unreadable action: " + action);
    }
    // _turn_detect_draw
    game.nturns += 1;
    if (game.nturns >= 250 * 2) game.drawmsg = "maximum number of turns reached.";
    if (++game.history[snap(game)] >= 4) game.drawmsg = "game state occurred 4 times.";
}

bool over(const Game& game) {
    return std::min(game.score_white, game.score_black) == 0 || !game.drawmsg.empty();
}

std::string end(const Game& game) {
    if (!over(game)) return "";
    if (std::max(game.score_white, game.score_black) == 0) return "draw detected: no tokens remaining";
    if (std::min(game.score_white, game.score_black) == 0)
        return game.score_white > game.score_black ? "winner: white" : "winner: black";
    return "draw detected: " + game.drawmsg;
}

std::uint64_t perft(const Game& game, int depth) {
    if (depth == 0) return 1;
    if (over(game)) return 0;
    const bool white = game.nturns % 2 == 0;
    const auto actions = available_actions(game, white);
    if (depth == 1) return actions.size();
    std::uint64_t total = 0;
    for (const auto& action : actions) {
        Game child = game;
        child.history.clear();  // perft ignores repetition, as the engine's does
        update(child, white, action);
        total += perft(child, depth - 1);
    }
    return total;
}

}  // namespace expendibots_reference
