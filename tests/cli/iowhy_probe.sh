#!/bin/bash
# The breakdown's collector driven directly (tests/helpers/iowhy_probe, as
# root, on an ext4 file system on a loop device): a sample's parts add up to
# its window; its own reads are counted exactly, also those of the
# processes it forks; on-CPU agrees with the sample's own utime + stime; a
# map that fills marks the sample incomplete and counts what it dropped;
# as nobody it is unavailable, and says why.
source tests/lib.sh
source tests/cli/loop_common.bash
P=build/tests/helpers/iowhy_probe
[ -x "$P" ] || { t_skip iowhy_probe "no $P (make tests)"; exit 0; }
if is_root; then
  out=$("$P" true)
  case $out in unavailable:*) t_skip iowhy_probe "${out#unavailable: }"; exit 0;; esac
fi
# as nobody first: no root, no BPF, one plain sentence
if is_root && t_nobody; then
  d0=$(t_tmpdir); cp "$P" "$d0/p"; chmod 755 "$d0" "$d0/p"
  out=$(as_nobody "$d0/p" true); rc=$?
  t_eq nobody-exit-2 "$rc" 2
  t_match nobody-says-why "$out" '^unavailable: it needs root \(BPF\)$'
fi
is_root || { t_skip iowhy_probe "needs root (BPF)"; exit 0; }
loop_mount iowhy_probe 200M
dd if=/dev/urandom of="$mnt/f" bs=1M count=40 status=none && sync

val() { sed -n "s/^$1=//p" <<<"$2"; }
# pct A B: A as a per cent of B (integer)
pct() { echo $(( $1 * 100 / ($2 > 0 ? $2 : 1) )); }

# within N..N+8: the sample's own reads, plus any of dd and its libraries
# that another test's drop_caches left to be read again (their pages)
near() { [ "$1" -ge "$2" ] && [ "$1" -le $(($2 + 8)) ]; }
# 300 direct 4 KiB reads, in the sample's own grandchild
dd if="$mnt/f" of=/dev/null bs=4k count=1 iflag=direct status=none   # dd cached
out=$("$P" dd if="$mnt/f" of=/dev/null bs=4k count=300 iflag=direct status=none)
t_check "reads-counted ($(val reads "$out") of 300)" near "$(val reads "$out")" 300
t_check read-bytes test "$(val read_bytes "$out")" -ge $((300 * 4096))
t_eq parts-add-up "$(val sum_ns "$out")" "$(val wall_ns "$out")"
t_check device-time test "$(val device_ns "$out")" -gt 0
t_eq complete "$(val incomplete "$out")" 0

# forks: three readers at once, each 100 reads of its own region
out=$("$P" sh -c "for k in 0 1 2; do dd if='$mnt/f' of=/dev/null bs=4k count=100 skip=\$((k * 1000)) iflag=direct status=none & done; wait")
t_check "forks-reads-counted ($(val reads "$out") of 300)" near "$(val reads "$out")" 300
t_eq forks-parts-add-up "$(val sum_ns "$out")" "$(val wall_ns "$out")"

# CPU-bound: on CPU vs utime + stime of the sample and what it waited for
# (the same processes; the probe's child adds a fork and a wait)
out=$("$P" sh -c 'i=0; while [ $i -lt 150000 ]; do i=$((i + 1)); done')
cpu=$(val cpu_ns "$out") ru=$(val rusage_ns "$out")
p=$(pct "$cpu" "$ru")
t_check cpu-vs-rusage-within-10pct test "$p" -ge 90 -a "$p" -le 110
echo "  on CPU $((cpu / 1000000)) ms, utime+stime $((ru / 1000000)) ms ($p %)"

# a full task map: tracked tasks dropped, the sample marked incomplete
out=$(BRISK_IOWHY_MAX_TASKS=3 "$P" sh -c 'for i in 1 2 3 4 5 6; do sleep 0.05 & done; wait')
t_eq full-map-incomplete "$(val incomplete "$out")" 1
t_check full-map-dropped test "$(val dropped "$out")" -ge 1
t_eq full-map-still-adds-up "$(val sum_ns "$out")" "$(val wall_ns "$out")"
