#!/usr/bin/env bash
# The final measurement of issue 16: the default player of this commit against the reference
# (4a99d0a), every rule, 0.2 s a move, no time margin, openings 101-275 of the rule's book.
# usage: docs/experiments/gomoku_final_match.sh REF_BINARY [OUT_DIR]   (from the repository root)
set -euo pipefail
NEW=${NEW:-build/bin/gomoku}
REF=${1:?the reference engine, built from commit 4a99d0a}
OUT=${2:-.}
for rule in ${RULES:-standard renju freestyle}; do
  build/bin/arbiter -game gomoku -rule $rule \
    -engine cmd=$NEW name=new -engine cmd=$REF name=ref \
    -each st=0.2 stderr=/dev/null -games 2 -rounds 175 -concurrency 2 -recover \
    -openings file=docs/experiments/gomoku-books/$rule.txt format=moves order=sequential start=101 \
    -ratinginterval 50 -pgnout $OUT/final-$rule.pgn -jsonout $OUT/final-$rule.json \
    > $OUT/final-$rule.log 2>&1
done
