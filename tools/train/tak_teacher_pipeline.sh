#!/usr/bin/env bash
# One generation of the Tak evaluation learnt from a strong engine's judgement, DAgger-style
# (docs/experiments/tak-tiltak.md, "Teacher data"):
#
#   tools/train/tak_teacher_pipeline.sh OUT_DIR GENERATION
#
# 1. Games, each an arbiter match from a balanced book with its PTN records (resumable):
#    - the teacher against itself (TEACHER_GAMES),
#    - the candidate against the teacher (CANDIDATE_GAMES): where the teacher exploits it,
#    - the candidate against itself (SELF_GAMES).
#    The candidate is our engine with the previous generation's weights (the built-in ones for
#    generation 1). Games of a match against the teacher played elsewhere (a strength match)
#    are added with EXTRA_RECORDS="a.ptn b.ptn".
# 2. Every position of them labelled by the teacher at a fixed limit (arbiter analyse, resumable).
# 3. The labels of every generation so far as one games file (train_tak_eval labels): the
#    positions the model must judge grow with each candidate's games.
# 4. The linear evaluation fitted to them (train_tak_eval fit, from the previous weights), and
#    validated on this generation's teacher-against-teacher games, which no candidate played:
#    that loss, not the training loss, says whether the weights are better.
# Everything lands in OUT_DIR/genN; OUT_DIR/genN/weights.txt is the EvalFile of the new candidate.
#
# The teacher is an outside program given by path, never part of this repository (Tiltak:
# TEACHER=/path/to/tei TEACHER_SCALE=tiltak). Without TEACHER our own engine teaches, which is how
# CI runs this script (tests/train/tak_teacher_pipeline_test.sh).
#
# Environment: BUILD_DIR (build), TEACHER (build/bin/tak), TEACHER_LIMIT (nodes=20000),
# TEACHER_SCALE (logistic:200; tiltak for Tiltak), SIZE (6), KOMI (2), BOOK (racetrack's balanced
# book of the size, from ../shared/books), GAME_LIMIT (tc=2+0.05: the games only need to be the
# engines' own), TEACHER_GAMES, CANDIDATE_GAMES, SELF_GAMES (100 each), CONCURRENCY (2), SCORE_WEIGHT (0.75:
# the teacher's share of the target, the game's result the rest), EPOCHS (20).
set -euo pipefail
cd "$(dirname "$0")/../.."

out=${1:?usage: tools/train/tak_teacher_pipeline.sh OUT_DIR GENERATION}
generation=${2:?usage: tools/train/tak_teacher_pipeline.sh OUT_DIR GENERATION}
build=$(cd "${BUILD_DIR:-build}" && pwd)
size=${SIZE:-6}
komi=${KOMI:-2}
game_limit=${GAME_LIMIT:-tc=2+0.05}
limit=${TEACHER_LIMIT:-nodes=20000}
teacher_scale=${TEACHER_SCALE:-logistic:200}
concurrency=${CONCURRENCY:-2}
score_weight=${SCORE_WEIGHT:-0.75}
epochs=${EPOCHS:-20}
trainer="$build/bin/train_tak_eval"
arbiter="$build/bin/arbiter"
engine="$build/bin/tak"
teacher=${TEACHER:-$engine}
book=${BOOK:-$PWD/../shared/books/${size}s_4ply_balanced_openings.txt}
for program in "$trainer" "$arbiter" "$engine" "$teacher"; do
  [ -x "$program" ] || { echo "tak_teacher_pipeline: $program is missing (build with tools/setup.sh, or set TEACHER)" >&2; exit 1; }
done
[ -s "$book" ] || { echo "tak_teacher_pipeline: no book at $book (set BOOK)" >&2; exit 1; }
dir="$out/gen$generation"
mkdir -p "$dir"
log="$dir/pipeline.log"
echo "tak_teacher_pipeline: $(date -u +%FT%TZ) generation $generation, teacher $teacher ($limit, $teacher_scale), ${size}x$size komi $komi" | tee -a "$log"

