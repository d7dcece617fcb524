#!/bin/bash
# The layers flow one way: ui/ -> src/cmd/ -> src/ (engine, src/lab/) ->
# probes/.  Each #include "X.h" is looked up where it lives; a file may
# include headers of its own layer or of a layer below, never above.  Only
# ui/ includes curses.  The same check runs on a small planted tree first, so
# a check that finds nothing has shown it can find something.
. tests/lib.sh

rank() { # the layer of a path: 0 probes, 1 engine, 2 commands, 3 ui
  case $1 in
    probes/*) echo 0 ;; src/cmd/*) echo 2 ;; src/*) echo 1 ;; ui/*) echo 3 ;; *) echo 9 ;;
  esac
}
# violations ROOT: one line per include that points up, or curses outside ui/
violations() (
  cd "$1" || exit 1
  shopt -s nullglob
  declare -A home
  for h in probes/*.h src/*.h src/lab/*.h src/cmd/*.h ui/*.h; do
    b=${h##*/}
    [ -n "${home[$b]:-}" ] && echo "two headers named $b: ${home[$b]} and $h"
    home[$b]=$h
  done
  for f in probes/*.[ch] src/*.[ch] src/lab/*.[ch] src/cmd/*.[ch] ui/*.[ch]; do
    r=$(rank "$f")
    while read -r inc; do
      h=${home[$inc]:-}
      [ -n "$h" ] && [ "$(rank "$h")" -gt "$r" ] && echo "$f includes $h"
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
    case $f in ui/*) ;; *)
      grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](n?curses|ncursesw/)' "$f" &&
        echo "$f includes curses" ;;
    esac
  done
)

plant=$(t_tmpdir)
mkdir -p "$plant/probes" "$plant/src/cmd" "$plant/ui"
printf '#include "session.h"\n' >"$plant/probes/x.c"         # probe -> engine
printf '#include <curses.h>\n#include "cmd_run.h"\n' >"$plant/src/y.c"  # curses; engine -> cmd
printf '#include "dash.h"\n' >"$plant/src/cmd/z.c"            # cmd -> ui
printf '#include "x.h"\n#include "cmd_run.h"\n' >"$plant/ui/ok.c"  # ui -> anything: fine
: >"$plant/src/session.h"; : >"$plant/src/cmd/cmd_run.h"; : >"$plant/ui/dash.h"; : >"$plant/probes/x.h"
got=$(violations "$plant" | sort | tr '\n' ';')
t_eq finds-planted "$got" "probes/x.c includes src/session.h;src/cmd/z.c includes ui/dash.h;src/y.c includes curses;src/y.c includes src/cmd/cmd_run.h;"
t_eq includes-flow-down "$(violations . | tr '\n' ';')" ""
