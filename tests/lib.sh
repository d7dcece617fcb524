# shellcheck shell=bash
# Shared helpers for shell tests; source it.  Each check prints one line:
#   PASS name | FAIL name: why | SKIP name: reason
# tests/run.sh counts those lines.  Scripts run from the repository root.
BRISK=${BRISK:-$PWD/brisk}
t_pass() { echo "PASS $1"; }
t_fail() { echo "FAIL $1: $2"; }
t_skip() { echo "SKIP $1: $2"; }
# t_check NAME CMD...   pass when CMD exits 0
t_check() { local n=$1; shift; if "$@" >/dev/null 2>&1; then t_pass "$n"; else t_fail "$n" "command failed: $*"; fi; }
# t_eq NAME GOT WANT
t_eq() { if [ "$2" = "$3" ]; then t_pass "$1"; else t_fail "$1" "got '$2', want '$3'"; fi; }
# t_match NAME TEXT REGEX (extended)
t_match() { if printf '%s' "$2" | grep -Eq -- "$3"; then t_pass "$1"; else t_fail "$1" "'$(printf '%s' "$2" | head -c 300)' does not match /$3/"; fi; }
is_root() { [ "$(id -u)" = 0 ]; }
# t_bdi_defaults DEV: DEV's dirty limits (/sys/block/DEV/bdi) at the kernel's
# defaults.  A loop device keeps them when it is detached, so a killed test
# would hand its shares to the next test that attaches the same loopN: tests
# call this on attaching a loop device and again before detaching it.
t_bdi_defaults() {
  local b=/sys/block/$1/bdi
  [ -w "$b/max_ratio_fine" ] || return 0
  echo 0 >"$b/min_ratio_fine"; echo 1000000 >"$b/max_ratio_fine"; echo 0 >"$b/strict_limit"
}
# t_nobody NAME: the security tests' untrusted party.  Without root, setpriv
# or a nobody user, skip NAME and exit; else NOBODY is its uid, and
# as_nobody CMD... runs CMD as nobody, without groups.
t_nobody() {
  is_root || { t_skip "$1" "needs root (brisk as root, an attacker as nobody)"; exit 0; }
  command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 ||
    { t_skip "$1" "no setpriv or no nobody user"; exit 0; }
  NOBODY=$(id -u nobody)
}
as_nobody() { setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups "$@"; }
# t_tmpdir: a fresh directory under the build tree (on a real disk, not tmpfs),
# removed when the script exits; works inside $(...) too.
_T_LIST=$(mktemp "${TMPDIR:-/tmp}/brisk-tdirs.XXXXXX")
t_tmpdir() {
  local d
  d=$(mktemp -d "${BRISK_TMP:-$PWD/build}/t.XXXXXX") || return 1
  echo "$d" >>"$_T_LIST"
  echo "$d"
}
# t_atexit CMD: run CMD (a command string) at exit, after T_CLEANUP_EXTRA,
# the last registered first: what a test set up on a resource (a loop
# device) is undone before the resource.  Not from a $(...) subshell.
_T_ATEXIT=
t_atexit() { _T_ATEXIT="$1${_T_ATEXIT:+; $_T_ATEXIT}"; }
# Runs at exit: T_CLEANUP_EXTRA (a command string) first, then the t_atexit
# commands, then the temp dirs.
t_cleanup() {
  [ -n "${T_CLEANUP_EXTRA:-}" ] && eval "$T_CLEANUP_EXTRA"
  [ -n "$_T_ATEXIT" ] && eval "$_T_ATEXIT"
  local d
  while read -r d; do chmod -R u+rwx "$d" 2>/dev/null; rm -rf "$d"; done <"$_T_LIST"
  rm -f "$_T_LIST"
  return 0
}
trap t_cleanup EXIT
# t_umockdev: 0 when umockdev-run is installed and redirects /sys here (the
# sata-hdd testbed's sda reads back 8:0), else 1 with the reason in
# T_UMOCKDEV_WHY.  Lets an ASan build of brisk run under umockdev's preload.
# shellcheck disable=SC2034  # T_UMOCKDEV_WHY is read by the tests that call this
t_umockdev() {
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
  if ! command -v umockdev-run >/dev/null 2>&1; then
    T_UMOCKDEV_WHY="umockdev-run is not installed (Debian: apt-get install umockdev)"
    return 1
  fi
  if [ "$(umockdev-run -d tests/fixtures/sata-hdd.umockdev -- cat /sys/class/block/sda/dev 2>/dev/null)" != 8:0 ]; then
    T_UMOCKDEV_WHY="umockdev-run cannot redirect /sys here (LD_PRELOAD blocked?)"
    return 1
  fi
}
