#!/bin/bash
# brisk compare --openmetrics FILE on a real loop device (root): a small
# comparison (two arms, two rounds) in a directory whose name holds a
# quote, a backslash and a newline; the file is valid for the real parsers
# (openmetrics_common.bash) and its figures are the comparison's JSON (arms,
# scheduler per arm, verdict states, ratios with bounds, rank,
# recommendation).  The second arm is bfq when the disk offers it, else
# another scheduler (loop_alt_sched).
# shellcheck disable=SC2154  # d, L, dev, q: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
source tests/cli/openmetrics_common.bash
if ! is_root; then t_skip openmetrics-compare "needs root (loop device, sysfs writes)"; exit 0; fi
command -v jq >/dev/null || { t_skip openmetrics-compare "needs jq"; exit 0; }
loop_mount openmetrics-compare 256M
export BRISK_RUNTIME_DIR=$d/rt
loop_alt_sched "$dev" || { t_skip openmetrics-compare "$dev offers no scheduler but none"; exit 0; }
s=$alt_sched
# the current arm's scheduler: mq-deadline, or none when that is the other
cur=mq-deadline; [ "$s" = mq-deadline ] && cur=none
echo $cur > $q/scheduler
hd=$d/mnt/$'we"ird\\dir\nx'
mkdir "$hd"

"$BRISK" compare "$hd" current "scheduler=$s" -r 2 -n 1 -a save,ssh-like --seed 5 \
  -l seq-write:size=16m,rate=8m --warmup 500ms --settle-max 5s --floor 10% --interval 50ms -q \
  --openmetrics "$d/c.prom" --json "$d/c.json" >"$d/out" 2>"$d/err"
t_eq "compare: exit 0" "$?" 0
t_eq "compare: # EOF last" "$(tail -n 1 "$d/c.prom")" "# EOF"
t_match "compare: the text report on stdout" "$(cat "$d/out")" 'verdict'
om_check "compare" "$d/c.prom"
t_eq "compare: gauges only" "$(grep '^# TYPE' "$d/c.prom" | grep -vc ' gauge$')" 0
t_match "compare: the dir escaped" "$(grep -m1 '^brisk_info{' "$d/c.prom")" 'we\\"ird\\\\dir\\nx"'
t_match "compare: the scheduler is back" "$(cat $q/scheduler)" "\[$cur\]"

if [ -n "$OM_PY" ]; then
  P() { om_parse "$d/c.prom"; }
  want=$(cd "$d/mnt" && pwd -P)/$'we"ird\\dir\nx'
  t_eq "compare: the dir reads back" "$(P | jq -r 'select(.family=="brisk_info")|.labels.dir')" "$want"
  t_eq "compare: arms and their scheduler" \
    "$(P | jq -r 'select(.family=="brisk_compare_arm_runs")|"\(.labels.arm):\(.labels.settings):\(.labels.scheduler)=\(.value)"' | tr '\n' ' ')" \
    "current::$cur=2 $s:scheduler=$s:$s=2 "
  t_eq "compare: the device" \
    "$(P | jq -r 'select(.family=="brisk_compare_arm_runs")|.labels.device' | sort -u)" "$dev"
  t_eq "compare: one verdict state per action of arm 1" \
    "$(P | jq -r 'select(.family=="brisk_compare_verdict" and .value==1)|"\(.labels.arm) \(.labels.action) \(.labels.verdict)"' | sort | tr '\n' ';')" \
    "$(jq -r --arg s "$s" '.verdicts[]|"\($s) \(.action) \(.verdict)"' "$d/c.json" | sort | tr '\n' ';')"
  t_eq "compare: four states each" \
    "$(P | jq -r 'select(.family=="brisk_compare_verdict")|.labels.action' | sort | uniq -c | awk '{print $1}' | sort -u)" 4
  t_eq "compare: no verdict, ratio or p for the baseline" \
    "$(P | jq -r 'select((.family|test("verdict|ratio$|p_adjusted")) and .labels.arm=="current" and .family!="brisk_compare_score_ratio" and .family!="brisk_compare_time_share_ratio")' | wc -l)" 0
  for b in estimate lower upper; do
    key=$(case $b in estimate) echo est;; lower) echo lo;; upper) echo hi;; esac)
    got=$(om_value "$d/c.prom" brisk_compare_latency_ratio ".arm == \"$s\" and .action == \"save\" and .stat == \"runs\" and .bound == \"$b\"")
    want=$(jq -r '.arms[1].actions.save.ratio_runs.'"$key" "$d/c.json")
    if [ "$want" = null ]; then
      t_eq "compare: $s save ratio $b left out like the JSON's null" "$got" ""
    else
      t_check "compare: $s save ratio $b ($got) = the JSON's ($want)" \
        awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(a > 0 && d * d < 1e-18) }'
    fi
  done
  got=$(om_value "$d/c.prom" brisk_compare_latency_seconds '.arm == "current" and .action == "ssh-like" and .stat == "p50" and .bound == "estimate"')
  want=$(jq -r '.arms[0].actions["ssh-like"].p50.est / 1000' "$d/c.json")
  t_check "compare: current ssh-like p50 ($got s) = the JSON's ms / 1000 ($want)" \
    awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(a > 0 && d * d < 1e-18) }'
  t_eq "compare: ranks" \
    "$(P | jq -r 'select(.family=="brisk_compare_rank")|"\(.labels.arm)=\(.value)"' | sort | tr '\n' ' ')" \
    "$(jq -r '.ranking|to_entries[]|"\(.value.label)=\(.key + 1)"' "$d/c.json" | sort | tr '\n' ' ')"
  t_eq "compare: recommended as the JSON says" \
    "$(P | jq -r 'select(.family=="brisk_compare_recommended" and .value==1)|.labels.arm')" \
    "$(jq -r 'if .recommendation.arm == null then "" else .arms[.recommendation.arm].label end' "$d/c.json")"
  t_eq "compare: rounds" "$(om_value "$d/c.prom" brisk_compare_rounds 'true')" 2
else
  t_skip "compare: figures against the JSON" "Python's prometheus_client is not installed"
fi
