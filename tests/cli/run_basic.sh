#!/bin/bash
# brisk run with tiny sizes on a real directory: sample counts, reports,
# cold flags, cleanup, bad input.
source tests/lib.sh

$BRISK run --help | grep -q -- '--drop-caches'; t_eq run-help $? 0
$BRISK help run >/dev/null; t_eq help-run $? 0
out=$($BRISK --help); t_match main-help-lists-run "$out" '^  run '

# no command and no terminal (a pipe, cron): a one-line usage, exit 2, and
# nothing written into the current directory
nd=$(t_tmpdir)
err=$(cd "$nd" && $BRISK </dev/null 2>&1 >/dev/null); rc=$?
t_eq no-command-no-tty-exit-2 "$rc" 2
t_match no-command-no-tty-usage "$err" "^usage: brisk COMMAND \[ARGS\] +\(no terminal: name a command"
t_eq no-command-no-tty-writes-nothing "$(ls -A "$nd")" ""

d=$(t_tmpdir)
touch "$d/keep-me"; mkdir "$d/keep-dir"; echo data > "$d/keep-dir/f"
before=$(cd "$d" && find . -mindepth 1 -printf '%p %s %T@\n' | sort)

# bad input: exit 2, nothing created
for bad in "--load seq-frobnicate" "--load seq-write:count=0" "--actions dance" \
           "--samples x" "--interval 5parsecs" "--jitter 101" "--timeout 0" \
           "--floor 150%" "--no-load --load seq-write" "$d/keep-me" "$d/missing" \
           "--json - --csv -" "$d $d" "--tick 1ms" "--bogus"; do
  # shellcheck disable=SC2086
  err=$($BRISK run $bad -q 2>&1 >/dev/null); rc=$?
  t_eq "bad-input-exit-2 ($bad)" "$rc" 2
done
err=$($BRISK run "$d" --load 'rand-read:bs=9k,direct' 2>&1); t_match bad-input-names-value "$err" "rand-read:bs=9k,direct"
t_eq bad-input-leaves-nothing "$(cd "$d" && find . -mindepth 1 -printf '%p %s %T@\n' | sort)" "$before"

