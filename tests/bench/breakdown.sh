#!/bin/bash
# Benchmark: what measuring where the time went costs (issue 28; root).
# Alternated pairs in one run, on the file system of this checkout (vda
# here): brisk run with the breakdown against --no-breakdown, order
# swapped every pair.
#  - idle: ssh-like samples with no load, the median of each run's samples;
#    the ratio of the medians per pair, and the median of those ratios;
#  - loaded: the buffered writer's throughput over the load window (the
#    loads' own MiB/s), ratio with/without;
#  - the BPF programs' own run time (kernel.bpf_stats_enabled, read while
#    the run is alive) per second of the loaded run, and the brisk process's
#    own CPU (utime + stime from /proc, not its children's) per second.
#   make bench BENCH=breakdown       PAIRS=10 (default), SAMPLES=40 per idle run
#   AA=1: both runs of a pair without the breakdown (the noise floor: what
#   the same ratios look like when nothing differs)
# Leaves nothing behind; restores kernel.bpf_stats_enabled.
cd "$(dirname "$0")/../.." || exit 1
BRISK=${BRISK:-./brisk}
pairs=${PAIRS:-10} samples=${SAMPLES:-40}
[ "$(id -u)" = 0 ] || { echo "SKIP breakdown bench: needs root"; exit 0; }
command -v jq >/dev/null || { echo "SKIP breakdown bench: no jq"; exit 0; }
command -v bpftool >/dev/null || [ -x /usr/sbin/bpftool ] || { echo "SKIP breakdown bench: no bpftool"; exit 0; }
PATH=$PATH:/usr/sbin
T=$(mktemp -d "$PWD/build/bench.why.XXXXXX") || exit 1
stats0=$(sysctl -n kernel.bpf_stats_enabled)
trap 'sysctl -qw kernel.bpf_stats_enabled="$stats0"; rm -rf --one-file-system "$T"' EXIT
mkdir -p "$T/dir"
probe=$(BRISK_DEBUG=session "$BRISK" run "$T/dir" --no-load -a ssh-like -i 1 -q 2>&1 |
        grep -c 'ssh-like sample .* ms:')
[ "$probe" -ge 1 ] || { echo "SKIP breakdown bench: the breakdown is unavailable here"; exit 0; }

# watch PID OUT: until PID ends, keep the last BPF run time of iowhy_*
# programs (ns) and the process's own utime+stime (ticks) in OUT
watch() {
  local pid=$1 out=$2 ns ticks
  while kill -0 "$pid" 2>/dev/null; do
    ns=$(bpftool prog show -j 2>/dev/null |
         jq '[.[] | select(.name // "" | startswith("iowhy_")) | .run_time_ns // 0] | add // 0')
    ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || break
    echo "$ns $ticks" >"$out.tmp" && mv "$out.tmp" "$out"
    sleep 0.5
  done
}

# run NAME WHY ARGS...: one brisk run; WHY is "" or --no-breakdown
run() {
  local name=$1 why=$2; shift 2
  "$BRISK" run "$T/dir" $why -q --json "$T/$name.json" "$@" >/dev/null 2>&1 &
  local pid=$!
  watch "$pid" "$T/$name.watch" &
  local w=$!
  wait "$pid"; wait "$w"
}
idle_median() { jq '[.samples[] | select(.phase == "idle" and .action == "ssh-like" and .error == 0) | .ms] | sort | .[(length - 1) / 2 | floor]' "$1"; }
load_mibps() { jq '[.loads[].mib_s] | add // empty' "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.3f", v[int((NR + 1) / 2)] }'; }
# the geometric mean of the pair ratios and its 95 % interval (t on the logs)
gmean_ci() {
  awk '$1 > 0 { l = log($1); s += l; q += l * l; n++ }
    END { if (n < 2) exit; m = s / n; sd = sqrt((q - n * m * m) / (n - 1))
      t = n >= 30 ? 2.04 : n >= 12 ? 2.2 : n >= 6 ? 2.57 : 4.3
      printf "geometric mean %.3f [%.3f, %.3f]", exp(m), exp(m - t * sd / sqrt(n)), exp(m + t * sd / sqrt(n)) }'
}

sysctl -qw kernel.bpf_stats_enabled=1
hz=$(getconf CLK_TCK)
: >"$T/idle" ; : >"$T/load" ; : >"$T/bpf" ; : >"$T/cpu_on" ; : >"$T/cpu_off"
for i in $(seq 1 "$pairs"); do
  if [ $((i % 2)) = 1 ]; then order="on off"; else order="off on"; fi
  for m in $order; do
    why=; [ "$m" = off ] || [ -n "${AA:-}" ] && why=--no-breakdown
    run "idle-$m-$i" "$why" --no-load -a ssh-like -i "$samples" --interval 30ms --idle-max 0
    run "load-$m-$i" "$why" -a ssh-like -i 1 -n 15 --interval 200ms -d 8s --warmup 2s
  done
  a=$(idle_median "$T/idle-on-$i.json") b=$(idle_median "$T/idle-off-$i.json")
  la=$(load_mibps "$T/load-on-$i.json") lb=$(load_mibps "$T/load-off-$i.json")
  echo "$a $b" | awk '{ if ($2 > 0) printf "%.4f\n", $1 / $2 }' >>"$T/idle"
  echo "$la $lb" | awk '{ if ($2 > 0) printf "%.4f\n", $1 / $2 }' >>"$T/load"
  dur=$(jq '.duration_s' "$T/load-on-$i.json")
  read -r ns ticks_on <"$T/load-on-$i.watch"
  read -r _ ticks_off <"$T/load-off-$i.watch"
  durb=$(jq '.duration_s' "$T/load-off-$i.json")
  echo "$ns $dur" | awk '{ printf "%.5f\n", $1 / 1e9 / $2 * 100 }' >>"$T/bpf"
  echo "$ticks_on $hz $dur" | awk '{ printf "%.1f\n", $1 / $2 / $3 * 1000 }' >>"$T/cpu_on"
  echo "$ticks_off $hz $durb" | awk '{ printf "%.1f\n", $1 / $2 / $3 * 1000 }' >>"$T/cpu_off"
  printf 'pair %2d: ssh-like idle p50 %s / %s ms; writer %s / %s MiB/s\n' "$i" "$a" "$b" "$la" "$lb"
done
[ -n "${AA:-}" ] && echo "A/A: both runs of each pair without the breakdown"
echo "ssh-like idle p50 ratio (breakdown / none), median of $pairs pairs: $(median <"$T/idle") (range $(sort -g "$T/idle" | head -1)-$(sort -g "$T/idle" | tail -1)); $(gmean_ci <"$T/idle")"
echo "writer throughput ratio (breakdown / none), median of $pairs pairs: $(median <"$T/load") (range $(sort -g "$T/load" | head -1)-$(sort -g "$T/load" | tail -1)); $(gmean_ci <"$T/load")"
echo "BPF programs' run time, % of one CPU over the loaded run: $(median <"$T/bpf")"
echo "brisk's own CPU, ms per second of a loaded run: $(median <"$T/cpu_on") with, $(median <"$T/cpu_off") without"
