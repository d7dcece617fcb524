#!/bin/bash
# packaging/ansible/brisk-fleet.yml against this machine (-i localhost, -c
# local, root) on a loop device's ext4: --syntax-check and ansible-lint; a
# host refused for free space (brisk's default floor on 3 GiB) and for an
# option the playbook sets itself; a quick check and a comparison that
# complete (JSON fetched to results/localhost/, brisk report's JSON, plot
# and text, the restore check passed, nothing left on the host; the host's
# machine id recorded in results/localhost/machine-id, and a forged file in
# that folder left out); a journal left by brisk set on the
# loop device: the host refused before measuring, the check alone failing
# with and without putting it back; a package that is not there or of the
# wrong kind refused; the tarball built and installed into a temporary
# PREFIX, a second run changing nothing (issue 25).  --check (issue 25): the
# preflight's read-only commands run and refuse a host as the run would, the
# role says what it would do and nothing is measured, fetched, installed or
# written.  brisk's journals live in a runtime directory of the test's own;
# only the loop device is touched, and everything is put back.
source tests/lib.sh
source tests/cli/loop_common.bash
if ! is_root; then t_skip ansible_fleet "needs root (a loop device, mount, brisk set)"; exit 0; fi
if ! command -v ansible-playbook >/dev/null 2>&1; then
  t_skip ansible_fleet "ansible-playbook is not installed (Debian: apt-get install ansible-core)"; exit 0
fi
for c in losetup mkfs.ext4 jq; do
  command -v "$c" >/dev/null 2>&1 || { t_skip ansible_fleet "needs $c"; exit 0; }
done
top=$PWD
pbook=packaging/ansible/brisk-fleet.yml
d=$(t_tmpdir) || { t_fail ansible_fleet "no temporary directory"; exit 0; }
# ansible's own files (temp, async jobs, lint caches) go under $d too
export ANSIBLE_HOME=$d/ansible ANSIBLE_LOCAL_TEMP=$d/ansible/tmp ANSIBLE_REMOTE_TEMP=$d/ansible/rtmp
export ANSIBLE_ASYNC_DIR=$d/ansible/async XDG_CACHE_HOME=$d/cache ANSIBLE_NOCOLOR=1 NO_COLOR=1
export ANSIBLE_RETRY_FILES_ENABLED=0
export BRISK_RUNTIME_DIR=$d/rt
mkdir -p "$BRISK_RUNTIME_DIR" "$d/hosttmp" && chmod 700 "$BRISK_RUNTIME_DIR"

# --- static checks -------------------------------------------------------
out=$(ansible-playbook --syntax-check -i localhost, "$pbook" 2>&1); rc=$?
t_eq "syntax-check" "$rc" 0
[ "$rc" = 0 ] || echo "  $out"
if command -v ansible-lint >/dev/null 2>&1; then
  out=$(ansible-lint -c packaging/ansible/.ansible-lint "$pbook" packaging/ansible/roles/brisk 2>&1); rc=$?
  t_eq "ansible-lint (production profile)" "$rc" 0
  [ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/  /'
else
  t_skip "ansible-lint" "ansible-lint is not installed (Debian: apt-get install ansible-lint)"
fi

# --- a loop device with ext4 ---------------------------------------------
loop_mount -d "$d" -c "$(printf %q "$BRISK") restore >/dev/null 2>&1" ansible_fleet 3G
other=$(tr -d '[]' <"$q/scheduler" | tr ' ' '\n' | grep -v -x -e "$orig_sched" -e none -e '' | head -n 1)

jq -n --arg dir "$d/mnt" --arg bin "$BRISK" --arg rt "$BRISK_RUNTIME_DIR" --arg res "$d/results" \
  --arg tmp "$d/hosttmp" \
  '{brisk_dir: $dir, brisk_bin: $bin, brisk_controller_bin: $bin, brisk_results_dir: $res,
    brisk_host_tmp: $tmp, brisk_environment: {BRISK_RUNTIME_DIR: $rt}, brisk_budget: "15s"}' >"$d/vars.json"
