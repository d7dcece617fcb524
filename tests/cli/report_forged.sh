#!/bin/bash
# Issue 24: a few forged result files must not choose a setting for the
# whole fleet.  brisk report over tests/fixtures/fleet/forged (see its
# README): one host claiming three machines, a cloned machine id, the
# controller's HOST/machine-id, links in a results folder; four extreme
# hosts among twenty; one host vetoing twenty; one fake load_mibps; an
# absurd slice_idle (saved only with --force, never hidden behind a cut
# label); a vm.* key in one class winner (the other classes still saved);
# a hostile host folder name.  Each check fails on a brisk that trusted
# the files (before issue 24).  No root.
source tests/lib.sh
command -v jq >/dev/null || { t_skip report-forged "needs jq"; exit 0; }
FG=tests/fixtures/fleet/forged
d=$(t_tmpdir)
export XDG_CONFIG_HOME=$d/xdg
export BRISK_RUNTIME_DIR=$d/rt
P=$XDG_CONFIG_HOME/brisk/profiles

# 1. one host (web6) wrote three files claiming three machines that find an
#    absurd setting 70 % faster; five honest machines find bfq slower
out=$("$BRISK" report "$FG"/ids/*/*.json 2>"$d/err"); rc=$?
t_eq "ids: exit 3 (files left out)" "$rc" 3
t_match "ids: web6's files named, and what to do" "$(cat "$d/err")" \
  "ids/web6/20261204T010000Z-compare.json: the 3 files of host folder web6 claim 3 machines .*left out; put each machine's results in a folder of its own, results/HOST/\*.json, as the playbook does, or pass --trust-file-identity"
t_eq "ids: all three left out" "$(grep -c 'ids/web6/.*left out' "$d/err")" 3
t_match "ids: five machines, by host folder" "$out" $'from 5 machines, by class; 3 files skipped\nmachines: by host folder'
t_match "ids: nothing recommended (bfq is slower)" "$out" 'recommendation: rotational: no recommendation: keep mq-deadline'
t_check "ids: the forged setting is nowhere in the report" test "$(grep -c slice_idle <<<"$out")" = 0
"$BRISK" report "$FG"/ids/*/*.json --save-profile ids >/dev/null 2>"$d/err"; rc=$?
t_eq "ids: --save-profile saves nothing (exit 3: files left out, no winner)" "$rc" 3
t_check "ids: no profile" test ! -e "$P/ids.profile"
# the same through the results folder, as the playbook runs it
out2=$("$BRISK" report "$FG/ids" 2>/dev/null); rc=$?
t_eq "ids as a folder: exit 3" "$rc" 3
t_eq "ids as a folder: the same report" "$(grep -v 'left out' <<<"$out2")" "$(grep -v 'left out' <<<"$out")"
# --trust-file-identity: the old rule, said so; the value is still not saved
out=$("$BRISK" report --trust-file-identity "$FG/ids" --save-profile trusted 2>"$d/err"); rc=$?
t_eq "trust: nothing saved (exit 0: no winner is a result)" "$rc" 0
t_match "trust: said in the header" "$out" 'machines: as the files claim \(--trust-file-identity\): any file can claim to be any machine'
t_match "trust: 8 machines" "$out" 'from 8 machines'
t_match "trust: the whole setting list recommended, flagged" "$(tr '\n' ' ' <<<"$out" | tr -s ' ')" \
  'recommendation: rotational: scheduler=bfq back_seek_max=16384 back_seek_penalty=2 fifo_expire_async=250 low_latency=1 slice_idle=2147483647, 3 of 3'
t_match "trust: --save-profile says why not" "$(cat "$d/err")" \
  'rotational: .* has slice_idle=2147483647 \(0\.\.100\), outside the range a distribution default may carry .*not saved; --force saves it anyway'
t_check "trust: no profile" test ! -e "$P/trusted.profile"

# 2. one machine id under two hosts (a cloned image): left out under both
mkdir -p "$d/clone"
cp -r "$FG"/ids/web1 "$FG"/ids/web2 "$FG"/ids/web3 "$FG"/ids/web4 "$d/clone/"
mkdir "$d/clone/web9" && cp "$FG"/ids/web1/*.json "$d/clone/web9/"
"$BRISK" report "$d/clone" >"$d/out" 2>"$d/err"; rc=$?
t_eq "clone: exit 3" "$rc" 3
t_match "clone: named, and what to do" "$(cat "$d/err")" \
  'web9/20261204T010000Z-compare.json: machine id [0-9a-f]{8}\.\.\. is that of host folders web1 and web9: cloned images share /etc/machine-id: give each its own with systemd-machine-id-setup'
t_eq "clone: left out under both" "$(grep -c 'cloned images' "$d/err")" 2
t_match "clone: three machines left" "$(head -1 "$d/out")" 'from 3 machines'

# 3. the controller's record wins over the files' majority; a record that
#    is a link is named and not taken
mkdir -p "$d/rec"
cp -r "$FG"/ids/web1 "$FG"/ids/web6 "$d/rec/"
jq -r .machine.machine_id "$d/rec/web6/20261204T030000Z-compare.json" >"$d/rec/web6/machine-id"
"$BRISK" report "$d/rec" --json "$d/rec.json" >/dev/null 2>"$d/err"; rc=$?
t_eq "record: exit 3" "$rc" 3
t_match "record: a file against the controller's record" "$(cat "$d/err")" \
  'web6/20261204T010000Z-compare.json: claims machine id [0-9a-f]{8}\.\.\., but its host folder web6 is machine id [0-9a-f]{8}\.\.\. \(as the controller recorded in its machine-id\): left out'
t_eq "record: the recorded machine's file kept" "$(jq -c '[.groups[].machines[]]' "$d/rec.json")" '["web1","web6"]'
rm "$d/rec/web6/machine-id"
ln -s /etc/machine-id "$d/rec/web6/machine-id"
"$BRISK" report "$d/rec" >/dev/null 2>"$d/err"
t_match "record: a link named, not taken" "$(cat "$d/err")" 'web6/machine-id: a symbolic link: not followed: not taken'

# 4. a results folder: links are not followed, its own files not read
mkdir -p "$d/links/real"
cp "$FG"/ids/web1/*.json "$d/links/real/"
ln -s "$PWD/$FG/ids/web2" "$d/links/web2"
ln -s "$PWD/$FG/ids/web3/20261204T010000Z-compare.json" "$d/links/real/z-compare.json"
echo '{"kind": "report"}' >"$d/links/report.json"
"$BRISK" report "$d/links" >"$d/out" 2>"$d/err"; rc=$?
t_eq "links: exit 3" "$rc" 3
t_match "links: a linked host folder not followed" "$(cat "$d/err")" 'links/web2: a symbolic link in place of a host folder: not followed: skipped'
t_match "links: a linked result not followed" "$(cat "$d/err")" 'links/real/z-compare.json: a symbolic link: not followed: skipped'
t_check "links: report.json beside the hosts not read" test "$(grep -c report.json "$d/err")" = 0
t_match "links: one result" "$(head -1 "$d/out")" 'report: 1 result '

# 5. four hosts claiming bfq at 1e-11 of the time among twenty finding it
#    1.2x slower
out=$("$BRISK" report "$FG"/minority/*/*.json --json "$d/m.json" 2>/dev/null); rc=$?
t_eq "minority: exit 0" "$rc" 0
t_eq "minority: bfq slower, 20 of 24" "$(jq -c '.groups[0].rows[] | select(.arm == "bfq") | [.verdict, .agree, .paired]' "$d/m.json")" '["slower",20,24]'
t_check "minority: the ratio is the honest machines'" \
  awk -v r="$(jq '.groups[0].rows[] | select(.arm == "bfq") | .ratio_p50.est' "$d/m.json")" 'BEGIN { exit !(r > 1.1 && r < 1.4) }'
