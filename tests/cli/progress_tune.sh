#!/bin/bash
# brisk tune's progress (root, a loop device): on a terminal (a tmux pane)
# one live line "tune: round k/n, ARM PHASE; leader ...  ETA m:ss",
# rewritten in place, a line per finished arm-run that stays above it,
# nothing of it left at the end; none with -q.  (The part that names the
# arm that left the race last and why is compare_race_progress(), tested
# on simulated races in tests/unit/test_compare_race.c.)  The space: the
# disk's other scheduler (loop_alt_sched): two arms.
# shellcheck disable=SC2154  # d, L, dev, q: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
source tests/cli/progress_common.bash
if ! is_root; then t_skip progress-tune "needs root (a loop device, sysfs writes)"; exit 0; fi
command -v tmux >/dev/null || { t_skip progress-tune "tmux is not installed"; exit 0; }
loop_mount -s none progress-tune 256M
export BRISK_RUNTIME_DIR=$d/rt
loop_alt_sched "$dev" || { t_skip progress-tune "$dev offers no scheduler but none"; exit 0; }
s=$alt_sched
printf '[space]\nscheduler = %s\n' "$s" >"$d/space.ini"
b=$(printf '%q' "$BRISK")
w="--space '$d/space.ini' -l seq-write:size=96m,rate=16m -a ssh-like,save --interval 300ms \
--warmup 2s --floor 10% --settle-max 10s -n 4 --json '$d/t.json' --force"
run() { echo "BRISK_RUNTIME_DIR='$d/rt' $b tune '$d/mnt' $w $*"; }

# 1. A terminal: the live line, the finished arm-runs above it, then
#    nothing of it left.
pt_start tty 120 "$(run -r 2) >'$d/out'"
pt_watch "$d/log" 120
t_eq "tty: exit 0" "$(pt_exit "$d/log")" 0
live='^tune: round [12]/2, (current|'"$s"')( [a-z-]+( [0-9]+/[0-9]+)?)?; (no leader yet|leader .+)  ETA ([0-9]+:[0-9]{2}|\?)$'
t_match "tty: the live line" "$(pt_rows "$d/log" '^tune: ')" "$live"
t_eq "tty: every live line has that form" "$(pt_rows "$d/log" '^tune: round' | grep -cvE "$live")" 0
t_match "tty: redrawn while an arm-run runs (its phase from a tick)" \
  "$(pt_rows "$d/log" '^tune: ')" ', (current|'"$s"') (settle|warm-up|loaded [0-9]+/8|stop);'
many=$(awk '/^@[0-9]/ { if (n > m) m = n; n = 0; next } /^tune: round/ { n++ }
            END { if (n > m) m = n; print m + 0 }' "$d/log")
t_eq "tty: one live line at a time (rewritten in place)" "$many" 1
t_eq "tty: one line stays per arm-run" \
  "$(pt_last "$d/log" | grep -cE '^brisk tune: round [12]/2, (current|'"$s"') done in [0-9]+s$')" 4
t_eq "tty: no live line left at the end" "$(pt_last "$d/log" | grep -cE 'ETA|^tune: round')" 0
t_match "tty: the report on stdout, with the tune's part" "$(cat "$d/out")" '^tune: 2 arms from '
t_eq "tty: no progress in the report" "$(tr -cd '\r\033' <"$d/out" | wc -c)" 0

# 2. -q on a terminal: nothing on stderr at all.
pt_start quiet 120 "$(run -r 1 -q) >'$d/out'"
pt_watch "$d/log" 90
t_eq "-q: exit 0" "$(pt_exit "$d/log")" 0
t_eq "-q: no progress (nor any line) in any capture" "$(pt_rows "$d/log" 'tune|ETA' | wc -l)" 0
