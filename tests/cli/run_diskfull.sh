#!/bin/bash
# Disk full (root): on a small loop-mounted ext4 the writer stops at the
# free-space floor, or ends cleanly on ENOSPC without a floor; the run
# reports it and leaves nothing behind.  Either way the load ended before
# the loaded phase did: the report says the figures after it are invalid
# and the run exits 1.
source tests/lib.sh
source tests/cli/loop_common.bash

loop_mount -m "-m 0" diskfull 64M
touch "$mnt/keep-me"
avail0=$(df -B1 --output=avail "$mnt" | tail -1)

# default floor (max(5 %, 2 GiB)) is more than this file system has: refused
err=$($BRISK run "$mnt" -q 2>&1); rc=$?
t_eq default-floor-refused-exit-1 "$rc" 1
t_match default-floor-message "$err" 'free-space floor'
t_eq default-floor-nothing-left "$(find "$mnt" -mindepth 1 -maxdepth 1 ! -name lost+found -printf '%f\n')" keep-me

# no writer, no floor: an idle baseline needs room for its own files only
out=$($BRISK run "$mnt" -q --no-load -a save,ls --ls-files 50 -i 2 --json - 2>&1); rc=$?
t_eq no-load-no-floor-exit-0 "$rc" 0
t_check no-load-no-floor-samples jq -e '[.samples[]|select(.phase=="idle")]|length == 4' <<<"$out"
t_eq no-load-nothing-left "$(find "$mnt" -mindepth 1 -maxdepth 1 ! -name lost+found -printf '%f\n')" keep-me

args=(-q -a "exec,save" -i 1 -n 3 --interval 50ms --warmup 300ms -d 15s --tick 200ms)
# 1: floor of 16 MiB: the writer stops above it
out=$($BRISK run "$mnt" "${args[@]}" --floor 16m --load seq-write:bs=256k --json -); rc=$?
t_eq floor-exit-1 "$rc" 1
t_check floor-invalid jq -e '.load_ended_early.invalid and (.load_ended_early.load|test("floor"))' <<<"$out"
t_eq floor-load-end "$(jq -r '.loads[0].end' <<<"$out")" "free-space floor"
t_check floor-wrote-something jq -e '.loads[0].bytes > 0' <<<"$out"
t_check floor-respected jq -e --argjson a "$avail0" '.loads[0].bytes <= $a - 16*1048576' <<<"$out"
t_check floor-note jq -e '[.notes[]|select(test("floor \\(16\\.0 MiB\\) reached"))]|length == 1' <<<"$out"
t_eq floor-loaded-samples "$(jq '[.samples[]|select(.phase=="loaded")]|length' <<<"$out")" 6
t_eq floor-nothing-left "$(find "$mnt" -mindepth 1 -maxdepth 1 ! -name lost+found -printf '%f\n')" keep-me
# the loop device is sampled, and the disk under its backing file too
under=$($BRISK devices "$d" --json | jq -r '.leaves[0]')
t_eq devices-loop-and-backing "$(jq -c .devices <<<"$out")" "[\"$dev\",\"$under\"]"
t_check system-samples-per-device jq -e '.system[0].devices|length == 2' <<<"$out"

# 2: no floor (--floor 0): the writer fills the disk and ends on ENOSPC;
# the run goes on and reports
out=$($BRISK run "$mnt" "${args[@]}" --floor 0 --load seq-write:bs=256k --json -); rc=$?
t_eq enospc-exit-1 "$rc" 1
t_check enospc-invalid jq -e '.load_ended_early.invalid' <<<"$out"
t_eq enospc-load-end "$(jq -r '.loads[0].end' <<<"$out")" ENOSPC
t_check enospc-note jq -e '[.notes[]|select(test("ENOSPC: "))]|length == 1' <<<"$out"
t_check enospc-reported-text bash -c "$BRISK run '$mnt' ${args[*]} --floor 0 --load seq-write:bs=256k | grep -q 'ENOSPC'"
t_eq enospc-nothing-left "$(find "$mnt" -mindepth 1 -maxdepth 1 ! -name lost+found -printf '%f\n')" keep-me
t_eq enospc-space-back "$(df -B1 --output=avail "$mnt" | tail -1)" "$avail0"
