#!/bin/bash
# brisk lab on a real lab disk (root, /dev/fuse): the stack in sysfs, the
# idle ssh-like read inside the model's band, reads slowed by a buffered
# writer under mq-deadline, and 'lab down' leaving nothing behind.
source tests/lib.sh
source tests/cli/lab_common.bash
why=$(lab_requirements)
[ -z "$why" ] && ! command -v fio >/dev/null && why="no fio"
if [ -n "$why" ]; then t_skip "lab disk" "$why"; exit 0; fi
lab_setup

if ! lab_up --model hdd-7200 --size 1G; then
  t_fail "lab up" "$LAB_OUT"; exit 0
fi
t_pass "lab up"
t_match "up prints the mount point" "$LAB_MNT" "^$LAB_T/$LAB_NAME/mnt$"
src=$(awk -v m="$LAB_MNT" '$5 == m { for (i = 7; $i != "-"; i++); print $(i+1), $(i+2) }' /proc/self/mountinfo)
t_eq "ext4 on the loop device is mounted there" "$src" "ext4 $LAB_LOOP"
dev=${LAB_LOOP#/dev/}
t_eq "loop backing file is the FUSE file" "$(cat /sys/block/$dev/loop/backing_file)" "$LAB_T/$LAB_NAME/fuse/disk.img"
t_eq "loop does direct I/O" "$(cat /sys/block/$dev/loop/dio)" 1
t_match "scheduler mq-deadline in sysfs" "$(cat /sys/block/$dev/queue/scheduler)" "\[mq-deadline\]"
t_eq "rotational as the model says" "$(cat /sys/block/$dev/queue/rotational)" 1
if [ "$(lab_state_val "$LAB_NAME" dirty_limit)" != 0 ]; then
  t_eq "per-disk strict dirty limit" "$(cat /sys/block/$dev/bdi/strict_limit)" 1
else
  t_skip "per-disk strict dirty limit" "the global vm.dirty limit is lower right now"
fi
t_eq "mount point open to all (1777)" "$(stat -c %a "$LAB_MNT")" 1777
st=$("$BRISK" lab status)
t_match "status lists the lab as ok" "$st" "$LAB_NAME +hdd-7200 .*$LAB_LOOP +mq-deadline +~?31 +on .* ok +$LAB_MNT"
# The loop device's originals are in a restore journal of kind lab, which
# recovery and 'brisk restore' leave alone while the lab is up.
jn=$(lab_state_val "$LAB_NAME" journal)
t_match "the state names the lab's journal" "$jn" '^session-[0-9]+(-[0-9]+)?\.journal$'
t_match "a journal of kind lab" "$(cat "$LAB_T/run/$jn" 2>/dev/null)" $'\nkind lab\n'
t_match "the scheduler is journaled" "$(cat "$LAB_T/run/$jn" 2>/dev/null)" "orig $dev [0-9-]+ scheduler - - [a-z-]+"
t_match "queue/rotational is journaled" "$(cat "$LAB_T/run/$jn" 2>/dev/null)" "orig $dev [0-9-]+ queue/rotational - - [01]"
"$BRISK" restore >/dev/null 2>&1
t_check "brisk restore leaves a live lab's journal" test -f "$LAB_T/run/$jn"
t_match "and its settings" "$(cat /sys/block/$dev/queue/scheduler)" "\[mq-deadline\]"
pid=$(lab_state_val "$LAB_NAME" server | cut -d: -f1)
t_match "the server runs as 'brisk lab serve'" "$(tr '\0' ' ' </proc/$pid/cmdline 2>/dev/null)" "lab serve .*--model hdd-7200"

# Idle ssh-like read: the best of three cold runs (runt-min in the 2009
# tables) inside the band profiles/lab-models.ini gives hdd-7200.
band=$(sed -n '/^\[hdd-7200\]/,/^\[/s/^ssh_like_s *= *//p' profiles/lab-models.ini)
lo=${band%-*} hi=${band#*-}
ssh_like "$LAB_MNT" >/dev/null      # lays the file out
idle=$( { ssh_like "$LAB_MNT"; ssh_like "$LAB_MNT"; ssh_like "$LAB_MNT"; } | sort -n | head -1)
echo "# idle ssh-like on hdd-7200: $idle s (band $lo-$hi s)"
if [ -n "$idle" ] && awk -v x="$idle" -v l="$lo" -v h="$hi" 'BEGIN { exit !(x >= l && x <= h) }'; then
  t_pass "idle ssh-like within the model's band"
else
  t_fail "idle ssh-like within the model's band" "got '$idle' s, band $lo-$hi s"
fi

# A buffered writer (dd rewriting a 400 MiB file in 1 MiB writes at memory
# speed: many times the disk's 120 MB/s) under mq-deadline: the same read
# must be clearly slower.
setsid bash -c 'while :; do dd if=/dev/zero of="$1/big" bs=1M count=400 conv=notrunc status=none; done' \
  _ "$LAB_MNT" &
writer=$!
sleep 3
w0=$(awk '{ print $7 }' "/sys/block/$dev/stat")
loaded=$(ssh_like "$LAB_MNT")
w1=$(awk '{ print $7 }' "/sys/block/$dev/stat")
kill -TERM -- -"$writer" 2>/dev/null; wait "$writer" 2>/dev/null
rm -f "$LAB_MNT/big"
echo "# loaded ssh-like (mq-deadline, buffered writer): $loaded s; $(( (w1 - w0) / 2048 )) MiB written back meanwhile"
slow=$(awk -v a="$loaded" -v b="$idle" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b }')
if [ -n "$slow" ] && awk -v s="$slow" 'BEGIN { exit !(s >= 1.5) }'; then
  t_pass "writer slows ssh-like reads under mq-deadline (x$slow)"
else
  t_fail "writer slows ssh-like reads under mq-deadline" "slowdown '$slow' (idle $idle s, loaded $loaded s), want >= 1.5"
fi

# The server starts the host's writeback of what it writes at once: the
# image's pages do not pile up as dirty memory on the host's disk, where
# /proc/meminfo would count them as if the emulated disk still held them
# (a settle step would wait on them, a grade would blame them).
# Dirty is the whole host's: another writer on the machine (a build, a
# test) adds to it, never takes away, so a growth under the bound in any of
# three tries is the lab's own; without the fix every try grows by ~200 MiB.
grows=""
for try in 1 2 3; do
  d0=$(awk '/^Dirty:/ { print $2 }' /proc/meminfo)
  dd if=/dev/zero of="$LAB_MNT/direct" bs=1M count=200 oflag=direct status=none
  d1=$(awk '/^Dirty:/ { print $2 }' /proc/meminfo)
  rm -f "$LAB_MNT/direct"
  grow=$(( (d1 - d0) / 1024 ))
  grows+="${grows:+, }$grow"
  echo "# host Dirty after 200 MiB written through the lab disk (try $try): ${grow} MiB more"
  [ "$grow" -lt 100 ] && break
done
if [ "$grow" -lt 100 ]; then t_pass "the host keeps no dirty copy of the lab's writes"
else t_fail "the host keeps no dirty copy of the lab's writes" "Dirty grew by $grows MiB in three tries"; fi

# brisk itself on the lab disk: devices names it, and brisk run's own
# ssh-like action (cold, a fresh process per sample) is inside the band idle
# and clearly slower behind its own buffered writer under mq-deadline.
j=$("$BRISK" devices "$LAB_MNT" --json)
t_eq "devices: the lab's loop device is the leaf" "$(jq -r '.leaves|join(" ")' <<<"$j")" "$dev"
t_eq "devices: model named" "$(jq -r .stack.loop.lab_model <<<"$j")" hdd-7200
t_eq "devices: scheduler" "$(jq -r .stack.queue.scheduler <<<"$j")" mq-deadline
t_match "devices text names the model" "$("$BRISK" devices "$LAB_MNT")" "emulated hdd-7200"
errf=$(mktemp)
r=$("$BRISK" run "$LAB_MNT" -a ssh-like -l seq-write:size=400m -i 3 -n 3 --floor 10% -q --json - 2>"$errf")
sed "s/^/# run: /" "$errf"; rm -f "$errf"
ip50=$(jq -r '.actions[]|select(.phase=="idle" and .action=="ssh-like")|.p50_ms' <<<"$r")
sl=$(jq -r '.actions[]|select(.phase=="loaded" and .action=="ssh-like")|.slowdown_p50' <<<"$r")
echo "# brisk run on hdd-7200: idle ssh-like p50 $ip50 ms, loaded slowdown x$sl (mq-deadline)"
if awk -v x="$ip50" -v l="$lo" -v h="$hi" 'BEGIN { exit !(x >= l * 1000 * 0.9 && x <= h * 1000 * 1.1) }'; then
  t_pass "brisk run: idle ssh-like p50 near the model's band"
else
  t_fail "brisk run: idle ssh-like p50 near the model's band" "got '$ip50' ms, band $lo-$hi s (+-10 %)"
fi
if awk -v s="$sl" 'BEGIN { exit !(s >= 1.5) }'; then
  t_pass "brisk run: slowdown under its writer with mq-deadline (x$sl)"
else
  t_fail "brisk run: slowdown under its writer with mq-deadline" "slowdown_p50 '$sl', want >= 1.5"
fi

# brisk compare names the lab disk by its model in the report's disks line.
c=$("$BRISK" compare "$LAB_MNT" current current -r 1 -n 1 -a save -l seq-write:size=64m --floor 10% -q 2>&1)
t_match "compare: the disks line names the lab model" "$c" "^disks: $dev: brisk lab hdd-7200, rotational$"

# A busy mount: down refuses, keeps everything, and the disk still models.
( cd "$LAB_MNT" && sleep 5 ) &
holder=$!
sleep 0.3
err=$("$BRISK" lab down "$LAB_NAME" 2>&1); rc=$?
t_eq "down of a busy lab exits 1" "$rc" 1
t_match "down of a busy lab says why" "$err" "cannot unmount .*busy.*fuser"
t_match "a busy lab stays ok" "$("$BRISK" lab status)" "$LAB_NAME .* ok "
t0=$(date +%s%N)
for i in 1 2 3 4 5 6 7 8 9 10; do
  dd if="$LAB_LOOP" of=/dev/null bs=4k count=1 skip=$((i * 25000)) iflag=direct 2>/dev/null
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ "$ms" -ge 15 ]; then t_pass "the model is on again after a refused down (${ms} ms for 10 reads)"
else t_fail "the model is on again after a refused down" "10 random reads took ${ms} ms"; fi
wait "$holder"

orig=$(lab_state_val "$LAB_NAME" orig_scheduler)
out=$("$BRISK" lab down "$LAB_NAME" 2>&1); rc=$?
t_eq "lab down exits 0" "$rc" 0
[ "$rc" = 0 ] || printf '  %s\n' "$out"
check_gone "lab down"
t_match "loop device's scheduler put back" "$(cat /sys/block/$dev/queue/scheduler)" "\[$orig\]"
t_check "the lab's journal went with it" test ! -e "$LAB_T/run/$jn"
gone_or_zombie "$pid" && t_pass "server stopped" || t_fail "server stopped" "pid $pid still runs"
"$BRISK" lab down "$LAB_NAME" >/dev/null 2>&1; t_eq "down of a lab that is gone exits 2" "$?" 2
