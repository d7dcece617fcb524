#!/bin/bash
# brisk tui's compare screen (key c) as root on a loop device: the picker
# lists current and the other schedulers, the comparison runs with the
# dashboard's workload and really applies the arm, the screen shows a
# median with its CI for the arms after an arm-run, q stops it and every
# setting is back, Enter returns to a fresh dashboard, q quits with the
# comparison's report; no journal and no work area are left.  A scheduler
# changed in the dashboard first is put back before the comparison (the
# baseline is the original).  SIGTERM during a comparison restores and
# exits 143.  Key t puts brisk tune's desktop space in the picker.  Without
# root the key says why.
# shellcheck disable=SC2154  # dev, q, orig_sched: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/tui_common.bash
source tests/cli/loop_common.bash

if ! command -v tmux >/dev/null; then t_skip tui-compare "tmux is not installed"; exit 0; fi
if ! is_root; then t_skip tui-compare "needs root (loop device, scheduler writes)"; exit 0; fi
T=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$T/run
mkdir -p "$BRISK_RUNTIME_DIR" "$T/home"
loop_mount -d "$T" tui-compare 300M
want=$(loop_other_sched mq-deadline bfq kyber none) || { t_skip tui-compare "$dev offers only $orig_sched"; exit 0; }
ARGS=(-l "seq-write:size=64m,rate=20m" -a "ls,ssh-like" --ls-files 50 --interval 50ms --floor 8m)

tui_start cmp 100x30 LANG=C.UTF-8 HOME="$T/home" -- "$T/mnt" "${ARGS[@]}"
tui_wait "^stack ext4 on $dev" 20; t_eq opens-on-loop $? 0
t_match keyline-has-compare "$(tui_line 29)" 'c compare'
# change the scheduler in the dashboard first: the comparison puts it back
tui_wait 'measuring under load' 40
tui_keys s
tui_wait '─ I/O scheduler ─' 5
n=$(tui_cap | grep -oE "[0-9]  $want( |$)" | head -1 | cut -c1)
tui_keys "$n"
tui_wait "epoch #1 scheduler=$want" 10; t_eq dashboard-switched $? 0
tui_keys c
tui_wait 'pick the arms' 5; t_eq picker-opens $? 0
cap=$(tui_cap)
t_match picker-baseline "$cap" "\\[✓\\] 1  current +baseline: the settings in place \\(scheduler $orig_sched\\)"
t_match picker-lists-wanted "$cap" "\\[✓\\] [2-9]  $want "
t_match picker-says-put-back "$cap" 'the settings you changed here are put back first'
cap_orig=$(grep -cE "\\] [2-9]  $orig_sched " <<<"$cap")
t_eq picker-leaves-out-active "$cap_orig" 0
# an arm typed in: checked against the disk at once
tui_keys a
tui_wait '─ Add an arm ─' 3; t_eq add-arm-prompt $? 0
tui_keys -l 'nosuchkey=1'
tui_keys Enter
tui_wait "unknown key" 3; t_eq add-arm-refuses-unknown-key $? 0
for i in $(seq 11); do tui_keys BSpace; done
tui_keys -l 'read_ahead_kb=256'
tui_keys Enter
tui_wait 'added arm [0-9]: read_ahead_kb=256' 3; t_eq add-arm-key $? 0
t_match add-arm-listed "$(tui_cap)" '\[✓\] [2-9]  read_ahead_kb=256 '
cap=$(tui_cap)
# keep current and $want: toggle every other arm off
for n in $(grep -oE '\[✓\] [2-9]  [a-z-]+' <<<"$cap" | awk -v w="$want" '$3 != w { print $2 }'); do
  tui_keys "$n"
done
tui_keys 1
tui_wait 'current is the baseline' 3; t_eq picker-keeps-baseline $? 0
tui_keys Left
tui_wait 'budget \[2m\]' 3; t_eq picker-budget-2m $? 0
t_eq picker-two-arms "$(tui_cap | grep -c '\[✓\] ')" 2
tui_keys Enter
tui_wait 'round 1 of' 20; t_eq compare-starts $? 0
t_match compare-header "$(tui_line 0)" '^brisk compare  - round 1 of'
t_match compare-says-put-back "$(tui_cap)" 'current = the settings the dashboard started with'
# after the first arm-runs: a median with its CI for an arm (ssh-like is cold)
tui_wait '^(▶| )(current|'"$want"') +[0-9]+ .* [0-9.]+ \[ *[0-9.]+, +[0-9.]+\]' 90; t_eq shows-median-ci $? 0
tui_wait 'ssh-like: median ms, bar = its 95% CI \(log' 5; t_eq shows-axis $? 0
t_match shows-load "$(tui_cap)" '─ load: MiB/s to the disk per arm \(load window; mean, 95% CI\)'
t_match shows-recommendation "$(tui_cap)" '^recommendation: '
tui_keys q
tui_wait 'stopped by you after' 60; t_eq q-stops $? 0
t_match stopped-scheduler-back "$(cat $q/scheduler)" "\\[$orig_sched\\]"
t_eq stopped-work-area-removed "$(find "$T/mnt" -mindepth 1 -maxdepth 1 -name '.brisk-*' | wc -l)" 0
t_eq stopped-journal-empty "$(ls "$BRISK_RUNTIME_DIR"/*.journal 2>/dev/null | wc -l)" 0
t_match final-keys "$(tui_line 29)" 'Enter/Esc back to the dashboard  q quit brisk'
t_match final-message "$(tui_cap)" 'every setting was put back'
tui_keys Enter
tui_wait '^stack ext4 on' 10; t_eq back-to-dashboard $? 0
tui_wait 'back from the comparison' 3; t_eq back-says-fresh $? 0
tui_keys q
tui_wait 'BRISK-EXIT=' 30; t_eq quits $? 0
out=$(tui_cap -S -400)
t_match quit-status "$out" 'BRISK-EXIT=0'
t_match prints-compare-report "$out" 'compare on .*mnt'
t_match report-recommendation "$out" '^recommendation: '
t_match end-scheduler-back "$(cat $q/scheduler)" "\\[$orig_sched\\]"
t_eq end-work-area-removed "$(find "$T/mnt" -mindepth 1 -maxdepth 1 -name '.brisk-*' | wc -l)" 0
t_eq end-journal-empty "$(ls "$BRISK_RUNTIME_DIR"/*.journal 2>/dev/null | wc -l)" 0
t_eq alternate-screen-left "$(tmux display -p -t "$TUI_S" '#{alternate_on}')" 0
tui_stop

