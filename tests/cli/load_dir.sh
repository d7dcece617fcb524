#!/bin/bash
# A load on another directory (dir=): two loop file systems, the actions
# on the first, `-l seq-write:size=32m,dir=SECOND`.  Both stacks are in the
# JSON, the load's bytes reach the second device's counters (not the
# first's), and the work areas go from both directories on a normal exit,
# on SIGINT, and after a SIGKILL once the next run collects them.  As root
# a load directory others can write is refused before anything is made
# (exit 2), and nobody cannot make brisk write where nobody could not.
source tests/lib.sh
source tests/cli/loop_common.bash
command -v jq >/dev/null || { t_skip load_dir "needs jq"; exit 0; }
is_root || { t_skip load_dir "needs root (two loop file systems)"; exit 0; }

lazy="-E lazy_itable_init=0,lazy_journal_init=0"
loop_mount -m "$lazy" load-dir-first 160M
A=$mnt devA=$dev
loop_mount -m "$lazy" load-dir-second 160M
B=$mnt devB=$dev
chmod 755 "$A" "$B"
t=$(t_tmpdir)
areas() { compgen -G "$A/.brisk-*"; compgen -G "$B/.brisk-*"; }

# --- a normal run ---
# direct: its bytes reach the disk while it runs, not at a later writeback
out=$($BRISK run "$A" -q -i 1 -n 3 -a save -l "seq-write:size=32m,direct,dir=$B" --floor 10m \
  --json "$t/r.json" 2>&1); rc=$?
t_eq normal-exit "$rc" 0
t_match text-names-load-dir "$out" "load dir $B \\(ext4 on .*$devB"
t_eq json-load-dir "$(jq -r '.load_dirs[0] | "\(.dir) \(.fstype) \(.device)"' "$t/r.json")" \
  "$B ext4 $devB"
t_eq json-load-dir-disk "$(jq -r '.load_dirs[0].disks[0].name' "$t/r.json")" "$devB"
t_eq json-dir-disk "$(jq -r '.machine.disks[0].name' "$t/r.json")" "$devA"
t_eq json-devices-both "$(jq -r --arg a "$devA" --arg b "$devB" \
  '[.devices | index($a) != null, index($b) != null] | all' "$t/r.json")" true
t_eq window-on-second "$(jq -r '.load_window.device' "$t/r.json")" "$devB"
# what the two disks wrote over the run's ticks, in MiB
wrote() { jq --arg n "$1" '[.system[].devices[] | select(.name == $n) | .w_mib_s // 0] | add' "$t/r.json"; }
wa=$(wrote "$devA") wb=$(wrote "$devB")
if awk -v a="$wa" -v b="$wb" 'BEGIN { exit !(b > 8 && b > 4 * a) }'; then
  t_pass load-bytes-on-second
else
  t_fail load-bytes-on-second "MiB/s summed over ticks: $devA $wa, $devB $wb"
fi
t_eq normal-areas-removed "$(areas)" ""

# --- SIGINT and SIGKILL of a long run ---
run_bg() {
  $BRISK run "$A" -q -i 1 -n 1000 -d 60s -a save -l "seq-write:size=32m,rate=20m,dir=$B" \
    --floor 10m >"$t/bg.out" 2>&1 &
  bg=$!
}
wait_load_file() { # the load's file in B's work area
  local i
  for ((i = 0; i < 200; i++)); do
    compgen -G "$B/.brisk-*/load-seq-write-1" >/dev/null && compgen -G "$A/.brisk-*/owner" \
      >/dev/null && return 0
    sleep 0.1
  done
  return 1
}
run_bg
if wait_load_file; then
  t_eq sigint-owner-in-both "$(cat "$A"/.brisk-*/owner) $(cat "$B"/.brisk-*/owner)" "$bg $bg"
  kill -INT "$bg"; wait "$bg"; rc=$?
  t_eq sigint-exit "$rc" 130
  t_eq sigint-areas-removed "$(areas)" ""
else
  t_fail sigint-run-started "no load file in $B after 20 s: $(head -c 300 "$t/bg.out")"
  kill -9 "$bg"
fi

run_bg
if wait_load_file; then
  wb=$(compgen -G "$B/.brisk-*")
  kill -KILL "$bg"; wait "$bg" 2>/dev/null
  sleep 0.3   # the children die with it
  t_check sigkill-left-load-area test -d "$wb"
  out=$($BRISK run "$A" -q -i 1 -n 1 -a save -l "seq-write:size=8m,dir=$B" --floor 10m 2>&1); rc=$?
  t_eq restart-exit "$rc" 0
  t_match restart-says-so "$out" "removed $wb, left by a brisk run that was killed"
  t_eq restart-areas-removed "$(areas)" ""
else
  t_fail sigkill-run-started "no load file in $B after 20 s"
  kill -9 "$bg"
fi

# --- refusals ---
mkdir -m 1777 "$B/sticky"; mkdir "$B/ww"; chmod 0777 "$B/ww"
out=$($BRISK run "$A" -q -i 1 -n 1 -a save -l "seq-write:size=8m,dir=$B/ww" 2>&1); rc=$?
t_eq world-writable-exit "$rc" 2
t_match world-writable-why "$out" "load dir=: $B/ww: other users can write this directory"
t_eq world-writable-nothing-made "$(areas; compgen -G "$B/ww/*"; compgen -G "$B/ww/.brisk-*")" ""
out=$($BRISK run "$A" -q -i 1 -n 1 -a save -l "seq-write:size=8m,dir=$B/nonesuch" 2>&1); rc=$?
t_eq missing-dir-exit "$rc" 2
t_match missing-dir-why "$out" "load dir=$B/nonesuch: No such file"
out=$($BRISK run "$A" -q -i 1 -n 1 -a save -l "seq-write:size=8m,dir=relative" 2>&1); rc=$?
t_eq relative-dir-exit "$rc" 2
t_match relative-dir-why "$out" "absolute"

# nobody runs brisk in a directory of its own, the load aimed at root's B
t_nobody load-dir-nobody
mine=$(t_tmpdir); chown "$NOBODY" "$mine"; chmod 755 "$(dirname "$mine")"
mkdir "$B/rootonly"; chmod 755 "$(dirname "$B")"   # nobody reaches it, cannot write it
out=$(as_nobody "$BRISK" run "$mine" -q -i 1 -n 1 -a save \
  -l "seq-write:size=8m,dir=$B/rootonly" 2>&1); rc=$?
t_eq nobody-refused-exit "$rc" 2
t_match nobody-refused-why "$out" "$B/rootonly: not writable"
t_eq nobody-nothing-made "$(compgen -G "$B/rootonly/.brisk-*"; compgen -G "$mine/.brisk-*")" ""
