#!/bin/bash
# Issue 24: result files are JSON as RFC 8259 has it.  json-c 0.16 in
# strict mode still takes single-quoted keys, raw control bytes in strings,
# NaN and Infinity, "1.", a lone surrogate escape (read as U+FFFD) and a key
# given twice (the last one wins, where other readers take the first), so
# brisk checks the bytes first.  Each forged file here is a copy of
# tests/fixtures/fleet/forged/values/v01 with one such edit: alone it is
# refused with the reason and its byte named (exit 2), among good files it
# is skipped (exit 3).  The cases json-c took fail on the brisk before
# (it reported on them, exit 0); the others named another reason.  No root.
source tests/lib.sh
PY=/usr/bin/python3
[ -x "$PY" ] || { t_skip report-strict-json "needs $PY"; exit 0; }
d=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$d/rt
good=tests/fixtures/fleet/forged/values/v01/20261204T010000Z-compare.json

# NAME|what to replace|with what (Python string literals, first match)
cases=(
	"single-key|'\"kind\"'|\"'kind'\""
	"raw-ctrl|'\"hostname\": \"v01'|'\"hostname\": \"v\\x01'"
	"raw-tab|'\"kernel\": \"6.1.0'|'\"kernel\": \"6.1\\t0'"
	"raw-newline|'\"model\": \"WDC'|'\"model\": \"WD\\nC'"
	"nan|'\"est\": 100'|'\"est\": NaN'"
	"infinity|'\"est\": 100'|'\"est\": -Infinity'"
	"surrogate|'\"hostname\": \"v01'|'\"hostname\": \"v\\\\ud800'"
	"duplicate|'\"kind\": \"compare\",'|'\"kind\": \"run\", \"kind\": \"compare\",'"
	"dup-escaped|'\"kind\": \"compare\",'|'\"kind\": \"compare\", \"\\\\u006bind\": \"compare\",'"
	"leading-zero|'\"est\": 100'|'\"est\": 0100'"
	"plus|'\"est\": 100'|'\"est\": +100'"
	"dot|'\"est\": 100'|'\"est\": 100.'"
	"trailing-comma|'\"scheduler\": \"mq-deadline\"'|'\"scheduler\": \"mq-deadline\",'"
	"comment|'\"kind\"'|'/* c */ \"kind\"'"
)
declare -A why=(
	[single-key]='not JSON: a single-quoted string at byte [0-9]+ \(JSON strings are in double quotes\)'
	[raw-ctrl]='not JSON: a raw control byte 0x01 in a string at byte [0-9]+'
	[raw-tab]='not JSON: a raw control byte 0x09 in a string at byte [0-9]+'
	[raw-newline]='not JSON: a raw control byte 0x0a in a string at byte [0-9]+'
	[nan]='not JSON: NaN or Infinity at byte [0-9]+'
	[infinity]='not JSON: NaN or Infinity at byte [0-9]+'
	[surrogate]='not JSON: \\\\ud800 at byte [0-9]+ is half a surrogate pair'
	[duplicate]='not JSON for brisk: key "kind" a second time in one object, at byte [0-9]+'
	[dup-escaped]='not JSON for brisk: key "\\\\u006bind" a second time in one object, at byte [0-9]+'
	[leading-zero]='not JSON: a number with a leading zero at byte [0-9]+'
	[plus]="not JSON: '\\+' before a number at byte [0-9]+"
	[dot]="not JSON: a number needs digits after its '\\.', at byte [0-9]+"
	[trailing-comma]="not JSON: a comma before '}' at byte [0-9]+"
	[comment]='not JSON: a comment at byte [0-9]+ \(JSON has none\)'
)
for c in "${cases[@]}"; do
	IFS='|' read -r name from to <<<"$c"
	mkdir -p "$d/$name"
	"$PY" -c "
import sys
s = open(sys.argv[1], 'rb').read().decode()
a, b = $from, $to
assert a in s, a
open(sys.argv[2], 'wb').write(s.replace(a, b, 1).encode())" "$good" "$d/$name/r.json" ||
		{ t_fail "$name" "could not forge the file"; continue; }
	err=$("$BRISK" report --trust-file-identity "$d/$name/r.json" 2>&1 >/dev/null); rc=$?
	t_eq "$name: alone, exit 2" "$rc" 2
	t_match "$name: the reason named" "$err" "r\\.json: ${why[$name]}.*: skipped"
done
# a good file passes the same check (and Python reads the forged ones
# differently or not at all: single quotes and raw control bytes it refuses)
"$BRISK" report --trust-file-identity "$good" >/dev/null 2>&1
t_eq "the good file: exit 0" "$?" 0
t_check "python refuses the single-quoted key" bash -c "! '$PY' -c 'import json,sys; json.load(open(sys.argv[1]))' '$d/single-key/r.json'"
t_check "python refuses the raw control byte" bash -c "! '$PY' -c 'import json,sys; json.load(open(sys.argv[1]))' '$d/raw-ctrl/r.json'"
# among good files: skipped, the others reported on, exit 3
out=$("$BRISK" report --trust-file-identity tests/fixtures/fleet/forged/values/v0[2-5]/*.json \
	"$d"/*/r.json 2>"$d/err"); rc=$?
t_eq "among good files: exit 3" "$rc" 3
t_eq "among good files: each forged one named" "$(grep -c 'r\.json: not JSON' "$d/err")" "${#cases[@]}"
t_match "among good files: the good four reported on" "$out" 'from 4 machines'
