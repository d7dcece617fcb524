#!/bin/bash
# The disk's dirty limits (bdi.* keys: /sys/block/DEV/bdi/) on a loop device
# (root): brisk get lists them; brisk set of each key, read back from sysfs;
# what the kernel would refuse with a bare EINVAL refused first with the
# reason, nothing written; brisk restore putting the share back exactly (the
# *_fine file carries it); the journal of a session (set_hold) surviving
# SIGKILL; export of a profile with bdi settings, its udev rule applied by
# udevadm test when udevadm is there (tests/helpers: none; BRISK_UDEVADM
# names one), its tmpfiles line by systemd-tmpfiles; sysctl.d refusing.
source tests/lib.sh
if ! is_root; then t_skip set_bdi "needs root for loop devices and sysfs writes"; exit 0; fi
source tests/helpers/set_lib.sh
[ -x "$HOLD" ] || { t_skip set_bdi "build/tests/helpers/set_hold missing (make tests)"; exit 0; }
DEV=$(set_loop_attach) || { t_skip set_bdi "cannot attach a loop device"; exit 0; }
B=/sys/block/$DEV/bdi
[ -e "$B/max_bytes" ] || { t_skip set_bdi "this kernel has no bdi/max_bytes (before Linux 6.2)"; exit 0; }
T=$(t_tmpdir)
bdi() { cat "$B/$1"; }
# the state the kernel keeps: the three numbers, not their views
bsnap() { printf 'strict_limit=%s max_ratio_fine=%s min_ratio_fine=%s' \
  "$(bdi strict_limit)" "$(bdi max_ratio_fine)" "$(bdi min_ratio_fine)"; }
# restore by hand at exit, in case a step failed half-way (min first: a min
# above the max we put back would be refused)
orig_min=$(bdi min_ratio_fine) orig_max=$(bdi max_ratio_fine) orig_strict=$(bdi strict_limit)
t_atexit "echo 0 >$B/min_ratio_fine; echo $orig_max >$B/max_ratio_fine; echo $orig_min >$B/min_ratio_fine; echo $orig_strict >$B/strict_limit"
orig=$(bsnap)
t_eq "defaults of a fresh loop device" "$orig" "strict_limit=0 max_ratio_fine=1000000 min_ratio_fine=0"
page=$(getconf PAGESIZE)
# near NAME GOT WANT: GOT within 3 % of WANT (a share of the dirty limit,
# read back against the limit of that moment, which moves with free memory)
near() {
  if [ "$(( $2 * 100 > $3 * 97 && $2 * 100 < $3 * 103 ))" = 1 ]; then t_pass "$1"
  else t_fail "$1" "got $2, want within 3 % of $3"; fi
}
limit() { awk -v p="$page" '$1 == "nr_dirty_threshold" { printf "%.0f\n", $2 * p }' /proc/vmstat; }

out=$("$BRISK" get "$DEV")
for k in max_bytes max_ratio max_ratio_fine min_bytes min_ratio min_ratio_fine strict_limit; do
  t_match "get lists bdi.$k" "$out" "^$DEV bdi\\.$k=[0-9]+\$"
done
t_eq "get one key" "$("$BRISK" get "$DEV" bdi.strict_limit)" "$DEV bdi.strict_limit=0"

# without root: read, never written (the checks read /proc/vmstat and
# /sys/class/bdi, which anyone may)
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
  NOBODY=$(id -u nobody)
  out=$(cd / && env -u BRISK_RUNTIME_DIR setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups \
    "$BRISK" get "$DEV" bdi.max_ratio_fine 2>&1); rc=$?
  t_eq "nobody: get" "$rc $out" "0 $DEV bdi.max_ratio_fine=1000000"
  out=$(cd / && env -u BRISK_RUNTIME_DIR setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups \
    "$BRISK" set "$DEV" bdi.max_bytes=64m 2>&1); rc=$?
  t_eq "nobody: set needs root (exit 4)" "$rc" 4
  t_match "nobody: set says so" "$out" "changing $DEV bdi\\.max_bytes needs root"
  t_eq "nobody: nothing written" "$(bsnap)" "$orig"
