#!/bin/bash
# brisk run --openmetrics FILE (issue 16): a short real run on a temporary
# directory writes the key figures, validated by real parsers (promtool
# check metrics, Python prometheus_client's OpenMetrics parser: see
# openmetrics_common.bash); the figures match the run's JSON; a loaded run
# adds slowdown, load and system figures; "-" is stdout; a directory whose
# name holds a quote, a backslash, a newline, control bytes and invalid
# UTF-8 is escaped as the spec says; only a regular file is replaced.
# No root needed.
source tests/lib.sh
source tests/cli/openmetrics_common.bash
command -v jq >/dev/null || { t_skip openmetrics-run "needs jq"; exit 0; }
d=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$d/rt
mkdir "$d/w"
quick=(-q --no-load -a "ls,save" -i 3 -n 3 --max-time 20 --ls-files 50)

# 1. the short idle run: exit 0, a valid file that ends in # EOF
t0=$(date +%s)
"$BRISK" run "$d/w" "${quick[@]}" --openmetrics "$d/run.prom" --json "$d/run.json" >"$d/out" 2>"$d/err"
rc=$?; t1=$(date +%s)
t_eq "run: exit 0" "$rc" 0
t_eq "run: # EOF is the last line" "$(tail -n 1 "$d/run.prom")" "# EOF"
t_eq "run: one # EOF" "$(grep -c '^# EOF$' "$d/run.prom")" 1
t_eq "run: no blank line" "$(grep -c '^$' "$d/run.prom")" 0
t_match "run: the text report still on stdout" "$(cat "$d/out")" '^brisk .* run on '
om_check "run" "$d/run.prom"
t_eq "run: no temporary file left" "$(find "$d" -maxdepth 1 -name 'run.prom.tmp*' | wc -l)" 0
t_eq "run: mode 0644" "$(stat -c %a "$d/run.prom")" 644
# every family a gauge; # TYPE, # UNIT, # HELP before the samples
t_eq "run: gauges only" "$(grep '^# TYPE' "$d/run.prom" | grep -vc ' gauge$')" 0
t_eq "run: no sample has a timestamp (name{labels} value, nothing after)" \
  "$(grep -v '^#' "$d/run.prom" | sed -E 's/^[a-z_]+(\{.*\})? //' | grep -c ' ')" 0
t_eq "run: no quantile label (promtool refuses it on a gauge)" "$(grep -c 'quantile=' "$d/run.prom")" 0

if [ -n "$OM_PY" ]; then
  j=$d/run.json
  dir=$(cd "$d/w" && pwd -P)
  sel='.action == "ls" and .phase == "idle" and .epoch == "0"'
  t_eq "run: brisk_info names the command and dir" \
    "$(om_value "$d/run.prom" brisk_info '.command == "run" and .dir == "'"$dir"'"')" 1
  got=$(om_value "$d/run.prom" brisk_action_latency_seconds "$sel and .stat == \"p50\"")
  want=$(jq -r '.actions[]|select(.action=="ls" and .phase=="idle")|.p50_ms/1000' "$j")
  t_check "run: p50 in seconds ($got) = the JSON's p50_ms / 1000 ($want)" \
    awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(a > 0 && d * d < 1e-18) }'
  t_eq "run: samples = the JSON's n" \
    "$(om_value "$d/run.prom" brisk_action_samples "$sel")" \
    "$(jq -r '.actions[]|select(.action=="ls" and .phase=="idle")|.n' "$j")"
  t_eq "run: the labels of a row" \
    "$(om_parse "$d/run.prom" | jq -r 'select(.family=="brisk_action_latency_seconds")|.labels|keys_unsorted|join(",")' | sort -u)" \
    "dir,device,model,scheduler,action,phase,epoch,stat"
  t_eq "run: device = the JSON's machine disks" \
    "$(om_parse "$d/run.prom" | jq -r 'select(.family=="brisk_action_samples")|.labels.device' | head -1)" \
    "$(jq -r '[.machine.disks[].name]|join(",")' "$j")"
  ts=$(om_value "$d/run.prom" brisk_run_timestamp_seconds 'true')
  t_check "run: the timestamp is the end of the run ($ts in [$t0, $t1])" \
    awk -v t="$ts" -v a="$t0" -v b="$t1" 'BEGIN { exit !(t >= a && t <= b + 1) }'
  t_eq "run: no slowdown without a loaded phase (left out, not 0)" \
    "$(om_parse "$d/run.prom" | jq -r 'select(.family=="brisk_action_slowdown_ratio")' | wc -l)" 0
  t_eq "run: a grade per action, one state set" \
    "$(om_parse "$d/run.prom" | jq -r 'select(.family=="brisk_action_grade" and .value==1)|.labels.action' | sort | tr '\n' ' ')" \
    "ls save "
  t_eq "run: units named in the file" \
    "$(grep -c '^# UNIT brisk_action_latency_seconds seconds$' "$d/run.prom")" 1
else
  t_skip "run: figures against the JSON" "Python's prometheus_client is not installed"
fi

# 2. a loaded run: slowdown, the load's throughput and stall, PSI and dirty
"$BRISK" run "$d/w" -q -a save -l seq-write:size=32m,rate=32m -i 2 -n 2 --warmup 500ms -d 3s \
  --interval 50ms --tick 100ms --floor 1% --openmetrics "$d/load.prom" --json "$d/load.json" >/dev/null 2>"$d/err"
