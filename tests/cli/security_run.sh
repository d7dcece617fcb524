#!/bin/bash
# brisk run's part-5 holes of issue 11: absurd sizes are bad input (no
# wrap-around in the free-space check), every process brisk starts dies
# with it (the exec action's program too), a load that cannot start makes
# the run fail, and DIR on /proc or /sys is refused as bad input.
source tests/lib.sh

d=$(t_tmpdir)
touch "$d/keep-me"
args=(-q -a save -i 1 -n 1 --interval 10ms --warmup 200ms -d 1s --tick 100ms)

# sizes from user input are overflow-checked
for spec in 'rand-write:size=4611686018427387904,count=4' \
            'rand-write:size=9223372036854775808,count=2' 'seq-write:total=2000000t'; do
  err=$($BRISK run "$d" "${args[@]}" --floor 0 --load "$spec" 2>&1 >/dev/null); rc=$?
  t_eq "absurd-size-exit-2 ($spec)" "$rc" 2
  t_match "absurd-size-message ($spec)" "$err" "absurd"
done
t_eq absurd-size-nothing-made "$(ls -A "$d")" keep-me

# /proc and /sys hold no files of ours and have no block device
for p in /proc /sys; do
  err=$($BRISK run "$p" "${args[@]}" --no-load 2>&1 >/dev/null); rc=$?
  t_eq "pseudo-fs-exit-2 ($p)" "$rc" 2
  t_match "pseudo-fs-message ($p)" "$err" "no block device behind $p"
done

# the exec action's program dies with brisk (SIGKILL: no cleanup runs)
dur=27.$RANDOM$$
$BRISK run "$d" -q --no-load -a exec -i 3 --interval 10ms --timeout 60s --exec "sleep $dur" \
  >/dev/null 2>&1 &
bpid=$!
found=
for _ in $(seq 100); do
  found=$(pgrep -f "sleep $dur\$") && break
  sleep 0.1
done
t_match exec-program-started "$found" '^[0-9]+'
kill -9 "$bpid"; wait "$bpid" 2>/dev/null
left=
for _ in $(seq 20); do
  left=$(pgrep -f "sleep $dur\$") || break
  sleep 0.1
done
t_eq exec-program-dies-with-brisk "$left" ""
for p in $left; do kill "$p"; done    # only the test's own leftovers
# the killed run's directory is reaped by the next run
$BRISK run "$d" -q --no-load -a save -i 1 --interval 10ms >/dev/null 2>&1
t_eq killed-run-reaped "$(ls -A "$d")" keep-me

# a load that cannot start (realtime I/O priority without privileges) is an
# error: the report says so, the run stops rather than sample an idle disk
if ! is_root; then
  as_user() { "$@"; }
elif id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
  as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
else
  t_skip load-cannot-start "no 'nobody' user or setpriv to drop root"; exit 0
fi
w=$d/w
mkdir -m 755 "$w"; chmod 755 "$d"
is_root && chown nobody "$w"
as_user test -w "$w" || { t_skip load-cannot-start "$w is not writable for the test user"; exit 0; }
out=$(as_user $BRISK run "$w" "${args[@]}" --load seq-write:ionice=rt/0 --json - 2>"$d/err"); rc=$?
t_eq load-cannot-start-exit-1 "$rc" 1
t_match load-cannot-start-message "$(cat "$d/err")" 'failed or could not start'
t_match load-cannot-start-reported "$(jq -r '.notes[]' <<<"$out")" 'Operation not permitted'
t_eq load-cannot-start-no-loaded-samples "$(jq '[.samples[]|select(.phase=="loaded")]|length' <<<"$out")" 0
t_eq load-cannot-start-cleanup "$(ls -A "$w")" ""
# asked for no load: fine
as_user $BRISK run "$w" "${args[@]}" --no-load >/dev/null 2>&1
t_eq no-load-exit-0 "$?" 0
