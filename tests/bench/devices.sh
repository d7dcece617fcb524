#!/bin/bash
# Benchmark: "brisk devices --all --json" over umockdev testbeds of 10, 100
# and 1,000 SATA disks (tests/helpers/gen-testbed.sh).  Target: at 1,000
# devices brisk is faster than "lsblk -J -O" on the same testbed in the same
# run (ratio below RATIO_MAX, see the verdict), time and memory growing
# linearly with the device count.  The absolute times are printed but not
# judged: they move with the machine and with whatever else it is running.
#
# The timing runs inside umockdev-run, so the figures are brisk's own process
# (bench_timeit fork/execs it and reads wait4()'s rusage), including the cost
# of umockdev's LD_PRELOAD path redirection on every sysfs access: the real
# machine is faster, not slower.  Loading the 1,000-disk testbed into
# umockdev takes about 20 s of its own; that is not measured.
#
#   make bench BENCH=devices            (or: bash tests/bench/devices.sh)
#   BENCH_SIZES="10 100" BENCH_RUNS=9 bash tests/bench/devices.sh
# lsblk_ms is "lsblk -J -O" (util-linux) on the same testbed in the same
# session, and ratio is brisk's median over lsblk's: below 1, brisk is faster.
# Prints one row per size and a verdict; exits 1 when a run fails or its
# output is wrong, 0 otherwise (missing tools: a SKIP line, exit 0).
cd "$(dirname "$0")/../.." || exit 1
BRISK=${BRISK:-./brisk}
TIMEIT=build/tests/helpers/bench_timeit
SIZES=${BENCH_SIZES:-10 100 1000}
RUNS=${BENCH_RUNS:-5}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

for tool in umockdev-run jq; do
	command -v $tool >/dev/null 2>&1 || { echo "SKIP devices bench: $tool is not installed"; exit 0; }
done
[ -x "$BRISK" ] || { echo "devices bench: $BRISK is not built (run make)"; exit 1; }
[ -x "$TIMEIT" ] || { echo "devices bench: $TIMEIT is not built (run make tests)"; exit 1; }

rc=0
declare -A MS CPU RSS LSBLK
printf '%-8s %10s %10s %10s %10s %12s %12s %10s %8s\n' devices median_ms min_ms max_ms cpu_ms maxrss_kib us_per_dev lsblk_ms ratio
for n in $SIZES; do
	dir=build/bench/testbed-$n
	tests/helpers/gen-testbed.sh "$n" "$dir" || { rc=1; continue; }
	args=()
	for f in "$dir"/*.umockdev; do args+=(-d "$f"); done
	out=build/bench/devices-$n.json
	# brisk, then lsblk -J -O (util-linux, libudev per device) on the same
	# testbed in the same session, for a ratio that machine noise cancels.
	lines=$(umockdev-run "${args[@]}" -- bash -c '
		"$1" -r "$2" -o "$3" -- "$4" devices --all --json || exit 1
		if command -v lsblk >/dev/null; then "$1" -r "$2" -- lsblk -J -O; fi' \
		sh "$TIMEIT" "$RUNS" "$out" "$BRISK") || {
		echo "devices bench: $n devices: brisk failed (see above)"; rc=1; continue; }
	line=$(sed -n 1p <<<"$lines")
	LSBLK[$n]=$(sed -n 's/.*wall_ms_median=\([0-9.]*\).*/\1/p' <<<"$(sed -n 2p <<<"$lines")")
	# The output must describe every disk, and every tenth disk is an
	# ST31000340AS with firmware SD15, which has a firmware advisory.
	got=$(jq '[.devices | length, ([.[] | select(.advisory != null)] | length)] | map(tostring) | join(" ")' -r "$out" 2>&1)
	want="$n $(( (n + 9) / 10 ))"
	if [ "$got" != "$want" ]; then
		echo "devices bench: $n devices: output has '$got' devices/advisories, want '$want' ($out)"
		rc=1; continue
	fi
	med=$(sed -n 's/.*wall_ms_median=\([0-9.]*\).*/\1/p' <<<"$line")
	min=$(sed -n 's/.*wall_ms_min=\([0-9.]*\).*/\1/p' <<<"$line")
	max=$(sed -n 's/.*wall_ms_max=\([0-9.]*\).*/\1/p' <<<"$line")
	cpu=$(sed -n 's/.*cpu_ms_median=\([0-9.]*\).*/\1/p' <<<"$line")
	rss=$(sed -n 's/.*maxrss_kib=\([0-9]*\).*/\1/p' <<<"$line")
	MS[$n]=$med; CPU[$n]=$cpu; RSS[$n]=$rss
	ls=${LSBLK[$n]:-}
	printf '%-8s %10s %10s %10s %10s %12s %12.0f %10s %8s\n' "$n" "$med" "$min" "$max" "$cpu" "$rss" \
		"$(awk -v m="$med" -v n="$n" 'BEGIN { print m * 1000 / n }')" "${ls:--}" \
		"$([ -n "$ls" ] && awk -v a="$med" -v b="$ls" 'BEGIN { printf "%.2f", a / b }' || echo -)"
