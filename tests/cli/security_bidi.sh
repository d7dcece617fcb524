#!/bin/bash
# Issue 24: U+202E (right-to-left override), U+2028 (line separator) and
# the other bidirectional and invisible format characters never reach a
# terminal raw (text.h).  A forged result file whose disk model holds them
# goes through `brisk report` (text and CSV escape them as \xe2\x80\xae,
# the JSON keeps the string as read); a USB stick whose model holds them
# (umockdev) through `brisk devices`; a profile whose description holds
# one is refused with FILE:LINE naming the character, and `brisk profile
# list` shows it as invalid.  Nothing needs root.
source tests/lib.sh
d=$(t_tmpdir) || { t_fail security_bidi "no temporary directory"; exit 0; }
RLO=$(printf '\xe2\x80\xae') LS=$(printf '\xe2\x80\xa8') LRI=$(printf '\xe2\x81\xa6') ZWSP=$(printf '\xe2\x80\x8b')
ESC_RLO='\\xe2\\x80\\xae' ESC_LS='\\xe2\\x80\\xa8'
# raw_fmt FILE: 0 when FILE holds one of them raw
raw_fmt() { LC_ALL=C grep -qaE "$RLO|$LS|$LRI|$ZWSP" "$1"; }
no_raw() { if raw_fmt "$2"; then t_fail "$1" "raw: $(LC_ALL=C grep -aE "$RLO|$LS|$LRI|$ZWSP" "$2" | head -2 | od -c | head -3)"; else t_pass "$1"; fi; }

# ---- brisk report: a forged result file's model ----
F=tests/fixtures/fleet/synthetic/usb-a/usb-a-run.json
if ! command -v jq >/dev/null 2>&1; then
  t_skip report "jq is not installed (Debian: apt-get install jq)"
else
  model="SanDisk ${RLO}DSS${LS}x${LRI}y${ZWSP}z"
  jq --arg m "$model" '.machine.disks[0].model = $m' "$F" >"$d/forged.json"
  "$BRISK" report "$d/forged.json" --by model --csv "$d/r.csv" --json "$d/r.json" >"$d/r.txt" 2>&1
  t_eq report-exit "$?" 0
  no_raw report-text-no-raw "$d/r.txt"
  t_match report-text-escaped "$(cat "$d/r.txt")" \
    "== SanDisk ${ESC_RLO}DSS${ESC_LS}x\\\\xe2\\\\x81\\\\xa6y\\\\xe2\\\\x80\\\\x8bz: 1 machine"
  no_raw report-csv-no-raw "$d/r.csv"
  t_match report-csv-escaped "$(cat "$d/r.csv")" "SanDisk ${ESC_RLO}DSS"
  t_eq report-json-as-read "$(jq -r '[.. | objects | .key? // empty | select(startswith("SanDisk"))][0]' "$d/r.json")" "$model"
fi

# ---- brisk devices: a USB stick's model (umockdev) ----
if ! t_umockdev; then
  t_skip devices "$T_UMOCKDEV_WHY"
else
  # udev's ID_MODEL_ENC holds the model with \xHH escapes
  awk '/^E: ID_MODEL_ENC=/ { print "E: ID_MODEL_ENC=Ultra\\xe2\\x80\\xaeDSS\\xe2\\x80\\xa8x"; next } { print }' \
    tests/fixtures/usb-stick.umockdev >"$d/stick.umockdev"
  umockdev-run -d "$d/stick.umockdev" -- "$BRISK" devices sdc >"$d/dev.txt" 2>&1
  t_eq devices-exit "$?" 0
  no_raw devices-no-raw "$d/dev.txt"
  t_match devices-escaped "$(cat "$d/dev.txt")" "Ultra${ESC_RLO}DSS${ESC_LS}x"
fi

# ---- profiles: refused on input, named ----
P=$d/profiles/brisk/profiles
mkdir -p "$P"
printf '[profile]\ndescription = safe %stxt.exe\n[load w]\nrw = write\n' "$RLO" >"$P/rlo.profile"
"$BRISK" profile check "$P/rlo.profile" >"$d/check" 2>&1
t_eq profile-check-exit "$?" 2
t_match profile-check-names-it "$(cat "$d/check")" \
  "rlo.profile:2: invisible or bidirectional format character U\\+202E at byte 20"
no_raw profile-check-no-raw "$d/check"
XDG_CONFIG_HOME=$d/profiles "$BRISK" profile list >"$d/list" 2>&1
t_match profile-list-invalid "$(cat "$d/list")" "^rlo +user +\(invalid: see brisk profile check"
no_raw profile-list-no-raw "$d/list"
XDG_CONFIG_HOME=$d/profiles "$BRISK" profile show rlo >"$d/show" 2>&1
no_raw profile-show-no-raw "$d/show"
