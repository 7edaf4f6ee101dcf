#!/usr/bin/env bash
# Reruns the matches of docs/experiments/tak-eval.md through the arbiter.
#
#   docs/experiments/tak_eval_matches.sh BATCH [OUT_DIR]
#
# BATCH:
#   books              the balanced books (sizes 5, 6, 7) the matches open from, made with REF
#   reference SIZE TC  the build against REF: 200 pairs of games at TC on SIZE (e.g. 6 10+0.1)
#   sprt TC            the build against REF on 6x6 with an SPRT (elo0 200, elo1 300); against
#                      a far weaker REF its LLR stays 0 (tak-eval.md, "Noticed"): use reference
#   option NAME=VALUE  the build with NAME=VALUE against the build's defaults, 100 pairs at 3+0.03
#   mcts               Player=mcts (Threads=1) against alphabeta, 50 pairs at 3+0.03
#
# BIN (default build/bin) holds tak and arbiter; REF is the reference engine (commit aef432e,
# default ref/build/bin/tak). Two games run at once (-concurrency 2): with anything else busy on
# the machine, timed results are unfair to neither side but noisier.
set -euo pipefail
BIN=${BIN:-build/bin}
REF=${REF:-ref/build/bin/tak}
OUT=${2:-/tmp/tak_eval_matches}
mkdir -p "$OUT"
TAK="$BIN/tak"
book() { echo "$OUT/book$1.txt"; }
match() {  # match SIZE TC PAIRS NAME ENGINE_A ENGINE_B [extra arbiter flags]
    local size=$1 tc=$2 pairs=$3 name=$4 a=$5 b=$6
    shift 6
    "$BIN/arbiter" -game tak -size "$size" -komi 2 -engine $a -engine $b -each tc="$tc" stderr=/dev/null \
        -openings file="$(book "$size")" format=moves order=random -srand 1 -rounds "$pairs" -games 2 \
        -concurrency 2 -pgnout "$OUT/$name.ptn" "$@" >"$OUT/$name.txt" 2>&1 || true
    grep -A5 "^Results of" "$OUT/$name.txt" | head -6
}

case "${1:-}" in
books)
    for size in 5 6 7; do
        "$BIN/arbiter" book -game tak -size "$size" -komi 2 -plies 4 -count 400 -srand "$size" \
            -engine cmd="$REF" depth=5 stderr=/dev/null -maxeval 60 -out "$(book "$size")"
    done ;;
reference)
    size=${3:?size}; tc=${4:?time control}
    match "$size" "$tc" 200 "reference_${size}_${tc}" "cmd=$TAK name=new" "cmd=$REF name=aef432e" ;;
sprt)
    tc=${3:?time control}
    match 6 "$tc" 2000 "sprt_6_${tc}" "cmd=$TAK name=new" "cmd=$REF name=aef432e" \
        -sprt elo0=200 elo1=300 alpha=0.05 beta=0.05 ;;
option)
    setting=${3:?NAME=VALUE}
    match 6 3+0.03 100 "option_${setting}" "cmd=$TAK name=${setting} option.${setting}" "cmd=$TAK name=default" ;;
mcts)
    match 6 3+0.03 50 "mcts" "cmd=$TAK name=mcts option.Player=mcts option.Threads=1" "cmd=$TAK name=alphabeta" ;;
*)
    sed -n '2,18p' "$0"
    exit 2 ;;
esac