# The candidate: the previous generation's weights, or the built-in ones.
candidate_options=()
previous="$out/gen$((generation - 1))/weights.txt"
if [ -s "$previous" ]; then candidate_options=("option.EvalFile=$(cd "$(dirname "$previous")" && pwd)/weights.txt"); fi

# A match with PTN records; a match stopped halfway goes on from its journal.
play() {
  local name=$1 seed=$2 games=$3
  shift 3
  [ "$games" -gt 0 ] || return 0
  [ -e "$dir/$name.done" ] && return 0
  if [ -s "$dir/$name.state" ]; then
    "$arbiter" -resume "$dir/$name.state" >>"$log" 2>&1
  else
    "$arbiter" -game tak -size "$size" -komi "$komi" "$@" -each "$game_limit" stderr=/dev/null \
      -openings file="$book" format=moves order=random -srand $((generation * 1000 + seed)) \
      -rounds $(((games + 1) / 2)) -games 2 -concurrency "$concurrency" \
      -pgnout "$dir/$name.ptn" -state "$dir/$name.state" >>"$log" 2>&1
  fi
  touch "$dir/$name.done"
}
play teacher 1 "${TEACHER_GAMES:-100}" -engine cmd="$teacher" name=teacher -engine cmd="$teacher" name=teacher2
play candidate 2 "${CANDIDATE_GAMES:-100}" -engine cmd="$engine" name=candidate "${candidate_options[@]}" \
  -engine cmd="$teacher" name=teacher
play self 3 "${SELF_GAMES:-100}" -engine cmd="$engine" name=candidate "${candidate_options[@]}" \
  -engine cmd="$engine" name=candidate2 "${candidate_options[@]}"

# The teacher's labels, one dataset per kind of game (the validation is the teacher's own games).
label() {
  local name=$1
  shift
  local records=()
  for file in "$@"; do [ -s "$file" ] && records+=("$file"); done
  [ ${#records[@]} -gt 0 ] || return 0
  "$arbiter" analyse -game tak -engine cmd="$teacher" name=teacher "$limit" stderr=/dev/null \
    -concurrency "$concurrency" -data "$dir/$name.jsonl" -out "$dir/$name-analysed.ptn" -resume "${records[@]}" \
    2>&1 | tee -a "$log"
  "$trainer" labels --data "$dir/$name.jsonl" --teacher "$teacher_scale" --out "$dir/$name.bin" 2>>"$log" | tee -a "$log"
}
# shellcheck disable=SC2086
label exploited "$dir/candidate.ptn" "$dir/self.ptn" ${EXTRA_RECORDS:-}
label teacher "$dir/teacher.ptn"

# Every generation's exploited positions so far, and the teachers' games of the generations before
# this one (this one's are the validation).
training=()
for g in $(seq 1 "$generation"); do
  [ -s "$out/gen$g/exploited.bin" ] && training+=("$out/gen$g/exploited.bin")
  if [ "$g" -lt "$generation" ] && [ -s "$out/gen$g/teacher.bin" ]; then training+=("$out/gen$g/teacher.bin"); fi
done
[ ${#training[@]} -gt 0 ] || { echo "tak_teacher_pipeline: no labelled games to fit" >&2; exit 1; }
validation=()
[ -s "$dir/teacher.bin" ] && validation=(--validation-games "$dir/teacher.bin")
init=()
[ -s "$previous" ] && init=(--init "$previous")
"$trainer" fit --games "${training[@]}" "${validation[@]}" "${init[@]}" --sizes "$size" --score-weight "$score_weight" \
  --epochs "$epochs" --threads "$concurrency" --origin "generation $generation of tools/train/tak_teacher_pipeline.sh ($limit)" \
  --out "$dir/weights.txt" --curve "$dir/curve.csv" 2>>"$log" | tee -a "$log"
echo "tak_teacher_pipeline: generation $generation done; weights in $dir/weights.txt (EvalFile)" | tee -a "$log"
