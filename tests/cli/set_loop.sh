#!/bin/bash
# brisk set/get/restore on a real loop device (root): scheduler cycle
# none -> bfq -> mq-deadline -> kyber -> back, iosched tunables of each set
# and read back from sysfs, queue attributes, restore, --persist.  Without
# bfq its step skips (the reason printed) and the switch-and-tune step
# switches back to mq-deadline.
source tests/lib.sh
if ! is_root; then t_skip set_loop "needs root for loop devices and sysfs writes"; exit 0; fi
source tests/helpers/set_lib.sh
source tests/cli/loop_common.bash
DEV=$(set_loop_attach) || { t_skip set_loop "cannot attach a loop device"; exit 0; }
offered=$(cat /sys/block/$DEV/queue/scheduler)
loop_alt_sched "$DEV"
for s in mq-deadline kyber; do
  case " $offered " in *" $s "*|*"[$s]"*) ;; *) t_skip set_loop "kernel offers no $s ($offered)"; exit 0;; esac
done
orig=$(snapshot $DEV)
orig_sched=$(active_sched $DEV)

# scheduler cycle with each scheduler's tunables, read back from sysfs
check_set() { # NAME ARGS...: brisk set must succeed
  local n=$1; shift
  out=$("$BRISK" set "$DEV" "$@" 2>&1); rc=$?
  t_eq "$n: exit" "$rc" 0
  [ $rc = 0 ] || echo "  output: $out"
}
# gone DEV PATTERN: how many iosched files match PATTERN
gone() { find "/sys/block/$1/queue/iosched" -mindepth 1 -maxdepth 1 -name "$2" | wc -l; }
prev=$orig_sched want_journals=6
if [ -z "$alt_why" ]; then
  check_set "bfq" scheduler=bfq low_latency=0 slice_idle=0 back_seek_penalty=3
  t_eq "bfq active" "$(active_sched $DEV)" bfq
  t_eq "bfq low_latency" "$(sysfs_q $DEV iosched/low_latency)" 0
  t_eq "bfq slice_idle" "$(sysfs_q $DEV iosched/slice_idle)" 0
  t_eq "bfq back_seek_penalty" "$(sysfs_q $DEV iosched/back_seek_penalty)" 3
  t_eq "get reads bfq slice_idle" "$("$BRISK" get $DEV slice_idle)" "$DEV iosched/slice_idle=0"
  prev=bfq want_journals=7
else
  t_skip "bfq" "$alt_why"
fi

check_set "mq-deadline" scheduler=mq-deadline fifo_batch=8 read_expire=1000 iosched/writes_starved=4
t_match "set reports old value" "$out" "$DEV scheduler=mq-deadline \\(was $prev\\)"
t_eq "mq-deadline active" "$(active_sched $DEV)" mq-deadline
t_eq "mq-deadline fifo_batch" "$(sysfs_q $DEV iosched/fifo_batch)" 8
t_eq "mq-deadline read_expire" "$(sysfs_q $DEV iosched/read_expire)" 1000
t_eq "mq-deadline writes_starved" "$(sysfs_q $DEV iosched/writes_starved)" 4
t_eq "get reads mq-deadline fifo_batch" "$("$BRISK" get $DEV fifo_batch)" "$DEV iosched/fifo_batch=8"
if [ -z "$alt_why" ]; then t_eq "bfq tunables gone with bfq" "$(gone $DEV '*slice_idle*')" 0
else t_skip "bfq tunables gone with bfq" "$alt_why"; fi
# a value the kernel rounds (ms -> jiffies) is reported, not hidden
out=$("$BRISK" set $DEV read_expire=501 2>&1); rc=$?
stored=$(sysfs_q $DEV iosched/read_expire)
if [ "$stored" = 501 ]; then t_eq "exact read_expire" "$rc" 0
else t_match "rounded read_expire reported" "$out" "the kernel stored $stored"; fi

