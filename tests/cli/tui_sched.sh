#!/bin/bash
# brisk tui as root on a loop device: the scheduler is switched from the
# keyboard (a new epoch, a marker, a row in the table), the tunables editor
# shows current and original values and refuses bad input, q restores
# every original, and so does SIGTERM.
source tests/lib.sh
source tests/cli/tui_common.bash
source tests/cli/loop_common.bash

if ! command -v tmux >/dev/null; then t_skip tui-sched "tmux is not installed"; exit 0; fi
if ! is_root; then t_skip tui-sched "needs root (loop device, scheduler writes)"; exit 0; fi
T=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$T/run
mkdir -p "$BRISK_RUNTIME_DIR"
loop_mount -d "$T" tui-sched 300M
want=$(loop_other_sched bfq mq-deadline kyber none) || { t_skip tui-sched "$dev offers only $orig_sched"; exit 0; }
orig_ra=$(cat $q/read_ahead_kb)
ARGS=(--load 'seq-write:rate=8m,size=16m' --ls-files 100 --interval 100ms --idle-samples 2
      --tick 500ms --floor 8m --duration 120s)

tui_start sched 120x40 LANG=C.UTF-8 -- "$T/mnt" "${ARGS[@]}"
tui_wait "^stack ext4 on $dev" 20; t_eq opens-on-loop $? 0
t_match header-scheduler "$(tui_line 1)" "scheduler $orig_sched\$"
if tui_wait '^idle baseline: ' 20; then
  tui_keys s
  tui_wait 'baseline is still being measured' 3; t_eq sched-refused-during-idle $? 0
else
  t_skip sched-refused-during-idle "the idle baseline was over before it was seen"
fi
tui_wait 'measuring under load' 40
sleep 2   # a few loaded samples in epoch #0 first (the copied program start is slow)
tui_keys s
tui_wait '─ I/O scheduler ─' 5; t_eq picker-opens $? 0
cap=$(tui_cap)
t_match picker-marks-active "$cap" "[0-9]  $orig_sched +\\(active\\)"
n=$(grep -oE "[0-9]  $want( |$)" <<<"$cap" | head -1 | cut -c1)
t_match picker-lists-wanted "$n" '^[0-9]$'
tui_keys "$n"
tui_wait "epoch #1 scheduler=$want" 10; t_eq new-epoch $? 0
t_match sysfs-switched "$(cat $q/scheduler)" "\\[$want\\]"
t_match header-switched "$(tui_line 1)" "scheduler $want\$"
t_match message-read-back "$(tui_cap)" "scheduler $want on $dev \\(read back\\)"
t_match table-epoch-row "$(tui_cap)" "#1 scheduler=$want"
tui_wait '^ +#0 start' 10   # the table is redrawn on the next tick
t_match table-old-epoch-row "$(tui_cap)" '^ +#0 start'
sleep 2
t_match timeline-marker "$(tui_cap)" '^exec .*│'
t_eq journal-exists "$(ls "$BRISK_RUNTIME_DIR"/*.journal 2>/dev/null | wc -l)" 1

# the tunables editor: current and original values, validation
tui_keys t
tui_wait '─ Tunables ─' 5; t_eq editor-opens $? 0
cap=$(tui_cap)
t_match editor-read-ahead "$cap" "read_ahead_kb +$orig_ra +\\(unchanged\\)"
row=$(grep -E '│ (nr_requests|read_ahead_kb|wbt_lat_usec|max_sectors_kb) ' <<<"$cap" |
      grep -n read_ahead_kb | cut -d: -f1)
for ((i = 1; i < row; i++)); do tui_keys Down; done
tui_keys Enter
tui_keys -l 'x12'
tui_wait 'not a decimal|expected|must be' 3; t_eq editor-refuses-text $? 0
tui_keys Enter
sleep 0.5
t_eq editor-nothing-written "$(cat $q/read_ahead_kb)" "$orig_ra"
tui_keys BSpace BSpace BSpace
tui_keys -l '256'
tui_keys Enter
tui_wait 'read_ahead_kb 256 on' 5; t_eq editor-applies $? 0
t_eq editor-sysfs "$(cat $q/read_ahead_kb)" 256
tui_wait "read_ahead_kb +256 +$orig_ra " 3; t_eq editor-shows-original $? 0
tui_keys Escape
tui_wait 'epoch #2 read_ahead_kb=256' 5; t_eq editor-epoch $? 0

