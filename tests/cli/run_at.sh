#!/bin/bash
# brisk run --at TIME:KEY=VALUE on a real loop device (root): the change
# happens mid-run as a new epoch, and everything is put back at the end —
# after a normal exit and after SIGINT; bad --at values change nothing.
# The scheduler switched to is bfq when the disk offers it, else another
# one (loop_alt_sched), with its tunables.
# shellcheck disable=SC2154  # d, L, dev, q: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
if ! is_root; then t_skip run-at "needs root (loop device, sysfs writes)"; exit 0; fi
loop_mount -s none run-at 256M
export BRISK_RUNTIME_DIR=$d/rt
loop_alt_sched "$dev" || { t_skip run-at "$dev offers no scheduler with tunables"; exit 0; }
orig_ra=$(cat $q/read_ahead_kb)
journals() { find "$BRISK_RUNTIME_DIR" -mindepth 1 -maxdepth 1 -name '*journal*' 2>/dev/null | wc -l; }
# the writer loops over a 64 MiB region: a writer that filled this small
# disk to the floor would end before the loaded phase (exit 1); as it never
# fills the dirty limits, the warm-up is capped so the loaded phase has
# begun by the first change at 1s
common=(-a 'ssh-like,save' -i 1 -n 2 --interval 50ms --floor 10% -q --load seq-write:size=64m
        --warmup 500ms)

# 1. Normal run: two changes, three epochs, all restored.
j=$("$BRISK" run "$d/mnt" "${common[@]}" -d 6s --at "1s:scheduler=$alt_sched" --at "2s:$alt_key2=$alt_val2" \
     --at 3s:read_ahead_kb=512 --json - 2>"$d/err"); rc=$?
t_eq "exit 0" "$rc" 0
t_eq "epochs" "$(jq -r '[.epochs[].label]|join(",")' <<<"$j")" "start,scheduler=$alt_sched,$alt_key2=$alt_val2,read_ahead_kb=512"
t_match "loaded samples in the $alt_sched epoch" "$(jq '[.samples[]|select(.epoch==1)]|length' <<<"$j")" '^[1-9]'
t_match "restore reported" "$(cat "$d/err")" "restored $dev scheduler=none \\(was $alt_sched\\)"
t_match "scheduler back" "$(cat $q/scheduler)" '^\[none\]'
t_eq "read_ahead_kb back" "$(cat $q/read_ahead_kb)" "$orig_ra"
t_eq "journal gone" "$(journals)" 0
t_eq "no work files left" "$(find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l)" 0

# 2. SIGINT mid-run, after the change: still reported and restored.
"$BRISK" run "$d/mnt" "${common[@]}" -d 30s -n 1000 --at 500ms:scheduler=kyber >"$d/out" 2>"$d/err" &
pid=$!
for _ in $(seq 100); do grep -qs kyber <(cat $q/scheduler | grep -o '\[kyber\]') && break; sleep 0.1; done
t_match "changed while running" "$(cat $q/scheduler)" '\[kyber\]'
t_eq "journal while running" "$(journals)" 1
kill -INT $pid; wait $pid; rc=$?
t_eq "SIGINT: exit 130" "$rc" 130
t_match "SIGINT: report printed" "$(cat "$d/out")" "scheduler=kyber"
t_match "SIGINT: scheduler back" "$(cat $q/scheduler)" '^\[none\]'
t_eq "SIGINT: journal gone" "$(journals)" 0

# 3. Bad --at: exit 2, nothing run, nothing changed or journaled.
bad() { # name regex args...
  local n=$1 re=$2; shift 2
  local err; err=$("$BRISK" run "$d/mnt" "${common[@]}" "$@" 2>&1 >/dev/null); local rc=$?
  t_eq "$n: exit 2" "$rc" 2; t_match "$n: message" "$err" "$re"
}
bad "unknown scheduler" "not offered" --at 1s:scheduler=cfq
bad "iosched of the wrong scheduler" "slice_idle" --at 1s:slice_idle=0
bad "negative number" "read_ahead_kb" --at 1s:read_ahead_kb=-1
bad "path escape" "never a path" --at "1s:../../../etc/x=1"
bad "bad time" "duration" --at "1x:scheduler=$alt_sched"
bad "no value" "TIME:KEY=VALUE" --at 1s:scheduler
t_match "bad: scheduler untouched" "$(cat $q/scheduler)" '^\[none\]'
t_eq "bad: no journal" "$(journals)" 0
t_eq "bad: no work files" "$(find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l)" 0
if command -v setpriv >/dev/null; then
  chmod 755 "$d"
  err=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$BRISK" run "$d/mnt" --at "1s:scheduler=$alt_sched" 2>&1); rc=$?
  t_eq "non-root: exit 4 (needs privileges)" "$rc" 4; t_match "non-root: says root" "$err" "needs root"
else
  t_skip "non-root" "setpriv is not installed"
