#!/bin/bash
# The layers flow one way: ui/ -> src/cmd/ -> src/ (engine, src/lab/) ->
# probes/.  Each #include "X.h" is looked up where it lives; a file may
# include headers of its own layer or of a layer below, never above.  Only
# ui/ includes curses.
. tests/lib.sh

rank() { # the layer of a path: 0 probes, 1 engine, 2 commands, 3 ui
  case $1 in
    probes/*) echo 0 ;; src/cmd/*) echo 2 ;; src/*) echo 1 ;; ui/*) echo 3 ;; *) echo 9 ;;
  esac
}
declare -A home
for h in probes/*.h src/*.h src/lab/*.h src/cmd/*.h ui/*.h; do
  [ -f "$h" ] || continue
  b=${h##*/}
  [ -n "${home[$b]:-}" ] && t_fail "unique-$b" "two headers named $b: ${home[$b]} and $h"
  home[$b]=$h
done
bad=()
files=(probes/*.[ch] src/*.[ch] src/lab/*.[ch] src/cmd/*.[ch] ui/*.[ch])
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  r=$(rank "$f")
  while read -r inc; do
    h=${home[$inc]:-}
    [ -z "$h" ] && continue                  # a system or library header
    [ "$(rank "$h")" -gt "$r" ] && bad+=("$f includes $h")
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
t_eq includes-flow-down "${bad[*]}" ""
curses=$(grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](n?curses|ncursesw/)' \
  probes/*.[ch] src/*.[ch] src/lab/*.[ch] src/cmd/*.[ch] 2>/dev/null | tr '\n' ' ')
t_eq curses-only-in-ui "$curses" ""
# the test itself catches a violation: a probe that includes an engine header
tmp=$(t_tmpdir)
printf '#include "session.h"\n' >"$tmp/x.c"
caught=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$tmp/x.c")
[ "$(rank "${home[$caught]}")" -gt "$(rank probes/x.c)" ]; t_eq detects-upward-include $? 0
