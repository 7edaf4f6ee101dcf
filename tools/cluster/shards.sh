#!/usr/bin/env bash
# Runs a sharded job on a SLURM cluster: one array task per shard, then a collect job that
# submits again the shards that did not complete (they resume from their own journals or start
# over) and, once all are whole, runs the final step. match.sh and selfplay.sh write the run
# directory's `task` and `final` and call this; docs/cluster.md has the whole story.
#
#   tools/cluster/shards.sh -dir DIR -shards K [-name NAME] [-retries N]
#                           [-sbatch "OPTIONS"] [-final-sbatch "OPTIONS"] [-wait]
#   tools/cluster/shards.sh -resume DIR [-wait]     submit what is missing of a run again
#   tools/cluster/shards.sh -wait DIR                wait for a run to finish
#
# DIR holds an executable `task` (called as `task k K` in the directory shards.sh was started
# from; exit 0 once shard k is whole) and, optionally, `final`. It must be on a file system that
# every node sees. -sbatch options go to every task (e.g. "--cpus-per-task=2 --time=2:00:00
# --partition=short"), -final-sbatch to the collect jobs. -retries (default 3) is how many rounds
# of resubmission a shard gets. -wait returns when the run is finished (0) or failed (1).
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/cluster/lib.sh
. "$tools/lib.sh"

dir="" shards="" name="" retries=3 sbatch_options="" final_options="" wait=0 resume=0
while [ $# -gt 0 ]; do
  case $1 in
    -dir) dir=${2:?-dir needs a directory}; shift 2 ;;
    -shards) shards=${2:?-shards needs a count}; shift 2 ;;
    -name) name=${2:?-name needs a name}; shift 2 ;;
    -retries) retries=${2:?-retries needs a count}; shift 2 ;;
    -sbatch) sbatch_options=${2?-sbatch needs options}; shift 2 ;;
    -final-sbatch) final_options=${2?-final-sbatch needs options}; shift 2 ;;
    -resume) resume=1; dir=${2:?-resume needs a directory}; shift 2 ;;
    -wait)
      wait=1
      if [ $# -ge 2 ] && [ "${2#-}" = "$2" ] && [ -z "$dir" ]; then dir=$2; shift; fi
      shift ;;
    *) cluster_die "unknown argument '$1' (see the comment at the top of this script)" ;;
  esac
done
[ -n "$dir" ] || cluster_die "-dir DIR is missing"
dir=$(cd "$dir" 2>/dev/null && pwd) || cluster_die "no directory $dir"
command -v sbatch >/dev/null || cluster_die "sbatch is not on the PATH: this machine cannot submit SLURM jobs"

if [ -n "$shards" ]; then
  [ "$resume" = 0 ] || cluster_die "-resume takes no -shards"
  [[ $shards =~ ^[1-9][0-9]*$ ]] || cluster_die "-shards $shards: a count of at least 1"
  [[ $retries =~ ^[0-9]+$ ]] || cluster_die "-retries $retries: a count"
  [ -x "$dir/task" ] || cluster_die "$dir/task is missing or not executable"
  [ ! -e "$dir/cluster.env" ] || cluster_die "$dir already holds a run; -resume $dir continues it"
  {
    printf 'SHARDS=%q\n' "$shards"
    printf 'NAME=%q\n' "${name:-bge-$(basename "$dir")}"
    printf 'RETRIES=%q\n' "$retries"
    printf 'SBATCH_OPTIONS=%q\n' "$sbatch_options"
    printf 'FINAL_SBATCH_OPTIONS=%q\n' "$final_options"
    printf 'CLUSTER_TOOLS=%q\n' "$tools"
    printf 'WORKDIR=%q\n' "$PWD"
  } >"$dir/cluster.env"
  echo 1 >"$dir/attempt"
  cluster_load "$dir"
  cluster_submit_round "$dir" "1-$SHARDS"
elif [ "$resume" = 1 ]; then
  cluster_load "$dir"
  [ ! -e "$dir/FINISHED" ] || cluster_die "$dir is finished"
  rm -f "$dir/FAILED"
  echo 1 >"$dir/attempt"
  missing=$(cluster_missing "$dir")
  # With every shard whole, a round of nothing but the collect job runs the final step.
  if [ -n "$missing" ]; then
    cluster_submit_round "$dir" "$missing"
  else
    # shellcheck disable=SC2086
    job=$(sbatch --parsable --job-name="$NAME-collect" --output="$dir/log/collect.%j.out" \
      $FINAL_SBATCH_OPTIONS "$tools/collect.sh" "$dir")
    echo "- ${job%%;*}" >>"$dir/jobs"
    echo "$(basename "$0"): every shard is whole; the final step is job ${job%%;*}" >&2
  fi
else
  [ "$wait" = 1 ] || cluster_die "give -shards K (a new run), -resume DIR or -wait DIR"
  cluster_load "$dir"
fi
if [ "$wait" = 1 ]; then cluster_wait "$dir"; fi
