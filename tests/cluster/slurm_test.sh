#!/usr/bin/env bash
# tools/cluster on a real SLURM cluster of one node, started here and stopped here:
#
#   tests/cluster/slurm_test.sh [BUILD_DIR]
#
# - munged, slurmctld and slurmd run in the foreground as this script's children, configured in a
#   temporary directory, inside a network namespace of their own whose only interface is
#   loopback: nothing they open is reachable from outside;
# - a 4-shard match (tools/cluster/match.sh) of two fixed-node engines, with one task cancelled
#   (scancel) and the arbiter of another killed (SIGKILL) while they play: the collect job
#   submits both again, they resume from their journals, and the merged games and report equal
#   a local run's;
# - a 2-shard self-play (tools/cluster/selfplay.sh) with the fit as the dependent job: the same
#   games and weights as a local run;
# - tools/train/gomoku_eval_pipeline.sh with SLURM_SHARDS=3 and without: the same weights;
# - a 3-shard analysis (tools/cluster/analyse.sh) of the match's records: the records and the
#   dataset of a local run;
# - every daemon and job is stopped at the end, whatever happened.
#
# Exits 77 (CTest's "skipped") with one line saying why when SLURM cannot run here: not
# installed, not root (slurmd starts jobs as their user), or no network namespace.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)

skip() {
  echo "slurm_test: skipped: $*"
  exit 77
}
for program in munged slurmctld slurmd sbatch squeue scancel sinfo; do
  command -v "$program" >/dev/null || skip "$program is not installed (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs as the submitting user"
if [ -z "${BGE_SLURM_NAMESPACE:-}" ]; then
  unshare --net --fork true 2>/dev/null || skip "no private network namespace here (unshare --net), and the daemons would listen on every interface"
  exec unshare --net --fork env BGE_SLURM_NAMESPACE=1 "$0" "$build"
fi
ip link set lo up
# Slurm looks its listening address up with AI_ADDRCONFIG, which finds nothing while the only
# addresses are loopback ones: the namespace's loopback also gets a documentation address
# (TEST-NET-1), which no other machine can reach either.
ip addr add 192.0.2.1/32 dev lo

