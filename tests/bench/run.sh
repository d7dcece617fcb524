#!/bin/bash
# make bench: run every benchmark script in tests/bench/ (not timed tests:
# each prints its own figures, as ratios measured side by side where it
# compares brisk with fio or dd).  BENCH="pattern" runs a subset.
cd "$(dirname "$0")/../.." || exit 1
rc=0
for b in tests/bench/*.sh; do
  [ "$(basename "$b")" = run.sh ] && continue
  case "$b" in *"${BENCH:-}"*) ;; *) continue;; esac
  echo "=== $(basename "$b" .sh)"
  bash "$b" || { echo "bench $(basename "$b") exited $?"; rc=1; }
done
exit $rc