tui_keys q
tui_wait 'BRISK-EXIT=' 30; t_eq quits $? 0
t_match quit-status "$(tui_cap)" 'BRISK-EXIT=0'
t_match q-restores-scheduler "$(cat $q/scheduler)" "\\[$orig_sched\\]"
t_eq q-restores-read-ahead "$(cat $q/read_ahead_kb)" "$orig_ra"
t_match restore-reported "$(tui_cap -S -300)" "restored $dev scheduler=$orig_sched"
t_eq journal-removed "$(ls "$BRISK_RUNTIME_DIR"/*.journal 2>/dev/null | wc -l)" 0
t_eq alternate-screen-left "$(tmux display -p -t "$TUI_S" '#{alternate_on}')" 0
tui_stop

# SIGTERM restores too
tui_start term 120x40 LANG=C.UTF-8 -- "$T/mnt" "${ARGS[@]}"
tui_wait 'measuring under load' 40
tui_keys s
tui_wait '─ I/O scheduler ─' 5
n=$(tui_cap | grep -oE "[0-9]  $want( |$)" | head -1 | cut -c1)
tui_keys "$n"
tui_wait "epoch #1 scheduler=$want" 10; t_eq term-switched $? 0
kill -TERM "$(tui_pid)"
tui_wait 'BRISK-EXIT=' 30; t_eq term-exits $? 0
t_match term-status "$(tui_cap)" 'BRISK-EXIT=143'
t_match term-restores-scheduler "$(cat $q/scheduler)" "\\[$orig_sched\\]"
t_eq term-alternate-screen-left "$(tmux display -p -t "$TUI_S" '#{alternate_on}')" 0
tui_stop

# the terminal goes away (tmux kills the pane: SIGHUP): restored
tui_start hup 120x40 LANG=C.UTF-8 -- "$T/mnt" "${ARGS[@]}"
tui_wait 'measuring under load' 40
tui_keys s
tui_wait '─ I/O scheduler ─' 5
n=$(tui_cap | grep -oE "[0-9]  $want( |$)" | head -1 | cut -c1)
tui_keys "$n"
tui_wait "epoch #1 scheduler=$want" 10; t_eq hup-switched $? 0
pid=$(tui_pid)
tui_stop
for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null; t_eq hup-exits $? 1
t_match hup-restores-scheduler "$(cat $q/scheduler)" "\\[$orig_sched\\]"

# SIGKILL: nothing can restore then, but the next dashboard does at start
tui_start kill 120x40 LANG=C.UTF-8 -- "$T/mnt" "${ARGS[@]}"
tui_wait 'measuring under load' 40
tui_keys s
tui_wait '─ I/O scheduler ─' 5
n=$(tui_cap | grep -oE "[0-9]  $want( |$)" | head -1 | cut -c1)
tui_keys "$n"
tui_wait "epoch #1 scheduler=$want" 10; t_eq kill-switched $? 0
kill -KILL "$(tui_pid)"
sleep 0.5
t_match kill-leaves-it-changed "$(cat $q/scheduler)" "\\[$want\\]"
tui_stop
tui_start after 120x40 LANG=C.UTF-8 -- "$T/mnt" "${ARGS[@]}"
tui_wait '^stack ' 20
t_match next-start-restores "$(cat $q/scheduler)" "\\[$orig_sched\\]"
tui_keys q
tui_wait 'BRISK-EXIT=0' 30; t_eq after-kill-quits $? 0
t_match next-start-says-restored "$(tui_cap -S -300)" "restored $dev scheduler=$orig_sched"
t_eq after-kill-no-journal "$(ls "$BRISK_RUNTIME_DIR"/*.journal 2>/dev/null | wc -l)" 0
tui_stop
