#!/usr/bin/env bash
# Reruns the measurements of docs/experiments/ur.md.
#   docs/experiments/ur_study.sh STEP [OUT_DIR]
#     STEP: solve      ur solve for Finkel with 7 pieces (/usr/bin/time -v: time and peak memory)
#           train      the TD(lambda) training run whose network ships in engines/ur/td_weights.cpp
#           matches    td vs expectimax, td vs perfect, expectimax vs perfect: 10000 games each,
#                      seeded dice, one core (expectimax at depth 2)
#           matches3   expectimax at depth 3 against perfect and against td
#           selfcheck  perfect against perfect
#           regret     td's mean regret per move against the solver table
# BIN (default build/bin) holds ur, arbiter and train_ur_td. Everything goes to OUT_DIR (default
# /tmp/ur); the 551 MB table is OUT_DIR/finkel7.table and is never committed.
set -euo pipefail
BIN=${BIN:-build/bin}
OUT=${2:-/tmp/ur}
mkdir -p "$OUT"
U="$BIN/ur"
TABLE="$OUT/finkel7.table"
match() {  # name1 options1 name2 options2
    "$BIN/arbiter" -game ur -ruleset finkel -concurrency 1 -timeouts ping=0 \
        -engine cmd="$U" name="$1" $2 -engine cmd="$U" name="$3" $4 -each stderr=/dev/null \
        -rounds 5000 -games 2 -srand 2026 -pgnout "$OUT/$1_vs_$3.pgn" -jsonout "$OUT/$1_vs_$3.json" \
        > "$OUT/$1_vs_$3.txt" 2>&1
}

case "${1:-}" in
solve)
    nice -n 5 /usr/bin/time -v "$U" solve --ruleset finkel --pieces 7 --out "$TABLE" \
        > "$OUT/solve7.out" 2> "$OUT/solve7.log" ;;
train)
    nice -n 5 "$BIN/train_ur_td" --episodes 300000 --alpha 0.01 --lambda 0.85 --hidden 80 --seed 1 \
        --eval-every 10000 --eval-games 2000 --out "$OUT/td_weights.txt" --cpp "$OUT/td_weights.cpp" \
        --curve "$OUT/td_curve.csv" > "$OUT/train.out" ;;
matches)
    match td "option.Player=td depth=2" expectimax "depth=2"
    match td "option.Player=td depth=2" perfect "option.Player=perfect option.TablePath=$TABLE depth=1"
    match expectimax "depth=2" perfect "option.Player=perfect option.TablePath=$TABLE depth=1" ;;
matches3)  # expectimax at its default depth, 3
    match expectimax3 "depth=3" perfect "option.Player=perfect option.TablePath=$TABLE depth=1"
    match td "option.Player=td depth=2" expectimax3 "depth=3" ;;
selfcheck)  # perfect against perfect: Light's share should match the solved value
    match perfectA "option.Player=perfect option.TablePath=$TABLE depth=1" \
          perfectB "option.Player=perfect option.TablePath=$TABLE depth=1" ;;
regret)
    "$BIN/train_ur_td" --regret-table "$TABLE" --regret-games 2000 --seed 7 > "$OUT/regret.txt" ;;
*)
    sed -n '2,12p' "$0"; exit 2 ;;
esac
