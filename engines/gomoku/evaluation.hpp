#pragma once
// The evaluation the strong player's alpha-beta searches with, over SearchBoard's incremental
// pattern values (board.hpp), and the quiescence moves: the win in one, the block of a five, or
// the side to move's fours (a short threat search below the horizon). Scores are from the side
// to move's point of view; threats that decide the game score beyond +-10000 but stay below the
// search's proven-win range, since a static guess is not a proof.

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "engines/gomoku/board.hpp"
#include "engines/gomoku/policy.hpp"
#include "engines/gomoku/threat_search.hpp"
#include "search/alphabeta.hpp"

namespace bge::gomoku {

// The fitted evaluation: a linear function of SearchBoard's incremental counts, from the side
// to move's view. Features 0-14 are the mover's (line patterns one..five, then threats open
// three..five), 15-29 the opponent's in the same order; 30 and 31 are the hand-made evaluation's
// value sums (mover's, opponent's, divided by 8), so a fit can keep what those knew; 32-73 count
// the mover's empty cells by shape class (the cell's two strongest line patterns, board.hpp),
// 74-115 the opponent's. Weights are 1/eval_weight_scale centi-units per count, fitted to
// self-play results by train_gomoku_eval (search/learning's logistic fit).
constexpr int eval_classic_feature_count = 32;
constexpr int eval_shape_classes = cell_class_count - 1;
constexpr int eval_feature_count = eval_classic_feature_count + 2 * eval_shape_classes;
constexpr int eval_weight_scale = 64;
using EvalFeatures = std::array<int, eval_feature_count>;
void eval_features(const SearchBoard& board, EvalFeatures& features);
std::string eval_feature_name(int index);

struct FittedWeights {
    std::array<int, eval_feature_count> weight{};
};
// The weights shipped for a rule (engines/gomoku/nets/RULE.eval, built in), or nullptr where
// none were trained (the hand-made values then).
const FittedWeights* builtin_fitted_weights(Rule rule);
// A weights file: one "name value" line per feature (# comments), as train_gomoku_eval fit writes
// it; errors name `origin` (the file) and the line.
Expected<FittedWeights> parse_fitted_weights(std::string_view text, std::string_view origin);
Expected<FittedWeights> load_fitted_weights(const std::string& path);

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

    // Orders moves by this learned policy (nullptr: by the cells' pattern values).
    void set_policy(const policy::Policy* move_policy) { policy_ = move_policy; }
    // Fitted weights for every rule (by Rule index); a null entry keeps the hand-made values.
    void set_fitted(const std::array<const FittedWeights*, 3>& fitted) { fitted_ = fitted; }
    // The threat search asked inside alpha-beta (forced_win): positions it may visit per call
    // (0: none) and the threes a win may use (0: fours only).
    void set_threat_search(std::uint64_t nodes, int threes) {
        threat_nodes_ = nodes;
        threat_threes_ = threes;
    }
    // The fours quiescence tries per node (the best-ordered first).
    void set_quiescence_fours(int fours) { weights_.max_quiescence_fours = fours; }
    // A new tree search: what the threat searches proved about the last one's positions is kept
    // (still true), but bounded.
    void new_search() { vct_.forget(); }
    // A win by continuous fours or threes for the side to move, within the budget above.
    std::optional<search::ForcedWin<Move>> forced_win(SearchBoard& board);

    int evaluate(const SearchBoard& board) const;
    // evaluate() scores this position by its threats alone (a five to make or to block, an open
    // four), so neither the fitted weights nor the network see it.
    bool scored_by_threats(const SearchBoard& board) const { return threat_score(board).has_value(); }
    int order_hint(const SearchBoard& board, const Move& move) const;
    // Passing is safe only when neither side has a four or an open three to play.
    bool null_move_allowed(const SearchBoard& board) const;
    // A move that makes no three or four for the mover and stops none of the opponent's: late
    // move and futility pruning may skip it.
    bool is_quiet(const SearchBoard& board, const Move& move) const;
    void noisy_moves(const SearchBoard& board, MoveList<GomokuSearch>& moves) const;

private:
    // The score of a position its threats decide, or nothing.
    std::optional<int> threat_score(const SearchBoard& board) const;

    EvalWeights weights_;
    std::array<const FittedWeights*, 3> fitted_{};
    const policy::Policy* policy_ = nullptr;
    std::uint64_t threat_nodes_ = 0;
    int threat_threes_ = 0;
    VctSearch vct_;
};

}  // namespace bge::gomoku
