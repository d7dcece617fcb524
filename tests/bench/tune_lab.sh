#!/bin/bash
# brisk tune over the desktop space (not a timed test, prints figures): on
# an emulated 7200 rpm disk (brisk lab hdd-7200), or with TUNE_DIR=DIR on
# the disk behind DIR (vda: a directory on the root disk): how long it
# took, the rounds, the arms and how the race ended, the best arm with its
# evidence against current and each scheduler's defaults, which of its
# settings mattered, who left the race when and why, and the saved
# profile exported as a udev rule (when an arm beat current).  Root,
# /dev/fuse for the lab.  Env: TUNE_BUDGET (default 45m), TUNE_ACTIONS
# (ssh-like,ls), TUNE_SEED (7), TUNE_EXTRA (more options), TUNE_KEEP=DIR
# keeps the JSON, text, plot and rule.  About the budget.
cd "$(dirname "$0")/../.." || exit 1
BRISK=${BRISK:-./brisk}
export BRISK_LAB_MODELS=${BRISK_LAB_MODELS:-$PWD/profiles/lab-models.ini}
[ "$(id -u)" = 0 ] || { echo "SKIP tune_lab: needs root"; exit 0; }
command -v jq >/dev/null || { echo "SKIP tune_lab: needs jq"; exit 0; }
T=$(mktemp -d /var/tmp/brisk-tune.XXXXXX) || exit 1
export BRISK_RUNTIME_DIR=$T/run HOME=$T/home
keep=${TUNE_KEEP:-$T/out}
mkdir -p "$keep" "$HOME"
trap '"$BRISK" lab down --all >/dev/null 2>&1; rm -rf "$T"' EXIT
dir=${TUNE_DIR:-}
if [ -z "$dir" ]; then
  [ -c /dev/fuse ] || { echo "SKIP tune_lab: needs /dev/fuse"; exit 0; }
  out=$("$BRISK" lab up --dir "$T" --model hdd-7200 --size 16G --name tune 2>&1) ||
    { echo "$out"; exit 1; }
  dir=$(printf '%s\n' "$out" | sed -n 's/^mounted at //p')
fi
budget=${TUNE_BUDGET:-45m}
# shellcheck disable=SC2086  # TUNE_EXTRA: options split at blanks
set -- tune "$dir" -a "${TUNE_ACTIONS:-ssh-like,ls}" -b "$budget" --seed "${TUNE_SEED:-7}" \
  $TUNE_EXTRA -q --json "$keep/tune.json" --plot "$keep/tune.svg" --save bench-tune-best --force
echo "--- brisk $*"
"$BRISK" "$@" >"$keep/tune.txt" 2>"$keep/tune.err" || { echo "failed:"; cat "$keep/tune.err"; exit 1; }
jq -r '"took \(.elapsed_s|floor) s; \(.arms|length) arms; rounds \(.rounds.done) of \(.rounds.max); arm-runs \(.runs|length); race: \(.race.end) \(.race.words // "")"' "$keep/tune.json"
jq -r '.tune as $t | if $t.best == null then "best: none" else "best: arm \($t.best) \(.arms[$t.best].label) (\(.arms[$t.best].settings)), recommended \($t.recommended)" end' "$keep/tune.json"
jq -r '.tune.evidence[], .tune.factors[] | "  vs \(.against): \(.ratio.est // "-" | tostring | .[:5])x [\(.ratio.lo // "-" | tostring | .[:5]), \(.ratio.hi // "-" | tostring | .[:5])], runs \(.runs_best)/\(.runs_other)"' "$keep/tune.json"
jq -r '.race.arms[] | select(.out) | "  out after round \(.out_after_round): arm \(.arm) (\(.runs) runs) \(.why)"' "$keep/tune.json"
sed -n 's/^recommendation: /recommendation: /p' "$keep/tune.txt"
if "$BRISK" export bench-tune-best --format udev >"$keep/tune.rules" 2>"$keep/export.err"; then
  echo "--- brisk export bench-tune-best --format udev"
  cat "$keep/tune.rules"
else
  echo "no profile to export: $(cat "$keep/export.err")"
fi
