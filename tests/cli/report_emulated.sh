#!/bin/bash
# brisk report over the emulated fleet (tests/fixtures/fleet/emulated:
# results measured on this VM by nine emulated machines, three per setup:
# lab hdd-7200, lab sd-card, vda; each under its own host name and machine
# id, see make-emulated.sh): one group per class with three machines each,
# the per-class recommendations those measurements give, the same files
# with one truncated and one from a future major version (both named and
# skipped, the recommendations unchanged, exit 3), the saved profile and
# its udev rules.  No root.
source tests/lib.sh
command -v jq >/dev/null || { t_skip report-emulated "needs jq"; exit 0; }
E=tests/fixtures/fleet/emulated
d=$(t_tmpdir)
files=("$E"/*/*.json)
export XDG_CONFIG_HOME=$d/xdg
export BRISK_RUNTIME_DIR=$d/rt

# the fixtures are what make-emulated.sh says: nine machines of their own
t_eq "fixtures: 36 results" "${#files[@]}" 36
t_eq "fixtures: nine host names" "$(jq -r .machine.hostname "${files[@]}" | sort -u | wc -l)" 9
t_eq "fixtures: nine machine ids" "$(jq -r .machine.machine_id "${files[@]}" | sort -u | wc -l)" 9
t_eq "fixtures: the classes the setups stand for" \
  "$(jq -r '"\(.machine.hostname | sub("-[0-9]$"; "")) \(.machine.disks[0].class) \(.machine.disks[0].model)"' \
    "${files[@]}" | sort -u | tr '\n' ';')" \
  'emu-hdd rotational brisk lab hdd-7200;emu-sd mmc brisk lab sd-card;emu-vda virtual ;'

# 1. by class: three groups of three machines, a recommendation each
out=$("$BRISK" report "${files[@]}" --json "$d/r.json" 2>"$d/err"); rc=$?
t_eq "all read: exit 0" "$rc" 0
t_eq "nothing on stderr" "$(cat "$d/err")" ""
t_match "header" "$out" '^brisk [0-9.]+ report: 36 results \(27 run, 9 compare\) from 9 machines, by class'
t_eq "groups" "$(jq -c '[.groups[] | "\(.key)=\(.machines | length)"]' "$d/r.json")" \
  '["mmc=3","rotational=3","virtual=3"]'
t_eq "every group against mq-deadline" "$(jq -c '[.groups[].baseline] | unique' "$d/r.json")" '["mq-deadline"]'
# what these measurements say: on the lab disks bfq is faster under the
# writer on every action on all three machines; on vda nothing differs
for c in mmc rotational; do
  t_eq "$c: bfq recommended" "$(jq -r --arg c "$c" '.groups[] | select(.key == $c) | .recommendation.settings' "$d/r.json")" scheduler=bfq
  t_eq "$c: bfq faster, 3 of 3 machines, on ls, ssh-like and save" \
    "$(jq -c --arg c "$c" '[.groups[] | select(.key == $c) | .rows[] | select(.phase == "loaded" and .arm == "bfq") | "\(.action) \(.verdict) \(.agree)/\(.paired)"]' "$d/r.json")" \
    '["ls faster 3/3","ssh-like faster 3/3","save faster 3/3"]'
  t_eq "$c: every ratio interval below 1" \
    "$(jq --arg c "$c" '[.groups[] | select(.key == $c) | .rows[] | select(.phase == "loaded" and .arm == "bfq") | select(.ratio_p50.hi >= 1)] | length' "$d/r.json")" 0
done
t_match "rotational: the recommendation line" "$out" 'recommendation: rotational: bfq, 3 of 3 machines faster on ls, ratio 0\.[0-9]+ \['
t_match "mmc: the recommendation line" "$out" 'recommendation: mmc: bfq, 3 of 3 machines faster on ls'
t_eq "virtual: no recommendation" "$(jq -r '.groups[] | select(.key == "virtual") | .recommendation.arm' "$d/r.json")" null
t_match "virtual: says why" "$out" 'virtual: no recommendation: keep mq-deadline: no setting ranks above it'
t_eq "virtual: no verdict on any action" \
  "$(jq -c '[.groups[] | select(.key == "virtual") | .rows[] | select(.arm == "bfq") | .verdict] | unique' "$d/r.json")" \
  '["no difference detectable"]'
t_eq "the baseline is each machine's own scheduler, not the profile run's" \
  "$(jq -c '[.groups[].arms[] | "\(.label)=\(.first_on)"]' "$d/r.json")" \
  '["mq-deadline=3","bfq=0","mq-deadline=3","bfq=0","mq-deadline=3","bfq=0"]'
# --by model keeps the emulated disks apart from what they stand for
t_eq "--by model" "$("$BRISK" report "${files[@]}" --by model --json - 2>/dev/null | jq -c '[.groups[].key]')" \
  '["brisk lab hdd-7200","brisk lab sd-card","unknown model"]'


# 2. one truncated, one of a future major version: named, skipped, exit 3
head -c 3000 "$E/emu-hdd-1/emu-hdd-1-cmp.json" >"$d/truncated.json"
jq '.format_version = 2' "$E/emu-sd-1/emu-sd-1-cmp.json" >"$d/future.json"
out2=$("$BRISK" report "${files[@]}" "$d/truncated.json" "$d/future.json" 2>"$d/err"); rc=$?
err=$(cat "$d/err")
t_eq "skipped: exit 3" "$rc" 3
t_match "the truncated file named" "$err" 'truncated.json: truncated: the JSON ends early'
t_match "the future file named" "$err" 'future.json: format_version 2 is newer than this brisk reads \(1\): skipped; upgrade brisk'
t_match "stderr counts them" "$err" '2 of 38 files skipped'
t_match "the report lists them" "$out2" 'skipped \(2\):'
t_eq "the same recommendations" "$(grep -A4 '^recommendations:' <<<"$out2")" "$(grep -A4 '^recommendations:' <<<"$out")"

# 3. --save-profile: the classes with a winner, virtual left out, udev rules
"$BRISK" report "${files[@]}" --save-profile emulated >/dev/null 2>"$d/err"; rc=$?
t_eq "save-profile: exit 0" "$rc" 0
t_match "save-profile: virtual left out, and why" "$(cat "$d/err")" \
  'virtual: no profile class .*a virtual disk matches the rotational or ssd rules by the queue/rotational its hypervisor gives it'
p=$XDG_CONFIG_HOME/brisk/profiles/emulated.profile
t_check "save-profile: brisk profile check" "$BRISK" profile check "$p"
t_eq "save-profile: the settings" "$(grep -v '^;' "$p" | grep -A1 '^\[settings' | grep -v '^--' | tr '\n' ' ')" \
  '[settings rotational] scheduler = bfq [settings mmc] scheduler = bfq '
udev=$("$BRISK" export emulated --format udev 2>&1)
t_match "udev: rotational sd/vd/xvd disks get bfq" "$(tr -d '\\\n' <<<"$udev")" \
  'KERNEL=="sd\[a-z\]\*\|vd\[a-z\]\*\|xvd\[a-z\]\*", ATTR\{queue/rotational\}=="1", +ATTR\{queue/scheduler\}="bfq"'
t_match "udev: mmc disks get bfq" "$(tr -d '\\\n' <<<"$udev")" 'KERNEL=="mmcblk\[0-9\]\*", +ATTR\{queue/scheduler\}="bfq"'

# 4. the picture (cairo draws the text as glyphs: its look is checked by
#    eye; here that it is made, and taller for three panels than for one)
"$BRISK" report "${files[@]}" --plot "$d/f.svg" >/dev/null 2>&1
t_eq "plot: exit 0" "$?" 0
"$BRISK" report "$E"/emu-vda-*/*.json --plot "$d/one.svg" >/dev/null 2>&1
h() { sed -n 's/.*<svg[^>]* height="\([0-9.]*\)[^"]*".*/\1/p' "$1" | head -1; }
t_check "plot: three panels are taller than one" awk -v a="$(h "$d/f.svg")" -v b="$(h "$d/one.svg")" 'BEGIN { exit !(a > 2 * b * 0.8 && b > 0) }'

