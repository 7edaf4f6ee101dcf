#!/usr/bin/env bash
# Installs what is missing from Debian, configures and builds, then optionally:
#   tools/setup.sh match          plays a short arbiter match between two engines and prints the tally
#   tools/setup.sh test           runs every test
#   tools/setup.sh test-sanitize  builds with AddressSanitizer and UndefinedBehaviorSanitizer (in
#                                 build-sanitize), runs every test, then a bounded protocol fuzz run
#                                 (FUZZ_LINES random and mutated lines, default 20000, into every engine)
# Environment: BUILD_DIR (default build, or build-sanitize), BGE_WERROR (default ON), FUZZ_LINES.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libboost-program-options-dev libboost-dev libfmt-dev catch2 python3)
# The GUI's browser test (tests/gui) drives Debian's Chromium through Selenium.
case "${1:-}" in test | test-sanitize) packages+=(chromium chromium-driver python3-selenium) ;; esac
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

sanitize=OFF
if [ "${1:-}" = test-sanitize ]; then sanitize=ON; fi
if [ "$sanitize" = ON ]; then build_dir=${BUILD_DIR:-build-sanitize}; else build_dir=${BUILD_DIR:-build}; fi
jobs=$(nproc)
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DBGE_WERROR="${BGE_WERROR:-ON}" -DBGE_SANITIZE="$sanitize" >/dev/null
cmake --build "$build_dir" -j"$jobs"

case "${1:-}" in
  "") ;;
  test)
    ctest --test-dir "$build_dir" --output-on-failure -j"$jobs"
    ;;
  test-sanitize)
    # Any sanitizer finding ends the program with a non-zero status (the build uses
    # -fno-sanitize-recover), and leaks are reported at exit. ASan and LSan reports go to files,
    # one per process, so such a finding in an engine whose stderr a test discards is not lost
    # either: any report file fails the run, after the suite and the fuzz run. (UBSan's go to the
    # process's stderr whatever log_path says, GCC bug 94328: docs/design.md.)
    reports=$(cd "$build_dir" && pwd)/sanitizer-reports
    rm -rf "$reports" && mkdir -p "$reports"
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:log_path=$reports/asan}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:log_path=$reports/ubsan}
    status=0
    ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" || status=1
    for game in tak gomoku twixt ur expendibots "gomoku --pbrain"; do
      # shellcheck disable=SC2086 # "gomoku --pbrain" is two words on purpose
      "$build_dir/bin/protocol_fuzz" --game $game --engine "$build_dir/bin/${game%% *}" \
        --lines "${FUZZ_LINES:-20000}" --seed "${FUZZ_SEED:-1}" || status=1
    done
    if [ -n "$(ls -A "$reports")" ]; then
      echo "setup: sanitizer reports in $reports:" >&2
      for report in "$reports"/*; do echo "== $report" >&2; cat "$report" >&2; done
      status=1
    fi
    exit "$status"
    ;;
  match)
    # Alpha-beta against the random player on 5x5: four games, colours swapped in pairs.
    "$build_dir/bin/arbiter" -game tak -size 5 \
      -engine cmd="$build_dir/bin/tak" name=alphabeta \
      -engine cmd="$build_dir/bin/tak" name=random option.Player=random \
      -each tc=10+0.1 stderr=/dev/null -rounds 2 -games 2
    ;;
  *)
    echo "usage: tools/setup.sh [match|test|test-sanitize]" >&2
    exit 2
    ;;
esac
