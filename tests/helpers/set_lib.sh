# shellcheck shell=bash
# Shared setup for the tests/cli/set_*.sh tests: source it after tests/lib.sh.
# Gives: BRISK_RUNTIME_DIR (private), HOLD (helper), set_loop_attach,
# snapshot DEV, journals (count of session journals), sysfs_q DEV ATTR.
# shellcheck disable=SC2034  # read by the tests that source this
HOLD=$PWD/build/tests/helpers/set_hold
export BRISK_RUNTIME_DIR
BRISK_RUNTIME_DIR=$(t_tmpdir)/rt
mkdir -p "$BRISK_RUNTIME_DIR"
# loops and pids go to files: set_loop_attach runs in $(...) subshells
_TUNE_LOOPS=$BRISK_RUNTIME_DIR/../loops
_TUNE_PIDS=$BRISK_RUNTIME_DIR/../pids
: >"$_TUNE_LOOPS"; : >"$_TUNE_PIDS"
# At exit: kill helpers we started, put vm.* back, detach our loops.
_tune_cleanup() {
  local p l
  for p in $(cat "$_TUNE_PIDS"); do kill -9 "$p" 2>/dev/null; done
  [ -n "${_TUNE_VM_SAVED:-}" ] && vm_restore_saved
  for l in $(cat "$_TUNE_LOOPS"); do t_bdi_defaults "${l#/dev/}"; losetup -d "$l" 2>/dev/null; done
  return 0
}
# shellcheck disable=SC2034  # read by t_cleanup in tests/lib.sh
T_CLEANUP_EXTRA=_tune_cleanup

# set_loop_attach: attach a fresh 16 MiB file, print the kernel name.
set_loop_attach() {
  local d img dev
  d=$(t_tmpdir) || return 1
  img=$d/disk.img
  truncate -s 16M "$img" || return 1
  dev=$(losetup -f --show "$img") || return 1
  echo "$dev" >>"$_TUNE_LOOPS"
  t_bdi_defaults "${dev#/dev/}"
  echo "${dev#/dev/}"
}
# track_pid PID: killed at exit if still there
track_pid() { echo "$1" >>"$_TUNE_PIDS"; }
# every key but bdi.max_bytes/min_bytes: shares of the system's dirty limit
# of the moment, they move with free memory (the *_fine files hold the state)
snapshot() { "$BRISK" get "$1" 2>&1 | grep -Ev ' bdi\.(max|min)_bytes='; }
journals() { find "$BRISK_RUNTIME_DIR" -mindepth 1 -maxdepth 1 -name 'session-*.journal' 2>/dev/null | wc -l; }
sysfs_q() { cat "/sys/block/$1/queue/$2" 2>/dev/null; }
active_sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"; }

# vm.dirty_*: save the six originals once; vm_restore_saved writes them
# back, the active one of each ratio/bytes pair last-wins correctly.
VM_KEYS="dirty_ratio dirty_background_ratio dirty_bytes dirty_background_bytes dirty_expire_centisecs dirty_writeback_centisecs"
vm_save() {
  local k
  for k in $VM_KEYS; do eval "_VM_$k=\$(cat /proc/sys/vm/$k)"; done
  _TUNE_VM_SAVED=1
}
# shellcheck disable=SC2154  # the _VM_* are assigned by vm_save's eval
vm_restore_saved() {
  local k
  for k in dirty_expire_centisecs dirty_writeback_centisecs; do
    eval "echo \$_VM_$k" >"/proc/sys/vm/$k"
  done
  if [ "$_VM_dirty_bytes" != 0 ]; then echo "$_VM_dirty_bytes" >/proc/sys/vm/dirty_bytes
  else echo "$_VM_dirty_ratio" >/proc/sys/vm/dirty_ratio; fi
  if [ "$_VM_dirty_background_bytes" != 0 ]; then echo "$_VM_dirty_background_bytes" >/proc/sys/vm/dirty_background_bytes
  else echo "$_VM_dirty_background_ratio" >/proc/sys/vm/dirty_background_ratio; fi
}
vm_snapshot() { local k; for k in $VM_KEYS; do printf '%s=%s ' "$k" "$(cat /proc/sys/vm/$k)"; done; }

# wait_ready FILE: until the helper printed "ready" (or 10 s).
wait_ready() {
  for _ in $(seq 100); do grep -q '^ready' "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}
