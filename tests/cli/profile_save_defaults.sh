#!/bin/bash
# brisk profile save on a real loop device (root): it records the scheduler
# and only what differs from the kernel's defaults, says on stderr what it
# left out (hardware-bound keys apart), keeps what --key names and all with
# --all; a value changed with `brisk set` is recorded, and after `brisk
# restore` left out again (stacks of several disks: profile_save_stack.sh).
# Every change goes through brisk set and is put back.  The second
# scheduler is bfq when the disk offers it, else kyber (loop_alt_sched).
source tests/lib.sh
source tests/cli/loop_common.bash
if ! is_root; then t_skip profile-save-defaults "needs root (loop devices, sysfs writes)"; exit 0; fi
d=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$d/rt XDG_CONFIG_HOME=$d/xdg
mkdir -p "$BRISK_RUNTIME_DIR"
loop_mount -d "$d" -c "$(printf %q "$BRISK") restore >/dev/null 2>&1" profile-save-defaults 64M
grep -qw mq-deadline $q/scheduler || { t_skip profile-save-defaults "$dev offers no mq-deadline"; exit 0; }
loop_alt_sched "$dev"

# save [OPTIONS]: the profile on stdout, stderr in $d/err
save() { "$BRISK" profile save t "$d/mnt" -o - "$@" 2>"$d/err"; }
# val KEY PROFILE: the value of KEY in the profile text (any section)
val() { awk -v k="$1" '$1 == k && $2 == "=" { print $3 }' <<<"$2"; }
rot=$(cat $q/rotational)
[ "$rot" = 1 ] && sec='[settings rotational]' || sec='[settings ssd]'

# 1. mq-deadline just switched to: its tunables are at their defaults (the
#    switch is kept with --persist, so that `brisk restore` below puts back
#    only the tunables; the cleanup and the end put the scheduler back)
"$BRISK" set --persist "$dev" scheduler=mq-deadline >/dev/null || t_fail set-mq-deadline "brisk set failed"
p=$(save); t_eq save-exit $? 0
err=$(cat "$d/err")
t_eq scheduler-recorded "$(val scheduler "$p")" mq-deadline
t_match scheduler-in-its-class "$p" "^\\$sec\$"
for k in read_expire write_expire fifo_batch front_merges writes_starved prio_aging_expire \
         rq_affinity nomerges; do
  [ -e "$q/$k" ] || [ -e "$q/iosched/$k" ] || continue
  t_eq "default-left-out ($k)" "$(val $k "$p")" ""
done
t_match says-left-out-defaults "$err" \
  'brisk profile save: left out [0-9]+ settings at their kernel defaults \(.*read_expire=500.*\); --key KEY or --all keeps them'
t_match defaults-list-names-fifo_batch "$err" 'kernel defaults \([^)]*fifo_batch=16'
for k in nr_requests max_sectors_kb async_depth; do
  t_eq "hardware-bound-left-out ($k)" "$(val $k "$p")" ""
  t_match "says-hardware-bound ($k)" "$err" \
    "left out [0-9]+ hardware-bound settings, which come from each disk's hardware \\([^)]*$k=[0-9]+"
done
t_match hardware-bound-apart "$(grep 'kernel defaults' "$d/err")" '^[^(]*\([^)]*\)[^(]*$'
t_eq hardware-bound-not-with-defaults "$(grep 'kernel defaults' "$d/err" | grep -c 'nr_requests=')" 0
# wbt_lat_usec: 2000 on a loop device (chosen before it had a backing file)
wbt=$(cat $q/wbt_lat_usec 2>/dev/null)
if [ "$wbt" = 2000 ]; then t_eq wbt-default-left-out "$(val wbt_lat_usec "$p")" ""
else t_skip wbt-default-left-out "wbt_lat_usec reads '$wbt' here, not the kernel's 2000"; fi
# read_ahead_kb: 128, or 2 x max_sectors_kb on a rotational disk (recent kernels)
ra=$(cat $q/read_ahead_kb); msk=$(cat $q/max_sectors_kb); opt=$(cat $q/optimal_io_size)
t_eq read_ahead-left-out "$(val read_ahead_kb "$p")" ""
if [ "$ra" = 128 ]; then
  t_match read_ahead-is-a-default "$(grep 'kernel defaults' "$d/err")" 'read_ahead_kb=128'
elif [ "$rot" = 1 ] && [ "$opt" = 0 ] && [ "$ra" = $((2 * msk)) ]; then
  t_match read_ahead-is-hardware-bound "$(grep 'hardware-bound' "$d/err")" "read_ahead_kb=$ra"
else
  t_skip read_ahead-kind "read_ahead_kb $ra is neither 128 nor 2 x max_sectors_kb ($msk)"
fi
t_match saved-line "$("$BRISK" profile save t1 "$d/mnt" 2>/dev/null)" \
  "^saved $XDG_CONFIG_HOME/brisk/profiles/t1.profile \\([0-9]+ settings?, 1 load, 4 actions\\)\$"
