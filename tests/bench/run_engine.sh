#!/bin/bash
# Benchmarks of the measurement engine (not timed tests; prints figures):
#  1. seq-write load vs fio, same pattern, same file system, alternated
#     (buffered 1 MiB sequential writes into a new file; target >= 95 %)
#  2. ssh-like idle cold time vs fio's runtime for the 2009 LKML job
#     (rw=randread size=2m filesize=30m bsrange=4k-44k invalidate=1; within 10 %)
#  3. the parent's CPU and RSS during a default `brisk run` (< 2 %, < 8 MiB;
#     over the RSS target the script prints FAIL and exits 1)
# ROUNDS (pairs, default 5) and SECONDS_PER_RUN (default 3) size part 1.
# PARTS (default "1 2 3") chooses the parts: PARTS=3 make bench BENCH=run_engine
cd "$(dirname "$0")/../.." || exit 1
BRISK=${BRISK:-./brisk}
LOAD=build/tests/helpers/bench_load
parts=" ${PARTS:-1 2 3} "
part() { [[ $parts == *" $1 "* ]]; }
if part 1 || part 2; then
  command -v fio >/dev/null || { echo "SKIP: fio not installed"; exit 0; }
  [ -x "$LOAD" ] || { echo "SKIP: $LOAD not built (make tests)"; exit 0; }
fi
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 0; }
rc=0
rounds=${ROUNDS:-5} secs=${SECONDS_PER_RUN:-3}
d=$(mktemp -d "$PWD/build/bench.XXXXXX") || exit 1
trap '[ -d "$d/labrt" ] && BRISK_RUNTIME_DIR=$d/labrt "$BRISK" lab down --all >/dev/null 2>&1; rm -rf "$d"' EXIT

settle() { # unlinking drops the previous run's dirty pages without writing them
  rm -f "$d"/w* "$d"/load-*
  sleep 1
}
median() { sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
run_fio() {
  fio --name=w --directory="$d" --rw=write --bs=1m --size=64g --fallocate=none \
      --ioengine=psync --runtime="$secs" --time_based --output-format=json 2>/dev/null |
    jq '.jobs[0].write.bw_bytes / 1048576'
}
run_brisk() { "$LOAD" "$d" seq-write:bs=1m "${secs}s" | awk '{print $3}'; }

if part 1; then
echo "--- 1. seq-write: brisk load vs fio (new file, buffered, bs=1m, ${secs}s each, $rounds pairs, order alternated)"
ratios=()
for ((r = 1; r <= rounds; r++)); do
  settle
  if ((r % 2)); then f=$(run_fio); settle; b=$(run_brisk); else b=$(run_brisk); settle; f=$(run_fio); fi
  ratio=$(awk -v b="$b" -v f="$f" 'BEGIN{printf "%.3f", b/f}')
  ratios+=("$ratio")
  printf 'pair %d: fio %.1f MiB/s  brisk %.1f MiB/s  ratio %s\n' "$r" "$f" "$b" "$ratio"
done
settle
m=$(printf '%s\n' "${ratios[@]}" | median)
echo "seq-write throughput ratio brisk/fio (median of $rounds pairs): $m (target >= 0.95)"
fi

# ssh_vs_fio DIR LABEL: fio's job and brisk's ssh-like action, alternated in
# blocks, on the file system of DIR.
ssh_vs_fio() {
local d=$1
echo "--- 2$2. ssh-like idle cold time vs fio (randread 2m of a 30m file, 4k-44k, invalidate=1)"
n=${SSH_SAMPLES:-20} blk=5
fio_ms=() fio_lat=() b_ms=() b_cold=0
fio --name=ssh --directory="$d" --rw=randread --size=2m --filesize=30m --bsrange=4k-44k \
    --invalidate=1 --output-format=json >/dev/null 2>&1   # lay the file out once
for ((i = 0; i < n; i += blk)); do    # blocks of $blk, alternated, against drift
  for ((k = 0; k < blk; k++)); do
    j=$(fio --name=ssh --directory="$d" --rw=randread --size=2m --filesize=30m \
          --bsrange=4k-44k --invalidate=1 --output-format=json 2>/dev/null)
    fio_ms+=("$(jq '.jobs[0].read.runtime' <<<"$j")")
    fio_lat+=("$(jq '.jobs[0].read.lat_ns.mean * .jobs[0].read.total_ios / 1e6' <<<"$j")")
  done
  out=$("$BRISK" run "$d" -q --no-load -a ssh -i "$blk" --interval 100ms --floor 0 --json -)
  mapfile -t -O "${#b_ms[@]}" b_ms < <(jq '.samples[].ms' <<<"$out")
  b_cold=$((b_cold + $(jq '.actions[0].cold' <<<"$out")))
done
rm -f "$d"/ssh*
b_p50=$(printf '%s\n' "${b_ms[@]}" | median)
b_mean=$(printf '%s\n' "${b_ms[@]}" | awk '{s+=$1} END{print s/NR}')
f_p50=$(printf '%s\n' "${fio_ms[@]}" | median)
fl_p50=$(printf '%s\n' "${fio_lat[@]}" | median)
printf 'fio runtime (ms, %d runs): median %s; sum of I/O latencies: median %.2f ms\n' "$n" "$f_p50" "$fl_p50"
printf 'brisk ssh-like idle (%d samples, %s cold): median %.2f ms, mean %.2f ms\n' "$n" "$b_cold" "$b_p50" "$b_mean"
awk -v b="$b_p50" -v f="$f_p50" -v l="$fl_p50" 'BEGIN{
  printf "ssh-like/fio ratio: %.3f vs runtime, %.3f vs summed latency (target within 0.90-1.10)\n", b/f, b/l}'

}
if part 2; then
ssh_vs_fio "$d" ""
# fio reports runtime in whole ms: on this fast disk that is 10 % by itself.
# On an emulated 7200 rpm disk (root, /dev/fuse) the job takes ~0.5 s, as in
# the 2009 tables, and the comparison is exact.
if [ "$(id -u)" = 0 ] && [ -c /dev/fuse ]; then
  labrt=$d/labrt
  if up=$(BRISK_RUNTIME_DIR=$labrt "$BRISK" lab up --model hdd-7200 --size 1G --dir "$d/lab" 2>&1); then
    mnt=$(sed -n 's/^mounted at //p' <<<"$up")
    SSH_SAMPLES=${SSH_SAMPLES_LAB:-10} ssh_vs_fio "$mnt" " (lab hdd-7200)"
    BRISK_RUNTIME_DIR=$labrt "$BRISK" lab down --all >/dev/null
  else
    echo "--- 2 (lab hdd-7200): skipped: lab up failed: $up"
  fi
