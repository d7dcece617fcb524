#!/bin/bash
# brisk run's progress line (progress.h): on a terminal (a tmux pane) one
# line "run: PHASE  samples d/n  ETA m:ss" rewritten in place, whose ETA
# counts down to the real end, never wider than the terminal, gone at the
# end (also after SIGINT), cleared before a message printed mid-run (the
# --at restore lines, root); none with -q; none when stderr is a file (no
# CR, no ESC, no ETA), also when stdout is the terminal.
source tests/lib.sh
source tests/cli/loop_common.bash
source tests/cli/progress_common.bash
command -v tmux >/dev/null || { t_skip progress-run "tmux is not installed"; exit 0; }
d=$(t_tmpdir)
bq=$(printf '%q' "$BRISK")
short=(--no-load -a save -i 4 -n 2 --max-time 10 --interval 500ms --tick 200ms)
sh=${short[*]}

# 1. A terminal: the line, with a phase and an ETA, then gone.
pt_start run 100 "$bq run '$d' $sh >'$d/out'"
pt_watch "$d/log" 30
t_eq "run: exit 0" "$(pt_exit "$d/log")" 0
t_match "run: a progress line with a phase and an ETA" \
  "$(pt_rows "$d/log" '^run: ')" '^run: (prepare|idle|stop)  samples [0-9]+/4  ETA [0-9]+:[0-9]{2}$'
t_match "run: the idle phase shows" "$(pt_rows "$d/log" '^run: ')" '^run: idle  samples'
t_eq "run: the line is gone at the end (the pane holds only the exit)" \
  "$(pt_last "$d/log" | grep -v '^$')" "BRISK-EXIT=0"
t_match "run: the report went to stdout" "$(cat "$d/out")" '^brisk [0-9.]+ run on '
t_eq "run: no progress in the report" "$(tr -cd '\r\033' <"$d/out" | wc -c)" 0

# 2. The ETA counts down to the real end: the end each capture predicts
#    (its time + ETA) is within 3 s of the end, through idle, warm-up
#    and the loaded phase of a small rate-limited writer.  (Elapsed time
#    / samples taken, the estimate before, counted the warm-up into every
#    loaded sample: 8 s off here.)
pt_start eta 100 "$bq run '$d' -l seq-write:size=256m,rate=16m -a save -i 2 -n 8 --interval 300ms \
  --warmup 2s --tick 200ms >'$d/out'"
pt_watch "$d/log" 40
t_eq "eta: exit 0" "$(pt_exit "$d/log")" 0
t_match "eta: the warm-up shows" "$(pt_rows "$d/log" '^run: ')" '^run: warm-up  samples'
t_match "eta: the loaded phase shows" "$(pt_rows "$d/log" '^run: ')" '^run: loaded  samples'
drift=$(awk '
  /^@[0-9]/ { t = substr($0, 2) + 0; next }
  /^BRISK-EXIT=/ && !end { end = t }
  /^run: (idle|warm-up|loaded) .* ETA [0-9]+:[0-9][0-9]$/ {
    n = split($NF, e, ":"); eta = e[1] * 60 + e[2]; pred[++k] = t + eta }
  END { m = 0; for (i = 1; i <= k; i++) { x = pred[i] - end; if (x < 0) x = -x; if (x > m) m = x }
        printf "%d %.1f\n", k, m }' "$d/log")
t_match "eta: several ETAs seen" "${drift% *}" '^([3-9]|[1-9][0-9]+)$'
t_match "eta: each predicts the end within 3 s (seen: ${drift#* } s)" "${drift#* }" \
  '^([0-2]\.[0-9]|3\.0)$'

# 3. -q: no line at all.
pt_start quiet 100 "$bq run '$d' $sh -q >'$d/out'"
pt_watch "$d/log" 30
t_eq "-q: exit 0" "$(pt_exit "$d/log")" 0
t_eq "-q: no progress line in any capture" "$(pt_rows "$d/log" 'run:|ETA' | wc -l)" 0

# 4. stderr to a file while stdout is the terminal: nothing on stderr.
pt_start file 100 "$bq run '$d' $sh 2>'$d/err'"
pt_watch "$d/log" 30
t_eq "stderr a file: exit 0" "$(pt_exit "$d/log")" 0
pt_plain "stderr a file" "$d/err"
t_eq "stderr a file: empty" "$(wc -c <"$d/err")" 0
t_match "stderr a file: the report on the terminal" "$(tui_cap -S -300)" '^brisk [0-9.]+ run on'
# and with no terminal at all (a pipe)
"$BRISK" run "$d" "${short[@]}" 2>"$d/err2" >/dev/null
pt_plain "no terminal" "$d/err2"

# 5. A narrow terminal: the line is cut, never wraps.
pt_start narrow 30 "$bq run '$d' $sh >'$d/out'"
pt_watch "$d/log" 30
t_match "narrow: the line is there" "$(pt_rows "$d/log" '^run: ')" '^run: '
t_match "narrow: it keeps its ETA" "$(pt_rows "$d/log" '^run: idle')" 'ETA [0-9]+:[0-9]{2}$'
t_match "narrow: no row wider than 29 columns (widest: $(pt_widest "$d/log"))" \
  "$(pt_widest "$d/log")" '^([0-9]|1[0-9]|2[0-9])$'
t_eq "narrow: no row that is a wrapped rest" "$(pt_rows "$d/log" '^(samples|[0-9]+/|ETA)' | wc -l)" 0

# 6. SIGINT on a terminal: the run ends normally (signals are read by its
#    loop), reports, exit 130, and the line is gone.
pt_start int 100 "$bq run '$d' --no-load -a save -i 50 --interval 300ms --tick 200ms >'$d/out'"
tui_wait '^run: idle' 20
tui_keys C-c
pt_watch "$d/log" 20
t_eq "SIGINT: exit 130" "$(pt_exit "$d/log")" 130
t_eq "SIGINT: no line left" "$(pt_last "$d/log" | grep -c 'run:')" 0
t_match "SIGINT: the report still came" "$(cat "$d/out")" 'run on'

# 7. A message printed mid-run clears the line first: with --at (root, a
#    loop device), the restore lines start at column 0, and the line was
#    there before them.
if loop_mount -k -d "$d" -- "--at: restore lines at column 0" 128M; then
  export BRISK_RUNTIME_DIR=$d/rt
  pt_start at 100 "BRISK_RUNTIME_DIR='$d/rt' $bq run '$d/mnt' -l seq-write:size=64m,rate=8m \
    -a save -i 1 -n 3 --interval 300ms --warmup 1s --tick 200ms --at 0.5s:read_ahead_kb=512 \
    --floor 10% >'$d/out'"
  pt_watch "$d/log" 40
  t_eq "--at: exit 0" "$(pt_exit "$d/log")" 0
  t_match "--at: the restore line starts at column 0" "$(pt_last "$d/log")" \
    "^restored $dev read_ahead_kb="
  t_eq "--at: no row holds the line and the message" "$(pt_rows "$d/log" 'ETA.*restored' | wc -l)" 0
  t_match "--at: the line was shown" "$(pt_rows "$d/log" '^run: ')" '^run: loaded  samples'
  t_eq "--at: the line is gone at the end" "$(pt_last "$d/log" | grep -c 'run:')" 0
fi