t_match "minority: nothing recommended" "$out" 'recommendation: rotational: no recommendation: keep mq-deadline'
t_eq "minority: the four named" "$(jq -c '.groups[0].rows[] | select(.arm == "bfq") | .disagree' "$d/m.json")" '["x01","x02","x03","x04"]'

# 6. one host with extreme times cannot veto twenty
out=$("$BRISK" report "$FG"/veto/*/*.json --json "$d/v.json" 2>/dev/null)
t_eq "veto: bfq faster, 20 of 21" "$(jq -c '.groups[0].rows[] | select(.arm == "bfq") | [.verdict, .agree, .paired]' "$d/v.json")" '["faster",20,21]'
t_match "veto: bfq recommended" "$out" 'recommendation: rotational: bfq, 20 of 21 machines faster on save'
t_match "veto: the one that disagrees named" "$out" 'disagree on save bfq \(1 of 21\): x01'
t_match "veto: in the recommendation too" "$out" '\(disagree: x01\)'
"$BRISK" report "$FG"/veto/*/*.json --csv "$d/v.csv" >/dev/null 2>&1
t_match "veto: the CSV's disagree column" "$(tail -1 "$d/v.csv")" ',faster,"x01"$'

# 7. one fake load_mibps cannot make bfq starve the load
out=$("$BRISK" report "$FG"/load/*/*.json --json "$d/l.json" 2>/dev/null)
t_match "load: bfq recommended" "$out" 'recommendation: rotational: bfq, 21 of 21 machines faster'
t_check "load: nothing starves" test "$(grep -c starve <<<"$out")" = 0
t_check "load: the median load ratio is the honest one" \
  awk -v r="$(jq '.groups[0].arms[] | select(.label == "bfq") | .load_ratio.est' "$d/l.json")" 'BEGIN { exit !(r > 0.95 && r < 1.01) }'

# 8. an absurd value all machines agree on: shown whole, flagged, saved only
#    with --force
out=$("$BRISK" report "$FG"/values/*/*.json --json "$d/val.json" --save-profile val 2>"$d/err"); rc=$?
t_eq "values: nothing saved without --force (exit 0: said, a result)" "$rc" 0
t_match "values: the whole setting list recommended" "$(tr '\n' ' ' <<<"$out" | tr -s ' ')" \
  'recommendation: rotational: scheduler=bfq back_seek_max=16384 back_seek_penalty=2 fifo_expire_async=250 low_latency=1 slice_idle=2147483647, 5 of 5'
t_match "values: flagged" "$(tr '\n' ' ' <<<"$out" | tr -s ' ')" \
  'outside the range a default may carry: slice_idle=2147483647 \(0\.\.100\): shown, not saved into a class rule without --force'
t_match "values: the cut label listed whole below the table" "$(tr '\n' ' ' <<<"$out" | tr -s ' ')" \
  'arms: #2 = scheduler=bfq back_seek_max=16384 back_seek_penalty=2 fifo_expire_async=250 low_latency=1 slice_idle=2147483647'
t_eq "values: JSON names it" "$(jq -r '.groups[0].arms[] | select(.outside_default_range) | .outside_default_range' "$d/val.json")" 'slice_idle=2147483647 (0..100)'
t_check "values: no profile" test ! -e "$P/val.profile"
"$BRISK" report "$FG"/values/*/*.json --save-profile val --force >/dev/null 2>&1; rc=$?
t_eq "values: --force saves it" "$rc" 0
t_match "values: the profile's comment gives the whole settings" "$(grep '^;' "$P/val.profile" | tr -d ';\n' | tr -s ' ')" \
  'rotational: scheduler=bfq back_seek_max=16384 back_seek_penalty=2 fifo_expire_async=250 low_latency=1 slice_idle=2147483647, 5 of 5'
t_match "values: and says --force saved it" "$(grep '^;' "$P/val.profile" | tr -d ';\n' | tr -s ' ')" \
  'saved with --force, outside the range a default may carry: slice_idle=2147483647'

# 9. a vm.* key in one class's winner: the other class still saved
"$BRISK" report "$FG"/partial/*/*.json --save-profile part >/dev/null 2>"$d/err"; rc=$?
t_eq "partial: saved (exit 0)" "$rc" 0
t_match "partial: the ssd winner saved" "$(grep -A1 '^\[settings' "$P/part.profile" 2>/dev/null | tr '\n' ' ')" '^\[settings ssd\] scheduler = bfq $'
t_match "partial: the rotational one named, and why" "$(cat "$d/err")" \
  'rotational: vm.dirty_ratio=5 cannot go into a profile: vm.dirty_ratio is system-wide, it cannot be set for one device class; put it in \[settings\] \(not saved\)'
t_check "partial: brisk profile check" "$BRISK" profile check "$P/part.profile"

# 10. a host folder's name is untrusted text too
mkdir -p "$d/evil/"$'evil\e[31m\r'
cp "$FG"/ids/web1/*.json "$d/evil/"$'evil\e[31m\r'/
"$BRISK" report "$d/evil" >"$d/e.txt" 2>&1
t_eq "hostile folder: no ESC or CR in the text" "$(tr -d -c '\033\r' <"$d/e.txt" | wc -c)" 0
t_match "hostile folder: the name escaped" "$(cat "$d/e.txt")" 'machines: evil\\x1b\[31m\\x0d'
