#!/bin/bash
# brisk run|compare --parse-only: the options as getopt_long reads them
# (grouped short options, abbreviated long ones, --opt=VALUE and --opt
# VALUE, values checked), one --NAME[=VALUE] a line, values escaped, exit
# 0; nothing written, positionals not looked at; a bad option or value is
# the usual error (exit 2).  What the Ansible role's preflight refuses by.
# No root needed.
source tests/lib.sh
d=$(t_tmpdir) || { t_fail parse_only "no temporary directory"; exit 0; }
p() { (cd "$d" && BRISK_RUNTIME_DIR=/proc/brisk-parse-only-none "$BRISK" "$@"); }

out=$(p compare --parse-only -qr5 -qjX --open=F --sav=x --bud 5m current scheduler=none -- --json y)
t_eq compare-exit "$?" 0
t_eq compare-options "$(tr '\n' ' ' <<<"$out")" \
  "--quiet --rounds=5 --quiet --json=X --openmetrics=F --save=x --budget=5m "
out=$(p run -qr1000 --parse-only 2>&1)
t_eq run-refuses-r "$?" 2
t_match run-refuses-r-says "$out" "brisk run: unknown option '-r'"
out=$(p run --pars -d 5s -l seq-write --exec "$(printf 'a\nb\033')" --csv=C)
t_eq run-exit "$?" 0
t_eq run-options "$(tr '\n' ' ' <<<"$out")" '--duration=5s --load=seq-write --exec=a\x0ab\x1b --csv=C '
out=$(p compare --parse-only -qb0 2>&1)
t_eq bad-value-exit "$?" 2
t_match bad-value-says "$out" "brisk compare: --budget '0'"
out=$(p compare --parse-only --s x 2>&1)
t_eq ambiguous-exit "$?" 2
t_match ambiguous-says "$out" "option '--s' is ambiguous"
t_eq nothing-written "$(find "$d" -mindepth 1 | wc -l)" 0
t_eq no-options "$(p run --parse-only; echo "rc=$?")" "rc=0"
