# shellcheck shell=bash
# Shared by tests/cli/lab_*.sh (not a test itself: the runner takes *.sh).
# Source after tests/lib.sh.  Every lab made here lives under LAB_T (a
# t_tmpdir) with its state in LAB_T/run, so nothing of the user's is touched.

# lab_requirements: print the reason the lab cannot be made here, or nothing.
lab_requirements() {
  is_root || { echo "needs root"; return; }
  [ -c /dev/fuse ] || { echo "no /dev/fuse"; return; }
  [ -c /dev/loop-control ] || { echo "no /dev/loop-control"; return; }
  command -v mkfs.ext4 >/dev/null || [ -x /usr/sbin/mkfs.ext4 ] || [ -x /sbin/mkfs.ext4 ] \
    || { echo "no mkfs.ext4"; return; }
}

# (Not t_tmpdir: t_cleanup would rm -rf it even if a mount were left.)
lab_setup() {
  LAB_T=$(mktemp -d "${BRISK_TMP:-$PWD/build}/t.lab.XXXXXX") || exit 1
  LAB_W=$LAB_T/work   # the test's own files
  mkdir "$LAB_W" || exit 1
  export BRISK_RUNTIME_DIR=$LAB_T/run
  # At exit (lib.sh's t_cleanup runs this first): take the labs apart, then
  # remove the directory only if nothing is mounted under it any more.
  # shellcheck disable=SC2034  # read by t_cleanup in tests/lib.sh
  T_CLEANUP_EXTRA='lab_cleanup; [ -z "$(lab_leftovers)" ] && rm -rf "$LAB_T"'
}

# The server pids, loop devices and mounts any lab under LAB_T may have left.
lab_leftovers() {
  local f pid
  for f in "$LAB_T"/run/lab/*.state; do
    [ -f "$f" ] || continue
    pid=$(sed -n 's/^server=\([0-9]*\):.*/\1/p' "$f")
    [ -n "$pid" ] && [ "$pid" != 0 ] && [ -d /proc/$pid ] && \
      grep -qs 'lab.serve' /proc/$pid/cmdline && echo "process $pid"
  done
  for f in /sys/block/loop*/loop/backing_file; do
    [ -f "$f" ] || continue
    case "$(cat "$f")" in "$LAB_T"/*) echo "loop $(basename "$(dirname "$(dirname "$f")")")";; esac
  done
  awk -v t="$LAB_T/" 'index($5, t) == 1 { print "mount " $5 }' /proc/self/mountinfo
}

lab_cleanup() {
  [ -n "${LAB_T:-}" ] || return 0
  [ -n "${writer:-}" ] && kill -TERM -- -"$writer" 2>/dev/null && wait "$writer" 2>/dev/null
  "$BRISK" lab down --all >/dev/null 2>&1
  local what x pids="" f
  for f in "$LAB_T"/run/lab/*.state; do
    [ -f "$f" ] && pids="$pids $(sed -n 's/^server=\([0-9]*\):.*/\1/p' "$f")"
  done
  # Fallback only if lab down failed: by mount point, loop number, pid.
  lab_leftovers | while read -r what x; do
    case $what in
      mount) umount -l "$x" 2>/dev/null;;
      loop) losetup -d "/dev/$x" 2>/dev/null;;
    esac
  done
  for x in $pids; do
    [ -d /proc/$x ] && grep -qs 'lab.serve' /proc/$x/cmdline && kill -9 "$x" 2>/dev/null
  done
  return 0
}

# lab_up ARGS...: make a lab under LAB_T; sets LAB_MNT, LAB_NAME, LAB_LOOP,
# and LAB_OUT (what lab up printed).
# shellcheck disable=SC2034  # LAB_MNT, LAB_LOOP, LAB_OUT are for the tests that source this
lab_up() {
  local out
  out=$("$BRISK" lab up --dir "$LAB_T" "$@" 2>&1) || { echo "$out"; return 1; }
  LAB_MNT=$(printf '%s\n' "$out" | sed -n 's/^mounted at //p')
  LAB_NAME=$(printf '%s\n' "$out" | sed -n 's/^lab \([^:]*\):.*/\1/p')
  LAB_LOOP=$(sed -n 's/^loop=//p' "$LAB_T/run/lab/$LAB_NAME.state")
  LAB_OUT=$out
}

# lab_state_val NAME KEY
lab_state_val() { sed -n "s/^$2=//p" "$LAB_T/run/lab/$1.state" 2>/dev/null; }

# ssh_like DIR: seconds of one cold ssh-like read (fio, as in the 2009
# thread); nothing when fio's figure is beyond the wall clock around it.
ssh_like() {
  local t0 t1 r
  t0=$(date +%s%N)
  r=$(fio --clocksource=clock_gettime --name=ssh --rw=randread --size=2m --filesize=30m \
        --bsrange=4k-44k --invalidate=1 --direct=0 --filename="$1/sshfile" \
        --output-format=terse --terse-version=3 2>/dev/null | awk -F';' 'NF > 9 { print $9 }')
  t1=$(date +%s%N)
  [ -n "$r" ] && [ "$r" -le $(( (t1 - t0) / 1000000 )) ] && awk -v ms="$r" 'BEGIN { printf "%.3f\n", ms / 1000 }'
}

# check_gone WHAT: nothing of any lab under LAB_T is left.
check_gone() {
  local left
  left=$(lab_leftovers | tr '\n' ' ')
  t_eq "$1: no mount, loop device or server left" "$left" ""
  left=$(find "$LAB_T" -mindepth 1 -maxdepth 1 ! -name run ! -name work -printf '%f\n' | sort | tr '\n' ' ')
  t_eq "$1: no lab files left" "$left" ""
  left=$(find "$LAB_T/run/lab" -mindepth 1 -maxdepth 1 ! -name lock -printf '%f\n' 2>/dev/null | sort | tr '\n' ' ')
  t_eq "$1: no state files left" "$left" ""
}

# gone_or_zombie PID: the process has exited (a zombie awaiting its reaper
# counts as exited).
gone_or_zombie() {
  local st
  st=$(awk '{ sub(/.*\) /, ""); print substr($0, 1, 1) }' "/proc/$1/stat" 2>/dev/null)
  [ -z "$st" ] || [ "$st" = Z ] || [ "$st" = X ]
}