# without brisk_bin: what an install sets is used (an extra variable wins)
jq 'del(.brisk_bin)' "$d/vars.json" >"$d/vars-nobin.json"
# play LOG [ansible-playbook options...]: the playbook against this machine
# (VARS=FILE: other variables than vars.json)
play() {
  local log=$1; shift
  ansible-playbook -i localhost, -c local "$pbook" -e ansible_become=false -e "@${VARS:-$d/vars.json}" "$@" \
    >"$d/$log.log" 2>&1
}
# recap LOG: "changed=N failed=N" of its PLAY RECAP
recap() { sed -n 's/^localhost *: .*changed=\([0-9]*\).*failed=\([0-9]*\).*/changed=\1 failed=\2/p' "$d/$1.log" | tail -n 1; }
json_count() { find "$d/results" -path "$d/results/*/*.json" 2>/dev/null | wc -l; }

# --- refused: free space with brisk's default floor ----------------------
# 3 GiB: about 2.7 GiB free; the floor (2 GiB) + 512 MiB of files + 8 GiB of
# room for the writer is more
play space; rc=$?
t_check "space: refused (exit != 0)" test "$rc" != 0
t_match "space: says why" "$(cat "$d/space.log")" \
  "refused: $d/mnt has [0-9]+ MiB free; the run needs [0-9]+ MiB: the free-space floor 2048 MiB \(brisk's default"
t_eq "space: nothing measured" "$(json_count)" 0
t_eq "space: no work directory" "$(find "$d/mnt" -maxdepth 1 -name '.brisk-*' | wc -l)" 0

# --- check mode: refused for the same reason, and nothing done -----------
play spacecheck --check; rc=$?
t_check "check mode: space: refused (exit != 0)" test "$rc" != 0
t_match "check mode: space: says why, as the run does" "$(cat "$d/spacecheck.log")" \
  "refused: $d/mnt has [0-9]+ MiB free; the run needs [0-9]+ MiB: the free-space floor 2048 MiB"
check_mode_case() {
  play check --check -e brisk_floor=256m -e brisk_write_room=1g -e '{"brisk_run_args": ["-l", "seq-write:rate=32m"]}'
  rc=$?
  t_eq "check mode: the playbook succeeds" "$rc" 0
  [ "$rc" = 0 ] || grep -E 'FAILED|fatal|msg' "$d/check.log" | head -n 20 | sed 's/^/  /'
  t_match "check mode: says what the run would do" "$(cat "$d/check.log")" \
    "localhost: check mode: would run 'timeout --signal=TERM --kill-after=60 135s $BRISK run $d/mnt --max-time 15s -l seq-write:rate=32m --floor 256m --json $d/hosttmp/brisk-fleet.XXXXXX/result.json --quiet' \(at most 135 s, then stopped\), fetch its JSON to $d/results/localhost/STAMP-quick.json and record the host's machine id [0-9a-f]+ beside it; nothing was run"
  t_match "check mode: the restore check ran" "$(cat "$d/check.log")" 'localhost: brisk restore --dry-run: nothing to restore'
  t_match "check mode: the report says there is nothing yet" "$(cat "$d/check.log")" \
    "check mode: no results in $d/results/HOST/\*\.json yet"
  t_eq "check mode: nothing changed (PLAY RECAP)" "$(recap check)" "changed=0 failed=0"
  t_eq "check mode: no results folder" "$(find "$d/results" 2>/dev/null | wc -l)" 0
  t_eq "check mode: nothing in DIR" "$(find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l)" 0
  t_eq "check mode: no temporary directory on the host" "$(find "$d/hosttmp" -mindepth 1 | wc -l)" 0
}
check_mode_case

