#!/usr/bin/env bash
# The job that runs after a round of a sharded run's array (tools/cluster/shards.sh), however its
# tasks ended: shards that are not whole (failed, cancelled, timed out, lost with a node) are
# submitted again, up to the run's retries, and resume from their journals; once every shard is
# whole, the final step (merge, fit) runs here and the run is FINISHED.
set -uo pipefail
dir=$1
# SLURM runs a copy of this script from its spool directory: the run's settings say where the
# tools are.
# shellcheck disable=SC1091
. "$dir/cluster.env" || exit 1
# shellcheck source=tools/cluster/lib.sh
. "$CLUSTER_TOOLS/lib.sh"
cd "$WORKDIR" || exit 1
missing=$(cluster_missing "$dir")
if [ -n "$missing" ]; then
  attempt=$(cat "$dir/attempt")
  if [ "$attempt" -gt "$RETRIES" ]; then
    echo "shards $missing of $SHARDS are not whole after $attempt rounds; their output is in $dir/log" |
      tee "$dir/FAILED"
    exit 1
  fi
  echo $((attempt + 1)) >"$dir/attempt"
  echo "shards $missing of $SHARDS are not whole: round $((attempt + 1))"
  cluster_submit_round "$dir" "$missing"
  exit 0
fi
if [ -x "$dir/final" ]; then
  echo "every shard is whole; the final step, $(date -u +%FT%TZ)"
  "$dir/final"
  status=$?
  if [ "$status" != 0 ]; then
    echo "the final step ended with status $status; see $dir/log" | tee "$dir/FAILED"
    exit 1
  fi
fi
date -u +%FT%TZ >"$dir/FINISHED"
echo "the run is finished"