check_set "kyber" scheduler=kyber read_lat_nsec=500000 write_lat_nsec=5000000
t_eq "kyber active" "$(active_sched $DEV)" kyber
t_eq "kyber read_lat_nsec" "$(sysfs_q $DEV iosched/read_lat_nsec)" 500000
t_eq "kyber write_lat_nsec" "$(sysfs_q $DEV iosched/write_lat_nsec)" 5000000
t_eq "mq-deadline tunables gone with mq-deadline" "$(gone $DEV '*fifo_batch*')" 0
# an iosched key of the scheduler switched to in the same command
if [ -z "$alt_why" ]; then
  check_set "switch and tune at once" scheduler=bfq slice_idle=2
  t_eq "bfq slice_idle after switch" "$(sysfs_q $DEV iosched/slice_idle)" 2
else
  check_set "switch and tune at once" scheduler=mq-deadline writes_starved=3
  t_eq "mq-deadline writes_starved after switch" "$(sysfs_q $DEV iosched/writes_starved)" 3
fi
check_set "back to $orig_sched" scheduler=$orig_sched
t_eq "original scheduler active" "$(active_sched $DEV)" "$orig_sched"

check_set "queue attributes" nr_requests=64 read_ahead_kb=512 wbt_lat_usec=1000 max_sectors_kb=256 rq_affinity=2 nomerges=1
for kv in nr_requests=64 read_ahead_kb=512 wbt_lat_usec=1000 max_sectors_kb=256 rq_affinity=2 nomerges=1; do
  t_eq "queue ${kv%%=*}" "$(sysfs_q $DEV ${kv%%=*})" "${kv#*=}"
done
t_eq "one journal per set command" "$(journals)" "$want_journals"

out=$("$BRISK" restore --dry-run 2>&1); rc=$?
t_eq "dry-run exit 5 (values to restore)" "$rc" 5
t_match "dry-run lists" "$out" "would restore $DEV read_ahead_kb="
t_eq "dry-run changes nothing" "$(sysfs_q $DEV read_ahead_kb)" 512
out=$("$BRISK" restore 2>&1); rc=$?
t_eq "restore exit" "$rc" 0
t_match "restore reports" "$out" "restored $DEV scheduler=$orig_sched"
t_eq "every attribute back" "$(snapshot $DEV)" "$orig"
t_eq "journals cleared" "$(journals)" 0
t_eq "restore again: nothing" "$("$BRISK" restore 2>&1)" "nothing to restore"

# --persist: the change stays, restore leaves it, also over an earlier set
ra=$(sysfs_q $DEV read_ahead_kb)
check_set "plain set" read_ahead_kb=300
out=$("$BRISK" set --persist $DEV read_ahead_kb=400 2>&1); rc=$?
t_eq "persist exit" "$rc" 0
t_eq "persist clears the journals" "$(journals)" 0
t_eq "restore after persist" "$("$BRISK" restore 2>&1)" "nothing to restore"
t_eq "persisted value stays" "$(sysfs_q $DEV read_ahead_kb)" 400
"$BRISK" set --persist $DEV read_ahead_kb=$ra >/dev/null 2>&1
t_eq "back by hand" "$(snapshot $DEV)" "$orig"

# the kernel refuses a value brisk cannot know is too big (nr_requests above
# the tag depth with scheduler none): the error and errno are shown, what
# this command already changed is rolled back, nothing stays journaled
if [ "$(active_sched $DEV)" = none ] && [ "$(sysfs_q $DEV nr_requests)" -lt 2048 ]; then
  out=$("$BRISK" set $DEV read_ahead_kb=1024 nr_requests=2048 2>&1); rc=$?
  t_eq "kernel refusal: exit 1" "$rc" 1
  t_match "kernel refusal: errno and value" "$out" "$DEV: the kernel refused nr_requests=2048: Invalid argument \(errno 22\)"
  t_match "kernel refusal: rolled back" "$out" "restored $DEV read_ahead_kb="
  t_eq "kernel refusal: nothing changed" "$(snapshot $DEV)" "$orig"
  t_eq "kernel refusal: no journal" "$(journals)" 0
else
  t_skip "kernel refusal" "needs scheduler none with a tag depth under 2048"
fi
