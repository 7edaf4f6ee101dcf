# Shared by the scripts of tools/cluster: a sharded run's directory and its SLURM jobs.
#
# A run directory holds:
#   task            the program of one shard, called as `task k K`; exit 0 once shard k is whole
#   final           optional: run once, in a job that depends on the shards, when all are whole
#   cluster.env     the run's settings (written by shards.sh)
#   done/k          shard k is whole
#   attempt         how many rounds of submission so far
#   jobs            the job ids of each round: "array collect"
#   log/            each task's and each collect job's output
#   FINISHED        every shard and the final step succeeded
#   FAILED          why the run gave up
# shellcheck shell=bash

cluster_die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# The options that match.sh and selfplay.sh take before `--` and pass on to shards.sh: sets dir,
# shards and shard_options; `consumed` is how many words option $1 took (0: not one of these).
# shellcheck disable=SC2034  # dir, shards, shard_options and consumed are the caller's
cluster_front_option() {
  consumed=0
  case $1 in
    -dir) dir=${2:?-dir needs a directory}; consumed=2 ;;
    -shards) shards=${2:?-shards needs a count}; shard_options+=(-shards "$2"); consumed=2 ;;
    -wait) shard_options+=(-wait); consumed=1 ;;
    -retries | -name | -sbatch | -final-sbatch) shard_options+=("$1" "${2?$1 needs a value}"); consumed=2 ;;
  esac
}

# A new run's directory: made, made absolute (in dir), and refused if it already holds a run.
cluster_new_run_dir() {
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ ! -e "$dir/cluster.env" ] || cluster_die "$dir already holds a run; tools/cluster/shards.sh -resume $dir continues it"
}

# The absolute path of program $1 (the tasks run it from elsewhere).
cluster_absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }

# The settings of run directory $1 into the shell.
cluster_load() {
  [ -f "$1/cluster.env" ] || cluster_die "$1 is not a sharded run (no cluster.env)"
  # shellcheck disable=SC1091
  . "$1/cluster.env"
}

# The shards of run $1 that are not whole, comma-separated ("" when none).
cluster_missing() {
  local dir=$1 k list=""
  for k in $(seq 1 "$SHARDS"); do
    [ -e "$dir/done/$k" ] || list="$list${list:+,}$k"
  done
  echo "$list"
}

# Submits shards $2 (a SLURM array list: "1-16" or "3,7") of run $1 and the collect job that
# runs after them, whatever their end (afterany: a failed or cancelled task is resubmitted).
cluster_submit_round() {
  local dir=$1 list=$2 array collect
  mkdir -p "$dir/log" "$dir/done"
  # shellcheck disable=SC2086  # the user's sbatch options are words
  array=$(sbatch --parsable --job-name="$NAME" --array="$list" --output="$dir/log/task-%a.%A.out" \
    $SBATCH_OPTIONS "$CLUSTER_TOOLS/task.sh" "$dir") || cluster_die "sbatch refused the shards' array job"
  array=${array%%;*}
  # shellcheck disable=SC2086
  collect=$(sbatch --parsable --job-name="$NAME-collect" --dependency="afterany:$array" \
    --kill-on-invalid-dep=no --output="$dir/log/collect.%j.out" $FINAL_SBATCH_OPTIONS \
    "$CLUSTER_TOOLS/collect.sh" "$dir") || cluster_die "sbatch refused the collect job"
  collect=${collect%%;*}
  echo "$array $collect" >>"$dir/jobs"
  echo "$(basename "$0"): submitted shards $list of $SHARDS as job $array; collect job $collect" >&2
}

# Waits until run $1 is FINISHED (returns 0) or FAILED (returns 1), saying when shards become
# whole. Gives up when no job of the run is left in the queue and neither has happened.
cluster_wait() {
  local dir=$1 seen=-1 idle=0 whole
  while true; do
    if [ -e "$dir/FINISHED" ]; then
      echo "$(basename "$0"): $dir: finished" >&2
      return 0
    fi
    if [ -e "$dir/FAILED" ]; then
      echo "$(basename "$0"): $dir: failed: $(cat "$dir/FAILED")" >&2
      return 1
    fi
    whole=$(find "$dir/done" -type f 2>/dev/null | wc -l)
    if [ "$whole" != "$seen" ]; then
      echo "$(basename "$0"): $dir: $whole of $SHARDS shards whole" >&2
      seen=$whole
    fi
    if [ -z "$(squeue -h -n "$NAME,$NAME-collect" -o %i 2>/dev/null)" ]; then
      idle=$((idle + 1))
      if [ "$idle" -ge 3 ] && [ ! -e "$dir/FINISHED" ] && [ ! -e "$dir/FAILED" ]; then
        echo "$(basename "$0"): $dir: no job of the run is queued and it is not finished;" \
          "\`tools/cluster/shards.sh -resume $dir\` submits what is missing" >&2
        return 1
      fi
    else
      idle=0
    fi
    sleep "${CLUSTER_POLL:-5}"
  done
}