# SIGTERM while an arm is applied: everything is put back, status 143
tui_start term 100x30 LANG=C.UTF-8 HOME="$T/home" -- "$T/mnt" "${ARGS[@]}"
tui_wait "^stack ext4 on $dev" 20
tui_keys c
tui_wait 'pick the arms' 5
cap=$(tui_cap)
for n in $(grep -oE '\[✓\] [2-9]  [a-z-]+' <<<"$cap" | awk -v w="$want" '$3 != w { print $2 }'); do
  tui_keys "$n"
done
tui_keys Left Enter
applied=1
for ((i = 0; i < 600; i++)); do
  grep -q "\\[$want\\]" $q/scheduler && { applied=0; break; }
  sleep 0.1
done
t_eq term-arm-applied "$applied" 0   # the engine really applies the arm
kill -TERM "$(tui_pid)"
tui_wait 'BRISK-EXIT=' 30; t_eq term-exits $? 0
t_match term-status "$(tui_cap)" 'BRISK-EXIT=143'
t_match term-scheduler-back "$(cat $q/scheduler)" "\\[$orig_sched\\]"
t_eq term-work-area-removed "$(find "$T/mnt" -mindepth 1 -maxdepth 1 -name '.brisk-*' | wc -l)" 0
t_eq term-journal-empty "$(ls "$BRISK_RUNTIME_DIR"/*.journal 2>/dev/null | wc -l)" 0
t_eq term-alternate-screen-left "$(tmux display -p -t "$TUI_S" '#{alternate_on}')" 0
tui_stop

# key t: brisk tune's desktop space in the picker, scrolled to the
# selection; its arms race on the screen with their short labels; q stops
# it and every setting (vm.dirty_bytes too) is back
dirty_before=$(cat /proc/sys/vm/dirty_bytes /proc/sys/vm/dirty_ratio | tr '\n' ' ')
tui_start tune 100x30 LANG=C.UTF-8 HOME="$T/home" -- "$T/mnt" "${ARGS[@]}"
tui_wait "^stack ext4 on $dev" 20
tui_keys c
tui_wait 'pick the arms' 5
tui_keys t
tui_wait "brisk tune's desktop space: [0-9]+ arms, racing" 5; t_eq tune-space-picked $? 0
cap=$(tui_cap)
t_match tune-space-arms "$cap" '\[✓\] [2-9]  [a-z-]+ wbt=0 +scheduler=[a-z-]+,wbt_lat_usec=0'
t_match tune-space-budget "$cap" 'budget .*\[45m\]'
t_match tune-space-more-below "$cap" '\([0-9]+ more below\)'
tui_keys Up Up
tui_wait '\([0-9]+ more above\)' 5; t_eq tune-space-scrolls $? 0
tui_keys Enter
tui_wait 'round 1 of' 30; t_eq tune-space-starts $? 0
# the rows' labels are the space's ("2:none wbt", "mq-dl dirt"), cut to the
# table's 10 columns, not "scheduler=..."
tui_wait '^(▶| )([0-9]+:)?(none|mq-dl|kyber|bfq) (wbt|dirt|read|low)' 120
t_eq tune-space-short-labels $? 0
tui_keys q
tui_wait 'stopped by you after' 90; t_eq tune-space-q-stops $? 0
t_match tune-space-scheduler-back "$(cat $q/scheduler)" "\\[$orig_sched\\]"
t_eq tune-space-dirty-back "$(cat /proc/sys/vm/dirty_bytes /proc/sys/vm/dirty_ratio | tr '\n' ' ')" "$dirty_before"
t_eq tune-space-journal-empty "$(ls "$BRISK_RUNTIME_DIR"/*.journal 2>/dev/null | wc -l)" 0
tui_keys q
tui_wait 'BRISK-EXIT=' 30
tui_stop

# without root: the key says why, nothing opens
if command -v setpriv >/dev/null; then
  D=$(t_tmpdir); chmod 777 "$D"; mkdir -p "$D/run"; chmod 777 "$D/run"
  if setpriv --reuid=65534 --regid=65534 --clear-groups test -w "$D"; then
    TUI_WRAP="setpriv --reuid=65534 --regid=65534 --clear-groups" tui_start ro 100x30 LANG=C.UTF-8 HOME="$D" BRISK_RUNTIME_DIR="$D/run" XDG_RUNTIME_DIR="$D/run" \
      -- "$D" -l seq-write:rate=8m,size=16m -a ls --ls-files 20 --interval 100ms --idle-samples 1
    tui_wait '^stack ' 20
    tui_keys c
    tui_wait 'comparing settings needs root' 5; t_eq readonly-says-root $? 0
    tui_cap | grep -q 'pick the arms'; t_eq readonly-no-picker $? 1
    tui_keys q
    tui_wait 'BRISK-EXIT=' 30
    tui_stop
  else
    t_skip tui-compare-readonly "$D is not reachable for nobody"
  fi
else
  t_skip tui-compare-readonly "setpriv is missing"
fi
