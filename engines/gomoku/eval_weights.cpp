// The fitted evaluation weights the engine ships, per rule: written by
// `train_gomoku_eval cpp` from the weights files of tools/train/gomoku_eval_pipeline.sh
// (docs/experiments/gomoku-eval.md gives the run). Do not edit by hand.
#include "engines/gomoku/evaluation.hpp"

namespace bge::gomoku {

namespace {

const FittedWeights freestyle_weights{{
    -37,  // mover_one
    12,  // mover_two
    -101,  // mover_flex2
    620,  // mover_three
    -44,  // mover_flex3
    1041,  // mover_four
    626,  // mover_flex4
    10199,  // mover_five
    587,  // mover_threat_flex3
    1342,  // mover_threat_four
    -6316,  // mover_threat_double_three
    -3457,  // mover_threat_four_three
    -7609,  // mover_threat_double_four
    646,  // mover_threat_flex4
    10199,  // mover_threat_five
    30,  // opponent_one
    0,  // opponent_two
    22,  // opponent_flex2
    -636,  // opponent_three
    -283,  // opponent_flex3
    -1312,  // opponent_four
    -937,  // opponent_flex4
    613,  // opponent_five
    -497,  // opponent_threat_flex3
    -1455,  // opponent_threat_four
    2492,  // opponent_threat_double_three
    -1573,  // opponent_threat_four_three
    7241,  // opponent_threat_double_four
    -946,  // opponent_threat_flex4
    613,  // opponent_threat_five
    180,  // mover_value_sum
    -89,  // opponent_value_sum
}};

const FittedWeights standard_weights{{
    -95,  // mover_one
    16,  // mover_two
    -190,  // mover_flex2
    490,  // mover_three
    -31,  // mover_flex3
    1382,  // mover_four
    313,  // mover_flex4
    11097,  // mover_five
    560,  // mover_threat_flex3
    1771,  // mover_threat_four
    -5731,  // mover_threat_double_three
    -4279,  // mover_threat_four_three
    -8005,  // mover_threat_double_four
    370,  // mover_threat_flex4
    11097,  // mover_threat_five
    88,  // opponent_one
    -14,  // opponent_two
    113,  // opponent_flex2
    -466,  // opponent_three
    -272,  // opponent_flex3
    -1582,  // opponent_four
    -806,  // opponent_flex4
    262,  // opponent_five
    -431,  // opponent_threat_flex3
    -1728,  // opponent_threat_four
    2189,  // opponent_threat_double_three
    -1127,  // opponent_threat_four_three
    5249,  // opponent_threat_double_four
    -830,  // opponent_threat_flex4
    262,  // opponent_threat_five
    178,  // mover_value_sum
    -96,  // opponent_value_sum
}};

const FittedWeights renju_weights{{
    -75,  // mover_one
    -8,  // mover_two
    -233,  // mover_flex2
    483,  // mover_three
    122,  // mover_flex3
    1629,  // mover_four
    1448,  // mover_flex4
    14473,  // mover_five
    269,  // mover_threat_flex3
    1593,  // mover_threat_four
    -3284,  // mover_threat_double_three
    7602,  // mover_threat_four_three
    -10977,  // mover_threat_double_four
    1481,  // mover_threat_flex4
    14473,  // mover_threat_five
    74,  // opponent_one
    36,  // opponent_two
    222,  // opponent_flex2
    -422,  // opponent_three
    -169,  // opponent_flex3
    -1513,  // opponent_four
    -909,  // opponent_flex4
    -2134,  // opponent_five
    -132,  // opponent_threat_flex3
    -1529,  // opponent_threat_four
    2180,  // opponent_threat_double_three
    -5347,  // opponent_threat_four_three
    8676,  // opponent_threat_double_four
    -939,  // opponent_threat_flex4
    -2134,  // opponent_threat_five
    78,  // mover_value_sum
    -55,  // opponent_value_sum
}};

}  // namespace

const FittedWeights* builtin_fitted_weights(Rule rule) {
    switch (rule) {
        case Rule::freestyle:
            return &freestyle_weights;
        case Rule::standard:
            return &standard_weights;
        case Rule::renju:
            return &renju_weights;
    }
    return nullptr;
}

}  // namespace bge::gomoku