# --- refused: an option the playbook sets itself -------------------------
play args -e brisk_floor=256m -e brisk_write_room=1g -e '{"brisk_run_args": ["--json=/tmp/x.json"]}'; rc=$?
t_check "args: --json refused (exit != 0)" test "$rc" != 0
t_match "args: says why" "$(cat "$d/args.log")" "'--json=/tmp/x.json' in brisk_run_args: the playbook sets --json"
play args2 -e brisk_mode=compare -e '{"brisk_compare_args": "--schedulers --bud 5m"}'; rc=$?
t_check "args: an abbreviated --budget refused" test "$rc" != 0
t_match "args: names it" "$(cat "$d/args2.log")" "'--budget=5m' in brisk_compare_args"

# --- refused: options as brisk reads them (issue 24) ----------------------
# refused_as_brisk_reads NAME MODE ARGS REGEX: the play with brisk_MODE_args
# ARGS (one string) fails in the preflight, saying REGEX, before anything
# runs on the host (no Measure task, no result, no work directory, no file
# that the option names)
refused_as_brisk_reads() {
  local name=$1 mode=$2 args=$3 re=$4 rc n
  n=$(json_count)
  play "opt-$name" -e "brisk_mode=$mode" -e "$(jq -n --arg k "brisk_${mode/quick/run}_args" --arg v "$args" '{($k): $v}')"
  rc=$?
  t_check "options: $name refused (exit != 0)" test "$rc" != 0
  t_match "options: $name: says why" "$(cat "$d/opt-$name.log")" "$re"
  t_eq "options: $name: refused before anything ran" \
    "$(grep -c 'TASK \[brisk : Measure' "$d/opt-$name.log")$(json_count)" "0$n"
  t_eq "options: $name: no work directory, no file" \
    "$(find "$d/mnt" "$HOME" -maxdepth 1 \( -name '.brisk-*' -o -name X -o -name F -o -name x.profile \) | wc -l)" 0
}
refused_options_cases() {
  refused_as_brisk_reads qr5 compare '--schedulers -qr5' "'--rounds=5' in brisk_compare_args: .*\\('--schedulers -qr5' as brisk reads it\\)"
  refused_as_brisk_reads qb0 compare '--schedulers -qb0' "brisk_compare_args '--schedulers -qb0': brisk refused them: brisk compare: --budget '0'"
  refused_as_brisk_reads qjX quick '-qjX' "'--json=X' in brisk_run_args"
  refused_as_brisk_reads qr1000 compare '--schedulers -qr1000' "'--rounds=1000' in brisk_compare_args"
  refused_as_brisk_reads openmetrics quick '--openmetrics F' "'--openmetrics=F' in brisk_run_args.*leaves no other file on the host"
  refused_as_brisk_reads open quick '--open=F' "'--openmetrics=F' in brisk_run_args"
  refused_as_brisk_reads sav compare '--schedulers --sav=x' "'--save=x' in brisk_compare_args"
  refused_as_brisk_reads force compare '--schedulers --for' "'--force' in brisk_compare_args"
  refused_as_brisk_reads bogus quick '-qZ' "brisk_run_args '-qZ': brisk refused them: brisk run: unknown option '-Z'"
}
refused_options_cases
# a lock file nobody holds (what a killed brisk leaves; `brisk restore
# --dry-run` names it, and exits 0: brisk(1) EXIT STATUS) is no setting left
# changed: the preflight goes on, here to the free-space refusal, and the
# restore check after a run passes
stale_lock_case() {
  printf '12345\n' >"$BRISK_RUNTIME_DIR/sysctl-vm.lock"
  play stalelock
  t_match "stale lock: the preflight lets it pass" "$(cat "$d/stalelock.log")" "refused: $d/mnt has [0-9]+ MiB free"
  play stalelock-check --tags restore_check; rc=$?
  t_eq "stale lock: the restore check passes" "$rc" 0
  t_match "stale lock: the restore check says so" "$(cat "$d/stalelock-check.log")" \
    'localhost: brisk restore --dry-run: nothing to restore \(1 lock file\(s\) nobody holds, removed by brisk restore\)'
  rm -f "$BRISK_RUNTIME_DIR/sysctl-vm.lock"
}
stale_lock_case

