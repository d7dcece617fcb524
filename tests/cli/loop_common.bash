# shellcheck shell=bash
# Shared by tests/cli/*.sh that measure on a real loop device (not a test
# itself: the runner takes *.sh).  Source after tests/lib.sh; loop_mount
# wants root, losetup and mkfs.ext4.

# loop_mount NAME SIZE: an ext4 file system of SIZE (truncate's form) on a
# new loop device, mounted at $d/mnt.  Sets d (a t_tmpdir holding the
# image), L (/dev/loopN), dev (loopN), q (its sysfs queue directory) and
# orig_sched (its scheduler before the test).  At exit (T_CLEANUP_EXTRA)
# it is unmounted, its scheduler put back and it is detached.  No free
# loop device: SKIP NAME, exit 0.  LOOP_MKFS_OPTS: more mkfs.ext4 options
# (a test that reads the device's counters wants no lazy init writing).
loop_mount() {
  d=$(t_tmpdir)
  truncate -s "$2" "$d/img"
  L=$(losetup -f --show "$d/img") || { t_skip "$1" "no free loop device"; exit 0; }
  dev=$(basename "$L")
  q=/sys/block/$dev/queue
  orig_sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")
  # shellcheck disable=SC2034  # read by t_cleanup in tests/lib.sh
  T_CLEANUP_EXTRA="umount '$d/mnt' 2>/dev/null; echo $orig_sched > $q/scheduler; losetup -d '$L'"
  # shellcheck disable=SC2086  # options split at blanks
  mkfs.ext4 -q ${LOOP_MKFS_OPTS:-} "$L"; mkdir "$d/mnt"; mount "$L" "$d/mnt"
}

# loop_alt_sched DEV: "another scheduler with tunables" for a test on the
# loop device DEV (loopN), chosen from what DEV offers: bfq, else kyber,
# else mq-deadline.  Sets alt_sched; alt_key/alt_val and alt_key2/alt_val2,
# two of its iosched tunables, each with a value the kernel takes that is
# not its default; alt_foreign, an iosched tunable of another scheduler
# that alt_sched lacks; alt_why, why bfq is not the one ("" when it is).
# Returns 1 when DEV offers none of the three.
# shellcheck disable=SC2034  # the alt_* are read by the tests that call this
loop_alt_sched() {
  local offered
  offered=" $(tr -d '[]' <"/sys/block/$1/queue/scheduler") "
  alt_why="the kernel offers no bfq ($(xargs <<<"$offered"))"
  case $offered in
    *" bfq "*) alt_why=""
      set -- bfq low_latency 0 slice_idle 0 fifo_batch ;;
    *" kyber "*) set -- kyber read_lat_nsec 500000 write_lat_nsec 5000000 fifo_batch ;;
    *" mq-deadline "*) set -- mq-deadline fifo_batch 8 writes_starved 4 read_lat_nsec ;;
    *) return 1 ;;
  esac
  alt_sched=$1 alt_key=$2 alt_val=$3 alt_key2=$4 alt_val2=$5 alt_foreign=$6
}
