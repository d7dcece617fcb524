#!/bin/bash
# brisk report over the fleet fixtures (tests/fixtures/fleet: real results
# made on this VM and edited copies that stand for other machines): the
# groups and recommendations by class, a truncated and a future-version
# file named and skipped (exit 3), the outputs (JSON, CSV, plot), the seed
# and the file order, --by, --baseline, --save-profile with profile check
# and export, hostile strings escaped, files that are not results.  No root.
source tests/lib.sh
command -v jq >/dev/null || { t_skip report-fleet "needs jq"; exit 0; }
F=tests/fixtures/fleet
d=$(t_tmpdir)
good=("$F"/real/*/*.json "$F"/synthetic/*/*.json)
export XDG_CONFIG_HOME=$d/xdg
export BRISK_RUNTIME_DIR=$d/rt   # a brisk that needs no recovery of others' journals

# 1. every file read: exit 0, one group per class, the recommendations
out=$("$BRISK" report "${good[@]}" 2>"$d/err"); rc=$?
t_eq "all read: exit 0" "$rc" 0
t_match "header counts results and machines" "$out" '^brisk [0-9.]+ report: 19 results \(11 run, 8 compare\) from 11 machines, by class'
t_match "a rotational group" "$out" '== rotational: 7 machines'
t_match "an ssd group" "$out" '== ssd: 3 machines'
t_match "rotational: bfq, with the machines that agree" "$out" 'recommendation: rotational: bfq, [0-9]+ of [0-9]+ machines faster on ssh-like, ratio [0-9.]+ \['
t_match "ssd: bfq" "$out" 'recommendation: ssd: bfq, 3 of 3 machines faster'
t_match "usb: one machine is not a fleet" "$out" 'usb: no recommendation: one machine \(usb-a\): not a fleet'
t_eq "nothing on stderr (every file has its format_version)" "$(cat "$d/err")" ""
t_match "a run measured under a profile's bfq is a bfq result" \
  "$(jq -r '.machine.disks[0].scheduler' "$F/real/vm-hdd/vm-hdd-run-bfq.json")" '^bfq$'
t_match "hdd-e disagrees on save" "$out" 'save +bfq +6 +[0-9]+ .* [0-9]/6 +no diff'

# 2. a truncated file and one of a future major version: both named and
#    skipped, the rest reported the same, exit 3
out2=$("$BRISK" report "${good[@]}" "$F/bad/truncated.json" "$F/bad/future.json" 2>"$d/err"); rc=$?
err=$(cat "$d/err")
t_eq "skipped: exit 3" "$rc" 3
t_match "the future file named, with its version" "$err" "bad/future.json: format_version 7 is newer than this brisk reads \(1\): skipped; upgrade brisk"
t_match "the truncated file named" "$err" 'bad/truncated.json: truncated: the JSON ends early'
t_match "stderr counts them" "$err" '2 of 21 files skipped'
t_match "the report lists them" "$out2" 'skipped \(2\):'
t_eq "the same recommendations" "$(grep '^recommendation:' <<<"$out2")" "$(grep '^recommendation:' <<<"$out")"
# nothing readable: exit 2, nothing to report
"$BRISK" report "$F/bad/truncated.json" "$F/bad/future.json" >"$d/out" 2>"$d/err"; rc=$?
t_eq "none readable: exit 2" "$rc" 2
t_match "none readable: says so" "$(cat "$d/err")" 'none of the 2 files could be reported on: nothing to report'
t_eq "none readable: no report" "$(wc -c <"$d/out")" 0

# 3. JSON and CSV
"$BRISK" report "${good[@]}" --json "$d/r.json" --csv "$d/r.csv" >/dev/null 2>&1; rc=$?
t_eq "json+csv: exit 0" "$rc" 0
t_eq "json: kind report" "$(jq -r .kind "$d/r.json")" report
t_eq "json: three groups" "$(jq -c '[.groups[].key]' "$d/r.json")" '["rotational","ssd","usb"]'
t_eq "json: the rotational winner" "$(jq -r '.groups[0].recommendation.settings' "$d/r.json")" scheduler=bfq
t_eq "json: no row has more machines than its group" \
  "$(jq '[.groups[] | (.machines|length) as $m | .rows[] | select(.machines > $m)] | length' "$d/r.json")" 0
t_eq "json: agree <= paired" "$(jq '[.groups[].rows[] | select(.agree > .paired)] | length' "$d/r.json")" 0
t_eq "json: intervals hold their estimate" \
  "$(jq '[.groups[].rows[].p50_ms | select(.lo != null and (.lo > .est or .hi < .est))] | length' "$d/r.json")" 0