else
  echo "--- 2 (lab hdd-7200): skipped: needs root and /dev/fuse"
fi
fi

part 3 || exit $rc
echo "--- 3. parent CPU and memory during a default 'brisk run'"
tck=$(getconf CLK_TCK)
log=$d/cpu.log
start=$(date +%s.%N)
"$BRISK" run "$d" -q --json "$d/run.json" >/dev/null &
pid=$!
# every 0.25 s: seconds since start, utime+stime ticks, and from status
# VmHWM (the kernel's own peak so far: a transient between two samples
# counts too), VmRSS, RssAnon (private: heap, stack, the libraries' data
# and relocations), RssFile (pages of brisk's and the shared libraries'
# files, shared with every process that maps them), all kB
while [ -r /proc/$pid/stat ]; do
  l=$(awk '{print $14 + $15}' /proc/$pid/stat 2>/dev/null)
  m=$(awk '/^(VmHWM|VmRSS|RssAnon|RssFile):/ {printf " %s", $2}' /proc/$pid/status 2>/dev/null)
  [ -n "$l" ] && [[ $m =~ ^(\ [0-9]+){4}$ ]] &&
    echo "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{print b-a}') $l$m" >>"$log"
  sleep 0.25
done
wait $pid
a=$(jq .idle_start_s "$d/run.json") b=$(jq .stop_s "$d/run.json")
awk -v a="$a" -v b="$b" -v hz="$tck" -v target=8 '
  { t[NR] = $1; c[NR] = $2; if ($3 > hwm) hwm = $3
    if ($4 > rss) { rss = $4; anon = $5; file = $6 } }
  # first sample at or after the idle phase began, last before the stop
  !ia && $1 >= a { ia = NR }
  $1 <= b { ib = NR }
  END {
    printf "parent while measuring (idle+warm-up+loaded, %.1f s): %.2f %% of one core\n",
           t[ib] - t[ia], 100 * (c[ib] - c[ia]) / hz / (t[ib] - t[ia])
    printf "parent over the whole run incl. preparing files and cleanup (%.1f s): %.2f %%\n",
           t[NR] - t[1], 100 * (c[NR] - c[1]) / hz / (t[NR] - t[1])
    printf "parent peak RSS %.1f MiB (VmHWM at the last sample, %.1f s; the report written " \
           "at exit comes after it)\n", hwm / 1024, t[NR]
    printf "  largest sample %.1f MiB: %.1f MiB private (RssAnon: heap, stack, libraries\047 " \
           "data) + %.1f MiB of files (RssFile: brisk and its shared libraries)\n",
           rss / 1024, anon / 1024, file / 1024
    printf "targets: < 2 %% of one core while measuring, < %d MiB\n", target
    if (hwm >= target * 1024) {
      printf "FAIL: parent peak RSS %.1f MiB, target < %d MiB\n", hwm / 1024, target
      exit 1
    }
  }' "$log" || rc=1
exit $rc
