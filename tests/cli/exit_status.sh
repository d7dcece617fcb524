#!/bin/bash
# brisk's exit statuses mean one thing each, for every command (brisk(1)
# EXIT STATUS, src/base/exitcode.h), each produced here for real:
#   0  nothing to restore; a dry run that finds everything in place (a lock
#      file nobody holds is no setting); a comparison without a winner,
#      whose --save saves nothing (root, a loop device)
#   1  a runtime failure: a journal refused as untrusted; the kernel
#      refusing a write to root (a loop device)
#   2  bad usage: an unknown option, in any command
#   3  a partial result: brisk report leaving a file out
#   4  needs privileges, nothing changed: set, restore, export --apply,
#      run --at, run --drop-caches, lab up without root (as nobody when
#      run by root)
#   5  pending: restore --dry-run with a value to restore, export --apply
#      --dry-run with a value to change
# 128+N (a signal) is held by run_signals.sh, progress_*.sh and
# compare_loop.sh; not repeated here.  Dry runs only on the machine's own
# disk; what is written is a loop device's, and put back.
source tests/lib.sh
command -v jq >/dev/null 2>&1 || { t_skip exit_status "jq is not installed"; exit 0; }
d=$(t_tmpdir) || { t_fail exit_status "no temporary directory"; exit 0; }
chmod 755 "$d"   # nobody reads the runtime directory below
export BRISK_RUNTIME_DIR=$d/rt0 XDG_CONFIG_HOME=$d/config
mkdir -m 700 "$BRISK_RUNTIME_DIR"
w=$d/work
mkdir "$w"

# status NAME WANT CMD...: CMD exits WANT (its stderr shown when not)
status() {
  local name=$1 want=$2 rc; shift 2
  "$@" >"$d/out" 2>"$d/err"; rc=$?
  t_eq "$name: exit $want" "$rc" "$want"
  [ "$rc" = "$want" ] || head -n 3 "$d/err" | sed 's/^/  /'
}

# --- 2: bad usage, the same in every command --------------------------------
for c in run compare report devices set get restore profile export lab tui; do
  status "$c --bogus" 2 "$BRISK" "$c" --bogus
done

# --- 3: a report that leaves a file out -------------------------------------
status "report with a file skipped" 3 "$BRISK" report tests/fixtures/fleet/emulated \
  tests/fixtures/fleet/bad/truncated.json

# --- 0 / 5 / 1: restore ------------------------------------------------------
leaf=$("$BRISK" devices --json "$w" 2>/dev/null | jq -r '.leaves[0] // empty')
sched=$([ -n "$leaf" ] && "$BRISK" get "$leaf" scheduler 2>/dev/null | sed 's/.*=//')
rt=$d/rt
mkdir -m 755 "$rt"
BRISK_RUNTIME_DIR=$rt status "restore --dry-run, nothing there" 0 "$BRISK" restore --dry-run
boot=$(cat /proc/sys/kernel/random/boot_id)
# plant ENTRY...: the journal of a dead 'brisk set' holding ENTRYs
plant() {
  printf 'brisk-journal 1\nkind set\npid 999999\nboot %s\ncreated 1\nwhat brisk set (planted)\n' "$boot"
  printf 'orig %s\n' "$@"
}
if [ -n "$sched" ]; then
  ra=$(cat "/sys/block/$leaf/queue/read_ahead_kb")
  other_ra=$((ra == 128 ? 256 : 128))
  # in place, and a lock file nobody holds: nothing pending
  plant "$leaf - scheduler - - $sched" >"$rt/session-999999.journal"
  chmod 644 "$rt/session-999999.journal"
  printf '12345\n' >"$rt/dev-$leaf.lock"
  BRISK_RUNTIME_DIR=$rt status "restore --dry-run, values in place and a stale lock" 0 \
    "$BRISK" restore --dry-run
  # a value to restore: pending
  plant "$leaf - scheduler - - $sched" "$leaf - read_ahead_kb - - $other_ra" >"$rt/session-999999.journal"
  BRISK_RUNTIME_DIR=$rt status "restore --dry-run, a value to restore" 5 "$BRISK" restore --dry-run
  t_match "restore --dry-run: says so" "$(cat "$d/out")" "^would restore $leaf read_ahead_kb=$other_ra"
  BRISK_RUNTIME_DIR=$rt status "restore --dry-run --json, a value to restore" 5 "$BRISK" restore -n -J
  t_eq "restore --dry-run: nothing changed" "$(cat "/sys/block/$leaf/queue/read_ahead_kb")" "$ra"
  # a profile for export --apply --dry-run
  printf '[settings]\nread_ahead_kb = %s\n' "$other_ra" >"$d/change.profile"
  printf '[settings]\nread_ahead_kb = %s\n' "$ra" >"$d/same.profile"
  status "export --apply --dry-run, a value to change" 5 \
    "$BRISK" export "$d/change.profile" --apply --dry-run --device "$leaf"
  status "export --apply --dry-run, every value in place" 0 \
    "$BRISK" export "$d/same.profile" --apply --dry-run --device "$leaf"
