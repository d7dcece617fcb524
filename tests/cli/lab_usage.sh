#!/bin/bash
# brisk lab: usage, models, exit codes, root check (no lab disk is made).
source tests/lib.sh
source tests/cli/lab_common.bash
T=$(t_tmpdir) || exit 1
chmod 755 "$T"   # status is for everyone: let nobody read it
export BRISK_RUNTIME_DIR=$T/run

out=$("$BRISK" lab --help); rc=$?
t_eq "lab --help exits 0" "$rc" 0
t_match "lab --help shows up/down/status" "$out" "brisk lab up .*--model.*--size"
out=$("$BRISK" help lab); t_match "brisk help lab" "$out" "brisk lab down NAME"
t_match "brisk --help lists lab" "$("$BRISK" --help)" "lab +an emulated slow disk"

"$BRISK" lab frobnicate >/dev/null 2>&1; t_eq "unknown lab command exits 2" "$?" 2
"$BRISK" lab >/dev/null 2>&1; t_eq "bare 'brisk lab' exits 2" "$?" 2
err=$("$BRISK" lab up --size 1k 2>&1); rc=$?
t_eq "up --size 1k exits 2" "$rc" 2
t_match "up --size 1k says why" "$err" "bad --size '1k'"
err=$("$BRISK" lab up --model floppy 2>&1); rc=$?
t_eq "up --model floppy exits 2" "$rc" 2
t_match "up --model floppy names the table" "$err" "no model 'floppy' in .*lab-models.ini"
"$BRISK" lab up --name 'a/b' >/dev/null 2>&1; t_eq "up --name a/b exits 2" "$?" 2
"$BRISK" lab up --dirty-limit 1k >/dev/null 2>&1; t_eq "up --dirty-limit 1k exits 2" "$?" 2
"$BRISK" lab up stray >/dev/null 2>&1; t_eq "up with a stray argument exits 2" "$?" 2
"$BRISK" lab down >/dev/null 2>&1; t_eq "down without names exits 2" "$?" 2
"$BRISK" lab down --all lab0 >/dev/null 2>&1; t_eq "down --all with a name exits 2" "$?" 2

out=$("$BRISK" lab models); rc=$?
t_eq "lab models exits 0" "$rc" 0
for m in hdd-7200 hdd-5400 sd-card usb2-stick; do
  t_match "models lists $m" "$out" "^$m "
done
t_match "hdd-7200 numbers" "$out" "hdd-7200 +7200 +1.0ms +8.0ms +120MB"

bad=$T/bad.ini
printf '[x]\nrotational = 1\nrpm = 7200\nread_mb_s = 1\n' >"$bad"
err=$(BRISK_LAB_MODELS=$bad "$BRISK" lab models 2>&1); rc=$?
t_eq "a broken model table fails" "$rc" 1
t_match "a broken model table is named" "$err" "bad.ini: model \[x\] lacks"
err=$(BRISK_LAB_MODELS=$bad "$BRISK" lab up 2>&1); rc=$?
t_eq "up with a broken model table exits 2" "$rc" 2

out=$("$BRISK" lab status); rc=$?
t_eq "status with no labs exits 0" "$rc" 0
t_eq "status with no labs" "$out" "no lab disks"

if is_root && command -v setpriv >/dev/null; then
  err=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$BRISK" lab up 2>&1); rc=$?
  t_eq "up without root exits 4" "$rc" 4
  t_match "up without root says so" "$err" "needs root"
  err=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$BRISK" lab down --all 2>&1); rc=$?
  t_eq "down without root exits 4" "$rc" 4
  out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$BRISK" lab status 2>&1); rc=$?
  t_eq "status works without root" "$rc" 0
elif ! is_root; then
  err=$("$BRISK" lab up 2>&1); rc=$?
  t_eq "up without root exits 4" "$rc" 4
  t_match "up without root says so" "$err" "needs root"
else
  t_skip "up without root" "no setpriv to drop root"
fi
