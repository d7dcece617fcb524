# shellcheck shell=bash
# Shared by tests/cli/*.sh that measure on a real loop device (not a test
# itself: the runner takes *.sh).  Source after tests/lib.sh; loop_mount
# wants root, losetup and mkfs.ext4.

# loop_mount [OPTIONS] [--] NAME SIZE: an ext4 file system of SIZE (truncate's
# form) on a new loop device, mounted at $d/mnt.  Sets d (the directory
# holding the image), mnt ($d/mnt), L (/dev/loopN), dev (loopN), q (its
# sysfs queue directory) and orig_sched (its scheduler before the test).
# At exit (t_atexit, after T_CLEANUP_EXTRA) it is unmounted, its scheduler
# put back and it is detached; loop_release does that sooner.  Not root,
# no losetup, mkfs.ext4 or mount, or no free loop device: SKIP NAME; mkfs
# or mount failing: FAIL NAME; either way exit 0.  OPTIONS:
#   -d DIR    the image in DIR, an existing directory (else a new t_tmpdir)
#   -i FILE   the image's file name in that directory (default img)
#   -m OPTS   more mkfs.ext4 options, split at blanks (a test that reads
#             the device's counters wants no lazy init writing)
#   -o OPTS   mount options (mount -o OPTS)
#   -n        no file system, no mount: the device attached only
#   -s SCHED  the device's scheduler set to SCHED (put back at exit)
#   -c CMD    a command run at exit before the rest (brisk restore)
#   -k        where it would exit 0, return 1 instead (a test that goes on)
loop_mount() {
  local OPTIND=1 opt dir="" img=img mkfs="" mopt="" nofs="" sched="" pre="" keep=""
  while getopts d:i:m:o:ns:c:k opt; do
    case $opt in
      d) dir=$OPTARG ;; i) img=$OPTARG ;; m) mkfs=$OPTARG ;; o) mopt=$OPTARG ;;
      n) nofs=1 ;; s) sched=$OPTARG ;; c) pre=$OPTARG ;; k) keep=1 ;;
      *) echo "loop_mount: bad option" >&2; exit 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  local name=$1 tools="losetup mkfs.ext4 mount" c
  [ -n "$nofs" ] && tools=losetup
  is_root || { _loop_stop skip "needs root (a loop device)"; return 1; }
  for c in $tools; do
    command -v "$c" >/dev/null || { _loop_stop skip "needs $c"; return 1; }
  done
  d=${dir:-$(t_tmpdir)} mnt=$d/mnt
  truncate -s "$2" "$d/$img" || { _loop_stop fail "cannot create the image $d/$img"; return 1; }
  L=$(losetup -f --show "$d/$img") || { _loop_stop skip "no free loop device"; return 1; }
  dev=${L#/dev/} q=/sys/block/${L#/dev/}/queue
  t_bdi_defaults "$dev"
  orig_sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")
  [ -n "$_LOOP_ATEXIT" ] || { t_atexit loop_release; _LOOP_ATEXIT=1; }
  _LOOP_UNDO="${pre:+$pre; }mountpoint -q $(printf %q "$mnt") && _loop_umount $(printf %q "$mnt")
    echo $orig_sched >$q/scheduler 2>/dev/null; t_bdi_defaults $dev; losetup -d $L${_LOOP_UNDO:+; $_LOOP_UNDO}"
  if [ -n "$sched" ] && ! echo "$sched" >"$q/scheduler"; then
    _loop_stop fail "$dev does not take the scheduler $sched"; return 1
  fi
  [ -n "$nofs" ] && return 0
  # shellcheck disable=SC2086  # options split at blanks
  mkfs.ext4 -q $mkfs "$L" && mkdir -p "$mnt" && mount ${mopt:+-o "$mopt"} "$L" "$mnt" ||
    { _loop_stop fail "mkfs.ext4 or mount of $L failed"; return 1; }
}
# _loop_stop skip|fail WHY: loop_mount's NAME skipped or failed for WHY;
# exits 0 unless loop_mount has -k (its locals name and keep)
_loop_stop() { "t_$1" "$name" "$2"; [ -n "$keep" ] || exit 0; }
# loop_release: unmount, put back and detach what loop_mount set up, now
# rather than at exit.
_LOOP_UNDO=""
_LOOP_ATEXIT=""
loop_release() { local u=$_LOOP_UNDO; _LOOP_UNDO=; eval "$u"; }
# _loop_umount DIR: a brisk that is still ending (a test's tmux pane torn
# down) may hold DIR a moment; past that, detach it lazily
_loop_umount() { umount "$1" 2>/dev/null || { sleep 1; umount "$1"; } || umount -l "$1"; }

# loop_other_sched SCHED...: prints the first SCHED that loop_mount's device
# offers other than orig_sched, its scheduler before the test; 1 if none.
loop_other_sched() {
  local s
  for s; do
    [ "$s" != "$orig_sched" ] && grep -qw -- "$s" "$q/scheduler" && { echo "$s"; return 0; }
  done
  return 1
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
