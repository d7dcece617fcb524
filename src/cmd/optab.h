/* optab — a command's options as one table, and the command line's manners
 * every subcommand shares.  An entry gives an option's long name, short
 * letter, argument, --help text and the handler that stores its value (as
 * fio's fio_options[]): optab_parse() builds getopt_long()'s arrays from
 * the table and reads the command line with them, optab_help() prints the
 * option lines of --help.  tests/cli/man_options.sh reads the tables and
 * holds --help, the man pages and the shell completions equal to them.
 * Usage errors are two lines on stderr, "brisk CMD: MESSAGE" and "Try
 * 'brisk help SUB'." (SUB: CMD's first word), never the whole usage text,
 * and exit status 2. */
#ifndef BRISK_OPTAB_H
#define BRISK_OPTAB_H

#include <stddef.h>
#include <stdio.h>

#include "exitcode.h"   /* the statuses its functions return */

struct option;
struct optab;

/* An option's handler: its value ARG (NULL for an option that takes none)
 * into the command's context ctx (the generic ones: at ctx + o->off).  0,
 * or an exit status after saying why ("brisk CMD: OPT 'VALUE': ..."). */
typedef int optab_fn(const char *cmd, const struct optab *o, void *ctx, const char *arg);

#define OPTAB_LONG 256   /* keys from here on: a long option without a letter */

/* One entry.  Besides options, a table holds:
 *   OPTAB_ALSO('J')    one more letter for the entry before ("-j, -J, --json")
 *   OPTAB_MORE(t)      the entries of table t too (parts two tables share)
 *   OPTAB_HELP         -h, --help: the usage on stdout, then exit 0
 *                      (OPTAB_HELP_AS(text): with another text than "this text")
 *   OPTAB_PARSE_ONLY   --parse-only: the options given on stdout, then
 *                      exit 0: each as --NAME or --NAME=VALUE (the value
 *                      escaped, text.h), one a line in the order given; for
 *                      tools that must know which options a command line
 *                      holds (the Ansible role refuses some)
 *   OPTAB_END          the last entry. */
struct optab {
	const char *name;          /* the long name, without "--" */
	int key;                   /* the short letter; from OPTAB_LONG on: none */
	const char *arg;           /* the argument as --help names it; NULL: none */
	const char *help;          /* the --help text, lines split by '\n'; NULL: none */
	optab_fn *set;             /* the handler */
	size_t off;                /* where the generic handlers store */
	const struct optab *more;  /* OPTAB_MORE's table */
};

#define OPTAB_KEY_MORE  (-1)
#define OPTAB_KEY_PARSE_ONLY 0x7fff
#define OPTAB_ALSO(letter) { NULL, letter, NULL, NULL, NULL, 0, NULL }
#define OPTAB_MORE(t) { NULL, OPTAB_KEY_MORE, NULL, NULL, NULL, 0, t }
#define OPTAB_HELP_AS(text) { "help", 'h', NULL, text, NULL, 0, NULL }
#define OPTAB_HELP OPTAB_HELP_AS("this text")
#define OPTAB_PARSE_ONLY \
	{ "parse-only", OPTAB_KEY_PARSE_ONLY, NULL, \
	  "print each option given as --NAME[=VALUE] and exit;\nnothing runs", NULL, 0, NULL }
#define OPTAB_END { NULL, 0, NULL, NULL, NULL, 0, NULL }

/* A numeric macro as text, for a help text: "(default " OPTAB_NUM(N) ")". */
#define OPTAB_NUM_(x) #x
#define OPTAB_NUM(x) OPTAB_NUM_(x)

/* Generic handlers: an int at ctx + o->off set to 1; the argument itself
 * (a const char *) stored there. */
int optab_flag(const char *cmd, const struct optab *o, void *ctx, const char *arg);
int optab_text(const char *cmd, const struct optab *o, void *ctx, const char *arg);

/* A command's --help around its option lines (optab_usage). */
struct optab_text {
	const char *head;
	int col;                   /* the column option texts start at */
	const char *foot;
};

/* A command's options. */
struct optab_cmd {
	const char *name;          /* "run", "lab up": messages say "brisk run: ..." */
	const struct optab *tab;
	void (*usage)(FILE *f);    /* what -h prints; NULL: text around tab */
	void *ctx;                 /* the handlers' */
	const struct optab_text *text;
};

#define OPTAB_DONE (-1)   /* optab_parse(): -h or --parse-only printed: exit 0 */

/* Every option of argv from argv[1] on (getopt_long's reading: options
 * anywhere, grouped short ones, abbreviated long ones, "--" ends them),
 * each given to its handler in turn; optind is then the first positional.
 * 0; OPTAB_DONE after -h or --parse-only (see above); else the exit status:
 * the first handler's that failed, 2 for an option getopt_long() refused
 * (optab_getopt_error), 1 out of memory. */
int optab_parse(const struct optab_cmd *cmd, int argc, char **argv);

/* Read argv as optab_parse() would, with t's options, but call no handler
 * and say nothing: fn(name, value, ctx) for each option given (value NULL
 * for one without an argument); options getopt_long() refuses are skipped
 * (optab_parse() says so later).  For an option that must be known before
 * the others are applied (--profile).  0, or -1 when t is too large. */
typedef void optab_scan_fn(const char *name, const char *value, void *ctx);
int optab_scan(const struct optab *t, int argc, char **argv, optab_scan_fn *fn, void *ctx);

/* The --help lines of t's entries (not those of the tables it takes in with
 * OPTAB_MORE): INDENT blanks, "-x, --name ARG" ("    --name ARG" without a
 * letter), the text at column COL (or two blanks on, past it), its further
 * lines at COL. */
void optab_help(FILE *f, const struct optab *t, int indent, int col);

/* A command's --help: HEAD, the option lines of t (optab_help, indented
 * by two), FOOT. */
void optab_usage(FILE *f, const char *head, const struct optab *t, int col, const char *foot);

/* A usage error of CMD ("run", "lab up"): the two lines above; 2. */
int optab_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* What getopt_long() refused, as a usage error of CMD: C is what it
 * returned ('?', or ':' for a missing argument: the short options must
 * start with ':'), read with optopt and argv[optind - 1] against LONGOPTS:
 * "unknown option '--bogus'", "unknown option '-x'", "option '--l' is
 * ambiguous (--load, --ls-files)", "option '--device' needs an argument",
 * "option '--help' takes no argument".  Needs opterr = 0 before the loop.
 * Returns 2. */
int optab_getopt_error(const char *cmd, int c, char **argv, const struct option *longopts);

#endif