else
  t_skip "restore, export --dry-run" "no disk with a scheduler behind $w"
fi
# an untrusted journal (writable by others): refused, a failure
bad=$d/rtbad
mkdir -m 700 "$bad"
plant "- - vm.dirty_ratio - - $(cat /proc/sys/vm/dirty_ratio)" >"$bad/session-999998.journal"
chmod 666 "$bad/session-999998.journal"
BRISK_RUNTIME_DIR=$bad status "restore --dry-run, a journal refused" 1 "$BRISK" restore --dry-run

# --- 4: needs privileges -------------------------------------------------------
# unpriv CMD...: CMD without root (as nobody when this is root)
unpriv() {
  if is_root; then as_nobody env HOME="$d" "$@"; else "$@"; fi
}
if is_root && ! { command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; }; then
  t_skip "needs privileges" "root without setpriv or a nobody user"
elif [ -z "$sched" ]; then
  t_skip "needs privileges" "no disk with a scheduler behind $w"
else
  NOBODY=$(id -u nobody 2>/dev/null)
  chmod 755 "$w"
  status "set without root" 4 unpriv env -u BRISK_RUNTIME_DIR "$BRISK" set "$leaf" "read_ahead_kb=$other_ra"
  t_match "set without root: says so" "$(cat "$d/err")" "needs root"
  BRISK_RUNTIME_DIR=$rt status "restore without root, a value to restore" 4 unpriv "$BRISK" restore
  status "export --apply without root" 4 unpriv env -u BRISK_RUNTIME_DIR \
    "$BRISK" export "$d/change.profile" --apply --device "$leaf"
  status "run --at without root" 4 unpriv env -u BRISK_RUNTIME_DIR \
    "$BRISK" run "$w" --at "1s:read_ahead_kb=$other_ra"
  status "run --drop-caches without root" 4 unpriv env -u BRISK_RUNTIME_DIR \
    "$BRISK" run "$w" --drop-caches -q
  status "lab up without root" 4 unpriv env -u BRISK_RUNTIME_DIR "$BRISK" lab up
  t_eq "needs privileges: nothing changed" "$(cat "/sys/block/$leaf/queue/read_ahead_kb")" "$ra"
fi

# --- root, a loop device: 1 from the kernel, 0 for a comparison without a winner
if ! is_root || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
  t_skip "loop device" "needs root, losetup and mkfs.ext4"; exit 0
fi
source tests/cli/loop_common.bash
loop_mount -s none exit_status 256M
lrt=$d/lrt
mkdir -m 700 "$lrt"
# nr_requests above the tag depth under none: brisk cannot know, the kernel refuses
if [ "$(cat "$q/nr_requests")" -lt 2048 ]; then
  BRISK_RUNTIME_DIR=$lrt status "set as root, the kernel refuses" 1 "$BRISK" set "$dev" nr_requests=2048
  t_match "set as root, the kernel refuses: says so" "$(cat "$d/err")" "the kernel refused nr_requests=2048"
else
  t_skip "set as root, the kernel refuses" "$dev takes nr_requests=2048"
fi
# an arm the same as the baseline, one round: no winner; --save saves nothing
BRISK_RUNTIME_DIR=$lrt status "compare --save without a winner" 0 "$BRISK" compare "$d/mnt" current \
  scheduler=none -r 1 -n 1 -a ssh-like -l seq-write:size=16m --warmup 1s --settle-max 5s \
  --floor 10% -q --save nowinner
t_match "compare --save without a winner: says nothing was saved" "$(cat "$d/err")" \
  "--save: nothing to save as nowinner: .*; nothing saved"
t_check "compare --save without a winner: no profile" test ! -e "$XDG_CONFIG_HOME/brisk/profiles/nowinner.profile"
t_eq "compare: the scheduler put back" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")" none
