#!/usr/bin/env bash
# The strength matches of issue 43 (docs/experiments/threads.md): an engine at Threads 2 against
# itself at Threads 1, one game at a time, so that on a 2-core machine each engine has both cores
# while it thinks. Nothing else may run on the machine meanwhile.
#
#   docs/experiments/threads_matches.sh tak|gomoku [OUT_DIR]
#
# tak:    6x6, komi 2, 10+0.1, racetrack's balanced 6x6 book (BOOK, default
#         ../shared/books/6s_4ply_balanced_openings.txt) in random order, colours swapped.
# gomoku: the default player (PUCT), freestyle, 1 s a move, the balanced freestyle book of
#         docs/experiments/gomoku-books, colours swapped.
# Both: SPRT elo0 0, elo1 60 (alpha = beta = 0.05), at most 400 games. A killed run goes on with
#   build/bin/arbiter -resume OUT_DIR/GAME.state
set -euo pipefail
BIN=${BIN:-build/bin}
GAME=${1:?tak or gomoku}
OUT=${2:-/tmp/threads_matches}
mkdir -p "$OUT"
common=(-rounds 200 -games 2 -concurrency 1 -sprt elo0=0 elo1=60 alpha=0.05 beta=0.05
        -pgnout "$OUT/$GAME.record" -state "$OUT/$GAME.state" -jsonout "$OUT/$GAME.json")
case "$GAME" in
tak)
    BOOK=${BOOK:-../shared/books/6s_4ply_balanced_openings.txt}
    "$BIN/arbiter" -game tak -size 6 -komi 2 \
        -engine cmd="$BIN/tak" name=threads2 option.Threads=2 -engine cmd="$BIN/tak" name=threads1 option.Threads=1 \
        -each tc=10+0.1 stderr=/dev/null \
        -openings file="$BOOK" format=moves order=random "${common[@]}" ;;
gomoku)
    "$BIN/arbiter" -game gomoku -rule freestyle \
        -engine cmd="$BIN/gomoku" name=threads2 option.Threads=2 -engine cmd="$BIN/gomoku" name=threads1 option.Threads=1 \
        -each st=1 stderr=/dev/null \
        -openings file=docs/experiments/gomoku-books/freestyle-balanced.txt format=moves order=sequential \
        "${common[@]}" ;;
*) echo "threads_matches.sh: the game is tak or gomoku, not '$GAME'" >&2; exit 2 ;;
esac
