#!/usr/bin/env bash
# Installs what is missing from Debian, configures and builds, then optionally:
#   tools/setup.sh match          builds tak and arbiter only, then plays a short arbiter match
#                                 between two engines and prints the tally
#   tools/setup.sh test           builds everything and runs every test
#   tools/setup.sh test-sanitize  builds with AddressSanitizer and UndefinedBehaviorSanitizer (in
#                                 build-sanitize), runs every test, then a bounded protocol fuzz run
#                                 (FUZZ_LINES random and mutated lines, default 20000, into every engine)
#   tools/setup.sh test-threads   builds the five engines and the threads tests with ThreadSanitizer
#                                 (in build-tsan) and runs those tests: multi-threaded searches of
#                                 every engine through its pipes, and the shared search in process
#   tools/setup.sh package        builds the programs for any x86-64 machine (no -march=native, no
#                                 tests, in build-package) and writes the Debian package build/bge_*.deb
#   tools/setup.sh windows        cross-builds the five engines for Windows with mingw-w64 (in
#                                 build-windows, statically linked, x86-64-v3) and writes the release
#                                 zip build/bge-VERSION-windows-x86_64.zip
#   tools/setup.sh test-windows   the same, then the Windows engines under wine against the Linux
#                                 build (BUILD_DIR, default build, built first if needed):
#                                 tests/windows/wine_test.sh
#   tools/setup.sh package-check  as root on a machine without bge installed: builds the package
#                                 from BUILD_DIR (default build-package), installs it with dpkg -i,
#                                 runs tak bench, arbiter --help, gui --help, man tak and a 2-game
#                                 match from the PATH, and removes it with dpkg -r
# Environment: BUILD_DIR (default build, build-sanitize or build-package), BGE_WERROR (default ON),
# FUZZ_LINES.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libboost-program-options-dev libboost-dev libfmt-dev nlohmann-json3-dev catch2 python3 help2man)
case "${1:-}" in
  # The GUI's browser test (tests/gui) drives Debian's Chromium through Selenium.
  test | test-sanitize) packages+=(chromium chromium-driver python3-selenium) ;;&
  # tools/cluster's test starts a one-node SLURM cluster (tests/cluster/slurm_test.sh).
  test) packages+=(slurm-wlm munge iproute2) ;;
  # CPack's Debian generator reads the programs' library dependencies with dpkg-shlibdeps.
  package | package-check) packages+=(dpkg-dev file man-db) ;;
  # mingw-w64's posix flavour (std::thread), and wine to run what it builds.
  windows) packages+=(g++-mingw-w64-x86-64-posix) ;;
  test-windows) packages+=(g++-mingw-w64-x86-64-posix wine wine64) ;;
esac
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

jobs=$(nproc)
sanitize=OFF
sanitize_thread=OFF
configure=()
targets=()
case "${1:-}" in
  test-sanitize)
    build_dir=${BUILD_DIR:-build-sanitize}
    sanitize=ON
    ;;
  test-threads)
    build_dir=${BUILD_DIR:-build-tsan}
    sanitize_thread=ON
    targets=(--target tak gomoku twixt ur expendibots threads_tests)
    ;;
  package | package-check)
    # A package runs on other machines: the compiler's default x86-64, not this CPU's extensions.
    build_dir=${BUILD_DIR:-build-package}
    if [ "$build_dir" = build-package ]; then configure+=(-DBGE_NATIVE=OFF -DBGE_BUILD_TESTS=OFF); fi
    ;;
  match)
    build_dir=${BUILD_DIR:-build}
    targets=(--target tak arbiter)  # the match needs nothing else: the first run stays short
    ;;
  windows | test-windows)
    # The engines alone, for any x86-64-v3 (AVX2) Windows machine; fmt header-only from the
    # host's libfmt-dev headers (Debian builds no fmt for mingw-w64).
    windows_dir=build-windows
    mkdir -p "$windows_dir/fmt-include"
    ln -sfn /usr/include/fmt "$windows_dir/fmt-include/fmt"
    cmake -S . -B "$windows_dir" -DCMAKE_TOOLCHAIN_FILE=tools/windows/mingw-w64-x86_64.cmake \
      -DCMAKE_BUILD_TYPE=Release -DBGE_WERROR="${BGE_WERROR:-ON}" -DBGE_ENGINES_ONLY=ON -DBGE_BUILD_TESTS=OFF \
      -DBGE_NATIVE=OFF -DBGE_MARCH=x86-64-v3 -DBGE_FMT_INCLUDE_DIR="$(cd "$windows_dir/fmt-include" && pwd)" \
      >/dev/null
    cmake --build "$windows_dir" -j"$(nproc)"
    mkdir -p build
    cp "$windows_dir"/bge-*-windows-x86_64.zip build/
    echo "setup: wrote $(ls -t build/bge-*-windows-x86_64.zip | head -n 1)"
    [ "$1" = windows ] && exit 0
    # The Linux engines, the arbiter and the fuzzer to test against, and the transcript tests
    # (unit_tests) to run into the .exe files.
    build_dir=${BUILD_DIR:-build}
    targets=(--target tak gomoku twixt ur expendibots arbiter protocol_fuzz unit_tests)
    ;;
  *) build_dir=${BUILD_DIR:-build} ;;
esac
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DBGE_WERROR="${BGE_WERROR:-ON}" -DBGE_SANITIZE="$sanitize" \
  -DBGE_SANITIZE_THREAD="$sanitize_thread" \
  "${configure[@]}" >/dev/null
cmake --build "$build_dir" -j"$jobs" "${targets[@]}"

# Writes the Debian package of build_dir into build/ and prints its path.
make_package() {
  mkdir -p build
  local out
  out=$(cd build && pwd)
  (cd "$build_dir" && cpack -G DEB -B "$out" >/dev/null)
  rm -rf build/_CPack_Packages
  ls -t build/bge_*.deb | head -n 1
}

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
    # The cluster test runs shell scripts around the programs the suite already checks here; it
    # runs in the plain build (test) only.
    ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" -LE cluster || status=1
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
  test-threads)
    # The engines run as the tests' children with their stderr discarded: TSan's reports go to
    # files, one per process, and any report fails the run.
    reports=$(cd "$build_dir" && pwd)/tsan-reports
    rm -rf "$reports" && mkdir -p "$reports"
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:log_path=$reports/tsan}
    status=0
    "$build_dir/tests/threads_tests" || status=1
    if [ -n "$(ls -A "$reports")" ]; then
      echo "setup: ThreadSanitizer reports in $reports:" >&2
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
  package)
    echo "setup: wrote $(make_package)"
    ;;
  test-windows)
    tests/windows/wine_test.sh build-windows "$build_dir"
    ;;
  package-check)
    if [ "$(id -u)" -ne 0 ]; then
      echo "setup: package-check installs a package with dpkg: run it as root" >&2
      exit 2
    fi
    if dpkg-query -W -f='${Status}' bge 2>/dev/null | grep -q "install ok installed"; then
      echo "setup: package-check would replace and then remove the installed bge package: not run" >&2
      exit 2
    fi
    tools/package_check.sh "$(make_package)"
    ;;
  *)
    echo "usage: tools/setup.sh [match|test|test-sanitize|test-threads|package|package-check|windows|test-windows]" >&2
    exit 2
    ;;
esac
