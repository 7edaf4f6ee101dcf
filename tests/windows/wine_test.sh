#!/usr/bin/env bash
# The Windows engines under wine, with the transcripts and match runners the Linux engines pass
# (tools/setup.sh test-windows runs it; CI too):
#   1. every engine's `bench` signature equals the Linux build's;
#   2. input ends: "\r\n" line ends and a pipe closed without `quit` end each engine cleanly,
#      `quit` and `END` end it while its input stays open or as it closes, and
#      `stop` (TEI) and `YXSTOP` (pbrain) end a search with no limit;
#   3. a TEI match of tak.exe against the Linux tak (the arbiter drives both through pipes);
#   4. a pbrain game of pbrain-bge.exe driven as Piskvork drives a brain (START, INFO, BEGIN and
#      TURN, END), against the Linux gomoku, and one with a whole BOARD before every move;
#   5. UGI matches of twixt.exe, ur.exe and expendibots.exe against their Linux builds;
#   6. a short protocol fuzz run into each .exe (FUZZ_LINES lines, default 2000);
#   7. console input: tak.exe and pbrain-bge.exe read a Windows console (a terminal) as a pipe;
#   8. the Linux build's [protocol] transcript tests (tests/*_protocol_test.cpp, the queue and go
#      tests), every one driving the .exe files instead (tests/engine_under_test.hpp);
#   9. no engine crashed in any of these (wine's "Unhandled ..." reports, which an exit status
#      can miss).
# Usage: tests/windows/wine_test.sh WINDOWS_BUILD_DIR LINUX_BUILD_DIR
set -euo pipefail
windows=$(cd "${1:?usage: wine_test.sh WINDOWS_BUILD_DIR LINUX_BUILD_DIR}" && pwd)
linux=$(cd "${2:?usage: wine_test.sh WINDOWS_BUILD_DIR LINUX_BUILD_DIR}" && pwd)
export WINEPREFIX=${WINEPREFIX:-$windows/wineprefix} WINEDEBUG=${WINEDEBUG:--all}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "wine_test: FAILED: $*" >&2
  failures=$((failures + 1))
}

# The files the release zip holds (its staging folder), each .exe behind a one-line launcher, so
# the arbiter and the fuzzer run it as any engine. Wine runs without address-space randomisation
# (setarch -R): one start in a few hundred failed with "failed to map the shared user data"
# (c0000018, an address wine needs taken at random), which the fixed layout never meets. Where
# the machine forbids it (a container's seccomp may refuse the personality), wine runs as it is.
norandom="setarch x86_64 -R"
$norandom true 2>/dev/null || norandom=""
release=$(ls -d "$windows"/bge-*-windows-x86_64/ | head -n 1)
[ -f "$release/pbrain-bge.exe" ] || { echo "wine_test: no release zip's files in $windows" >&2; exit 1; }
# Each launcher also copies wine's own messages to one log: a crash never fails a check by itself
# (an engine that crashes while it exits still exits 0), so the log is searched at the end.
mkdir -p "$work/bin"
wine_log=$work/wine-stderr.log
: >"$wine_log"
for engine in tak gomoku twixt ur expendibots pbrain-bge; do
  printf '#!/bin/bash\nexec 2> >(tee -a "%s" >&2)\nexec %s wine "%s" "$@"\n' "$wine_log" "$norandom" "$release$engine.exe" \
    >"$work/bin/$engine"
  chmod +x "$work/bin/$engine"
done
# One wineserver for the whole test. Without it, an engine started while the last one's server is
# shutting down can die before its first line: a third of the transcript runs lost an engine so.
# A server already up (an earlier run's) would refuse -p: end it first.
mkdir -p "$WINEPREFIX"
wineserver -k >/dev/null 2>&1 || true
wineserver -w
wineserver -p
# The prefix (made once, a few seconds) and wine's own services, which stay up with the server:
# started here with their output elsewhere, since whichever wine program starts them hands them
# its standard output, and a pipe they hold open never ends.
wineboot -i >/dev/null 2>&1 || true
trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

echo "== bench signatures"
for engine in tak gomoku twixt ur expendibots; do
  native=$("$linux/bin/$engine" bench 2>&1 | sed -n 's/^Signature *: *//p')
  report=$("$work/bin/$engine" bench 2>&1 | tr -d '\r')
  under_wine=$(sed -n 's/^Signature *: *//p' <<<"$report")
  echo "$engine: linux $native, windows $under_wine ($(sed -n 's/^Nodes\/second *: *//p' <<<"$report") nodes/s under wine)"
  [ -n "$native" ] && [ "$native" = "$under_wine" ] || fail "$engine: bench signature $under_wine, not $native"
done

