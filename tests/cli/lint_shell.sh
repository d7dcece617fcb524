#!/bin/bash
# Every shell script of the project is clean under `shellcheck -S warning`:
# the tracked *.sh and *.bash files (completions/brisk.bash among them) and
# .ci/run (outside a git checkout, the same names found under tests/, .ci/,
# packaging/ and completions/).  One line per file; a FAIL line lists the
# findings.  A script planted with a known finding is checked first, so a
# run that finds nothing has shown it can find something.
source tests/lib.sh

if ! command -v shellcheck >/dev/null 2>&1; then
  t_skip lint_shell "shellcheck is not installed (Debian: apt-get install shellcheck)"
  exit 0
fi

# lint FILE: shellcheck's findings, one a line (file:line:col: level: text).
# -x follows `source tests/lib.sh` (paths from the repository root, where
# the tests run), so a variable set in a library and read by the script, or
# the other way round, is seen from both sides, as when all are checked at once.
lint() { shellcheck -x -S warning -f gcc -- "$1" 2>&1; }

mkdir -p "${BRISK_TMP:-$PWD/build}"
plant=$(t_tmpdir) || { t_fail finds-planted "no temporary directory"; exit 0; }
printf '#!/bin/bash\nfor f in $(ls "$1" | grep x); do echo "$f"; done\n' >"$plant/bad.sh"
got=$(lint "$plant/bad.sh")
t_match finds-planted "$got" 'SC2010'

if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
  files=$( { git ls-files -- '*.sh' '*.bash'; echo .ci/run; } | sort -u)
else
  files=$( { find tests .ci packaging completions -type f \( -name '*.sh' -o -name '*.bash' \) 2>/dev/null
             echo .ci/run; } | sort -u)
fi
n=0
while IFS= read -r f; do
  [ -f "$f" ] || continue   # tracked but removed in this checkout
  out=$(lint "$f")
  rc=$?
  n=$((n + 1))
  if [ "$rc" -eq 0 ] && [ -z "$out" ]; then
    t_pass "shellcheck $f"
  else
    t_fail "shellcheck $f" "exit $rc: $(awk 'NR > 1 { printf " | " } { printf "%s", $0 }' <<<"$out")"
  fi
done <<<"$files"
[ "$n" -gt 0 ] || t_fail lint_shell "no shell scripts found under $PWD"