# --- a quick check that completes ----------------------------------------
# floor 256 MiB, 1 GiB of room, a writer held at 32 MiB/s for the 15 s budget
t0=$(date +%s)
play quick -e brisk_floor=256m -e brisk_write_room=1g -e '{"brisk_run_args": ["-l", "seq-write:rate=32m"]}'
rc=$?
t_eq "quick: the playbook succeeds" "$rc" 0
[ "$rc" = 0 ] || grep -E 'FAILED|fatal|msg' "$d/quick.log" | head -n 20 | sed 's/^/  /'
echo "  (quick run: $(($(date +%s) - t0)) s)"
files=$(find "$d/results/localhost" -name '*-quick.json' 2>/dev/null)
t_eq "quick: one JSON fetched to results/localhost/" "$(printf '%s' "$files" | grep -c .)" 1
t_match "quick: named STAMP-quick.json" "$(basename "$files" 2>/dev/null)" '^[0-9]{8}T[0-9]{6}Z-quick\.json$'
t_eq "quick: a brisk run result of this machine" \
  "$(jq -r '[.kind, .machine.hostname] | join(" ")' "$files" 2>/dev/null)" "run $(uname -n)"
t_eq "quick: the disk measured is the loop device" "$(jq -r '[.machine.disks[].name] | join(" ")' "$files" 2>/dev/null)" "$dev"
mid=$(jq -r .machine.machine_id "$files" 2>/dev/null)
if [ -s /etc/machine-id ]; then
  t_eq "quick: the controller recorded the host's machine id in results/localhost/machine-id" \
    "$(cat "$d/results/localhost/machine-id" 2>/dev/null)" "$mid"
  # a file in the host's folder that claims another machine is left out:
  # the controller's record, not the file, says whose the folder is
  jq '.machine.machine_id = "0123456789abcdef0123456789abcdef" | .machine.hostname = "forged"' \
    "$files" >"$d/results/localhost/20000101T000000Z-quick.json"
  "$BRISK" report "$d/results" >"$d/forged.out" 2>"$d/forged.err"; rc=$?
  t_eq "quick: a forged file in the host folder: exit 3" "$rc" 3
  t_match "quick: it is named, against the controller's record" "$(cat "$d/forged.err")" \
    "20000101T000000Z-quick.json: claims machine id 01234567\.\.\., but its host folder localhost is machine id ${mid:0:8}\.\.\. \(as the controller recorded in its machine-id\): left out"
  t_match "quick: the report covers the host's own" "$(head -n 1 "$d/forged.out")" 'report: 1 result \(1 run'
  rm -f "$d/results/localhost/20000101T000000Z-quick.json"
else
  t_skip "quick: machine-id recorded" "no /etc/machine-id"
fi
t_eq "quick: report.json written" "$(jq -r .kind "$d/results/report.json" 2>/dev/null)" report
t_check "quick: report.svg written" grep -q '<svg' "$d/results/report.svg"
t_match "quick: report.txt is brisk report's text" "$(head -n 1 "$d/results/report.txt" 2>/dev/null)" \
  '^brisk [0-9.]+ report: 1 result \(1 run, 0 compare\) from 1 machine'
t_match "quick: the report shown" "$(cat "$d/quick.log")" '"brisk [0-9.]+ report: 1 result'
t_match "quick: the restore check passed" "$(cat "$d/quick.log")" 'localhost: brisk restore --dry-run: nothing to restore'
t_eq "quick: brisk restore --dry-run: nothing" "$("$BRISK" restore --dry-run 2>&1)" "nothing to restore"
t_eq "quick: no work directory left in DIR" "$(find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l)" 0
t_eq "quick: no temporary directory left on the host" "$(find "$d/hosttmp" -mindepth 1 | wc -l)" 0
t_eq "quick: the scheduler untouched" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")" "$orig_sched"

