#!/bin/bash
# The load's own I/O priority as a setting (root, a loop device):
# `brisk run --at TIME:load.ionice=idle` moves the running load processes
# to the idle class (read back with ioprio_get on brisk's load children,
# tests/helpers/ioprio_of), a compare arm load.ionice=idle starts its
# loads in the idle class while the baseline's stay as they are, and the
# cgroup v2 io controller's keys are refused plainly where io is not
# there (this VM binds it to cgroup v1 blkio), exit 2, nothing run.
# shellcheck disable=SC2154  # d, L, dev, q: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
IOPRIO_OF=${IOPRIO_OF:-build/tests/helpers/ioprio_of}
[ -x "$IOPRIO_OF" ] || { t_skip load-ionice "no $IOPRIO_OF (make tests)"; exit 0; }

# 1. Refusals need no disk: the io controller's keys, bad values.
tmp=$(t_tmpdir)
bad() { # name exit regex args...
  local n=$1 want=$2 re=$3; shift 3
  local err rc; err=$("$BRISK" "$@" 2>&1 >/dev/null); rc=$?
  t_eq "$n: exit $want" "$rc" "$want"; t_match "$n: message" "$err" "$re"
}
if grep -Eq '^blkio[[:space:]]+[1-9]' /proc/cgroups; then
  why="load.io.weight needs the cgroup v2 io controller; here io is bound to cgroup v1 blkio: unavailable"
else
  why="load.io.weight.*unavailable"
fi
bad "compare load.io.weight" 2 "$why" compare "$tmp" current load.io.weight=100 -l seq-write
bad "run --at load.io.weight" 2 "$why" run "$tmp" --at 1s:load.io.weight=100
bad "compare load.io.max" 2 "load.io.max.*unavailable" compare "$tmp" current load.io.max=wbps=20m
bad "bad load.io.max" 2 "rbps\|wbps\|riops\|wiops" compare "$tmp" current load.io.max=20m
bad "bad load.ionice" 2 "expected none, idle" compare "$tmp" current load.ionice=lowest
bad "unknown load key" 2 "unknown load setting 'load.nice'" run "$tmp" --at 1s:load.nice=5
bad "set load.ionice" 2 "setting of brisk's own load, not of a disk: use it in a compare arm" set "$tmp" load.ionice=idle
bad "get load.ionice" 2 "setting of brisk's own load" get "$tmp" load.ionice
t_eq "refusals left nothing in the directory" "$(find "$tmp" -mindepth 1 | wc -l)" 0

if ! is_root; then t_skip load-ionice "needs root (a loop device)"; exit 0; fi
loop_mount load-ionice 256M
export BRISK_RUNTIME_DIR=$d/rt

# load_prios PID: "class" of every thread of PID's load children (their
# fds name a load-KIND-N file of the work area), one per line
load_prios() {
  local c f load
  for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    load=
    for f in /proc/"$c"/fd/*; do
      case $(readlink "$f" 2>/dev/null) in */.brisk-*/load-*) load=1; break ;; esac
    done
    [ -n "$load" ] || continue
    "$IOPRIO_OF" "$c" 2>/dev/null | awk '{print $2}'
  done
}
w=(-a save -n 2 --interval 100ms --floor 10% -q --warmup 500ms)

# 2. brisk run --at 2s:load.ionice=idle: none (inherited) before, idle after.
"$BRISK" run "$d/mnt" "${w[@]}" -n 12 -i 1 -l seq-write:size=64m -d 6s --at 2s:load.ionice=idle \
  --json "$d/run.json" >/dev/null 2>"$d/err" &
pid=$!
before="" after=""
for _ in $(seq 120); do
  p=$(load_prios $pid | sort -u | tr '\n' ' ')
  if [ -n "$p" ]; then
    [ -z "$before" ] && before=$p
    case $p in *idle*) after=$p; break ;; esac
  fi
  sleep 0.1
