#!/bin/bash
# Run every test: cmocka unit binaries (build/tests/test_*) and shell tests
# (tests/cli/*.sh).  Ends with one line: N passed, N failed, N skipped.
# TESTS="pattern" limits the run to files whose name contains the pattern.
cd "$(dirname "$0")/.." || exit 1
mkdir -p build/logs
# an ASan build (make check SANITIZE=1): libraries' caches kept until exit
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$PWD/tests/lsan.supp"
pass=0 fail=0 skip=0
failed_names=()
filter=${TESTS:-}

count() { # $1 = log file, $2 = unit name
  local p f s body
  # cmocka lists failed and skipped tests again after its summary line:
  # count each test once, from the part before it
  body=$(sed '/^\[==========\] [0-9]* test(s) run\./q' "$1")
  p=$(grep -cE '^(PASS |\[       OK \])' <<<"$body")
  f=$(grep -cE '^(FAIL |\[  FAILED  \] [a-z_])' <<<"$body")
  s=$(grep -cE '^(SKIP |\[  SKIPPED \] [a-z_])' <<<"$body")
  pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
  grep -E '^(FAIL |SKIP )|^\[  (FAILED|SKIPPED|ERROR) *\] [a-z_]' <<<"$body" | sed "s|^|  $2: |"
  [ "$f" -gt 0 ] && failed_names+=("$2")
}

for t in build/tests/test_*; do
  [ -x "$t" ] || continue
  case "$t" in *"$filter"*) ;; *) continue;; esac
  n=$(basename "$t"); log=build/logs/$n.log
  echo "== $n"
  timeout 300 "$t" >"$log" 2>&1; rc=$?
  count "$log" "$n"
  if [ $rc -ne 0 ] && ! grep -qE '^\[  FAILED  \] [a-z_]' "$log"; then
    echo "  $n: exited $rc (crash or timeout), see $log"; fail=$((fail + 1)); failed_names+=("$n")
  fi
done

for t in tests/cli/*.sh; do
  [ -f "$t" ] || continue
  case "$t" in *"$filter"*) ;; *) continue;; esac
  n=$(basename "$t" .sh); log=build/logs/$n.log
  echo "== $n"
  timeout 900 bash "$t" >"$log" 2>&1; rc=$?
  count "$log" "$n"
  if [ $rc -ne 0 ]; then
    echo "  $n: script exited $rc, see $log"; fail=$((fail + 1)); failed_names+=("$n")
  fi
done

[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]} (logs in build/logs/)"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