# --- a comparison that completes -----------------------------------------
# the loop device's scheduler against another within a 90 s budget;
# brisk report on the controller then reads both results of this host
if [ -n "$other" ]; then
  play compare -e brisk_mode=compare -e brisk_budget=90s -e brisk_floor=256m -e brisk_write_room=1g \
    -e "{\"brisk_compare_args\": [\"current\", \"scheduler=$other\", \"-n\", \"1\", \"-a\", \"ssh-like\", \"-l\", \"seq-write:size=64m\", \"--warmup\", \"1s\", \"--settle-max\", \"5s\"]}"
  rc=$?
  t_eq "compare: the playbook succeeds" "$rc" 0
  [ "$rc" = 0 ] || grep -E 'FAILED|fatal|msg' "$d/compare.log" | head -n 20 | sed 's/^/  /'
  cf=$(find "$d/results/localhost" -name '*-compare.json' 2>/dev/null)
  t_eq "compare: one JSON fetched" "$(printf '%s' "$cf" | grep -c .)" 1
  t_eq "compare: a brisk compare result of the two arms" \
    "$(jq -r '[.kind, (.arms | map(.label) | join(","))] | join(" ")' "$cf" 2>/dev/null)" "compare current,$other"
  t_match "compare: the report reads both results" "$(head -n 1 "$d/results/report.txt" 2>/dev/null)" \
    '^brisk [0-9.]+ report: 2 results \(1 run, 1 compare\) from 1 machine'
  t_match "compare: the restore check passed" "$(cat "$d/compare.log")" 'localhost: brisk restore --dry-run: nothing to restore'
  t_match "compare: PLAY RECAP without failures" "$(grep -A2 'PLAY RECAP' "$d/compare.log")" 'localhost +: ok=[0-9]+ +changed=[0-9]+ +unreachable=0 +failed=0'
  grep -A1 'PLAY RECAP' "$d/compare.log" | sed 's/^/  /'
  t_eq "compare: the scheduler put back" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")" "$orig_sched"
  t_eq "compare: nothing left in DIR" "$(find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l)" 0
  # check mode with results there: brisk report's text on them, no file written
  before=$(stat -c '%Y %s' "$d/results/report.json" "$d/results/report.txt" "$d/results/report.svg")
  n=$(json_count)
  play check2 --check -e brisk_floor=256m -e brisk_write_room=1g; rc=$?
  t_eq "check mode: with results: the playbook succeeds" "$rc" 0
  t_match "check mode: says the run would write the report" "$(cat "$d/check2.log")" \
    "check mode: the results already in $d/results \(without this run, which measured nothing\); the run would write report.json, report.svg and report.txt there"
  t_match "check mode: brisk report on the results there" "$(cat "$d/check2.log")" \
    '^ *"brisk [0-9.]+ report: 2 results \(1 run, 1 compare\)'
  t_eq "check mode: with results: no result, report file or temporary directory added or changed" \
    "$(json_count) $(stat -c '%Y %s' "$d/results/report.json" "$d/results/report.txt" "$d/results/report.svg") $(find "$d/hosttmp" -mindepth 1 | wc -l)" \
    "$n $before 0"
else
  t_skip "compare" "$dev offers no scheduler other than $orig_sched and none"
fi

# --- a journal left by brisk set ----------------------------------------
if [ -z "$other" ]; then
  t_skip "leftover" "$dev offers no scheduler but $orig_sched and none"
