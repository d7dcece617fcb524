#!/bin/bash
# brisk tui: where the time went (root, a temp dir on the build tree's disk,
# short runs): a bar per action under the actions table once samples ran,
# each as wide as the others; w shows the full table (latest and median
# sample, requests, who issued the ones ahead, a hostile process name
# escaped); 80 columns still draws the bars, 60 columns says it is too
# small but shows the table; without colours the letters carry it;
# --no-breakdown shows none; without root one line says why.
source tests/lib.sh
source tests/cli/tui_common.bash

if ! command -v tmux >/dev/null; then t_skip tui-breakdown "tmux is not installed"; exit 0; fi
is_root || { t_skip tui-breakdown "needs root (the breakdown's BPF collector)"; exit 0; }
D=$(t_tmpdir)
COMMON=(--load "seq-write:rate=8m,size=16m" --ls-files 100 --interval 100ms --idle-samples 2
        --tick 500ms --duration 120s)
probe=$(BRISK_DEBUG=session "$BRISK" run "$D" --no-load -a ssh-like -i 1 -q 2>&1)
if ! grep -q 'ssh-like sample .* ms:' <<<"$probe"; then
  # no collector here (BPF=0 build, no BTF): the one line that says why
  why=$(grep -o 'breakdown is unavailable: .*' <<<"$probe" | head -1)
  tui_start off 100x30 LANG=C.UTF-8 -- "$D" "${COMMON[@]}" --no-report
  tui_wait 'where the time went: unavailable: ' 30; t_eq unavailable-line $? 0
  tui_keys q; tui_wait 'BRISK-EXIT=0' 30; tui_stop
  t_skip tui-breakdown-bars "the collector does not load here: ${why:-unknown}"
  exit 0
fi

# a writer on the same disk whose name is a terminal escape: when its
# requests go ahead of a sample's, the table names it, escaped
E=$(t_tmpdir)
evil=$'w\e[31mX'
cp "$(command -v dd)" "$E/$evil"
( while [ ! -e "$E/stop" ]; do
    "$E/$evil" if=/dev/zero of="$E/f" bs=1M count=16 oflag=direct 2>/dev/null
  done ) &
wpid=$!
t_atexit "touch '$E/stop'; wait $wpid 2>/dev/null"

# ---- the bars
tui_start main 120x50 LANG=C.UTF-8 -- "$D" "${COMMON[@]}" --no-report
tui_wait '^ssh-like +[0-9.]+m?s [crdqatbs]{10,}' 40; t_eq bar-after-samples $? 0
tui_wait 'latest sample \(w: table\) +c ' 5; t_eq legend $? 0
tui_wait 'measuring under load' 40; t_eq loaded $? 0
sleep 3
cap=$(tui_cap)
bars=$(grep -E '^(exec|ls|ssh-like|save) +[0-9.]+m?s [crdqatbs]+ ' <<<"$cap")
t_eq bar-per-action "$(wc -l <<<"$bars")" 4
# every bar as wide as the layout says: (120 - 18) / 3 = 34 cells
widths=$(awk '{ print length($3) }' <<<"$bars" | sort -u)
t_eq bar-widths-120 "$widths" 34
t_match bar-caption "$bars" 'ssh-like .* [0-9]+ % (on|queued|waiting|other|held|throttled)'
printf '%s\n' "$cap" >"$D/pane-normal.txt"
# the bars sit under the table, above the message line
row_t=$(grep -nE '^save +#' <<<"$cap" | head -1 | cut -d: -f1)
row_b=$(grep -nE '^save +[0-9.]+m?s [crdqatbs]' <<<"$cap" | head -1 | cut -d: -f1)
[ -n "$row_t" ] && [ -n "$row_b" ] && [ "$row_b" -gt "$row_t" ]; t_eq bars-under-table $? 0

# ---- w: the table
tmux resize-window -t "$TUI_S" -x 120 -y 120; sleep 0.5
tui_keys w
tui_wait 'Where the time went' 3; t_eq table-opens $? 0
sleep 0.5
cap=$(tui_cap)
printf '%s\n' "$cap" >"$D/pane-w.txt"
t_match table-head "$cap" ' wall +cpu +runq +device +queued'
t_match table-latest "$cap" 'ssh-like +latest: pid [0-9]+, (idle|loaded), epoch #[0-9]+'
t_match table-ms "$cap" '^  ms +[0-9.]+ +[0-9.]+'
t_match table-pct "$cap" '^  % +100 '
t_match table-median "$cap" 'median of [0-9]+ (loaded|idle) samples?'
t_match table-own "$cap" '^  own +[0-9]+ reads? \('
t_match table-keys "$(tui_line 119)" 'PgUp PgDn scroll  w/Esc back'
# the ms row adds up: wall = the parts (within rounding of the cells)
row=$(grep -m1 -E '^  ms ' <<<"$cap")
t_check table-ms-adds-up awk -v r="$row" 'BEGIN { n = split(r, f, " "); s = 0
  for (i = 3; i <= n; i++) s += f[i]; w = f[2]; exit !(s >= w * 0.97 - 0.05 && s <= w * 1.03 + 0.05) }'
# the hostile name: shown escaped, never interpreted by the terminal
if grep -qF 'w\x1b[31mX' <<<"$cap"; then
  t_pass hostile-name-escaped
