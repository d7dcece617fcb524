#!/bin/bash
# What brisk report reads, as brisk run and brisk compare write it, on a
# real loop device (root): format_version and kind, the machine object
# (host name, kernel, the app-specific machine id, the disk with its class
# and the scheduler measured: a profile's bfq, or another scheduler when
# the disk offers no bfq (loop_alt_sched), though the disk is back at its
# own scheduler when the JSON is written), and brisk report over the two.
# shellcheck disable=SC2154  # d, L, dev, q: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
if ! is_root; then t_skip report-results "needs root (loop device, a profile's settings)"; exit 0; fi
command -v jq >/dev/null || { t_skip report-results "needs jq"; exit 0; }
loop_mount -s none report-results 128M
export BRISK_RUNTIME_DIR=$d/rt XDG_CONFIG_HOME=$d/xdg
loop_alt_sched "$dev" || { t_skip report-results "$dev offers no scheduler but none"; exit 0; }
printf '[profile]\nname = talt\n\n[settings]\nscheduler = %s\n' "$alt_sched" >"$d/talt.profile"
w=(-a save --interval 50ms --floor 10% -q)

"$BRISK" run "$d/mnt" --profile "$d/talt.profile" --no-load -i 3 "${w[@]}" --json "$d/run.json" \
  >/dev/null 2>"$d/err"; rc=$?
t_eq "run: exit 0" "$rc" 0
t_eq "run: format_version first" "$(jq -r 'keys_unsorted[0]' "$d/run.json")" format_version
t_eq "run: format_version 1, kind run" "$(jq -c '[.format_version, .kind]' "$d/run.json")" '[1,"run"]'
t_eq "run: host name" "$(jq -r .machine.hostname "$d/run.json")" "$(uname -n)"
t_eq "run: kernel" "$(jq -r .machine.kernel "$d/run.json")" "$(uname -r)"
if command -v systemd-id128 >/dev/null && [ -s /etc/machine-id ]; then
  t_eq "run: machine_id as systemd-id128 --app-specific" "$(jq -r .machine.machine_id "$d/run.json")" \
    "$(systemd-id128 machine-id --app-specific=9ccc9b2e9b5241a99e87a03af009df9c)"
else
  t_skip "run: machine_id" "no systemd-id128 or /etc/machine-id"
fi
t_match "run: machine_id is not the machine id" "$(jq -r .machine.machine_id "$d/run.json")" "^(null|[0-9a-f]{32})$"
if [ -s /etc/machine-id ]; then
  t_check "run: machine_id is not /etc/machine-id" \
    test "$(jq -r .machine.machine_id "$d/run.json")" != "$(cat /etc/machine-id)"
else
  t_skip "run: machine_id is not /etc/machine-id" "no /etc/machine-id"
fi
want_class=$([ "$(cat $q/rotational)" = 1 ] && echo rotational || echo ssd)
t_eq "run: the disk and its class" "$(jq -c '[.machine.disks[] | [.name, .class]]' "$d/run.json")" \
  "[[\"$dev\",\"$want_class\"]]"
t_eq "run: the scheduler it measured with (the profile's)" \
  "$(jq -r '.machine.disks[0].scheduler' "$d/run.json")" "$alt_sched"
t_match "run: the disk is back at its own" "$(cat $q/scheduler)" '^\[none\]'

"$BRISK" compare "$d/mnt" current "scheduler=$alt_sched" -r 1 -n 2 -l seq-write:size=16m "${w[@]}" \
  --warmup 1s --settle-max 5s --json "$d/cmp.json" >/dev/null 2>"$d/err"; rc=$?
t_eq "compare: exit 0" "$rc" 0
t_eq "compare: kind and format_version" "$(jq -c '[.kind, .format_version]' "$d/cmp.json")" '["compare",1]'
t_eq "compare: the disk's scheduler is the current arm's" \
  "$(jq -r '.machine.disks[0].scheduler' "$d/cmp.json")" none
t_eq "compare: same machine as the run" "$(jq -r .machine.machine_id "$d/cmp.json")" \
  "$(jq -r .machine.machine_id "$d/run.json")"

# brisk report over both: one machine, the run is a result of the other
# scheduler, compare's current is none
out=$("$BRISK" report "$d/run.json" "$d/cmp.json" --json "$d/rep.json" 2>"$d/err"); rc=$?
t_eq "report: exit 0" "$rc" 0
t_eq "report: one group of the disk's class" "$(jq -c '[.groups[].key]' "$d/rep.json")" "[\"$want_class\"]"
t_eq "report: one machine" "$(jq '.machines' "$d/rep.json")" 1
t_eq "report: the arms" "$(jq -c '[.groups[0].arms[].label] | sort' "$d/rep.json")" \
  "$(jq -nc --arg s "$alt_sched" '[$s, "none"] | sort')"
t_match "report: idle rows from the run" \
  "$(jq -c '[.groups[0].rows[] | select(.phase == "idle") | .arm]' "$d/rep.json")" "\"$alt_sched\""
t_match "report: one machine is not a fleet" "$out" 'not a fleet'
