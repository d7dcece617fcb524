#!/bin/bash
# brisk profile save on umockdev testbeds (no root): a testbed's device is
# renumbered to the device of a temporary directory, so that the directory
# resolves to it.  An md RAID1 of two SSDs: both members are read, a key
# stays when one member differs from its kernel default (and the
# difference is warned about), and is left out when both are at it; a
# virtio disk like this VM's vda: only the scheduler is saved.
source tests/lib.sh
if ! t_umockdev; then t_skip profile-save-stack "$T_UMOCKDEV_WHY"; exit 0; fi
d=$(t_tmpdir)
mkdir -p "$d/dir"
# the directory's device, as the kernel numbers it (st_dev)
devno=$(stat -c %d "$d/dir")
maj=$((devno >> 8 & 0xfff)); min=$(((devno & 0xff) | (devno >> 12 & 0xfff00)))
# renumber TESTBED SYSPATH [SED]: the testbed with the device at SYSPATH
# numbered maj:min (and SED applied to its attributes), on stdout
renumber() {
  awk -v p="$2" -v maj="$maj" -v min="$min" '
    /^P: / { in_dev = ($2 == p) }
    in_dev && /^E: MAJOR=/ { print "E: MAJOR=" maj; next }
    in_dev && /^E: MINOR=/ { print "E: MINOR=" min; next }
    in_dev && /^A: dev=/ { print "A: dev=" maj ":" min "\\n"; next }
    { print }' "tests/fixtures/$1.umockdev" | sed -e "${3:-}"
}
# under TESTBED-FILE: brisk ARGS, stderr in $d/err
under() { local tb=$1; shift; umockdev-run -d "$tb" -- "$BRISK" "$@" 2>"$d/err"; }
val() { awk -v k="$1" '$1 == k && $2 == "=" { print $3 }' <<<"$2"; }

# md0 (sda1 + sdb1, both Samsung SSDs, mq-deadline): sdb's fifo_batch is 32
renumber md-raid1-crypt /devices/virtual/block/md0 >"$d/md.umockdev"
if ! under "$d/md.umockdev" devices "$d/dir" | grep -q '^md0 '; then
  t_skip profile-save-stack "$d/dir does not resolve to the testbed's md0 (device $maj:$min)"
  exit 0
fi
p=$(under "$d/md.umockdev" profile save r "$d/dir" -o -); t_eq md-exit $? 0
err=$(cat "$d/err")
t_match md-class "$p" '^\[settings ssd\]$'
t_eq md-scheduler "$(val scheduler "$p")" mq-deadline
t_eq md-differing-kept "$(val fifo_batch "$p")" 16
t_match md-differing-warned "$err" "warning: sdb: fifo_batch=32 differs from the first ssd disk's 16; saved 16"
t_eq md-differing-not-left-out "$(grep 'left out' <<<"$err" | grep -c fifo_batch)" 0
t_match md-defaults-left-out "$err" 'kernel defaults \([^)]*read_expire=500[^)]*wbt_lat_usec=2000'
t_match md-hardware-bound-left-out "$err" \
  'hardware-bound settings, which come from each disk.s hardware \(async_depth=48, nr_requests=64, max_sectors_kb=1280, queue_depth=31\)'
t_eq md-only-those "$(grep -cE '^[a-z_]+ = ' <<<"$(sed -n '/^\[settings ssd\]/,/^$/p' <<<"$p")")" 2
# the same value on both members: left out like any default
sed 's|^A: queue/iosched/fifo_batch=32|A: queue/iosched/fifo_batch=16|' "$d/md.umockdev" >"$d/md16.umockdev"
p=$(under "$d/md16.umockdev" profile save r "$d/dir" -o -); t_eq md-same-exit $? 0
t_eq md-same-left-out "$(val fifo_batch "$p")" ""
t_match md-same-said "$(cat "$d/err")" 'kernel defaults \([^)]*fifo_batch=16'
t_eq md-same-no-warning "$(grep -c warning "$d/err")" 0
# --all: every member's keys as the first member has them
p=$(under "$d/md.umockdev" profile save r "$d/dir" -o - --all); t_eq md-all-exit $? 0
t_eq md-all-queue_depth "$(val queue_depth "$p")" 31
t_eq md-all-async_depth "$(val async_depth "$p")" 48

# vda: virtio, rotational, io_opt 0, read_ahead_kb 8192 = 2 x max_sectors_kb
renumber virtio-disk /devices/pci0000:00/0000:00:02.0/virtio1/block/vda >"$d/vda.umockdev"
p=$(under "$d/vda.umockdev" profile save mine "$d/dir" -o -); t_eq vda-exit $? 0
err=$(cat "$d/err")
t_eq vda-settings "$(sed -n '/^\[settings/,/^$/p' <<<"$p" | grep -v '^$')" \
  $'[settings rotational]\nscheduler = mq-deadline'
t_match vda-hardware-bound "$err" '\(async_depth=256, nr_requests=256, read_ahead_kb=8192, max_sectors_kb=4096\)'
t_match vda-defaults "$err" 'left out [0-9]+ settings at their kernel defaults \(fifo_batch=16, front_merges=1, prio_aging_expire=10000, read_expire=500, write_expire=5000, writes_starved=2, wbt_lat_usec=75000, rq_affinity=1, nomerges=0'
# ... and exported as udev rules by class, the rule matches vda: KERNEL
# (a "|" list of globs) and the rotational flag the testbed's vda has
under "$d/vda.umockdev" profile save mine "$d/dir" -o "$d/mine.profile" >/dev/null
rules=$("$BRISK" export "$d/mine.profile" --format udev); t_eq vda-export-exit $? 0
rule=$(grep '^ACTION==' <<<"$rules")
t_eq vda-export-one-rule "$(wc -l <<<"$rule")" 1
pat=$(sed -n 's/.*KERNEL=="\([^"]*\)".*/\1/p' <<<"$rule")
hit=0; IFS='|' read -ra alts <<<"$pat"
# shellcheck disable=SC2053  # the alternatives are globs
for a in "${alts[@]}"; do [[ vda == $a ]] && hit=1; done
t_eq "vda-export-kernel-matches ($pat)" "$hit" 1
t_match vda-export-rotational "$rule" 'ATTR\{queue/rotational\}=="1"'
t_match vda-export-scheduler "$rules" 'ATTR\{queue/scheduler\}="mq-deadline"$'
t_eq vda-export-nothing-dropped "$("$BRISK" export "$d/mine.profile" --format udev 2>&1 >/dev/null)" ""
