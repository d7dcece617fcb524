#!/bin/bash
# brisk lab up --calibrate's progress (root, /dev/fuse): on a terminal (a
# tmux pane) one line "lab calibrate: random reads k/~N  ETA m:ss", then
# "sequential k/64 MiB", gone before the calibration is printed and when
# SIGINT ends it; none with -q; none when stderr is a file.  Every lab made
# is taken apart (lab_common.bash).
source tests/lib.sh
source tests/cli/lab_common.bash
source tests/cli/progress_common.bash
why=$(lab_requirements)
[ -n "$why" ] && { t_skip progress-lab "$why"; exit 0; }
command -v tmux >/dev/null || { t_skip progress-lab "tmux is not installed"; exit 0; }
lab_setup
b=$(printf '%q' "$BRISK")
up() { echo "BRISK_RUNTIME_DIR='$BRISK_RUNTIME_DIR' $b lab up --dir '$LAB_T' --model hdd-5400 --size 128M --name $1 --calibrate ${2:-}"; }
down() { "$BRISK" lab down "$1" >/dev/null 2>&1; t_eq "$2: lab down" "$?" 0; }

# 1. A terminal: both phases with an ETA, then the calibration at column 0.
pt_start tty 100 "$(up ptty)"
pt_watch "$LAB_W/log" 120
t_eq "tty: exit 0" "$(pt_exit "$LAB_W/log")" 0
t_match "tty: random reads with an ETA" "$(pt_rows "$LAB_W/log" '^lab calibrate: ')" \
  '^lab calibrate: random reads [0-9]+/~[0-9]+  ETA [0-9]+:[0-9]{2}$'
t_match "tty: then the sequential reads" "$(pt_rows "$LAB_W/log" '^lab calibrate: ')" \
  '^lab calibrate: sequential [0-9]+/64 MiB  ETA [0-9]+:[0-9]{2}$'
t_eq "tty: no line left at the end" "$(pt_last "$LAB_W/log" | grep -cE 'ETA|^lab calibrate:')" 0
t_match "tty: the calibration starts at column 0" "$(pt_last "$LAB_W/log")" '^calibration of hdd-5400 '
t_match "tty: lab up's own lines are there" "$(pt_last "$LAB_W/log")" '^mounted at '
down ptty tty

# 2. -q: no line.
pt_start quiet 100 "$(up pquiet -q)"
pt_watch "$LAB_W/log" 120
t_eq "-q: exit 0" "$(pt_exit "$LAB_W/log")" 0
t_eq "-q: no progress line in any capture" "$(pt_rows "$LAB_W/log" 'lab calibrate|ETA' | wc -l)" 0
t_match "-q: the calibration is printed" "$(pt_last "$LAB_W/log")" '^calibration of hdd-5400 '
down pquiet -q

# 3. stderr a file: nothing of it there.
pt_start file 100 "$(up pfile) 2>'$LAB_W/err'"
pt_watch "$LAB_W/log" 120
t_eq "stderr a file: exit 0" "$(pt_exit "$LAB_W/log")" 0
pt_plain "stderr a file" "$LAB_W/err"
down pfile "stderr a file"

# 4. SIGINT while it calibrates: the line is erased before brisk dies of
#    it (the pane's shell traps INT to live on and print the exit).
pt_start int 100 "trap : INT; $(up pint)"
tui_wait '^lab calibrate: random reads' 60
tui_keys C-c
pt_watch "$LAB_W/log" 30
t_eq "SIGINT: exit 130" "$(pt_exit "$LAB_W/log")" 130
t_eq "SIGINT: no line left" "$(pt_last "$LAB_W/log" | grep -cE 'ETA|lab calibrate:')" 0
t_match "SIGINT: the exit on a row of its own" "$(pt_last "$LAB_W/log")" '^(\^C)?BRISK-EXIT=130$'
down pint SIGINT
check_gone "progress-lab"