else
  "$BRISK" set "$dev" "scheduler=$other" >/dev/null 2>&1
  t_eq "leftover: brisk set $dev scheduler=$other" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")" "$other"
  n=$(json_count)
  play before -e brisk_floor=256m -e brisk_write_room=1g; rc=$?
  t_check "leftover: the host refused before measuring" test "$rc" != 0
  t_match "leftover: says why" "$(cat "$d/before.log")" \
    "refused: brisk restore --dry-run lists settings that an earlier brisk .* \(exit 5\): would restore $dev scheduler=$orig_sched \(now $other\)"
  t_eq "leftover: nothing measured" "$(json_count)" "$n"
  play beforecheck --check -e brisk_floor=256m -e brisk_write_room=1g; rc=$?
  t_check "check mode: leftover: the host refused (exit != 0)" test "$rc" != 0
  t_match "check mode: leftover: says why, as the run does" "$(cat "$d/beforecheck.log")" \
    "refused: brisk restore --dry-run lists settings that an earlier brisk .* \(exit 5\): would restore $dev scheduler=$orig_sched \(now $other\)"
  t_eq "check mode: leftover: still set" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")" "$other"

  play keep --tags restore_check -e brisk_restore_leftovers=false; rc=$?
  t_check "leftover: the restore check fails" test "$rc" != 0
  t_match "leftover: it lists what is left" "$(cat "$d/keep.log")" \
    "settings were left changed after the run: brisk restore --dry-run \(exit 5\) said: would restore $dev scheduler=$orig_sched \(now $other\)"
  t_match "leftover: and says how to put it back" "$(cat "$d/keep.log")" "put them back with 'brisk restore' on the host"
  t_eq "leftover: brisk_restore_leftovers=false leaves it" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")" "$other"

  play putback --tags restore_check; rc=$?
  t_check "leftover: the restore check still fails the host" test "$rc" != 0
  t_match "leftover: brisk restore put it back" "$(cat "$d/putback.log")" \
    "brisk restore \(exit 0\) then said: restored $dev scheduler=$orig_sched \(was $other\)"
  t_eq "leftover: the scheduler is back" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")" "$orig_sched"
  t_eq "leftover: nothing to restore after" "$("$BRISK" restore --dry-run 2>&1)" "nothing to restore"
fi

# --- install: package refused, tarball into a temporary PREFIX -----------
play nopkg --tags install -e brisk_install=package -e "brisk_package=$d/none.deb"; rc=$?
t_check "package: a missing package refused" test "$rc" != 0
t_match "package: says why" "$(cat "$d/nopkg.log")" "brisk_package must name a .deb or .rpm on the controller"
if command -v apt-get >/dev/null 2>&1; then
  : >"$d/brisk_0.1.0-1_amd64.deb"
  play pkgcheck --check --tags install -e brisk_install=package -e "brisk_package=$d/brisk_0.1.0-1_amd64.deb"; rc=$?
  t_eq "package: check mode: succeeds" "$rc" 0
  t_match "package: check mode: says what it would do" "$(cat "$d/pkgcheck.log")" \
    'localhost: check mode: would copy brisk_0.1.0-1_amd64.deb to a temporary directory and install it with apt .*nothing was changed'
  t_eq "package: check mode: nothing changed" "$(recap pkgcheck) $(find "$d/hosttmp" -mindepth 1 | wc -l)" "changed=0 failed=0 0"
  : >"$d/brisk-0.1.0-1.x86_64.rpm"
  play rpm --tags install -e brisk_install=package -e "brisk_package=$d/brisk-0.1.0-1.x86_64.rpm"; rc=$?
  t_check "package: an .rpm on an apt host refused" test "$rc" != 0
  t_match "package: says why" "$(cat "$d/rpm.log")" "this host's package manager is apt and the package is brisk-0.1.0-1.x86_64.rpm"
else
  t_skip "package: check mode, an .rpm refused" "no apt-get: the host is not an apt host"
