# shellcheck shell=bash
# Shared by tests/cli/*.sh that measure on a real loop device (not a test
# itself: the runner takes *.sh).  Source after tests/lib.sh, as root, with
# losetup and mkfs.ext4 there.

# loop_mount NAME SIZE: an ext4 file system of SIZE (truncate's form) on a
# new loop device, mounted at $d/mnt.  Sets d (a t_tmpdir holding the
# image), L (/dev/loopN), dev (loopN), q (its sysfs queue directory) and
# orig_sched (its scheduler before the test).  At exit (T_CLEANUP_EXTRA)
# it is unmounted, its scheduler put back and it is detached.  No free
# loop device: SKIP NAME, exit 0.
loop_mount() {
  d=$(t_tmpdir)
  truncate -s "$2" "$d/img"
  L=$(losetup -f --show "$d/img") || { t_skip "$1" "no free loop device"; exit 0; }
  dev=$(basename "$L")
  q=/sys/block/$dev/queue
  orig_sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")
  # shellcheck disable=SC2034  # read by t_cleanup in tests/lib.sh
  T_CLEANUP_EXTRA="umount '$d/mnt' 2>/dev/null; echo $orig_sched > $q/scheduler; losetup -d '$L'"
  mkfs.ext4 -q "$L"; mkdir "$d/mnt"; mount "$L" "$d/mnt"
}
