#!/usr/bin/env bash
# Installs what is missing from Debian, configures and builds, then optionally:
#   tools/setup.sh match   plays a short arbiter match between two engines and prints the tally
#   tools/setup.sh test    runs every test
# Environment: BUILD_DIR (default build), BGE_WERROR (default ON).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libboost-program-options-dev libboost-dev libfmt-dev catch2 python3)
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

build_dir=${BUILD_DIR:-build}
jobs=$(nproc)
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DBGE_WERROR="${BGE_WERROR:-ON}" >/dev/null
cmake --build "$build_dir" -j"$jobs"

case "${1:-}" in
  "") ;;
  test)
    ctest --test-dir "$build_dir" --output-on-failure -j"$jobs"
    ;;
  match)
    # Alpha-beta against the random player on 5x5: four games, colours swapped in pairs.
    "$build_dir/bin/arbiter" -game tak -size 5 \
      -engine cmd="$build_dir/bin/tak" name=alphabeta \
      -engine cmd="$build_dir/bin/tak" name=random option.Player=random \
      -each tc=10+0.1 stderr=/dev/null -rounds 2 -games 2
    ;;
  *)
    echo "usage: tools/setup.sh [match|test]" >&2
    exit 2
    ;;
esac
