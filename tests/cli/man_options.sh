#!/bin/bash
# Every option a subcommand accepts is in its --help and its man page, and
# nothing else: one line per subcommand (the list in ui/main.c) naming what
# is missing where.
#   code: the option tables (optab.h) of the file defining cmd_SUB_main(),
#     shared entries (cliopt.h, ...) resolved: what getopt_long is given
#     (tests/cli/options_common.bash).
#   --help: the option lines ("  -l, --load SPEC  text"): the leading -x and
#     --name words of each line that starts with blanks and a '-'.
#   man page: man/brisk-SUB.1, or the page whose NAME line names brisk-SUB
#     (get and restore are in brisk-set.1); the tags (the line after each
#     .TP or .TQ) in its OPTIONS and COMMANDS sections, groff's \- read as
#     '-' and fonts dropped.  On a page of several commands, an entry whose
#     text starts with "(set, get)" belongs to those only.
# `lab serve` (the FUSE server `lab up` starts, never typed by a user; its
# options are internal) is left out.  An entry the table hides from --help
# fails as "accepted but not in --help".
# The same check runs on a planted triple first, so a check that finds
# nothing has shown it can find something.  No root needed.
source tests/lib.sh
source tests/cli/options_common.bash
BRISK=${BRISK:-./brisk}

OPT_RE='(-[A-Za-z0-9]|--[A-Za-z0-9][A-Za-z0-9-]*)'

# help_opts: the option names of a --help text on stdin
help_opts() {
  grep -oE "^[[:space:]]+$OPT_RE(, $OPT_RE)*" | sed 's/[, ]\{1,\}/\n/g' | grep -E "^$OPT_RE\$" | sort -u
}

# man_opts SUB: the option names of SUB in the man page on stdin
man_opts() {
  awk -v sub_="$1" '
    /^\.SH / { sec = $2; namenext = sec == "NAME"; prev = $1; next }
    namenext { names = $0; sub(/ \\- .*/, "", names); gsub(/brisk-/, "", names)
               gsub(/,/, " ", names); namenext = 0 }
    (sec == "OPTIONS" || sec == "COMMANDS") && (prev == ".TP" || prev == ".TQ") {
      tags = tags " " $0; prev = $1; intag = 1; next }
    intag && /^\.TQ/ { prev = ".TQ"; next }
    intag {   # the first line of the entry: a scope "(set, get)"?
      keep = 1
      if (match($0, /^\([a-z]+(, [a-z]+)*\)/)) {
        scope = substr($0, 2, RLENGTH - 2); n = split(scope, w, ", "); all = 1; mine = 0
        for (i = 1; i <= n; i++) { if (index(" " names " ", " " w[i] " ") == 0) all = 0
                                   if (w[i] == sub_) mine = 1 }
        if (all && !mine) keep = 0
      }
      if (keep) print tags
      tags = ""; intag = 0
    }
    { prev = $1 }' |
    sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/"//g' -e 's/^ *\.[A-Z]* //' -e 's/ \.[A-Z]* / /g' |
    sed 's/[, ]\{1,\}/\n/g' | grep -E "^$OPT_RE\$" | sort -u
}

# only A B: the lines of A that B lacks, on one line ("none" when none)
only() { local o; o=$(comm -23 <(echo "$1") <(echo "$2") | tr '\n' ' '); echo "${o:-none}"; }

# check NAME CODE HELP MAN: PASS, or FAIL naming each side's gaps
check() {
  if [ -z "$2" ] || [ -z "$3" ] || [ -z "$4" ]; then
    t_fail "$1" "no options found (code: '${2//$'\n'/ }', --help: '${3//$'\n'/ }', man page: '${4//$'\n'/ }')"
  elif [ "$2" = "$3" ] && [ "$3" = "$4" ]; then
    t_pass "$1"
  else
    t_fail "$1" "accepted but not in --help: $(only "$2" "$3"); in --help but not accepted: $(only "$3" "$2"); in --help but not in the man page: $(only "$3" "$4"); in the man page but not in --help: $(only "$4" "$3")"
  fi
}

# The planted triple: -q accepted only (a letter more for --exact), -x in
# --help only, --zap in the man page only, --dry-run scoped to the other
# command of the page, the serve table left out, --seed and -h (shared
# entries: macros of the headers) everywhere.
plant_code=$(cat <<'EOF'
static const struct optab opts[] = {
	{ "exact", OPTAB_LONG, NULL, "exact", optab_flag, 0, NULL },
	OPTAB_ALSO('q'),
	{ "dry-run", OPT_DRY, NULL, "as if", run_set, 0, NULL },
	CLIOPT_SEED("seed"),
	OPTAB_HELP,
	OPTAB_END,
};
static const struct optab serve_options[] = {
	{ "internal", OPTAB_LONG, "X", NULL, optab_text, 0, NULL },
	OPTAB_END,
};
EOF
)
plant_help='usage: brisk foo [-x]
  -x, --exact   exact
      --dry-run as if
      --seed N  seed
  -h, --help    this text
'
plant_man='.SH NAME
brisk-foo, brisk-bar \- test
.SH DESCRIPTION
.TP
.B \-\-not\-an\-option
.SH OPTIONS
.TP
.BR \-\-exact " " \fIN\fR
.TQ
.B \-\-zap
exact, zap
.TP
.BR \-n ", " \-\-dry\-run
(bar) as if
.TP
.BI \-\-seed " N"
seed.
.TP
.BR \-h ", " \-\-help
usage.
.SH SEE ALSO
'
got=$(check planted "$(table_opts <<<"$plant_code")" "$(help_opts <<<"$plant_help")" \
  "$(man_opts foo <<<"$plant_man")")
t_eq finds-planted "$got" "FAIL planted: accepted but not in --help: -q ; in --help but not accepted: -x ; in --help but not in the man page: --dry-run -x ; in the man page but not in --help: --zap "

subs=$(grep -oE '^[[:space:]]*\{ *"[a-z]+", *cmd_[a-z]+_main' ui/main.c | sed -E 's/.*"([a-z]+)".*/\1/')
t_match subcommands-listed "$(tr "\n" " " <<<"$subs")" '^run .*lab'
for sub in $subs; do
  src=$(cmd_source "$sub")
  page=man/brisk-$sub.1
  [ -f "$page" ] || page=$(for f in man/*.1; do
    sed -n '/^\.SH NAME/{n;p;q}' "$f" | grep -qE "(^|[ ,])brisk-$sub([ ,]|$)" && echo "$f"
  done | head -1)
  if [ -z "$src" ]; then t_fail "$sub" "no file defines cmd_${sub}_main()"; continue; fi
  if [ -z "$page" ]; then t_fail "$sub" "no man page names brisk-$sub"; continue; fi
  check "$sub" "$(table_opts <"$src")" "$($BRISK "$sub" --help 2>&1 | help_opts)" \
    "$(man_opts "$sub" <"$page")"
done
