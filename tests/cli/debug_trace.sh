#!/bin/bash
# BRISK_DEBUG: trace lines on stderr, stdout unchanged, unknown names warned.
source tests/lib.sh
T_TMP_ERR=$(t_tmpdir)/err

plain_out=$($BRISK devices 2>/dev/null); plain_rc=$?
t_eq devices-plain-exit "$plain_rc" 0
out=$(BRISK_DEBUG=probe $BRISK devices 2>"$T_TMP_ERR"); rc=$?
err=$(cat "$T_TMP_ERR")
t_eq traced-exit "$rc" "$plain_rc"
t_eq traced-stdout-unchanged "$out" "$plain_out"
t_match traced-probe-lines "$err" "^brisk\[[0-9]+\] probe: "
t_match traced-stack-resolution "$err" "brisk\[[0-9]+\] probe: stack"
bad=$(grep -v '^brisk\[[0-9]*\] probe: ' <<<"$err" | head -3)
t_eq only-probe-lines "$bad" ""

err=$(BRISK_DEBUG=journal $BRISK devices 2>&1 >/dev/null)
t_eq other-category-no-probe-lines "$(grep -c 'probe:' <<<"$err")" 0
err=$($BRISK devices 2>&1 >/dev/null)
t_eq off-by-default "$(grep -c '^brisk\[' <<<"$err")" 0

out=$(BRISK_DEBUG=bogus,probe $BRISK devices 2>"$T_TMP_ERR"); rc=$?
err=$(cat "$T_TMP_ERR")
t_eq unknown-category-exit "$rc" "$plain_rc"
t_eq unknown-category-stdout "$out" "$plain_out"
t_match unknown-category-warned "$err" "BRISK_DEBUG: unknown category 'bogus' ignored"
t_eq unknown-category-warned-once "$(grep -c 'unknown category' <<<"$err")" 1
t_match unknown-category-rest-kept "$err" "probe: "
out=$(BRISK_DEBUG=all $BRISK devices 2>/dev/null)
t_eq all-stdout-unchanged "$out" "$plain_out"