fi

# 4. A profile's [settings] hold for the whole run (before the idle
#    baseline) and are put back at the end; --no-settings leaves them.
cat >"$d/exp.profile" <<P
[profile]
name = exp
[settings]
scheduler = $alt_sched
$alt_key = $alt_val
read_ahead_kb = 256
[action ssh]
type = ssh-like
P
"$BRISK" run "$d/mnt" --profile "$d/exp.profile" -i 1 -n 1 --no-load --floor 10% -q \
  --json "$d/exp.json" >"$d/out" 2>"$d/err" &
pid=$!
seen=""
for _ in $(seq 100); do
  grep -q "\[$alt_sched\]" $q/scheduler && seen=$(cat "$q/iosched/$alt_key" 2>/dev/null) && break
  sleep 0.05
done
wait $pid; rc=$?
t_eq "profile: exit 0" "$rc" 0
t_eq "profile: $alt_sched with $alt_key=$alt_val during the run" "$seen" "$alt_val"
t_match "profile: says what it set" "$(cat "$d/err")" "profile setting $dev scheduler=$alt_sched \\(was none\\)"
t_eq "profile: the JSON says what it set" "$(jq -r .profile_settings "$d/exp.json" 2>/dev/null)" \
  "scheduler=$alt_sched $alt_key=$alt_val read_ahead_kb=256"
# (an arm's settings: the scheduler first, then the others sorted)
t_eq "profile: brisk report makes it one arm" \
  "$("$BRISK" report "$d/exp.json" --json - 2>/dev/null | jq -r '.groups[0].arms[0].settings' 2>/dev/null)" \
  "scheduler=$alt_sched $(printf '%s\n' "$alt_key=$alt_val" read_ahead_kb=256 | LC_ALL=C sort | xargs)"
t_match "profile: scheduler back" "$(cat $q/scheduler)" '^\[none\]'
t_eq "profile: read_ahead_kb back" "$(cat $q/read_ahead_kb)" "$orig_ra"
t_eq "profile: journal gone" "$(journals)" 0
"$BRISK" run "$d/mnt" --profile "$d/exp.profile" --no-settings -i 1 -n 1 --no-load --floor 10% -q \
  --json "$d/noset.json" >/dev/null 2>"$d/err"
t_eq "profile --no-settings: exit 0" "$?" 0
t_eq "profile --no-settings: none in the JSON" "$(jq -r .profile_settings "$d/noset.json" 2>/dev/null)" null
t_eq "profile --no-settings: nothing said" "$(grep -c 'profile setting' "$d/err")" 0
printf '[profile]\nname = bad\n[settings]\nscheduler = cfq\n' >"$d/bad.profile"
err=$("$BRISK" run "$d/mnt" --profile "$d/bad.profile" -i 1 --no-load --floor 10% -q 2>&1 >/dev/null); rc=$?
t_eq "profile bad setting: exit 2" "$rc" 2
t_match "profile bad setting: names it" "$err" "cfq"
t_match "profile bad setting: scheduler untouched" "$(cat $q/scheduler)" '^\[none\]'
t_eq "profile bad setting: no journal" "$(journals)" 0

# 5. --at after a profile: an iosched key is checked against the scheduler
#    the profile sets, not the one in place before the run (none).
cat >"$d/exp-load.profile" <<P
[profile]
name = exp-load
runtime = 2s
[settings]
scheduler = $alt_sched
[load w]
rw = write
bs = 64k
size = 32m
[action ssh]
type = ssh-like
interval = 50ms
P
j=$("$BRISK" run "$d/mnt" --profile "$d/exp-load.profile" -i 1 --floor 10% -q \
     --at "500ms:$alt_key2=$alt_val2" --json - 2>"$d/err"); rc=$?
t_eq "profile+at: exit 0" "$rc" 0
t_eq "profile+at: epochs" "$(jq -r '[.epochs[].label]|join(",")' <<<"$j")" "start,$alt_key2=$alt_val2"
t_match "profile+at: scheduler back" "$(cat $q/scheduler)" '^\[none\]'
t_eq "profile+at: journal gone" "$(journals)" 0
err=$("$BRISK" run "$d/mnt" --profile "$d/exp-load.profile" -i 1 --floor 10% -q \
       --at "100ms:$alt_foreign=8" 2>&1 >/dev/null); rc=$?
t_eq "profile+at wrong scheduler's key: exit 2" "$rc" 2
t_match "profile+at wrong scheduler's key: message" "$err" "$alt_foreign.*refused on $dev"
t_match "profile+at wrong scheduler's key: untouched" "$(cat $q/scheduler)" '^\[none\]'
t_eq "profile+at wrong scheduler's key: no journal" "$(journals)" 0
# without the profile the same slice_idle is refused (none has no tunables)
bad "iosched without the profile's scheduler" "slice_idle" --at 1s:slice_idle=0
