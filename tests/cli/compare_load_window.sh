#!/bin/bash
# The load's figures of brisk compare and brisk run against the loop
# device's own write counter, read by the test itself every 100 ms
# (/sys/block/loopN/stat) while brisk runs (issue 26):
#  1. a writer held at 16 MiB/s with O_DIRECT (every byte goes to the
#     device as it is written): each arm-run's "written to disk" figure is
#     within 10 % of the rate the device showed meanwhile, its window is
#     the --load-window asked for in every arm-run, and the text table
#     names the figure and the device;
#  2. a buffered writer over a 64 MiB region (its write() calls land in the
#     page cache at gigabytes a second): no arm-run's disk figure is above
#     the fastest second the device had (+10 %), while the write() rate,
#     shown apart, is far above it;
#  3. brisk run's loaded phase: the same bound, and the table's load mean
#     not above its max.
# shellcheck disable=SC2154  # d, L, dev, q: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
if ! is_root; then t_skip compare-load-window "needs root (loop device, sysfs writes)"; exit 0; fi
command -v jq >/dev/null || { t_skip compare-load-window "needs jq"; exit 0; }
# ext4's lazy init would write inode tables in the background meanwhile
loop_mount -m "-E lazy_itable_init=0,lazy_journal_init=0" compare-load-window 1G
export BRISK_RUNTIME_DIR=$d/rt
loop_alt_sched "$dev" || { t_skip compare-load-window "$dev offers no other scheduler"; exit 0; }

source tests/helpers/devstat.bash
poll() { devstat_poll "$dev" "$1" "$d/stop"; }
rates() { devstat_rates "$1"; }
w=(-a ssh-like --interval 50ms --warmup 1s --settle-max 5s -n 2 --floor 64m -r 2 --seed 3)

# 1. O_DIRECT at 16 MiB/s
poll "$d/p1" & pp=$!
out=$("$BRISK" compare "$d/mnt" current "scheduler=$alt_sched" "${w[@]}" --load-window 3s \
      -l seq-write:rate=16m,direct,size=256m --json "$d/c1.json" -q 2>"$d/err1"); rc=$?
touch "$d/stop"; wait $pp
t_eq "direct: exit 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/  /' "$d/err1"
# the device's own rate while the writer ran: the median of its loaded seconds
dev_rate=$(rates "$d/p1" | awk '$1 > 4' | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
echo "  (the device wrote ${dev_rate:-?} MiB/s in the median loaded second; the arm-runs' disk" \
  "and write() figures: $(jq -c '[.runs[] | [.disk_mibps, .load_mibps] | map(. * 10 | round / 10)]' "$d/c1.json"))"
t_check "direct: the device's counter saw the writer" test -n "$dev_rate"
n_runs=$(jq '.runs | length' "$d/c1.json")
t_eq "direct: four arm-runs" "$n_runs" 4
t_eq "direct: every arm-run's disk figure within 10 % of the device's own rate" \
  "$(jq --argjson r "${dev_rate:-0}" '[.runs[] | .disk_mibps | select(. != null and . >= $r * 0.9 and . <= $r * 1.1)] | length' "$d/c1.json")" \
  "$n_runs"
t_eq "direct: and of the writer's own rate (it bypasses the page cache)" \
  "$(jq '[.runs[] | select(.disk_mibps != null and .load_mibps != null and (.disk_mibps - .load_mibps | fabs) <= .load_mibps * 0.1)] | length' "$d/c1.json")" \
  "$n_runs"
t_eq "direct: every arm-run's window is the 3 s asked for" \
  "$(jq '[.runs[] | select(.window_s >= 2.95 and .window_s < 3.5)] | length' "$d/c1.json")" "$n_runs"
t_eq "direct: the JSON names the window, the device and the rule" \
  "$(jq -c '.load_window' "$d/c1.json")" "{\"seconds\":3,\"device\":\"$dev\",\"rule_by\":\"disk\"}"
t_match "direct: the table names the figure" "$out" \
  '^arm +runs failed +written to disk MiB/s \[95% CI\] +write\(\) MiB/s +worst-stall-ms$'
t_match "direct: and the device" "$out" "written to disk = what reached $dev in it"
t_eq "direct: the arm's mean is the mean of its arm-runs" \
  "$(jq '[.arms[] as $a | [.runs[] | select(.arm == $a.index) | .disk_mibps] | add / length - $a.disk_mibps.est | fabs < 1e-6] | all' "$d/c1.json")" true

# 2. a buffered writer over a small region: bursts into the page cache
poll "$d/p2" & pp=$!
out=$("$BRISK" compare "$d/mnt" current "scheduler=$alt_sched" "${w[@]}" --load-window 2s \
      -l seq-write:size=64m --json "$d/c2.json" -q 2>"$d/err2"); rc=$?
touch "$d/stop"; wait $pp
t_eq "buffered: exit 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/  /' "$d/err2"
dev_max=$(rates "$d/p2" | sort -n | tail -n 1)
echo "  (the device's fastest second: ${dev_max:-?} MiB/s; write() in the windows:" \
  "$(jq -c '[.runs[].load_mibps | floor]' "$d/c2.json") MiB/s)"
t_eq "buffered: no disk figure above the device's fastest second (+10 %)" \
  "$(jq --argjson m "${dev_max:-0}" '[.runs[] | select(.disk_mibps != null and .disk_mibps <= $m * 1.1 + 1)] | length' "$d/c2.json")" \
  "$(jq '.runs | length' "$d/c2.json")"
t_check "buffered: the write() rate, shown apart, is above it" \
  jq -e --argjson m "${dev_max:-0}" '[.runs[].load_mibps] | max > $m * 2' "$d/c2.json"
t_eq "buffered: the load rule goes by the disk" "$(jq -r '.load_window.rule_by' "$d/c2.json")" disk

# 3. brisk run: the loaded phase's disk figure, and the load table
poll "$d/p3" & pp=$!
out=$("$BRISK" run "$d/mnt" -a ssh-like -l seq-write:size=64m --interval 50ms --warmup 1s \
      --idle-samples 1 -n 3 --floor 64m -j "$d/r.json" 2>"$d/err3"); rc=$?
touch "$d/stop"; wait $pp
t_eq "run: exit 0" "$rc" 0
dev_max=$(rates "$d/p3" | sort -n | tail -n 1)
t_check "run: the loaded phase's disk figure is not above the device's fastest second" \
  jq -e --argjson m "${dev_max:-0}" '.load_window.disk_mibps != null and .load_window.disk_mibps <= $m * 1.1 + 1' "$d/r.json"
t_eq "run: its device" "$(jq -r '.load_window.device' "$d/r.json")" "$dev"
t_match "run: the text says it" "$out" "^  in the loaded phase \([0-9.]+ s\): [0-9.]+ MiB/s written to $dev \(its own counters\),"
mean=$(awk '$1 == "seq-write#1" { print $2, $4 }' <<<"$out")
t_check "run: the load table's mean is not above its max ($mean)" awk -v m="$mean" 'BEGIN { split(m, v, " "); exit !(v[1] <= v[2]) }'
t_match "scheduler back" "$(cat "$q/scheduler")" "\[$orig_sched\]"
t_eq "no work files left" "$(find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l)" 0
