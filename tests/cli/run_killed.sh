#!/bin/bash
# A brisk run that is SIGKILLed cannot clean up; the next run on the same
# directory removes the work directory it left (its owner lock is free),
# says so, and never touches a live run's directory or other files.
source tests/lib.sh

d=$(t_tmpdir)
touch "$d/keep-me"
mkdir "$d/.brisk-notour"            # not brisk's shape: never touched
run_bg() { # a long run in the background, output to $1; sets $bg
  $BRISK run "$d" -q -i 3 -n 1000 -d 60s --interval 50ms --ls-files 50 \
    --load seq-write:rate=20m >"$1" 2>&1 &
  bg=$!
}
wait_workdir() { # the pid's work directory, once its files are there
  local i w
  for ((i = 0; i < 200; i++)); do
    for w in "$d"/.brisk-??????; do
      [ -f "$w/owner" ] && [ "$(cat "$w/owner" 2>/dev/null)" = "$1" ] &&
        compgen -G "$w/load-*" >/dev/null && { echo "$w"; return 0; }
    done
    sleep 0.1
  done
  return 1
}

run_bg /dev/null; pid=$bg
wd=$(wait_workdir "$pid") || { t_fail killed-run-started "no work directory after 20s"; kill -9 "$pid"; exit 0; }
kill -KILL "$pid"; wait "$pid" 2>/dev/null
sleep 0.3   # the children die with it (PDEATHSIG)
t_check killed-left-its-workdir test -d "$wd"
t_eq killed-children-gone "$(pgrep -f "brisk run $d" | wc -l)" 0
out=$($BRISK run "$d" --no-load -a save -i 1 2>&1); rc=$?
t_eq next-run-exit "$rc" 0
t_match next-run-says-so "$out" "removed $wd, left by a brisk run that was killed"
t_check killed-workdir-removed test ! -e "$wd"

# A live run's directory must survive another run on the same directory.
run_bg "$d/../live.out"; live=$bg
lwd=$(wait_workdir "$live") || { t_fail live-run-started "no work directory"; kill -9 "$live"; exit 0; }
out=$($BRISK run "$d" --no-load -a save -i 1 2>&1)
t_check live-workdir-kept test -d "$lwd"
if grep -q 'left by a brisk run' <<<"$out"; then t_fail live-workdir-not-reported "$out"; else t_pass live-workdir-not-reported; fi
kill -INT "$live"; wait "$live"
rm -f "$d/../live.out"
t_eq only-other-files-left "$(ls -A "$d" | sort | tr '\n' ' ')" ".brisk-notour keep-me "