tmp=$(mktemp -d /tmp/bge-slurm.XXXXXX)
pids=()
cleanup() {
  local status=$?
  if [ -n "${controller:-}" ] && kill -0 "$controller" 2>/dev/null; then
    timeout 10 squeue -h -o %i 2>/dev/null | xargs -r timeout 10 scancel 2>/dev/null || true
  fi
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 50); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.2
  done
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  pkill -9 -f "$tmp/" 2>/dev/null || true
  if [ "$status" != 0 ]; then
    echo "slurm_test: failed; the logs of the daemons and the jobs:" >&2
    tail -n 20 "$tmp"/log/* "$tmp"/*/log/* >&2 2>/dev/null || true
  fi
  if [ -n "${BGE_SLURM_KEEP:-}" ]; then echo "slurm_test: kept $tmp" >&2; else rm -rf "$tmp"; fi
  exit "$status"
}
trap cleanup EXIT
fail() {
  echo "slurm_test: FAILED: $*" >&2
  exit 1
}

# The cluster: one node with 4 CPUs (more than this machine may have: config_overrides).
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=bgetest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
KillWait=5
NodeName=localhost NodeAddr=127.0.0.1 CPUs=4 RealMemory=4000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
munged -F -f --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
  --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" >"$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do [ -S "$tmp/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$tmp/munge/munge.socket" ] || skip "munged did not start: $(tail -n 1 "$tmp/log/munged.out")"
slurmctld -D -i -f "$tmp/slurm.conf" >"$tmp/log/slurmctld.out" 2>&1 &
controller=$!
pids+=($!)
slurmd -D -N localhost -f "$tmp/slurm.conf" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 0.2
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] ||
  skip "slurmd did not come up: $(tail -n 1 "$tmp/log/slurmd.out" "$tmp/log/slurmctld.out" 2>/dev/null | tr '\n' ' ')"
echo "slurm_test: a one-node cluster is up ($(sinfo -V))"

# 1. A match: 4 shards, two of them killed mid-run.
export CLUSTER_POLL=1
cd "$tmp"
printf 'a1 e5 c3 c2\nb2 d4 c3 b3\na5 e1 b4 d2\ne3 a3 c4 c2\nb1 d5 c3 d3\nc1 c5 b3 d3\n' >book.txt
match=(-game tak -size 5 -komi 1
  -engine "cmd=$build/bin/tak" name=small nodes=6000 -engine "cmd=$build/bin/tak" name=large nodes=12000
  -each stderr=/dev/null option.Hash=4 -rounds 16 -games 2
  -openings file="$tmp/book.txt" format=moves order=random -srand 11
  -sprt elo0=-5 elo1=5 alpha=0.05 beta=0.05)
"$build/bin/arbiter" "${match[@]}" -concurrency 1 -jsonout local.json >local.txt 2>local.err ||
  fail "the local match: $(tail -n 3 local.err)"
ARBITER="$build/bin/arbiter" "$root/tools/cluster/match.sh" -shards 4 -dir "$tmp/match" -retries 2 -- "${match[@]}"
# Wait until shards 2 and 3 have a game in their journals and are still playing, then cancel the
# task of shard 2 and kill shard 3's arbiter outright.
array=$(head -n 1 "$tmp/match/jobs" | cut -d' ' -f1)
journal_games() { if [ -f "$1" ]; then grep -c '"number"' "$1" || true; else echo 0; fi; }
for _ in $(seq 1 600); do
  if [ "$(journal_games "$tmp/match/state-2.jsonl")" -ge 1 ] && [ "$(journal_games "$tmp/match/state-3.jsonl")" -ge 1 ]; then break; fi
  sleep 0.1
done
[ ! -e "$tmp/match/done/2" ] && [ ! -e "$tmp/match/done/3" ] || fail "shards 2 and 3 ended before they could be killed"
scancel "${array}_2"
pkill -9 -f -- "-state $tmp/match/state-3.jsonl" || fail "no arbiter of shard 3 to kill"
echo "slurm_test: cancelled the task of shard 2 and killed the arbiter of shard 3"
timeout 600 "$root/tools/cluster/shards.sh" -wait "$tmp/match" || fail "the match did not finish: $(cat "$tmp"/match/log/collect.* 2>/dev/null)"
[ "$(cat "$tmp/match/attempt")" = 2 ] || fail "expected one round of resubmission, got $(cat "$tmp/match/attempt") rounds"
grep -q "resuming:" "$tmp"/match/log/task-2.* || fail "shard 2 did not resume from its journal"
grep -q "resuming:" "$tmp"/match/log/task-3.* || fail "shard 3 did not resume from its journal"
python3 - "$tmp/local.json" "$tmp/match/merged.json" <<'PY' || fail "the merged match differs from the local run"
import json, sys
local, merged = (json.load(open(path)) for path in sys.argv[1:])
numbers = [game["number"] for game in merged["games"]]
assert numbers == sorted(set(numbers)), "a game is missing or twice"
assert local["games"] == merged["games"], "the games differ"
assert local["summary"] == merged["summary"], "the statistics differ"
print(f"slurm_test: merged {len(numbers)} games equal the local run's, statistics too")
PY
# The closing summary: from the last "Elo difference:" line on.
summary() { awk '/^Elo difference:/ { block = "" } { block = block $0 "\n" } END { printf "%s", block }' "$1"; }
[ "$(summary local.txt)" = "$(summary "$tmp/match/report.txt")" ] || fail "the merged report differs from the local one"
status=$("$root/tools/cluster/status.sh" "$tmp/match") || fail "status.sh failed"
grep -q "4 of 4 shards whole, round 2, finished" <<<"$status" || fail "status.sh: $status"
grep -q "^Games: 32," <<<"$status" || fail "status.sh shows no merged report: $status"

# 2. Self-play in 2 shards, the fit as the dependent job.
trainer=$build/bin/train_tak_eval
play=(selfplay --size 4 --half-komi 0 --games 30 --nodes 400 --threads 1 --seed 7)
"$trainer" "${play[@]}" --out local.bin >/dev/null 2>&1 || fail "the local self-play"
"$trainer" fit --games local.bin --init zero --epochs 3 --out local-weights.txt >/dev/null 2>&1 || fail "the local fit"
timeout 600 "$root/tools/cluster/selfplay.sh" -shards 2 -dir "$tmp/selfplay" -wait \
  -then "$trainer fit --games $tmp/selfplay/part-*.bin --init zero --epochs 3 --out $tmp/selfplay/weights.txt" \
  -- "$trainer" "${play[@]}" --out "$tmp/selfplay/part-{k}.bin" || fail "the self-play did not finish"
cmp -s <(cat "$tmp/selfplay/part-1.bin"; tail -c +17 "$tmp/selfplay/part-2.bin") local.bin ||
  fail "the shards' games differ from the local run's"
cmp -s "$tmp/selfplay/weights.txt" local-weights.txt || fail "the fit on the shards differs from the local fit"
echo "slurm_test: the 2 self-play shards are the local run's games, and the dependent fit its weights"

# 3. A training pipeline both ways: the same weights for every rule.
export TRAINER=$build/bin/train_gomoku_eval
"$root/tools/train/gomoku_eval_pipeline.sh" "$tmp/pipeline-here" 6 200 1 >/dev/null 2>&1 || fail "the pipeline here"
SLURM_SHARDS=3 timeout 600 "$root/tools/train/gomoku_eval_pipeline.sh" "$tmp/pipeline-cluster" 6 200 1 \
  >"$tmp/pipeline-cluster.log" 2>&1 || fail "the pipeline on the cluster: $(tail -n 5 "$tmp/pipeline-cluster.log")"
for rule in freestyle standard renju; do
  cmp -s "$tmp/pipeline-here/$rule.eval" "$tmp/pipeline-cluster/$rule.eval" ||
    fail "tools/train/gomoku_eval_pipeline.sh: $rule.eval differs between here and the cluster"
done
echo "slurm_test: tools/train/gomoku_eval_pipeline.sh gives the same weights here and with SLURM_SHARDS=3"

# 4. An analysis of the match's records in 3 shards: the local run's records and dataset.
analyse=(-game tak -engine "cmd=$build/bin/tak" depth=2 stderr=/dev/null "$tmp/match/records")
"$build/bin/arbiter" analyse "${analyse[@]}" -out local-analysed.ptn -data local-analysis.jsonl 2>/dev/null ||
  fail "the local analysis"
ARBITER="$build/bin/arbiter" timeout 600 "$root/tools/cluster/analyse.sh" -shards 3 -dir "$tmp/analyse" -wait \
  -- "${analyse[@]}" >/dev/null || fail "the cluster analysis did not finish"
cmp -s local-analysed.ptn "$tmp/analyse/records" || fail "the shards' annotated records differ from the local run's"
cmp -s <(sort local-analysis.jsonl) <(sort "$tmp/analyse/data.jsonl") || fail "the shards' dataset differs from the local run's"
echo "slurm_test: the 3 analysis shards joined are the local run's records and dataset ($(wc -l <local-analysis.jsonl) positions)"
echo "slurm_test: passed"
