#!/usr/bin/env bash
# Reproduces the training of the Tak evaluation in one command (docs/experiments/tak-eval.md):
#
#   tools/train/tak_eval_pipeline.sh [OUT_DIR]
#
# 1. balanced opening books for every size (arbiter book, the engine with the generation-0
#    weights at depth 3, +-0.8 flats);
# 2. for each generation: self-play games on every size with the previous generation's weights
#    (komi 2 for three games in four, none for the fourth), then a logistic fit of every size on
#    the games of this generation and the one before, starting from the previous weights;
#    generation 1 plays with tools/train/tak_eval_gen0.txt, the old hand-written evaluation;
# 3. the last generation's weights are written to OUT_DIR/weights.txt (for the EvalFile option)
#    and, with INSTALL=1, copied over engines/tak/nets/eval_weights.txt (built in at the next build).
#
# On a SLURM cluster (docs/cluster.md): SLURM_SHARDS=K plays each self-play run as K array
# tasks and the fits as jobs, with SLURM_SBATCH's options; the games are the same as here.
#
# Environment: BUILD_DIR (build), GENERATIONS (1), SIZES ("4 5 6 7": 8x8 then uses the 7x7
# weights, the nearest size), NODES (5000 a move), THREADS (2), SCALE (0.5: multiplies every
# size's game count; at 0.5 a generation plays 3000, 6000, 24000, 3000 and 4000 games on 4x4 to
# 8x8). The built-in weights are generation 1 at these defaults (docs/experiments/tak-eval.md):
# about 2.5 hours of self-play and 3 minutes of fitting on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tools/cluster/pipeline.sh
. tools/cluster/pipeline.sh

out=${1:-tak-eval-run}
build=${BUILD_DIR:-build}
generations=${GENERATIONS:-1}
sizes=${SIZES:-4 5 6 7}
nodes=${NODES:-5000}
threads=${THREADS:-2}
scale=${SCALE:-0.5}
trainer="$build/bin/train_tak_eval"
arbiter="$build/bin/arbiter"
engine="$build/bin/tak"
for program in "$trainer" "$arbiter" "$engine"; do
  [ -x "$program" ] || { echo "tak_eval_pipeline: $program is missing; run tools/setup.sh first" >&2; exit 1; }
done
mkdir -p "$out"
log="$out/pipeline.log"
echo "tak_eval_pipeline: $(date -u +%FT%TZ) generations=$generations nodes=$nodes threads=$threads scale=$scale" | tee -a "$log"

declare -A games=([4]=6000 [5]=12000 [6]=48000 [7]=6000 [8]=8000)
start=$(date +%s)

for size in $sizes; do
  book="$out/book$size.txt"
  [ -s "$book" ] && continue
  "$arbiter" book -game tak -size "$size" -komi 2 -plies 4 -count 2000 -srand $((size + 100)) \
    -engine cmd="$engine" option.EvalFile="$PWD/tools/train/tak_eval_gen0.txt" depth=3 stderr=/dev/null \
    -maxeval 80 -out "$book" 2>>"$log"
done

# The old hand-written evaluation starts generation 1, kept to the trained sizes: any other size
# then uses the nearest trained one (3x3 the 4x4 weights, 8x8 the 7x7 ones).
previous="$out/gen0.txt"
awk -v sizes=" $sizes " '$1 !~ /^[0-9]+$/ || index(sizes, " " $1 " ")' tools/train/tak_eval_gen0.txt > "$previous"
for generation in $(seq 1 "$generations"); do
  dir="$out/gen$generation"
  mkdir -p "$dir"
  weights_flag=(--weights "$previous")
  for size in $sizes; do
    total=$(awk -v n="${games[$size]}" -v s="$scale" 'BEGIN { printf "%d", n * s }')
    for komi in 4 0; do
      count=$((komi == 4 ? total * 3 / 4 : total - total * 3 / 4))
      file="$dir/${size}_k$komi.bin"
      [ -s "$file" ] && continue
      play=(selfplay --size "$size" --half-komi "$komi" --games "$count" --nodes "$nodes" --threads "$threads"
        --book "$out/book$size.txt" --seed $((generation * 100 + size * 10 + komi)) "${weights_flag[@]}")
      if on_cluster; then
        cluster_selfplay "$file.cluster" "$trainer" "${play[@]}" --out "$file.cluster/part-{k}.bin" 2>>"$log"
        join_tak_games "$file.part" "$file.cluster"/part-*.bin
      else
        "$trainer" "${play[@]}" --out "$file.part" 2>>"$log" | tee -a "$log"
      fi
      mv "$file.part" "$file"
    done
  done
  files=("$dir"/*.bin)
  if [ "$generation" -gt 1 ]; then files+=("$out/gen$((generation - 1))"/*.bin); fi
  init_flag=(--init "$previous")
  cluster_run "$dir/fit.log" "$trainer" fit --games "${files[@]}" "${init_flag[@]}" --threads "$threads" --epochs 20 \
    --origin "generation $generation of tools/train/tak_eval_pipeline.sh ($nodes nodes a move)" \
    --out "$dir/weights.txt" --curve "$dir/curve.csv" 2>>"$log" | tee -a "$log"
  previous="$dir/weights.txt"
done

cp "$previous" "$out/weights.txt"
if [ "${INSTALL:-0}" = 1 ]; then cp "$out/weights.txt" engines/tak/nets/eval_weights.txt; fi
echo "tak_eval_pipeline: done in $(($(date +%s) - start)) s; weights in $out/weights.txt" | tee -a "$log"
