# shellcheck shell=bash
# Helpers for the progress-line tests (tests/cli/progress_*.sh; not a test
# itself: the runner takes *.sh).  Source after tests/lib.sh.  A command
# runs in a detached tmux pane of its own (tui_common.bash's server per
# script), its stdout to a file, so the pane shows what it writes to
# stderr, a terminal; pt_watch captures the pane every 0.2 s.
source tests/cli/tui_common.bash

# pt_start NAME COLS CMDLINE: run CMDLINE (a shell command line) in a new
# pane COLS wide; the pane prints BRISK-EXIT=<status> when it ends.
pt_start() {
  TUI_S="brisk-p$$-$1"
  tmux kill-session -t "$TUI_S" 2>/dev/null
  # through bash whatever $SHELL is: a dash that tmux started for the pane
  # (SHELL=/bin/sh in package builds) dies of the C-c meant for brisk
  tmux new-session -d -s "$TUI_S" -x "$2" -y 12 \
    "exec bash -c $(printf %q "$3; echo BRISK-EXIT=\$?; sleep 300")"
  tmux set-option -t "$TUI_S" window-size manual >/dev/null 2>&1
  case "${T_CLEANUP_EXTRA:-}" in *tui_server_gone*) ;;
    *) T_CLEANUP_EXTRA="${T_CLEANUP_EXTRA:-true}; tui_server_gone" ;; esac
}

# pt_watch LOG [SECONDS]: capture the pane every 0.2 s into LOG (each
# capture after a line "@<epoch seconds>") until BRISK-EXIT shows; 1 if it
# did not within SECONDS (default 60).
pt_watch() {
  local log=$1 limit=${2:-60} i cap
  : >"$log"
  for ((i = 0; i < limit * 5; i++)); do
    cap=$(tui_cap)
    printf '@%s\n%s\n' "$(date +%s.%N)" "$cap" >>"$log"
    grep -q '^BRISK-EXIT=' <<<"$cap" && return 0
    sleep 0.2
  done
  return 1
}

# pt_last LOG: the last capture of LOG (the pane when the command ended).
pt_last() { awk '/^@[0-9]/ { buf = ""; next } { buf = buf $0 "\n" } END { printf "%s", buf }' "$1"; }

# pt_exit LOG: the exit status the pane printed.
pt_exit() { pt_last "$1" | sed -n 's/^BRISK-EXIT=//p'; }

# pt_rows LOG REGEX: the distinct rows of every capture that match REGEX.
pt_rows() { grep -v '^@[0-9]' "$1" | grep -E -- "$2" | sort -u; }

# pt_plain NAME FILE: a file that is not a terminal got no progress: no
# carriage return, no escape byte, no ETA.
pt_plain() {
  t_eq "$1: no CR" "$(tr -cd '\r' <"$2" | wc -c)" 0
  t_eq "$1: no ESC" "$(tr -cd '\033' <"$2" | wc -c)" 0
  t_eq "$1: no ETA" "$(grep -c 'ETA' "$2")" 0
}

# pt_widest LOG: the widest row of any capture.
pt_widest() { grep -v '^@[0-9]' "$1" | LC_ALL=C.UTF-8 awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }'; }