done
wait $pid; rc=$?
t_eq "run --at: exit 0" "$rc" 0
t_eq "run --at: the load before the change" "$before" "none "
t_eq "run --at: the load after it" "$after" "idle "
t_eq "run --at: the epochs" "$(jq -r '[.epochs[].label]|join(",")' "$d/run.json")" \
  "start,load.ionice=idle"
t_eq "run --at: no journal" "$(find "$BRISK_RUNTIME_DIR" -maxdepth 1 -name '*journal*' 2>/dev/null | wc -l)" 0
t_eq "run --at: no work files" "$(find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l)" 0

# 3. A load spec's own ionice=idle, then --at be/7 with two instances:
#    every load process changes.  The epoch after the change ends once it
#    has -n samples: 12 of them keep the loads running long enough (>1 s)
#    for this poll to see both.
"$BRISK" run "$d/mnt" "${w[@]}" -n 12 -i 1 -l seq-write:size=32m,count=2,ionice=idle -d 5s \
  --at 1500ms:load.ionice=be/7 >/dev/null 2>"$d/err" &
pid=$!
seen=""
for _ in $(seq 100); do
  p=$(load_prios $pid | sort | uniq -c | awk '{print $1 "x" $2}' | tr '\n' ' ')
  # brisk changes one load after the other: wait for both (or the end)
  case $p in "2xbe/7 ") seen=$p; break ;; *be/7*) seen=$p ;; esac
  sleep 0.1
done
wait $pid; rc=$?
t_eq "two loads --at be/7: exit 0" "$rc" 0
t_eq "two loads --at be/7: both changed" "$seen" "2xbe/7 "

# 4. compare current vs load.ionice=idle: the arm's loads run idle, the
#    baseline's as they are; the arm is named in the text and JSON.
"$BRISK" compare "$d/mnt" current load.ionice=idle -r 1 --seed 3 -l seq-write:size=32m,rate=16m \
  -a save -n 2 --interval 100ms --warmup 500ms --floor 10% --settle-max 10s --load-window 2s \
  --json "$d/c.json" >"$d/c.txt" 2>"$d/err" &
pid=$!
seen=""
for _ in $(seq 600); do
  seen="$seen $(load_prios $pid | tr '\n' ' ')"
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
wait $pid; rc=$?
t_eq "compare: exit 0" "$rc" 0
t_match "compare: an idle load seen (the arm)" "$seen" "idle"
t_match "compare: a load at none seen (current)" "$seen" "none"
t_eq "compare: the arm in the JSON" "$(jq -r '.arms[1].settings' "$d/c.json")" "load.ionice=idle"
t_match "compare: the arm in the text" "$(cat "$d/c.txt")" "load.ionice=idle"
t_eq "compare: no work files" "$(find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l)" 0

# 5. Without root: load.ionice=idle needs none (no journal), rt does.
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
  NOBODY=$(id -u nobody)
  mkdir "$d/mnt/nb" && chown nobody "$d/mnt/nb" && chmod 755 "$d" "$d/mnt"
  j=$(setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups env HOME="$d/mnt/nb" \
      "$BRISK" run "$d/mnt/nb" "${w[@]}" -i 1 -l seq-write:size=16m -d 3s \
      --at 1s:load.ionice=idle --json - 2>"$d/err"); rc=$?
  t_eq "non-root --at load.ionice=idle: exit 0" "$rc" 0
  t_eq "non-root: the epochs" "$(jq -r '[.epochs[].label]|join(",")' <<<"$j")" \
    "start,load.ionice=idle"
  err=$(setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups env HOME="$d/mnt/nb" \
      "$BRISK" run "$d/mnt/nb" "${w[@]}" -l seq-write --at 1s:load.ionice=rt/0 2>&1 >/dev/null); rc=$?
  t_eq "non-root rt: exit 4" "$rc" 4
  t_match "non-root rt: says root" "$err" "real-time class needs root"
  rmdir "$d/mnt/nb"
else
  t_skip "load-ionice non-root" "no setpriv or no nobody user"
fi
