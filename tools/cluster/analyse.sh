#!/usr/bin/env bash
# `arbiter analyse` as a SLURM array job, one shard of the records per task, joined when every
# shard is whole.
#
#   tools/cluster/analyse.sh -shards K -dir DIR [-wait] [-retries N] [-name NAME]
#                            [-sbatch "OPTIONS"] [-final-sbatch "OPTIONS"] -- ANALYSE ARGUMENTS...
#
# The arguments are those of a local `arbiter analyse` without -out, -data, -shard and -resume
# (docs/arbiter.md, "Analysis"). Task k runs them with -shard k/K -data DIR/data-k.jsonl
# -out DIR/records-k -resume: a task that is resubmitted (failed, an engine lost, cancelled, out
# of time) searches only the positions its data file lacks. Then the final job joins the shards
# in order into DIR/records and DIR/data.jsonl, which are those of one local run.
#
# ARBITER (environment) is the arbiter program, by default build/bin/arbiter of this checkout.
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
[ "${1:-}" = -- ] || cluster_die "the arguments of arbiter analyse follow --"
shift
[ $# -gt 0 ] || cluster_die "no arguments after --"
[ -n "$dir" ] && [ -n "$shards" ] || cluster_die "-dir DIR and -shards K are needed"
for argument in "$@"; do
  case $argument in
    -shard | --shard | -out | -data | -resume | analyse | analyze)
      cluster_die "$argument is not for a cluster analysis: each shard gets its own -shard, -data and -out," \
        "and the final job writes DIR/records and DIR/data.jsonl" ;;
  esac
done
arbiter=${ARBITER:-$tools/../../build/bin/arbiter}
[ -x "$arbiter" ] || cluster_die "no arbiter at $arbiter (build it, or set ARBITER)"
arbiter=$(cluster_absolute "$arbiter")
cluster_new_run_dir
width=${#shards}

{
  echo '#!/usr/bin/env bash'
  echo '# Shard $1 of $2 of the analysis (written by tools/cluster/analyse.sh): new, or the rest of'
  echo '# one from its data file.'
  echo 'set -uo pipefail'
  printf 'arbiter=%q\n' "$arbiter"
  printf 'dir=%q\n' "$dir"
  printf 'arguments=(%s)\n' "$(printf '%q ' "$@")"
  echo "k=\$(printf '%0${width}d' \"\$1\")"
  echo 'exec "$arbiter" analyse "${arguments[@]}" -shard "$1/$2" -data "$dir/data-$k.jsonl" -out "$dir/records-$k" -resume'
} >"$dir/task"
{
  echo '#!/usr/bin/env bash'
  echo '# The shards joined in order (written by tools/cluster/analyse.sh).'
  echo 'set -euo pipefail'
  printf 'dir=%q\n' "$dir"
  echo 'first=1'
  echo ': >"$dir/records"'
  echo 'for records in "$dir"/records-*; do'
  echo '  [ -s "$records" ] || continue'
  echo '  [ "$first" = 1 ] || echo >>"$dir/records"'
  echo '  cat "$records" >>"$dir/records"'
  echo '  first=0'
  echo 'done'
  echo 'cat "$dir"/data-*.jsonl >"$dir/data.jsonl"'
  echo 'echo "analysis joined: $(grep -c . "$dir/data.jsonl") positions in $dir/data.jsonl, records in $dir/records"'
} >"$dir/final"
printf '%q\n' "$arbiter" >"$dir/arbiter"
chmod +x "$dir/task" "$dir/final"
exec "$tools/shards.sh" -dir "$dir" "${shard_options[@]}"
