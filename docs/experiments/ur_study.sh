#!/usr/bin/env bash
# Reruns the measurements of docs/experiments/ur.md.
#   docs/experiments/ur_study.sh STEP [OUT_DIR]
#     STEP: solve        ur solve for the three rulesets (Finkel 7, Masters 7, Blitz 5 pieces), with
#                        /usr/bin/time -v (time and peak memory)
#           train-finkel, train-masters, train-blitz
#                        the training runs whose networks ship in engines/ur/nets/<ruleset>.net
#                        (copy OUT/<ruleset>.net there; 2 threads; needs the ruleset's table from `solve`)
#           targets      the training targets side by side (table, td, td-table, table with
#                        --siblings), Finkel, 40,000 games each, one thread each
#           old-trainer  builds the trainer as it was before issue 18 (commit 46ff97f) in OUT/old
#           speed        training speed: the old trainer and the shipped configuration, alternately,
#                        three times each, one thread
#           regret       regret against each table: td at depths 1-3, expectimax at depth 3, perfect;
#                        the study's network on Finkel (with old-trainer)
#           matches      Finkel: td (depth 3) against perfect, 10,000 games, and against expectimax;
#                        Masters and Blitz: td against expectimax and against perfect, expectimax
#                        against perfect, 2,000 games each
# BIN (default build/bin) holds ur, arbiter and train_ur_td. Everything goes to OUT_DIR (default
# /tmp/ur); the tables (OUT_DIR/<ruleset><pieces>.table, up to 2 GB) are never committed.
set -euo pipefail
BIN=${BIN:-build/bin}
OUT=${2:-/tmp/ur}
mkdir -p "$OUT"
U="$BIN/ur"
T="$BIN/train_ur_td"
table() { case "$1" in finkel) echo "$OUT/finkel7.table" ;; masters) echo "$OUT/masters7.table" ;; blitz) echo "$OUT/blitz5.table" ;; esac; }
match() {  # ruleset games name1 options1 name2 options2
    "$BIN/arbiter" -game ur -ruleset "$1" -concurrency 2 -timeouts ping=0 \
        -engine cmd="$U" name="$3" $4 -engine cmd="$U" name="$5" $6 -each stderr=/dev/null \
        -rounds $(($2 / 2)) -games 2 -srand 2026 -pgnout "$OUT/$1_$3_vs_$5.pgn" -jsonout "$OUT/$1_$3_vs_$5.json" \
        > "$OUT/$1_$3_vs_$5.txt" 2>&1
}
train() {  # ruleset games
    local r=$1
    nice -n 5 "$T" --ruleset "$r" --teacher "$(table "$r")" --target table --episodes "$2" \
        --hidden 256 --hidden2 64 --alpha cosine:0.002:0.00005 --threads 2 --seed 1 \
        --eval-every $(($2 / 10)) --eval-games 1000 --eval-regret-games 500 \
        --out "$OUT/$r.net" --curve "$OUT/${r}_curve.csv" > "$OUT/train_$r.out"
}

case "${1:-}" in
solve)
    for spec in finkel:7 masters:7 blitz:5; do
        r=${spec%:*} p=${spec#*:}
        nice -n 5 /usr/bin/time -v "$U" solve --ruleset "$r" --pieces "$p" --out "$OUT/$r$p.table" \
            > "$OUT/solve_$r$p.out" 2> "$OUT/solve_$r$p.log"
    done ;;
train-finkel) train finkel 1000000 ;;
train-masters) train masters 300000 ;;
train-blitz) train blitz 300000 ;;
targets)  # Finkel, 40,000 games each, the default 128-32 network, one thread, two runs at a time
    C="--teacher $(table finkel) --episodes 40000 --alpha cosine:0.002:0.00005 --seed 1 --eval-every 10000"
    C="$C --eval-games 1000 --eval-regret-games 500"
    "$T" $C --target table > "$OUT/target_table.txt" &
    "$T" $C --target td > "$OUT/target_td.txt"
    wait
    "$T" $C --target td-table > "$OUT/target_td-table.txt" &
    "$T" $C --target table --siblings > "$OUT/target_table_siblings.txt"
    wait ;;
old-trainer)
    rm -rf "$OUT/old" && mkdir -p "$OUT/old/src"
    git archive 46ff97f | tar -x -C "$OUT/old/src"
    cmake -S "$OUT/old/src" -B "$OUT/old/build" -DCMAKE_BUILD_TYPE=Release > /dev/null
    cmake --build "$OUT/old/build" -j1 --target train_ur_td > /dev/null ;;
speed)
    for i in 1 2 3; do
        /usr/bin/time -f "old cpu %U s" "$OUT/old/build/bin/train_ur_td" --episodes 20000 --eval-every 20000 \
            --eval-games 2 2>&1 | tail -2
        "$T" --teacher "$(table finkel)" --target table --episodes 20000 --hidden 256 --hidden2 64 \
            --alpha cosine:0.002:0.00005 --eval-every 20000 --eval-games 2 --eval-regret-games 0 | tail -1
    done > "$OUT/speed.txt" ;;
regret)
    for r in finkel masters blitz; do
        for d in 1 2 3; do
            "$T" --regret-table "$(table "$r")" --regret-games 1000 --regret-depth $d --seed 7 --threads 2
        done > "$OUT/regret_${r}_td.txt"
        "$T" --regret-table "$(table "$r")" --regret-games 1000 --regret-player expectimax --regret-depth 3 \
            --seed 7 --threads 2 > "$OUT/regret_${r}_expectimax.txt"
        "$T" --regret-table "$(table "$r")" --regret-games 100 --regret-player perfect --seed 7 \
            > "$OUT/regret_${r}_perfect.txt"
    done
    # The study's network with the trainer of its time (old-trainer), 2-ply as it played.
    "$OUT/old/build/bin/train_ur_td" --regret-table "$(table finkel)" --regret-games 1000 --seed 7 \
        > "$OUT/regret_finkel_study.txt" ;;
matches)  # td and expectimax at depth 3, the engine's default when no clock is given
    P="option.Player=perfect depth=1"
    match finkel 10000 td "option.Player=td depth=3" perfect "$P option.TablePath=$(table finkel)"
    match finkel 2000 td "option.Player=td depth=3" expectimax "option.Player=expectimax depth=3"
    for r in masters blitz; do
        match $r 2000 td "option.Player=td depth=3" expectimax "option.Player=expectimax depth=3"
        match $r 2000 td "option.Player=td depth=3" perfect "$P option.TablePath=$(table $r)"
        match $r 2000 expectimax "option.Player=expectimax depth=3" perfect "$P option.TablePath=$(table $r)"
    done ;;
*)
    sed -n '2,20p' "$0"; exit 2 ;;
esac
