#!/bin/bash
# brisk devices on the real machine: the disk under /, bad input, a loop device.
source tests/lib.sh
source tests/cli/loop_common.bash

out=$($BRISK --version); t_match version "$out" '^brisk [0-9]+\.[0-9]+\.[0-9]+$'
out=$($BRISK --help); t_match help-lists-devices "$out" 'devices'
$BRISK devices --help | grep -q -- '--all'; t_eq devices-help $? 0
$BRISK help devices >/dev/null; t_eq help-subcommand $? 0
$BRISK --bogus 2>/dev/null; t_eq unknown-option-exit-2 $? 2
err=$($BRISK frobnicate 2>&1); t_eq unknown-command-exit-2 $? 2
t_match unknown-command-message "$err" "unknown command 'frobnicate'"
$BRISK devices --bogus 2>/dev/null; t_eq devices-unknown-option $? 2
$BRISK devices / /tmp 2>/dev/null; t_eq devices-two-args $? 2

# The real disk under / (a virtio vda on the project's VM).
json=$($BRISK devices / --json); t_eq root-json-exit $? 0
t_check root-json-valid jq -e . <<<"$json"
leaf=$(jq -r '.leaves[0]' <<<"$json")
rootdev=$(awk '$5=="/"{print $3}' /proc/self/mountinfo | tail -1)
t_match root-leaf-is-a-disk "$leaf" '^[a-z]+[0-9a-z]*$'
t_eq root-mount-devnum "$(jq -r .mount.devnum <<<"$json")" "$rootdev"
if [ -e /sys/block/vda ] && [ "$leaf" = vda ]; then
  t_eq vda-transport "$(jq -r .stack.transport <<<"$json")" virtio
  t_eq vda-controller "$(jq -r .stack.controller <<<"$json")" "Red Hat, Inc. Virtio 1.0 block device"
  active=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/block/vda/queue/scheduler)
  t_eq vda-scheduler "$(jq -r .stack.queue.scheduler <<<"$json")" "$active"
  t_eq vda-schedulers "$(jq -r '.stack.queue.schedulers|join(" ")' <<<"$json")" \
       "$(sed 's/[][]//g; s/ *$//' /sys/block/vda/queue/scheduler)"
  t_eq vda-nr-requests "$(jq -r .stack.queue.nr_requests <<<"$json")" "$(cat /sys/block/vda/queue/nr_requests)"
  for f in /sys/block/vda/queue/iosched/*; do
    [ -f "$f" ] || continue
    n=$(basename "$f")
    t_eq "vda-iosched-$n" "$(jq -r ".stack.queue.iosched.\"$n\"" <<<"$json")" "$(cat "$f")"
  done
else
  t_skip vda-details "the disk under / is $leaf, not a virtio vda"
fi
text=$($BRISK devices /); t_match root-text-tree "$text" "^/ +on .* mounted at /"
t_match root-text-scheduler "$text" "scheduler +.*\[[a-z-]+\]"
t_match root-text-leaves "$text" "settings apply to: $leaf"
( cd / && $BRISK devices ) | grep -q "settings apply to: $leaf"; t_eq default-dir-is-cwd $? 0

# Every block device, as JSON; sizes match sysfs.
all=$($BRISK devices --all --json); t_eq all-json-exit $? 0
t_eq all-count "$(jq '.devices|length' <<<"$all")" "$(ls /sys/class/block | wc -l)"
for b in $(find /sys/block -mindepth 1 -maxdepth 1 ! -name 'loop*' -printf '%f\n' | sort | head -5); do   # loop sizes change under other users
  t_eq "all-size-$b" "$(jq ".devices[]|select(.name==\"$b\")|.size_bytes" <<<"$all")" \
       "$(( $(cat /sys/block/$b/size) * 512 ))"
done
$BRISK devices --all >/dev/null; t_eq all-text-exit $? 0

# Bad input: a clear message, exit 2, no crash.
check_bad() { # name path regex
  local err; err=$($BRISK devices "$2" 2>&1 >/dev/null); local rc=$?
  t_eq "$1-exit" $rc 2; t_match "$1-message" "$err" "$3"
}
check_bad missing /nonexistent/dir 'no such directory or block device'
check_bad regular-file /etc/hostname 'is not a directory'
check_bad proc /proc 'proc file system .* no block device'
if awk '$3=="tmpfs"{f=1} END{exit !f}' /proc/mounts; then
  tmpfs=$(awk '$3=="tmpfs"{print $2; exit}' /proc/mounts)
  check_bad tmpfs "$tmpfs" 'tmpfs file system .* no block device'
else
  t_skip tmpfs "no tmpfs mounted"
fi
d=$(t_tmpdir)
mkdir "$d/locked"; chmod 000 "$d/locked"
if is_root && command -v setpriv >/dev/null; then
  chmod 755 "$d"
  err=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$BRISK" devices "$d/locked" 2>&1)
  t_eq unreadable-exit $? 2; t_match unreadable-message "$err" 'permission denied'
  out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$BRISK" devices / --json)
  t_eq nonroot-works $? 0
  t_eq nonroot-same-leaf "$(jq -r '.leaves[0]' <<<"$out")" "$leaf"
elif ! is_root; then
  check_bad unreadable "$d/locked" 'permission denied'
else
  t_skip unreadable "needs setpriv to drop root"
fi

# A loop device on a file: loop -> backing file -> that file's own stack.
if loop_mount -k -d "$d" loop 32M; then
  j=$($BRISK devices "$mnt" --json)
  t_eq loop-leaf "$(jq -r '.leaves|join(" ")' <<<"$j")" "$dev"
  t_eq loop-kind "$(jq -r .stack.kind <<<"$j")" loop
  t_eq loop-backing-file "$(jq -r .stack.loop.backing_file <<<"$j")" "$(realpath "$d/img")"
  t_eq loop-backing-leaf "$(jq -r '.stack.loop.backing.leaves[0]' <<<"$j")" "$leaf"
  t_eq loop-fstype "$(jq -r .mount.fstype <<<"$j")" ext4
  t_eq loop-by-node "$($BRISK devices "$L" --json | jq -r .stack.name)" "$dev"
  loop_release
fi
