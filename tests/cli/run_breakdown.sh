#!/bin/bash
# Where each sample's time went, in brisk run's outputs (root): on an ext4
# file system on a loop device, under a direct writer, every measured
# sample's parts add up to its own duration (within 2 %), the text has the
# table, the CSV its columns, and a cause the verdict names is measured,
# never a guess.  --no-breakdown: no breakdown and not a word about it.
# As nobody (no BPF) the report says once that the breakdown is
# unavailable and why.  On CPU: a CPU-bound --exec program's cpu part
# agrees with the program's own utime + stime within 10 %.
source tests/lib.sh
source tests/cli/loop_common.bash
command -v jq >/dev/null || { t_skip run_breakdown "jq is not installed"; exit 0; }
[ -r /sys/kernel/btf/vmlinux ] || { t_skip run_breakdown "this kernel has no BTF"; exit 0; }
d=$(t_tmpdir)
chmod 755 "$d"   # actions and the unprivileged run are nobody's: they must reach it
loop_mount -d "$d" run_breakdown 400M
export BRISK_RUNTIME_DIR=$d/rt
mkdir -m 700 "$BRISK_RUNTIME_DIR"

# --- loaded run: the parts add up, the table, the CSV --------------------
"$BRISK" run "$mnt" --floor 0 -q -i 2 -n 4 -d 10s --interval 100ms -a ssh-like,save,exec \
  -l seq-write:direct,size=100m --json "$d/r.json" --csv "$d/r.csv" >"$d/r.txt" 2>"$d/r.err"
rc=$?
t_eq loaded-exit-0 "$rc" 0
j=$d/r.json
if [ "$(jq .breakdown.available "$j")" != true ]; then
  t_skip run_breakdown "the collector could not be loaded here: $(jq -r .breakdown.why_not "$j")"
  exit 0
fi
t_eq loaded-why-not-null "$(jq .breakdown.why_not "$j")" null
n=$(jq '[.samples[]|select(.breakdown != null)]|length' "$j")
t_check "loaded: samples measured ($n)" test "$n" -ge 10
# wall = the sum of its parts, and = the sample's own ms within 2 % (the
# sample opens the collector's window at its own t0, before anything else)
bad=$(jq -r '.samples[]|select(.breakdown != null and .breakdown.incomplete == false)
  | (.breakdown.parts|add) as $s | ($s - .ms) as $d
  | select(($d / .ms) * ($d / .ms) > 0.0004 or
           ($s - .breakdown.wall_ms) * ($s - .breakdown.wall_ms) > 1e-6)
  | "\(.action) \(.ms) ms: parts \($s)"' "$j")
t_eq "loaded: every sample's parts add up to its duration (2 %)" "$bad" ""
jq -r '[.samples[]|select(.breakdown != null and .breakdown.incomplete == false)
  | ((.breakdown.parts|add) - .ms) / .ms * 100 | fabs] | "  # parts vs duration: worst \(max * 100 | round / 100) % over \(length) samples"' "$j"
t_eq "loaded: a group summary per measured group" \
  "$(jq '[.actions[]|select(.breakdown != null and .breakdown.median_parts != null)]|length' "$j")" 6
t_eq "loaded: mean shares add up to 1" \
  "$(jq '[.actions[]|select(.breakdown.mean_shares != null)|.breakdown.mean_shares|add|select(. < 0.999 or . > 1.001)]|length' "$j")" 0
t_eq "loaded: a cause is measured, not guessed" \
  "$(jq '[.verdicts[]|select(.cause != "none" and .cause != "measured")]|length' "$j")" 0
txt=$(cat "$d/r.txt")
t_match "loaded: the table" "$txt" $'\nWhere the time went \\(per action, phase and epoch'
t_match "loaded: its header" "$txt" 'wall +cpu +runq +device +queued +admit +throttled +blocked +sleep'
t_match "loaded: a median row" "$txt" $'\nssh-like +loaded +0 +[0-9]+ median ms +[0-9.]+'
t_match "loaded: a shares row" "$txt" $'\n +mean % +100 '
t_match "loaded: the requests" "$txt" 'median sample: own requests: [0-9]+ reads'
t_eq "loaded: not said to be unavailable" "$(grep -c 'unavailable\|not measured' <<<"$txt")" 0
t_eq "loaded: no guess" "$(grep -c 'a guess from system counters' <<<"$txt")" 0
t_match "loaded: CSV header" "$(head -n 1 "$d/r.csv")" ',split_cpu_ms,split_runq_ms,.*,split_incomplete$'
cols=$(head -n 1 "$d/r.csv" | awk -F, '{print NF}')
t_eq "loaded: CSV rows as wide as the header" \
  "$(tail -n +2 "$d/r.csv" | awk -F, -v n="$cols" 'NF != n' | wc -l)" 0