done

# The verdict is on the ratio of brisk's median wall time to lsblk's at
# 1,000 devices, the two measured side by side in one umockdev session, so
# the machine's speed and load (and umockdev's redirection cost) weigh on
# both.  lsblk -J -O reads sysfs and the udev properties of every disk
# (libudev per device); brisk reads the udev database itself and adds
# advisories and controller names.  Below 1, brisk lists the disks faster
# than the system's own lister; at 1 or above it spends more per disk than
# it should.
RATIO_MAX=1.0
if [ -n "${MS[1000]:-}" ]; then
	ls=${LSBLK[1000]:+${LSBLK[1000]} ms}
	echo "1000 devices: brisk ${MS[1000]} ms, lsblk ${ls:-not run} (this machine, this run; not judged)"
	if [ -z "${LSBLK[1000]:-}" ]; then
		echo "target: brisk/lsblk at 1000 devices < $RATIO_MAX: not judged (lsblk is not installed)"
	else
		r=$(awk -v a="${MS[1000]}" -v b="${LSBLK[1000]}" 'BEGIN { if (b > 0) printf "%.2f", a / b }')
		if [ -n "$r" ] && awk -v r="$r" -v max="$RATIO_MAX" 'BEGIN { exit !(r < max) }'; then
			echo "target: brisk/lsblk at 1000 devices $r (< $RATIO_MAX): met"
		else
			echo "target: brisk/lsblk at 1000 devices ${r:--} (< $RATIO_MAX): NOT met"
		fi
	fi
fi
if [ -n "${MS[10]:-}" ] && [ -n "${MS[100]:-}" ] && [ -n "${MS[1000]:-}" ]; then
	# Linear growth: the cost per extra device from 100 to 1,000 is about
	# the cost per extra device from 10 to 100 (ratio near 1; superlinear >> 1).
	# Judged on CPU time, which other load on the machine disturbs less.
	awk -v a="${CPU[10]}" -v b="${CPU[100]}" -v c="${CPU[1000]}" \
	    -v ra="${RSS[10]}" -v rb="${RSS[100]}" -v rc="${RSS[1000]}" 'BEGIN {
		t1 = (b - a) / 90; t2 = (c - b) / 900; m1 = (rb - ra) / 90; m2 = (rc - rb) / 900
		printf "growth: cpu time %.1f us/device (10->100) vs %.1f us/device (100->1000), ratio %.2f\n",
		       t1 * 1000, t2 * 1000, (t1 > 0 ? t2 / t1 : 0)
		printf "growth: memory %.1f KiB/device (10->100) vs %.1f KiB/device (100->1000), ratio %.2f\n",
		       m1, m2, (m1 > 0 ? m2 / m1 : 0)
	}'
fi
exit $rc
