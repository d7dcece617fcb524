#!/bin/bash
# brisk tui without root: a read-only dashboard that still measures; the
# settings keys say they need root and nothing is journaled or written.
source tests/lib.sh
source tests/cli/tui_common.bash

if ! command -v tmux >/dev/null; then t_skip tui-readonly "tmux is not installed"; exit 0; fi
if is_root; then
  command -v setpriv >/dev/null || { t_skip tui-readonly "setpriv is missing"; exit 0; }
  TUI_WRAP="setpriv --reuid=65534 --regid=65534 --clear-groups"
  D=$(t_tmpdir); chmod 777 "$D"
  setpriv --reuid=65534 --regid=65534 --clear-groups test -w "$D" ||
    { t_skip tui-readonly "$D is not reachable for nobody"; exit 0; }
else
  TUI_WRAP=""
  D=$(t_tmpdir)
fi
mkdir -p "$D/run" "$D/home"; chmod 777 "$D/run" "$D/home"
dev=$(findmnt -n -o SOURCE -T "$D"); dev=${dev##*/}
leaf=$($BRISK devices "$D" --json 2>/dev/null | jq -r '.leaves[0] // empty')
sched_file=/sys/block/${leaf:-$dev}/queue/scheduler
before=$(cat "$sched_file" 2>/dev/null; cat "/sys/block/${leaf:-$dev}/queue/read_ahead_kb" 2>/dev/null)
tui_start ro 100x30 LANG=C.UTF-8 HOME="$D/home" BRISK_RUNTIME_DIR="$D/run" XDG_RUNTIME_DIR="$D/run" \
  -- "$D" --load seq-write:rate=8m,size=16m --ls-files 100 --interval 100ms --idle-samples 2 \
  --tick 500ms --duration 90s
tui_wait '^stack ' 20; t_eq opens $? 0
t_match header-read-only "$(tui_line 0)" 'read-only \(not root\)'
t_match keyline-says-root "$(tui_line 29)" 'needs root'
tui_wait 'measuring under load' 40; t_eq measures-without-root $? 0
tui_keys s
tui_wait 'changing settings needs root' 3; t_eq scheduler-key-needs-root $? 0
tui_cap | grep -q '─ I/O scheduler ─'; t_eq no-picker $? 1
tui_keys t
tui_wait 'read-only: changing settings needs root' 3; t_eq editor-read-only $? 0
tui_keys Enter
tui_wait 'needs root: run brisk as root' 3; t_eq editor-edit-needs-root $? 0
tui_keys Escape
tui_keys '?'
tui_wait 'pick the I/O scheduler.*\(needs root\)' 3; t_eq help-marks-root-keys $? 0
tui_keys Escape
tui_keys l
tui_wait 'epoch #1 load stopped' 5; t_eq load-key-works $? 0
tui_keys q
tui_wait 'BRISK-EXIT=' 30; t_eq quits $? 0
t_match exit-status "$(tui_cap)" 'BRISK-EXIT=0'
t_eq no-journal "$(find "$D/run" -name '*.journal' | wc -l)" 0
after=$(cat "$sched_file" 2>/dev/null; cat "/sys/block/${leaf:-$dev}/queue/read_ahead_kb" 2>/dev/null)
t_eq schedulers-untouched "$after" "$before"
tui_stop
