#!/usr/bin/env bash
# Trains the Gomoku engine's fitted evaluation for the three rules in one command:
#
#   tools/train/gomoku_eval_pipeline.sh OUT [GAMES] [NODES] [GENERATIONS]
#
# Each generation plays GAMES self-play games per rule (alpha-beta at NODES nodes a move, random
# 3-stone openings within 3 cells of the centre, seed 20 + generation) with the previous
# generation's weights, and fits all 116 features on that generation's games. The first
# generation starts from tools/train/gomoku_eval_gen1/RULE.txt, the weights the engine shipped
# before shape classes (fitted to games of the hand-made evaluation); START=handmade starts from
# the hand-made evaluation instead. OUT gets the datasets, the weights files, the learning curves
# (CSV) and RULE.eval, the last generation's weights: copied into engines/gomoku/nets/, they ship
# at the next build.
#
# The defaults (6000 games, 4000 nodes, 1 generation) reproduced the shipped weights exactly when they shipped: the
# games do not depend on the thread count. About 25 minutes of one core per rule
# (docs/experiments/gomoku-eval.md). On a SLURM cluster (docs/cluster.md), SLURM_SHARDS=K plays
# each self-play run as K array tasks with the fit as the dependent job: the same weights.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tools/cluster/pipeline.sh
. tools/cluster/pipeline.sh
out=${1:?usage: gomoku_eval_pipeline.sh OUT [GAMES] [NODES] [GENERATIONS]}
games=${2:-6000}
nodes=${3:-4000}
generations=${4:-1}
trainer=${TRAINER:-build/bin/train_gomoku_eval}
threads=$(nproc)
mkdir -p "$out"
for rule in freestyle standard renju; do
  weights_option=(--weights "tools/train/gomoku_eval_gen1/$rule.txt")
  if [ "${START:-gen1}" = handmade ]; then weights_option=(); fi
  for generation in $(seq 1 "$generations"); do
    set_file="$out/$rule-gen$generation.bin"
    play=(selfplay --rule "$rule" --games "$games" --nodes "$nodes" --threads "$threads"
      --seed $((20 + generation)) "${weights_option[@]}")
    fit=(--out "$out/$rule-gen$generation.txt" --epochs 30 --learning-rate cosine:0.003:0.0001 --batch 1024)
    if on_cluster; then
      # The shards' datasets, read in order, are the local run's; the fit is the dependent job.
      cluster="$out/$rule-gen$generation.cluster"
      cluster_selfplay "$cluster" \
        -then "$(printf '%q ' "$trainer" fit --data)$(printf '%q' "$cluster")/part-*.bin $(printf '%q ' "${fit[@]}")> $(printf '%q' "$out/$rule-gen$generation-curve.csv")" \
        "$trainer" "${play[@]}" --out "$cluster/part-{k}.bin"
    else
      "$trainer" "${play[@]}" --out "$set_file"
      "$trainer" fit --data "$set_file" "${fit[@]}" > "$out/$rule-gen$generation-curve.csv"
    fi
    weights_option=(--weights "$out/$rule-gen$generation.txt")
  done
  cp "$out/$rule-gen$generations.txt" "$out/$rule.eval"
done
echo "weights in $out/{freestyle,standard,renju}.eval; copy them to engines/gomoku/nets/ to ship them"
