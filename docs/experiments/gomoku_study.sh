#!/usr/bin/env bash
# Reruns the Gomoku study reproduction of docs/experiments/gomoku.md through the arbiter.
#   docs/experiments/gomoku_study.sh BATCH [OUT_DIR]   BATCH: roundrobin | time | depth | exploration | strong
# BIN (default build/bin) holds gomoku and arbiter. Records go to OUT_DIR (default
# /tmp/gomoku_study), one file per cell; docs/experiments/gomoku_tally.py turns them into rows.
# Everything runs with -concurrency 1 and Workers=1: one core. 15x15 freestyle throughout.
set -euo pipefail
BIN=${BIN:-build/bin}
OUT=${2:-/tmp/gomoku_study}
mkdir -p "$OUT"
GOMOKU="$BIN/gomoku"
arbiter() { "$BIN/arbiter" -game gomoku -concurrency 1 "$@" >/dev/null 2>&1; }

# One setting of mcts-vanilla against the reference (1000 iterations, MaxDepth 10, C 1.0):
# 100 games, 50 with each colour.
against_reference() {
    local file="$OUT/$1.txt"; shift
    rm -f "$file"
    arbiter -engine cmd="$GOMOKU" name=test option.Seed=1 "$@" \
        -engine cmd="$GOMOKU" name=reference option.Seed=2 nodes=1000 \
        -each option.Player=mcts-vanilla option.Workers=1 stderr=/dev/null -rounds 50 -games 2 -pgnout "$file"
}

case "${1:-}" in
roundrobin)  # the three agents, 1000 iterations a move: 100 games per ordered pair
    file="$OUT/roundrobin.txt"; rm -f "$file"
    arbiter -engine cmd="$GOMOKU" name=vanilla option.Player=mcts-vanilla option.Seed=1 \
        -engine cmd="$GOMOKU" name=shaping option.Player=mcts-shaping option.Seed=2 \
        -engine cmd="$GOMOKU" name=prior option.Player=mcts-prior option.Seed=3 \
        -each nodes=1000 option.Workers=1 stderr=/dev/null -rounds 100 -games 2 -pgnout "$file" ;;
time)  # iterations per move (the search budget)
    for n in 250 500 2000 4000; do against_reference "time_$n" nodes="$n"; done ;;
depth)  # deepest ply of selection
    for d in 1 2 3 5; do against_reference "depth_$d" nodes=1000 option.MaxDepth="$d"; done ;;
exploration)  # the UCT constant C, in hundredths
    for c in 25 50 141 200 400; do against_reference "c_$c" nodes=1000 option.Exploration="$c"; done ;;
strong)  # the default player against each agent at 1 s a move, and at 0.2 s with more games
    for agent in mcts-vanilla mcts-shaping mcts-prior; do
        file="$OUT/strong_1s_$agent.txt"; rm -f "$file"
        arbiter -engine cmd="$GOMOKU" name=alphabeta \
            -engine cmd="$GOMOKU" name="$agent" option.Player="$agent" option.Workers=1 \
            -each st=1 timemargin=200 stderr=/dev/null -rounds 10 -games 2 -pgnout "$file"
        file="$OUT/strong_02s_$agent.txt"; rm -f "$file"
        arbiter -engine cmd="$GOMOKU" name=alphabeta \
            -engine cmd="$GOMOKU" name="$agent" option.Player="$agent" option.Workers=1 \
            -each st=0.2 timemargin=100 stderr=/dev/null -rounds 25 -games 2 -pgnout "$file"
    done ;;
*)
    echo "usage: $0 roundrobin|time|depth|exploration|strong [OUT_DIR]" >&2
    exit 2 ;;
esac