else
  t_skip "nobody" "no setpriv or no nobody user"
fi

set_ok() { # NAME KEY=VALUE...: brisk set must succeed
  local n=$1; shift
  out=$("$BRISK" set "$DEV" "$@" 2>&1); rc=$?
  t_eq "$n: exit" "$rc" 0
  [ $rc = 0 ] || echo "  output: $out"
}
set_ok "strict_limit" bdi.strict_limit=1
t_eq "strict_limit read back" "$(bdi strict_limit)" 1
set_ok "max_ratio" bdi.max_ratio=50
t_eq "max_ratio read back" "$(bdi max_ratio) $(bdi max_ratio_fine)" "50 500000"
set_ok "max_ratio_fine" bdi.max_ratio_fine=250000
t_eq "max_ratio_fine read back" "$(bdi max_ratio) $(bdi max_ratio_fine)" "25 250000"
set_ok "min_ratio" bdi.min_ratio=2
t_eq "min_ratio read back" "$(bdi min_ratio) $(bdi min_ratio_fine)" "2 20000"
set_ok "min_ratio_fine" bdi.min_ratio_fine=1000
t_eq "min_ratio_fine read back" "$(bdi min_ratio) $(bdi min_ratio_fine)" "0 1000"
# bytes: kept as a share of the dirty limit, read back near (below) it
set_ok "max_bytes 64m" bdi.max_bytes=64m
got=$(bdi max_bytes)
near "max_bytes near 64 MiB" "$got" 67108864
t_match "max_bytes: the stored value is reported" "$out" "^$DEV bdi\\.max_bytes=67108864 \\(was [0-9]+\\)(; the kernel stored [0-9]+)? \\(bdi\\.max_ratio_fine now [0-9]+\\)\$"
t_eq "max_bytes set the max share" "$(( $(bdi max_ratio_fine) < 250000 ))" 1
t_match "max_bytes: says the share it holds" "$out" "\(bdi\.max_ratio_fine now $(bdi max_ratio_fine)\)"
set_ok "min_bytes 8m" bdi.min_bytes=8m
got=$(bdi min_bytes)
near "min_bytes near 8 MiB" "$got" 8388608
t_eq "get reads max_bytes" "$("$BRISK" get "$DEV" bdi.max_bytes | sed 's/=.*//')" "$DEV bdi.max_bytes"
t_eq "one journal per set command" "$(journals)" 7

# refused before any write, with the reason
before=$(bsnap)
refused() { # NAME KEY=VALUE PATTERN
  out=$("$BRISK" set "$DEV" "$2" 2>&1); rc=$?
  t_eq "$1: exit 2" "$rc" 2
  t_match "$1: says why" "$out" "$3"
}
refused "max_ratio 101" bdi.max_ratio=101 "bdi\\.max_ratio=101: out of range, the kernel accepts 0\\.\\.100"
refused "max_ratio_fine 1000001" bdi.max_ratio_fine=1000001 "accepts 0\\.\\.1000000"
refused "strict_limit 2" bdi.strict_limit=2 "accepts 0\\.\\.1"
refused "max_bytes not a size" bdi.max_bytes=lots "not a decimal integer"
refused "min above max" bdi.min_ratio=50 "above this disk's max share.*raise bdi\\.max_ratio first"
refused "max below min" bdi.max_ratio_fine=1 "below this disk's min share.*lower bdi\\.min_ratio first"
big=$(( $(limit) * 2 ))
refused "max_bytes above the dirty limit" "bdi.max_bytes=$big" "above the system's dirty limit \\([0-9]+ bytes now"
refused "an unknown bdi file" bdi.read_ahead_kb=1 "unknown dirty limit 'bdi\\.read_ahead_kb' \\(brisk changes only bdi\\.strict_limit"
t_eq "refusals wrote nothing" "$(bsnap)" "$before"
t_eq "refusals journaled nothing" "$(journals)" 7

