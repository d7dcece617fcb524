# shellcheck shell=bash
# The options a subcommand accepts, read from its option tables (optab.h),
# for the tests that hold --help, the man pages and the shell completions
# equal to them (man_options.sh, completion_bash.sh; not a test itself: the
# runner takes *.sh).  Source after tests/lib.sh; run from the repository
# root.
#   table_opts <SOURCE: the options of every table
#     (`static const struct optab NAME[] = {` ... `};`) in SOURCE, one a
#     line ("--name", "-x"), sorted.  An entry names its option as
#     { "name", 'x', ... } or as a macro that does, X_("name", 'x', ...); a
#     shared entry is a macro of src/cmd/*.h whose definition does so
#     (through other macros too); OPTAB_ALSO('x') gives one more letter.  The table of `lab serve`
#     (serve_options: the FUSE server `lab up` starts, never typed by a
#     user) is left out.
#   cmd_source SUB: the file that defines cmd_SUB_main().
#   cmd_opts SUB: the options of SUB's tables.

# entry_opts: "--name" and "-x" of the entry texts on stdin (not of the
# macros they use)
entry_opts() {
  local text
  text=$(cat)
  grep -oE "(\{|[A-Z][A-Z0-9_]*\() *\"[a-z0-9][a-z0-9-]*\", *('.'|[A-Za-z_][A-Za-z0-9_]*)" <<<"$text" |
    sed -E "s/.*\"([^\"]*)\", *('(.)'|.*)$/--\1 -\3/" | tr ' ' '\n' | grep -vx -- -
  grep -oE "OPTAB_ALSO\('.'\)" <<<"$text" | sed -E "s/.*'(.)'.*/-\1/"
}

# macro_body NAME: the definition of macro NAME in src/cmd/*.h, on one line
macro_body() {
  awk -v m="$1" '
    !on && ($0 ~ "^#define " m "\\(" || $0 ~ "^#define " m "( |$)") { on = 1 }
    on { line = line " " $0; if ($0 !~ /\\$/) { print line; exit } }' src/cmd/*.h
}

# macros_opts DEPTH: the options the macros used in the entry texts on stdin
# name in their definitions (a use that names its option itself is read by
# entry_opts), following macros that use macros DEPTH deep
macros_opts() {
  local text m body
  text=$(cat)
  [ "$1" -gt 0 ] || return 0
  while read -r m; do
    grep -qE "$m\( *\"[a-z0-9-]+\", *('.'|[A-Za-z_])" <<<"$text" && continue
    body=$(macro_body "$m" | sed -E "s/^ *#define $m(\([^)]*\))? *//")
    [ -n "$body" ] || continue
    entry_opts <<<"$body"
    macros_opts $(($1 - 1)) <<<"$body"
  done < <(grep -oE '(^|[^A-Za-z0-9_"])[A-Z][A-Z0-9_]*( *\(|,|$)' <<<"$text" |
           grep -oE '[A-Z][A-Z0-9_]*' | sort -u)
}

table_opts() {
  local src
  src=$(awk '
    /^[[:space:]]*(static )?const struct optab [a-z_]+\[\] = \{/ {
      on = $0 !~ /serve_options/; next }
    on && /^[[:space:]]*\};/ { on = 0 }
    on { print }')
  { entry_opts <<<"$src"; macros_opts 3 <<<"$src"; } | sort -u
}

# cmd_source SUB, cmd_opts SUB: see above
cmd_source() {
  grep -lE "^int cmd_${1}_main\(" src/cmd/*.c ui/*.c | head -1
}

cmd_opts() {
  local src
  src=$(cmd_source "$1")
  [ -n "$src" ] && table_opts <"$src"
}
