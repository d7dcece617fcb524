#!/bin/bash
# Racing against --no-racing on an emulated 7200 rpm disk, side by side
# (not a timed test, prints figures): brisk compare --schedulers -a
# ssh-like,ls on a brisk lab hdd-7200, once racing (the default) and once
# with --no-racing, the same seed: the time each took to its final
# verdicts, rounds and arm-runs, how the race ended, the verdict per arm
# and action, and the recommendation.  Root, /dev/fuse.  Env: RACE_BUDGET
# (default 10m), RACE_SIZE (lab size, 16G), RACE_KEEP=DIR keeps the JSON
# and text reports.  About twice the budget.
cd "$(dirname "$0")/../.." || exit 1
BRISK=${BRISK:-./brisk}
export BRISK_LAB_MODELS=${BRISK_LAB_MODELS:-$PWD/profiles/lab-models.ini}
[ "$(id -u)" = 0 ] || { echo "SKIP race_lab: needs root"; exit 0; }
[ -c /dev/fuse ] || { echo "SKIP race_lab: needs /dev/fuse"; exit 0; }
command -v jq >/dev/null || { echo "SKIP race_lab: needs jq"; exit 0; }
T=$(mktemp -d /var/tmp/brisk-race.XXXXXX) || exit 1
export BRISK_RUNTIME_DIR=$T/run
keep=${RACE_KEEP:-$T/out}
mkdir -p "$keep"
trap '"$BRISK" lab down --all >/dev/null 2>&1; rm -rf "$T"' EXIT
out=$("$BRISK" lab up --dir "$T" --model hdd-7200 --size "${RACE_SIZE:-16G}" --name race 2>&1) ||
  { echo "$out"; exit 1; }
dir=$(printf '%s\n' "$out" | sed -n 's/^mounted at //p')
budget=${RACE_BUDGET:-10m}
for mode in racing no-racing; do
  flag=; [ "$mode" = no-racing ] && flag=--no-racing
  cmd="brisk compare $dir --schedulers -a ssh-like,ls -b $budget --seed 7 $flag"
  echo "--- $mode: $cmd"
  "$BRISK" compare "$dir" --schedulers -a ssh-like,ls -b "$budget" --seed 7 $flag -q \
    --json "$keep/$mode.json" >"$keep/$mode.txt" 2>"$keep/$mode.err" ||
    { echo "failed:"; cat "$keep/$mode.err"; exit 1; }
  jq -r '"took \(.elapsed_s|floor) s; rounds \(.rounds.done) of \(.rounds.max); arm-runs \([.runs[]]|length); race: \(.race.end) \(.race.words // "")"' "$keep/$mode.json"
  jq -r '.race.arms[] as $a | "  arm \($a.arm) runs \($a.runs)\(if $a.out then " out after round \($a.out_after_round): \($a.why)" else "" end)"' "$keep/$mode.json"
  jq -r '.verdicts[] | "  arm \(.arm) \(.action): \(.verdict) \(.ratio_runs.est // "-") [\(.ratio_runs.lo // "-"), \(.ratio_runs.hi // "-")]"' "$keep/$mode.json"
  sed -n 's/^recommendation: /  recommendation: /p' "$keep/$mode.txt"
done
