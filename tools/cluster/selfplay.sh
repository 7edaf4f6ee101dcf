#!/usr/bin/env bash
# A trainer's self-play as a SLURM array job, one shard per task, then the fit as the job that
# depends on them.
#
#   tools/cluster/selfplay.sh -shards K -dir DIR [-then "COMMAND"] [-wait] [-retries N]
#                             [-name NAME] [-sbatch "OPTIONS"] [-final-sbatch "OPTIONS"]
#                             -- TRAINER selfplay ARGUMENTS...
#
# Task k runs the trainer with --shard k/K added and every "{k}" in its arguments replaced by k,
# zero-padded to K's width (so --out DIR/part-{k}.bin gives files that sort in shard order). A
# game depends only on the seed and its number, so the shards' files, read in order, are the
# games of one local run with the same arguments (docs/cluster.md). A shard that fails is played
# again from its start. COMMAND (a shell command, e.g. "build/bin/train_tak_eval fit --games
# DIR/part-*.bin --out weights.txt") runs once every shard is whole, in the directory this script
# was started from.
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/cluster/lib.sh
. "$tools/lib.sh"

shard_options=() dir="" shards="" then=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  if [ "$1" = -then ]; then
    then=${2:?-then needs a command}
    shift 2
    continue
  fi
  cluster_front_option "$@"
  [ "$consumed" -gt 0 ] || cluster_die "unknown option '$1' before -- (see the comment at the top of this script)"
  shift "$consumed"
done
[ "${1:-}" = -- ] || cluster_die "the trainer's command follows --"
shift
[ $# -ge 2 ] || cluster_die "give the trainer and its selfplay arguments after --"
[ -n "$dir" ] && [ -n "$shards" ] || cluster_die "-dir DIR and -shards K are needed"
trainer=$1
shift
[ -x "$trainer" ] || cluster_die "no trainer at $trainer"
trainer=$(cluster_absolute "$trainer")
case " $* " in
  *"{k}"*) ;;
  *) cluster_die "no {k} in the trainer's arguments: every shard would write the same files" ;;
esac
case " $* " in
  *" --shard "*) cluster_die "--shard is set per task" ;;
esac
cluster_new_run_dir
width=${#shards}

{
  echo '#!/usr/bin/env bash'
  echo '# Shard $1 of $2 of the self-play (written by tools/cluster/selfplay.sh), from its start.'
  echo 'set -uo pipefail'
  printf 'trainer=%q\n' "$trainer"
  printf 'arguments=(%s)\n' "$(printf '%q ' "$@")"
  echo "k=\$(printf '%0${width}d' \"\$1\")"
  echo 'exec "$trainer" "${arguments[@]//\{k\}/$k}" --shard "$1/$2"'
} >"$dir/task"
chmod +x "$dir/task"
if [ -n "$then" ]; then
  {
    echo '#!/usr/bin/env bash'
    echo '# What runs once every shard is whole (written by tools/cluster/selfplay.sh).'
    echo 'set -euo pipefail'
    printf '%s\n' "$then"
  } >"$dir/final"
  chmod +x "$dir/final"
fi
exec "$tools/shards.sh" -dir "$dir" "${shard_options[@]}"
