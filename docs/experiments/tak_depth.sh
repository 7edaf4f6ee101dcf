#!/usr/bin/env bash
# The depth `tak` reaches in 0.3 s on three 6x6 middlegames (bench positions 4 to 6), komi 2,
# five runs each, and the median: issue 27's speed figure.
#   docs/experiments/tak_depth.sh [TAK_BINARY] [extra setoption commands...]
set -euo pipefail
tak=${1:-build/bin/tak}
shift || true
positions=(
  "x2,2,x2,1/x3,1,x2/x,2,2C,1,1,x/x,2,x,1C,x2/x2,2,1,x2/x6 2 8"
  "2,1,1,1,1,2S/1,12,1,x,1C,1/2,2,2C,2,21,x/2,x2,121,x,1/21,x,2,1,1,x/2,x,2,x,2,1 2 18"
  "x,1,x4/x,1,2,x3/x,1,12C,2,x2/x,1,21C,2,2,x/x,1,x,1,x2/x6 2 10"
)
for position in "${positions[@]}"; do
  depths=()
  for run in 1 2 3 4 5; do
    depth=$("$tak" "setoption name HalfKomi value 4" "$@" "teinewgame 6" "position tps $position" "go movetime 300" 2>/dev/null |
      awk '$1 == "info" && $2 == "depth" { d = $3; n = $0 } END { print d }')
    depths+=("$depth")
  done
  median=$(printf '%s\n' "${depths[@]}" | sort -n | sed -n 3p)
  echo "depth in 0.3 s: median $median (runs: ${depths[*]})  $position"
done