t_eq "loaded: exit 0" "$?" 0
om_check "loaded" "$d/load.prom"
for fam in brisk_action_slowdown_ratio brisk_load_throughput_bytes_per_second \
           brisk_load_worst_stall_seconds brisk_load_bytes brisk_system_dirty_peak_bytes; do
  t_match "loaded: $fam" "$(grep "^$fam{" "$d/load.prom" | head -1)" "^$fam\\{.*\\} [0-9]"
done
if [ -n "$OM_PY" ]; then
  t_eq "loaded: the load's bytes = the JSON's" \
    "$(om_value "$d/load.prom" brisk_load_bytes '.load == "1" and .kind == "seq-write"')" \
    "$(jq -r '.loads[0].bytes' "$d/load.json")"
else
  t_skip "loaded: the load's bytes = the JSON's" "Python's prometheus_client is not installed"
fi
if [ -r /proc/pressure/io ]; then
  t_match "loaded: PSI io full per phase" "$(grep '^brisk_system_psi_io_full_ratio{' "$d/load.prom")" \
    'phase="(warm-up|loaded)"\} [0-9]'
else
  t_skip "loaded: PSI io full per phase" "no /proc/pressure/io here"
fi

# 3. "-" is standard output, without the text report; one stdout at most
out=$("$BRISK" run "$d/w" -q --no-load -a save -i 1 --openmetrics - 2>"$d/err"); rc=$?
t_eq "stdout: exit 0" "$rc" 0
t_match "stdout: the metrics, no text report" "$(head -1 <<<"$out")" '^# TYPE brisk_info gauge$'
t_eq "stdout: ends in # EOF" "$(tail -n 1 <<<"$out")" "# EOF"
printf '%s\n' "$out" >"$d/stdout.prom"
om_check "stdout" "$d/stdout.prom"
"$BRISK" run "$d/w" -q --no-load -a save -i 1 --openmetrics - --json - >/dev/null 2>"$d/err"
t_eq "stdout twice: exit 2" "$?" 2
t_match "stdout twice: said so" "$(cat "$d/err")" 'only one of --json, --csv and --openmetrics'

# 4. a hostile directory name: quote, backslash, newline, CR, ESC, DEL, invalid UTF-8
hd=$d/$'we"ird\\dir\nline2\r\x1b[31m\x7f\xff\xc3(end'
mkdir "$hd"
"$BRISK" run "$hd" -q --no-load -a save -i 1 --openmetrics "$d/hostile.prom" >/dev/null 2>"$d/err"
t_eq "hostile: exit 0" "$?" 0
om_check "hostile" "$d/hostile.prom"
t_check "hostile: the file is valid UTF-8" iconv -f UTF-8 -t UTF-8 "$d/hostile.prom"
t_eq "hostile: no control byte but LF in the file" "$(tr -d -c '\000-\010\013-\037\177' <"$d/hostile.prom" | wc -c)" 0
t_eq "hostile: every sample line is one line" \
  "$(grep -v '^#' "$d/hostile.prom" | grep -vcE '^brisk_[a-z_]+(\{.*\})? [^ ]+$')" 0
t_match "hostile: escaped as the spec says" "$(grep -m1 '^brisk_info{' "$d/hostile.prom")" \
  'we\\"ird\\\\dir\\nline2\\\\x0d\\\\x1b\[31m\\\\x7f\\\\xff\\\\xc3\(end"'
if [ -n "$OM_PY" ]; then
  want=$(cd "$d" && pwd -P)/$'we"ird\\dir\nline2\\x0d\\x1b[31m\\x7f\\xff\\xc3(end'
  got=$(om_parse "$d/hostile.prom" | jq -r 'select(.family=="brisk_info")|.labels.dir')
  t_eq "hostile: the dir label reads back (quote, backslash, newline kept; the rest \\xHH)" "$got" "$want"
else
  t_skip "hostile: the dir label reads back" "Python's prometheus_client is not installed"
fi

# 5. only a regular file is replaced; anything else at the name, or a
#    missing directory, is refused before the run (exit 2)
echo old >"$d/old.prom"
"$BRISK" run "$d/w" "${quick[@]}" --openmetrics "$d/old.prom" >/dev/null 2>&1
t_eq "a regular file is replaced" "$(tail -n 1 "$d/old.prom")" "# EOF"
mkfifo "$d/fifo.prom"
"$BRISK" run "$d/w" -q --no-load -a save -i 1 --openmetrics "$d/fifo.prom" >/dev/null 2>"$d/err"
t_eq "a FIFO: refused, exit 2" "$?" 2
t_match "a FIFO: said so" "$(cat "$d/err")" "^brisk run: --openmetrics .*fifo.prom is not a regular file .*name another file \\('-' is standard output\\)"
t_eq "a FIFO: nothing ran" "$(find "$d/w" -mindepth 1 -name '.brisk-*' | wc -l)" 0
t_check "a FIFO: still a FIFO" test -p "$d/fifo.prom"
echo keep >"$d/target"; ln -s target "$d/link.prom"
"$BRISK" run "$d/w" -q --no-load -a save -i 1 --openmetrics "$d/link.prom" >/dev/null 2>"$d/err"
t_eq "a symbolic link: refused, exit 2" "$?" 2
t_eq "a symbolic link: neither followed nor removed" "$(readlink "$d/link.prom") $(cat "$d/target")" "target keep"
mkdir "$d/dir.prom"
"$BRISK" run "$d/w" -q --no-load -a save -i 1 --openmetrics "$d/dir.prom" >/dev/null 2>&1
t_eq "a directory: refused, exit 2" "$?" 2
t_eq "nothing left beside them" "$(find "$d" -maxdepth 1 -name '*.tmp*' | wc -l)" 0
"$BRISK" run "$d/w" -q --no-load -a save -i 1 --openmetrics "$d/nodir/x.prom" >/dev/null 2>"$d/err"
t_eq "a missing directory: refused, exit 2" "$?" 2
t_match "a missing directory: named" "$(cat "$d/err")" '^brisk run: --openmetrics .*nodir/x.prom: its directory .*nodir: No such file or directory$'
