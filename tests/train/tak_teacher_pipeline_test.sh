#!/usr/bin/env bash
# tools/train/tak_teacher_pipeline.sh end to end with our own engine as the teacher (CI has no
# Tiltak): two generations on 5x5 with a handful of fixed-node games each.
#
#   tests/train/tak_teacher_pipeline_test.sh BUILD_DIR
#
# Checks that every kind of game was played and labelled (one dataset line per position that is
# not over), that the labels became games files, that generation 2 played with generation 1's
# weights and fitted on both generations' positions, and that the engine loads the weights.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "tak_teacher_pipeline_test: FAILED: $*" >&2
  exit 1
}
"$build/bin/arbiter" book -game tak -size 5 -plies 2 -count 8 -srand 5 -out "$tmp/book.txt" 2>/dev/null || fail "the book"
export BUILD_DIR=$build BOOK=$tmp/book.txt SIZE=5 KOMI=0 GAME_LIMIT=nodes=1500 TEACHER_LIMIT=depth=2 TEACHER_GAMES=2 \
  CANDIDATE_GAMES=2 SELF_GAMES=2 CONCURRENCY=1 EPOCHS=2
for generation in 1 2; do
  "$root/tools/train/tak_teacher_pipeline.sh" "$tmp/run" "$generation" >"$tmp/gen$generation.out" 2>&1 ||
    fail "generation $generation: $(tail -n 5 "$tmp/gen$generation.out")"
  dir=$tmp/run/gen$generation
  for kind in teacher candidate self; do
    [ "$(grep -c '^\[Size "5"\]' "$dir/$kind.ptn")" = 2 ] || fail "generation $generation: 2 $kind games expected"
  done
  # One line per position that is not over: every ply of a game but its last, and the position
  # after the last move of a game stopped by the rules is over.
  python3 - "$dir" <<'PY' || fail "generation $generation: the datasets do not cover the games"
import json, re, sys
d = sys.argv[1]
for dataset, records in (("exploited", ["candidate", "self"]), ("teacher", ["teacher"])):
    lines = [json.loads(l) for l in open(f"{d}/{dataset}.jsonl")]
    keys = {(l["file"], l["game"], l["ply"]) for l in lines}
    assert len(keys) == len(lines), f"{dataset}: a position twice"
    games = {(l["file"], l["game"]) for l in lines}
    assert len(games) == 2 * len(records), f"{dataset}: {len(games)} games labelled"
    for line in lines:
        assert line["limit"] == "depth=2" and line["score_cp"] is not None and line["best"], line
    for (file, game) in games:
        plies = sorted(l["ply"] for l in lines if (l["file"], l["game"]) == (file, game))
        assert plies == list(range(len(plies))), f"{file} game {game}: plies {plies}"
print("datasets cover the games:", d)
PY
  [ -s "$dir/exploited.bin" ] && [ -s "$dir/teacher.bin" ] || fail "generation $generation: no games files from the labels"
  grep -q "validation loss" "$dir/pipeline.log" || fail "generation $generation: the fit reported no validation"
  [ -s "$dir/weights.txt" ] || fail "generation $generation: no weights"
done
grep -q "option.EvalFile=$tmp/run/gen1/weights.txt" "$tmp/run/gen2/candidate.state" ||
  fail "generation 2's candidate did not play with generation 1's weights"
reply=$("$build/bin/tak" "setoption name EvalFile value $tmp/run/gen2/weights.txt" "teinewgame 5" "position startpos" \
  "go depth 2")
grep -q '^bestmove ' <<<"$reply" || fail "the engine does not play with the new weights: $reply"
! grep -q 'error' <<<"$reply" || fail "the engine refused the new weights: $reply"
echo "tak_teacher_pipeline_test: passed"
