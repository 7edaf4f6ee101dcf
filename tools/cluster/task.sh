#!/usr/bin/env bash
# One task of a sharded run's SLURM array (tools/cluster/shards.sh): runs shard
# $SLURM_ARRAY_TASK_ID of the run in directory $1 and marks it whole when it succeeds.
set -uo pipefail
dir=$1
# SLURM runs a copy of this script from its spool directory: the run's settings say where the
# tools are.
# shellcheck disable=SC1091
. "$dir/cluster.env" || exit 1
# shellcheck source=tools/cluster/lib.sh
. "$CLUSTER_TOOLS/lib.sh"
k=${SLURM_ARRAY_TASK_ID:?task.sh runs as a task of a SLURM array job}
if [ -e "$dir/done/$k" ]; then
  echo "shard $k of $SHARDS was already whole"
  exit 0
fi
cd "$WORKDIR" || exit 1
echo "shard $k of $SHARDS on $(hostname), attempt $(cat "$dir/attempt"), $(date -u +%FT%TZ)"
"$dir/task" "$k" "$SHARDS"
status=$?
if [ "$status" = 0 ]; then
  touch "$dir/done/$k"
  echo "shard $k of $SHARDS is whole, $(date -u +%FT%TZ)"
else
  echo "shard $k of $SHARDS ended with status $status; the collect job submits it again"
fi
exit "$status"
