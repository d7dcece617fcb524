#!/bin/bash
# The breakdown cross-checked against the emulated disk's own knowledge
# (root, /dev/fuse, BPF): on an idle hdd-7200 lab disk with scheduler none,
# the lab server's counters (DIR/NAME/fuse/stats: requests answered, the
# model's service time applied to them, their time resident in the server)
# against the collector's "on the disk" part of samples of 4 KiB random
# reads, (1) exactly, with the collector driven directly around one sample
# (tests/helpers/iowhy_probe running tests/helpers/why_reads) and (2) as
# `brisk run` reports it (BRISK_DEBUG=session trace lines).  Also: the
# stats file is read-only and root's, `lab status` prints the counters.
#
# Like with like: the breakdown's device part is the time from the loop
# device's issue of a request to its completion; the server's service time
# is the model's delay, counted from the request's arrival at the server
# (or the end of the previous service) to the reply it was due.  In
# between sit the loop device's worker, the FUSE round trip and the
# server's own wake-up (ppoll's timer slack): what separates the two, a
# fixed amount per request.  Measured here (Debian 12 VM, 6.18 kernel):
# device - service = 0.14-0.23 ms per 4 KiB read (+1.5 to +3.4 % of the
# 7-9 ms the model gives these random reads on hdd-7200), and device
# within 1 % of the time the server held the requests (arrival to reply).
# The test asks 10 % of the service time; the figures are printed.
source tests/lib.sh
source tests/cli/lab_common.bash
P=build/tests/helpers/iowhy_probe
R=build/tests/helpers/why_reads
why=$(lab_requirements)
if [ -z "$why" ] && { [ ! -x "$P" ] || [ ! -x "$R" ]; }; then why="no $P or $R (make tests)"; fi
if [ -z "$why" ]; then
  out=$("$P" true)
  case $out in unavailable:*) why="breakdown ${out#unavailable: }";; esac
fi
if [ -n "$why" ]; then t_skip "lab breakdown" "$why"; exit 0; fi
lab_setup

if ! lab_up --model hdd-7200 --size 128M; then
  t_fail "lab up" "$LAB_OUT"; exit 0
