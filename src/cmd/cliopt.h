/* cliopt — the command line's manners every subcommand shares, and the
 * option values shared by the commands that start a session (brisk run,
 * brisk tui, brisk compare).
 *
 * Usage errors (an unknown option, a missing argument, too few or too many
 * arguments), for every subcommand alike: two lines on stderr,
 *     brisk CMD: MESSAGE
 *     Try 'brisk help SUB'.
 * (SUB: CMD's first word, so "lab up" points to 'brisk help lab'), never
 * the whole usage text, and exit status 2.  getopt_long() stays quiet
 * (opterr = 0, short options starting with ':') and cliopt_getopt_error()
 * says what it found.
 *
 * Option values: each checks one value and, when it is bad, prints
 * "brisk CMD: OPT 'VALUE': what is expected" and returns 2 (the exit
 * status for bad input); 0 when the value was stored. */
#ifndef BRISK_CLIOPT_H
#define BRISK_CLIOPT_H

#include <stdint.h>
#include <stdio.h>

#include "exitcode.h"   /* the statuses its functions return */

struct fiojob_report;
struct option;
struct profile;
struct session;
struct session_config;

/* getopt_long codes of the options run and tui share; a command's own
 * codes start at CLIOPT_NEXT.  -l/--load and -a/--actions use 'l', 'a'. */
enum {
	CLIOPT_EXEC = 256, CLIOPT_LS_FILES, CLIOPT_INTERVAL, CLIOPT_TIMEOUT, CLIOPT_FLOOR,
	CLIOPT_DROP, CLIOPT_ALLOW_SHARED, CLIOPT_KEEP_WARM, CLIOPT_PARSE_ONLY, CLIOPT_NEXT
};

/* Their getopt_long entries, for the start of a command's option table
 * (needs <getopt.h>). */
#define CLIOPT_LONGOPTS \
	{ "load", required_argument, NULL, 'l' }, \
	{ "actions", required_argument, NULL, 'a' }, \
	{ "exec", required_argument, NULL, CLIOPT_EXEC }, \
	{ "ls-files", required_argument, NULL, CLIOPT_LS_FILES }, \
	{ "interval", required_argument, NULL, CLIOPT_INTERVAL }, \
	{ "timeout", required_argument, NULL, CLIOPT_TIMEOUT }, \
	{ "floor", required_argument, NULL, CLIOPT_FLOOR }, \
	{ "drop-caches", no_argument, NULL, CLIOPT_DROP }, \
	{ "allow-shared-dir", no_argument, NULL, CLIOPT_ALLOW_SHARED }, \
	{ "keep-warm", no_argument, NULL, CLIOPT_KEEP_WARM }

/* --parse-only (CLIOPT_PARSE_ONLY in the tables of run and compare):
 * cliopt_parse() reads the options as ever (values checked), then prints
 * each one given as its long name, "--NAME" or "--NAME=VALUE" (the value
 * escaped, text.h), one a line in the order given, and the command exits
 * 0; the positional arguments are not looked at and nothing else runs.
 * For tools that must know which options a command line holds (the
 * Ansible role refuses some): getopt_long's own reading, grouped short
 * options and abbreviated long ones included. */

/* A usage error of CMD ("run", "lab up"): the two lines above; 2. */
int cliopt_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* What getopt_long() refused, as a usage error of CMD: C is what it
 * returned ('?', or ':' for a missing argument: the short options must
 * start with ':'), read with optopt and argv[optind - 1] against LONGOPTS:
 * "unknown option '--bogus'", "unknown option '-x'", "option '--l' is
 * ambiguous (--load, --ls-files)", "option '--device' needs an argument",
 * "option '--help' takes no argument".  Needs opterr = 0 before the loop.
 * Returns 2. */
int cliopt_getopt_error(const char *cmd, int c, char **argv, const struct option *longopts);

int cliopt_bad(const char *cmd, const char *opt, const char *val, const char *want);

/* A command's output options: OPT ("--json"), its PATH (NULL: not given),
 * and whether "-" (stdout) is allowed for it. */
struct cliopt_output {
	const char *opt;
	const char *path;
	int to_stdout;
};
/* Before anything runs: at most one output goes to stdout ("only one of
 * --json, --csv and --openmetrics can go to stdout", a usage error), and
 * every other path can be written (outfile_check: a regular file, or a new
 * name in a writable directory), so a long run does not lose its report at
 * the end; "brisk CMD: OPT: why".  0, or 2. */
int cliopt_outputs(const char *cmd, const struct cliopt_output *out, size_t n);
/* A whole number in [min, max]. */
int cliopt_count(const char *cmd, const char *opt, const char *v, int64_t min, int64_t max,
		 unsigned *out);
