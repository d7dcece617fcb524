#!/bin/bash
# Bad input to brisk set/get is refused with a clear message and exit 2,
# and nothing is changed or journaled; without root nothing is attempted.
# A scheduler switched to is bfq when the device offers it, else another
# (loop_alt_sched); only bfq's own range check skips without it.
source tests/lib.sh
if ! is_root; then t_skip set_bad "needs root for loop devices"; exit 0; fi
source tests/helpers/set_lib.sh
source tests/cli/loop_common.bash
DEV=$(set_loop_attach) || { t_skip set_bad "cannot attach a loop device"; exit 0; }
loop_alt_sched "$DEV" || { t_skip set_bad "$DEV offers no scheduler but none"; exit 0; }
offered=$(tr -d '[]' <"/sys/block/$DEV/queue/scheduler" | xargs)
OTHER=$(set_loop_attach) || { t_skip set_bad "cannot attach a second loop device"; exit 0; }
orig=$(snapshot $DEV)
other_orig=$(snapshot $OTHER)

bad() { # NAME REGEX ARGS...: brisk set ARGS must exit 2 with a message matching REGEX
  local n=$1 re=$2; shift 2
  local out rc
  out=$("$BRISK" set "$@" 2>&1); rc=$?
  t_eq "$n: exit 2" "$rc" 2
  t_match "$n: message" "$out" "$re"
}
bad "unknown scheduler" "scheduler 'nosuch' is not offered \\(choose from: $offered\\)" $DEV scheduler=nosuch
bad "negative number" "nr_requests=-1: out of range, the kernel accepts 4\.\.2048" $DEV nr_requests=-1
bad "below minimum" "out of range" $DEV nr_requests=1
bad "rq_affinity 3" "rq_affinity=3: out of range, the kernel accepts 0\.\.2" $DEV rq_affinity=3
bad "nomerges -1" "out of range" $DEV nomerges=-1
bad "huge read_ahead_kb" "out of range" $DEV read_ahead_kb=99999999999
bad "not a number" "read_ahead_kb=12abc: not a decimal integer" $DEV read_ahead_kb=12abc
bad "empty value" "not a decimal integer" $DEV read_ahead_kb=
bad "vm.dirty_ratio 101" "vm.dirty_ratio=101: out of range, the kernel accepts 0\.\.100" $DEV vm.dirty_ratio=101
bad "vm.dirty_bytes 0" "out of range" $DEV vm.dirty_bytes=0
bad "max_sectors_kb above hw" "above this device's max_hw_sectors_kb" $DEV max_sectors_kb=4294967295
bad "iosched range after a switch" "read_expire=-5: out of range" $DEV scheduler=mq-deadline read_expire=-5
if [ -z "$alt_why" ]; then
  bad "bfq low_latency 2" "low_latency=2: out of range, the kernel accepts 0\.\.1" $DEV scheduler=bfq low_latency=2
else
  t_skip "bfq low_latency 2" "$alt_why"
fi
case " $offered " in
  *" kyber "*) bad "kyber read_lat_nsec -1" "read_lat_nsec=-1: out of range, the kernel accepts 0\.\.9223372036854775807" \
                 $DEV scheduler=kyber read_lat_nsec=-1 ;;
  *) t_skip "kyber read_lat_nsec -1" "$DEV offers no kyber ($offered)" ;;
esac
bad "unknown key" "unknown key 'foo'" $DEV foo=1
bad "tunable of another scheduler" "unknown key 'slice_idle'.*scheduler mq-deadline has no tunable" $DEV scheduler=mq-deadline slice_idle=0
bad "non-whitelisted queue attr" "unknown key 'add_random'" $DEV add_random=0
bad "queue_depth on a loop" "queue_depth is not available here" $DEV queue_depth=4
bad "path escape ../" "never a path" $DEV ../scheduler=bfq
bad "path escape iosched/../" "never a path" $DEV iosched/../../../../etc/passwd=1
bad "absolute path" "never a path" $DEV /sys/block/$DEV/queue/scheduler=bfq
bad "unknown sysctl" "unknown sysctl 'vm.swappiness'" $DEV vm.swappiness=10
bad "sysctl path" "unknown sysctl" $DEV vm.../../kernel/panic=1
bad "no =" "expected KEY=VALUE" $DEV scheduler
bad "device not in the stack" "$OTHER is not in the stack behind $DEV \(its disks: $DEV\)" -d $OTHER $DEV read_ahead_kb=256
bad "no such device" "nosuchdisk0: no such directory or block device" nosuchdisk0 read_ahead_kb=256
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
  bad "tmpfs directory" "/dev/shm is on tmpfs, which has no block device" /dev/shm read_ahead_kb=256
fi
# one bad value among good ones: none of them is applied
bad "all or nothing" "out of range" $DEV read_ahead_kb=256 "scheduler=$alt_sched" nr_requests=0
out=$("$BRISK" get $DEV ../scheduler 2>&1); rc=$?
t_eq "get path escape: exit 2" "$rc" 2
out=$("$BRISK" get $DEV nosuchkey 2>&1); rc=$?
t_eq "get unknown key: exit 2" "$rc" 2
t_match "get unknown key: message" "$out" "unknown key 'nosuchkey'"

t_eq "nothing changed" "$(snapshot $DEV)" "$orig"
t_eq "other device untouched" "$(snapshot $OTHER)" "$other_orig"
t_eq "nothing journaled" "$(find "$BRISK_RUNTIME_DIR" -mindepth 1 -maxdepth 1 -name '*journal*' | wc -l)" 0

# without root: reading works, every write says it needs root, none is tried
if setpriv --help >/dev/null 2>&1; then
  NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
  out=$(env -u BRISK_RUNTIME_DIR XDG_RUNTIME_DIR="$BRISK_RUNTIME_DIR" $NOBODY "$BRISK" get $DEV scheduler 2>&1); rc=$?
  t_eq "non-root get: exit" "$rc" 0
  t_eq "non-root get: value" "$out" "$DEV scheduler=$(active_sched $DEV)"
  out=$(env -u BRISK_RUNTIME_DIR $NOBODY "$BRISK" set $DEV "scheduler=$alt_sched" read_ahead_kb=256 2>&1); rc=$?
  t_eq "non-root set: exit 4 (needs privileges)" "$rc" 4
  t_match "non-root set: scheduler needs root" "$out" "changing $DEV scheduler needs root"
  t_match "non-root set: read_ahead_kb needs root" "$out" "changing $DEV read_ahead_kb needs root"
  out=$(env -u BRISK_RUNTIME_DIR $NOBODY "$BRISK" set $DEV scheduler=nosuch 2>&1); rc=$?
  t_eq "non-root bad value: still exit 2" "$rc" 2
  t_eq "non-root: nothing changed" "$(snapshot $DEV)" "$orig"
else
  t_skip "non-root" "setpriv not available"
fi
