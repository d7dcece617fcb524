#!/bin/bash
# The dashboard shows strings from the machine escaped: a loop device whose
# backing file's name holds ESC, an OSC title sequence and BEL is drawn as
# \x1b ... \x07, never handed to the terminal (the name is chosen by whoever
# made the file).
source tests/lib.sh
source tests/cli/tui_common.bash
source tests/cli/loop_common.bash

if ! command -v tmux >/dev/null; then t_skip tui-escape "tmux is not installed"; exit 0; fi
loop_mount -i "img-"$'\e]0;PWNED\a\r'"x.img" tui-escape 256M
mkdir -p "$d/run"
tui_start esc 120x30 LANG=C.UTF-8 BRISK_RUNTIME_DIR="$d/run" -- "$mnt" --load seq-write:rate=2m,size=8m --floor 32m \
  --ls-files 50 --interval 100ms --idle-samples 1 --tick 500ms --iterations 8 --no-report
tui_wait '^stack ' 20; t_eq opens $? 0
tui_wait 'file img-' 10; t_eq shows-backing-file $? 0
cap=$(tui_cap)
t_match backing-file-escaped "$cap" 'file img-\\x1b\]0;PWNED\\x07\\x0dx\.img'
t_eq no-caret-escape "$(grep -c '\^\[' <<<"$cap")" 0
title=$(tmux display -p -t "$TUI_S" '#{pane_title}')
t_match title-untouched "$title" '^[^P]*$|^$'
tui_wait 'BRISK-EXIT=' 40; t_match exits-cleanly "$(tui_cap)" 'BRISK-EXIT=0'
tui_stop
