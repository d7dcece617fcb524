#!/bin/bash
# A long-running session (tests/helpers/set_hold: the journal API path that
# brisk run and the dashboard use) restores everything on normal exit,
# SIGINT, SIGTERM and SIGHUP; after SIGKILL `brisk restore`, or the stale-
# journal recovery at the next start, puts every attribute back, vm.dirty_*
# included; a second instance is refused with the holder's pid.  The
# scheduler it switches to is bfq when the device offers it, else another
# (loop_alt_sched), with two of its tunables.
source tests/lib.sh
if ! is_root; then t_skip set_signals "needs root for loop devices and sysfs writes"; exit 0; fi
source tests/helpers/set_lib.sh
source tests/cli/loop_common.bash
[ -x "$HOLD" ] || { t_skip set_signals "build/tests/helpers/set_hold missing (make tests)"; exit 0; }
DEV=$(set_loop_attach) || { t_skip set_signals "cannot attach a loop device"; exit 0; }
loop_alt_sched "$DEV" || { t_skip set_signals "$DEV offers no scheduler but none"; exit 0; }
vm_save
orig=$(snapshot $DEV)
vm_orig=$(vm_snapshot)
T=$(t_tmpdir)
CHANGES="scheduler=$alt_sched $alt_key2=$alt_val2 $alt_key=$alt_val read_ahead_kb=1000 nr_requests=32"
# shellcheck disable=SC2154  # _VM_dirty_bytes: assigned by vm_save (set_lib.sh)
if [ "$_VM_dirty_bytes" = 0 ]; then VMSET="vm.dirty_bytes=67108864"; else VMSET="vm.dirty_ratio=15"; fi
VMSET="$VMSET vm.dirty_background_ratio=7 vm.dirty_expire_centisecs=1234"

start_hold() { # OUTFILE ARGS...: start set_hold in the background, wait for it
  local f=$1; shift
  "$HOLD" "$@" >"$f" 2>&1 &
  HPID=$!
  track_pid $HPID
  wait_ready "$f"
}

# normal exit
out=$("$HOLD" -x $DEV $CHANGES 2>&1); rc=$?
t_eq "normal exit: status" "$rc" 0
t_match "normal exit: changed" "$out" "set scheduler=$alt_sched"
t_eq "normal exit: all back" "$(snapshot $DEV)" "$orig"
t_eq "normal exit: journal removed" "$(journals)" 0

for sig in INT TERM HUP; do
  if ! start_hold $T/$sig.out $DEV $CHANGES $VMSET; then
    t_fail "SIG$sig: start" "$(cat $T/$sig.out)"; continue
  fi
  t_eq "SIG$sig: $alt_sched active while held" "$(active_sched $DEV)" "$alt_sched"
  t_eq "SIG$sig: read_ahead_kb while held" "$(sysfs_q $DEV read_ahead_kb)" 1000
  t_eq "SIG$sig: vm.dirty_expire_centisecs while held" "$(cat /proc/sys/vm/dirty_expire_centisecs)" 1234
  t_eq "SIG$sig: journal on disk while held" "$(journals)" 1
  kill -$sig $HPID; wait $HPID; rc=$?
  t_eq "SIG$sig: status" "$rc" 0
  t_eq "SIG$sig: device back" "$(snapshot $DEV)" "$orig"
  t_eq "SIG$sig: vm.dirty_* back" "$(vm_snapshot)" "$vm_orig"
  t_eq "SIG$sig: journal removed" "$(journals)" 0
done

