# For tools/train/*_pipeline.sh: their self-play and fits as SLURM jobs when SLURM_SHARDS is set
# (docs/cluster.md), on this machine otherwise. Sourced, not run.
#
# Environment: SLURM_SHARDS (tasks per self-play run), SLURM_SBATCH (sbatch options for every
# job, e.g. "--partition=short --cpus-per-task=2 --time=4:00:00"), SLURM_RETRIES (3).
# shellcheck shell=bash

cluster_tools=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The cluster is asked for when SLURM_SHARDS is set.
on_cluster() { [ -n "${SLURM_SHARDS:-}" ]; }

# Self-play in SLURM_SHARDS tasks, in run directory $1, and waits for it: [-then COMMAND] (the
# dependent job, a shell command) and TRAINER selfplay ARGUMENTS follow; the arguments name
# their outputs with {k}. A pipeline started again continues the run: it waits for the jobs still
# queued, or submits again the shards that are missing.
cluster_selfplay() {
  local dir=$1 then=()
  shift
  if [ "$1" = -then ]; then
    then=(-then "$2")
    shift 2
  fi
  [ -e "$dir/FINISHED" ] && return 0
  if [ -e "$dir/cluster.env" ]; then
    "$cluster_tools/shards.sh" -wait "$dir" || "$cluster_tools/shards.sh" -resume "$dir" -wait
  else
    "$cluster_tools/selfplay.sh" -shards "$SLURM_SHARDS" -dir "$dir" -retries "${SLURM_RETRIES:-3}" \
      -sbatch "${SLURM_SBATCH:-}" -final-sbatch "${SLURM_SBATCH:-}" "${then[@]}" -wait -- "$@"
  fi
}

# Runs a command (a fit) as one SLURM job on the cluster and waits for it, or here; its output
# goes to file $1 on the cluster, to this script's output here.
cluster_run() {
  local log=$1
  shift
  if on_cluster; then
    # shellcheck disable=SC2086  # the user's sbatch options are words
    sbatch --wait --quiet --job-name="bge-$(basename "$log" .log)" --output="$log" ${SLURM_SBATCH:-} \
      --wrap "$(printf '%q ' "$@")" || { echo "the job of $* failed; see $log" >&2; return 1; }
    cat "$log"
  else
    "$@"
  fi
}

# Joins the games files of shards into file $1, the first whole and the others without their
# header: join_tak_games (train_tak_eval selfplay: a 16-byte header) and join_text_games
# (train_gomoku_eval selfplay --games-out: a header line).
join_shard_files() {
  local out=$1 skip=$2 first=1 part
  shift 2
  : >"$out"
  for part in "$@"; do
    if [ "$first" = 1 ]; then cat "$part" >>"$out"; else tail "$skip" "$part" >>"$out"; fi
    first=0
  done
}
join_tak_games() { join_shard_files "$1" -c+17 "${@:2}"; }
join_text_games() { join_shard_files "$1" -n+2 "${@:2}"; }
