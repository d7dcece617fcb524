#!/bin/sh
# Run the tests that need no root, without root: the cmocka units and every
# shell test (tests/run.sh); a test that needs root skips itself with a
# reason.  `make check-noroot` builds the tests and calls this; package
# builds use it (debian/rules, the spec's %check, the PKGBUILD's check()).
# It installs nothing (no install-deps.sh).  TESTS=pattern as for run.sh.
#
# Run by root (dpkg-buildpackage or rpmbuild as root, pbuilder), it drops to
# the user nobody with setpriv, so that brisk itself runs without root too:
# telling the tests "you are not root" while brisk stays root would not do,
# as brisk decides on its own euid.  Then the kernel, not a convention,
# keeps the selection away from the machine: no sysfs or sysctl write, no
# drop_caches, no loop device or mount, and no file written anywhere but
# in build/ (made writable by nobody for the run, given back afterwards)
# and the world-writable temporary directories, which are checked for
# leftovers at the end.  Nobody must be able to reach the tree; when it
# cannot (a tree under /root, as rpmbuild's default ~/rpmbuild is when root
# builds), the built tree is copied into a fresh directory under /tmp that
# nobody can read, the tests run there, and the copy is removed; the
# output says so.  Nothing is ever skipped silently: a run that could not
# test ends with a line that begins "check-noroot: NOT RUN" and exit 1.
#
# HOME, the XDG directories, TMPDIR and TMUX_TMPDIR point into
# build/noroot, so no test reads or writes the builder's own files.  The
# tests are written for a UTF-8 locale (dashboard rules, man pages with
# UTF-8 glyphs) and rpmbuild runs %check under LANG=C: LANG=C.UTF-8 here
# (LC_ALL unset; a test that wants the C locale still sets it itself).
# SHELL=/bin/sh: tmux starts the dashboard tests' panes with $SHELL, else
# the user's login shell, which for nobody is nologin (a builder's clean
# environment may have no SHELL).
set -eu
cd "$(dirname "$0")/.."
top=$PWD
T=$top/build/noroot

run_tests() {
  export HOME="$T/home" XDG_CONFIG_HOME="$T/home/.config" XDG_RUNTIME_DIR="$T/run"
  export TMPDIR="$T/tmp" TMUX_TMPDIR="$T/tmp" BRISK_TMP="$T/tmp"
  export LANG=C.UTF-8 SHELL=/bin/sh
  unset LC_ALL BRISK_RUNTIME_DIR BRISK_DATADIR BRISK_LAB_MODELS BRISK_DEBUG TMUX
  exec tests/run.sh
}

if [ "${1:-}" = --as-user ]; then
  run_tests
fi

if [ ! -x brisk ] || ! ls build/tests/test_* >/dev/null 2>&1; then
  echo "check-noroot: build the tests first (make tests, or make check-noroot)" >&2
  exit 1
fi

rm -rf "$T"
mkdir -p "$T/home/.config" "$T/run" "$T/tmp" build/logs
chmod 700 "$T/run"

if [ "$(id -u)" != 0 ]; then
  run_tests
fi

# root: run as nobody
if ! command -v setpriv >/dev/null 2>&1 || ! id -u nobody >/dev/null 2>&1; then
  echo "check-noroot: NOT RUN: running as root, and no setpriv (util-linux) or no user nobody to drop to" >&2
  exit 1
fi
uid=$(id -u nobody) gid=$(id -g nobody)
as_nobody() { setpriv --reuid="$uid" --regid="$gid" --clear-groups --no-new-privs -- "$@"; }
if ! as_nobody test -r "$top/Makefile" || ! as_nobody test -x "$top/brisk"; then
  if [ -n "${BRISK_NOROOT_COPY:-}" ]; then
    echo "check-noroot: NOT RUN: the user nobody cannot reach the copy $top either" >&2
    exit 1
  fi
  copy=$(mktemp -d "${TMPDIR:-/tmp}/brisk-check-noroot.XXXXXX")
  chmod 755 "$copy"
  trap 'rm -rf "$copy"' EXIT
  trap 'exit 130' INT TERM
  echo "check-noroot: the user nobody cannot reach $top: the tests run in a copy, $copy (removed afterwards)"
  # the built tree as it is (binaries, objects, the build-tree marker),
  # without the git metadata; owners kept (the marker must be the binary's)
  tar -C "$top" --exclude=./.git --exclude=./build/noroot -cf - . | tar -C "$copy" -xpf -
  rc=0
  BRISK_NOROOT_COPY=1 "$copy/packaging/check-noroot.sh" || rc=$?
  exit "$rc"
fi
# build/ and build/logs take new files from nobody (objects and binaries stay
# root's and read-only to it); the logs are rewritten, so they go first.
# Afterwards, also when interrupted, build/ is given back to its owner.
owner=$(stat -c %u:%g build)
rm -f build/logs/*.log
trap 'chown -R -h "$owner" build' EXIT
trap 'exit 130' INT TERM
chown "$uid:$gid" build build/logs
chown -R "$uid:$gid" "$T"
stamp=$T/.start
touch "$stamp"
rc=0
as_nobody "$top/packaging/check-noroot.sh" --as-user || rc=$?
# Anything the run left outside build/: nobody can write only the
# world-writable directories.
left=$(find /tmp /var/tmp /dev/shm -xdev -user "$uid" -newer "$stamp" 2>/dev/null | head -20)
if [ -n "$left" ]; then
  echo "check-noroot: the tests left these outside build/:"
  echo "$left" | sed 's/^/  /'
fi
exit "$rc"
