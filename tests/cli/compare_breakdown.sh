#!/bin/bash
# brisk compare carries where each sample's time went (root, a loop
# device): a short comparison of the disk's scheduler against none (one
# round, two samples per action, a small load) with every output.  Every
# measured sample's parts add up to its duration within 2 %; each arm and
# action has a summary in JSON (which conforms to its schema), its rows in
# the text and a reason on the recommendation; CSV carries the parts of
# the measured samples only; OpenMetrics the shares; the plot is a PNG.
# With --no-breakdown there is none anywhere, and the JSON says why.
# Where the kernel or the build cannot measure it (no BTF, BPF=0), the
# parts' checks SKIP with brisk's own reason.
# shellcheck disable=SC2154  # d, q, orig_sched: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
source tests/cli/openmetrics_common.bash
N=compare-breakdown
if ! is_root; then t_skip $N "needs root (a loop device, sysfs writes, BPF)"; exit 0; fi
command -v jq >/dev/null || { t_skip $N "needs jq"; exit 0; }
loop_mount $N 256M
export BRISK_RUNTIME_DIR=$d/rt
mkdir -m 700 "$BRISK_RUNTIME_DIR"
# the baseline runs another scheduler than the arm's none (put back at exit)
if [ "$orig_sched" = none ]; then
  s=$(loop_other_sched mq-deadline kyber bfq) || { t_skip $N "the loop device offers only none"; exit 0; }
  echo "$s" >"$q/scheduler" || { t_fail $N "cannot set $s"; exit 0; }
fi
w=(-a "ssh-like,save" -r 1 -n 2 -l "seq-write:size=32m,rate=16m" --warmup 1s --settle-max 5s
   --interval 50ms --floor 10% --ls-files 50)

"$BRISK" compare "$d/mnt" current scheduler=none "${w[@]}" --json "$d/c.json" --csv "$d/c.csv" \
  --plot "$d/c.png" --openmetrics "$d/c.prom" >"$d/out" 2>"$d/err"; rc=$?
t_eq "exit 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/  stderr: /' "$d/err"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  out=$(/usr/bin/python3 tests/helpers/schema_check.py schemas/brisk-compare.schema.json "$d/c.json")
  t_eq "JSON conforms to its schema" "$?" 0
  [ -z "$out" ] || echo "  $out" | head -n 5
else
  t_skip "JSON schema" "python3-jsonschema is not installed"
fi
t_match "the plot is a PNG" "$(head -c 8 "$d/c.png" | od -An -c | tr -d ' ')" '^211PNG'

if [ "$(jq .breakdown.available "$d/c.json")" != true ]; then
  why=$(jq -r .breakdown.why_not "$d/c.json")
  t_skip "$N: the parts" "no breakdown here: $why"
  t_match "the text says why" "$(cat "$d/out")" "where the time went: the breakdown is unavailable"
  exit 0
fi
t_eq "JSON: no arm-run without it" "$(jq .breakdown.runs_without "$d/c.json")" 0

# every measured sample's parts add up to its duration (within 2 %)
measured=$(jq '[.samples[]|select(.breakdown != null and .breakdown.incomplete == false)]|length' "$d/c.json")
t_match "JSON: samples measured" "$measured" '^[1-9]'
bad=$(jq -c '[.samples[]|select(.breakdown != null and .breakdown.incomplete == false)
  |{ms, sum: ([.breakdown.parts[]]|add)}|select(((.sum - .ms)|fabs) > 0.02 * .ms)]' "$d/c.json")
t_eq "JSON: each sample's parts add up to its time (2 %)" "$bad" "[]"
jq -r '.samples[]|select(.breakdown != null)|"  \(.arm) \(.action) \(.ms) ms = \([.breakdown.parts[]]|add) ms"' \
  "$d/c.json" | head -n 4

# per arm and action: a summary, and its row in the text
t_eq "JSON: a summary per arm and action" \
  "$(jq -c '[.arms[]|.actions|to_entries[]|.value.breakdown.n > 0]|unique' "$d/c.json")" '[true]'
