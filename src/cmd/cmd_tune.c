#include "cmd_tune.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd_compare.h"
#include "comparefront.h"
#include "fiojob.h"
#include "journal.h"
#include "msg.h"
#include "now.h"
#include "profile.h"
#include "text.h"
#include "tune.h"

static const char CMD[] = "tune";
#define TUNE_DEFAULT_BUDGET_NS (45ull * 60 * 1000000000ull)

enum { OPT_SPACE = OPT_CMP_NEXT, OPT_LIST, OPT_RESUME };

static const struct optab tune_options[] = {
	{ "space", OPT_SPACE, "FILE",
	  "the settings to try (INI, brisk-tune(1) SPACE; default:\n"
	  "the desktop space: schedulers x wbt x dirty limit ...)", optab_text,
	  offsetof(struct cmp_args, space), NULL },
	{ "list", OPT_LIST, NULL, "print the space's arms and exit (nothing runs)", optab_flag,
	  offsetof(struct cmp_args, list), NULL },
	{ "resume", OPT_RESUME, "FILE",
	  "continue the stopped tune whose --json is FILE (with\n"
	  "its options; the finished arm-runs are kept)", optab_text,
	  offsetof(struct cmp_args, resume), NULL },
	{ "budget", 'b', "T",
	  "time for the whole tune (default 45m); it ends earlier\n"
	  "when the race does", cmd_compare_set, 0, NULL },
	{ "rounds", 'r', "N", "at most N rounds (default: as many as fit the budget)",
	  cmd_compare_set, 0, NULL },
	CMD_COMPARE_OPT_SAMPLES,
	CMD_COMPARE_OPT_MARGIN,
	CLIOPT_KEEP_WARM("count samples that were not cold in the statistics"),
	CLIOPT_NO_BREAKDOWN,
	CMD_COMPARE_OPT_SETTLE,
	CLIOPT_LOAD("the load, as brisk run (default seq-write)"),
	CLIOPT_ACTIONS,
	CLIOPT_EXEC("program the exec action starts"),
	CLIOPT_LS_FILES,
	{ "warmup", OPT_WARMUP, "T", "warm-up at most T (default 5s, as brisk compare)",
	  cmd_compare_set, 0, NULL },
	{ "load-window", OPT_LOAD_WINDOW, "T",
	  "measure the load over the first T of each arm-run's\n"
	  "loaded phase (default 10s; 0: all of it)", cmd_compare_set, 0, NULL },
	CLIOPT_INTERVAL,
	CLIOPT_TIMEOUT("a sample past T is killed, counted at T (60s)"),
	CLIOPT_LOAD_DIR,
	CLIOPT_FLOOR("free space writers leave (default: max(5%, 2GiB))"),
	CLIOPT_PROFILE("the workload of a profile (its settings are not applied)"),
	CLIOPT_FIO("the workload of a fio job file"),
	CLIOPT_SCALE("shrink --fio/--profile sizes and delays"),
	CLIOPT_SEED("seed for the order, jitter and bootstrap"),
	CLIOPT_ALLOW_SHARED_DIR("as root, run even when others can write DIR"),
	CLIOPT_JSON("every arm-run as JSON, kept whole after each one\n"
		    "(default brisk-tune-DATE-TIME.json here)"),
	CLIOPT_CSV("the samples as CSV ('-' = stdout)"),
	CLIOPT_OPENMETRICS,
	CLIOPT_PLOT("a picture: FILE.svg or FILE.png"),
	{ "save", OPTAB_LONG, "NAME",
	  "save the recommended arm's settings as profile NAME\n"
	  "(for brisk export)", optab_text, offsetof(struct cmp_args, save), NULL },
	CLIOPT_FORCE("--save replaces an existing profile NAME; --json an\n"
		     "existing FILE"),
	CLIOPT_QUIET,
	OPTAB_PARSE_ONLY,
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text usage_text = {
	"usage: brisk tune [DIR] [--space FILE] [options]\n"
	"       brisk tune --resume FILE [-q]\n"
	"\n"
	"Search the settings that make the disks behind DIR (default: the current\n"
	"directory) feel best under a load: every arm of a settings space (the\n"
	"schedulers the disks offer, each with keys at a few levels) is measured\n"
	"in interleaved rounds as brisk compare does, against current, and an arm\n"
	"shown slower than the leader leaves the race.  It ends when the leader is\n"
	"shown faster than every arm left, when they are equivalent, or at the\n"
	"budget; then it names the best arm with its evidence against current and\n"
	"each scheduler's defaults, and which of its settings mattered.  The JSON\n"
	"is kept whole after each arm-run: a tune stopped any way continues with\n"
	"--resume.  Every setting is put back after each arm-run.  Needs root.\n"
	"\n",
	25,
	"\n"
	"Exit status: 0 done (also when nothing beats current), 1 failed (an\n"
	"arm-run failed, a setting could not be put back, an output could not be\n"
	"written), 2 bad input (a bad space file: FILE:LINE), 4 not root, 128+N\n"
	"stopped by signal N (the JSON keeps what was measured).  See brisk-tune(1).\n"
};

/* [DIR]: at most one. */
static int tune_positional(void *ctx, int argc, char **argv, int first,
			   struct session_config *c)
{
	(void)ctx;
	if (first < argc && first + 1 < argc)
		return optab_usage_error(CMD, "one DIR at most (the settings come from --space)");
	if (first < argc) {
		struct stat st;
		if (stat(argv[first], &st) < 0 || !S_ISDIR(st.st_mode))
			return cliopt_bad(CMD, "DIR", argv[first], "a directory");
		if (strlen(argv[first]) >= sizeof(c->dir))
			return cliopt_bad(CMD, "DIR", argv[first], "path too long");
		snprintf(c->dir, sizeof(c->dir), "%s", argv[first]);
	}
	return 0;
}

/* Everything a tune holds while it runs. */
struct tune_ctx {
	struct comparefront x;
	struct tune_space sp;
	struct tune_point points[COMPARE_MAX_ARMS];
	struct tune_result t;
	int argc;
	char **argv;                 /* the command line --resume runs again */
	char cwd[PATH_MAX];
	const char *json;
	int keep_warm, quiet;
	uint64_t budget_ns;
	int said_budget;             /* the minimum rounds overrun the budget (said once) */
	int json_failed;             /* a checkpoint could not be written (said once) */
	int analyzed;                /* t is the analysis of the last checkpoint's result */
	int final_done;              /* the checkpoint after the final analysis ran: */
	int final_rc;                /* ... what writing it gave, */
	char final_err[512];         /* ... and why not */
};

/* The analysis and the JSON of r into path. */
static int write_json(struct tune_ctx *k, const struct compare_result *r, const char *path,
		      char *err, size_t errlen)
{
	if (!(k->analyzed = tune_analyze(r, k->keep_warm, &k->sp, k->points, &k->t) == 0))
		return msg_fail(-ENOMEM, err, errlen, "out of memory");
	return tune_report_json(r, &k->sp, &k->t, k->argc, k->argv, k->cwd, path, err, errlen);
}

/* --json at the end: the last checkpoint wrote it after the final
 * analysis (comparefront_outputs asks again). */
static int tune_json(void *ctx, const struct compare_result *r, const char *path, char *err,
		     size_t errlen)
{
	struct tune_ctx *k = ctx;
	if (!k->final_done)
		return write_json(k, r, path, err, errlen);
	snprintf(err, errlen, "%s", k->final_err);
	return k->final_rc;
}

/* The tune's part of the text report, from the last checkpoint's analysis. */
static void tune_text(FILE *f, const struct compare_result *r, void *ctx)
{
	struct tune_ctx *k = ctx;
	if ((k->final_done && k->analyzed) ||
	    tune_analyze(r, k->keep_warm, &k->sp, k->points, &k->t) == 0)
		tune_report_text(f, r, &k->sp, &k->t);
}

/* After the first round: when the rounds every arm runs at least will not
 * fit the budget, say so once (the race needs them). */
static void budget_note(struct tune_ctx *k, const struct compare_result *r)
{
	if (k->said_budget || k->quiet || r->n_runs != r->n_arms || r->replayed_runs)
		return;
	k->said_budget = 1;
	uint64_t sum = 0;
	for (size_t i = 0; i < r->n_runs; i++)
		sum += r->runs[i].dur_ns;
	uint64_t need = sum * COMPARE_MIN_ROUNDS;
	if (need <= k->budget_ns)
		return;
	progress_clear(&k->x.line);
	fprintf(stderr, "brisk tune: %d rounds of %zu arms take about %llu min at this round's "
		"pace, more than the budget of %llu min: the race needs them (a smaller space or a "
		"lighter workload is quicker)\n", COMPARE_MIN_ROUNDS, r->n_arms,
		(unsigned long long)(need / 60000000000ull),
		(unsigned long long)(k->budget_ns / 60000000000ull));
}

/* After each arm-run, and once more after the final analysis (r.t_ns is
 * set then): the JSON, whole (the checkpoint --resume reads). */
static void checkpoint(void *ctx, struct compare *c)
{
	struct tune_ctx *k = ctx;
	const struct compare_result *r = compare_result(c);
	char err[512] = "";
	budget_note(k, r);
	int rc = write_json(k, r, k->json, err, sizeof(err));
	if (r->t_ns) {   /* the end: the outputs say how it went */
		k->final_done = 1;
		k->final_rc = rc;
		snprintf(k->final_err, sizeof(k->final_err), "%s", err);
	} else if (rc < 0 && !k->json_failed) {
		progress_clear(&k->x.line);
		fprintf(stderr, "brisk tune: %s: a stopped tune cannot resume from it\n", err);
		k->json_failed = 1;
	}
}

/* --list: the arms, nothing run or changed. */
static void list_arms(const struct tune_ctx *k, const struct compare_arm *arms, size_t n)
{
	char src[300];
	text_escape(src, sizeof(src), k->sp.source);
	printf("%zu arms from %s:\n", n, src);
	for (size_t i = 0; i < n; i++) {
		char label[96], set[300];
		text_escape(label, sizeof(label), arms[i].label);
		text_escape(set, sizeof(set), arms[i].settings[0] ? arms[i].settings :
			    "(the settings in place)");
		printf("  %2zu %-28s %s\n", i, label, set);
	}
	for (size_t i = 0; i < k->sp.n_notes; i++)
		printf("note: %s\n", k->sp.notes[i]);
}

/* The default --json: brisk-tune-DATE-TIME.json here, new. */
static void default_json(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(buf, len, "brisk-tune-%Y%m%d-%H%M%S.json", &tm);
}

/* The arms of the resumed tune must be those it ran. */
static int same_arms(const struct tune_saved *sv, const struct compare_arm *arms, size_t n)
{
	if (sv->n_arms != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(sv->arms[i], arms[i].name))
			return 0;
	return 1;
}

static struct fiojob_report tune_fio_rep;
static struct profile tune_profile;   /* --profile/--fio: exec points into it */

/* One tune: argv as given (sv NULL) or as saved (--resume FILE). */
static int tune_main(int argc, char **argv, const struct tune_saved *sv, const char *resume_path,
		     int quiet, const char **resume)
{
	struct compare_config cfg;
	compare_config_default(&cfg);
	cfg.budget_ns = TUNE_DEFAULT_BUDGET_NS;
	struct cmp_args a = { .com.c = &cfg.run, .cfg = &cfg };
	char err[512], jbuf[64];
	int rc = comparefront_profile(CMD, tune_options, argc, argv, &tune_profile, &cfg.run, &tune_fio_rep);
	if (rc)
		return rc;
	const struct optab_cmd cmd = { CMD, tune_options, NULL, &a, &usage_text };
	if ((rc = cliopt_parse(&cmd, argc, argv, tune_positional)))
		return rc == OPTAB_DONE ? 0 : rc;
	if (a.resume && !sv) {
		*resume = a.resume;
		return -1;   /* the caller resumes (quiet: a.com.quiet, seen there) */
	}
	if (sv) {
		a.com.json = resume_path;
		a.com.quiet = quiet;
		a.com.force = 1;   /* the resumed JSON is replaced as it goes */
	}
	if (a.com.json && !strcmp(a.com.json, "-"))
		return cliopt_bad(CMD, "--json", "-", "a file: the tune keeps it whole as it goes");
	if (!a.com.json && !a.list) {
		default_json(jbuf, sizeof(jbuf));
		a.com.json = jbuf;
	}
	if (a.com.json && !a.com.force && !a.list && access(a.com.json, F_OK) == 0) {
		fprintf(stderr, "brisk tune: --json %s exists: --force replaces it, --resume %s "
			"continues it\n", a.com.json, a.com.json);
		return EXIT_USAGE;
	}
	if ((rc = cmd_compare_check(CMD, &a)))
		return rc;
	if (geteuid() == 0)
		cfg.run.evict = ACTION_EVICT_DROP_CACHES;
	if (sv)
		cfg.seed = sv->seed;
	else if (a.com.seed_given)
		cfg.seed = a.com.seed;
	else
		cfg.seed = cfg.run.seed ? cfg.run.seed : (now_ns() ^ (uint64_t)getpid()) % 1000000007u;

	struct tune_ctx *k = calloc(1, sizeof(*k));
	if (!k)
		return EXIT_FAILED;
	k->x = (struct comparefront){ .cmd = CMD, .fixed_rounds = cfg.rounds != 0,
				      .armrun = checkpoint, .ctx = k };
	k->argc = argc;
	k->argv = argv;
	k->json = a.com.json;
	k->keep_warm = cfg.keep_warm;
	k->quiet = a.com.quiet;
	k->budget_ns = cfg.rounds ? UINT64_MAX : cfg.budget_ns;
	if (!getcwd(k->cwd, sizeof(k->cwd)))
		k->cwd[0] = '\0';
	char what[256];
	journal_what(what, sizeof(what), argc, argv);
	const char *dir = cfg.run.dir[0] ? cfg.run.dir : ".";
	struct compare_arm arms[COMPARE_MAX_ARMS];
	size_t n = 0;
	struct compare *c = NULL;
	memset(arms, 0, sizeof(arms));
	if ((rc = comparefront_stack(&k->x, dir, what)) || (rc = comparefront_loads(&k->x, &cfg.run)))
		goto out;
	rc = a.space ? tune_space_load(a.space, &k->sp, err, sizeof(err)) :
		       tune_space_parse(tune_space_default_text, "the desktop space", &k->sp, err,
					sizeof(err));
	if (rc == 0)
		rc = tune_space_arms(&k->sp, &k->x.st, a.space != NULL, arms, k->points,
				     COMPARE_MAX_ARMS, &n, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk tune: %s; nothing was run or changed\n",
			rc == -ENOMEM ? "out of memory" : err);
		rc = rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
		goto out;
	}
	if (a.list) {
		list_arms(k, arms, n);
		rc = fflush(stdout) ? EXIT_FAILED : 0;
		goto out;
	}
	if (sv && !same_arms(sv, arms, n)) {
		fprintf(stderr, "brisk tune: --resume %s: its arms are not those of its space on "
			"these disks now (the space file or the disks changed): start a new tune\n",
			resume_path);
		rc = EXIT_USAGE;
		goto out;
	}
	rc = compare_create(&cfg, &k->x.st, arms, n, &c, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk tune: %s\n", rc == -ENOMEM ? "out of memory" : err);
		rc = rc == -EPERM ? EXIT_PRIVILEGE : rc == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
		goto out;
	}
	if (sv && compare_replay(c, sv->runs, sv->n_runs, sv->samples, sv->n_samples) < 0) {
		fprintf(stderr, "brisk tune: --resume %s: its arm-runs do not fit its arms\n",
			resume_path);
		rc = EXIT_USAGE;
		goto out;
	}
	compare_describe_workload(&cfg.run, cfg.samples, k->x.workload, sizeof(k->x.workload));
	compare_set_context(c, k->x.stackline, k->x.disks, k->x.workload);
	compare_set_command(c, "tune");
	if (!a.com.quiet) {
		char src[300];
		text_escape(src, sizeof(src), k->sp.source);
		fprintf(stderr, "brisk tune: %zu arms from %s on %s (%s), seed %llu, budget %llum; "
			"JSON in %s%s\n", n, src, dir, k->x.stackline,
			(unsigned long long)cfg.seed,
			(unsigned long long)(cfg.budget_ns / 60000000000ull), k->json,
			sv ? "" : " (--resume continues it if stopped)");
		for (size_t i = 0; i < k->sp.n_notes; i++)
			fprintf(stderr, "brisk tune: %s\n", k->sp.notes[i]);
		if (sv)
			fprintf(stderr, "brisk tune: resuming: %zu finished arm-run(s) kept\n",
				sv->n_runs);
	}
	int run_rc = comparefront_run(&k->x, c, a.com.quiet);
	const struct compare_result *r = compare_result(c);
	unsigned end = comparefront_outputs(&k->x, &a.com, a.save, tune_text, tune_json, k);
	if (k->json_failed)
		end |= CLIOPT_END_FAILED;
	rc = comparefront_exit(&k->x, r, run_rc, end);
out:
	for (size_t i = 0; i < COMPARE_MAX_ARMS; i++)
		compare_arm_free(&arms[i]);
	compare_free(c);
	comparefront_free(&k->x);
	free(k);
	return rc;
}

