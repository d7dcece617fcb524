#!/bin/bash
# brisk profile import on fio job files of our own (tests/fixtures/fio/):
# fio's syntax (inline comments, include, $VAR with --env, stonewall
# groups), the three groups of keys (honoured, harmless with a note,
# refused with FILE:LINE), --strict, and an asynchronous (io_uring) load
# actually running under `brisk run --fio` for a few seconds.  No root needed.
. tests/lib.sh
BRISK=${BRISK:-./brisk}
F=tests/fixtures/fio
T=$(t_tmpdir)

# import: stdout the profile, stderr the notes
imp() { $BRISK profile import "$@" >"$T/out" 2>"$T/err"; echo $?; }

# asynchronous loads: libaio and io_uring with their depths
t_eq async-exit "$(imp $F/async-depths.fio)" 0
t_eq async-depths "$(grep -E '^(ioengine|iodepth)' "$T/out" | tr '\n' ' ')" \
  "ioengine = io_uring iodepth = 4 ioengine = io_uring iodepth = 16 ioengine = io_uring iodepth = 8 "
t_match async-libaio-note "$(cat "$T/err")" "^$F/async-depths.fio:3: note: fio key 'ioengine=libaio' honoured"
t_match async-direct "$(cat "$T/out")" 'direct = 1'
$BRISK profile import $F/async-depths.fio -o "$T/async.profile" 2>/dev/null
t_match async-roundtrip "$($BRISK profile check "$T/async.profile")" 'ok: profile async-depths, 0 settings, 3 loads'

# stonewall groups; an inline comment after TAB (numjobs=2<TAB>; ...)
t_eq groups-exit "$(imp $F/groups.fio)" 0
t_match groups-note "$(cat "$T/err")" '4 stonewall groups .*imported group 1'
t_eq groups-first "$(grep -c '^\[load ' "$T/out") $(grep '^\[load ' "$T/out")" "1 [load seq-write]"
t_match groups-inline-comment "$(cat "$T/out")" 'numjobs = 2'
t_eq groups-third "$(imp $F/groups.fio --group 3) $(grep '^\[load ' "$T/out")" "0 [load seq-read]"
t_eq groups-past "$(imp $F/groups.fio --group 5)" 2
t_match groups-past-msg "$(cat "$T/err")" 'groups.fio:[0-9]+: the job file has 4 stonewall groups'

# harmless keys: accepted, one note each with FILE:LINE
t_eq harmless-exit "$(imp $F/harmless.fio)" 0
for k in group_reporting gtod_reduce=1 norandommap randrepeat=0 random_generator=lfsr unlink=1 filename=scratch-file; do
  t_match "harmless-note-${k%%=*}" "$(cat "$T/err")" "^$F/harmless.fio:[0-9]+: note: fio key '$k' accepted, changes nothing"
done
t_match harmless-filename-why "$(cat "$T/err")" 'brisk uses its own file in its work area'
t_match harmless-bssplit-write-part "$(cat "$T/out")" 'bssplit = 4k/20:64k/80'
t_match harmless-rate-write-part "$(cat "$T/out")" 'rate = 20m'
t_match harmless-bs-read-part "$(sed -n '/load reader/,$p' "$T/out")" 'bs = 128k'
t_eq strict-exit "$(imp --strict $F/harmless.fio)" 2
t_match strict-msg "$(cat "$T/err")" "^$F/harmless.fio:4: fio key 'group_reporting' cannot be honoured with --strict"

# include: relative to the job file; a loop refused at the include's FILE:LINE
t_eq include-exit "$(imp $F/include-main.fio)" 0
t_match include-runtime "$(cat "$T/out")" 'runtime = 15s'
t_match include-note-file "$(cat "$T/err")" "^$F/include-common.inc:5: note: fio key 'group_reporting'"
t_eq include-loop-exit "$(imp $F/include-loop-a.fio)" 2
t_match include-loop-msg "$(cat "$T/err")" "^$F/include-loop-b.inc:2: include include-loop-a.fio: .* already being read"

