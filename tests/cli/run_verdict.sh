#!/bin/bash
# The quick check's verdict on real disks: a short run on an emulated
# hdd-7200 lab disk (root, /dev/fuse) behind its own buffered writer grades
# the remote shell read (ssh-like) worse than an idle run on the system
# disk does; both texts end with the Verdict block; the JSON carries the
# grade, cause and next step, and the next step is brisk compare on the
# rotational lab disk exactly when the grade.h rule says so.
source tests/lib.sh
source tests/cli/lab_common.bash
why=$(lab_requirements)
command -v jq >/dev/null || why=${why:-"no jq"}
if [ -n "$why" ]; then t_skip "run verdict" "$why"; exit 0; fi
lab_setup
V=$(mktemp -d /var/tmp/brisk-verdict.XXXXXX) || exit 1
T_CLEANUP_EXTRA="$T_CLEANUP_EXTRA; rm -rf '$V'"

# grade rank: instant 0 .. unusable 3, unknown -1
rank() { jq -nr --arg g "$1" '["instant","noticeable","disruptive","unusable"] | index($g) // -1'; }

# The system disk, idle only: the baseline a desktop user knows.
out=$("$BRISK" run "$V" --no-load -a ssh-like -i 3 --json "$LAB_W/vda.json" 2>"$LAB_W/vda.err")
rc=$?
t_eq "run on the system disk exits 0" "$rc" 0
[ "$rc" = 0 ] || sed "s/^/# run: /" "$LAB_W/vda.err"
echo "# system disk ($V):"; sed -n '/^Verdict/,$s/^/#   /p' <<<"$out"
t_match "system disk: the Verdict block is second to last" "$(tail -2 <<<"$out" | head -1)" \
  '^Verdict \(median of the idle samples; instant < 0.1 s, noticeable < 1 s, disruptive < 10 s, else unusable\):$'
t_match "system disk: the text ends with the verdict line" "$(tail -1 <<<"$out")" \
  '^  remote shell read: [0-9.]+ (ms|s) idle - (instant|noticeable|disruptive|unusable)$'
vg=$(jq -r '.verdicts[]|select(.action=="ssh-like")|.grade' "$LAB_W/vda.json")
t_match "system disk: JSON grade" "$vg" '^(instant|noticeable|disruptive|unusable)$'
t_eq "system disk: an idle verdict has no slowdown, cause or next step" \
  "$(jq -c '.verdicts[0]|[.phase,.slowdown,.cause,.next]' "$LAB_W/vda.json")" '["idle",null,"none",null]'
t_eq "system disk: the idle group carries the same verdict" \
  "$(jq -r '.actions[]|select(.phase=="idle" and .action=="ssh-like")|.verdict.grade' "$LAB_W/vda.json")" "$vg"

# The lab disk, a short quick check behind its own writer.
if ! lab_up --model hdd-7200 --size 1G --name "verdict-$$"; then
  t_fail "lab up" "$LAB_OUT"; exit 0
fi
t_pass "lab up"
out=$("$BRISK" run "$LAB_MNT" -a ssh-like,save -l seq-write:size=400m -i 3 -n 3 --floor 10% \
      --json "$LAB_W/lab.json" 2>"$LAB_W/lab.err")
rc=$?
t_eq "run on the lab disk exits 0" "$rc" 0
[ "$rc" = 0 ] || sed "s/^/# run: /" "$LAB_W/lab.err"
echo "# lab hdd-7200 ($LAB_MNT):"; sed -n '/^Verdict/,$s/^/#   /p' <<<"$out"
blk=$(sed -n '/^Verdict/,$p' <<<"$out")
t_match "lab disk: the Verdict block is of the loaded samples" "$(sed -n 1p <<<"$blk")" \
  '^Verdict \(median of the loaded samples; '
t_match "lab disk: a verdict line for ssh-like" "$(sed -n 2p <<<"$blk")" \
  '^  remote shell read: [0-9.]+ (ms|s) under load \([0-9.]+x idle\) - (instant|noticeable|disruptive|unusable)'
t_match "lab disk: a verdict line for save" "$(sed -n 3p <<<"$blk")" \
  '^  save: [0-9.]+ (ms|s) under load \([0-9.]+x idle\) - (instant|noticeable|disruptive|unusable)'
t_match "lab disk: nothing after the Verdict block but a Next line" \
  "$(sed -n '/^Verdict/,$p' <<<"$out" | tail -n +4)" '^(Next: brisk compare .* --schedulers \(.*\))?$'
v=$(jq -c '.verdicts[]|select(.action=="ssh-like")' "$LAB_W/lab.json")
lg=$(jq -r .grade <<<"$v")
echo "# ssh-like: lab loaded $lg ($(jq -r .seconds <<<"$v") s, x$(jq -r .slowdown <<<"$v")), system disk idle $vg"
if [ "$(rank "$lg")" -gt "$(rank "$vg")" ]; then
  t_pass "ssh-like on the loaded lab disk is graded worse ($lg) than on the idle system disk ($vg)"
else
  t_fail "ssh-like on the loaded lab disk is graded worse than on the idle system disk" "lab $lg, system disk $vg"
fi
t_eq "lab disk: the verdict is of the loaded phase" "$(jq -r .phase <<<"$v")" loaded
t_eq "lab disk: seconds are the loaded p50" "$(jq -r .seconds <<<"$v")" \
  "$(jq -r '.actions[]|select(.phase=="loaded" and .action=="ssh-like")|.p50_ms / 1000' "$LAB_W/lab.json")"
t_eq "lab disk: the loaded group carries the verdict" \
  "$(jq -r '.actions[]|select(.phase=="loaded" and .action=="ssh-like")|.verdict.grade' "$LAB_W/lab.json")" "$lg"
t_match "lab disk: the cause is one of grade.h's" "$(jq -r .cause <<<"$v")" '^(none|dirty|writeback|queue|psi|measured)$'
# The loop device is rotational: the next step follows when the read is
# noticeable or worse and at least 1.5x idle (GRADE_SETTINGS_SLOWDOWN).
want=null
if jq -e '(.grade != "instant") and (.slowdown >= 1.5)' <<<"$v" >/dev/null; then
  want="brisk compare $LAB_MNT --schedulers"
fi
t_eq "lab disk: next step by the rule" "$(jq -r '.next // "null"' <<<"$v")" "$want"
if [ "$want" != null ]; then
  t_match "lab disk: the next step says why" "$(jq -r .next_why <<<"$v")" \
    "^(${LAB_LOOP#/dev/} is a rotational disk|the load made remote shell read)"
  t_match "lab disk: the text ends with the Next line" "$(tail -1 <<<"$out")" \
    '^Next: brisk compare '"$LAB_MNT"' --schedulers \('
else
  t_skip "lab disk: the next step says why" "no next step: grade $(jq -r .grade <<<"$v"), slowdown $(jq -r .slowdown <<<"$v")"
fi

out=$("$BRISK" lab down "verdict-$$" 2>&1)
t_eq "lab down" "$?" 0
check_gone "lab down"
