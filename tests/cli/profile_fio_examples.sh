#!/bin/bash
# The loads fio users bring (issue 29): job files of our own
# (tests/fixtures/fio/ex-*.fio) carrying the keys of the 20 file-based jobs
# of fio's examples/ folder.  Each imports, or is refused with FILE:LINE
# and why (17 import, 3 are refused, as fio itself refuses them or for what
# brisk does not do); the imported profiles read back.  After
# 21:58 or with BRISK_RUN_LOADS=1: a short `brisk run --fio` of a mixed
# load on a small temp directory, its read and write bytes both moving.
# No root needed.
. tests/lib.sh
BRISK=${BRISK:-./brisk}
F=tests/fixtures/fio
T=$(t_tmpdir)

# job: "ok", or the refusal's start after "FILE:"
want() {
  case $1 in
    # fio takes an existing file's size; without one it too asks for size=
    ex-butterfly) echo "6: fio job [fwd] has no size (fio would take an existing file's; brisk makes its own)" ;;
    # fio: "Bad option <threads=1>", the job file is refused
    ex-threads) echo "2: fio key 'threads' cannot be honoured: fio does not know it either" ;;
    # verify reads back what was written: I/O the load would not do
    ex-verify) echo "3: fio key 'verify' cannot be honoured: brisk does not check data; fio's verify reads back" ;;
    *) echo ok ;;
  esac
}

ok=0 n=0
for f in $F/ex-*.fio; do
  j=$(basename "$f" .fio)
  n=$((n + 1))
  $BRISK profile import "$f" -o "$T/$j.profile" 2>"$T/$j.err" >/dev/null
  rc=$?
  w=$(want "$j")
  if [ "$w" = ok ]; then
    t_eq "import-$j" "$rc" 0
    t_match "check-$j" "$($BRISK profile check "$T/$j.profile" 2>&1)" "ok: profile $j"
    [ $rc = 0 ] && ok=$((ok + 1))
  else
    t_eq "refuse-$j" "$rc" 2
    t_eq "why-$j" "$(grep -v ': note: ' "$T/$j.err" | head -1 | cut -c1-$((${#f} + 1 + ${#w})))" "$f:$w"
  fi
done
t_eq examples-count "$n" 20
t_eq examples-imported "$ok" 17

# what the honoured keys became
t_match mixed-rand "$(tr '\n' ' ' <"$T/ex-mixed-rand.profile")" 'rw = randrw rwmixread = 70 '
t_match mixed-seq "$(tr '\n' ' ' <"$T/ex-mixed-seq.profile")" 'rw = rw rwmixread = 75 '
t_match backwards "$(cat "$T/ex-backwards.profile")" '^rw = read:-8k$'
t_match zones "$(cat "$T/ex-zones.profile")" '^random_distribution = zoned:60/10:40/90$'
t_match rate-iops "$(cat "$T/ex-submit-fixed.profile")" '^rate = 800k$'
t_match flow "$(tr '\n' ' ' <"$T/ex-flow.profile")" 'flow = 1 flow_sleep = 500 .*flow = 4 flow_sleep = 500 '
t_match poisson "$(tr '\n' ' ' <"$T/ex-submit-poisson.profile")" 'rate = 80k rate_poisson = 1 '
t_match notes "$(cat "$T/ex-submit-fixed.err")" "ex-submit-fixed.fio:8: note: fio key 'io_submit_mode=offload' accepted, changes nothing: how fio submits"
t_match note-exitall "$(cat "$T/ex-exitall.err")" "ex-exitall.fio:5: note: fio key 'exitall=1' accepted, changes nothing: an end condition"
t_match note-ratemin "$(cat "$T/ex-ratemin.err")" "ex-ratemin.fio:6: note: fio key 'ratemin=1m' accepted, changes nothing: an end condition"
# thinktime (bare: microseconds) and startdelay (bare: seconds) are the loads' own
t_match thinktime "$(cat "$T/ex-exitall.profile")" '^thinktime = 1ms$'
t_match startdelay "$(tr '\n' ' ' <"$T/ex-ratemin.profile")" '\[load c1\] [^[]*rate = 2m  \[load c2\] .*rate = 2m startdelay = 2s $'
t_eq startdelay-c1-none "$(sed -n '/\[load c1\]/,/^$/p' "$T/ex-ratemin.profile" | grep -c startdelay)" 0

# a short mixed run: only when no CI run could be disturbed
if [ "${BRISK_RUN_LOADS:-0}" != 1 ] && [ "$(date +%H%M)" -lt 2158 ] && [ "$(date +%H%M)" -gt 1200 ]; then
  t_skip run-mixed "before 21:58 the machine's CI run must not be disturbed (BRISK_RUN_LOADS=1 forces)"
else
  D=$(t_tmpdir)
  printf '[global]\nrw=randrw\nrwmixread=60\nbs=4k\ntime_based\nruntime=3\n[db]\nsize=16m\n' >"$T/mix.fio"
  $BRISK run "$D" --fio "$T/mix.fio" -a save -i 2 -n 3 -q --floor 0 --json "$T/run.json" \
    >"$T/run.out" 2>"$T/run.err"
  t_eq run-mixed-exit $? 0
  t_match run-mixed-kind "$(cat "$T/run.out")" 'rand-mixed'
  t_match run-mixed-rows "$(cat "$T/run.out")" '^  reads .*'
  # both directions moved, 60 % of the bytes read (give or take)
  t_eq run-mixed-split "$(jq -r '.loads[0] | (.read_bytes > 0 and .write_bytes > 0 and
    (.read_bytes / .bytes) > 0.5 and (.read_bytes / .bytes) < 0.7)' "$T/run.json")" true
  t_eq run-mixed-clean "$(find "$D" -mindepth 1 | wc -l)" 0
fi
