#!/bin/bash
# The exec action on an ext4 file system on a loop device (root): the
# default program is copied there (every copied file's st_dev is the file
# system's, seen while the run is on) and its samples run; --exec
# /usr/bin/ls runs in place and the report says it was timed on another
# disk, in the text and the JSON.
source tests/lib.sh
source tests/cli/loop_common.bash
command -v jq >/dev/null || { t_skip exec_loop "jq is not installed"; exit 0; }
d=$(t_tmpdir)
chmod 755 "$d"   # --exec $mnt/mytrue below: actions run as nobody, who must reach it
loop_mount -d "$d" exec_loop 300M
fsdev=$(stat -c %d "$mnt")

# default: the copy, watched while the run is on
"$BRISK" run "$mnt" --floor 0 -q -a exec --no-load -i 6 --interval 300ms --json "$d/copy.json" \
  >"$d/copy.txt" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  kill -0 $pid 2>/dev/null || break
  ls "$mnt"/.brisk-*/prog/ld.so >/dev/null 2>&1 && grep -q . "$mnt"/.brisk-*/owner 2>/dev/null && break
  sleep 0.1
done
sleep 1   # the copy is complete once samples run: prepare ends with it
devs=$(find "$mnt"/.brisk-*/prog -type f -printf '%D\n' 2>/dev/null | sort -u)
nfiles=$(find "$mnt"/.brisk-*/prog -type f 2>/dev/null | wc -l)
wait $pid; rc=$?
t_eq copy-exit-0 "$rc" 0
t_eq copy-files-on-loop-fs "$devs" "$fsdev"
t_check copy-has-files test "$nfiles" -ge 5
json=$(cat "$d/copy.json")
t_eq copy-copied "$(jq .config.exec_program.copied <<<"$json")" true
t_eq copy-devices "$(jq -r '[.config.exec_program.file_devices[].device]|unique|join(",")' <<<"$json")" "$dev"
t_eq copy-no-note "$(jq .config.exec_program.not_on_disk_under_test <<<"$json")" null
t_eq copy-samples-ok "$(jq '[.samples[]|select(.action=="exec" and .error==0)]|length' <<<"$json")" 6
t_eq copy-read-volume "$(jq '.config.exec_program.cold_read_mib > 0.5' <<<"$json")" true
t_match copy-report-says "$(cat "$d/copy.txt")" "exec program: .*copied to $dev; a cold start read [0-9.]+ ([KMG]iB|B) from"
t_eq copy-removed "$(find "$mnt" -maxdepth 1 -name '.brisk-*' | wc -l)" 0
# the python program when this machine has the system's python3
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -I -S -c 'import sqlite3, ssl, curses' 2>/dev/null; then
  t_match copy-python "$(jq -r .config.exec_program.program <<<"$json")" '^python3'
  t_eq copy-app-sized "$(jq '.config.exec_program.cold_read_mib >= 10 and .config.exec_program.cold_read_files >= 100' <<<"$json")" true
else
  t_skip copy-python "no usable /usr/bin/python3: ls is used"
fi

# --exec /usr/bin/ls: in place, on the root file system, with the note
rootdev=$(stat -c %d /usr/bin/ls)
if [ "$rootdev" = "$fsdev" ]; then t_skip exec-note "/usr/bin/ls is on the loop fs?"; exit 0; fi
out=$("$BRISK" run "$mnt" --floor 0 -a exec --exec /usr/bin/ls --no-load -i 2 --interval 50ms \
      --json "$d/ls.json" 2>&1); rc=$?
t_eq exec-exit-0 "$rc" 0
src=$(findmnt -no SOURCE --target /usr/bin/ls 2>/dev/null)
case $src in
  /dev/*) rootname=${src#/dev/}; rootname=${rootname##*/} ;;
  *) rootname='[^ ]+' ;;   # no block device name to expect
esac
t_match exec-note-text "$out" "NOTE: program start was timed on $rootname, not on the disk under test \($dev\)"
t_match exec-file-device "$out" "/usr/bin/ls \($rootname\)"
json=$(cat "$d/ls.json")
t_eq exec-copied "$(jq .config.exec_program.copied <<<"$json")" false
t_match exec-note-json "$(jq -r .config.exec_program.not_on_disk_under_test <<<"$json")" "^program start was timed on"
t_eq exec-file-off "$(jq '[.config.exec_program.file_devices[]|select(.path=="/usr/bin/ls")|.on_disk_under_test][0]' <<<"$json")" false
# and a program that is on the loop fs gets no note
cp /usr/bin/true "$mnt/mytrue"
out=$("$BRISK" run "$mnt" --floor 0 -a exec --exec "$mnt/mytrue" --no-load -i 2 --interval 50ms --json - 2>/dev/null)
t_eq own-file-on "$(jq "[.config.exec_program.file_devices[]|select(.path==\"$mnt/mytrue\")|.on_disk_under_test][0]" <<<"$out")" true
rm -f "$mnt/mytrue"
