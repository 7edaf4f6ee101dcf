#pragma once
// The evaluation the strong player's alpha-beta searches with, over SearchBoard's incremental
// pattern values (board.hpp), and the quiescence moves: the win in one, the block of a five, or
// the side to move's fours (a short threat search below the horizon). Scores are from the side
// to move's point of view; threats that decide the game score beyond +-10000 but stay below the
// search's proven-win range, since a static guess is not a proof.

#include "engines/gomoku/board.hpp"

namespace bge::gomoku {

struct EvalWeights {
    int tempo = 30;                 // the side to move's extra share of its own values, in percent
    int win_in_one = 20000;         // the side to move has a five
    int facing_five = -12000;       // the opponent has one five to block
    int facing_two_fives = -20000;  // ... two: lost
    int open_four = 15000;          // the side to move can make an open four and the opponent has no four
    int max_quiescence_fours = 3;   // fours tried per quiescence node
};

class GomokuEvaluator {
public:
    GomokuEvaluator() = default;
    explicit GomokuEvaluator(const EvalWeights& weights) : weights_(weights) {}

    int evaluate(const SearchBoard& board) const;
    int order_hint(const SearchBoard& board, const Move& move) const;
    void noisy_moves(const SearchBoard& board, MoveList<GomokuSearch>& moves) const;

private:
    EvalWeights weights_;
};

}  // namespace bge::gomoku
