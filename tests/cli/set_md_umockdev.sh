#!/bin/bash
# umockdev testbed (tests/fixtures/tune-md-raid1.umockdev): md0 is a RAID1
# of two SATA disks sda and sdb, sdc is outside it.  A stack-wide set on
# md0 writes to both members and to nothing else; restore puts the files
# back byte for byte; devices outside the stack are refused.
# (umockdev-run does not redirect /proc/self/mountinfo, so the stack is
# addressed by device here; tests/cli/set_loop.sh covers real sysfs.)
source tests/lib.sh
FIX=$PWD/tests/fixtures/tune-md-raid1.umockdev
t_umockdev || { t_skip set_md_umockdev "$T_UMOCKDEV_WHY"; exit 0; }
if ! is_root; then t_skip set_md_umockdev "brisk set writes only as root"; exit 0; fi
source tests/helpers/set_lib.sh
T=$(t_tmpdir)
# in_bed SCRIPT: run bash SCRIPT inside a fresh testbed; T and BRISK exported
# (t_umockdev exported ASAN_OPTIONS for an ASan build)
in_bed() {
  T=$T BRISK=$BRISK umockdev-run -d "$FIX" -- bash -c "$1"
}
# every attribute file of the testbed as PATH:VALUE lines (values, not
# bytes: a testbed file keeps no trailing newline once written)
SUMS='(cd "$UMOCKDEV_DIR/sys" && grep -r "" . | sort)'

in_bed "$SUMS >\$T/before; \$BRISK set md0 scheduler=bfq read_ahead_kb=512 nr_requests=128 queue_depth=16 >\$T/out 2>&1; echo \$? >\$T/rc; $SUMS >\$T/after; \$BRISK get md0 >\$T/get 2>&1; for f in \"\$UMOCKDEV_DIR\"/sys/block/sd[abc]/queue/scheduler; do echo \$(cat \$f); done >\$T/sched" \
  || { t_skip set_md_umockdev "umockdev testbed did not run"; exit 0; }
t_eq "set md0: exit" "$(cat $T/rc)" 0
changed=$(diff $T/before $T/after | sed -n 's/^> //p' | sed -E 's|:[^:/]*$||; s|.*/block/(sd[a-z])/queue/|\1 |; s|.*/([0-9]):0:0:0/queue_depth|\1 queue_depth|' | sort | tr '\n' ',')
t_eq "writes to both members and nothing else" "$changed" \
  "0 queue_depth,1 queue_depth,sda nr_requests,sda read_ahead_kb,sda scheduler,sdb nr_requests,sdb read_ahead_kb,sdb scheduler,"
t_eq "schedulers written" "$(cat $T/sched | tr '\n' ',')" "bfq,bfq,none [mq-deadline] kyber bfq,"
get=$(cat $T/get)
t_match "get md0: sda read_ahead_kb" "$get" "sda read_ahead_kb=512"
t_match "get md0: sdb read_ahead_kb" "$get" "sdb read_ahead_kb=512"
t_match "get md0: sdb queue_depth" "$get" "sdb queue_depth=16"
t_eq "get md0: sdc not shown" "$(grep -c '^sdc' $T/get)" 0
j=$(cat "$BRISK_RUNTIME_DIR"/session-*.journal 2>/dev/null)
t_eq "journal: members only" "$(echo "$j" | awk '$1=="orig"{print $2}' | sort -u | tr '\n' ' ')" "sda sdb "
t_match "journal: sda scheduler" "$j" "orig sda - scheduler - - mq-deadline"
rm -f "$BRISK_RUNTIME_DIR"/session-*.journal

# numbers, then restore: every value in the testbed comes back
in_bed "$SUMS >\$T/before2; \$BRISK set md0 read_ahead_kb=1024 nr_requests=32 fifo_batch=4 >\$T/out2 2>&1; $SUMS >\$T/mid2; \$BRISK restore >\$T/restore2 2>&1; echo \$? >\$T/rc2; $SUMS >\$T/after2"
t_eq "restore in testbed: exit" "$(cat $T/rc2)" 0
t_eq "set changed 6 files" "$(diff $T/before2 $T/mid2 | grep -c '^>')" 6
t_eq "restore: every value back" "$(diff $T/before2 $T/after2 && echo same)" same
t_match "restore: reports sdb" "$(cat $T/restore2)" "restored sdb iosched/fifo_batch=16"

# devices outside the stack, and md0 itself
in_bed "$SUMS >\$T/before3; \$BRISK set -d sdc md0 read_ahead_kb=64 >\$T/out3 2>&1; echo \$? >\$T/rc3; \$BRISK set -d md0 md0 read_ahead_kb=64 >\$T/out4 2>&1; echo \$? >\$T/rc4; \$BRISK set -d sdb md0 read_ahead_kb=64 >\$T/out5 2>&1; $SUMS >\$T/after3"
t_eq "-d sdc: exit 2" "$(cat $T/rc3)" 2
t_match "-d sdc: message" "$(cat $T/out3)" "sdc is not in the stack behind md0 \(its disks: sda sdb\)"
t_eq "-d md0: exit 2" "$(cat $T/rc4)" 2
t_match "-d md0: message" "$(cat $T/out4)" "md0 has no queue settings of its own; they live on its disks: sda sdb"
t_eq "-d sdb: only sdb written" "$(diff $T/before3 $T/after3 | sed -n 's|^> .*/block/\(sd[a-z]\)/queue/\(.*\)|\1 \2|p')" "sdb read_ahead_kb:64"
rm -f "$BRISK_RUNTIME_DIR"/session-*.journal