echo "== input ends: CRLF lines, and a pipe closed without quit"
for engine in tak gomoku twixt ur expendibots; do
  protocol=ugi
  if [ "$engine" = tak ]; then protocol=tei; fi
  answer=$(printf '%s\r\nisready\r\n' "$protocol" | timeout 60 "$work/bin/$engine" | tr -d '\r') ||
    fail "$engine: did not end at the end of its input"
  grep -qx "${protocol}ok" <<<"$answer" && grep -qx readyok <<<"$answer" ||
    fail "$engine: no ${protocol}ok/readyok for CRLF lines: $answer"
done
answer=$(printf 'START 15\r\nBEGIN\r\n' | timeout 60 "$work/bin/pbrain-bge" | tr -d '\r') ||
  fail "pbrain-bge: did not end at the end of its input"
grep -Eqx 'OK' <<<"$answer" && grep -Eqx '[0-9]+,[0-9]+' <<<"$answer" || fail "pbrain-bge: no OK and move: $answer"

# A match between the Windows engine and the Linux one; every game must end by the rules. A
# margin of 2 s on every clock: this checks the protocol, not time-keeping on a loaded machine.
match() {
  local name=$1
  shift
  if ! "$linux/bin/arbiter" "$@" -each stderr=/dev/null timemargin=2000 -games 2 -rounds 1 -jsonout "$work/$name.json" \
    >"$work/$name.log" 2>&1; then
    fail "$name: the arbiter failed"
    cat "$work/$name.log" >&2
    return
  fi
  echo "$name: $(grep -E '^Score of' "$work/$name.log" | tail -n 1)"
  # Both games played to their end; none lost on time, by an illegal move, a stall or a disconnect.
  if ! python3 - "$work/$name.json" <<'PY'; then
import json, sys
games = json.load(open(sys.argv[1]))["games"]
bad = [g for g in games if g.get("termination") in ("time forfeit", "illegal move", "stall", "disconnect")]
for g in bad:
    print(f"game {g['number']}: {g['termination']}: {g.get('reason', '')}", file=sys.stderr)
sys.exit(1 if bad or len(games) != 2 else 0)
PY
    fail "$name: a game did not end by the rules"
    cat "$work/$name.log" >&2
  fi
}
echo "== quit and END with the input still open"
for engine in tak pbrain-bge; do
  first=tei last=quit
  if [ "$engine" = pbrain-bge ]; then first="START 15" last=END; fi
  mkfifo "$work/$engine.fifo"
  timeout 30 "$work/bin/$engine" <"$work/$engine.fifo" >"$work/$engine.quit" &
  pid=$!
  exec 8>"$work/$engine.fifo"  # held open until the engine has exited: no end of input
  printf '%s\n' "$first" >&8
  sleep 1
  printf '%s\n' "$last" >&8
  wait "$pid" || fail "$engine: did not exit at $last while its input stayed open"
  exec 8>&-
done

# quit, then the input closes while the engine exits: a reading thread that wine could not cancel
# went on into the destroyed reader and crashed one exit in four ("Unhandled page fault"; the
# crash check at the end catches it). 20 runs each find it almost surely.
for run in $(seq 20); do
  { printf 'tei\n'; sleep 0.5; printf 'quit\n'; } | timeout 30 "$work/bin/tak" >/dev/null ||
    fail "tak: quit as the input closes, run $run"
  { printf 'START 15\n'; sleep 0.5; printf 'END\n'; } | timeout 30 "$work/bin/pbrain-bge" >/dev/null ||
    fail "pbrain-bge: END as the input closes, run $run"
done

echo "== stop and YXSTOP end an unbounded search"
answer=$({ printf 'tei\nteinewgame 6\nposition startpos\ngo infinite\n'; sleep 3; printf 'stop\n'; sleep 2
  printf 'quit\n'; } | timeout 60 "$work/bin/tak" | tr -d '\r')
grep -q '^bestmove ' <<<"$answer" || fail "tak: no bestmove after stop"
answer=$({ printf 'START 15\nINFO timeout_turn 100000000\nINFO timeout_match 0\nBEGIN\n'; sleep 3; printf 'YXSTOP\n'
  sleep 2; printf 'END\n'; } | timeout 60 "$work/bin/pbrain-bge" | tr -d '\r')
grep -Eqx '[0-9]+,[0-9]+' <<<"$answer" || fail "pbrain-bge: no move after YXSTOP: $answer"

echo "== matches against the Linux engines"
match tak-tei -game tak -size 5 -engine cmd="$work/bin/tak" name=windows proto=tei \
  -engine cmd="$linux/bin/tak" name=linux proto=tei -each tc=20+0.2
