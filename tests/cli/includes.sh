#!/bin/bash
# Every #include "X.h" of brisk's own headers (probes/, src/*/, ui/) in a .c
# or .h there is used: the including file names at least one thing X.h
# declares itself — a function, an extern variable, a macro, a typedef, an
# enum constant, or a struct/union/enum tag it defines (as `struct TAG`).
# An unused include draws a false edge between modules (the layer map,
# ARCHITECTURE.md) and hides what a file really depends on.
#   - X.h's names are read at the regex level (comments and strings
#     stripped; include guards, forward declarations and members are not
#     names); the including file's comments, strings, #include lines and
#     members (after . or ->) do not count as uses.
#   - A .c file's own header (foo.c, foo.h) is always allowed.
#   - A header that includes another to re-export it is allowed only when
#     the pair is listed in REEXPORT below with a reason; a file including
#     the first may then use the second's names.
# The same check runs on a small planted tree first, so a check that finds
# nothing has shown it can find something.  System headers are not checked.
# `bash tests/cli/includes.sh --list [ROOT]` prints only the unused includes.
. tests/lib.sh

# HEADER INCLUDED reason: HEADER includes INCLUDED for the files that
# include HEADER, which may use INCLUDED's names through it
REEXPORT="optab.h exitcode.h its functions return the exit statuses every cmd_*.c passes on"

