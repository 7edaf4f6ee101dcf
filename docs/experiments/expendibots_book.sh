#!/usr/bin/env bash
# Makes the lines of the expendibots engine's built-in opening book (engines/expendibots/
# opening_book.cpp): the engine searches each position itself (MS milliseconds, default 10000,
# its book off) and the lines follow its choices. Prints one line of moves per book line:
#   - the main line, 4 actions deep;
#   - Black's reply to each of White's natural first moves (a front token stepping forward, or a
#     back token stacking onto the one in front of it).
# Searches are timed, so a rerun on a busy machine may choose differently.
set -euo pipefail
E=${BIN:-build/bin}/expendibots
MS=${MS:-10000}
think() { "$E" "setoption name OwnBook value false" "position startpos moves $*" "go movetime $MS" 2>/dev/null | awk '/^bestmove/ {print $2}'; }
m1=$(think)
m2=$(think "$m1")
m3=$(think "$m1" "$m2")
m4=$(think "$m1" "$m2" "$m3")
echo "$m1 $m2 $m3 $m4"
for first in a2a3 b2b3 d2d3 e2e3 g2g3 h2h3 b1b2 d1d2 e1e2 g1g2; do
    [ "$first" = "$m1" ] && continue
    echo "$first $(think "$first")"
done
