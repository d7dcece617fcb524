#!/bin/bash
# brisk compare's load rule on a lab hdd-7200 (root, /dev/fuse; issue 26):
# an arm that really starves the writer at the disk (a 2-page global dirty
# limit and 4 KiB requests: the buffered writer is held to a trickle, while
# the reads get quick) is called out as starving the load, by what reached
# the disk, and is not recommended; every arm's disk figure is at or below
# the model's media rate (120 MB/s), which the old figure (write() over the
# load's whole life, page-cache bursts included) was not bound by.  The
# seed's own case, bfq's writer blocked 17.4 s, needs bfq, which this
# kernel may lack; the arm here starves the writer on any kernel.
source tests/lib.sh
source tests/cli/lab_common.bash
why=$(lab_requirements)
[ -z "$why" ] && ! command -v jq >/dev/null && why="no jq"
if [ -n "$why" ]; then t_skip "lab load rule" "$why"; exit 0; fi
lab_setup
if ! lab_up --model hdd-7200 --size 2G; then
  t_fail "lab up" "$LAB_OUT"; exit 0
fi
dev=${LAB_LOOP#/dev/}
starve="vm.dirty_bytes=8192,max_sectors_kb=4"
dirty_before=$(cat /proc/sys/vm/dirty_bytes)
msk_before=$(cat "/sys/block/$dev/queue/max_sectors_kb")
out=$("$BRISK" compare "$LAB_MNT" current "$starve" -a ssh-like -r 2 -n 2 --load-window 5s \
      -l seq-write:size=512m --floor 128m --seed 5 -q --json "$LAB_T/c.json" 2>"$LAB_T/err"); rc=$?
t_eq "exit 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/  /' "$LAB_T/err"
echo "  (written to disk, MiB/s per arm: $(jq -c '[.arms[] | .disk_mibps.est | . * 10 | round / 10]' "$LAB_T/c.json");" \
  "write(): $(jq -c '[.arms[] | .load_mibps.est | . * 10 | round / 10]' "$LAB_T/c.json"))"
t_eq "the rule goes by the disk" "$(jq -r .load_window.rule_by "$LAB_T/c.json")" disk
t_eq "the starving arm: below half of current's disk figure" \
  "$(jq '(.arms[1].disk_mibps.est < .arms[0].disk_mibps.est * 0.5)' "$LAB_T/c.json")" true
t_eq "current: load_ok true, the starving arm false" "$(jq -c '[.arms[].load_ok]' "$LAB_T/c.json")" '[true,false]'
t_match "the text calls it out" "$out" "^  [0-9]\. vm\.dirty_b score +[0-9.]+  starves the load \([0-9.]+ MiB/s written to disk, below 50% of the best\)"
t_eq "it is not recommended" "$(jq -r '.recommendation.arm' "$LAB_T/c.json")" null
# the model writes 120 MB/s = 114.4 MiB/s; the counters' window may take a
# few percent more (a request finishing on its edge)
t_eq "every arm-run's disk figure at or below the media rate" \
  "$(jq '[.runs[] | select(.disk_mibps != null and .disk_mibps <= 114.4 * 1.05)] | length' "$LAB_T/c.json")" \
  "$(jq '.runs | length' "$LAB_T/c.json")"
t_eq "vm.dirty_bytes put back" "$(cat /proc/sys/vm/dirty_bytes)" "$dirty_before"
t_eq "max_sectors_kb put back" "$(cat "/sys/block/$dev/queue/max_sectors_kb")" "$msk_before"
