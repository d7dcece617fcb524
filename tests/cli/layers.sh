#!/bin/bash
# The folders flow one way (ARCHITECTURE.md): ui/ -> src/cmd/ -> the
# engine's folders -> probes/, and inside the engine
#   src/compare, src/fleet -> src/output -> src/profile -> src/run, src/lab
#   -> src/settings -> src/base.
# Each #include "X.h" is looked up where it lives; a file may include
# headers of its own folder or of a folder ranked below it, never above and
# never a peer's (compare and fleet do not include each other, nor run and
# lab).  Only ui/ includes curses.  The same check runs on a small planted
# tree first, so a check that finds nothing has shown it can find something.
# An include that its file uses nothing of is includes.sh's business.
. tests/lib.sh

FOLDERS="probes src/base src/settings src/run src/lab src/profile src/output src/compare src/fleet src/cmd ui"
rank() { # the rank of a path's folder; 99 for a folder not in the map
  case ${1%/*} in
    probes) echo 0 ;; src/base) echo 1 ;; src/settings) echo 2 ;;
    src/run | src/lab) echo 3 ;; src/profile) echo 4 ;; src/output) echo 5 ;;
    src/compare | src/fleet) echo 6 ;; src/cmd) echo 7 ;; ui) echo 8 ;; *) echo 99 ;;
  esac
}
# violations ROOT: one line per include that points up or sideways, curses
# outside ui/, a source file outside the map
violations() (
  cd "$1" || exit 1
  shopt -s nullglob
  declare -A home
  for f in src/*.[ch] src/*/*/*.[ch]; do echo "$f is outside the folder map"; done
  for d in src/*/; do
    d=${d%/}
    [[ " $FOLDERS " == *" $d "* ]] || echo "$d is not in the folder map"
  done
  for d in $FOLDERS; do
    for h in "$d"/*.h; do
      b=${h##*/}
      [ -n "${home[$b]:-}" ] && echo "two headers named $b: ${home[$b]} and $h"
      home[$b]=$h
    done
  done
  for d in $FOLDERS; do
    for f in "$d"/*.[ch]; do
      r=$(rank "$f")
      while read -r inc; do
        h=${home[$inc]:-}
        [ -z "$h" ] && continue
        [ "${h%/*}" = "$d" ] && continue
        [ "$(rank "$h")" -ge "$r" ] && echo "$f includes $h"
      done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
      case $f in ui/*) ;; *)
        grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](n?curses|ncursesw/)' "$f" &&
          echo "$f includes curses" ;;
      esac
    done
  done
)

plant=$(t_tmpdir)
mkdir -p "$plant/probes" "$plant/src/base" "$plant/src/run" "$plant/src/lab" "$plant/src/compare" \
         "$plant/src/fleet" "$plant/src/cmd" "$plant/src/misc" "$plant/ui"
printf '#include "session.h"\n' >"$plant/probes/x.c"                       # probe -> engine
printf '#include <curses.h>\n#include "cmd_run.h"\n' >"$plant/src/run/y.c"  # curses; run -> cmd
printf '#include "session.h"\n' >"$plant/src/base/b.c"                      # base -> run
printf '#include "fleet.h"\n#include "stats.h"\n' >"$plant/src/compare/c.c" # peer; down: fine
printf '#include "labfs.h"\n' >"$plant/src/run/session.c"                   # run -> lab, a peer
printf '#include "dash.h"\n' >"$plant/src/cmd/z.c"                          # cmd -> ui
printf '#include "x.h"\n#include "cmd_run.h"\n' >"$plant/ui/ok.c"          # ui -> anything: fine
: >"$plant/src/loose.c"
: >"$plant/src/run/session.h"; : >"$plant/src/cmd/cmd_run.h"; : >"$plant/ui/dash.h"; : >"$plant/probes/x.h"
: >"$plant/src/fleet/fleet.h"; : >"$plant/src/base/stats.h"; : >"$plant/src/lab/labfs.h"
got=$(violations "$plant" | sort | tr '\n' ';')
t_eq finds-planted "$got" "probes/x.c includes src/run/session.h;src/base/b.c includes src/run/session.h;src/cmd/z.c includes ui/dash.h;src/compare/c.c includes src/fleet/fleet.h;src/loose.c is outside the folder map;src/misc is not in the folder map;src/run/session.c includes src/lab/labfs.h;src/run/y.c includes curses;src/run/y.c includes src/cmd/cmd_run.h;"
t_eq includes-flow-down "$(violations . | tr '\n' ';')" ""
