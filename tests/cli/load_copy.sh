#!/bin/bash
# The copy load and the load's own stack (issue 29 parts 1 and 4), on two
# loop file systems: the actions and the copy's source on the first, the
# copy on the second.  The copy's bytes read and written (apart, in the
# text and the JSON, the JSON valid), the source read from the first disk
# and the copy written to the second, --load-dir, the files removed from
# both on SIGINT; --at TIME:load:scheduler=X changes the second disk only
# and is put back; a compare arm load:scheduler=X likewise; load: keys
# without a load directory, and load:vm.*, are refused with exit 2.
source tests/lib.sh
source tests/cli/loop_common.bash
command -v jq >/dev/null || { t_skip load_copy "needs jq"; exit 0; }
is_root || { t_skip load_copy "needs root (two loop file systems)"; exit 0; }

lazy="-E lazy_itable_init=0,lazy_journal_init=0"
loop_mount -m "$lazy" load-copy-first 200M
A=$mnt devA=$dev qA=$q
loop_mount -m "$lazy" load-copy-second 200M
B=$mnt devB=$dev qB=$q
chmod 755 "$A" "$B"
t=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$t/run
mkdir -m 700 "$BRISK_RUNTIME_DIR"
areas() { compgen -G "$A/.brisk-*"; compgen -G "$B/.brisk-*"; }
sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$1/scheduler"; }
schedA=$(sched "$qA") schedB=$(sched "$qB")
# direct: the copy's reads and writes reach the disks while it runs
COPY="copy:size=16m,bs=256k,rate=16m,direct"

# --- a copy from A to B ---
out=$($BRISK run "$A" -q -i 1 -n 4 -a save -l "$COPY,dir=$B" --floor 10m \
  --json "$t/r.json" 2>&1); rc=$?
t_eq copy-exit "$rc" 0
[ "$rc" = 0 ] || echo "  $(head -c 600 <<<"$out")"
t_match copy-text-reads "$out" '^  reads +[0-9.]+ '
t_match copy-text-writes "$out" '^  writes +[0-9.]+ '
rd=$(jq '.loads[0].read_bytes' "$t/r.json") wr=$(jq '.loads[0].write_bytes' "$t/r.json")
t_eq copy-json-kind "$(jq -r '.loads[0].kind' "$t/r.json")" copy
# it was stopped mid-pass: the last read may lack its write
if [ "$wr" -gt $((4 * 1048576)) ] && [ "$rd" -ge "$wr" ] && [ "$rd" -le $((wr + 262144)) ]; then
  t_pass copy-bytes-read-written
else
  t_fail copy-bytes-read-written "read $rd, written $wr"
fi
t_eq copy-bytes-sum "$(jq '.loads[0].bytes == .loads[0].read_bytes + .loads[0].write_bytes' "$t/r.json")" true
# the source is read from A's disk, the copy written to B's
sum() { jq --arg n "$1" "[.system[].devices[] | select(.name == \$n) | .$2 // 0] | add" "$t/r.json"; }
ra=$(sum "$devA" r_mib_s) wb=$(sum "$devB" w_mib_s) wa=$(sum "$devA" w_mib_s) rb=$(sum "$devB" r_mib_s)
if awk -v ra="$ra" -v wb="$wb" -v wa="$wa" -v rb="$rb" \
  'BEGIN { exit !(ra > 4 && wb > 4 && wb > 2 * wa && ra > 2 * rb) }'; then
  t_pass copy-disks
else
  t_fail copy-disks "MiB/s summed over ticks: $devA read $ra write $wa, $devB read $rb write $wb"
fi
t_eq copy-areas-removed "$(areas)" ""
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  t_check copy-json-valid /usr/bin/python3 tests/helpers/schema_check.py schemas/brisk-run.schema.json "$t/r.json"
else
  t_skip copy-json-valid "python3-jsonschema is not installed"
fi

# --- --load-dir gives the copy its directory; SIGINT removes both areas ---
$BRISK run "$A" -q -i 1 -n 1000 -d 60s -a save -l "$COPY" --load-dir "$B" --floor 10m \
  --json "$t/bg.json" >"$t/bg.out" 2>&1 &
