#!/usr/bin/env bash
# An arbiter match as a SLURM array job, one shard per task, merged when every shard is whole.
#
#   tools/cluster/match.sh -shards K -dir DIR [-wait] [-retries N] [-name NAME]
#                          [-sbatch "OPTIONS"] [-final-sbatch "OPTIONS"] -- ARBITER ARGUMENTS...
#
# The arbiter arguments are those of a local run (docs/arbiter.md). Task k runs them with
# -shard k/K -jsonout DIR/results-k.json -state DIR/state-k.jsonl; a task that is resubmitted
# (failed, cancelled, out of time, node lost) continues with `arbiter -resume` from its journal,
# so no game is lost or counted twice. Then `arbiter merge` writes DIR/merged.json, the games'
# records to DIR/records and the report to DIR/report.txt: the report of one local run with the
# same seed. tools/cluster/status.sh DIR shows the jobs and the merged report so far.
#
# ARBITER (environment) is the arbiter program, by default build/bin/arbiter of this checkout;
# the engines' paths are the user's, as in a local run (absolute ones are safest on a cluster).
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/cluster/lib.sh
. "$tools/lib.sh"

shard_options=() dir="" shards=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  cluster_front_option "$@"
  [ "$consumed" -gt 0 ] || cluster_die "unknown option '$1' before -- (see the comment at the top of this script)"
  shift "$consumed"
done
[ "${1:-}" = -- ] || cluster_die "the arbiter's arguments follow --"
shift
[ $# -gt 0 ] || cluster_die "no arbiter arguments after --"
[ -n "$dir" ] && [ -n "$shards" ] || cluster_die "-dir DIR and -shards K are needed"
for argument in "$@"; do
  case $argument in
    -shard | --shard | -jsonout | -state | -resume | -pgnout | -feed | -live | merge | book)
      cluster_die "$argument is not for a cluster match: each shard gets its own -shard, -jsonout and -state," \
        "and the merge writes DIR/merged.json and DIR/records" ;;
  esac
done
arbiter=${ARBITER:-$tools/../../build/bin/arbiter}
[ -x "$arbiter" ] || cluster_die "no arbiter at $arbiter (build it, or set ARBITER)"
arbiter=$(cluster_absolute "$arbiter")
cluster_new_run_dir
width=${#shards}

{
  echo '#!/usr/bin/env bash'
  echo '# Shard $1 of $2 of the match (written by tools/cluster/match.sh): a new shard, or the rest of'
  echo '# one from its journal.'
  echo 'set -uo pipefail'
  printf 'arbiter=%q\n' "$arbiter"
  printf 'dir=%q\n' "$dir"
  printf 'arguments=(%s)\n' "$(printf '%q ' "$@")"
  echo "k=\$(printf '%0${width}d' \"\$1\")"
  echo 'state=$dir/state-$k.jsonl'
  echo 'if [ -s "$state" ]; then exec "$arbiter" -resume "$state"; fi'
  echo 'exec "$arbiter" "${arguments[@]}" -shard "$1/$2" -jsonout "$dir/results-$k.json" -state "$state"'
} >"$dir/task"
{
  echo '#!/usr/bin/env bash'
  echo '# The merge of the shards (written by tools/cluster/match.sh).'
  echo 'set -euo pipefail'
  printf 'dir=%q\n' "$dir"
  printf '%q merge "$dir"/results-*.json -jsonout "$dir/merged.json" -pgnout "$dir/records" | tee "$dir/report.txt"\n' \
    "$arbiter"
} >"$dir/final"
printf '%q\n' "$arbiter" >"$dir/arbiter"
chmod +x "$dir/task" "$dir/final"
exec "$tools/shards.sh" -dir "$dir" "${shard_options[@]}"
