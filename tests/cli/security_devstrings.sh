#!/bin/bash
# Issue 11 part 3: device strings from udev and sysfs reach the terminal and
# config only escaped.  tests/fixtures/usb-stick-poisoned.umockdev is
# usb-stick.umockdev with ID_MODEL_ENC=U\x0dRUN+=\x22\x2fx\x22\x1b]0;T\x07
# (a USB stick chooses its own model).  Checks:
#  - brisk devices text shows the model as U\x0dRUN+="/x"\x1b]0;T\x07, no raw
#    control byte anywhere in the output (also --all);
#  - the JSON keeps the model as read, escaped by JSON (\r, \u001b, \u0007);
#  - export --match this-device writes the model into the rule's comment
#    escaped: the file holds only comments and the one rule;
#  - a serial (the match value) with a quote, a glob or a control byte is
#    refused with exit 2 and the value escaped in the message (the rule
#    is not written; udev match values are never escaped into a pattern).
source tests/lib.sh

FIX=tests/fixtures
t_umockdev || { t_skip security_devstrings "$T_UMOCKDEV_WHY"; exit 0; }
d=$(t_tmpdir)
P=$FIX/usb-stick-poisoned.umockdev
# raw_ctl FILE: 0 when FILE holds a C0 control byte other than TAB/LF, DEL,
# a C1 control or invalid UTF-8
raw_ctl() { LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1" ||
	    ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; }
no_raw() { if raw_ctl "$2"; then t_fail "$1" "raw control byte: $(LC_ALL=C grep -aP '[\x00-\x08\x0b-\x1f\x7f]' "$2" | head -2 | od -c | head -4)"; else t_pass "$1"; fi; }

# ---- brisk devices, text ----
umockdev-run -d "$P" -- "$BRISK" devices sdc >"$d/text" 2>&1
t_eq devices-text-exit "$?" 0
no_raw devices-text-no-control "$d/text"
t_match devices-text-escaped "$(cat "$d/text")" 'SanDisk U\\x0dRUN\+="/x"\\x1b\]0;T\\x07  fw'
umockdev-run -d "$P" -- "$BRISK" devices --all >"$d/all" 2>&1
t_eq devices-all-exit "$?" 0
no_raw devices-all-no-control "$d/all"
t_match devices-all-escaped "$(cat "$d/all")" 'U\\x0dRUN\+="/x"\\x1b\]0;T\\x07'

# ---- JSON: stored as read, escaped by JSON ----
umockdev-run -d "$P" -- "$BRISK" devices sdc --json >"$d/json" 2>/dev/null
t_eq devices-json-exit "$?" 0
no_raw devices-json-no-control "$d/json"
t_match devices-json-escaped "$(grep '"model"' "$d/json" | head -1)" '"model": "U\\rRUN\+=\\"/x\\"\\u001b\]0;T\\u0007"'
if command -v jq >/dev/null 2>&1; then
	t_eq devices-json-model-as-read "$(jq -r '.. | objects | select(.name? == "sdc") | .model' "$d/json" | head -1 | od -An -c | tr -s ' ')" \
	     "$(printf 'U\rRUN+="/x"\033]0;T\007\n' | od -An -c | tr -s ' ')"
else
	t_skip devices-json-model-as-read "jq is not installed"
fi

# ---- export --match this-device: the model in the comment, escaped ----
G=tests/fixtures/profiles/good
umockdev-run -d "$P" -- "$BRISK" export $G/server.profile --format udev --match this-device \
	--device sdc -o "$d/rule" >/dev/null 2>"$d/err"
t_eq this-device-exit "$?" 0
no_raw this-device-no-control "$d/rule"
t_match this-device-comment "$(cat "$d/rule")" '^# U\\x0dRUN\+="/x"\\x1b\]0;T\\x07 4C530001230512117215 \(rotational, sdc now\)$'
# only comments, blank lines and the one rule (ACTION line + ATTR continuation lines)
t_eq this-device-only-rule "$(grep -cvE '^(#.*|ACTION=="add\|change", SUBSYSTEM=="block", ENV\{DEVTYPE\}=="disk", ENV\{ID_SERIAL_SHORT\}=="4C530001230512117215", \\|  ATTR\{[a-z_/]+\}="[a-z0-9-]+",? ?\\?)?$' "$d/rule")" 0
t_eq this-device-one-rule "$(grep -c '^ACTION==' "$d/rule")" 1

# ---- a poisoned match value: refused, named escaped ----
for k in quote glob esc; do
	case $k in
	quote) v='4C53"RUN+="/x'; shown="'4C53\"RUN\\+=\"/x'" ;;
	glob)  v='*'; shown="'\\*'" ;;
	esc)   v=$(printf '4C53\033]0;T\007'); shown="'4C53\\\\x1b\\]0;T\\\\x07'" ;;
	esac
	# both the disk and its partition carry the serial; the fixture has no WWN
	awk -v v="$v" '/^E: ID_SERIAL_SHORT=/ { print "E: ID_SERIAL_SHORT=" v; next } { print }' \
		"$FIX/usb-stick.umockdev" >"$d/serial-$k.umockdev"
	rm -f "$d/rule-$k"
	umockdev-run -d "$d/serial-$k.umockdev" -- "$BRISK" export $G/server.profile --format udev \
		--match this-device --device sdc -o "$d/rule-$k" >/dev/null 2>"$d/err-$k"
	t_eq "serial-$k-refused" "$?" 2
	t_match "serial-$k-message" "$(cat "$d/err-$k")" "serial number $shown.*cannot take literally"
	no_raw "serial-$k-message-no-control" "$d/err-$k"
	if [ -e "$d/rule-$k" ]; then t_fail "serial-$k-nothing-written" "rule written"
	else t_pass "serial-$k-nothing-written"; fi
done

# ---- error messages quoting an argument: escaped ----
"$BRISK" devices "$(printf '/nonexistent\033]0;PWNED\007')" >"$d/argerr" 2>&1
t_eq bad-arg-exit "$?" 2
no_raw bad-arg-no-control "$d/argerr"
