#pragma once
// Every engine binary with a position where it searches, for the tests that drive them all
// through pipes (engine_loop_queue_test.cpp, engine_go_test.cpp).

#include <string>
#include <vector>

#include "engine_session.hpp"

namespace bge::testing {

struct Engine {
    std::string name;
    std::string binary;
    std::vector<std::string> setup;  // sent first, and after the fuzz: the board size and options
    std::string position;            // one with several legal moves, where every engine searches
    // Another, with the other side to move and a different number of legal moves.
    std::string other;
    std::vector<std::string> players;  // for the fuzz: players that stop promptly
};

inline std::vector<Engine> engines() {
    return {
        {"tak",
         BGE_TAK_BINARY,
         {"teinewgame 6"},
         "position startpos moves a1 f6",
         "position startpos moves a1",
         {"alphabeta", "random", "mcts"}},
        {"gomoku",
         BGE_GOMOKU_BINARY,
         {"uginewgame 15x15"},
         "position startpos moves h8",
         "position startpos moves h8 h9",
         {"alphabeta", "random", "mcts-vanilla"}},
        {"twixt",
         BGE_TWIXT_BINARY,
         {"uginewgame 24"},
         "position startpos moves c3 d5",
         "position startpos moves c3 d5 e2",
         {"mcts", "minimax", "flat-mc"}},
        {"ur",
         BGE_UR_BINARY,
         {"uginewgame"},
         "position fen L..L__../...DD.../DD.D__.. 4,1 2,0 d 3",
         "position startpos moves r2",
         {"expectimax", "random", "greedy", "td"}},
        // Out of the opening book, so that it searches.
        {"expendibots",
         BGE_EXPENDIBOTS_BINARY,
         {"uginewgame", "setoption name OwnBook value false"},
         "position startpos",
         "position startpos moves d1d2 e8e7 d2d3",
         {"alphabeta", "random", "greedy"}},
    };
}

inline bool is_bestmove(const std::string& line) { return line.rfind("bestmove ", 0) == 0; }
inline std::string move_of(const std::string& bestmove) { return words_of(bestmove).at(1); }

// The engine takes `move` in `position` without an error (the engine is idle).
inline void check_legal(EngineSession& session, const std::string& position, const std::string& move) {
    const std::string played = position + (position.find(" moves ") == std::string::npos ? " moves " : " ") + move;
    INFO(played);
    session.send(played);
    CHECK(session.sync().empty());
}

// The engine's set-up lines (board size, options), which must be taken without a word.
inline void start(EngineSession& session, const Engine& engine) {
    for (const auto& line : engine.setup) session.send(line);
    REQUIRE(session.sync().empty());
}

}  // namespace bge::testing