fi
t_pass "lab up"
dev=${LAB_LOOP#/dev/}
# scheduler none: nothing holds a request between insert and issue, so the
# queued part must be near zero ('lab down' puts the original back).
echo none >"/sys/block/$dev/queue/scheduler"
t_match "scheduler none on the lab disk" "$(cat "/sys/block/$dev/queue/scheduler")" '\[none\]'
STATS=$LAB_T/$LAB_NAME/fuse/stats

# ---- the stats file
t_match "the stats file names the model" "$(cat "$STATS")" '^model hdd-7200$'
t_check "the stats file refuses writes" bash -c "! echo 1 >'$STATS'"
t_check "the stats file cannot be removed" bash -c "! rm -f '$STATS'"
if command -v setpriv >/dev/null && NOBODY=$(id -u nobody 2>/dev/null); then
  t_check "the stats file is root's (FUSE mount without allow_other)" \
    bash -c "! setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups cat '$STATS'"
fi
t_match "lab status prints the counters" "$("$BRISK" lab status)" \
  "  $LAB_NAME served: [0-9]+ reads \([0-9.]+ MiB\) in [0-9.]+ s of service, [0-9.]+ s resident; "

# sv FILE KEY: one counter of a copy of the stats file
sv() { sed -n "s/^$2 //p" "$1"; }
# delta KEY: after - before
delta() { echo $(( $(sv "$LAB_W/after" "$1") - $(sv "$LAB_W/before" "$1") )); }
val() { sed -n "s/^$1=//p" <<<"$2"; }
# within A B PCT: |A - B| <= PCT % of B
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { x = b > 0 ? 100 * (a - b) / b : 0; printf "%+.1f", x }'; }

# A 32 MiB file on the lab disk; its layout is on the disk before any count.
dd if=/dev/urandom of="$LAB_MNT/f" bs=1M count=32 status=none && sync

# ---- (1) the collector around single samples: 3 x 100 O_DIRECT reads; the
# server's counters read just before and after each, so both sides count
# the same requests (nothing else reads the idle lab disk meanwhile).  The
# collector counts the sample's reads on every disk: a cold why_reads or
# libc read from the host's disk adds one or two (each well under a
# millisecond there); a first run warms them.
"$R" "$LAB_MNT/f" 1 >/dev/null
dev_ns=0 q_ns=0 wall_ns=0 rq=0 s_n=0 s_svc=0 s_res=0
for seed in 11 12 13; do
  cp "$STATS" "$LAB_W/before"
  out=$("$P" "$R" "$LAB_MNT/f" 100 "$seed")
  cp "$STATS" "$LAB_W/after"
  [ "$(val status "$out")" = 0 ] || { t_fail "probe sample $seed" "$out"; continue; }
  dev_ns=$((dev_ns + $(val device_ns "$out"))) q_ns=$((q_ns + $(val queued_ns "$out")))
  wall_ns=$((wall_ns + $(val wall_ns "$out"))) rq=$((rq + $(val reads "$out")))
  s_n=$((s_n + $(delta reads))) s_svc=$((s_svc + $(delta read_service_ns)))
  s_res=$((s_res + $(delta read_resident_ns)))
done
echo "# probe: 300 O_DIRECT 4 KiB reads: device $((dev_ns / 1000)) us, queued $((q_ns / 1000)) us of" \
  "$((wall_ns / 1000)) us wall; server: $s_n reads, service $((s_svc / 1000)) us" \
  "(device $(pct "$dev_ns" "$s_svc") %), resident $((s_res / 1000)) us" \
  "(device $(pct "$dev_ns" "$s_res") %); device - service per read:" \
  "$(( (dev_ns - s_svc) / (s_n > 0 ? s_n : 1) / 1000 )) us"
if [ "$rq" -ge 300 ] && [ "$rq" -le 303 ]; then t_pass "probe: the collector counted the 300 reads"
else t_fail "probe: the collector counted the 300 reads" "got $rq (300 on the lab disk + at most 3 elsewhere)"; fi
t_eq "probe: the server answered the same 300 reads" "$s_n" 300
if within "$dev_ns" "$s_svc" 10; then t_pass "probe: device time within 10 % of the server's service time"
else t_fail "probe: device time within 10 % of the server's service time" "device $dev_ns ns, service $s_svc ns"; fi
if [ "$wall_ns" -gt 0 ] && [ $((q_ns * 50)) -lt "$wall_ns" ]; then t_pass "probe: queued under 2 % with none"
else t_fail "probe: queued under 2 % with none" "queued $q_ns ns of $wall_ns ns"; fi

# ---- (2) brisk run's own samples: an ssh-like action of 100 random 4 KiB
# reads (region 400 KiB of a 30 MiB file: buffered, with FADV_RANDOM, cold
# by fadvise, so each read is one 4 KiB request), idle, no load.  The run's
# preparation writes its files and reads next to nothing (seen: 0 or 1
# metadata read), so the server's reads over the whole run are the
# samples' reads: checked, 100 per sample, at most 3 more.  The
# trace gives each sample's wall time and its parts as whole per cents
# ("ssh-like sample 731.552 ms: 99 % on the disk"; parts under 10 % are not
# named): device ms = wall x per cent, +-0.5 % of the wall.
cat >"$LAB_W/reads.profile" <<'EOF'
[profile]
name = lab-breakdown
description = 100 random 4 KiB reads per sample
[action reads]
type = ssh-like
bs = 4k
size = 400k
filesize = 30m
EOF
cp "$STATS" "$LAB_W/before"
BRISK_DEBUG=session "$BRISK" run "$LAB_MNT" --profile "$LAB_W/reads.profile" -a ssh-like \
  --no-load -i 5 -q >"$LAB_W/run.out" 2>"$LAB_W/run.err"
rc=$?
cp "$STATS" "$LAB_W/after"
t_eq "brisk run exits 0" "$rc" 0
lines=$(grep -E 'session: ssh-like sample [0-9.]+ ms: ' "$LAB_W/run.err")
n=$(grep -c . <<<"$lines")
dev_ms=$(awk '{ ms = $5; d = 0
  if (match($0, /[0-9]+ % on the disk/)) d = substr($0, RSTART, RLENGTH) + 0
  s += ms * d / 100 } END { printf "%.3f", s }' <<<"$lines")
queued=$(grep -c 'queued in the I/O scheduler' <<<"$lines")
s_n=$(delta reads) s_svc=$(delta read_service_ns) s_res=$(delta read_resident_ns)
svc_ms=$(awk -v x="$s_svc" 'BEGIN { printf "%.3f", x / 1e6 }')
res_ms=$(awk -v x="$s_res" 'BEGIN { printf "%.3f", x / 1e6 }')
echo "# brisk run: $n ssh-like samples, device $dev_ms ms (from the trace); server: $s_n reads," \
  "service $svc_ms ms (device $(pct "$dev_ms" "$svc_ms") %), resident $res_ms ms" \
  "(device $(pct "$dev_ms" "$res_ms") %)"
t_check "brisk run: 5 traced samples" test "$n" -eq 5
if [ "$n" -gt 0 ] && [ "$s_n" -ge $((n * 100)) ] && [ "$s_n" -le $((n * 100 + 3)) ]; then
  t_pass "brisk run: the server answered 100 reads per sample"
else t_fail "brisk run: the server answered 100 reads per sample" "$s_n reads for $n samples"; fi
if within "$dev_ms" "$svc_ms" 10; then t_pass "brisk run: device time within 10 % of the server's service time"
else t_fail "brisk run: device time within 10 % of the server's service time" "device $dev_ms ms, service $svc_ms ms"; fi
t_eq "brisk run: no sample names a queued part (>= 10 %) with none" "$queued" 0

"$BRISK" lab down "$LAB_NAME" >/dev/null 2>&1
check_gone "down"
