# shellcheck shell=bash
# Helpers for the dashboard tests (sourced by tests/cli/tui_*.sh, after
# tests/lib.sh).  Each test drives `brisk tui` in its own detached tmux
# session and reads the screen with capture-pane.
TUI_S=""
# Every test script gets a tmux server of its own: a new session of a shared
# server takes the environment the server started with (another test's
# BRISK_RUNTIME_DIR), not this script's.
TUI_SOCK="brisk-test-$$"
unset TMUX
tmux() { command tmux -L "$TUI_SOCK" "$@"; }
tui_server_gone() {
  command tmux -L "$TUI_SOCK" kill-server 2>/dev/null
  rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TUI_SOCK"
}
# tui_start NAME COLSxLINES ENV... -- ARGS...: start brisk tui in a tmux
# session; the pane prints BRISK-EXIT=<status> when brisk ends.  TUI_WRAP
# (e.g. a setpriv command) goes in front of brisk.
tui_start() {
  local name=$1 size=$2; shift 2
  local envs=() args=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
  [ "${1:-}" = -- ] && shift
  args=("$@")
  TUI_S="brisk-t$$-$name"
  local cmd
  cmd="env ${envs[*]} ${TUI_WRAP:-} $(printf '%q ' "$BRISK" tui "${args[@]}"); echo BRISK-EXIT=\$?; sleep 300"
  tmux kill-session -t "$TUI_S" 2>/dev/null
  tmux new-session -d -s "$TUI_S" -x "${size%x*}" -y "${size#*x}" "$cmd"
  tmux set-option -t "$TUI_S" window-size manual >/dev/null 2>&1
  case "${T_CLEANUP_EXTRA:-}" in *tui_server_gone*) ;;
    *) T_CLEANUP_EXTRA="${T_CLEANUP_EXTRA:-true}; tui_server_gone" ;; esac
}
# shellcheck disable=SC2120  # the tests that source this pass options (tui_cap -S -200)
tui_cap() { tmux capture-pane -p -t "$TUI_S" "$@"; }
# tui_wait REGEX [SECONDS]: wait until the screen matches; 0 or 1
tui_wait() {
  local re=$1 limit=${2:-20} i
  for ((i = 0; i < limit * 10; i++)); do
    tui_cap | grep -Eq -- "$re" && return 0
    sleep 0.1
  done
  return 1
}
tui_keys() { tmux send-keys -t "$TUI_S" "$@"; }
tui_line() { tui_cap | sed -n "$(($1 + 1))p"; }   # 0-based row
# The pid of brisk inside the pane.
tui_pid() { pgrep -P "$(tmux display -p -t "$TUI_S" '#{pane_pid}')" -x brisk | head -1; }
tui_stop() { tmux kill-session -t "$TUI_S" 2>/dev/null; }
# tui_check_frame NAME COLS LINES: the header on row 0, the stack on row 1,
# the panel rules where they belong, the key line on the last row, and no
# row wider than the terminal.
tui_check_frame() {
  local n=$1 cols=$2 lines=$3 cap
  cap=$(tui_cap)
  t_match "$n-header" "$(sed -n 1p <<<"$cap")" '^brisk '
  t_match "$n-stack" "$(sed -n 2p <<<"$cap")" '^stack '
  t_match "$n-stack-rule" "$(sed -n 4p <<<"$cap")" '^─ Stack ─+ Load ─+$'
  t_match "$n-keys" "$(sed -n "${lines}p" <<<"$cap")" '^l load  s scheduler  t tunables'
  t_eq "$n-rows" "$(wc -l <<<"$cap")" "$lines"
  local wide
  wide=$(LC_ALL=C.UTF-8 bash -c 'n=0; while IFS= read -r l; do [ ${#l} -gt $1 ] && n=$((n+1)); done; echo $n' _ "$cols" <<<"$cap")
  t_eq "$n-no-row-wider" "$wide" 0
  t_eq "$n-one-header" "$(grep -c '^brisk ' <<<"$cap")" 1
  t_eq "$n-one-keyline" "$(grep -c 'l load  s scheduler' <<<"$cap")" 1
}
