#!/usr/bin/env bash
# The Gomoku pattern networks and move policies refitted to a strong engine's judgement (docs/gomoku.md, "Pattern
# network"; docs/experiments/gomoku-rapfi.md, seventh session):
#
#   tools/train/gomoku_teacher_pipeline.sh OUT_DIR [RULES]
#
# For each rule (default: freestyle standard renju), everything resumable (a step whose output is
# complete is skipped):
# 1. Games, arbiter matches from a book with their records:
#    - the teacher against an opponent (TEACHER_ROUNDS pairs of games, colours swapped);
#    - our engine against the teacher (CANDIDATE_ROUNDS pairs): the positions our play reaches.
# 2. Every position of them judged by the teacher at a fixed limit (arbiter analyse).
# 3. The judgements as one games file (train_gomoku_eval labels): the teacher's expected score of
#    every position, as centi-units.
# 4. The network fitted to the teacher's scores alone (--score-weight 1), from the shipped network
#    of the rule; every VALIDATION_EVERY-th game is held out, and the fit prints the shipped
#    network's and the fitted linear evaluation's loss on those positions beside its own: that
#    loss says whether the network is better. OUT_DIR/RULE.nnue is the network, to be copied into
#    engines/gomoku/nets/ to ship it (or tried with NnueFile).
# 5. The move policy fitted to the teacher's moves (the datasets' `best`), from the shipped policy
#    of the rule, with the same games held out: the fit prints the shipped policy's loss and top-1
#    agreement with the teacher on them beside its own. OUT_DIR/RULE.policy is the policy (ship it
#    the same way, or try it with PolicyFile).
#
# The teacher and the opponent are outside programs given by path, never part of this repository
# (Rapfi's and PentaZen's pbrain brains: TEACHER=/path/pbrain-rapfi TEACHER_PROTO=pbrain
# OPPONENT=/path/pbrain-pentazen OPPONENT_PROTO=pbrain); without them our own engine plays both
# parts. Matches and analysis run CONCURRENCY engines at once.
#
# Environment: BUILD_DIR (build), TEACHER (build/bin/gomoku), TEACHER_PROTO (ugi), TEACHER_LIMIT
# (st=0.1), OPPONENT (the teacher), OPPONENT_PROTO (the teacher's), BOOK_DIR
# (docs/experiments/gomoku-books), BOOK (RULE-balanced: the file RULE-balanced.txt there), START
# (41: the first opening; the strength matches use 1-15), GAME_LIMIT (st=0.2), TEACHER_ROUNDS
# (20), CANDIDATE_ROUNDS (20), CONCURRENCY (2), EPOCHS (10), LEARNING_RATE (0.001),
# VALIDATION_EVERY (4), POLICY_EPOCHS (20), POLICY_LEARNING_RATE (cosine:0.03:0.001), POLICY_L2
# (1e-4), EXTRA_LABELS (more analyse datasets to add, for every rule: their games of
# other rules are skipped).
set -euo pipefail
cd "$(dirname "$0")/../.."

out=${1:?usage: tools/train/gomoku_teacher_pipeline.sh OUT_DIR [RULES]}
rules=${2:-freestyle standard renju}
build=$(cd "${BUILD_DIR:-build}" && pwd)
teacher=${TEACHER:-$build/bin/gomoku}
teacher_proto=${TEACHER_PROTO:-ugi}
opponent=${OPPONENT:-$teacher}
opponent_proto=${OPPONENT_PROTO:-$teacher_proto}
book_dir=${BOOK_DIR:-docs/experiments/gomoku-books}
concurrency=${CONCURRENCY:-2}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# One match into OUT/NAME.txt, unless NAME.done says it is complete.
match() {
  local rule=$1 name=$2 rounds=$3
  shift 3
  [ "$rounds" -gt 0 ] || return 0
  [ -e "$out/$name.done" ] && return 0
  rm -f "$out/$name.txt"
  "$build/bin/arbiter" -game gomoku -rule "$rule" "$@" -each "${GAME_LIMIT:-st=0.2}" stderr=/dev/null \
    -games 2 -rounds "$rounds" -concurrency "$concurrency" -recover \
    -openings file="$book_dir/${BOOK:-$rule-balanced}.txt" format=moves order=sequential start="${START:-41}" \
    -pgnout "$out/$name.txt" >"$out/$name.log" 2>&1
  touch "$out/$name.done"
}

for rule in $rules; do
  book=${BOOK:-$rule-balanced}
  book=${book//RULE/$rule}
  BOOK=$book match "$rule" "$rule-teacher" "${TEACHER_ROUNDS:-20}" \
    -engine cmd="$teacher" name=teacher proto="$teacher_proto" -engine cmd="$opponent" name=opponent proto="$opponent_proto"
  BOOK=$book match "$rule" "$rule-candidate" "${CANDIDATE_ROUNDS:-20}" \
    -engine cmd="$build/bin/gomoku" name=candidate -engine cmd="$teacher" name=teacher proto="$teacher_proto"
  datasets=()
  for part in teacher candidate; do
    [ -s "$out/$rule-$part.txt" ] || continue
    data="$out/$rule-$part.jsonl"
    if [ ! -e "$data.done" ]; then
      resume=()
      if [ -s "$data" ]; then resume=(-resume); fi
      "$build/bin/arbiter" analyse -game gomoku -rule "$rule" \
        -engine cmd="$teacher" name=teacher proto="$teacher_proto" "${TEACHER_LIMIT:-st=0.1}" stderr=/dev/null \
        -data "$data" -concurrency "$concurrency" "${resume[@]}" "$out/$rule-$part.txt" >"$data.log" 2>&1
      touch "$data.done"
    fi
    datasets+=("$data")
  done
  # shellcheck disable=SC2206 # a list of files
  datasets+=(${EXTRA_LABELS:-})
  "$build/bin/train_gomoku_eval" labels --data "${datasets[@]}" --out "$out/$rule-games.txt" 2>"$out/$rule-labels.log"
  "$build/bin/train_gomoku_eval" network --games "$out/$rule-games.txt" --rule "$rule" --hidden 32 \
    --init "engines/gomoku/nets/$rule.nnue" --score-weight 1 --epochs "${EPOCHS:-10}" \
    --learning-rate "${LEARNING_RATE:-0.001}" --validation-every "${VALIDATION_EVERY:-4}" --shards 2 \
    --threads "$concurrency" --description "$rule: the shipped network refitted to a teacher's judgement" \
    --curve "$out/$rule.csv" --out "$out/$rule.nnue" | tee "$out/$rule-fit.log" | grep -v '^epoch'
  "$build/bin/train_gomoku_eval" policy --labels "${datasets[@]}" --rule "$rule" \
    --init "engines/gomoku/nets/$rule.policy" --epochs "${POLICY_EPOCHS:-20}" \
    --learning-rate "${POLICY_LEARNING_RATE:-cosine:0.03:0.001}" --l2 "${POLICY_L2:-1e-4}" \
    --validation-every "${VALIDATION_EVERY:-4}" --threads "$concurrency" \
    --origin "$rule: the shipped policy refitted to a teacher's moves" \
    --curve "$out/$rule-policy.csv" --out "$out/$rule.policy" 2>"$out/$rule-policy.err" |
    tee "$out/$rule-policy-fit.log" | grep -v '^epoch'
done