/* `--resume FILE [-q]` and nothing else (any spelling optab takes)? */
static int resume_only(int argc, char **argv, int *quiet)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--resume") && i + 1 < argc)
			i++;
		else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
			*quiet = 1;
		else if (strncmp(argv[i], "--resume=", 9))
			return 0;
	}
	return 1;
}

int cmd_tune_main(int argc, char **argv)
{
	const char *file = NULL;
	int quiet = 0;
	int rc = tune_main(argc, argv, NULL, NULL, 0, &file);
	if (rc != -1)
		return rc;
	if (!resume_only(argc, argv, &quiet))
		return optab_usage_error(CMD, "--resume FILE takes no other options but -q: the "
					 "tune goes on with its own");
	char abs[PATH_MAX], err[512];
	struct tune_saved sv;
	if (!realpath(file, abs)) {
		fprintf(stderr, "brisk tune: --resume %s: %s\n", file, strerror(errno));
		return EXIT_USAGE;
	}
	rc = tune_saved_read(abs, &sv, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk tune: %s\n", err);
		return rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
	}
	if (chdir(sv.cwd) < 0) {
		fprintf(stderr, "brisk tune: --resume %s: cannot go to %s, where it ran: %s\n", file,
			sv.cwd, strerror(errno));
		tune_saved_free(&sv);
		return EXIT_USAGE;
	}
	rc = tune_main(sv.argc, sv.argv, &sv, abs, quiet, &file);
	tune_saved_free(&sv);
	return rc == -1 ? EXIT_USAGE : rc;
}
