#!/bin/bash
# Issue 24: what one result file may cost `brisk report`.  A 16 MiB file
# (the most brisk reads; about 218k samples as tests/helpers/gen-fleet.py
# writes them) took 100 s of CPU and more before: the bootstrap sorted every
# resample.  Now its cost is linear in the samples, and a file adds at most
# FLEET_MAX_CELL (500) samples per phase, action and setting, chosen evenly
# by rank (brisk-report(1), LIMITS), with a note.  Each check fails on the
# brisk before (it pooled every sample, and ran out of the CPU limit).
# No root.
source tests/lib.sh
PY=/usr/bin/python3
[ -x "$PY" ] || { t_skip report-cost "needs $PY"; exit 0; }
d=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$d/rt

# 1. one 16 MiB file: done within 60 s of CPU (it took 1-2 s here; 100 s
#    and more before), every cell cut to 500 samples, with a note
"$PY" tests/helpers/gen-fleet.py "$d/one" 1 16777216 || { t_fail report-cost "gen-fleet.py failed"; exit 0; }
f=$d/one/h0000/20261204T010000Z-compare.json
out=$( (ulimit -t 60; "$BRISK" report "$d/one") 2>"$d/err"); rc=$?
t_eq "16 MiB: exit 0 within 60 s of CPU" "$rc" 0
t_match "16 MiB: the cut is noted, with the bound" "$(cat "$d/err")" \
  "h0000/20261204T010000Z-compare.json: [0-9]+ of its samples not pooled: a file adds at most 500 per phase, action and setting, chosen evenly by rank \(one held [0-9]+\)"
t_match "16 MiB: 500 samples pooled per row" "$out" \
  'ssh-like +mq-deadline +1 +500 [0-9.]+ \['
# the kept samples are spread evenly by rank: the pooled median is the
# file's own within 2 %
p50=$(awk '$1 == "ssh-like" && $2 == "mq-deadline" { print $5; exit }' <<<"$out")
own=$("$PY" -c '
import json, statistics, sys
d = json.load(open(sys.argv[1]))
print(statistics.median(s["ms"] for s in d["samples"] if s["arm"] == 0 and s["action"] == "ssh-like"))' "$f")
t_check "16 MiB: pooled p50 $p50 is the file's $own within 2 %" \
  awk -v a="$p50" -v b="$own" 'BEGIN { r = a / b; exit !(r > 0.98 && r < 1.02) }'

# 2. twenty files of 256 KiB (about 850 samples per cell each): each adds
#    500 per cell, so a row pools 20 x 500
"$PY" tests/helpers/gen-fleet.py "$d/many" 20 262144 || { t_fail report-cost "gen-fleet.py failed"; exit 0; }
out=$("$BRISK" report "$d/many" 2>"$d/err"); rc=$?
t_eq "20 files: exit 0" "$rc" 0
t_match "20 files: a row pools 20 x 500 samples" "$out" \
  'save +bfq +20 +10000 [0-9.]+ \['
t_eq "20 files: each file's cut noted" "$(grep -c 'not pooled' "$d/err")" 20
# a file within the bound is pooled whole, without a note
"$PY" tests/helpers/gen-fleet.py "$d/small" 3 32768 || { t_fail report-cost "gen-fleet.py failed"; exit 0; }
out=$("$BRISK" report "$d/small" 2>"$d/err"); rc=$?
t_eq "small files: exit 0, no note" "$rc:$(grep -c 'not pooled' "$d/err")" "0:0"
