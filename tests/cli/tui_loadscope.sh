#!/bin/bash
# brisk tui with the load on a second loop file system (dir=): key d points
# s and t at the load's disks; the scheduler picked there changes the
# load's loop device only, the epoch reads load:scheduler=X, the tunables
# editor edits the load's disk, and q puts both back.  Without a load
# directory, d says why it cannot.
source tests/lib.sh
source tests/cli/tui_common.bash
source tests/cli/loop_common.bash

if ! command -v tmux >/dev/null; then t_skip tui-loadscope "tmux is not installed"; exit 0; fi
if ! is_root; then t_skip tui-loadscope "needs root (loop devices, scheduler writes)"; exit 0; fi
T=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$T/run
mkdir -p "$BRISK_RUNTIME_DIR"
loop_mount tui-loadscope-first 200M
A=$mnt qA=$q schedA=$orig_sched
loop_mount tui-loadscope-second 200M
B=$mnt devB=$dev qB=$q schedB=$orig_sched
chmod 755 "$A" "$B"
want=$(loop_other_sched bfq mq-deadline kyber none) || { t_skip tui-loadscope "$devB offers only $schedB"; exit 0; }
raB=$(cat "$qB/read_ahead_kb") raA=$(cat "$qA/read_ahead_kb")
ARGS=(--load "seq-write:rate=8m,size=16m,dir=$B" --ls-files 100 --interval 100ms --idle-samples 2
      --tick 500ms --floor 8m --duration 120s)

tui_start loadscope 120x40 LANG=C.UTF-8 -- "$A" "${ARGS[@]}"
tui_wait 'measuring under load' 40; t_eq loaded $? 0
tui_keys d
tui_wait "s and t now change the load's disks: $devB" 5; t_eq d-switches $? 0
tui_keys s
tui_wait "I/O scheduler: the load's disks" 5; t_eq picker-names-load $? 0
t_match picker-note "$(tui_cap)" "applies to $devB"
n=$(tui_cap | grep -oE "[0-9]  $want( |$)" | head -1 | cut -c1)
t_match picker-lists-wanted "$n" '^[0-9]$'
tui_keys "$n"
tui_wait "epoch #1 load:scheduler=$want" 10; t_eq load-epoch $? 0
t_match load-disk-switched "$(cat "$qB/scheduler")" "\\[$want\\]"
t_match dir-disk-untouched "$(cat "$qA/scheduler")" "\\[$schedA\\]"

# the editor edits the load's disk
tui_keys t
tui_wait '─ Tunables ─' 5; t_eq editor-opens $? 0
t_match editor-names-load-disk "$(tui_cap)" "applies to every disk: $devB"
row=$(tui_cap | grep -E '│ (nr_requests|read_ahead_kb|wbt_lat_usec|max_sectors_kb) ' |
      grep -n read_ahead_kb | cut -d: -f1)
for ((i = 1; i < row; i++)); do tui_keys Down; done
new=$((raB == 256 ? 512 : 256))
tui_keys Enter
tui_keys -l "$new"
tui_keys Enter
tui_wait "read_ahead_kb $new on $devB" 5; t_eq editor-applies $? 0
t_eq editor-load-sysfs "$(cat "$qB/read_ahead_kb")" "$new"
t_eq editor-dir-untouched "$(cat "$qA/read_ahead_kb")" "$raA"
tui_keys Escape
tui_wait "epoch #2 load:read_ahead_kb=$new" 5; t_eq editor-epoch $? 0

# d again: back to the test directory's disks
tui_keys d
tui_wait "s and t now change the disks behind the test directory" 5; t_eq d-switches-back $? 0

tui_keys q
tui_wait 'BRISK-EXIT=' 30; t_eq quits $? 0
t_match quit-status "$(tui_cap)" 'BRISK-EXIT=0'
t_match q-restores-load-scheduler "$(cat "$qB/scheduler")" "\\[$schedB\\]"
t_eq q-restores-load-read-ahead "$(cat "$qB/read_ahead_kb")" "$raB"
t_eq journal-removed "$(compgen -G "$BRISK_RUNTIME_DIR/*.journal" | wc -l)" 0
tui_stop

# without a load directory, d says why not
tui_start noload 120x40 LANG=C.UTF-8 -- "$A" --load 'seq-write:rate=8m,size=16m' --ls-files 100 \
  --interval 100ms --idle-samples 2 --tick 500ms --floor 8m --duration 60s
tui_wait 'measuring under load' 40
tui_keys d
tui_wait 'no load works on disks of its own' 5; t_eq d-without-load-dir $? 0
tui_keys q
tui_wait 'BRISK-EXIT=' 30
tui_stop
