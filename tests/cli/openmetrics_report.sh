#!/bin/bash
# brisk report --openmetrics FILE over the fleet fixtures
# (tests/fixtures/fleet): valid for the real parsers (openmetrics_common.bash),
# the figures those of the report's JSON (groups, machines, recommended
# setting, ratio with its bounds, verdicts), every group key and arm from
# other machines' files escaped (the hostile fixture: ESC, CR, BEL, LF in
# its strings), "-" is stdout.  No root.
source tests/lib.sh
source tests/cli/openmetrics_common.bash
command -v jq >/dev/null || { t_skip openmetrics-report "needs jq"; exit 0; }
F=tests/fixtures/fleet
d=$(t_tmpdir)
good=("$F"/real/*/*.json "$F"/synthetic/*/*.json)
export BRISK_RUNTIME_DIR=$d/rt

# 1. by class: exit 0, valid, the text report too
"$BRISK" report "${good[@]}" --openmetrics "$d/fleet.prom" --json "$d/fleet.json" >"$d/out" 2>"$d/err"
t_eq "class: exit 0" "$?" 0
t_eq "class: # EOF last" "$(tail -n 1 "$d/fleet.prom")" "# EOF"
t_match "class: the text report on stdout" "$(cat "$d/out")" 'recommendation: rotational: bfq'
om_check "class" "$d/fleet.prom"
t_eq "class: gauges only" "$(grep '^# TYPE' "$d/fleet.prom" | grep -vc ' gauge$')" 0

if [ -n "$OM_PY" ]; then
  P() { om_parse "$d/fleet.prom"; }
  t_eq "class: results and machines" \
    "$(om_value "$d/fleet.prom" brisk_report_results '.by == "class"') $(om_value "$d/fleet.prom" brisk_report_machines 'true')" \
    "$(jq -r '"\(.results) \(.machines)"' "$d/fleet.json" 2>/dev/null)"
  t_eq "class: one group per JSON group" \
    "$(P | jq -r 'select(.family=="brisk_fleet_group_machines")|.labels.group' | sort | tr '\n' ' ')" \
    "$(jq -r '.groups[].key' "$d/fleet.json" | sort | tr '\n' ' ')"
  t_eq "class: machines per group" \
    "$(P | jq -r 'select(.family=="brisk_fleet_group_machines")|"\(.labels.group)=\(.value)"' | sort | tr '\n' ' ')" \
    "$(jq -r '.groups[]|"\(.key)=\(.machines|length)"' "$d/fleet.json" | sort | tr '\n' ' ')"
  t_eq "class: the recommended setting per group" \
    "$(P | jq -r 'select(.family=="brisk_fleet_recommended" and .value==1)|"\(.labels.group)=\(.labels.arm)"' | sort | tr '\n' ' ')" \
    "$(jq -r '.groups[]|select(.recommendation.arm != null)|"\(.key)=\(.recommendation.arm)"' "$d/fleet.json" | sort | tr '\n' ' ')"
  sel='.group == "rotational" and .arm == "bfq" and .phase == "loaded" and .action == "ssh-like" and .stat == "p50"'
  for b in estimate lower upper; do
    key=$(case $b in estimate) echo est;; lower) echo lo;; upper) echo hi;; esac)
    got=$(om_value "$d/fleet.prom" brisk_fleet_latency_ratio "$sel and .bound == \"$b\"")
    want=$(jq -r '.groups[]|select(.key=="rotational")|.rows[]|select(.phase=="loaded" and .action=="ssh-like" and .arm=="bfq")|.ratio_p50.'"$key" "$d/fleet.json")
    t_check "class: rotational bfq ssh-like ratio $b ($got) = the JSON's ($want)" \
      awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(a > 0 && d * d < 1e-18) }'
  done
  t_eq "class: rotational bfq ssh-like verdict faster" \
    "$(om_value "$d/fleet.prom" brisk_fleet_verdict '.group == "rotational" and .arm == "bfq" and .phase == "loaded" and .action == "ssh-like" and .verdict == "faster"')" 1
  t_eq "class: no verdict for one machine (usb)" \
    "$(P | jq -r 'select(.family=="brisk_fleet_verdict" and .labels.group=="usb")' | wc -l)" 0
  t_eq "class: the baseline has no ratio" \
    "$(P | jq -r 'select(.family=="brisk_fleet_latency_ratio" and .labels.group=="rotational" and .labels.arm=="mq-deadline")' | wc -l)" 0
  t_eq "class: every family carries by" \
    "$(P | jq -r 'select(.labels.by != "class")|.family' | sort -u | tr '\n' ' ')" ""
else
  t_skip "class: figures against the JSON" "Python's prometheus_client is not installed"
fi

# 2. other machines' strings: escaped, the file still valid
"$BRISK" report "$F/hostile/evil/evil-cmp.json" "${good[@]}" --by model --openmetrics "$d/evil.prom" >/dev/null 2>&1
t_eq "hostile: exit 0" "$?" 0
om_check "hostile" "$d/evil.prom"
t_eq "hostile: no control byte but LF" "$(tr -d -c '\000-\010\013-\037\177' <"$d/evil.prom" | wc -c)" 0
t_check "hostile: valid UTF-8" iconv -f UTF-8 -t UTF-8 "$d/evil.prom"
t_match "hostile: the model group escaped" "$(cat "$d/evil.prom")" 'group="Evil\\\\x1b\]0;pwn\\\\x07"'
if [ -n "$OM_PY" ]; then
  t_eq "hostile: the group reads back as brisk shows it" \
    "$(om_parse "$d/evil.prom" | jq -r 'select(.family=="brisk_fleet_group_machines" and (.labels.group|startswith("Evil")))|.labels.group')" \
    'Evil\x1b]0;pwn\x07'
else
  t_skip "hostile: the group reads back as brisk shows it" "Python's prometheus_client is not installed"
fi
"$BRISK" report "$F/hostile/evil/evil-cmp.json" "${good[@]}" --by machine --openmetrics "$d/evil-m.prom" >/dev/null 2>&1
om_check "hostile by machine" "$d/evil-m.prom"
t_eq "hostile by machine: no control byte but LF" "$(tr -d -c '\000-\010\013-\037\177' <"$d/evil-m.prom" | wc -c)" 0

# 3. "-" is stdout (no text report); with skipped files still exit 3
out=$("$BRISK" report "${good[@]}" "$F/bad/truncated.json" --openmetrics - 2>/dev/null); rc=$?
t_eq "stdout: exit 3 (a file skipped)" "$rc" 3
t_match "stdout: the metrics first" "$(head -1 <<<"$out")" '^# TYPE brisk_info gauge$'
t_match "stdout: the skipped file counted" "$out" 'brisk_report_skipped_files\{by="class"\} 1'
printf '%s\n' "$out" >"$d/stdout.prom"
om_check "stdout" "$d/stdout.prom"
"$BRISK" report "${good[@]}" --openmetrics - --csv - >/dev/null 2>"$d/err"
t_eq "stdout twice: exit 2" "$?" 2
mkfifo "$d/fifo.prom"
"$BRISK" report "${good[@]}" --openmetrics "$d/fifo.prom" >/dev/null 2>"$d/err"
t_eq "a FIFO at FILE: refused, exit 2" "$?" 2
t_match "a FIFO at FILE: said so" "$(cat "$d/err")" '^brisk report: --openmetrics .*fifo.prom is not a regular file'
