#!/bin/bash
# A load's figures agree with each other: its timeline starts at its first
# report (no bytes yet, so a burst into the page cache before the first
# tick is counted) and ends with all its bytes; its mean MiB/s lies between
# its slowest and fastest interval (a mean above the max was seen); the
# text table says what its columns are.  An unthrottled writer on a real
# directory, no root needed.
source tests/lib.sh
d=$(t_tmpdir)
mkdir "$d/w"
out=$("$BRISK" run "$d/w" -q -i 1 -n 4 --interval 200ms --warmup 2s --ls-files 40 -a save \
      --load seq-write --tick 500ms --json "$d/r.json" 2>"$d/err"); rc=$?
if [ "$rc" != 0 ]; then t_fail "run: exit 0" "exit $rc: $(head -c 300 "$d/err")"; exit 0; fi
q='.loads[0]'
t_eq "the timeline starts with no bytes" "$(jq "$q.timeline[0].bytes" "$d/r.json")" 0
t_eq "and ends with all of them" "$(jq "$q.timeline[-1].bytes == $q.bytes" "$d/r.json")" true
t_match "it has intervals" "$(jq "$q.timeline | length" "$d/r.json")" '^([3-9]|[1-9][0-9]+)$'
# the mean and the intervals' rates, from t_s and bytes (not from mib_s)
check=$(jq -r "$q | [.timeline as \$t | range(1; \$t | length) |
          select(\$t[.].t_s > \$t[. - 1].t_s) |
          (\$t[.].bytes - \$t[. - 1].bytes) / 1048576 / (\$t[.].t_s - \$t[. - 1].t_s)] as \$r |
        \"\(.mib_s) \(\$r | min) \(\$r | max)\"" "$d/r.json")
read -r mean lo hi <<<"$check"
if awk -v m="$mean" -v l="$lo" -v h="$hi" 'BEGIN { exit !(m >= l * 0.999999 && m <= h * 1.000001) }'; then
  t_pass "the mean ($mean MiB/s) lies within its intervals' [$lo, $hi]"
else
  t_fail "the mean lies within its intervals" "mean $mean, intervals [$lo, $hi]"
fi
t_match "the table says what its columns are" "$out" '\(MiB/s over its whole run; min, max of its 0\.5 s ticks; worst-ms: its longest call\)'
