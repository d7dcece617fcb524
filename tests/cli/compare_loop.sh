#!/bin/bash
# brisk compare on a real loop device (root): arms applied and put back
# after each arm-run, every arm once per round, the outputs; SIGINT in the
# middle of a round restores and removes the files; a bad arm, or a
# scheduler the disk lacks, is refused before anything starts.  The arms
# switch to bfq when the disk offers it, else to another scheduler
# (loop_alt_sched).
# shellcheck disable=SC2154  # d, L, dev, q: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
if ! is_root; then t_skip compare-loop "needs root (loop device, sysfs writes)"; exit 0; fi
loop_mount -s none compare-loop 256M
export BRISK_RUNTIME_DIR=$d/rt
loop_alt_sched "$dev" || { t_skip compare-loop "$dev offers no scheduler with tunables"; exit 0; }
# the third arm's scheduler: kyber, or mq-deadline when kyber is the other one
third=kyber; [ "$alt_sched" = kyber ] && third=mq-deadline
orig_ra=$(cat $q/read_ahead_kb)
journals() { find "$BRISK_RUNTIME_DIR" -maxdepth 1 -name '*journal*' 2>/dev/null | wc -l; }
workfiles() { find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l; }
w=(-l "seq-write:size=48m,rate=16m" -a "ssh-like,save" --ls-files 50 --interval 50ms --warmup 1s
   --floor 10% --settle-max 10s -n 2)

# 1. Two rounds of three arms: each arm once per round, rotated; the
#    settings of an arm hold during its run and are put back after it.
j=$(BRISK_DEBUG=session,journal "$BRISK" compare "$d/mnt" current "scheduler=$alt_sched,$alt_key=$alt_val" \
      "scheduler=$third,read_ahead_kb=512" -r 2 --seed 7 "${w[@]}" --json "$d/c.json" \
      --csv "$d/c.csv" 2>"$d/err"); rc=$?
t_eq "exit 0" "$rc" 0
t_eq "three arms" "$(jq '.arms|length' "$d/c.json")" 3
t_eq "six arm-runs" "$(jq '.runs|length' "$d/c.json")" 6
t_eq "racing by default; two rounds: no race look, out of rounds" \
  "$(jq -c '[.race.racing, .race.looks, .race.end, [.race.arms[].runs]]' "$d/c.json")" \
  '[true,0,"budget",[2,2,2]]'
t_eq "every arm once per round" \
  "$(jq -c '[.runs[]|[.round,.arm]]|group_by(.[0])|map(map(.[1])|sort)' "$d/c.json")" '[[0,1,2],[0,1,2]]'
t_eq "the order rotates" \
  "$(jq -c '[.runs[]|select(.order==0)|.arm]|unique|length' "$d/c.json")" 2
t_match "samples carry arm, round and order" \
  "$(jq -c '.samples[0]|[has("arm"),has("round"),has("order")]' "$d/c.json")" 'true,true,true'
t_eq "samples per arm and action: 2 rounds x 2" \
  "$(jq -c '[.samples[]|select(.arm==1 and .action=="ssh-like")]|length' "$d/c.json")" 4
t_match "the text report has the arms" "$j" "$alt_key=$alt_val"
t_match "the text report has a verdict column" "$j" "verdict"
# root without sudo: the samples ran as nobody, and both reports say so
nob=$(id -u nobody 2>/dev/null || echo 65534)
t_match "the text report says who the actions ran as" "$j" "^actions ran as uid $nob \(nobody\), without privileges"
t_eq "the JSON too" "$(jq -c '[.ran_as.uid, .ran_as.privileged]' "$d/c.json")" "[$nob,false]"
t_match "CSV header" "$(head -1 "$d/c.csv")" '^arm,'
t_eq "CSV: one row per sample" "$(($(wc -l <"$d/c.csv") - 1))" "$(jq '.samples|length' "$d/c.json")"
# every arm-run of an arm with settings is followed by a restore before the
# next arm-run starts (the trace orders them)
seq=$(grep -oE 'compare: round [0-9]+, arm [0-9]|restore [^ ]+ [a-z0-9]+ scheduler=' "$d/err" |
      sed -E 's/compare: round [0-9]+, arm /A/; s/restore .*/R/' | tr -d '\n')
t_match "each changed arm-run is put back before the next" "$seq" '^(A0|A[12]R)+$'
t_eq "restores: one per changed arm-run" "$(grep -o R <<<"$seq" | wc -l)" 4
t_match "scheduler back" "$(cat $q/scheduler)" '^\[none\]'
t_eq "read_ahead_kb back" "$(cat $q/read_ahead_kb)" "$orig_ra"
t_eq "journal gone" "$(journals)" 0
t_eq "no work files left" "$(workfiles)" 0