fi
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] && git archive --format=tar.gz \
     --prefix=brisk-0.1.0/ -o "$d/brisk-0.1.0.tar.gz" HEAD 2>/dev/null; then
  # check mode, nothing in PREFIX yet: what it would do, and the host ends
  # there (the checks that need brisk wait for the run)
  VARS=$d/vars-nobin.json play tarcheck --check -e brisk_install=tarball \
    -e "brisk_tarball=$d/brisk-0.1.0.tar.gz" -e "brisk_prefix=$d/prefix" -e brisk_floor=256m -e brisk_write_room=1g
  rc=$?
  t_eq "tarball: check mode: succeeds" "$rc" 0
  t_match "tarball: check mode: says what it would do" "$(cat "$d/tarcheck.log")" \
    "would unpack brisk-0.1.0.tar.gz in a temporary directory, install the build dependencies it finds missing .* install into $d/prefix the files that differ from those there \(no brisk there now\); nothing was changed"
  t_match "tarball: check mode: the checks that need brisk wait for the run" "$(cat "$d/tarcheck.log")" \
    "check mode: $d/prefix/bin/brisk is not there yet \(brisk_install tarball installs it in the run\)"
  t_eq "tarball: check mode: nothing installed or left" \
    "$(recap tarcheck) $(find "$d/prefix" 2>/dev/null | wc -l) $(find "$d/hosttmp" -mindepth 1 | wc -l)" "changed=0 failed=0 0 0"

  play tarball --tags install -e brisk_install=tarball -e "brisk_tarball=$d/brisk-0.1.0.tar.gz" \
    -e "brisk_prefix=$d/prefix"; rc=$?
  t_eq "tarball: built and installed" "$rc" 0
  [ "$rc" = 0 ] || grep -E 'FAILED|fatal|msg' "$d/tarball.log" | head -n 20 | sed 's/^/  /'
  t_match "tarball: PREFIX/bin/brisk runs" "$("$d/prefix/bin/brisk" --version 2>&1)" '^brisk [0-9.]+$'
  t_check "tarball: its data under PREFIX" test -f "$d/prefix/share/brisk/profiles/quick.profile"
  t_eq "tarball: the build directory removed" "$(find "$d/hosttmp" -mindepth 1 | wc -l)" 0
  nfiles=$(find "$d/prefix" ! -type d | wc -l)
  t_match "tarball: says what it installed and leaves" "$(cat "$d/tarball.log")" \
    "localhost: $d/prefix/bin/brisk: installed $nfiles of its $nfiles files \($d/prefix/bin/brisk, .*\); they stay, in $d/prefix/bin, .*$d/prefix/share/man/man1.* \(make uninstall PREFIX=$d/prefix in the unpacked tarball removes them\)\. Build dependencies: "
  t_eq "tarball: changed" "$(recap tarball)" "changed=1 failed=0"
  # the same tarball again: nothing changes
  play tarball2 --tags install -e brisk_install=tarball -e "brisk_tarball=$d/brisk-0.1.0.tar.gz" \
    -e "brisk_prefix=$d/prefix"; rc=$?
  t_eq "tarball: a second run changes nothing (PLAY RECAP)" "$rc $(recap tarball2)" "0 changed=0 failed=0"
  t_match "tarball: a second run says so" "$(cat "$d/tarball2.log")" \
    "localhost: $d/prefix/bin/brisk: already installed, unchanged \($nfiles files\); they stay"
  # an installed file changed by hand (content, mode): put back, and named
  printf '# edited\n' >>"$d/prefix/share/brisk/profiles/quick.profile"
  chmod 600 "$d/prefix/share/man/man1/brisk.1"
  play tarball3 --tags install -e brisk_install=tarball -e "brisk_tarball=$d/brisk-0.1.0.tar.gz" \
    -e "brisk_prefix=$d/prefix"; rc=$?
  t_eq "tarball: files changed by hand: installed again" "$rc $(recap tarball3)" "0 changed=1 failed=0"
  t_match "tarball: names them" "$(cat "$d/tarball3.log")" \
    "installed 2 of its $nfiles files \($d/prefix/share/brisk/profiles/quick.profile, $d/prefix/share/man/man1/brisk.1\)"
  t_eq "tarball: put back" "$(git show HEAD:profiles/quick.profile | cmp - "$d/prefix/share/brisk/profiles/quick.profile" && stat -c %a "$d/prefix/share/man/man1/brisk.1")" 644
else
  t_skip "tarball" "not a git checkout: no tarball of HEAD to build"
fi
cd "$top" || true
