/* cliopt — the options several commands share, as option-table entries
 * (optab.h) with their handlers, and the checks of option values.
 *
 * The entries of the options run, compare and tui share (the session's:
 * --load, --actions, ...), of those run, compare and report share (--seed
 * and the output FILEs), and of those two of them share (--quiet, --force,
 * --profile, ...): one entry each, with the --help text its command gives.
 * A command whose table holds them has a struct cliopt_args as the first
 * member of its context.  A value check prints "brisk CMD: OPT 'VALUE':
 * what is expected" and returns 2 (bad input) when it is bad, else 0. */
#ifndef BRISK_CLIOPT_H
#define BRISK_CLIOPT_H

#include <stddef.h>
#include <stdint.h>

#include "optab.h"

struct fiojob_report;
struct profile;
struct session;
struct session_config;

/* What the shared entries store. */
struct cliopt_args {
	struct session_config *c;   /* the session options' target (NULL: report) */
	int user_loads;             /* a --load was given (it replaced the default) */
	const char *json, *csv, *openmetrics, *plot;   /* output FILEs; NULL: none */
	uint64_t seed;              /* --seed N, when seed_given */
	int seed_given, quiet, force;
	const char *load_dir;       /* --load-dir DIR: the loads' dir= (none of their own) */
};

/* Keys of the session options without a letter (cliopt_set_session tells
 * them apart); a command's own keys start at CLIOPT_NEXT. */
enum {
	CLIOPT_KEY_EXEC = OPTAB_LONG, CLIOPT_KEY_LS_FILES, CLIOPT_KEY_INTERVAL,
	CLIOPT_KEY_TIMEOUT, CLIOPT_KEY_FLOOR, CLIOPT_KEY_DROP, CLIOPT_KEY_ALLOW_SHARED,
	CLIOPT_KEY_KEEP_WARM, CLIOPT_KEY_NO_BREAKDOWN, CLIOPT_KEY_LOAD_DIR, CLIOPT_NEXT
};

/* Handlers: a session option (load, actions, exec, ls-files, interval,
 * timeout, floor, drop-caches, allow-shared-dir, keep-warm, no-breakdown;
 * load-dir, given to the loads once every option is read) into *c;
 * --seed; --profile, --fio and --scale, which cliopt_profile() read before
 * the loop (nothing to do). */
int cliopt_set_session(const char *cmd, const struct optab *o, void *ctx, const char *arg);
int cliopt_set_seed(const char *cmd, const struct optab *o, void *ctx, const char *arg);
int cliopt_set_profile(const char *cmd, const struct optab *o, void *ctx, const char *arg);

#define CLIOPT_SESSION_(name, key, arg, help) { name, key, arg, help, cliopt_set_session, 0, NULL }
#define CLIOPT_LOAD(help) CLIOPT_SESSION_("load", 'l', "SPEC", help)
#define CLIOPT_LOAD_DIR \
	CLIOPT_SESSION_("load-dir", CLIOPT_KEY_LOAD_DIR, "DIR", \
			"the loads without a dir= of their own work in DIR\n" \
			"(another disk: a copy to a USB stick)")
#define CLIOPT_ACTIONS \
	CLIOPT_SESSION_("actions", 'a', "LIST", "exec,ls,ssh-like,save (default: all)")
#define CLIOPT_EXEC(help) CLIOPT_SESSION_("exec", CLIOPT_KEY_EXEC, "CMD", help)
#define CLIOPT_LS_FILES \
	CLIOPT_SESSION_("ls-files", CLIOPT_KEY_LS_FILES, "N", "files in the ls tree (default 2000)")
#define CLIOPT_INTERVAL \
	CLIOPT_SESSION_("interval", CLIOPT_KEY_INTERVAL, "T", \
			"mean pause between samples (default 200ms)")
#define CLIOPT_TIMEOUT(help) CLIOPT_SESSION_("timeout", CLIOPT_KEY_TIMEOUT, "T", help)
#define CLIOPT_FLOOR(help) CLIOPT_SESSION_("floor", CLIOPT_KEY_FLOOR, "SIZE|PCT%", help)
#define CLIOPT_DROP_CACHES(help) CLIOPT_SESSION_("drop-caches", CLIOPT_KEY_DROP, NULL, help)
#define CLIOPT_ALLOW_SHARED_DIR(help) \
	CLIOPT_SESSION_("allow-shared-dir", CLIOPT_KEY_ALLOW_SHARED, NULL, help)
#define CLIOPT_KEEP_WARM(help) CLIOPT_SESSION_("keep-warm", CLIOPT_KEY_KEEP_WARM, NULL, help)
#define CLIOPT_NO_BREAKDOWN \
	CLIOPT_SESSION_("no-breakdown", CLIOPT_KEY_NO_BREAKDOWN, NULL, \
			"do not measure where each sample's time went (BPF)")

