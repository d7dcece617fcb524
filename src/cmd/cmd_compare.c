#include "cmd_compare.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cliopt.h"
#include "compare.h"
#include "comparefront.h"
#include "fiojob.h"
#include "journal.h"
#include "now.h"
#include "parse.h"
#include "profile.h"

static const char CMD[] = "compare";

/* The options, in the order --help lists them. */
static const struct optab cmp_options[] = {
	{ "schedulers", OPTAB_LONG, NULL,
	  "arms: current, then every other scheduler all the\n"
	  "disks offer (ARMs given too are added after them)", optab_flag,
	  offsetof(struct cmp_args, schedulers), NULL },
	{ "rounds", 'r', "N", "exactly N rounds (default: as many as fit the budget)",
	  cmd_compare_set, 0, NULL },
	{ "budget", 'b', "T",
	  "time for the whole comparison (default 10m); it stops\n"
	  "earlier when every verdict is settled", cmd_compare_set, 0, NULL },
	CMD_COMPARE_OPT_SAMPLES,
	{ "looks", OPT_LOOKS, "L",
	  "analyses that may stop it early (default 3; each at\n"
	  "alpha / L, so the false-positive rate stays <= alpha)", cmd_compare_set, 0, NULL },
	CMD_COMPARE_OPT_MARGIN,
	{ "no-racing", OPT_NO_RACING, NULL,
	  "every arm runs every round (default: an arm shown\n"
	  "slower than the leader leaves the race)", cmd_compare_set, 0, NULL },
	CLIOPT_KEEP_WARM("count samples that were not cold in the statistics"),
	CLIOPT_NO_BREAKDOWN,
	CMD_COMPARE_OPT_SETTLE,
	CLIOPT_LOAD("the load, as brisk run (default seq-write)"),
	CLIOPT_ACTIONS,
	CLIOPT_EXEC("program the exec action starts"),
	CLIOPT_LS_FILES,
	{ "warmup", OPT_WARMUP, "T",
	  "warm-up at most T (default 5s; ends after 1s once\n"
	  "writeback is under way, as brisk run)", cmd_compare_set, 0, NULL },
	{ "steady-state", OPT_STEADY, NULL,
	  "sample the load's steady state instead: warm up until\n"
	  "Dirty + Writeback stop growing (at least 2s; --warmup\n"
	  "30s unless given)", cmd_compare_set, 0, NULL },
	{ "load-window", OPT_LOAD_WINDOW, "T",
	  "measure the load over the first T of each arm-run's\n"
	  "loaded phase, held that long at least (default 10s;\n"
	  "0: each arm-run's whole loaded phase)", cmd_compare_set, 0, NULL },
	CLIOPT_INTERVAL,
	CLIOPT_TIMEOUT("a sample past T is killed, counted at T (60s)"),
	CLIOPT_DROP_CACHES("evict with /proc/sys/vm/drop_caches (root; the default\n"
			   "as root: a directory listing is cold only so)"),
	CLIOPT_LOAD_DIR,
	CLIOPT_FLOOR("free space writers leave (default: max(5%, 2GiB))"),
	CLIOPT_PROFILE("the workload of a profile (its settings are not applied:\n"
		       "name it as an ARM for that)"),
	CLIOPT_FIO("the workload of a fio job file"),
	CLIOPT_SCALE("shrink --fio/--profile sizes and delays"),
	CLIOPT_SEED("seed for the order, jitter and bootstrap"),
	CLIOPT_ALLOW_SHARED_DIR("as root, run even when others can write DIR"),
	CLIOPT_JSON("every sample and figure as JSON ('-' = stdout)"),
	CLIOPT_CSV("the samples as CSV ('-' = stdout)"),
	CLIOPT_OPENMETRICS,
	CLIOPT_PLOT("a picture: FILE.svg or FILE.png"),
	{ "save", OPTAB_LONG, "NAME", "save the recommended arm's settings as profile NAME",
	  optab_text, offsetof(struct cmp_args, save), NULL },
	CLIOPT_FORCE("--save replaces an existing profile NAME"),
	CLIOPT_QUIET,
	OPTAB_PARSE_ONLY,
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text usage_text = {
	"usage: brisk compare [DIR] ARM ARM... [options]\n"
	"       brisk compare [DIR] --schedulers [ARM...] [options]\n"
	"\n"
	"Measure settings side by side on the disks behind DIR (default: the current\n"
	"directory) in interleaved rounds and say, per action, whether each is faster,\n"
	"slower, equivalent (within --margin) or still undecided against the first\n"
	"(the baseline).  Each round runs every arm once, in a rotated order: apply\n"
	"it, sync and wait for dirty data to drain, start the load, warm up, take the\n"
	"samples, stop, put every setting back.  From round 3 the arms race: one\n"
	"shown slower than the leader leaves (the baseline stays), and the comparison\n"
	"ends when the leader is shown faster than every arm left, or they are\n"
	"equivalent to it.\n"
	"\n"
	"An ARM is 'current' (the settings in place), KEY=VALUE[,KEY=VALUE...] as\n"
	"'brisk set' takes them (scheduler=bfq,iosched/low_latency=0), or a profile\n"
	"name or file (its [settings]).  The first positional is DIR when it is a\n"
	"directory and holds no '='.  Changing settings needs root.\n"
	"\n",
	25,
	"\n"
	"Exit status: 0 done (also with no winner: --save then saves nothing), 1\n"
	"failed (an arm-run failed, a setting could not be applied or put back, an\n"
	"output could not be written), 2 bad input, 4 an arm sets something and\n"
	"this is not root, 128+N stopped by signal N (the report still shows what\n"
	"was measured).  See brisk-compare(1).\n"
};

int cmd_compare_set(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct cmp_args *a = ctx;
	struct compare_config *c = a->cfg;
	int rc = 0;
	switch (o->key) {
	case 'r':
		rc = cliopt_count(cmd, "--rounds", arg, 1, COMPARE_MAX_ROUNDS, &c->rounds);
		break;
	case 'b':
		rc = cliopt_time(cmd, "--budget", arg, &c->budget_ns);
		if (!rc && c->budget_ns < 1000000000ull)
			rc = cliopt_bad(cmd, "--budget", arg, "at least 1s");
		break;
	case 'n':
		rc = cliopt_count(cmd, "--samples", arg, 1, 10000, &c->samples);
		break;
	case OPT_LOOKS:
		rc = cliopt_count(cmd, "--looks", arg, 1, 20, &c->looks);
		break;
	case OPT_MARGIN: {
		char v[16];
		int64_t pct = 0;
		size_t n = strlen(arg);
		if (n && n < sizeof(v) && arg[n - 1] == '%')
			n--;
		snprintf(v, sizeof(v), "%.*s", (int)(n < sizeof(v) ? n : 0), arg);
		if (parse_int(v, 1, 100, &pct) < 0)
			rc = cliopt_bad(cmd, "--margin", arg, "a whole percent from 1 to 100, as 10 "
					"or 10%");
		c->margin = 1.0 + (double)pct / 100.0;
		break;
	}
	case OPT_NO_RACING:
		c->no_racing = 1;
		break;
	case OPT_STEADY:
		c->steady = 1;
		break;
	case OPT_SETTLE:
		rc = cliopt_time(cmd, "--settle-max", arg, &c->settle_max_ns);
		break;
	case OPT_LOAD_WINDOW:
		rc = cliopt_time(cmd, "--load-window", arg, &c->load_window_ns);
		if (!rc && c->load_window_ns > 600000000000ull)
			rc = cliopt_bad(cmd, "--load-window", arg, "at most 10m");
		break;
	case OPT_WARMUP:
		rc = cliopt_time(cmd, "--warmup", arg, &c->run.warmup_max_ns);
		a->warmup_set = 1;
		if (!rc && c->run.warmup_min_ns > c->run.warmup_max_ns)
			c->run.warmup_min_ns = c->run.warmup_max_ns;
		break;
	}
	return rc;
}

/* [DIR] ARM...: DIR when the first is a directory without '='. */
static int cmp_positional(void *ctx, int argc, char **argv, int first,
			  struct session_config *c)
{
	struct cmp_args *a = ctx;
	struct stat st;
	if (first < argc && !strchr(argv[first], '=') && strcmp(argv[first], "current") &&
	    stat(argv[first], &st) == 0 && S_ISDIR(st.st_mode)) {
		if (strlen(argv[first]) >= sizeof(c->dir))
			return cliopt_bad(CMD, "DIR", argv[first], "path too long");
		snprintf(c->dir, sizeof(c->dir), "%s", argv[first]);
		first++;
	}
	for (int i = first; i < argc; i++) {
		if (a->n_arms == COMPARE_MAX_ARMS) {
			fprintf(stderr, "brisk compare: at most %d arms\n", COMPARE_MAX_ARMS);
			return EXIT_USAGE;
		}
		a->arms[a->n_arms++] = argv[i];
	}
	return 0;
}

int cmd_compare_check(const char *cmd, struct cmp_args *a)
{
	a->cfg->keep_warm = a->cfg->run.keep_warm;   /* a shared option (cliopt) */
	if (a->cfg->steady) {
		if (!a->warmup_set)
			a->cfg->run.warmup_max_ns = 30000000000ull;
		if (a->cfg->run.warmup_min_ns < 2000000000ull)
			a->cfg->run.warmup_min_ns = a->cfg->run.warmup_max_ns < 2000000000ull ?
						    a->cfg->run.warmup_max_ns : 2000000000ull;
	}
	if (!a->cfg->run.n_loads) {
		fprintf(stderr, "brisk %s: compares under a load; give one with -l\n", cmd);
		return EXIT_USAGE;
	}
	const char *plot = a->com.plot;
	if (plot) {
		size_t l = strlen(plot);
		if (l < 5 || (strcasecmp(plot + l - 4, ".svg") && strcasecmp(plot + l - 4, ".png")))
			return cliopt_bad(cmd, "--plot", plot, "a file name ending in .svg or .png");
	}
	int orc = cliopt_files(cmd, &a->com);
	if (orc)
		return orc;
	if (a->save && !profile_name_ok(a->save, PROFILE_NAME_LEN - 1))
		return cliopt_bad(cmd, "--save", a->save, "a profile name (letters, digits, - _ .)");
	return 0;
}

static int cmp_parse(int argc, char **argv, struct cmp_args *a)
{
	const struct optab_cmd cmd = { CMD, cmp_options, NULL, a, &usage_text };
	int rc = cliopt_parse(&cmd, argc, argv, cmp_positional);
	if (rc)
		return rc;
	if (!a->schedulers && a->n_arms < 2) {
		return optab_usage_error(CMD, "give at least two arms (the first is the baseline), "
					 "or --schedulers");
	}
	return cmd_compare_check(CMD, a);
}

/* Arms from the command line (and --schedulers): 0 or 2, nothing changed. */
static int cmp_arms(struct comparefront *x, const struct cmp_args *a, struct compare_arm *arms, size_t *n)
{
	char err[512] = "";
	*n = 0;
	if (a->schedulers) {
		*n = compare_arms_schedulers(&x->st, arms, COMPARE_MAX_ARMS, err, sizeof(err));
		if (*n < 2) {
			fprintf(stderr, "brisk compare: --schedulers: %s\n",
				err[0] ? err : "fewer than two arms");
			return EXIT_USAGE;
		}
	}
	for (size_t i = 0; i < a->n_arms; i++) {
		if (*n == COMPARE_MAX_ARMS) {
			fprintf(stderr, "brisk compare: at most %d arms\n", COMPARE_MAX_ARMS);
			return EXIT_USAGE;
		}
		int rc = compare_arm_parse(a->arms[i], &x->st, &arms[*n], err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "brisk compare: %s; nothing was run or changed\n", err);
			return rc == -EPERM ? EXIT_PRIVILEGE : EXIT_USAGE;
		}
		(*n)++;
	}
	return 0;
}

