#!/usr/bin/env bash
# Installs a bge Debian package with dpkg -i, runs its programs from the PATH as a user would
# (no build folder on the PATH), and removes it with dpkg -r, checking that nothing is left.
# Run as root by `tools/setup.sh package-check` (CI), which first checks that no bge is installed.
# Usage: tools/package_check.sh build/bge_VERSION_ARCH.deb
set -euo pipefail
deb=$1
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
work=$(mktemp -d)
installed=0
cleanup() {
  if [ "$installed" = 1 ]; then dpkg -r bge >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { echo "package-check: $*"; }
fail() {
  echo "package-check: FAILED: $*" >&2
  exit 1
}

step "dpkg -i $deb"
dpkg -i "$deb" >/dev/null
installed=1
dpkg-query -W -f='${Package} ${Version}: depends on ${Depends}\n' bge
dpkg -L bge | sort >"$work/files"

programs=(tak gomoku twixt ur expendibots arbiter gui playtak protocol_fuzz train_tak_eval train_tak_sarsa
  train_gomoku_eval train_expendibots_tdleaf train_ur_td)
for program in "${programs[@]}"; do
  [ "$(command -v "$program")" = "/usr/bin/$program" ] || fail "$program is not /usr/bin/$program"
  "$program" --version | grep -q "^$program [0-9]" || fail "$program --version"
  grep -qx "/usr/share/man/man1/$program.1.gz" "$work/files" || fail "the package has no man page for $program"
done
step "every program is on the PATH with --version, and the package has its man page"

step "tak bench"
(cd "$work" && tak bench 2>&1) | tail -n 2
arbiter --help | head -n 1 | grep -q "^Usage: arbiter" || fail "arbiter --help"
gui --help | head -n 1 | grep -q "^Usage: gui" || fail "gui --help"
# Minimal Debian images tell dpkg not to unpack man pages (path-exclude in /etc/dpkg/dpkg.cfg.d).
if [ -f /usr/share/man/man1/tak.1.gz ]; then
  man -P cat tak 2>/dev/null | grep -q "Tak engine speaking TEI and UGI" || fail "man tak"
  step "arbiter --help, gui --help and man tak"
else
  step "arbiter --help and gui --help; man tak skipped: this system's dpkg leaves man pages out"
fi

for file in /usr/share/doc/bge/README.md /usr/share/doc/bge/protocol.md /usr/share/bge/nets/tak/tak6.nnue \
  /usr/share/bge/nets/gomoku/freestyle.nnue; do
  [ -f "$file" ] || fail "$file is missing"
done

step "a 2-game match from the PATH"
(cd "$work" && arbiter -game tak -size 5 -engine cmd=tak name=alphabeta -engine cmd=tak name=random \
  option.Player=random -each tc=10+0.1 stderr=/dev/null -rounds 1 -games 2 -jsonout results.json) | tail -n 4
grep -q '"games"' "$work/results.json" || fail "the match wrote no results"

step "dpkg -r bge"
dpkg -r bge >/dev/null
installed=0
left=()
while read -r path; do
  if [ -f "$path" ] || [ -L "$path" ]; then left+=("$path"); fi
done <"$work/files"
((${#left[@]} == 0)) || fail "dpkg -r left ${left[*]}"
[ -z "$(command -v tak)" ] || fail "tak is still on the PATH"
step "passed"
