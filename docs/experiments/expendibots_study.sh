#!/usr/bin/env bash
# Reruns the Expendibots study reproduction of docs/experiments/expendibots.md through the arbiter.
#   docs/experiments/expendibots_study.sh BATCH [OUT_DIR]
#     BATCH: budget      alphabeta at the course budget (tc=60+0, GameTimeBudget) against random,
#                        greedy and minimax2, 20 games each
#            ablations   alphabeta variants against the default at 300000 nodes a move, 40 games each:
#                        no inverted quiescence, null move on, the hand-set weights instead of
#                        the TDLeaf ones
#            weights     the TDLeaf weights of lambda 0.3 against the hand-set ones
#            train       the TDLeaf(lambda) training runs (lambda 0.7: the built-in weights; 0.3)
# BIN (default build/bin) holds expendibots, arbiter and train_expendibots_tdleaf. Records and
# the engines' stderr go to OUT_DIR (default /tmp/expendibots_study);
# docs/experiments/expendibots_tally.py turns them into the tables' rows. One core throughout.
set -euo pipefail
BIN=${BIN:-build/bin}
OUT=${2:-/tmp/expendibots_study}
mkdir -p "$OUT"
E="$BIN/expendibots"
arbiter() { "$BIN/arbiter" -game expendibots -concurrency 1 "$@" >/dev/null 2>&1; }

case "${1:-}" in
budget)
    for opponent in random greedy minimax2; do
        rm -f "$OUT/budget_$opponent.log"
        arbiter -engine cmd="$E" name=alphabeta option.GameTimeBudget=true tc=60+0 \
                    stderr="$OUT/budget_${opponent}_stderr.txt" \
                -engine cmd="$E" name="$opponent" option.Player="$opponent" option.Seed=2 st=1 stderr=/dev/null \
                -rounds 10 -games 2 -pgnout "$OUT/budget_$opponent.log"
    done ;;
ablations | weights)
    # Each pair of games opens with the same 4 random actions (50 lines, seed 7), colours swapped.
    "$BIN/arbiter" book -game expendibots -plies 4 -count 50 -srand 7 -out "$OUT/book4.txt" 2>/dev/null
    "$BIN/train_expendibots_tdleaf" --games 0 --eval-games 1 --out "$OUT/hand_set.txt" >/dev/null
    pair() {  # NAME OPTION REFERENCE_NAME REFERENCE_OPTION: 40 games at 300000 nodes a move, books off
        rm -f "$OUT/$1.log"
        arbiter -engine cmd="$E" name="$1" "$2" -engine cmd="$E" name="$3" "$4" \
                -each nodes=300000 option.OwnBook=false stderr=/dev/null \
                -openings file="$OUT/book4.txt" format=moves -rounds 20 -games 2 -pgnout "$OUT/$1.log"
    }
    if [ "$1" = ablations ]; then
        pair no-quiescence option.Quiescence=false default option.Quiescence=true
        pair null-move option.NullMove=true default option.NullMove=false
        pair hand-set option.EvalWeights="$OUT/hand_set.txt" default option.Quiescence=true
    else
        "$BIN/train_expendibots_tdleaf" --games 4000 --lambda 0.3 --seed 1 --eval-every 0 --eval-games 1 \
            --out "$OUT/lambda03.txt" >/dev/null
        pair lambda0.3 option.EvalWeights="$OUT/lambda03.txt" hand-set option.EvalWeights="$OUT/hand_set.txt"
    fi ;;
train)
    "$BIN/train_expendibots_tdleaf" --games 4000 --eval-every 500 --eval-games 200 --lambda 0.7 --seed 1 \
        --out "$OUT/lambda07.txt" | tee "$OUT/train_lambda07.txt"
    "$BIN/train_expendibots_tdleaf" --games 4000 --eval-every 500 --eval-games 200 --lambda 0.3 --seed 1 \
        --out "$OUT/lambda03.txt" | tee "$OUT/train_lambda03.txt" ;;
*)
    echo "usage: $0 budget|ablations|weights|train [OUT_DIR]" >&2
    exit 2 ;;
esac
