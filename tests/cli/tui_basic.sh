#!/bin/bash
# brisk tui in tmux: it opens and shows the stack, the load stops and
# starts from the keyboard (each an epoch), help, resize to 80x24 and
# 200x60 without garbage, too small, NO_COLOR, ASCII fallback, q leaves the
# terminal clean and the directory empty.
source tests/lib.sh
source tests/cli/tui_common.bash

if ! command -v tmux >/dev/null; then
  t_skip tui-basic "tmux is not installed"; exit 0
fi
D=$(t_tmpdir)
fstype=$(findmnt -n -o FSTYPE -T "$D")
LOAD=seq-write:rate=8m,size=16m
COMMON=(--load "$LOAD" --ls-files 100 --interval 100ms --idle-samples 2 --tick 500ms --duration 120s)

# bad usage never opens the screen
out=$($BRISK tui --iterations 0 "$D" 2>&1); t_eq bad-iterations-exit $? 2
t_match bad-iterations-message "$out" "iterations '0'"
out=$($BRISK tui "$D" </dev/null 2>&1); t_eq no-terminal-exit $? 2
t_match no-terminal-message "$out" "needs a terminal"
$BRISK tui --help | grep -q -- '--iterations'; t_eq help-iterations $? 0

tui_start basic 120x40 LANG=C.UTF-8 XDG_CONFIG_HOME="$D/xdg" -- "$D" "${COMMON[@]}"
tui_wait '^stack ' 20; t_eq opens $? 0
dev=$(findmnt -n -o SOURCE -T "$D"); dev=${dev##*/}
t_match shows-stack "$(tui_line 1)" "^stack $fstype on ${dev}"
t_match shows-tree "$(tui_cap)" "^.{0,4}$dev"
if is_root; then t_match header-root "$(tui_line 0)" ' root'
else t_skip header-root "needs root (the header marks a root session)"; fi
tui_wait 'measuring under load' 40; t_eq load-starts $? 0
tui_wait 'seq-write ×1 +[0-9]+\.[0-9] MiB/s' 10; t_eq load-mibps $? 0
# beside it, what reached the disk in the same tick
tui_wait 'seq-write ×1 +[0-9]+\.[0-9] MiB/s +[0-9]+\.[0-9] disk' 10; t_eq load-disk-mibps $? 0
t_match table-rows "$(tui_cap)" 'exec +#0 start +[0-9.]+m?s'

tui_keys l
tui_wait 'epoch #1 load stopped' 5; t_eq load-stop-epoch $? 0
tui_wait 'seq-write ×1 +stopped' 5; t_eq load-stopped-panel $? 0
t_match load-stop-status "$(tui_line 2)" '^load stopped'
sleep 1.5
tui_keys l
tui_wait 'epoch #2 load started' 10; t_eq load-start-epoch $? 0
tui_wait 'seq-write ×1 +[0-9]+\.[0-9] MiB/s' 10; t_eq load-restarted $? 0
tui_wait '│' 10; t_eq epoch-marker $? 0

tui_keys '?'
tui_wait '─ Keys ─' 3; t_eq help-opens $? 0
cap=$(tui_cap)
for k in 'l +start or stop' 's +pick the I/O scheduler' 't +tunables: queue' 'p +save the settings' '\?/F1' 'q +stop the load'; do
  t_match "help-lists-${k%% *}" "$cap" "│ $k"
done
tui_keys Escape
sleep 0.3
tui_cap | grep -q '─ Keys ─'; t_eq help-closes $? 1

# p saves the current setup as a profile (bad names refused)
tui_keys p
tui_wait '─ Save as a profile ─' 3; t_eq save-prompt-opens $? 0
tui_keys -l 'no/slash'; tui_keys Enter
tui_wait "expected letters, digits" 3; t_eq save-bad-name-refused $? 0
for _ in 1 2 3 4 5 6 7 8; do tui_keys BSpace; done
tui_keys -l 'tui-test'; tui_keys Enter
tui_wait 'saved tui-test: ' 10; t_eq save-done $? 0
t_check save-file-checks $BRISK profile check "$D/xdg/brisk/profiles/tui-test.profile"
t_match save-has-load "$(cat "$D/xdg/brisk/profiles/tui-test.profile")" 'rate = 8m'
# as 'brisk profile save' does: no value the hardware bounds, and it says so
grep -Eq '^(nr_requests|max_sectors_kb|async_depth) *=' "$D/xdg/brisk/profiles/tui-test.profile"
t_eq save-no-hw-bound $? 1
t_match save-says-left-out "$(tui_cap)" 'saved tui-test: [0-9]+ settings? \(left out [0-9]+ at kernel defaults, [1-9][0-9]* hardware-bound'

# resize, in both directions, then too small and back
tmux resize-window -t "$TUI_S" -x 80 -y 24; sleep 0.6
tui_check_frame resize-80x24 80 24
tmux resize-window -t "$TUI_S" -x 200 -y 60; sleep 0.6
tui_check_frame resize-200x60 200 60
tmux resize-window -t "$TUI_S" -x 70 -y 20; sleep 0.6
t_match too-small "$(tui_cap)" 'terminal too small: 70x20, brisk needs at least 80x24'
tmux resize-window -t "$TUI_S" -x 100 -y 30; sleep 0.6
tui_check_frame resize-back 100 30

pid=$(tui_pid)
tui_keys q
tui_wait 'BRISK-EXIT=' 20; t_eq quits $? 0
t_match exit-status "$(tui_cap)" 'BRISK-EXIT=0'
t_eq alternate-screen-left "$(tmux display -p -t "$TUI_S" '#{alternate_on}')" 0
t_match report-after "$(tui_cap -S -200)" 'epochs: 0=start'
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; t_eq process-gone $? 0
t_eq workdir-removed "$(find "$D" -maxdepth 1 -name '.brisk-*' | wc -l)" 0
tui_stop

# colours: on by default, none with NO_COLOR
tui_start color 100x30 LANG=C.UTF-8 TERM=xterm-256color -- "$D" "${COMMON[@]}" --iterations 6 --no-report
tui_wait 'measuring|idle baseline' 20
esc=$(tui_cap -e | grep -cE $'\e\\[[0-9;]*(3[0-7]|4[0-7]|38;5;[0-9]+)m')
[ "$esc" -gt 0 ]; t_eq colour-by-default $? 0
tui_stop
tui_start nocolor 100x30 LANG=C.UTF-8 TERM=xterm-256color NO_COLOR=1 -- "$D" "${COMMON[@]}" --iterations 6 --no-report
tui_wait 'measuring|idle baseline' 20
sleep 1
t_eq no-colour-escapes "$(tui_cap -e | grep -cE $'\e\\[[0-9;]*(3[0-7]|4[0-7]|38;5;[0-9]+)m')" 0
t_match no-colour-still-bold "$(tui_cap -e)" $'\e\\[1m'
tui_wait 'BRISK-EXIT=0' 30; t_eq iterations-end $? 0
tui_stop

# a locale that is not UTF-8: ASCII sparklines and markers
tui_start ascii 100x30 LANG=C LC_ALL=C -- "$D" "${COMMON[@]}" --no-report
tui_wait 'measuring under load' 40
sleep 2
cap=$(tui_cap)
t_eq ascii-no-blocks "$(grep -c '[▁▂▃▄▅▆▇█]' <<<"$cap")" 0
t_match ascii-load-x "$cap" 'seq-write x1'
t_match ascii-ramp "$cap" 'exec .* [_.=+*#@-]{3,}'
tui_keys q
tui_wait 'BRISK-EXIT=0' 30; t_eq ascii-ends $? 0
tui_stop

# a firmware advisory that matches: the badge in the header, the problem in the tree
mkdir -p "$D/data"
cat >"$D/data/advisories.conf" <<'ADV'
[test-every-disk]
models   = *
firmware = *
problem  = test advisory that matches every disk
ADV
# advisory_match() needs a model and a firmware revision: a virtio disk has neither
leafj=$($BRISK devices "$D" --json 2>/dev/null)
model=$(jq -r '.stack | .. | objects | select(.name? == "'"$dev"'") | .model' <<<"$leafj" | head -1)
fw=$(jq -r '.stack | .. | objects | select(.name? == "'"$dev"'") | .firmware' <<<"$leafj" | head -1)
tui_start adv 100x30 LANG=C.UTF-8 BRISK_DATADIR="$D/data" -- "$D" "${COMMON[@]}" --no-report
tui_wait '^stack ' 20
if [ -n "$model" ] && [ -n "$fw" ]; then
  t_match advisory-badge "$(tui_line 0)" "⚠ firmware advisory: $dev"
  t_match advisory-in-tree "$(tui_cap)" '! firmware .*: test advisory that matches every disk'
else
  t_match advisory-none-without-model "$(tui_line 0)" 'root$|read-only \(not root\)$'
fi
tui_keys q
tui_wait 'BRISK-EXIT=0' 30; t_eq advisory-run-ends $? 0
tui_stop

# plain 'brisk' (no command) on a terminal opens the dashboard on the
# current directory; q ends it and leaves that directory as it was
P=$(t_tmpdir)
TUI_S="brisk-t$$-plain"
tmux kill-session -t "$TUI_S" 2>/dev/null
tmux new-session -d -s "$TUI_S" -x 100 -y 30 \
  "cd $(printf '%q' "$P") && env LANG=C.UTF-8 $(printf '%q' "$BRISK"); echo BRISK-EXIT=\$?; sleep 300"
tui_wait '^stack ' 20; t_eq plain-brisk-opens-the-dashboard $? 0
t_match plain-brisk-on-cwd "$(tui_line 1)" "^stack $fstype on ${dev}"
tui_keys q
tui_wait 'BRISK-EXIT=0' 30; t_eq plain-brisk-quits $? 0
tui_stop
t_eq plain-brisk-leaves-nothing "$(ls -A "$P")" ""