out=$("$BRISK" restore --dry-run 2>&1); rc=$?
t_eq "dry-run exit 5" "$rc" 5
t_match "dry-run restores the share" "$out" "would restore $DEV bdi\\.max_ratio_fine=1000000"
out=$("$BRISK" restore 2>&1); rc=$?
t_eq "restore: exit" "$rc" 0
[ $rc = 0 ] || echo "  output: $out"
t_match "restore: the max share" "$out" "restored $DEV bdi\\.max_ratio_fine=1000000"
t_match "restore: the min share" "$out" "restored $DEV bdi\\.min_ratio_fine=0"
t_match "restore: strict_limit" "$out" "restored $DEV bdi\\.strict_limit=0"
t_eq "restore: all back" "$(bsnap)" "$orig"
t_eq "restore: max_bytes is the dirty limit again" "$(bdi max_ratio) $(bdi min_bytes)" "100 0"
t_eq "restore: journals cleared" "$(journals)" 0

# --persist keeps the number, whichever of its views an earlier set wrote
set_ok "plain max_ratio_fine" bdi.max_ratio_fine=300000
out=$("$BRISK" set --persist "$DEV" bdi.max_bytes=64m 2>&1); rc=$?
t_eq "persist max_bytes: exit" "$rc" 0
t_eq "persist max_bytes: journals cleared" "$(journals)" 0
t_eq "persist max_bytes: restore leaves it" "$("$BRISK" restore 2>&1)" "nothing to restore"
t_eq "persist max_bytes: the share stays" "$(( $(bdi max_ratio_fine) < 300000 ))" 1
echo "$orig_max" >"$B/max_ratio_fine"
t_eq "persist: back by hand" "$(bsnap)" "$orig"

# a session's journal survives SIGKILL; brisk restore puts it back
"$HOLD" "$DEV" bdi.strict_limit=1 bdi.max_bytes=32m bdi.min_ratio_fine=1000 >"$T/hold.out" 2>&1 &
HPID=$!
track_pid $HPID
if wait_ready "$T/hold.out"; then
  t_eq "held: strict_limit" "$(bdi strict_limit)" 1
  t_eq "held: min_ratio_fine" "$(bdi min_ratio_fine)" 1000
  kill -9 $HPID; wait $HPID 2>/dev/null
  t_eq "SIGKILL: still changed" "$(bdi strict_limit) $(bdi min_ratio_fine)" "1 1000"
  t_eq "SIGKILL: journal left" "$(journals)" 1
  jf=$(find "$BRISK_RUNTIME_DIR" -maxdepth 1 -name 'session-*.journal' | head -1)
  t_match "SIGKILL: the journal holds the share" "$(cat "$jf")" "$DEV .*bdi\\.max_ratio_fine .*bdi\\.max_bytes 1000000"
  out=$("$BRISK" restore 2>&1); rc=$?
  t_eq "SIGKILL+restore: exit" "$rc" 0
  t_match "SIGKILL+restore: the view is skipped" "$out" "bdi\\.max_bytes.*restoring bdi\\.max_ratio_fine=1000000 sets it"
  t_eq "SIGKILL+restore: all back" "$(bsnap)" "$orig"
  t_eq "SIGKILL+restore: journal removed" "$(journals)" 0
else
  t_fail "SIGKILL: start" "$(cat "$T/hold.out")"
fi

# export: the rule text, applied for real; sysctl.d says it cannot
cat >"$T/dirty.profile" <<'EOF'
[profile]
name = dirty
description = a small dirty share

