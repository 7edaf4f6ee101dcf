#!/usr/bin/env bash
# Trains the Gomoku engine's fitted evaluation for the three rules, from nothing, in one command:
#
#   tools/train/gomoku_eval_pipeline.sh OUT [GAMES] [NODES] [GENERATIONS]
#
# Generation 1 plays GAMES self-play games per rule (alpha-beta at NODES nodes a move, random
# 3-stone openings within 3 cells of the centre) with the hand-made evaluation and fits the
# weights to their results; each later generation plays as many games with the previous
# generation's weights and fits on all the games so far. OUT gets the datasets, the weights
# files, the learning curves (CSV) and eval_weights.cpp, which replaces
# engines/gomoku/eval_weights.cpp to ship the weights. Defaults: 1500 games, 3000 nodes,
# 2 generations; about 35 minutes on 2 cores (docs/experiments/gomoku-eval.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: gomoku_eval_pipeline.sh OUT [GAMES] [NODES] [GENERATIONS]}
games=${2:-1500}
nodes=${3:-3000}
generations=${4:-2}
trainer=${TRAINER:-build/bin/train_gomoku_eval}
threads=$(nproc)
mkdir -p "$out"
for rule in freestyle standard renju; do
  data=()
  weights_option=()
  for generation in $(seq 1 "$generations"); do
    set_file="$out/$rule-gen$generation.bin"
    "$trainer" selfplay --rule "$rule" --games "$games" --nodes "$nodes" --threads "$threads" \
      --seed "$generation" "${weights_option[@]}" --out "$set_file"
    data+=("$set_file")
    "$trainer" fit --data "${data[@]}" --out "$out/$rule-gen$generation.txt" --epochs 30 \
      --learning-rate cosine:0.003:0.0001 --batch 1024 > "$out/$rule-gen$generation-curve.csv"
    weights_option=(--weights "$out/$rule-gen$generation.txt")
  done
  cp "$out/$rule-gen$generations.txt" "$out/$rule.txt"
done
"$trainer" cpp "$out/freestyle.txt" "$out/standard.txt" "$out/renju.txt" > "$out/eval_weights.cpp"
echo "weights in $out/{freestyle,standard,renju}.txt; copy $out/eval_weights.cpp to engines/gomoku/ to ship them"
