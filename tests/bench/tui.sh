#!/bin/bash
# Dashboard figures (not a timed test; prints what it measured):
#  1. the cost of one redraw at 200x60 (--bench-redraw: composed + refreshed,
#     and fully repainted), after a short session so every panel has data;
#  2. CPU of the dashboard process itself (not its children) over 10 s with
#     the load stopped (sampling ticks, redraws, forking the action samples);
#  3. key press to screen while a buffered writer saturates the disk: '?'
#     is sent with tmux and the help box is polled for with capture-pane
#     (the figure includes tmux's own latency, so it is an upper bound).
cd "$(dirname "$0")/../.." || exit 1
source tests/lib.sh
source tests/cli/tui_common.bash
command -v tmux >/dev/null || { echo "tui bench: tmux is not installed: skipped"; exit 0; }
D=$(t_tmpdir)
now() { date +%s%N; }

# 1. redraw cost
tui_start bench 200x60 LANG=C.UTF-8 -- "$D" --load seq-write:rate=20m,size=64m --ls-files 200 \
  --interval 100ms --idle-samples 3 --iterations 16 --tick 500ms --bench-redraw 1000 --no-report
tui_wait 'BRISK-EXIT=' 60 || echo "tui bench: the session did not end"
tui_cap -J -S -50 | grep -E '^redraw '
tui_stop

# 2. CPU while the load is stopped
tui_start idle 120x40 LANG=C.UTF-8 -- "$D" --load seq-write:rate=20m,size=64m --ls-files 200 \
  --idle-samples 3 --no-report
tui_wait 'measuring under load' 60
tui_keys l
tui_wait 'load stopped' 10
sleep 2
pid=$(tui_pid)
hz=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
a=$(cpu); t0=$(now); sleep 10; b=$(cpu); t1=$(now)
awk -v a="$a" -v b="$b" -v hz="$hz" -v ns=$((t1 - t0)) 'BEGIN {
  printf "idle CPU (load stopped, actions sampling every 200ms): %.2f %% of a core over %.1f s\n",
    100 * (b - a) / hz / (ns / 1e9), ns / 1e9 }'
tui_keys q
tui_wait 'BRISK-EXIT=' 30
tui_stop

# 3. key latency under saturating writers (O_DIRECT, so the page cache cannot
#    absorb them; each wraps at 1 GiB: never fills the disk)
tui_start keys 120x40 LANG=C.UTF-8 -- "$D" --load seq-write:size=1g,direct,count=2 --ls-files 200 \
  --idle-samples 3 --no-report
tui_wait 'measuring under load' 60
sleep 5
lat=()
for i in $(seq 10); do
  t0=$(now); tui_keys '?'
  until tui_cap | grep -q '─ Keys ─'; do :; done
  t1=$(now); lat+=($(( (t1 - t0) / 1000 )))
  tui_keys Escape
  until ! tui_cap | grep -q '─ Keys ─'; do :; done
  sleep 0.3
done
util=$(tui_cap | grep -oE 'util +[0-9]+ %' | head -1)
printf '%s\n' "${lat[@]}" | sort -n | awk -v u="$util" '{ v[NR] = $1 } END {
  printf "key to screen under a saturating writer (disk %s): median %.1f ms, max %.1f ms (n=%d, tmux polling included)\n",
    u, v[int((NR + 1) / 2)] / 1000, v[NR] / 1000, NR }'
tui_keys q
tui_wait 'BRISK-EXIT=' 30
tui_stop
