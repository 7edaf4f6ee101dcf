// The fitted evaluation weights the engine ships, per rule (train_gomoku_eval fit --cpp writes
// these tables; docs/experiments/gomoku-eval.md gives the run). nullptr: none trained yet.
#include "engines/gomoku/evaluation.hpp"

namespace bge::gomoku {

const FittedWeights* builtin_fitted_weights(Rule) { return nullptr; }

}  // namespace bge::gomoku
