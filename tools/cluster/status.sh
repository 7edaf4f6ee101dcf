#!/usr/bin/env bash
# How a sharded run stands: its jobs in the queue, the shards that are whole, and for a match the
# merged report so far (`arbiter merge` of the results files the shards have written; each
# shard's file is rewritten at most once a second while it plays).
#
#   tools/cluster/status.sh DIR
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/cluster/lib.sh
. "$tools/lib.sh"
dir=${1:?usage: tools/cluster/status.sh DIR}
cluster_load "$dir"
whole=$(find "$dir/done" -type f 2>/dev/null | wc -l)
state="running"
[ -e "$dir/FINISHED" ] && state="finished $(cat "$dir/FINISHED")"
[ -e "$dir/FAILED" ] && state="failed: $(cat "$dir/FAILED")"
echo "$NAME: $whole of $SHARDS shards whole, round $(cat "$dir/attempt"), $state"
missing=$(cluster_missing "$dir")
[ -z "$missing" ] || echo "not whole yet: $missing"
if command -v squeue >/dev/null; then
  squeue -n "$NAME,$NAME-collect" -o "%.18i %.14j %.9T %.10M %R" 2>/dev/null || true
fi
if [ -f "$dir/arbiter" ] && compgen -G "$dir/results-*.json" >/dev/null; then
  arbiter=$(cat "$dir/arbiter")
  echo
  echo "the match so far:"
  # shellcheck disable=SC2086
  eval "$arbiter" merge "$dir"/results-*.json
fi
