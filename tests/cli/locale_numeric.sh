#!/bin/bash
# brisk under a comma-decimal locale (de_DE.UTF-8, as sudo passes a German
# desktop's LANG on): options, the shipped lab models, a profile round trip,
# a run's CSV, JSON and OpenMetrics, and brisk report's every output read
# and write numbers as in the C locale, byte for byte the same as under
# LC_ALL=C; and under a Latin-1 locale a byte such as 0xE4 is not a letter
# (a profile name that holds one is refused before any export writes it).
# The locales are made in the test's own directory (localedef + LOCPATH):
# the machine's locale settings are not touched.  Works without root.
source tests/lib.sh
source tests/cli/openmetrics_common.bash

d=$(t_tmpdir)
if ! command -v localedef >/dev/null; then
  t_skip locale "localedef is not installed (Debian: libc-bin, and locales for the sources)"; exit 0
fi
mkdir -p "$d/loc"
if ! localedef -i de_DE -f UTF-8 "$d/loc/de_DE.UTF-8" >/dev/null 2>&1; then
  t_skip locale "localedef cannot make de_DE.UTF-8 (no locale sources: Debian's locales package)"; exit 0
fi
export LOCPATH=$d/loc
de() { LC_ALL=de_DE.UTF-8 "$@"; }
c() { LC_ALL=C "$@"; }
# the locale is in force: its decimal point is a comma
t_eq "de_DE.UTF-8's decimal point is a comma" "$(de locale -k decimal_point 2>/dev/null)" 'decimal_point=","'

# 1. the shipped lab models (decimal values in lab-models.ini)
out=$(de "$BRISK" lab models 2>&1); rc=$?
t_eq "lab models: exit 0" "$rc" 0
t_match "lab models: decimals with a point" "$out" 'hdd-7200 +7200 +1\.0ms +8\.0ms'
t_eq "lab models: the same as under C" "$out" "$(c "$BRISK" lab models 2>&1)"

# 2. a run with decimal options, its CSV, JSON and OpenMetrics
w=$d/w; mkdir "$w"
# shellcheck disable=SC2054  # ssh-like,save is one word
args=(-q -i 2 -n 2 --interval 0.05s --floor 5.5% --warmup 0.5s --ls-files 40
      --load seq-write:rate=20m -a ssh-like,save)
de "$BRISK" run "$w" "${args[@]}" --json "$d/r.json" --csv "$d/r.csv" \
  --openmetrics "$d/r.prom" >"$d/r.txt" 2>"$d/r.err"; rc=$?
if [ "$rc" = 0 ]; then t_pass "run with --interval 0.05s --floor 5.5%: exit 0"
else t_fail "run with --interval 0.05s --floor 5.5%: exit 0" "exit $rc: $(head -c 300 "$d/r.err")"; fi
t_check "run: JSON valid" jq -e . "$d/r.json"
t_eq "run: JSON interval 50 ms" "$(jq '.config.interval_ms // .config.interval_s // empty' "$d/r.json" | head -1 | sed 's/^0\.05$/50/')" 50
hdr=$(head -1 "$d/r.csv" | awk -F, '{ print NF }')
bad=$(awk -F, -v n="$hdr" 'NF != n' "$d/r.csv" | head -3)
t_eq "run: every CSV row has the header's $hdr fields" "$bad" ""
t_match "run: CSV times with a decimal point" "$(sed -n 2p "$d/r.csv")" '[0-9]\.[0-9]'
bad=$(grep -vE '^#' "$d/r.prom" | grep -E ' [-+]?[0-9]+,[0-9]+$' | head -3)
t_eq "run: OpenMetrics values without a decimal comma" "$bad" ""
if [ -n "$OM_PY" ]; then
  if om_parse "$d/r.prom" >/dev/null 2>"$d/om.err"; then t_pass "run: OpenMetrics parses (prometheus_client)"
  else t_fail "run: OpenMetrics parses (prometheus_client)" "$(head -3 "$d/om.err")"; fi
else
  t_skip "run: OpenMetrics parses" "$OM_NO_PARSER"
fi
bad=$(grep -E '[0-9],[0-9]{1,3}( |$|ms|s |%)' "$d/r.txt" | head -3)
t_eq "run: the text report's numbers have a decimal point" "$bad" ""

# 3. brisk report: every output the same bytes under de_DE as under C
fx=tests/fixtures/fleet/emulated
rep() {   # $1 = out dir; the locale from the caller
  mkdir -p "$1"
  "$BRISK" report "$fx" --json "$1/f.json" --csv "$1/f.csv" \
    --openmetrics "$1/f.prom" --plot "$1/f.svg" >"$1/f.txt" 2>"$1/f.err"
  local rc=$?
  # the one figure that differs between two runs: when the report was made
  sed -i '/^brisk_report_timestamp_seconds/d' "$1/f.prom"
  return $rc
}
de rep "$d/de"; rc_de=$?
c rep "$d/c"; rc_c=$?
t_eq "report: the same exit status" "$rc_de" "$rc_c"
for f in f.txt f.json f.csv f.prom f.svg; do
  if cmp -s "$d/de/$f" "$d/c/$f"; then t_pass "report: $f the same under de_DE and C"
  else t_fail "report: $f the same under de_DE and C" "$(diff "$d/c/$f" "$d/de/$f" | head -4)"; fi
done

# 4. a profile round trip: import with a decimal scale, check, show, export
de "$BRISK" profile import profiles/lkml-ssh.fio --scale 0.5 -o "$d/p-de.profile" 2>/dev/null
t_eq "profile import --scale 0.5: exit 0" "$?" 0
c "$BRISK" profile import profiles/lkml-ssh.fio --scale 0.5 -o "$d/p-c.profile" 2>/dev/null
t_eq "profile import: the same profile" "$(cat "$d/p-de.profile")" "$(cat "$d/p-c.profile")"
t_check "profile check" de "$BRISK" profile check "$d/p-de.profile"
t_eq "profile show: the same" "$(de "$BRISK" profile show "$d/p-de.profile")" \
  "$(c "$BRISK" profile show "$d/p-de.profile")"
cat >"$d/s.profile" <<'EOF'
[settings]
vm.dirty_ratio = 10
vm.dirty_background_ratio = 5
EOF
t_eq "export sysctl: the same" "$(de "$BRISK" export "$d/s.profile" --format sysctl 2>&1)" \
  "$(c "$BRISK" export "$d/s.profile" --format sysctl 2>&1)"

# 5. Latin-1: 0xE4 is a letter to ctype there, not to brisk
if localedef -i de_DE -f ISO-8859-1 "$d/loc/de_DE.ISO-8859-1" >/dev/null 2>&1; then
  n=$(printf 't\344st')
  cp "$d/s.profile" "$d/$n.profile"
  out=$(LC_ALL=de_DE.ISO-8859-1 "$BRISK" export "$d/$n.profile" --format sysctl 2>&1); rc=$?
  t_eq "Latin-1: a profile name with byte 0xE4 is refused (exit 2)" "$rc" 2
  if printf '%s' "$out" | LC_ALL=C grep -q $'\xe4'; then
    t_fail "Latin-1: the raw byte is not written" "$(printf '%s' "$out" | od -c | head -3)"
  else t_pass "Latin-1: the raw byte is not written"; fi
else
  t_skip "Latin-1" "localedef cannot make de_DE.ISO-8859-1"
fi