t_eq "csv: one row per JSON row" "$(($(wc -l <"$d/r.csv") - 1))" "$(jq '[.groups[].rows[]] | length' "$d/r.json")"
t_match "csv header" "$(head -1 "$d/r.csv")" '^group,phase,action,arm,settings,machines,samples,p50_ms'
j=$("$BRISK" report "${good[@]}" --json - 2>/dev/null)
t_eq "--json -: only JSON on stdout" "$(jq -r .kind <<<"$j" 2>/dev/null)" report
"$BRISK" report "${good[@]}" --json - --csv - >/dev/null 2>&1
t_eq "--json - --csv -: a usage error" "$?" 2

# 4. the seed and the file order
a=$("$BRISK" report "${good[@]}" --json - 2>/dev/null | jq -c '.groups')
mapfile -t rev < <(printf '%s\n' "${good[@]}" | tac)
b=$("$BRISK" report "${rev[@]}" --json - 2>/dev/null | jq -c '.groups')
t_eq "the files in another order: the same figures" "$(md5sum <<<"$b")" "$(md5sum <<<"$a")"
c=$("$BRISK" report "${good[@]}" --seed 2 --json - 2>/dev/null | jq -c '.groups')
t_check "another seed: other intervals" test "$c" != "$a"
t_eq "another seed: the same estimates" "$(jq -c '[.[].rows[].p50_ms.est]' <<<"$c")" "$(jq -c '[.[].rows[].p50_ms.est]' <<<"$a")"

# 5. --by and --baseline
t_eq "--by model,firmware" "$("$BRISK" report "${good[@]}" --by model,firmware --json - 2>/dev/null | jq -c '[.groups[].key]')" \
  '["SD SC32G fw 8.0","ST1000DM003-1CH162 fw CC47","ST1000DM003-1CH162 fw CC49","SanDisk Cruzer fw 1.00","WDC WD10EZEX-08WN4A0 fw 01.01A01","brisk lab hdd-7200 fw unknown","brisk lab sd-card fw unknown","unknown model fw unknown"]'
t_eq "--by machine: one group each" "$("$BRISK" report "${good[@]}" --by machine --json - 2>/dev/null | jq '.groups|length')" 11
t_eq "--by kernel" "$("$BRISK" report "${good[@]}" --by kernel --json - 2>/dev/null | jq -c '[.groups[].key]')" "[\"$(jq -r .machine.kernel "$F/real/vm-hdd/vm-hdd-run1.json")\"]"
out=$("$BRISK" report "${good[@]}" --baseline bfq 2>/dev/null)
t_match "--baseline bfq: named" "$out" '== rotational: .*; baseline bfq'
t_match "--baseline bfq: mq-deadline slower" "$out" 'ssh-like +mq-deadline .* slower'
out=$("$BRISK" report "${good[@]}" --baseline kyber 2>/dev/null)
t_match "--baseline not measured: said" "$out" 'baseline kyber not measured here'
"$BRISK" report "${good[@]}" --by serial >/dev/null 2>"$d/err"
t_eq "--by serial: exit 2" "$?" 2
t_match "--by serial: what is expected" "$(cat "$d/err")" "class, model, model,firmware, machine or kernel"

# 6. --save-profile: where profile save writes, checked, exported
"$BRISK" report "${good[@]}" --save-profile fleet >/dev/null 2>"$d/err"; rc=$?
t_eq "save-profile: exit 0" "$rc" 0
p=$XDG_CONFIG_HOME/brisk/profiles/fleet.profile
t_check "save-profile: the file" test -f "$p"
t_match "save-profile: usb has no class" "$(cat "$d/err")" 'usb: no profile class'
t_check "save-profile: brisk profile check" "$BRISK" profile check "$p"
t_match "save-profile: [settings rotational]" "$(cat "$p")" '\[settings rotational\]'
t_match "save-profile: [settings ssd]" "$(cat "$p")" '\[settings ssd\]'
udev=$("$BRISK" export fleet --format udev 2>&1); rc=$?
t_eq "export udev: exit 0" "$rc" 0
t_match "export udev: rotational disks get bfq" "$(grep -A1 'rotational}=="1"' <<<"$udev" | tr -d '\n')" 'ATTR\{queue/scheduler\}="bfq"'
"$BRISK" report "${good[@]}" --save-profile fleet >/dev/null 2>"$d/err"
t_eq "save-profile again: exit 1" "$?" 1
t_match "save-profile again: exists" "$(cat "$d/err")" 'fleet.profile exists; pick another name or use --force'
"$BRISK" report "${good[@]}" --save-profile fleet --force >/dev/null 2>&1
t_eq "save-profile --force: exit 0" "$?" 0
"$BRISK" report "${good[@]}" --save-profile fleet --by model >/dev/null 2>&1
t_eq "save-profile --by model: usage error" "$?" 2
"$BRISK" report "$F/synthetic/usb-a/usb-a-run.json" --save-profile none1 >/dev/null 2>"$d/err"
t_eq "save-profile without a winner: exit 0 (a result, nothing saved)" "$?" 0
t_match "save-profile without a winner: says nothing was saved" "$(cat "$d/err")" 'nothing saved$'
t_check "save-profile without a winner: no file" test ! -e "$XDG_CONFIG_HOME/brisk/profiles/none1.profile"