/* A duration (500ms, 20s, 2m) in ns. */
int cliopt_time(const char *cmd, const char *opt, const char *v, uint64_t *out);
/* --floor SIZE|PCT%: free space writers leave; 0 (or 0%) = no floor, the
 * writers end on ENOSPC. */
int cliopt_floor(const char *cmd, const char *v, struct session_config *c);

/* --load SPEC: the first one replaces the default loads (*user_loads
 * records that), later ones add. */
int cliopt_load(const char *cmd, const char *spec, struct session_config *c, int *user_loads);
/* --actions LIST. */
int cliopt_actions(const char *cmd, const char *list, struct session_config *c);

/* --keep-warm: samples that were not cold count in the statistics (by
 * default they are counted and shown apart; see session_durations()). */

/* One shared option (a code above, or 'l' / 'a') into c: 0 stored,
 * 2 bad value (message printed), 1 not a shared option. */
int cliopt_session(const char *cmd, int opt, const char *arg, struct session_config *c,
		   int *user_loads);
/* The exit status for a session_create() or session_run() error: 2 when
 * the input was bad (options, DIR: missing, not a directory, not writable,
 * writable by others (root), on a kernel file system; absurd sizes), 1
 * otherwise. */
int cliopt_session_status(int rc);

/* --profile NAME|FILE, --fio JOBFILE and --scale F (run, compare): found
 * in argv before the option loop (any position before "--", as "--opt
 * VALUE" or "--opt=VALUE"; at most one of --profile/--fio), loaded and
 * applied onto c with profile_to_session_config(), so that every other
 * option overrides them.  1 applied, 0 none given, -EINVAL (bad input: err
 * has "FILE:LINE: ..." or names the option) or -errno (unreadable file).
 * *p must outlive the session (exec_cmd points into it); note as in
 * profile_to_session_config(); fio_rep (may be NULL) gets a --fio job's
 * notes on the harmless fio keys it accepted (fiojob_import), for the
 * report. */
int cliopt_profile(int argc, char **argv, struct profile *p, struct session_config *c,
		   char *note, size_t notelen, struct fiojob_report *fio_rep, char *err,
		   size_t errlen);

/* At most one positional DIR (argv[optind]) into c->dir: 0, or 2 (a
 * usage error). */
int cliopt_dir(const char *cmd, int argc, char **argv, int optind, struct session_config *c);

/* A command that starts a session: its options and its own ones. */
struct cliopt_cmd {
	const char *name;                 /* "run": messages say "brisk run: ..." */
	const char *shortopts;            /* getopt_long's: ':' first, with 'h' */
	const struct option *longopts;    /* the shared codes above and its own */
	void (*usage)(FILE *f);
	/* One of the command's own options: 0 stored, 2 bad value (message
	 * printed), 1 not one of its own (then cliopt_session() is asked). */
	int (*own)(void *ctx, int opt, const char *arg);
	void *ctx;
	/* The positional arguments argv[first..argc) after the options: 0 or
	 * an exit status.  NULL: at most one, DIR (cliopt_dir). */
	int (*positional)(void *ctx, int argc, char **argv, int first,
			  struct session_config *c);
};

#define CLIOPT_HELP (-1)   /* cliopt_parse(): -h printed the usage: exit 0 */

/* The whole command line: every option (the command's own first, then the
 * shared ones into c), then DIR.  0 to go on; CLIOPT_HELP after -h/--help
 * (usage on stdout) or --parse-only (the options on stdout); else the exit
 * status (2: a bad value was named, or a usage error, see above; 4:
 * --drop-caches without root, said). */
int cliopt_parse(const struct cliopt_cmd *cmd, int argc, char **argv,
		 struct session_config *c, int *user_loads);

/* What the front end itself saw go wrong, for cliopt_exit_status(). */
#define CLIOPT_END_FAILED 1u   /* a report, stdout or the restore failed (said) */
#define CLIOPT_END_LOST   2u   /* the terminal went away (dashboard) */
#define CLIOPT_END_REPORTED 4u /* a report was printed (messages point to it) */

/* The exit status of a session that was created, after session_run()
 * returned rc (its message already printed), for run and tui alike:
 *   2  rc is -EOVERFLOW before the idle phase began (absurd sizes: input);
 *   1  rc < 0 otherwise, or CLIOPT_END_FAILED, or loads/actions failed
 *      (s->n_failed: says so on stderr);
 *   128+N  signal N ended the run (a failure above wins: it is the more
 *      specific news; a stopped run is still reported);
 *   1  CLIOPT_END_LOST (a lost terminal usually also brings SIGHUP, which
 *      then wins);
 *   0  otherwise. */
int cliopt_exit_status(const char *cmd, const struct session *s, int rc, unsigned end);

#endif
