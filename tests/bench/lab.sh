#!/bin/bash
# Benchmark of the lab disk (root, /dev/fuse, fio): for hdd-7200, the
# model's targets beside what is measured on a freshly made lab disk:
# idle random 4 KiB read latency and sequential throughput (lab up
# --calibrate), and the cold ssh-like read (fio, best and median of 5).
# Takes about 15 s; leaves nothing behind.
cd "$(dirname "$0")/../.." || exit 1
BRISK=${BRISK:-./brisk}
model=${1:-hdd-7200}
[ "$(id -u)" = 0 ] || { echo "SKIP lab bench: needs root"; exit 0; }
[ -c /dev/fuse ] || { echo "SKIP lab bench: no /dev/fuse"; exit 0; }
command -v fio >/dev/null || { echo "SKIP lab bench: no fio"; exit 0; }
T=$(mktemp -d "$PWD/build/bench.lab.XXXXXX") || exit 1
export BRISK_RUNTIME_DIR=$T/run
trap '"$BRISK" lab down --all >/dev/null 2>&1; rm -rf "$T"' EXIT

out=$("$BRISK" lab up --dir "$T" --model "$model" --calibrate 2>&1) || { echo "$out"; exit 1; }
mnt=$(printf '%s\n' "$out" | sed -n 's/^mounted at //p')
echo "== brisk lab: $model"
printf '%s\n' "$out" | grep -v '^mounted at\|^dirty limit\|ssh-like'
runs=()
for i in 0 1 2 3 4 5; do
  s=$(fio --clocksource=clock_gettime --name=ssh --rw=randread --size=2m --filesize=30m --bsrange=4k-44k \
          --invalidate=1 --direct=0 --filename="$mnt/sshfile" \
          --output-format=terse --terse-version=3 2>/dev/null | awk -F';' '{ printf "%.3f", $9 / 1000 }')
  [ "$i" -gt 0 ] && runs+=("$s")   # run 0 lays the file out
done
band=$(sed -n "/^\[$model\]/,/^\[/s/^ssh_like_s *= *//p" profiles/lab-models.ini)
sorted=$(printf '%s\n' "${runs[@]}" | sort -n)
printf '  %-26s %10s   best %s s, median %s s (runs: %s)\n' "ssh-like 2 MiB, idle" "${band} s" \
  "$(echo "$sorted" | head -1)" "$(echo "$sorted" | sed -n 3p)" "${runs[*]}"

# The same read under a buffered writer (dd rewriting a 400 MiB file with
# 1 MiB writes at memory speed, throttled by the lab disk's dirty limit),
# per scheduler, with what reached the disk meanwhile.  ~10 s each.
dev=$(sed -n 's/^loop=\/dev\///p' "$T/run/lab/"*.state)
echo "  ssh-like under a buffered writer (2 runs after 3 s of writing):"
for sch in $(sed 's/[][]//g' "/sys/block/$dev/queue/scheduler"); do
  echo "$sch" >"/sys/block/$dev/queue/scheduler" || continue
  setsid bash -c 'while :; do dd if=/dev/zero of="$1/big" bs=1M count=400 conv=notrunc status=none; done' \
    _ "$mnt" &
  w=$!
  sleep 3
  w0=$(awk '{ print $7 }' "/sys/block/$dev/stat"); t0=$(date +%s%N)
  l=()
  for i in 1 2; do
    l+=("$(fio --clocksource=clock_gettime --name=ssh --rw=randread --size=2m --filesize=30m --bsrange=4k-44k \
          --invalidate=1 --direct=0 --filename="$mnt/sshfile" \
          --output-format=terse --terse-version=3 2>/dev/null | awk -F';' '{ printf "%.3f", $9 / 1000 }')")
  done
  w1=$(awk '{ print $7 }' "/sys/block/$dev/stat"); t1=$(date +%s%N)
  kill -TERM -- -"$w" 2>/dev/null; wait "$w" 2>/dev/null
  rm -f "$mnt/big"; sync -f "$mnt"
  printf '    %-12s %s s  (x%s of idle best)  written back meanwhile: %s MB/s\n' "$sch" "${l[*]}" \
    "$(awk -v a="${l[0]}" -v b="${l[1]}" -v c="$(echo "$sorted" | head -1)" 'BEGIN { printf "%.1f", (a + b) / 2 / c }')" \
    "$(awk -v s=$((w1 - w0)) -v ns=$((t1 - t0)) 'BEGIN { printf "%.0f", s * 512 / 1e6 / (ns / 1e9) }')"
done
