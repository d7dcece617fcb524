#!/bin/bash
# brisk lab with the sd-card model: fast random reads, crawling small random
# writes, and a 'lab down' that does not take the modelled hours to flush.
source tests/lib.sh
source tests/cli/lab_common.bash
why=$(lab_requirements)
[ -z "$why" ] && ! command -v fio >/dev/null && why="no fio"
if [ -n "$why" ]; then t_skip "lab sd-card" "$why"; exit 0; fi
lab_setup

if ! lab_up --model sd-card --size 256M; then t_fail "lab up sd-card" "$LAB_OUT"; exit 0; fi
t_pass "lab up sd-card"
dev=${LAB_LOOP#/dev/}
t_eq "sd-card is not rotational" "$(cat /sys/block/$dev/queue/rotational)" 0

# fio --output-format=terse v3: field 7 read bandwidth KiB/s, 48 write KiB/s.
fio --clocksource=clock_gettime --name=prep --rw=write --bs=1M --size=16m --end_fsync=1 --filename="$LAB_MNT/r" >/dev/null 2>&1
rd=$(fio --clocksource=clock_gettime --name=rr --rw=randread --bs=4k --size=16m --runtime=2 --time_based \
        --direct=1 --filename="$LAB_MNT/r" --output-format=terse --terse-version=3 \
        2>/dev/null | awk -F';' '{ print $7 }')
echo "# sd-card random 4 KiB reads: ${rd} KiB/s"
if [ -n "$rd" ] && [ "$rd" -gt 1000 ]; then t_pass "random reads > 1 MB/s"
else t_fail "random reads > 1 MB/s" "${rd} KiB/s"; fi
wr=$(fio --clocksource=clock_gettime --name=rw --rw=randwrite --bs=4k --size=16m --runtime=3 --time_based \
        --direct=1 --filename="$LAB_MNT/r" --output-format=terse --terse-version=3 \
        2>/dev/null | awk -F';' '{ print $48 }')
echo "# sd-card random 4 KiB writes: ${wr} KiB/s (model: ~12 KiB/s)"
if [ -n "$wr" ] && [ "$wr" -gt 0 ] && [ "$wr" -le 20 ]; then t_pass "small random writes crawl (<= 20 KiB/s)"
else t_fail "small random writes crawl (<= 20 KiB/s)" "${wr} KiB/s"; fi

# 2048 scattered dirty pages: about 11 minutes to flush at the model's pace.
fio --clocksource=clock_gettime --name=dirty --rw=randwrite --bs=4k --size=8m --filesize=128m --end_fsync=0 \
    --filename="$LAB_MNT/d" >/dev/null 2>&1
t0=$(date +%s)
out=$("$BRISK" lab down "$LAB_NAME" 2>&1); rc=$?
took=$(( $(date +%s) - t0 ))
echo "# lab down with 8 MiB of scattered dirty pages took ${took} s"
t_eq "down with dirty pages exits 0" "$rc" 0
if [ "$took" -le 30 ]; then t_pass "down flushes at the host's speed"
else t_fail "down flushes at the host's speed" "took ${took} s"; fi
check_gone "sd-card down"
