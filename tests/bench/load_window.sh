#!/bin/bash
# Benchmark of brisk compare's load figures (issue 26; root, /dev/fuse):
# on brisk's lab hdd-7200 and on a model of this bench's own that the lab
# does not ship (hdd-nas-5900 below; made with --dirty-limit 0, the
# kernel's global dirty limits, as a FUSE disk without the lab's strict
# per-disk limit has them), `brisk compare DIR --schedulers -a
# ssh-like --budget BUDGET` with a buffered writer over a 1 GiB region,
# while the bench reads the lab disk's own write counter every 100 ms.
# Side by side, per arm: what brisk says reached the disk, the loads'
# write() rate in the same window, the device's own median loaded second
# and the model's media rate; how long the arm-runs lasted; and the spread
# of the arm-runs (sd of the log of each arm-run's geometric mean of its
# ssh-like samples).  With BRISK_OLD=PATH (a brisk built before the load
# window) the same comparison runs with it too, for the figures before.
#   make bench BENCH=load_window        BUDGET=10m (default 5m)
#   MODELS="hdd-7200 hdd-nas-5900:0" (the default: MODEL[:DIRTY-LIMIT])
#   LOAD=seq-write SIZE=16G: the issue's growing writer (default
#   seq-write:size=1g on a 4G disk: a region it rewrites)
# About 2 x BUDGET per model (4 x with BRISK_OLD); leaves nothing behind.
cd "$(dirname "$0")/../.." || exit 1
BRISK=${BRISK:-./brisk}
budget=${BUDGET:-5m}
models=${MODELS:-hdd-7200 hdd-nas-5900:0}
load=${LOAD:-seq-write:size=1g} size=${SIZE:-4G}
[ "$(id -u)" = 0 ] || { echo "SKIP load_window bench: needs root"; exit 0; }
[ -c /dev/fuse ] || { echo "SKIP load_window bench: no /dev/fuse"; exit 0; }
command -v jq >/dev/null || { echo "SKIP load_window bench: no jq"; exit 0; }
T=$(mktemp -d "$PWD/build/bench.window.XXXXXX") || exit 1
export BRISK_RUNTIME_DIR=$T/run
trap '"$BRISK" lab down --all >/dev/null 2>&1; rm -rf --one-file-system "$T"' EXIT

# the lab's models and one of our own: a 3.5" 5900 rpm NAS disk, slower
# media, longer seeks and command overhead than hdd-7200
cp profiles/lab-models.ini "$T/models.ini"
cat >>"$T/models.ini" <<'EOF'

[hdd-nas-5900]
description = 3.5" 5900 rpm NAS disk (this bench's own model)
rotational = 1
class = rotational
rpm = 5900
seek_track_ms = 1.5
seek_avg_ms = 10.5
read_mb_s = 95
write_mb_s = 90
overhead_ms = 0.5
random_write_ms = 0
ssh_like_s = 0.6-0.9
scheduler = mq-deadline
queue_depth = 31
queue_age_ms = 500
EOF
export BRISK_LAB_MODELS=$T/models.ini

source tests/helpers/devstat.bash
median_rate() { # FILE: the median MiB/s of the seconds with writes (> 4 MiB/s)
  devstat_rates "$1" | awk '$1 > 4' | sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", v[int((NR + 1) / 2)] }'
}
# table JSON: per arm, its load figures, arm-run lengths and spread
table() {
  jq -r '
    def sd: if length < 2 then null else (add / length) as $m | (map((. - $m) * (. - $m)) | add / (length - 1) | sqrt) end;
    def f(x): if x == null then "-" else (x * 10 | round / 10 | tostring) end;
    . as $r
    | ([.samples[] | select(.action == "ssh-like" and .ms != null and .ms > 0)]
       | group_by(.run) | map({ run: .[0].run, gm: (map(.ms | log) | add / length) })) as $g
    | .arms[] | .index as $a
    | [$r.runs | to_entries[] | select(.value.arm == $a)] as $runs
    | [$g[] | select(.run as $x | $runs | map(.key) | index($x))] as $gm
    | [ .label, (.runs | tostring),
        (if .disk_mibps then f(.disk_mibps.est) else "-" end),
        f(.load_mibps.est),
        ([$runs[].value.dur_s] | "\(min | floor)-\(max | ceil)"),
        f([$gm[].gm] | sd),
        (if .load_ok then "" else "starves the load" end) ]
    | @tsv' "$1" | awk -F'\t' '{ printf "    %-12s %4s %10s %10s %9s %8s  %s\n", $1, $2, $3, $4, $5, $6, $7 }'
}

for spec in $models; do
  model=${spec%%:*} dl=()
  [ "$spec" != "$model" ] && dl=(--dirty-limit "${spec#*:}")
  out=$("$BRISK" lab up --dir "$T" --model "$model" --size "$size" "${dl[@]}" -q 2>&1) || { echo "$out"; exit 1; }
  mnt=$(printf '%s\n' "$out" | sed -n 's/^mounted at //p')
  dev=$(printf '%s\n' "$out" | sed -n 's|.*, /dev/\(loop[0-9]*\),.*|\1|p')
  media=$(sed -n "/^\[$model\]/,/^\[/s/^write_mb_s *= *//p" "$T/models.ini")
  echo "== $model: media rate $media MB/s ($(awk -v m="$media" 'BEGIN { printf "%.1f", m * 1e6 / 1048576 }') MiB/s), budget $budget, load $load, $size;" \
    "$(printf '%s\n' "$out" | grep '^dirty limit')"
  for which in new old; do
    b=$BRISK
    if [ "$which" = old ]; then
      [ -n "${BRISK_OLD:-}" ] || continue
      b=$BRISK_OLD
    fi
    devstat_poll "$dev" "$T/poll" "$T/stop" & pp=$!
    "$b" compare "$mnt" --schedulers -a ssh-like --budget "$budget" -l "$load" \
      --floor 256m --seed 26 -q --json "$T/$which.json" >"$T/$which.txt" 2>&1
    rc=$?
    touch "$T/stop"; wait "$pp"
    echo "  $which brisk ($b), exit $rc; the device's median loaded second: $(median_rate "$T/poll") MiB/s"
    printf '    %-12s %4s %10s %10s %9s %8s\n' arm runs "disk MiB/s" "load MiB/s" "run-s" "run-sd"
    table "$T/$which.json"
    grep -E '^recommendation:' "$T/$which.txt" | sed 's/^/    /'
  done
  "$BRISK" lab down --all >/dev/null 2>&1
done
echo "(disk = what brisk says reached the disk in each arm-run's load window; load = the"
echo " loads' own write() rate (before: over the load's whole life); run-s = arm-run lengths;"
echo " run-sd = sd of the log of the arm-runs' geometric means of ssh-like, per arm)"
