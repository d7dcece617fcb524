#!/bin/bash
# fio's thinktime and startdelay as load keys (issue 29 part 5), measured
# from a short `brisk run` on a temp directory: a 4k reader that thinks
# 10 ms after each call makes at most 100 calls a second, and its MiB/s in
# the JSON says so; a reader with startdelay=1s makes its first call a
# second after the loads start, and its rate counts from there.  A small
# load (two 16 MiB files), a few seconds.  No root needed.
. tests/lib.sh
BRISK=${BRISK:-./brisk}
T=$(t_tmpdir)
D=$(t_tmpdir)

$BRISK run "$D" -l 'rand-read:bs=4k,size=16m,thinktime=10ms' \
  -l 'seq-read:bs=64k,size=16m,rate=1m,startdelay=1s' -a save -i 2 -n 12 -q --floor 0 \
  --seed 3 --json "$T/run.json" >"$T/run.out" 2>"$T/run.err"
t_eq run-exit $? 0
J="$T/run.json"
t_match spec-think "$(jq -r '.loads[0].spec' "$J")" ',thinktime=10ms$'
t_match spec-delay "$(jq -r '.loads[1].spec' "$J")" ',rate=1m,startdelay=1s$'
t_match report-spec "$(cat "$T/run.out")" 'rand-read:count=1,bs=4k,size=16m,thinktime=10ms'

# calls per second of the thinking reader, over its timeline and from its
# MiB/s: at most 100 (+5 % for the clock), and it still goes
calls=$(jq -r '.loads[0] | (.timeline[-1].bytes - .timeline[0].bytes) / 4096 /
  (.timeline[-1].t_s - .timeline[0].t_s) | floor' "$J")
echo "# thinktime=10ms: $calls calls/s over its timeline"
t_match think-bound "$calls" '^([5-9][0-9]|10[0-5])$'
t_eq think-mib "$(jq -r '.loads[0].mib_s * 1048576 / 4096 | (. <= 105 and . >= 50)' "$J")" true
t_eq think-ran "$(jq -r '.loads[0] | .timeline[-1].t_s - .timeline[0].t_s > 1' "$J")" true

# the delayed reader: first report a second after the loads started; its
# rate over its own running time is the rate asked
wait=$(jq -r '(.loads[1].timeline[0].t_s - .load_start_s) * 1000 | floor' "$J")
echo "# startdelay=1s: first report ${wait} ms after the loads started"
t_eq delay-waited "$(jq -r '(.loads[1].timeline[0].t_s - .load_start_s) | (. >= 0.99 and . < 1.5)' "$J")" true
t_eq delay-undelayed "$(jq -r '(.loads[0].timeline[0].t_s - .load_start_s) < 0.5' "$J")" true
t_eq delay-rate "$(jq -r '.loads[1].mib_s | (. > 0.8 and . < 1.2)' "$J")" true
t_eq clean "$(find "$D" -mindepth 1 | wc -l)" 0

# the spec's own checks, as the user meets them
err=$($BRISK run "$D" -l 'seq-read:thinktime_blocks=4' 2>&1)
t_eq refuse-exit $? 2
t_match refuse-why "$err" 'thinktime_blocks and thinktime_blocks_type need thinktime='
err=$($BRISK run "$D" -l 'seq-read:startdelay=3-1' 2>&1)
t_match refuse-range "$err" "bad value for 'startdelay'"
