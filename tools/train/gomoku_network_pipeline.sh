#!/usr/bin/env bash
# Trains the Gomoku pattern networks and move policies (docs/gomoku.md, "Pattern network") in one
# command:
#
#   tools/train/gomoku_network_pipeline.sh OUT [GAMES] [NODES] [GENERATIONS] [RULES]
#
# Generation 0 plays GAMES self-play games per rule (alpha-beta at NODES nodes a move with the
# shipped fitted evaluation, random 3-stone openings within 3 cells of the centre, seeds 101 and
# 102 for its two halves); each later generation plays as many with the previous generation's
# network (seeds 100 + 10 x generation + 1, + 2). Every generation's network and policy are
# fitted on the games of that generation and the one before. OUT gets the games, the networks,
# the policies and their learning curves (CSV); OUT/RULE.nnue and OUT/RULE.policy are the last
# generation's, to be copied into engines/gomoku/nets/ to ship them. The games do not depend on
# the thread count, and the fits are seeded
# (the network's gradient over 2 shards, whatever the threads), so a run is reproduced exactly.
# On a SLURM cluster (docs/cluster.md), SLURM_SHARDS=K plays each half as K array tasks and the
# fits as jobs: the same games and files.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tools/cluster/pipeline.sh
. tools/cluster/pipeline.sh
out=${1:?usage: gomoku_network_pipeline.sh OUT [GAMES] [NODES] [GENERATIONS] [RULES]}
games=${2:-6000}
nodes=${3:-8000}
generations=${4:-1}
rules=${5:-freestyle standard renju}
trainer=${TRAINER:-build/bin/train_gomoku_eval}
threads=${THREADS:-$(nproc)}
mkdir -p "$out"
for rule in $rules; do
  network_option=(--weights builtin)
  previous=()
  for generation in $(seq 0 "$generations"); do
    sets=()
    for half in 1 2; do
      set_file="$out/$rule-g$generation-$half.txt"
      if [ ! -s "$set_file" ]; then  # a stopped run resumes at the first missing file
        play=(selfplay --rule "$rule" --games $((games / 2)) --nodes "$nodes" --threads "$threads"
          --seed $((100 + 10 * generation + half)) "${network_option[@]}")
        if on_cluster; then
          cluster="$out/$rule-g$generation-$half.cluster"
          cluster_selfplay "$cluster" "$trainer" "${play[@]}" --out "$cluster/part-{k}.bin" \
            --games-out "$cluster/part-{k}.txt"
          join_text_games "$set_file.part" "$cluster"/part-*.txt
        else
          "$trainer" "${play[@]}" --out "$out/$rule-g$generation-$half.bin" --games-out "$set_file.part"
        fi
        mv "$set_file.part" "$set_file"
      fi
      sets+=("$set_file")
    done
    cluster_run "$out/$rule-n$generation.log" "$trainer" network --games "${previous[@]}" "${sets[@]}" --rule "$rule" --hidden 32 --epochs 12 \
      --threads "$threads" --shards 2 --description "$rule generation $generation: $games games a generation, $nodes nodes a move" \
      --out "$out/$rule-n$generation.nnue" --curve "$out/$rule-n$generation.csv"
    cluster_run "$out/$rule-p$generation.log" "$trainer" policy --games "${previous[@]}" "${sets[@]}" --rule "$rule" --epochs 8 --threads "$threads" \
      --origin "$rule generation $generation: $games games a generation, $nodes nodes a move" \
      --out "$out/$rule-p$generation.policy" --curve "$out/$rule-p$generation.csv"
    network_option=(--weights builtin --network "$out/$rule-n$generation.nnue")
    previous=("${sets[@]}")
  done
  cp "$out/$rule-n$generations.nnue" "$out/$rule.nnue"
  cp "$out/$rule-p$generations.policy" "$out/$rule.policy"
done
echo "networks and policies in $out/RULE.{nnue,policy}; copy them to engines/gomoku/nets/ to ship them"