bg=$!
for ((i = 0; i < 200; i++)); do
  compgen -G "$B/.brisk-*/load-copy-1" >/dev/null &&
    compgen -G "$A/.brisk-*/load-copy-1.src" >/dev/null && break
  sleep 0.1
done
t_check load-dir-source-in-A compgen -G "$A/.brisk-*/load-copy-1.src"
t_check load-dir-copy-in-B compgen -G "$B/.brisk-*/load-copy-1"
sleep 2
kill -INT "$bg"; wait "$bg"; rc=$?
t_eq load-dir-sigint-exit "$rc" 130
t_eq load-dir-sigint-areas-removed "$(areas)" ""
t_eq load-dir-json "$(jq -r '.load_dirs[0].dir' "$t/bg.json")" "$B"

# --- --at TIME:load:KEY changes the load's disk only, and is put back ---
want=$(for s in none mq-deadline kyber bfq; do
  [ "$s" != "$schedB" ] && grep -qw -- "$s" "$qB/scheduler" && { echo "$s"; break; }; done)
if [ -z "$want" ]; then
  t_skip load-at "$devB offers only $schedB"
else
  $BRISK run "$A" -q -i 1 -n 12 -a save -l "$COPY,dir=$B" --floor 10m \
    --at "1s:load:scheduler=$want" --json "$t/at.json" >"$t/at.out" 2>&1 &
  bg=$!
  seen=""
  for ((i = 0; i < 300; i++)); do
    [ "$(sched "$qB")" = "$want" ] && { seen=$(sched "$qA"); break; }
    sleep 0.1
  done
  wait "$bg"; rc=$?
  t_eq load-at-exit "$rc" 0
  [ "$rc" = 0 ] || echo "  $(head -c 600 "$t/at.out")"
  t_eq load-at-changed-B-not-A "$seen" "$schedA"
  t_eq load-at-epoch-label "$(jq -r '.epochs[1].label' "$t/at.json")" "load:scheduler=$want"
  t_eq load-at-restored "$(sched "$qA") $(sched "$qB")" "$schedA $schedB"
  t_eq load-at-journal-gone "$(compgen -G "$BRISK_RUNTIME_DIR/*.journal")" ""
fi

# --- refusals, nothing run ---
out=$($BRISK run "$A" -q -i 1 -n 1 -a save -l "seq-write:size=8m" --at 1s:load:scheduler=none 2>&1); rc=$?
t_eq load-at-no-load-dir-exit "$rc" 2
t_match load-at-no-load-dir-why "$out" "no load works in a directory of its own"
out=$($BRISK run "$A" -q -i 1 -n 1 -a save -l "$COPY,dir=$B" --at 1s:load:vm.dirty_bytes=64m 2>&1); rc=$?
t_eq load-at-vm-exit "$rc" 2
t_match load-at-vm-why "$out" "system-wide: drop the load: prefix"
out=$($BRISK compare "$A" current load:scheduler=none -q -r 1 -n 1 -a save -l "seq-write:size=8m" 2>&1); rc=$?
t_eq arm-no-load-dir-exit "$rc" 2
t_match arm-no-load-dir-why "$out" "no load works in a directory of its own"
out=$($BRISK run "$A" -q -i 1 -n 1 -a save -l "copy:engine=io_uring,dir=$B" 2>&1); rc=$?
t_eq copy-engine-refused "$rc" 2
t_match copy-engine-why "$out" "engine does not apply to copy"
t_eq refusals-nothing-made "$(areas)" ""

# --- a compare arm load:scheduler=X: the load's disk only, put back ---
if [ -n "$want" ]; then
  out=$($BRISK compare "$A" current "load:scheduler=$want" -q -r 3 -n 1 -a save --warmup 0 \
    -l "$COPY,dir=$B" --floor 10m --settle-max 5s --json "$t/c.json" 2>&1); rc=$?
  t_eq arm-exit "$rc" 0
  [ "$rc" = 0 ] || echo "  $(head -c 600 <<<"$out")"
  t_eq arm-settings "$(jq -r '.arms[1].settings' "$t/c.json")" "load:scheduler=$want"
  t_eq arm-label "$(jq -r '.arms[1].label' "$t/c.json")" "load:$want"
  t_eq arm-restored "$(sched "$qA") $(sched "$qB")" "$schedA $schedB"
  t_eq arm-areas-removed "$(areas)" ""
fi