elif grep -q 'wX' <<<"$cap"; then
  t_fail hostile-name-escaped "the name's escape reached the terminal"
else
  t_skip hostile-name-escaped "its requests went ahead of none of the samples shown"
fi
t_eq no-raw-escape "$(tui_cap -e | grep -c $'\e\\[31mX')" 0
tmux resize-window -t "$TUI_S" -x 120 -y 30; sleep 0.5
tui_keys End; sleep 0.3
t_match table-scrolls "$(tui_cap)" 'ahead: others'"'"' requests'
t_match table-lines "$(tui_line 29)" 'lines [0-9]+-[0-9]+ of [0-9]+'
tui_keys Escape
tui_wait '^ssh-like +[0-9.]+m?s [crdqatbs]{10,}' 3; t_eq table-closes $? 0
tui_keys '?'
tui_wait '│ w +where the time went' 3; t_eq help-lists-w $? 0
tui_keys Escape; sleep 0.3

# ---- narrow: 80 columns keep a bar per action, 60 say too small but draw the table
tmux resize-window -t "$TUI_S" -x 80 -y 24; sleep 0.8
tui_check_frame narrow-80 80 24
cap=$(tui_cap)
t_eq bars-80 "$(grep -cE '^(exec|ls|ssh-like|save) +[0-9.]+m?s [crdqatbs]{20} ' <<<"$cap")" 4
t_match keyline-80 "$(tui_line 23)" 'w where  \? help  q quit'
tmux resize-window -t "$TUI_S" -x 60 -y 20; sleep 0.8
cap=$(tui_cap)
t_match too-small-60 "$cap" 'terminal too small: 60x20'
t_match too-small-offers-w "$cap" 'w shows where the time went'
tui_keys w; sleep 0.5
cap=$(tui_cap)
t_match table-60 "$cap" ' wall +cpu +runq +dev +que'
t_match table-60-ms "$cap" '^  ms +[0-9.]+ '
wide=$(LC_ALL=C.UTF-8 bash -c 'n=0; while IFS= read -r l; do [ ${#l} -gt 60 ] && n=$((n+1)); done; echo $n' <<<"$cap")
t_eq table-60-no-row-wider "$wide" 0
t_eq table-60-rows "$(wc -l <<<"$cap")" 20
tui_keys Escape; sleep 0.3
t_match table-60-back "$(tui_cap)" 'terminal too small'
tmux resize-window -t "$TUI_S" -x 120 -y 40; sleep 0.5
tui_keys q
tui_wait 'BRISK-EXIT=' 30; t_match main-exit "$(tui_cap)" 'BRISK-EXIT=0'
tui_stop

# ---- no colours, not UTF-8: the letters carry the bar
tui_start mono 100x30 LANG=C LC_ALL=C TERM=xterm-256color NO_COLOR=1 -- "$D" "${COMMON[@]}" \
  --no-report
tui_wait '^ssh-like +[0-9.]+m?s [crdqatbs]{10,}' 40; t_eq mono-bars $? 0
t_eq mono-no-colour "$(tui_cap -e | grep -cE $'\e\\[[0-9;]*(3[0-7]|4[0-7]|38;5;[0-9]+)m')" 0
t_match mono-reverse "$(tui_cap -e)" $'\e\\[7m'
tui_keys q; tui_wait 'BRISK-EXIT=' 30; t_match mono-exit "$(tui_cap)" 'BRISK-EXIT=0'
tui_stop

# ---- --no-breakdown: no bars, no line about it; w says it is off
tui_start nob 100x30 LANG=C.UTF-8 -- "$D" "${COMMON[@]}" --no-breakdown --no-report
tui_wait 'measuring under load' 40; t_eq nob-runs $? 0
sleep 1
cap=$(tui_cap)
t_eq nob-no-bars "$(grep -cE '^(exec|ls|ssh-like|save) +[0-9.]+m?s [crdqatbs]{10,}' <<<"$cap")" 0
t_eq nob-no-line "$(grep -ciE 'where the time went|latest sample' <<<"$cap")" 0
tui_keys w
tui_wait 'the breakdown is unavailable: turned off \(--no-breakdown\)' 3; t_eq nob-table-says $? 0
tui_keys Escape q; tui_wait 'BRISK-EXIT=' 30; t_match nob-exit "$(tui_cap)" 'BRISK-EXIT=0'
tui_stop

# ---- without root: one line says why
if command -v setpriv >/dev/null; then
  N=$(t_tmpdir); chmod 777 "$N"; mkdir -p "$N/run" "$N/home"; chmod 777 "$N/run" "$N/home"
  TUI_WRAP="setpriv --reuid=65534 --regid=65534 --clear-groups"
  tui_start ro 100x30 LANG=C.UTF-8 HOME="$N/home" BRISK_RUNTIME_DIR="$N/run" \
    XDG_RUNTIME_DIR="$N/run" -- "$N" "${COMMON[@]}" --no-report
  tui_wait 'where the time went: unavailable: .+' 30; t_eq nonroot-says-why $? 0
  t_eq nonroot-one-line "$(tui_cap | grep -c 'where the time went')" 1
  tui_keys q; tui_wait 'BRISK-EXIT=' 30; t_match nonroot-exit "$(tui_cap)" 'BRISK-EXIT=0'
  tui_stop
  TUI_WRAP=""
else
  t_skip nonroot-says-why "setpriv is missing"
fi