match gomoku-piskvork -game gomoku -rule freestyle -engine cmd="$work/bin/pbrain-bge" name=windows proto=pbrain \
  -engine cmd="$linux/bin/gomoku" name=linux proto=pbrain -each st=0.2
match gomoku-board -game gomoku -rule renju -engine cmd="$work/bin/pbrain-bge" name=windows proto=pbrain pbrain=board \
  -engine cmd="$linux/bin/gomoku" name=linux -each st=0.2
match twixt -game twixt -engine cmd="$work/bin/twixt" name=windows -engine cmd="$linux/bin/twixt" name=linux \
  -each st=0.1
match ur -game ur -engine cmd="$work/bin/ur" name=windows -engine cmd="$linux/bin/ur" name=linux -each st=0.05
match expendibots -game expendibots -engine cmd="$work/bin/expendibots" name=windows \
  -engine cmd="$linux/bin/expendibots" name=linux -each st=0.05

echo "== protocol fuzz"
for game in tak gomoku twixt ur expendibots "gomoku --pbrain"; do
  # shellcheck disable=SC2086 # "gomoku --pbrain" is two words on purpose
  "$linux/bin/protocol_fuzz" --game $game --engine "$work/bin/${game%% *}" --lines "${FUZZ_LINES:-2000}" \
    --seed "${FUZZ_SEED:-1}" --timeout 60 || fail "protocol fuzz: $game"
done

echo "== console input"
# util-linux's script gives the engine a terminal, which wine makes a Windows console: it echoes
# the input and draws with escape sequences (a cursor move for a space), taken out here. The
# terminal passes Enter on as "\r" (a "\n" is a new line within the one being typed) and is wide
# enough for the longest answer. Each argument is a line typed, "sleep N", or "wait REGEX": wait
# (up to 30 s) until the screen has a line matching REGEX, since a loaded machine may take seconds
# to start wine and answer. The input stays open after the last line: the engine must end on quit
# or END alone.
screen() { sed 's/\x1b\[1C/ /g; s/\x1b\[[0-9;?]*[A-Za-z]//g' "$1" | tr -d '\r'; }
console() {
  local engine=$1
  shift
  : >"$work/$engine.console"
  {
    sleep 1  # the terminal set up first: a line typed before would end in "\n"
    for line in "$@"; do
      case "$line" in
        sleep\ *) $line ;;
        wait\ *)
          for _ in $(seq 300); do
            screen "$work/$engine.console" | grep -Eq "${line#wait }" && break
            sleep 0.1
          done
          sleep 1 ;;  # the answer's echo settled before the next line is typed
        *) printf '%s\r' "$line" ;;
      esac
    done
    sleep 20
  } | timeout 75 script -qec "stty -icrnl cols 1000; $norandom wine '$release$engine.exe'" /dev/null >"$work/$engine.console" ||
    fail "$engine: did not end on its own with a console as input"
  screen "$work/$engine.console"
}
# The echo of a line typed while the engine answers can split an answer: each line waits for the
# answer before it, and only the answers that come alone are checked whole.
answer=$(console tak tei "wait teiok" isready "wait readyok" "position startpos" "go infinite" "sleep 2" stop \
  "wait ^bestmove" quit)
grep -q teiok <<<"$answer" && grep -q readyok <<<"$answer" && grep -q '^bestmove [a-f][1-6]$' <<<"$answer" ||
  fail "tak: no teiok, readyok and bestmove from a console: $answer"
answer=$(console pbrain-bge "START 15" "wait ^OK" "INFO timeout_turn 1000" "sleep 1" BEGIN "wait ^[0-9]+,[0-9]+$" END)
grep -q OK <<<"$answer" && grep -Eqx '[0-9]+,[0-9]+' <<<"$answer" ||
  fail "pbrain-bge: no OK and move from a console: $answer"

echo "== the [protocol] transcript tests, into the .exe files"
if [ -x "$linux/tests/unit_tests" ]; then
  BGE_TEST_ENGINE_COMMAND="$work/bin/{}" "$linux/tests/unit_tests" "[protocol]" >"$work/transcripts.log" 2>&1 ||
    { fail "the [protocol] transcript tests"; cat "$work/transcripts.log" >&2; }
  grep -E '^(All tests passed|test cases)' "$work/transcripts.log" || true
else
  fail "no $linux/tests/unit_tests to run the transcript tests"
fi

echo "== no engine crashed"
# Wine reports a crash as "Unhandled page fault ..." or "Unhandled exception ...".
crashes=$(cat "$wine_log" "$work"/*.console 2>/dev/null | grep -a 'Unhandled' || true)
[ -z "$crashes" ] || fail "an engine crashed under wine: $crashes"

if [ "$failures" -gt 0 ]; then
  echo "wine_test: $failures failures" >&2
  exit 1
fi
echo "wine_test: every check passed"