t_check saved-checks "$BRISK" profile check "$XDG_CONFIG_HOME/brisk/profiles/t1.profile"

# 2. --key keeps a key whatever its value; iosched/ is taken too
p=$(save --key read_expire -k iosched/fifo_batch --key nr_requests); t_eq key-exit $? 0
t_eq key-keeps-default "$(val read_expire "$p")" 500
t_eq key-keeps-iosched-form "$(val fifo_batch "$p")" 16
t_eq key-keeps-hardware-bound "$(val nr_requests "$p")" "$(cat $q/nr_requests)"
t_eq key-not-listed-as-left-out "$(grep -c 'read_expire=\|fifo_batch=\|nr_requests=' "$d/err")" 0
t_eq key-others-still-left-out "$(val write_expire "$p")" ""
save --key slice_idle >/dev/null; t_eq key-absent-exit $? 0
t_match key-absent-note "$(cat "$d/err")" "note: --key slice_idle: no disk behind $d/mnt has it now"
save --key bogus_key >/dev/null; t_eq key-bad-exit $? 2
t_match key-bad-message "$(cat "$d/err")" "^brisk profile save: --key 'bogus_key': not a setting brisk knows"

# 3. --all: every value as it stands, nothing said
p=$(save --all); t_eq all-exit $? 0
for k in read_expire write_expire fifo_batch async_depth nr_requests max_sectors_kb \
         read_ahead_kb rq_affinity nomerges; do
  f=$q/$k; [ -e "$f" ] || f=$q/iosched/$k
  t_eq "all-keeps ($k)" "$(val $k "$p")" "$(cat "$f")"
done
t_eq all-says-nothing "$(grep -c 'left out' "$d/err")" 0

# 4. a value changed with brisk set is recorded; after brisk restore, not
"$BRISK" set "$dev" read_expire=1000 >/dev/null; t_eq set-read_expire $? 0
p=$(save); t_eq changed-recorded "$(val read_expire "$p")" "$(cat $q/iosched/read_expire)"
t_eq changed-not-listed "$(grep -c 'read_expire=' "$d/err")" 0
"$BRISK" restore >/dev/null 2>&1; t_eq restore-exit $? 0
t_eq restored "$(cat $q/iosched/read_expire)" 500
p=$(save); t_eq restored-left-out "$(val read_expire "$p")" ""

# 5. a second scheduler just switched to (bfq, else kyber): its tunables
#    at their defaults too (bfq's timeout_sync is HZ/8 jiffies: 125, 124 or
#    120 ms by CONFIG_HZ; bfq turns wbt off); one changed with brisk set is
#    recorded, and brisk restore puts it back
case $alt_sched in
  bfq) keys2="slice_idle slice_idle_us low_latency back_seek_max back_seek_penalty fifo_expire_sync
              fifo_expire_async timeout_sync max_budget strict_guarantees" ;;
  kyber) keys2="read_lat_nsec write_lat_nsec" ;;
  *) keys2="" ;;
esac
if [ -n "$keys2" ]; then
  s2=$alt_sched
  "$BRISK" set --persist "$dev" scheduler="$s2" >/dev/null; t_eq "set-$s2" $? 0
  p=$(save); t_eq "$s2-exit" $? 0
  t_eq "$s2-recorded" "$(val scheduler "$p")" "$s2"
  for k in $keys2; do
    t_eq "$s2-default-left-out ($k)" "$(val $k "$p")" ""
  done
  if [ "$s2" != bfq ]; then
    t_skip bfq-wbt-off-left-out "$alt_why"
  elif [ "$(cat $q/wbt_lat_usec 2>/dev/null)" = 0 ]; then
    t_eq bfq-wbt-off-left-out "$(val wbt_lat_usec "$p")" ""
  else
    t_skip bfq-wbt-off-left-out "wbt_lat_usec under bfq reads $(cat $q/wbt_lat_usec), set by hand earlier"
  fi
  was=$(cat "$q/iosched/$alt_key2")
  "$BRISK" set "$dev" "$alt_key2=$alt_val2" >/dev/null
  p=$(save); t_eq "$s2-changed-recorded" "$(val "$alt_key2" "$p")" "$alt_val2"
  "$BRISK" restore >/dev/null 2>&1; t_eq "restore-$s2-exit" $? 0
  t_eq "restored-$alt_key2" "$(cat "$q/iosched/$alt_key2")" "$was"
else
  t_skip "second scheduler" "$dev offers neither bfq nor kyber"
fi
"$BRISK" set --persist "$dev" scheduler="$orig_sched" >/dev/null
umount "$d/mnt"

t_eq restored-at-end "$(sed -n 's/.*\[\(.*\)\].*/\1/p' $q/scheduler)" "$orig_sched"