# a small full run: 2 idle + 3 loaded samples of each action
args=(-q -i 2 -n 3 --interval 20ms --warmup 1s --ls-files 60 --load seq-write:rate=40m)
out=$($BRISK run "$d" "${args[@]}" --json "$d/../r.json" --csv "$d/../r.csv"); rc=$?
t_eq run-exit-0 "$rc" 0
json=$(cat "$d/../r.json"); csv=$(cat "$d/../r.csv"); rm -f "$d/../r.json" "$d/../r.csv"
t_check json-valid jq -e . <<<"$json"
for a in exec ls ssh-like save; do
  t_eq "idle-samples-$a" "$(jq "[.samples[]|select(.action==\"$a\" and .phase==\"idle\")]|length" <<<"$json")" 2
  t_eq "loaded-samples-$a" "$(jq "[.samples[]|select(.action==\"$a\" and .phase==\"loaded\")]|length" <<<"$json")" 3
  t_match "text-row-$a" "$out" "^$a +loaded +0 +3 "
done
t_eq csv-rows "$(tail -n +2 <<<"$csv" | wc -l)" 20
t_match csv-header "$(head -1 <<<"$csv")" '^t_s,epoch,phase,action,ms,cold,timeout,error(,split_[a-z_]+)+$'
t_eq no-sample-errors "$(jq '[.samples[]|select(.error!=0)]|length' <<<"$json")" 0
# cold flags as they must be without --drop-caches: files cold, ls warm
t_eq ssh-cold "$(jq '[.samples[]|select(.action=="ssh-like" and .cold)]|length' <<<"$json")" 5
t_eq save-cold "$(jq '[.samples[]|select(.action=="save" and .cold)]|length' <<<"$json")" 5
t_eq ls-warm "$(jq '[.samples[]|select(.action=="ls" and .cold)]|length' <<<"$json")" 0
t_match ls-warm-note "$out" 'ls: warm: dentries and inodes stay cached'
# figures agree with the raw samples
p50=$(jq '.actions[]|select(.action=="save" and .phase=="idle")|.p50_ms' <<<"$json")
raw=$(jq '[.samples[]|select(.action=="save" and .phase=="idle")|.ms]|add/2' <<<"$json")
t_check json-p50-from-samples awk -v a="$p50" -v b="$raw" 'BEGIN{exit !(a-b<1e-6 && b-a<1e-6)}'
t_match json-slowdown "$(jq '.actions[]|select(.action=="save" and .phase=="loaded")|.slowdown_p50' <<<"$json")" '^[0-9.e+-]+$'
t_eq json-load-end "$(jq -r '.loads[0].end' <<<"$json")" stopped
t_check json-load-bytes jq -e '.loads[0].bytes > 0 and (.loads[0].timeline|length) >= 1' <<<"$json"
t_check json-system jq -e '(.system|length) >= 1 and (.system[0].devices|length) >= 1' <<<"$json"
t_match text-load-row "$out" '^seq-write#1 +[0-9.]+ '
t_match text-device "$out" '^[a-z0-9]+ +loaded +[0-9]'
# rate limit honoured (40 MiB/s, within 20 %)
t_check load-rate-limit jq -e '.loads[0].mib_s < 48' <<<"$json"
t_eq cleanup-complete "$(cd "$d" && find . -mindepth 1 -printf '%p %s %T@\n' | sort)" "$before"

# idle only; one action; a program that fails is reported, not hidden
out=$($BRISK run "$d" -q --no-load -a exec -i 3 --interval 10ms --exec false --json -); rc=$?
t_eq noload-exit-0 "$rc" 0
t_eq noload-samples "$(jq '.samples|length' <<<"$out")" 3
t_eq exec-status-recorded "$(jq '[.samples[]|select(.error==1001)]|length' <<<"$out")" 3
t_eq noload-no-loads "$(jq '.loads|length' <<<"$out")" 0

# the watchdog: a sample past --timeout is killed and counted, not dropped
out=$($BRISK run "$d" -q --no-load -a exec -i 2 --interval 10ms --exec 'sleep 4.321' --timeout 300ms --json -)
t_eq watchdog-timeouts "$(jq '[.samples[]|select(.timeout)]|length' <<<"$out")" 2
t_eq watchdog-ms "$(jq '[.samples[].ms]|unique' -c <<<"$out")" '[300]'
t_eq watchdog-in-stats "$(jq '.actions[0].timeouts' <<<"$out")" 2
sleep 0.2
t_eq watchdog-killed-program "$(pgrep -f '^sleep 4.321$' | wc -l)" 0
t_eq cleanup-after-idle-runs "$(cd "$d" && find . -mindepth 1 -printf '%p %s %T@\n' | sort)" "$before"

# --drop-caches: root makes ls cold; without root it is refused (exit 2)
if is_root; then
  out=$($BRISK run "$d" -q --no-load -a ls,ssh -i 2 --interval 10ms --ls-files 40 --drop-caches --json -)
  t_eq drop-caches-ls-cold "$(jq '[.samples[]|select(.action=="ls" and .cold)]|length' <<<"$out")" 2
  t_eq drop-caches-ssh-cold "$(jq '[.samples[]|select(.action=="ssh-like" and .cold)]|length' <<<"$out")" 2
else
  t_skip drop-caches-ls-cold "needs root"
  t_skip drop-caches-ssh-cold "needs root"
fi

# progress on stderr only when it is a terminal
if command -v script >/dev/null; then
  tty_out=$(script -qec "$BRISK run '$d' --no-load -a save -i 3 --interval 700ms --tick 200ms" /dev/null 2>&1)
  t_match progress-on-tty "$tty_out" 'run: idle  samples [0-9]+/3  ETA [0-9]+:[0-9]{2}'
  plain=$($BRISK run "$d" --no-load -a save -i 2 --interval 300ms --tick 100ms 2>&1 >/dev/null)
  t_eq no-progress-when-not-a-tty "$plain" ""
else
  t_skip progress-on-tty "no script(1) to provide a terminal"
fi