# 2. SIGINT in the middle of a round: the report still comes, the arm's
#    settings are put back, the files are removed, exit 130.
"$BRISK" compare "$d/mnt" current "scheduler=$alt_sched" -r 10 "${w[@]}" -n 50 >"$d/out" 2>"$d/err" &
pid=$!
for _ in $(seq 300); do grep -q "\[$alt_sched\]" $q/scheduler && [ "$(workfiles)" != 0 ] && break; sleep 0.05; done
t_match "$alt_sched while its arm runs" "$(cat $q/scheduler)" "\[$alt_sched\]"
sleep 1
kill -INT $pid; wait $pid; rc=$?
t_eq "SIGINT: exit 130" "$rc" 130
t_match "SIGINT: report printed" "$(cat "$d/out")" "$alt_sched"
t_match "SIGINT: scheduler back" "$(cat $q/scheduler)" '^\[none\]'
t_eq "SIGINT: journal gone" "$(journals)" 0
t_eq "SIGINT: no work files left" "$(workfiles)" 0

# 3. Bad arms: exit 2, nothing run, changed or journaled.
bad() { # name regex args...
  local n=$1 re=$2; shift 2
  local err; err=$("$BRISK" compare "$d/mnt" "${w[@]}" -r 1 "$@" 2>&1 >/dev/null); local rc=$?
  t_eq "$n: exit 2" "$rc" 2; t_match "$n: message" "$err" "$re"
}
bad "a scheduler the disk lacks" "cfq.*not offered" current scheduler=cfq
bad "iosched key of another scheduler" "slice_idle" current scheduler=kyber,slice_idle=0
bad "not KEY=VALUE" "KEY=VALUE" current "scheduler=$alt_sched,$alt_key"
bad "unknown profile" "neither" current no-such-profile-here
bad "one arm" "at least two arms" current
bad "the same key twice" "twice" current "scheduler=$alt_sched,scheduler=$third"
bad "bad plot name" "svg or .png" current "scheduler=$alt_sched" --plot "$d/x.pdf"
t_match "bad: scheduler untouched" "$(cat $q/scheduler)" '^\[none\]'
t_eq "bad: no journal" "$(journals)" 0
t_eq "bad: no work files" "$(workfiles)" 0
if command -v setpriv >/dev/null; then
  chmod 755 "$d"
  err=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$BRISK" compare "$d/mnt" current \
        "scheduler=$alt_sched" -r 1 2>&1); rc=$?
  t_eq "non-root: exit 4 (needs privileges)" "$rc" 4; t_match "non-root: says root" "$err" "needs root"
else
  t_skip "non-root" "setpriv is not installed"
fi

# 4. SIGKILL in the middle of an arm-run of the other scheduler: the journal keeps the
#    original, and brisk restore puts it back.
"$BRISK" compare "$d/mnt" current "scheduler=$alt_sched" -r 10 "${w[@]}" -n 50 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do grep -q "\[$alt_sched\]" $q/scheduler && break; sleep 0.05; done
kill -9 $pid; wait $pid 2>/dev/null
t_match "SIGKILL: still $alt_sched" "$(cat $q/scheduler)" "\[$alt_sched\]"
t_eq "SIGKILL: journal left" "$(journals)" 1
out=$("$BRISK" restore 2>&1)
t_match "SIGKILL: brisk restore names it" "$out" "$dev scheduler=none"
t_match "SIGKILL: restored" "$(cat $q/scheduler)" '^\[none\]'
t_eq "SIGKILL: journal gone after restore" "$(journals)" 0

# 5. --schedulers: current first, then every other scheduler the disk offers.
offered=$(tr -d '[]' <$q/scheduler | wc -w)
export XDG_CONFIG_HOME=$d/config
"$BRISK" compare "$d/mnt" --schedulers -r 1 "${w[@]}" -n 1 -q --json "$d/s.json" \
  --plot "$d/s.svg" --no-racing >/dev/null 2>"$d/err"
rc=$?
t_eq "--schedulers: exit 0" "$rc" 0
t_eq "--no-racing: the race is off" "$(jq -c '[.race.racing, .race.end]' "$d/s.json")" '[false,"off"]'
[ "$rc" = 0 ] || sed 's/^/  stderr: /' "$d/err"
t_match "--plot: an SVG" "$(head -c 300 "$d/s.svg")" '<svg'
if command -v xmllint >/dev/null; then
  t_check "--plot: the SVG parses as XML" xmllint --noout "$d/s.svg"
else
  t_skip "--plot: XML check" "xmllint is not installed"
fi
# one round gives no verdict: --save has no winner to save, says so, exit 0
# (a comparison without a winner is a result: brisk(1) EXIT STATUS)
err=$("$BRISK" compare "$d/mnt" current "scheduler=$alt_sched" -r 1 "${w[@]}" -n 1 -q --save cmp-test \
      2>&1 >/dev/null); rc=$?
t_eq "--save without a winner: exit 0" "$rc" 0
t_match "--save without a winner: says so" "$err" "recommend"
t_eq "--save without a winner: no profile" "$(ls "$XDG_CONFIG_HOME/brisk/profiles" 2>/dev/null | wc -l)" 0
t_eq "--schedulers: arms" "$(jq '.arms|length' "$d/s.json")" "$offered"
t_eq "--schedulers: baseline is current" "$(jq -r '.arms[0].name' "$d/s.json")" current
t_match "--schedulers: scheduler back" "$(cat $q/scheduler)" '^\[none\]'
t_eq "--schedulers: journal gone" "$(journals)" 0
t_eq "the killed run's work area is reaped by the next run" "$(workfiles)" 0
