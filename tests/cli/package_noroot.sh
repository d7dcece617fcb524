#!/bin/bash
# packaging/check-noroot.sh as a package build runs it as root from a tree
# the user nobody cannot reach (rpmbuild's default /root/rpmbuild): the
# tests still run, as nobody, in a copy under TMPDIR that is removed
# afterwards, and the output says so; they are never skipped silently.
source tests/lib.sh
t_nobody check-noroot-copy
d=$(t_tmpdir)
chmod 700 "$d"
mkdir "$d/tree"
tar --exclude=./.git --exclude=./build/noroot --exclude='./build/t.*' -cf - . | tar -C "$d/tree" -xpf -
if as_nobody test -r "$d/tree/Makefile"; then
  t_skip check-noroot-copy "nobody can read $d (cannot make a tree nobody cannot reach)"; exit 0
fi
# TMPDIR: where a package build's would be, reachable by nobody
tmp=$(mktemp -d /tmp/brisk-t-noroot.XXXXXX); chmod 1777 "$tmp"
# shellcheck disable=SC2034  # T_CLEANUP_EXTRA is read by tests/lib.sh
T_CLEANUP_EXTRA="rm -rf '$tmp'"
out=$(cd "$d/tree" && TMPDIR=$tmp TESTS=test_parse packaging/check-noroot.sh 2>&1); rc=$?
t_eq "exit 0" "$rc" 0
t_match "says the tests run in a copy" "$out" "nobody cannot reach $d/tree: the tests run in a copy, $tmp/brisk-check-noroot\."
t_match "the unit tests ran" "$out" '^[1-9][0-9]* passed, 0 failed'
t_eq "the copy is removed" "$(find "$tmp" -mindepth 1 -maxdepth 1 | head -3)" ""