static struct fiojob_report cmp_fio_rep;   /* --fio: the harmless keys' notes */
static struct profile cmp_profile;   /* --profile/--fio: exec points into it */

int cmd_compare_main(int argc, char **argv)
{
	struct compare_config cfg;
	compare_config_default(&cfg);
	struct cmp_args a = { .com.c = &cfg.run, .cfg = &cfg };
	char err[512];
	int rc = comparefront_profile(CMD, cmp_options, argc, argv, &cmp_profile, &cfg.run, &cmp_fio_rep);
	if (rc)
		return rc;
	if ((rc = cmp_parse(argc, argv, &a)))
		return rc == OPTAB_DONE ? 0 : rc;
	if (geteuid() == 0)   /* a directory listing is cold only this way */
		cfg.run.evict = ACTION_EVICT_DROP_CACHES;
	if (a.com.seed_given)
		cfg.seed = a.com.seed;
	else
		cfg.seed = cfg.run.seed ? cfg.run.seed : (now_ns() ^ (uint64_t)getpid()) % 1000000007u;

	struct comparefront x = { .cmd = CMD, .fixed_rounds = cfg.rounds != 0 };
	char what[256];
	journal_what(what, sizeof(what), argc, argv);
	const char *dir = cfg.run.dir[0] ? cfg.run.dir : ".";
	struct compare_arm arms[COMPARE_MAX_ARMS];
	size_t n = 0;
	struct compare *c = NULL;
	memset(arms, 0, sizeof(arms));
	if ((rc = comparefront_stack(&x, dir, what)) || (rc = comparefront_loads(&x, &cfg.run)))
		goto out;
	if ((rc = cmp_arms(&x, &a, arms, &n)))
		goto out;
	rc = compare_create(&cfg, &x.st, arms, n, &c, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk compare: %s\n", rc == -ENOMEM ? "out of memory" : err);
		rc = rc == -EPERM ? EXIT_PRIVILEGE : rc == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
		goto out;
	}
	compare_describe_workload(&cfg.run, cfg.samples, x.workload, sizeof(x.workload));
	compare_set_context(c, x.stackline, x.disks, x.workload);
	if (!a.com.quiet)
		fprintf(stderr, "brisk compare: %zu arms on %s (%s), seed %llu, %s\n", n, dir,
			x.stackline, (unsigned long long)cfg.seed, cfg.rounds ? "fixed rounds" :
			"rounds by budget");
	int run_rc = comparefront_run(&x, c, a.com.quiet);
	const struct compare_result *r = compare_result(c);
	unsigned end = r->n_runs ? comparefront_outputs(&x, &a.com, a.save, NULL, NULL, NULL) : 0;
	rc = comparefront_exit(&x, r, run_rc, end);
out:
	for (size_t i = 0; i < COMPARE_MAX_ARMS; i++)
		compare_arm_free(&arms[i]);
	compare_free(c);
	comparefront_free(&x);
	return rc;
}