# two instances: the second is refused with the holder's pid, changes nothing
start_hold $T/k1.out $DEV $CHANGES $VMSET || t_fail "SIGKILL: start" "$(cat $T/k1.out)"
out=$("$BRISK" set $DEV read_ahead_kb=100 2>&1); rc=$?
t_eq "second instance: status" "$rc" 1
t_match "second instance: names the holder" "$out" "being changed by another brisk \(pid $HPID\)"
t_eq "second instance: changed nothing" "$(sysfs_q $DEV read_ahead_kb)" 1000
out=$("$HOLD" -x $DEV read_ahead_kb=100 2>&1); rc=$?
t_match "second session: refused with pid" "$out" "busy: held by pid $HPID"
out=$("$BRISK" set $DEV vm.dirty_expire_centisecs=999 2>&1)
t_match "vm.* locked too" "$out" "pid $HPID"
out=$("$BRISK" restore 2>&1)
t_match "restore leaves a live session alone" "$out" "still running; left alone"
t_eq "live session untouched" "$(sysfs_q $DEV read_ahead_kb)" 1000

# SIGKILL, then brisk restore
kill -9 $HPID; wait $HPID 2>/dev/null
t_eq "SIGKILL: still changed" "$(active_sched $DEV)" "$alt_sched"
t_eq "SIGKILL: journal left" "$(journals)" 1
out=$("$BRISK" restore --dry-run 2>&1)
t_match "SIGKILL: dry-run lists the scheduler" "$out" "would restore $DEV scheduler="
t_match "SIGKILL: dry-run lists vm" "$out" "would restore vm.dirty_expire_centisecs="
t_eq "SIGKILL: dry-run changed nothing" "$(active_sched $DEV)" "$alt_sched"
if setpriv --help >/dev/null 2>&1; then
  chmod o+rx "$(dirname "$BRISK_RUNTIME_DIR")"
  out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$BRISK" restore 2>&1); rc=$?
  t_eq "SIGKILL: non-root restore: exit 4 (needs privileges)" "$rc" 4
  t_match "SIGKILL: non-root restore: lists" "$out" "would restore $DEV scheduler="
  t_match "SIGKILL: non-root restore: needs root" "$out" "needs root; run 'sudo brisk restore'"
  t_eq "SIGKILL: non-root restore: changed nothing" "$(active_sched $DEV)" "$alt_sched"
  t_eq "SIGKILL: non-root restore: journal kept" "$(journals)" 1
else
  t_skip "SIGKILL: non-root restore" "setpriv is not installed"
fi
out=$("$BRISK" restore 2>&1); rc=$?
t_eq "SIGKILL+restore: status" "$rc" 0
t_eq "SIGKILL+restore: device back" "$(snapshot $DEV)" "$orig"
t_eq "SIGKILL+restore: vm.dirty_* back" "$(vm_snapshot)" "$vm_orig"
t_eq "SIGKILL+restore: journal removed" "$(journals)" 0

# SIGKILL, then the next brisk start recovers the stale run journal before
# it journals anything itself (so its own originals are the true ones)
start_hold $T/k2.out $DEV $CHANGES $VMSET || t_fail "SIGKILL 2: start" "$(cat $T/k2.out)"
kill -9 $HPID; wait $HPID 2>/dev/null
out=$("$BRISK" set $DEV read_ahead_kb=777 2>&1); rc=$?
t_eq "stale recovery: set status" "$rc" 0
t_match "stale recovery: says so" "$out" "run session \(pid $HPID.*ended without restoring"
t_match "stale recovery: says what" "$out" "restored $DEV scheduler="
t_eq "stale recovery: vm.dirty_* back" "$(vm_snapshot)" "$vm_orig"
t_eq "stale recovery: scheduler back" "$(snapshot $DEV | grep scheduler)" "$(echo "$orig" | grep scheduler)"
"$BRISK" restore >/dev/null 2>&1
t_eq "stale recovery: then restore, all back" "$(snapshot $DEV)" "$orig"
t_eq "stale recovery: no journal left" "$(journals)" 0

# a set journal is not restored automatically: it waits for brisk restore
"$BRISK" set $DEV read_ahead_kb=556 >/dev/null 2>&1
out=$("$HOLD" -x $DEV nomerges=1 2>&1)
t_eq "set journal survives a start" "$(sysfs_q $DEV read_ahead_kb)" 556
"$BRISK" restore >/dev/null 2>&1
t_eq "set journal: restore puts it back" "$(snapshot $DEV)" "$orig"