t_eq "loaded: CSV cells of the measured samples" \
  "$(tail -n +2 "$d/r.csv" | awk -F, '$9 != ""' | wc -l)" "$n"
printf '%s\n' "$txt" | sed -n '/^Where the time went/,/^  (cpu/p' | head -n 14 | sed 's/^/  # /'
grep -A4 '^Verdict' "$d/r.txt" | sed 's/^/  # /'

# --- --no-breakdown: none, and not a word --------------------------------
"$BRISK" run "$mnt" --floor 0 -q --no-load -i 2 -a ssh-like,save --no-breakdown \
  --json "$d/n.json" >"$d/n.txt" 2>"$d/n.err"
t_eq no-breakdown-exit-0 "$?" 0
t_eq "no-breakdown: unavailable in JSON" "$(jq -c .breakdown "$d/n.json")" \
  '{"available":false,"why_not":"turned off (--no-breakdown)"}'
t_eq "no-breakdown: no sample has one" "$(jq '[.samples[]|select(.breakdown != null)]|length' "$d/n.json")" 0
t_eq "no-breakdown: nothing said" \
  "$(cat "$d/n.txt" "$d/n.err" | grep -ci 'where the time went\|breakdown')" 0

# --- nobody: unavailable, said once with the reason ----------------------
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
  NOBODY=$(id -u nobody)
  mkdir "$d/nb" && chown nobody "$d/nb"
  as_nobody env -u BRISK_RUNTIME_DIR HOME="$d/nb" "$BRISK" run "$d/nb" -q --no-load -i 2 \
    -a ssh-like,save --json "$d/nb/r.json" >"$d/nb.txt" 2>"$d/nb.err"
  t_eq nobody-exit-0 "$?" 0
  t_eq "nobody: unavailable in JSON" "$(jq .breakdown.available "$d/nb/r.json")" false
  t_match "nobody: why not in JSON" "$(jq -r .breakdown.why_not "$d/nb/r.json")" 'root'
  all=$(cat "$d/nb.txt" "$d/nb.err")
  t_eq "nobody: said once" "$(grep -ci 'unavailable\|not measured' <<<"$all")" 1
  t_match "nobody: with the reason" "$all" \
    'Where the time went: the breakdown is unavailable: it needs root \(BPF\)'
  grep -i 'unavailable' "$d/nb.txt" | sed 's/^/  # /'
else
  t_skip nobody "no nobody user or setpriv"
fi

# --- on CPU: the cpu part against the program's own utime + stime --------
# The sample is burn.sh (sh), which execs /usr/bin/time, which runs a shell
# busy loop of about 0.4 s and appends that child's utime + stime to cpu.
# The sample's cpu part holds all three processes; the file only the loop's
# shell: the wrapper's share (two small program starts, ~2 ms) is in the
# sample's part and not in the file, well under the 10 % allowed.
if [ -x /usr/bin/time ]; then
  mkdir -m 777 "$d/out"
  cat >"$d/burn.sh" <<EOF
#!/bin/sh
exec /usr/bin/time -f "%U %S" -o $d/out/cpu -a /bin/sh -c 'i=0; while [ \$i -lt 600000 ]; do i=\$((i+1)); done'
EOF
  chmod 755 "$d/burn.sh"
  "$BRISK" run "$mnt" --floor 0 -q --no-load -i 3 -a exec --exec "$d/burn.sh" --interval 100ms \
    --json "$d/c.json" >/dev/null 2>"$d/c.err"
  t_eq cpu-exit-0 "$?" 0
  own=$(awk '{print ($1 + $2) * 1000}' "$d/out/cpu" | paste -sd' ')
  # a sample marked incomplete (something not tracked) is not held to it
  got=$(jq -r '[.samples[]|select(.action=="exec")|if .breakdown.incomplete then "null"
    else .breakdown.parts.cpu_ms // "null" end]|join(" ")' "$d/c.json")
  echo "  # exec cpu part (ms): $got; the loop's utime+stime (ms): $own"
  t_eq "cpu: one figure per sample" "$(wc -w <<<"$own")" 3
  t_check "cpu: the cpu part = utime + stime within 10 % ($got vs $own)" \
    awk -v a="$got" -v b="$own" 'BEGIN { n = split(a, x, " "); split(b, y, " ");
      if (n != 3) exit 1
      for (i = 1; i <= n; i++) { if (x[i] == "null") continue; if (y[i] <= 0) exit 1
        r = x[i] / y[i]; m++; if (r < 0.9 || r > 1.1) exit 1 } exit m < 2 }'
else
  t_skip cpu "no /usr/bin/time (Debian: apt-get install time)"
fi