# $VAR: refused without --env; from the environment with it
t_eq env-without-exit "$(imp $F/env.fio)" 2
t_match env-without-msg "$(cat "$T/err")" "^$F/env.fio:3: environment variables .* without --env"
t_eq env-unset-exit "$(env -u BRISK_FIO_DIR $BRISK profile import --env $F/env.fio >/dev/null 2>"$T/err"; echo $?)" 2
t_match env-unset-msg "$(cat "$T/err")" 'BRISK_FIO_DIR is not set in the environment'
out=$(BRISK_FIO_DIR=/srv/fio BRISK_FIO_BS=64k BRISK_FIO_SIZE=16m $BRISK profile import --env $F/env.fio 2>&1)
t_match env-dir "$out" 'directory = /srv/fio'
t_match env-bs "$out" 'bs = 64k'
t_match env-size "$out" 'size = 16m'

# refused, with FILE:LINE and why
t_eq device-exit "$(imp $F/refused-device.fio)" 2
t_match device-msg "$(cat "$T/err")" "^$F/refused-device.fio:10: fio key 'filename=/dev/sda' cannot be honoured: it names a device node and brisk never writes devices"
t_eq zones-exit "$(imp $F/refused-zones.fio)" 2
t_match zones-msg "$(cat "$T/err")" "^$F/refused-zones.fio:4: fio key 'zonemode' cannot be honoured"
t_eq verify-exit "$(imp $F/refused-verify.fio)" 2
t_match verify-msg "$(cat "$T/err")" "^$F/refused-verify.fio:4: fio key 'verify' cannot be honoured: brisk does not check data; fio's verify reads back"
t_eq engine-exit "$(imp $F/refused-engine.fio)" 2
t_match engine-msg "$(cat "$T/err")" "^$F/refused-engine.fio:2: fio key 'ioengine=net' cannot be honoured: it is not file I/O"
t_eq nothing-written "$(wc -c <"$T/out")" 0

# bad options
t_eq bad-group "$(imp $F/groups.fio --group 0)" 2

# an asynchronous load running: brisk run --fio for a few seconds in a
# directory on a real disk; its spec says io_uring, it moved bytes, and
# the loaded ssh-like samples ran under it
D=$(t_tmpdir)
timeout 120 $BRISK run "$D" --fio $F/async-run.fio -i 2 --idle-max 3s --warmup 1s \
  --json "$T/run.json" >"$T/run.txt" 2>&1
t_eq run-exit $? 0
t_match run-report-harmless-note "$(sed -n '/^notes:/,$p' "$T/run.txt")" 'async-run\.fio:[0-9]+: note: .*norandommap'
t_match run-report-spec "$(cat "$T/run.txt")" 'load: rand-read:count=1,bs=4k,engine=io_uring,iodepth=8,size=32m'
if command -v jq >/dev/null; then
  t_eq run-json-spec "$(jq -r '.loads[0].spec' "$T/run.json")" 'rand-read:count=1,bs=4k,engine=io_uring,iodepth=8,size=32m'
  t_match run-json-bytes "$(jq -r '.loads[0].bytes' "$T/run.json")" '^[1-9][0-9]{5,}$'
  t_eq run-json-end "$(jq -r '.loads[0].end' "$T/run.json")" stopped
  t_eq run-json-error "$(jq -r '.loads[0].error' "$T/run.json")" null
  t_match run-json-harmless-note "$(jq -r '.notes[]' "$T/run.json")" 'async-run\.fio:[0-9]+: note: .*norandommap'
else
  t_skip run-json "jq is not installed"
fi
t_match run-loaded-samples "$(grep '^ssh-like  loaded' "$T/run.txt")" '^ssh-like +loaded +0 +3 '
t_eq run-cleaned "$(find "$D" -mindepth 1 | wc -l)" 0