[settings]
bdi.strict_limit = 1
bdi.max_bytes = 48m
EOF
rules=$("$BRISK" export "$T/dirty.profile" --format udev 2>&1); rc=$?
t_eq "export udev: exit" "$rc" 0
t_match "export udev: ATTR through the bdi link" "$rules" 'ATTR\{bdi/max_bytes\}="50331648"'
out=$("$BRISK" export "$T/dirty.profile" --format sysctl 2>&1); rc=$?
t_eq "export sysctl: refused" "$rc" 2
t_match "export sysctl: says it cannot carry them" "$out" "sysctl\\.d cannot carry the disk's dirty limits, bdi\\.strict_limit=1 bdi\\.max_bytes=50331648"
UDEVADM=${BRISK_UDEVADM:-$(command -v udevadm)}
if [ -n "$UDEVADM" ] && [ -x "$UDEVADM" ]; then
  # the class rule's assignments, matched to our loop device only
  assigns=$(printf '%s\n' "$rules" | grep -o 'ATTR{bdi/[a-z_]*}="[0-9]*"' | awk '!seen[$0]++' |
    paste -sd, | sed 's/,/, /g')
  rule="ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"$DEV\", $assigns"
  # udevadm test runs the rules in-process and (systemd 252) writes ATTR;
  # it records the device under /run/udev: take away what it left there
  majmin=$(cat "/sys/block/$DEV/dev")
  if [ -d /run/udev ]; then
    t_atexit "rm -f /run/udev/rules.d/99-brisk-test-$DEV.rules /run/udev/data/b$majmin /run/udev/tags/*/b$majmin"
  else
    t_atexit "rm -rf /run/udev"
  fi
  mkdir -p /run/udev/rules.d
  RULE=/run/udev/rules.d/99-brisk-test-$DEV.rules
  printf '%s\n' "$rule" >"$RULE"
  "$UDEVADM" test --action=change "/sys/block/$DEV" >"$T/udev.out" 2>&1
  t_match "udev: runs the rule" "$(cat "$T/udev.out")" "99-brisk-test-$DEV.rules"
  t_match "udev: writes through the bdi link" "$(cat "$T/udev.out")" "ATTR '/sys/devices/.*/$DEV/bdi/max_bytes' writing '50331648'"
  got=$(bdi max_bytes)
  t_eq "udev: wrote bdi/strict_limit" "$(bdi strict_limit)" 1
  near "udev: wrote bdi/max_bytes (near 48 MiB)" "$got" 50331648
  rm -f "$RULE"
  echo "$orig_max" >"$B/max_ratio_fine"; echo "$orig_strict" >"$B/strict_limit"
else
  t_skip "udev applies the rule" "no udevadm (the udev package; BRISK_UDEVADM=PATH names one)"
fi
if command -v systemd-tmpfiles >/dev/null; then
  printf 'w /sys/block/%s/bdi/strict_limit - - - - 1\nw /sys/block/%s/bdi/max_bytes - - - - 50331648\n' \
    "$DEV" "$DEV" >"$T/brisk-dirty.conf"
  out=$("$BRISK" export "$T/dirty.profile" --format tmpfiles --device "$DEV" 2>&1); rc=$?
  if [ $rc = 0 ]; then
    t_eq "export tmpfiles: the lines" "$(printf '%s\n' "$out" | grep '^w ')" "$(cat "$T/brisk-dirty.conf")"
    printf '%s\n' "$out" >"$T/brisk-dirty.conf"
  else
    t_skip "export tmpfiles: the lines" "--device $DEV refused: $out"
  fi
  systemd-tmpfiles --create "$T/brisk-dirty.conf" >"$T/tmpfiles.out" 2>&1
  got=$(bdi max_bytes)
  t_eq "tmpfiles: wrote strict_limit through the bdi link" "$(bdi strict_limit)" 1
  near "tmpfiles: wrote max_bytes through the bdi link" "$got" 50331648
  echo "$orig_max" >"$B/max_ratio_fine"; echo "$orig_strict" >"$B/strict_limit"
else
  t_skip "tmpfiles applies the lines" "no systemd-tmpfiles"
fi
t_eq "all back at the end" "$(bsnap)" "$orig"
