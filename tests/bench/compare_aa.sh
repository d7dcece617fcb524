#!/bin/bash
# A/A comparisons: brisk compare of a setting against itself must never say
# "faster" or "slower" (equivalent and undecided are right).  Runs, on vda (a directory under
# /var/tmp) and on a lab hdd-7200 disk, AA_RUNS comparisons of each kind:
#   current current                       (nothing changed at all)
#   scheduler=mq-deadline scheduler=mq-deadline   (the same value applied)
# each on a small fixed number of rounds, and prints per disk and kind the
# false-positive rate per verdict (arm x action) and per comparison (any
# verdict), with the commands.  Root, /dev/fuse.  Env: AA_RUNS (default 5),
# AA_ROUNDS (3), AA_SAMPLES (2), AA_DISKS ("vda lab"), AA_ACTIONS
# (exec,ls,ssh-like,save), AA_LAB_SIZE (16G: on a smaller lab the default
# writer reaches the free-space floor within an arm-run, which ends it
# early and marks it failed), AA_BUDGET (e.g. 3m: each comparison on that
# budget instead of AA_ROUNDS rounds, stopping as the rules say), AA_KINDS
# ("current mq-deadline"), AA_EXTRA (more options for each comparison, e.g.
# "--load-window 0 --warmup 2s"), AA_SEED0 (seeds are AA_SEED0 + 1, ...;
# default 0), AA_KEEP=DIR keeps every JSON.  Also counted:
# the verdicts that are equivalent (right here) and the time each took.  vda's scheduler is
# put back by brisk itself (journal); the bench checks it is unchanged.
cd "$(dirname "$0")/../.." || exit 1
BRISK=${BRISK:-./brisk}
export BRISK_LAB_MODELS=${BRISK_LAB_MODELS:-$PWD/profiles/lab-models.ini}   # BRISK may live elsewhere
[ "$(id -u)" = 0 ] || { echo "SKIP compare_aa: needs root"; exit 0; }
command -v jq >/dev/null || { echo "SKIP compare_aa: needs jq"; exit 0; }
runs=${AA_RUNS:-5} rounds=${AA_ROUNDS:-3} samples=${AA_SAMPLES:-2}
actions=${AA_ACTIONS:-exec,ls,ssh-like,save}
T=$(mktemp -d /var/tmp/brisk-aa.XXXXXX) || exit 1
export BRISK_RUNTIME_DIR=$T/run
keep=${AA_KEEP:-$T/json}
mkdir -p "$keep"
trap '"$BRISK" lab down --all >/dev/null 2>&1; rm -rf "$T"' EXIT

vda_sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/block/vda/queue/scheduler 2>/dev/null)
if [ -n "${AA_BUDGET:-}" ]; then how=(-b "$AA_BUDGET"); else how=(-r "$rounds"); fi
read -r -a extra <<<"${AA_EXTRA:-}"
how+=("${extra[@]}")
printf '%-5s %-44s %5s %9s %8s %11s %8s %6s %7s\n' disk "arms" runs verdicts "false+" "comparisons" \
  "any-false+" "equiv" "mean-s"
for disk in ${AA_DISKS:-vda lab}; do
  case $disk in
    vda) dir=$T/vda; mkdir -p "$dir";;
    lab)
      [ -c /dev/fuse ] || { echo "lab: no /dev/fuse, skipped"; continue; }
      out=$("$BRISK" lab up --dir "$T" --model hdd-7200 --size "${AA_LAB_SIZE:-16G}" --name aa 2>&1) ||
        { echo "$out"; continue; }
      dir=$(printf '%s\n' "$out" | sed -n 's/^mounted at //p');;
  esac
  for kind in ${AA_KINDS:-current mq-deadline}; do
    if [ "$kind" = current ]; then arms=(current current); else
      arms=(scheduler=mq-deadline scheduler=mq-deadline); fi
    n=0 v=0 fp=0 anyfp=0 eq=0 secs=0
    for i in $(seq "$runs"); do
      seed=$((${AA_SEED0:-0} + i))
      j=$keep/$disk-$kind-$seed.json
      "$BRISK" compare "$dir" "${arms[@]}" "${how[@]}" -n "$samples" -a "$actions" \
        --seed "$seed" -q --json "$j" >/dev/null 2>"$T/err" ||
        { echo "run $disk $kind $i failed:"; cat "$T/err"; continue; }
      n=$((n + 1))
      v=$((v + $(jq '[.verdicts[]|select(.arm!=0)]|length' "$j")))
      f=$(jq '[.verdicts[]|select(.arm!=0 and (.verdict=="faster" or .verdict=="slower"))]|length' "$j")
      fp=$((fp + f))
      eq=$((eq + $(jq '[.verdicts[]|select(.arm!=0 and .verdict=="equivalent")]|length' "$j")))
      secs=$((secs + $(jq '.elapsed_s|floor' "$j")))
      [ "$f" -gt 0 ] && anyfp=$((anyfp + 1))
    done
    printf '%-5s %-44s %5d %9d %8d %11d %8d %6d %7s   (%s per verdict)\n' "$disk" "${arms[*]}" "$n" "$v" \
      "$fp" "$n" "$anyfp" "$eq" "$((n ? secs / n : 0))" \
      "$(awk -v a="$fp" -v b="$v" 'BEGIN{ if (b) printf "%.1f %%", 100*a/b; else print "-" }')"
  done
  [ "$disk" = lab ] && "$BRISK" lab down aa >/dev/null 2>&1
done
echo "each: brisk compare DIR ARM ARM ${how[*]} -n $samples -a $actions --seed I --json F"
now=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/block/vda/queue/scheduler 2>/dev/null)
[ "$now" = "$vda_sched" ] || { echo "vda's scheduler is $now, was $vda_sched"; exit 1; }