# Two passes, sharing the comment and string stripper.  AWK_DECLS reads
# the headers: one "HEADER NAME" line per name (tags as struct:TAG,
# union:TAG, enum:TAG; a forward declaration as fwd:struct:TAG).  AWK_USES
# reads those lines, then every file: a line per unused include.
AWK_COMMON='
function strip(s,    out, i, c, rest) {
	out = ""
	while (s != "") {
		if (incomment) {
			i = index(s, "*/")
			if (!i) return out
			s = substr(s, i + 2); incomment = 0; out = out " "
			continue
		}
		if (!match(s, /\/\*|\/\/|"|\047/)) return out s
		out = out substr(s, 1, RSTART - 1)
		c = substr(s, RSTART, RLENGTH); rest = substr(s, RSTART + RLENGTH)
		if (c == "//") return out
		if (c == "/*") { incomment = 1; s = rest; continue }
		# a string or character literal: drop it up to its closing quote
		while (rest != "" && substr(rest, 1, 1) != c)
			rest = substr(rest, (substr(rest, 1, 1) == "\\") ? 3 : 2)
		s = substr(rest, 2); out = out " \"\" "
	}
	return out
}
function base(p) { sub(/.*\//, "", p); return p }
'

AWK_DECLS='
function add(name) { if (name != "") print base(FILENAME), name }
function reset() { ntok = 0; typedef = 0; gotfn = 0; frozen = 0; fnptr = ""; declid = ""; declistag = 0; prev = "" }
FNR == 1 { incomment = 0; cont = 0; depth = 0; pdepth = 0; enumdepth = -1; split("", guard); reset() }
{
	line = strip($0)
	if (cont) { cont = (line ~ /\\$/); next }
	if (line ~ /^[ \t]*#/) {
		cont = (line ~ /\\$/)
		if (match(line, /^[ \t]*#[ \t]*ifndef[ \t]+[A-Za-z_0-9]+/)) {
			n = substr(line, RSTART, RLENGTH); sub(/.*[ \t]/, "", n); guard[n] = 1
		} else if (match(line, /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z_0-9]*/)) {
			n = substr(line, RSTART, RLENGTH); sub(/.*[ \t]/, "", n)
			if (!(n in guard && n ~ /_H_?$/)) add(n)
		}
		next
	}
	while (match(line, /[A-Za-z_][A-Za-z_0-9]*|[^ \t]/)) {
		t = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
		isid = (t ~ /^[A-Za-z_]/)
		if (depth > 0) {
			if (t == "{") {
				if (prev == "enum" || prev2 == "enum" && prev ~ /^[A-Za-z_]/) { enumdepth = depth; item = 1 }
				depth++
			}
			else if (t == "}") {
				depth--
				if (depth == enumdepth) enumdepth = -1
				if (depth == 0 && gotfn) reset()
			} else if (depth == enumdepth + 1 && enumdepth >= 0) {
				if (t == "(") pdepth++
				else if (t == ")") pdepth--
				else if (pdepth == 0 && t == ",") item = 1
				else if (pdepth == 0 && isid && item) { add(t); item = 0 }
				else item = 0
			}
			prev2 = prev; prev = t
			continue
		}
		ntok++
		if (t == "(") {
			if (pdepth == 0 && previd && prev !~ /^(__attribute__|_Static_assert|__typeof__|typeof|sizeof|_Alignas)$/) {
				if (typedef && fnptr == "") fnptr = prev   # typedef T NAME(...)
				else if (!typedef && !gotfn) { add(prev); gotfn = 1 }
			}
			pdepth++
		} else if (t == ")") pdepth--
		else if (pdepth > 0) {
			if (isid && typedef && prev == "*" && prev2 == "(" && pdepth == 1) fnptr = t
		} else if (t == "{") {
			if (prev ~ /^(struct|union|enum)$/ || prevtag != "") {
				if (prevtag != "") add(prevtag)
				if (prev == "enum" || prevtag ~ /^enum:/) { enumdepth = 0; item = 1 }
			}
			depth++
		} else if (t == ";" || t == ",") {
			if (typedef) add(fnptr != "" ? fnptr : declid)
			else if (!gotfn && !declistag) add(declid)
			else if (!gotfn && ntok == 3 && prev2 ~ /^(struct|union)$/) add("fwd:" prev2 ":" prev)   # struct TAG;
			if (t == ";") reset()
			else { fnptr = ""; declid = ""; declistag = 0; frozen = 0 }
		} else if (t == "=" || t == "[" || t == "__attribute__") frozen = 1
		else if (isid) {
			if (t == "typedef") typedef = 1
			else if (!frozen && t !~ /^(struct|union|enum|const|volatile|extern|static|inline|restrict|unsigned|signed|int|char|short|long|float|double|void|_Bool|_Noreturn)$/) {
				declid = t; declistag = (prev ~ /^(struct|union|enum)$/)
			}
		}
		prevtag = (isid && prev ~ /^(struct|union|enum)$/ && depth == 0 && pdepth == 0) ? prev ":" t : ""
		previd = isid
		prev2 = prev; prev = t
	}
}
'

AWK_USES='
# a forward-declared tag is a name of its header when no header defines it
# (an opaque type); REEXPORT lends names (after the headers are read)
function ready(    k, n, m, j, h, s) {
	for (k in fwd) if (!(fwd[k] in tag)) { split(k, n, SUBSEP); name[n[1], ++names[n[1]]] = n[2] }
	m = split(ENVIRON["REEXPORT"], r, "\n")
	for (j = 1; j <= m; j++) {
		if (split(r[j], n, " ") < 2) continue
		h = n[1]; s = n[2]; lend[h, s] = 1
		if (n[3] == "") print "REEXPORT: " h " " s " gives no reason"
		if (!(h in known) || !(s in known)) print "REEXPORT: " h " or " s " is no header here"
		for (k = 1; k <= names[s]; k++) name[h, ++names[h]] = name[s, k]
	}
	isready = 1
}
FILENAME == "-" {
	known[$1] = 1
	if ($2 ~ /^fwd:/) fwd[$1, substr($2, 5)] = substr($2, 5)
	else if ($2 != "-") { name[$1, ++names[$1]] = $2; if ($2 ~ /:/) tag[$2] = 1 }
	next
}
FNR == 1 && file != "" { check() }
FNR == 1 { if (!isready) ready(); file = FILENAME; incomment = 0; n = 0; split("", inc); split("", used) }
{
	line = strip($0)
	if ($0 ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
		h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h); inc[++n] = h
		next
	}
	gsub(/(\.|->)[ \t]*[A-Za-z_][A-Za-z_0-9]*/, " ", line)
	m = split(line, w, /[^A-Za-z_0-9]+/)
	for (i = 1; i <= m; i++) {
		used[w[i]] = 1
		if (w[i] ~ /^(struct|union|enum)$/ && i < m) used[w[i] ":" w[i + 1]] = 1
	}
}
END {
	if (file != "") check()
	for (k in lend) if (!(k in lent)) { split(k, pr, SUBSEP); print "REEXPORT: " pr[1] " does not include " pr[2] }
}
function check(    i, h, own, k, ok) {
	own = base(file); sub(/\.c$/, ".h", own)
	for (i = 1; i <= n; i++) {
		h = inc[i]
		if (!(h in known) || h == own) continue
		if ((base(file), h) in lend) { lent[base(file), h] = 1; continue }
		ok = 0
		for (k = 1; k <= names[h] && !ok; k++) if (name[h, k] in used) ok = 1
		if (!ok) print file " includes " h " and uses nothing of it"
	}
}
'

# unused ROOT: a line per unused include of a project header under ROOT
# (and per bad REEXPORT entry)
unused() (
  cd "$1" || exit 1
  shopt -s nullglob
  local files=(probes/*.[ch] src/*/*.[ch] ui/*.[ch]) hdrs=(probes/*.h src/*/*.h ui/*.h)
  set -o pipefail
  { printf '%s -\n' "${hdrs[@]##*/}"; awk "$AWK_COMMON$AWK_DECLS" "${hdrs[@]}" /dev/null; } |
    REEXPORT=$REEXPORT awk "$AWK_COMMON$AWK_USES" - "${files[@]}" || echo "the scan failed"
)

if [ "${1:-}" = --list ]; then unused "${2:-.}"; exit; fi

mkdir -p "${BRISK_TMP:-$PWD/build}"
plant=$(t_tmpdir) || { t_fail finds-planted "no temporary directory"; exit 0; }
mkdir -p "$plant/probes" "$plant/src/base" "$plant/src/run" "$plant/ui"
cat >"$plant/src/base/a.h" <<'EOF'
/* a — every kind of name: a_gone() in a comment is not one */
#ifndef BRISK_A_H
#define BRISK_A_H
#include <stddef.h>
#define A_MAX 4
#define A_SUM(x, y) \
	((x) + (y) + A_HIDDEN)
enum a_kind { A_ONE = 1, A_TWO = (1 << 2), };
struct a_rec {
	int a_member;
	enum { A_NESTED } nested;
};
struct a_opaque;
typedef struct a_rec a_t;
typedef int (*a_cb_fn)(void *ctx, size_t n);
typedef double a_draw_fn(void *what);
extern const char *a_var[A_MAX];
int a_fn(const struct a_rec *r, a_cb_fn cb) __attribute__((nonnull(1)));
static inline int a_inline(int x) { int a_local = x; return a_local; }
#endif
EOF
cat >"$plant/src/base/b.h" <<'EOF'
#ifndef BRISK_B_H
#define BRISK_B_H
struct a_rec;
struct b_rec { int a_fn; };
#endif
EOF
printf '#include "a.h"\n#include "b.h"\n' >"$plant/src/base/c.h"
: >"$plant/ui/empty.h"
n=0
for use in A_MAX A_SUM 'struct a_rec r;' A_ONE A_TWO A_NESTED 'enum a_kind k;' 'a_t x;' a_cb_fn \
           a_draw_fn a_var a_fn a_inline 'struct a_opaque *p;'; do
  n=$((n + 1))
  printf '#include "a.h"\n%s\n' "$use" >"$plant/src/run/ok$n.c"   # each name counts
done
printf '#include "a.h"\n' >"$plant/src/base/a.c"                   # its own header
printf '#include "c.h"\nA_MAX\n' >"$plant/src/run/lent.c"         # through REEXPORT
printf '#include "b.h"\nstruct b_rec\n' >"$plant/probes/okb.c"
cat >"$plant/src/run/bad.c" <<'EOF'
#include "a.h"    /* a_fn */
#include "b.h"
/* a_fn(A_MAX) */ const char *s = "A_ONE a_var";
int a_rec, a_member; struct b_rec x = { .a_fn = 1 }; int y = x.a_fn + p->a_var;
a_local a_gone BRISK_A_H A_HIDDEN
EOF
printf '#include "b.h"\nstruct a_rec *r;\n' >"$plant/probes/fwd.c" # a_rec is a.h's, not b.h's
printf '#include "empty.h"\nint x;\n' >"$plant/ui/e.c"
got=$(REEXPORT="c.h a.h for the test
c.h b.h
x.h a.h why" unused "$plant" | LC_ALL=C sort | tr '\n' ';')
t_eq finds-planted "$got" "REEXPORT: c.h b.h gives no reason;REEXPORT: x.h does not include a.h;REEXPORT: x.h or a.h is no header here;probes/fwd.c includes b.h and uses nothing of it;src/run/bad.c includes a.h and uses nothing of it;ui/e.c includes empty.h and uses nothing of it;"
t_eq includes-used "$(unused . | tr '\n' ';')" ""
