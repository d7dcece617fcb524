#!/bin/bash
# No function over 150 lines and no .c file over 900 lines under probes/,
# src/ and ui/ (brisk's style rule: a longer one is split), except those
# listed in tests/cli/sizes.allow with a reason: `PATH[:FUNCTION] reason`,
# one a line (# comments and blank lines ignored).  Every listed size still over the
# limit is printed as an INFO line; an entry that is no longer over it, or
# gives no reason, fails (`allow-list-current`), so the list only shrinks.
#   - A function is the code's shape here: its signature starts at column
#     0 (continuation lines indented), its body opens with `{` alone at
#     column 0 and ends at the next `}` at column 0; its length counts from
#     the signature's first line to that `}`.  A column-0 line that is a
#     comment, a preprocessor line or a declaration ending in `;` starts no
#     signature.
#   - A file's length is its number of lines.
# The same check runs on a small planted tree first, so a check that finds
# nothing has shown it can find something.
# `bash tests/cli/sizes.sh --list [ROOT]` prints every size over the limits.
. tests/lib.sh

FN_MAX=150
FILE_MAX=900

# sizes ROOT: "PATH LINES" for each .c over FILE_MAX and "PATH:FUNCTION
# LINES" for each function over FN_MAX, in file order
sizes() (
  cd "$1" || exit 1
  shopt -s nullglob
  local files=(probes/*.c src/*/*.c ui/*.c)
  [ ${#files[@]} -gt 0 ] || exit 0
  awk -v fn_max="$FN_MAX" -v file_max="$FILE_MAX" '
    function flush() { if (FILENAME0 != "" && lines > file_max) print FILENAME0, lines }
    FNR == 1 { flush(); FILENAME0 = FILENAME; lines = 0; start = 0; sig = ""; body = 0; incomment = 0 }
    { lines++ }
    body && /^}/ {
      if (FNR - start + 1 > fn_max) print FILENAME ":" name, FNR - start + 1
      body = 0; start = 0; sig = ""
      next
    }
    body { next }
    /^{/ {
      name = sig
      gsub(/__attribute__[ \t]*\(\([^)]*\)\)/, "", name)
      if (match(name, /[A-Za-z_][A-Za-z_0-9]*[ \t]*\(/)) {
        name = substr(name, RSTART, RLENGTH); sub(/[ \t]*\($/, "", name)
      } else name = "?"
      if (!start) start = FNR
      body = 1
      next
    }
    incomment { if (/\*\//) incomment = 0; next }
    /^\/\*/ { if (!/\*\//) incomment = 1; start = 0; sig = ""; next }
    /^(#|\/\/)/ || /^[ \t]*$/ { start = 0; sig = ""; next }
    /^[A-Za-z_]/ {
      if ($0 ~ /;[ \t]*(\/\*.*)?$/) { start = 0; sig = "" }
      else if (start && sig !~ /\(/) sig = sig " " $0     # after its return type
      else { start = FNR; sig = $0 }
      next
    }
    start && /^[ \t]/ {
      if ($0 ~ /;[ \t]*(\/\*.*)?$/) { start = 0; sig = "" } else sig = sig " " $0
    }
    END { flush() }
  ' "${files[@]}"
)

if [ "${1:-}" = --list ]; then sizes "${2:-.}"; exit; fi

# check ROOT ALLOW: the failing lines (offenders not allowed, stale or bad
# entries) and the INFO lines
check() {
  local over entries
  over=$(sizes "$1") || { echo "FAILING the scan failed"; return; }
  entries=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$2")
  OVER=$over awk '
    BEGIN {
      n = split(ENVIRON["OVER"], o, "\n")
      for (i = 1; i <= n; i++) if (o[i] != "") { split(o[i], w, " "); size[w[1]] = w[2] }
    }
    NF == 0 { next }
    {
      key = $1; why = $0; sub(/^[^ \t]+[ \t]*/, "", why)
      if (why == "") print "FAILING " key " is allowed without a reason"
      if (key in seen) print "FAILING " key " is listed twice"
      seen[key] = 1
      if (key in size) print "INFO " key " " size[key] " lines (allowed: " why ")"
      else print "FAILING " key " is in the allow-list but no longer over the limit: remove it"
    }
    END { for (k in size) if (!(k in seen)) print "FAILING " k " " size[k] " lines, over the limit" }
  ' <<<"$entries"
}

mkdir -p "${BRISK_TMP:-$PWD/build}"
plant=$(t_tmpdir) || { t_fail finds-planted "no temporary directory"; exit 0; }
mkdir -p "$plant/src/run" "$plant/ui" "$plant/probes"
body() { local i; for ((i = 0; i < $1; i++)); do printf '\tx++;\n'; done; }
decls() { local i; for ((i = 0; i < $1; i++)); do printf 'int v%d;\n' "$i"; done; }
{
  printf '/* big — planted */\n#include <stdio.h>\n\nint x;\nstatic int fit(void);\n'
  printf 'int proto(int a,\n\t  int b);\n\n'
  printf 'static const int table[] = {\n'; body 200; printf '};\n\n'      # data, not a function
  printf 'static int\nfit(void)\n{\n'; body 145; printf '\treturn 0;\n}\n\n' # 150 lines: fine
  printf 'int too_long(int a,\n\t     int b)\n{\n'; body 146; printf '\treturn a + b;\n}\n\n' # 151
  printf '/* a comment\n */\n__attribute__((format(printf, 1, 2))) void\t allowed_fn (void)\n{\n'
  body 200; printf '}\n'
  printf 'void no_reason(void)\n{\n'; body 150; printf '}\n'
} >"$plant/src/run/big.c"
decls 900 >"$plant/ui/long.c"       # 900 lines: fine
decls 901 >"$plant/probes/longer.c" # 901
{
  printf '# planted\nsrc/run/big.c:allowed_fn  a reason\n\n'
  printf 'ui/long.c  was long once\nsrc/run/big.c:no_reason   \nsrc/run/big.c:allowed_fn  again\n'
} >"$plant/allow"
got=$(check "$plant" "$plant/allow" | LC_ALL=C sort | tr '\n' ';')
t_eq finds-planted "$got" "FAILING probes/longer.c 901 lines, over the limit;FAILING src/run/big.c:allowed_fn is listed twice;FAILING src/run/big.c:no_reason is allowed without a reason;FAILING src/run/big.c:too_long 151 lines, over the limit;FAILING ui/long.c is in the allow-list but no longer over the limit: remove it;INFO src/run/big.c:allowed_fn 203 lines (allowed: a reason);INFO src/run/big.c:allowed_fn 203 lines (allowed: again);INFO src/run/big.c:no_reason 153 lines (allowed: );"

out=$(check . tests/cli/sizes.allow)
grep '^INFO' <<<"$out"
t_eq sizes-within-limits "$(grep '^FAILING.*over the limit$' <<<"$out" | LC_ALL=C sort | tr '\n' ';')" ""
t_eq allow-list-current "$(grep '^FAILING' <<<"$out" | grep -v 'over the limit$' | tr '\n' ';')" ""