#define CLIOPT_SEED(help) { "seed", OPTAB_LONG, "N", help, cliopt_set_seed, 0, NULL }
#define CLIOPT_FILE_(name, key, help, field) \
	{ name, key, "FILE", help, optab_text, offsetof(struct cliopt_args, field), NULL }
#define CLIOPT_JSON(help) CLIOPT_FILE_("json", 'j', help, json)
#define CLIOPT_CSV(help) CLIOPT_FILE_("csv", OPTAB_LONG, help, csv)
#define CLIOPT_OPENMETRICS \
	CLIOPT_FILE_("openmetrics", OPTAB_LONG, \
		     "the key figures in the OpenMetrics text format, for\n" \
		     "node_exporter's textfile collector ('-' = stdout)", openmetrics)
#define CLIOPT_PLOT(help) CLIOPT_FILE_("plot", OPTAB_LONG, help, plot)
#define CLIOPT_QUIET \
	{ "quiet", 'q', NULL, "no progress on stderr", optab_flag, \
	  offsetof(struct cliopt_args, quiet), NULL }
#define CLIOPT_FORCE(help) \
	{ "force", OPTAB_LONG, NULL, help, optab_flag, offsetof(struct cliopt_args, force), NULL }
#define CLIOPT_PROFILE(help) { "profile", 'p', "NAME", help, cliopt_set_profile, 0, NULL }
#define CLIOPT_FIO(help) { "fio", OPTAB_LONG, "JOBFILE", help, cliopt_set_profile, 0, NULL }
#define CLIOPT_SCALE(help) { "scale", OPTAB_LONG, "F", help, cliopt_set_profile, 0, NULL }

/* -j, -J, --json without a FILE (devices, get, restore): a flag at OFF. */
#define CLIOPT_JSON_FLAG(help, off) \
	{ "json", 'j', NULL, help, optab_flag, off, NULL }, OPTAB_ALSO('J')

/* The positional arguments argv[first..argc) after the options: 0, or an
 * exit status. */
typedef int cliopt_positional_fn(void *ctx, int argc, char **argv, int first,
				 struct session_config *c);

/* The whole command line of a command that starts a session (cmd->ctx
 * begins with a struct cliopt_args): every option (optab_parse), then the
 * positional arguments: POSITIONAL's, or (NULL) at most one DIR into
 * c->dir.  0 to go on; OPTAB_DONE after -h or --parse-only; else the
 * exit status (2: a bad value was named, or a usage error; 4:
 * --drop-caches without root, said). */
int cliopt_parse(const struct optab_cmd *cmd, int argc, char **argv,
		 cliopt_positional_fn *positional);

/* Before anything runs, the output FILEs of a: at most one goes to stdout
 * ("only one of --json, --csv and --openmetrics can go to stdout", a usage
 * error), and every other can be written (outfile_check: a regular file,
 * or a new name in a writable directory), so a long run does not lose its
 * report at the end; "brisk CMD: --json why".  0, or 2. */
int cliopt_files(const char *cmd, const struct cliopt_args *a);
/* 1 when --json, --csv or --openmetrics is "-" (stdout): no text report. */
int cliopt_to_stdout(const struct cliopt_args *a);
/* After writing the file of an output option OPT ("--json"): rc < 0 is
 * said, "brisk CMD: OPT ERR", and gives CLIOPT_END_FAILED; else 0. */
unsigned cliopt_written(const char *cmd, const char *opt, int rc, const char *err);

/* A bad value: "brisk CMD: OPT 'VAL': WANT" on stderr; 2. */
int cliopt_bad(const char *cmd, const char *opt, const char *val, const char *want);
/* A whole number in [min, max]. */
int cliopt_count(const char *cmd, const char *opt, const char *v, int64_t min, int64_t max,
		 unsigned *out);
/* A duration (500ms, 20s, 2m) in ns. */
int cliopt_time(const char *cmd, const char *opt, const char *v, uint64_t *out);

/* The exit status for a session_create() or session_run() error: 2 when
 * the input was bad (options, DIR: missing, not a directory, not writable,
 * writable by others (root), on a kernel file system; absurd sizes), 1
 * otherwise. */
int cliopt_session_status(int rc);

/* --profile NAME|FILE, --fio JOBFILE and --scale F (run, compare): found
 * in argv before the option loop, read with the command's table tab as the
 * loop reads it (-p NAME, -pNAME, --prof=NAME, never an option's value;
 * at most one of --profile/--fio), loaded and
 * applied onto c with profile_to_session_config(), so that every other
 * option overrides them.  1 applied, 0 none given, -EINVAL (bad input: err
 * has "FILE:LINE: ..." or names the option) or -errno (unreadable file).
 * *p must outlive the session (exec_cmd points into it); note as in
 * profile_to_session_config(); fio_rep (may be NULL) gets a --fio job's
 * notes on the harmless fio keys it accepted (fiojob_import), for the
 * report. */
int cliopt_profile(const struct optab *tab, int argc, char **argv, struct profile *p,
		   struct session_config *c, char *note, size_t notelen,
		   struct fiojob_report *fio_rep, char *err, size_t errlen);

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
