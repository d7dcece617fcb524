#!/bin/bash
# The breakdown under bad conditions (root): a sample the watchdog kills
# keeps its breakdown up to the kill; two brisk runs at once each measure
# their own samples; brisk killed with SIGKILL leaves none of its BPF
# programs loaded (they go with its file descriptors).
source tests/lib.sh
is_root || { t_skip run_breakdown_hostile "needs root (BPF)"; exit 0; }
command -v jq >/dev/null || { t_skip run_breakdown_hostile "jq is not installed"; exit 0; }
PATH=$PATH:/usr/sbin
d=$(t_tmpdir)
mkdir -p "$d/a" "$d/b"
probe=$(BRISK_DEBUG=session "$BRISK" run "$d/a" --no-load -a ssh-like -i 1 -q 2>&1)
if ! grep -q 'ssh-like sample .* ms:' <<<"$probe"; then
  t_skip run_breakdown_hostile "$(grep -o "breakdown is unavailable: .*" <<<"$probe" | head -1)"
  exit 0
fi

# the watchdog: a 5 s program killed at 1 s, its 1 s accounted for
out=$(BRISK_DEBUG=session "$BRISK" run "$d/a" --no-load -a exec --exec 'sleep 5' --timeout 1s \
      -i 1 -q 2>&1)
line=$(grep 'exec sample' <<<"$out" | head -1)
ms=$(sed -n 's/.*exec sample \([0-9.]*\) ms:.*/\1/p' <<<"$line")
t_check watchdog-breakdown-kept test -n "$ms"
t_check watchdog-wall-is-timeout awk -v m="${ms:-0}" 'BEGIN { exit !(m >= 980 && m <= 1020) }'
t_match watchdog-mostly-sleep "$line" ': (9[0-9]|100) % other sleep'

# two at once, each its own samples, all complete
BRISK_DEBUG=session "$BRISK" run "$d/a" --no-load -a ssh-like,save -i 4 --interval 50ms -q \
  >"$d/one.txt" 2>&1 &
p1=$!
BRISK_DEBUG=session "$BRISK" run "$d/b" --no-load -a ssh-like,save -i 4 --interval 50ms -q \
  >"$d/two.txt" 2>&1 &
p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
t_eq two-at-once-exit "$r1 $r2" "0 0"
t_eq two-at-once-first "$(grep -c 'sample .* ms: .*(flags 0)' "$d/one.txt")" 8
t_eq two-at-once-second "$(grep -c 'sample .* ms: .*(flags 0)' "$d/two.txt")" 8

# SIGKILL: the programs it held are gone once it and its children are
if command -v bpftool >/dev/null; then
  "$BRISK" run "$d/a" -a ssh-like -i 2 -n 50 --max-time 60 -q >/dev/null 2>&1 &
  pid=$!
  ids=""
  for _ in $(seq 1 100); do
    # the programs its file descriptors hold (fdinfo: prog_id)
    ids=$(cat /proc/"$pid"/fdinfo/* 2>/dev/null | sed -n 's/^prog_id:[[:space:]]*//p' | sort -u)
    [ -n "$ids" ] && break
    sleep 0.1
  done
  t_check sigkill-had-programs test -n "$ids"
  kill -9 "$pid"; wait "$pid" 2>/dev/null
  left=x
  for _ in $(seq 1 50); do
    left=$(bpftool prog show -j 2>/dev/null | jq -r '.[].id' | sort | comm -12 - <(echo "$ids"))
    [ -z "$left" ] && break
    sleep 0.2
  done
  t_eq sigkill-nothing-left "$left" ""
  # what the killed run left in DIR is the next run's to remove
  "$BRISK" run "$d/a" --no-load -a save -i 1 -q >/dev/null 2>&1
else
  t_skip sigkill-nothing-left "no bpftool"
fi
