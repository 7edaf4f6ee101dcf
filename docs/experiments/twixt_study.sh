#!/usr/bin/env bash
# Reruns the TwixT measurements of docs/experiments/twixt.md through the arbiter.
#   docs/experiments/twixt_study.sh BATCH [GAMES] [OUT_DIR]   BATCH: study | target
# BIN (default build/bin) holds twixt and arbiter. Each cell's log and records go to OUT_DIR
# (default /tmp/twixt_study). Everything runs with -concurrency 1 and one search thread: one core.
set -euo pipefail
BIN=${BIN:-build/bin}
GAMES=${2:-20}
OUT=${3:-/tmp/twixt_study}
mkdir -p "$OUT"
TWIXT="$BIN/twixt"
ROUNDS=$((GAMES / 2))

# cell NAME SIZE ENGINE-A-ARGS -- ENGINE-B-ARGS: GAMES games, half with each colour.
cell() {
    local name=$1 size=$2; shift 2
    local a=() b=() in_b=0
    for word in "$@"; do
        if [ "$word" = "--" ]; then in_b=1; continue; fi
        if [ $in_b = 1 ]; then b+=("$word"); else a+=("$word"); fi
    done
    nice -n 5 "$BIN/arbiter" -game twixt -size "$size" -concurrency 1 -srand 11 \
        -engine cmd="$TWIXT" "${a[@]}" -engine cmd="$TWIXT" "${b[@]}" \
        -each stderr=/dev/null timemargin=500 -rounds "$ROUNDS" -games 2 -pgnout "$OUT/$name.pgn" >"$OUT/$name.log" 2>&1
    grep -E '^Score of' "$OUT/$name.log" | tail -1
}

case "${1:-}" in
study)  # the study's agents against each other, by iterations (not time)
    cell minimax_vs_flat_8 8 name=minimax option.Player=minimax option.MinimaxDepth=3 depth=3 -- \
        name=flat-mc option.Player=flat-mc option.FlatMcPlayouts=100 depth=1
    for size in 8 12; do
        cell knight_vs_flat10x_$size "$size" name=mcts-knight option.Player=mcts-knight nodes=1000 -- \
            name=flat-mc-10x option.Player=flat-mc nodes=10000
    done
    cell knight_vs_minimax_8 8 name=mcts-knight option.Player=mcts-knight nodes=1000 -- \
        name=minimax option.Player=minimax option.MinimaxDepth=3 depth=3
    ;;
target)  # the strong player against each study agent (and OpenSpiel's MCTS, `uct`) at 1 s a move
    for size in 8 12; do
        for opponent in flat-mc mcts-knight minimax uct; do
            cell "strong_vs_${opponent}_$size" "$size" name=mcts st=1 -- name="$opponent" option.Player="$opponent" st=1
        done
    done
    ;;
*)
    echo "usage: $0 study|target [GAMES] [OUT_DIR]" >&2
    exit 2
    ;;
esac