t_eq "JSON: its shares add up to 1" \
  "$(jq -c '[.arms[]|.actions[]|.breakdown.mean_shares|[.[]]|add|(. - 1)|fabs < 1e-6]|unique' "$d/c.json")" '[true]'
txt=$(cat "$d/out")
t_match "text: the section" "$txt" '^where the time went \(per action and arm'
t_match "text: ssh-like's table" "$txt" '^ssh-like +n +cpu +runq +device +queued'
t_match "text: save's table" "$txt" '^save +n +cpu +runq +device +queued'
t_match "text: the baseline in words" "$txt" '^  current: [0-9.]+ m?s - [0-9]+ % '
t_match "text: the arm in words" "$txt" '^  none: [0-9.]+ m?s - [0-9]+ % '
rec=$(sed -n '/^recommendation: /,/^rule: /p' "$d/out" | sed '$d' | tr -s ' \n' ' ')
t_match "text: the recommendation quotes the reason" "$rec" \
  'where the time went in (ssh-like|save): none [0-9.]+ m?s \([0-9]+ % [a-zA-Z ]+.*\), current [0-9.]+ m?s \('
t_eq "JSON: the same reason" "$(jq -r '.recommendation.reason|startswith("where the time went in ")' "$d/c.json")" true
echo "  $rec"

# CSV: the parts as columns, filled for the measured samples only
hdr=$(head -n 1 "$d/c.csv")
t_match "CSV: the parts' columns" "$hdr" ',split_cpu_ms,split_runq_ms,split_device_ms,split_queued_ms,'
col=$(tr ',' '\n' <<<"$hdr" | grep -nx split_device_ms | cut -d: -f1)
t_eq "CSV: a device time per measured sample" \
  "$(tail -n +2 "$d/c.csv" | cut -d, -f"$col" | grep -c .)" \
  "$(jq '[.samples[]|select(.breakdown != null)]|length' "$d/c.json")"

# OpenMetrics: each part's share per arm and action
om_check "OpenMetrics" "$d/c.prom"
t_eq "OpenMetrics: 8 parts x 2 arms x 2 actions" \
  "$(grep -c '^brisk_compare_time_share_ratio{' "$d/c.prom")" 32
t_match "OpenMetrics: labelled by arm, action and part" \
  "$(grep '^brisk_compare_time_share_ratio{' "$d/c.prom" | grep 'arm="none"' | grep 'action="ssh-like"' | grep 'part="device"')" \
  ' [0-9.e+-]+$'

# --no-breakdown: none anywhere, and why
"$BRISK" compare "$d/mnt" current scheduler=none "${w[@]}" -n 1 --no-breakdown -q \
  --json "$d/n.json" --csv "$d/n.csv" >"$d/nout" 2>"$d/nerr"; rc=$?
t_eq "--no-breakdown: exit 0" "$rc" 0
t_eq "--no-breakdown: not available, and why" "$(jq -c '.breakdown|[.available,.why_not]' "$d/n.json")" \
  '[false,"turned off (--no-breakdown)"]'
t_eq "--no-breakdown: no sample's" "$(jq '[.samples[]|select(.breakdown != null)]|length' "$d/n.json")" 0
t_eq "--no-breakdown: no summary" "$(jq '[.arms[]|.actions[]|select(.breakdown != null)]|length' "$d/n.json")" 0
t_eq "--no-breakdown: no reason" "$(jq -c .recommendation.reason "$d/n.json")" null
t_eq "--no-breakdown: the text says nothing of it" "$(grep -c 'where the time went' "$d/nout")" 0
t_eq "--no-breakdown: empty CSV cells" "$(tail -n +2 "$d/n.csv" | cut -d, -f"$col" | grep -c .)" 0
t_match "the scheduler is back" "$(cat "$q/scheduler")" "\[${s:-$orig_sched}\]"
