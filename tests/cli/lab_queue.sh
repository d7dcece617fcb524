#!/bin/bash
# brisk lab's device queue (root, /dev/fuse): the model's queue depth set as
# the loop device's hardware tag depth at 'lab up' (read from debugfs when
# it is mounted), journaled, put back at 'lab down'; and the server seeing
# several requests at once on hdd-7200 (depth 31), one at a time on
# usb2-stick (depth 1).
source tests/lib.sh
source tests/cli/lab_common.bash
why=$(lab_requirements)
[ -z "$why" ] && ! command -v fio >/dev/null && why="no fio"
if [ -n "$why" ]; then t_skip "lab queue depth" "$why"; exit 0; fi
lab_setup

# tags_depth DEV: the hardware tag depth from debugfs, or nothing.
tags_depth() {
  awk '/^bitmap_tags:/ { b = 1; next } b && /^depth=/ { sub(/depth=/, ""); print; exit }' \
    "/sys/kernel/debug/block/$1/hctx0/tags" 2>/dev/null
}
# debugfs is where the kernel shows the tag depth: mount it for the test
# when it is not (root), and take it away again at the end.  Whether it
# shows it is known once the loop device is there (has_tags).
if [ ! -r /sys/kernel/debug/block ] && mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null; then
  T_CLEANUP_EXTRA="$T_CLEANUP_EXTRA; umount /sys/kernel/debug"
fi
# has_tags DEV: debugfs=1 when it shows DEV's hctx0/tags (a kernel with
# blk-mq debugfs), else debugfs=0 and why says what is missing.
has_tags() {
  debugfs=1 why=""
  if [ ! -r /sys/kernel/debug/block ]; then
    debugfs=0 why="debugfs is not mounted at /sys/kernel/debug"
  elif [ ! -r "/sys/kernel/debug/block/$1/hctx0/tags" ]; then
    debugfs=0 why="debugfs shows no block/$1/hctx0/tags (no blk-mq debugfs in this kernel)"
  fi
}

# windows NAME: how many "last 10 s" lines the server logged so far (one
# every 10 s with traffic).
windows() { grep -c 'last 10 s:' "$LAB_T/run/lab/$1.log" 2>/dev/null; }
# queue_lines NAME N: the lines after the first N, once the window open
# when this is called has been logged (waits up to 15 s).
queue_lines() {
  local have
  have=$(windows "$1")
  for _ in $(seq 30); do
    [ "$(windows "$1")" -gt "$have" ] && break
    sleep 0.5
  done
  grep 'last 10 s:' "$LAB_T/run/lab/$1.log" | tail -n +"$(( $2 + 1 ))"
}
# field LINES WHAT: the largest "max N" of outstanding, or the total
# served out of arrival order, over the lines.
max_outstanding() { sed -n 's/.*outstanding at arrival mean [0-9.]* max \([0-9]*\);.*/\1/p' | sort -n | tail -1; }
out_of_order() { sed -n 's/.* \([0-9]*\) served out of arrival order.*/\1/p' | awk '{ s += $1 } END { print s + 0 }'; }

if ! lab_up --model hdd-7200 --size 512M --name q1; then t_fail "lab up hdd-7200" "$LAB_OUT"; exit 0; fi
dev=${LAB_LOOP#/dev/}
has_tags "$dev"
t_match "up prints the queue depth" "$LAB_OUT" "queue depth 31 \(model 31\): hardware tags"
t_eq "the state records depth 31" "$(lab_state_val q1 queue_depth)" 31
orig=$(lab_state_val q1 orig_tag_depth)
t_match "the state records the depth found" "$orig" '^[0-9]+$'
t_match "the scheduler is the model's" "$(cat /sys/block/$dev/queue/scheduler)" '\[mq-deadline\]'
jn=$(lab_state_val q1 journal)
sched0=$(lab_state_val q1 orig_scheduler)
t_match "nr_requests is journaled (by the switch to none)" "$(cat "$LAB_T/run/$jn" 2>/dev/null)" \
  "orig $dev [0-9-]+ nr_requests - scheduler [0-9]+"
if [ $debugfs = 1 ]; then
  t_eq "hardware tag depth 31 under mq-deadline (debugfs)" "$(tags_depth "$dev")" 31
  t_match "status shows the depth" "$("$BRISK" lab status)" "q1 +hdd-7200 .* mq-deadline +31 +on "
else
  t_skip "hardware tag depth 31 under mq-deadline (debugfs)" "$why"
  t_match "status shows the depth set" "$("$BRISK" lab status)" "q1 +hdd-7200 .* mq-deadline +~31 +on "
fi

# 4 KiB random reads 32 deep: the server holds many at once (at most 31).
fio --name=prep --rw=write --bs=1M --size=64m --direct=1 --filename="$LAB_MNT/f" >/dev/null 2>&1
n0=$(windows q1)
fio --name=qd --rw=randread --bs=4k --size=64m --direct=1 --ioengine=libaio --iodepth=32 \
    --runtime=4 --time_based --filename="$LAB_MNT/f" >/dev/null 2>&1
lines=$(queue_lines q1 "$n0")
echo "$lines" | sed 's/^/# hdd-7200 server: /'
max=$(max_outstanding <<<"$lines")
ooo=$(out_of_order <<<"$lines")
if [ -n "$max" ] && [ "$max" -ge 8 ] && [ "$max" -le 31 ]; then
  t_pass "the server sees several requests at once (max $max, at most 31)"
else
  t_fail "the server sees several requests at once" "max '$max' (want 8..31): $lines"
fi
if [ "$ooo" -gt 0 ]; then t_pass "and serves some out of arrival order ($ooo)"
else t_fail "and serves some out of arrival order" "$lines"; fi

out=$("$BRISK" lab down q1 2>&1)
t_eq "lab down" "$out" "lab q1: taken apart"
t_match "the scheduler is back" "$(cat /sys/block/$dev/queue/scheduler)" "\[$sched0\]"
if [ $debugfs = 1 ]; then
  t_eq "the hardware tag depth is back ($orig)" "$(tags_depth "$dev")" "$orig"
else
  t_skip "the hardware tag depth is back" "$why"
fi
t_check "the journal is gone" test ! -e "$LAB_T/run/$jn"

# usb2-stick: no command queue.  The kernel's least tag depth is 4; FUSE
# keeps one request in flight, so the server never holds more than one.
if ! lab_up --model usb2-stick --size 256M --name q2; then t_fail "lab up usb2-stick" "$LAB_OUT"; exit 0; fi
dev=${LAB_LOOP#/dev/}
has_tags "$dev"
t_eq "usb2-stick: depth 4 set (the kernel's least)" "$(lab_state_val q2 queue_depth)" 4
if [ $debugfs = 1 ]; then t_eq "usb2-stick: hardware tag depth 4" "$(tags_depth "$dev")" 4
else t_skip "usb2-stick: hardware tag depth 4" "$why"; fi
fio --name=qd --rw=randread --bs=4k --size=16m --direct=1 --ioengine=libaio --iodepth=16 \
    --runtime=3 --time_based --filename="$LAB_MNT/g" >/dev/null 2>&1
lines=$(queue_lines q2 0)
echo "$lines" | sed 's/^/# usb2-stick server: /'
t_eq "usb2-stick: one request at a time at the server" "$(max_outstanding <<<"$lines")" 1
t_eq "usb2-stick: in arrival order" "$(out_of_order <<<"$lines")" 0
out=$("$BRISK" lab down q2 2>&1)
t_eq "lab down usb2-stick" "$out" "lab q2: taken apart"
check_gone "queue"
