#!/usr/bin/env bash
# Reruns the Tak study reproduction of docs/experiments/tak.md through the arbiter.
#   docs/experiments/tak_study.sh BATCH [OUT_DIR]     BATCH: baselines | mcts-params | rollouts | sarsa
# BIN (default build/bin) holds tak and arbiter. Records go to OUT_DIR (default /tmp/tak_study),
# one PTN file per cell; docs/experiments/tak_tally.py turns them into the tables' rows.
# Everything runs with -concurrency 1 and RolloutThreads=1: one core.
set -euo pipefail
BIN=${BIN:-build/bin}
OUT=${2:-/tmp/tak_study}
mkdir -p "$OUT"
TAK="$BIN/tak"
arbiter() { "$BIN/arbiter" -concurrency 1 "$@" >/dev/null 2>&1; }

case "${1:-}" in
baselines)  # 1000 games per cell: the same agent on both sides, seeds 1 and 2
    for size in 3 4 5; do
        for agent in random weighted-random; do
            file="$OUT/${agent}_${size}.ptn"; rm -f "$file"
            arbiter -size "$size" \
                -engine cmd="$TAK" name=a option.Player="$agent" option.Seed=1 \
                -engine cmd="$TAK" name=b option.Player="$agent" option.Seed=2 \
                -each nodes=1 stderr=/dev/null -rounds 500 -games 2 -pgnout "$file"
        done
    done ;;
mcts-params)  # mcts-study (100 iterations) against random on 5x5, 100 games per cell
    for epsilon in 50 100 300; do
        for runs in 1 4 8; do
            file="$OUT/mcts_e${epsilon}_r${runs}.ptn"; rm -f "$file"
            arbiter -size 5 \
                -engine cmd="$TAK" name=mcts option.Player=mcts-study option.MctsEpsilon="$epsilon" \
                    option.RolloutRuns="$runs" option.RolloutThreads=1 \
                -engine cmd="$TAK" name=random option.Player=random option.Seed=2 \
                -each nodes=100 stderr=/dev/null -rounds 50 -games 2 -pgnout "$file"
        done
    done ;;
rollouts)  # mcts-study against mcts-study with other rollout policies: 5x5, 200 iterations, 60 games
    for pair in random:weighted random:sarsa weighted:sarsa; do
        first=${pair%:*}; second=${pair#*:}
        file="$OUT/rollouts_${first}_${second}.ptn"; rm -f "$file"
        arbiter -size 5 \
            -engine cmd="$TAK" name="$first" option.RolloutPolicy="$first" option.Seed=1 \
            -engine cmd="$TAK" name="$second" option.RolloutPolicy="$second" option.Seed=2 \
            -each option.Player=mcts-study option.RolloutThreads=1 nodes=200 stderr=/dev/null \
            -rounds 30 -games 2 -pgnout "$file"
    done ;;
sarsa)  # the sarsa agent (built-in weights) against the others, 100 games per cell
    for size in 4 5; do
        for opponent in random weighted-random; do
            file="$OUT/sarsa_${opponent}_${size}.ptn"; rm -f "$file"
            arbiter -size "$size" \
                -engine cmd="$TAK" name=sarsa option.Player=sarsa option.Seed=1 \
                -engine cmd="$TAK" name="$opponent" option.Player="$opponent" option.Seed=2 \
                -each nodes=1 stderr=/dev/null -rounds 50 -games 2 -pgnout "$file"
        done
        file="$OUT/sarsa_mcts_${size}.ptn"; rm -f "$file"
        arbiter -size "$size" \
            -engine cmd="$TAK" name=sarsa option.Player=sarsa option.Seed=1 \
            -engine cmd="$TAK" name=mcts option.Player=mcts-study option.RolloutThreads=1 option.Seed=2 \
            -each nodes=100 stderr=/dev/null -rounds 50 -games 2 -pgnout "$file"
    done ;;
*)
    echo "usage: $0 baselines|mcts-params|rollouts|sarsa [OUT_DIR]" >&2
    exit 2 ;;
esac
