#!/bin/bash
# brisk export --apply: a profile's settings on a loop device for this boot,
# journaled like `brisk set`; `brisk restore` puts them back.  Needs root and
# losetup (else SKIP).  Never touches vm.* or real disks.  The profile
# applied switches to bfq when the loop device offers it, else to another
# scheduler (loop_alt_sched), with one of its tunables.
source tests/lib.sh
source tests/cli/loop_common.bash

d=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$d/run
mkdir -p "$BRISK_RUNTIME_DIR"

# p_profile SCHEDULER KEY VALUE: $d/p.profile switches to SCHEDULER, sets
# its KEY, read_ahead_kb and nr_requests
p_profile() {
  printf '[settings]\nscheduler = %s\n%s = %s\nread_ahead_kb = 64\nnr_requests = 32\n' "$@" >"$d/p.profile"
}
# --dry-run works without root and changes nothing
p_profile bfq low_latency 0
# bad usage: exit 2
$BRISK export "$d/p.profile" --apply --format udev 2>/dev/null; t_eq apply-with-format $? 2
$BRISK export "$d/p.profile" --dry-run 2>/dev/null; t_eq dry-run-alone $? 2

loop_mount -n -d "$d" apply 64M
loop_alt_sched "$dev" || { t_skip apply "$dev offers no scheduler but none"; exit 0; }
p_profile "$alt_sched" "$alt_key" "$alt_val"
before="$(cat $q/scheduler) $(cat $q/read_ahead_kb) $(cat $q/nr_requests)"
vm_before=$(cat /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_bytes)

out=$($BRISK export "$d/p.profile" --apply --dry-run --device "$L"); t_eq dry-run-exit-5-pending $? 5
t_match dry-run-lists "$out" "^$dev scheduler: [a-z-]+ -> $alt_sched\$"
t_eq dry-run-changes-nothing "$(cat $q/scheduler) $(cat $q/read_ahead_kb) $(cat $q/nr_requests)" "$before"

out=$($BRISK export "$d/p.profile" --apply --device "$L"); t_eq apply-exit $? 0
t_match apply-says-journal "$out" "journaled in $BRISK_RUNTIME_DIR/.*; 'brisk restore' puts the original values back"
t_eq apply-scheduler "$(sed -n 's/.*\[\(.*\)\].*/\1/p' $q/scheduler)" "$alt_sched"
t_eq "apply-$alt_key" "$(cat "$q/iosched/$alt_key")" "$alt_val"
t_eq apply-read_ahead "$(cat $q/read_ahead_kb)" 64
t_eq apply-nr_requests "$(cat $q/nr_requests)" 32
t_eq apply-journal-kept "$(find "$BRISK_RUNTIME_DIR" -mindepth 1 -maxdepth 1 -name '*.journal' ! -name '.*' | wc -l)" 1

out=$($BRISK restore 2>&1); t_eq restore-exit $? 0
t_eq restore-puts-back "$(cat $q/scheduler) $(cat $q/read_ahead_kb) $(cat $q/nr_requests)" "$before"
t_eq restore-empties-journal "$(find "$BRISK_RUNTIME_DIR" -mindepth 1 -maxdepth 1 -name '*.journal' ! -name '.*' | wc -l)" 0

# a value the device refuses at check time: exit 2, nothing changed
if [ -e $q/max_sectors_kb ]; then
  printf '[settings]\nmax_sectors_kb = 2147483647\nread_ahead_kb = 16\n' > "$d/big.profile"
  err=$($BRISK export "$d/big.profile" --apply --device "$L" 2>&1); rc=$?
  t_eq apply-bad-exit "$rc" 2
  t_match apply-bad-names-line "$err" "big.profile:2: $dev \(a [a-z]+ disk\): "
  t_eq apply-bad-changes-nothing "$(cat $q/scheduler) $(cat $q/read_ahead_kb) $(cat $q/nr_requests)" "$before"
else
  t_skip apply-bad "$dev has no queue/max_sectors_kb"
fi
t_eq vm-untouched "$(cat /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_bytes)" "$vm_before"
