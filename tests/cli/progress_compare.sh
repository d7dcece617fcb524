#!/bin/bash
# brisk compare's progress (root, a loop device): on a terminal (a tmux
# pane) one live line "compare: round k/n, ARM PHASE; leader ...  ETA m:ss",
# rewritten in place and redrawn by the ticks of the arm-run under way
# (its phase and samples), a line per finished arm-run that stays above it,
# nothing of it left at the end; none with -q; none at all when stderr is
# a file (no CR, no ESC, no ETA, no per-arm-run lines).  The second arm
# is bfq when the disk offers it, else another scheduler (loop_alt_sched).
# shellcheck disable=SC2154  # d, L, dev, q: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
source tests/cli/progress_common.bash
if ! is_root; then t_skip progress-compare "needs root (a loop device, sysfs writes)"; exit 0; fi
command -v tmux >/dev/null || { t_skip progress-compare "tmux is not installed"; exit 0; }
loop_mount -s none progress-compare 256M
export BRISK_RUNTIME_DIR=$d/rt
loop_alt_sched "$dev" || { t_skip progress-compare "$dev offers no scheduler but none"; exit 0; }
s=$alt_sched
b=$(printf '%q' "$BRISK")
w="current scheduler=$s -l seq-write:size=96m,rate=16m -a ssh-like,save --interval 300ms \
--warmup 2s --floor 10% --settle-max 10s -n 4"
run() { echo "BRISK_RUNTIME_DIR='$d/rt' $b compare '$d/mnt' $w $*"; }

# 1. A terminal: the live line, redrawn during arm-runs, the finished
#    arm-runs above it, then nothing of it left.
pt_start tty 120 "$(run -r 2) >'$d/out'"
pt_watch "$d/log" 120
t_eq "tty: exit 0" "$(pt_exit "$d/log")" 0
live='^compare: round [12]/2, (current|'"$s"')( [a-z-]+( [0-9]+/[0-9]+)?)?; (no leader yet|leader .+)  ETA ([0-9]+:[0-9]{2}|\?)$'
t_match "tty: the live line" "$(pt_rows "$d/log" '^compare: ')" "$live"
t_eq "tty: every live line has that form" "$(pt_rows "$d/log" '^compare: ' | grep -cvE "$live")" 0
t_match "tty: an ETA in m:ss" "$(pt_rows "$d/log" '^compare: ')" 'ETA [0-9]+:[0-9]{2}$'
t_match "tty: redrawn while an arm-run runs (its phase from a tick)" \
  "$(pt_rows "$d/log" '^compare: ')" ', (current|'"$s"') (settle|warm-up|loaded [0-9]+/8|stop);'
t_match "tty: the leader so far, once there are ratios" "$(pt_rows "$d/log" '^compare: round 2/2')" \
  '; leader (current \(the baseline\)|'"$s"' [a-z-]+ [0-9.]+x)'
many=$(awk '/^@[0-9]/ { if (n > m) m = n; n = 0; next } /^compare: round/ { n++ }
            END { if (n > m) m = n; print m + 0 }' "$d/log")
t_eq "tty: one live line at a time (rewritten in place)" "$many" 1
t_eq "tty: one line stays per arm-run" \
  "$(pt_last "$d/log" | grep -cE '^brisk compare: round [12]/2, (current|'"$s"') done in [0-9]+s$')" 4
t_eq "tty: no live line left at the end" "$(pt_last "$d/log" | grep -cE 'ETA|^compare: ')" 0
t_match "tty: the exit on a row of its own" "$(pt_last "$d/log")" '^BRISK-EXIT=0$'
t_match "tty: the report on stdout" "$(cat "$d/out")" 'compare on '
t_eq "tty: no progress in the report" "$(tr -cd '\r\033' <"$d/out" | wc -c)" 0

# 2. -q on a terminal: nothing on stderr at all.
pt_start quiet 120 "$(run -r 1 -q) >'$d/out'"
pt_watch "$d/log" 90
t_eq "-q: exit 0" "$(pt_exit "$d/log")" 0
t_eq "-q: no progress (nor any line) in any capture" "$(pt_rows "$d/log" 'compare|ETA' | wc -l)" 0

# 3. stderr a file (stdout the terminal): no progress lines at all.
pt_start file 120 "$(run -r 1) 2>'$d/err'"
pt_watch "$d/log" 90
t_eq "stderr a file: exit 0" "$(pt_exit "$d/log")" 0
pt_plain "stderr a file" "$d/err"
t_eq "stderr a file: no per-arm-run lines" "$(grep -c 'round [0-9]' "$d/err")" 0
t_match "stderr a file: the arms line (not progress) stays" "$(cat "$d/err")" '^brisk compare: 2 arms on '
t_eq "stderr a file: nothing else" "$(wc -l <"$d/err")" 1
t_match "stderr a file: the report on the terminal" "$(tui_cap -S -300)" '^brisk [0-9.]+ compare on '

# 4. SIGINT on a terminal in the middle of an arm-run: it ends, its
#    settings are put back, the report comes, and no line is left.
pt_start int 120 "$(run -r 5) >'$d/out'"
tui_wait '^compare: round 1/5, (current|'"$s"') (warm-up|loaded)' 60
tui_keys C-c
pt_watch "$d/log" 60
t_eq "SIGINT: exit 130" "$(pt_exit "$d/log")" 130
t_eq "SIGINT: no live line left" "$(pt_last "$d/log" | grep -cE 'ETA|^compare: ')" 0
t_match "SIGINT: the exit on a row of its own" "$(pt_last "$d/log")" '^BRISK-EXIT=130$'
t_match "SIGINT: the report still came" "$(cat "$d/out")" 'compare on '
t_match "scheduler back" "$(cat "$q/scheduler")" '^\[none\]'