# 7. the plot
"$BRISK" report "${good[@]}" --plot "$d/f.svg" >/dev/null 2>&1
t_eq "plot svg: exit 0" "$?" 0
t_match "plot svg: an SVG" "$(head -c 200 "$d/f.svg")" '<svg'
"$BRISK" report "${good[@]}" --plot "$d/f.png" >/dev/null 2>&1
t_eq "plot png: a PNG" "$(head -c 4 "$d/f.png" | od -An -c | tr -d ' ')" '211PNG'
"$BRISK" report "${good[@]}" --plot "$d/f.gif" >/dev/null 2>"$d/err"
t_eq "plot gif: exit 1" "$?" 1
t_match "plot gif: says why" "$(cat "$d/err")" 'name it .svg or .png'

# 8. hostile strings from another machine: escaped in text, CSV and plot
# (the host name a file claims is shown with --trust-file-identity)
"$BRISK" report --trust-file-identity "$F/hostile/evil/evil-cmp.json" "${good[@]}" --csv "$d/e.csv" --plot "$d/e.svg" >"$d/e.txt" 2>&1
t_eq "hostile: no ESC, BEL or CR in the text" "$(tr -d -c '\033\007\r' <"$d/e.txt" | wc -c)" 0
t_match "hostile: the host name escaped" "$(cat "$d/e.txt")" 'evil\\x1b\[31m\\x0d'
t_eq "hostile: no ESC, BEL or CR in the CSV" "$(tr -d -c '\033\007\r' <"$d/e.csv" | wc -c)" 0
t_eq "hostile: no ESC or BEL in the SVG" "$(tr -d -c '\033\007' <"$d/e.svg" | wc -c)" 0
"$BRISK" report "$F/hostile/evil/evil-cmp.json" --by model >"$d/e.txt" 2>&1
t_match "hostile: the model escaped" "$(cat "$d/e.txt")" 'Evil\\x1b\]0;pwn\\x07'

# 9. files that are not results
printf '{"brisk": "0.1.0", "query": "x", "devices": []}\n' >"$d/get.json"
# (a machine of its own: the same machine id under another host is left out)
jq 'del(.format_version) | .machine.machine_id = "0123456789abcdef0123456789abcdef"' \
  "$F/real/vm-hdd/vm-hdd-run1.json" >"$d/old.json"
mkdir "$d/emptydir"
head -c $((17 << 20)) /dev/zero | tr '\0' ' ' >"$d/big.json"
jq '.arms[1].settings = "scheduler=bfq RUN+=\"/bin/sh\""' "$F/real/vm-hdd/vm-hdd-cmp1.json" >"$d/run.json"
"$BRISK" report "$F/real/vm-hdd/vm-hdd-run1.json" "$d/get.json" "$d/old.json" "$d/big.json" "$d/emptydir" \
  "$d/none.json" "$d/r.json" "$d/run.json" >/dev/null 2>"$d/err"; rc=$?
err=$(cat "$d/err")
t_eq "not results: exit 3" "$rc" 3
t_match "another brisk JSON: not a result" "$err" 'get.json: not a brisk run or compare result \(no kind, and not the shape of one\): skipped'
t_match "no format_version: read as version 1" "$err" 'old.json: no format_version: read as version 1 \(it has the fields of a brisk run result\)'
t_match "too large" "$err" 'big.json: larger than 16 MiB: skipped'
t_match "a folder without results" "$err" "emptydir: no results in it: a results folder holds HOST/NAME.json"
t_match "a missing file" "$err" 'none.json: No such file or directory: skipped'
t_match "a report's own JSON" "$err" 'r.json: kind "report" is not a result brisk report reads'
t_match "an arm that is not a setting" "$err" 'run.json: arms\[1\].settings: .RUN\+="/bin/sh". is not a setting brisk knows: skipped'
t_match "six skipped" "$err" '6 of 8 files skipped'
"$BRISK" report >/dev/null 2>"$d/err"
t_eq "no FILE: exit 2" "$?" 2
t_match "no FILE: says so" "$(cat "$d/err")" "^brisk report: no DIR or FILE given"
# a write error on standard output is a message and exit 1, not a silent 0
"$BRISK" report "${good[@]}" --json - >/dev/full 2>"$d/err"
t_eq "json to a full stdout: exit 1" "$?" 1
t_match "json to a full stdout: says so" "$(cat "$d/err")" 'cannot write standard output: No space left on device'
