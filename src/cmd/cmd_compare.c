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
#include "fiojob.h"
#include "compare_plot.h"
#include "compare_report.h"
#include "journal.h"
#include "loadscope.h"
#include "now.h"
#include "parse.h"
#include "openmetrics.h"
#include "profile.h"
#include "progress.h"
#include "stack.h"
#include "text.h"

static const char CMD[] = "compare";

enum {   /* this command's own keys; the shared ones are cliopt.h's */
	OPT_LOOKS = CLIOPT_NEXT, OPT_MARGIN, OPT_NO_RACING, OPT_SETTLE, OPT_WARMUP, OPT_STEADY, OPT_LOAD_WINDOW,
};

/* The command line of a comparison, beyond the shared options. */
struct cmp_args {
	struct cliopt_args com;   /* first: the shared entries' (cliopt.h) */
	struct compare_config *cfg;
	const char *save;
	int schedulers, warmup_set;
	const char *arms[COMPARE_MAX_ARMS];
	size_t n_arms;
};

static optab_fn cmp_set;

/* The options, in the order --help lists them. */
static const struct optab cmp_options[] = {
	{ "schedulers", OPTAB_LONG, NULL,
	  "arms: current, then every other scheduler all the\n"
	  "disks offer (ARMs given too are added after them)", optab_flag,
	  offsetof(struct cmp_args, schedulers), NULL },
	{ "rounds", 'r', "N", "exactly N rounds (default: as many as fit the budget)", cmp_set, 0,
	  NULL },
	{ "budget", 'b', "T",
	  "time for the whole comparison (default 10m); it stops\n"
	  "earlier when every verdict is settled", cmp_set, 0, NULL },
	{ "samples", 'n', "N",
	  "samples per action in each arm-run (default " OPTAB_NUM(COMPARE_DEFAULT_SAMPLES) ")",
	  cmp_set, 0, NULL },
	{ "looks", OPT_LOOKS, "L",
	  "analyses that may stop it early (default 3; each at\n"
	  "alpha / L, so the false-positive rate stays <= alpha)", cmp_set, 0, NULL },
	{ "margin", OPT_MARGIN, "PCT",
	  "equivalent: the ratio shown within PCT % either way\n"
	  "(1-100, default 20)", cmp_set, 0, NULL },
	{ "no-racing", OPT_NO_RACING, NULL,
	  "every arm runs every round (default: an arm shown\n"
	  "slower than the leader leaves the race)", cmp_set, 0, NULL },
	CLIOPT_KEEP_WARM("count samples that were not cold in the statistics"),
	CLIOPT_NO_BREAKDOWN,
	{ "settle-max", OPT_SETTLE, "T", "wait at most T for dirty data to drain (default 60s)",
	  cmp_set, 0, NULL },
	CLIOPT_LOAD("the load, as brisk run (default seq-write)"),
	CLIOPT_ACTIONS,
	CLIOPT_EXEC("program the exec action starts"),
	CLIOPT_LS_FILES,
	{ "warmup", OPT_WARMUP, "T",
	  "warm-up at most T (default 5s; ends after 1s once\n"
	  "writeback is under way, as brisk run)", cmp_set, 0, NULL },
	{ "steady-state", OPT_STEADY, NULL,
	  "sample the load's steady state instead: warm up until\n"
	  "Dirty + Writeback stop growing (at least 2s; --warmup\n"
	  "30s unless given)", cmp_set, 0, NULL },
	{ "load-window", OPT_LOAD_WINDOW, "T",
	  "measure the load over the first T of each arm-run's\n"
	  "loaded phase, held that long at least (default 10s;\n"
	  "0: each arm-run's whole loaded phase)", cmp_set, 0, NULL },
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

/* One of compare's own options (optab_fn). */
static int cmp_set(const char *cmd, const struct optab *o, void *ctx, const char *arg)
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

static int cmp_parse(int argc, char **argv, struct cmp_args *a)
{
	const struct optab_cmd cmd = { CMD, cmp_options, NULL, a, &usage_text };
	int rc = cliopt_parse(&cmd, argc, argv, cmp_positional);
	if (rc)
		return rc;
	a->cfg->keep_warm = a->cfg->run.keep_warm;   /* a shared option (cliopt) */
	if (!a->schedulers && a->n_arms < 2) {
		return optab_usage_error(CMD, "give at least two arms (the first is the baseline), "
					 "or --schedulers");
	}
	if (a->cfg->steady) {
		if (!a->warmup_set)
			a->cfg->run.warmup_max_ns = 30000000000ull;
		if (a->cfg->run.warmup_min_ns < 2000000000ull)
			a->cfg->run.warmup_min_ns = a->cfg->run.warmup_max_ns < 2000000000ull ?
						    a->cfg->run.warmup_max_ns : 2000000000ull;
	}
	if (!a->cfg->run.n_loads) {
		fprintf(stderr, "brisk compare: compares under a load; give one with -l\n");
		return EXIT_USAGE;
	}
	const char *plot = a->com.plot;
	if (plot) {
		size_t l = strlen(plot);
		if (l < 5 || (strcasecmp(plot + l - 4, ".svg") && strcasecmp(plot + l - 4, ".png")))
			return cliopt_bad(CMD, "--plot", plot, "a file name ending in .svg or .png");
	}
	int orc = cliopt_files(CMD, &a->com);
	if (orc)
		return orc;
	if (a->save && !profile_name_ok(a->save, PROFILE_NAME_LEN - 1))
		return cliopt_bad(CMD, "--save", a->save, "a profile name (letters, digits, - _ .)");
	return 0;
}

/* ---- the stack: its disks are where arms apply ---- */

struct cmp_ctx {
	struct cmp_args *a;
	size_t runs_shown;
	struct settings st;
	struct settings load_st;       /* load:KEY arms (loadscope.h) */
	struct stack *stack;
	char stackline[512], disks[512], workload[512];
	struct progress line;          /* on a terminal, unless -q (progress.h) */
	struct compare *c;
};

static int cmp_stack(struct cmp_ctx *x, const char *dir, const char *what)
{
	int rc = stack_resolve_path(dir, &x->stack);
	if (rc < 0) {
		fprintf(stderr, "brisk compare: cannot find the disks behind %s: %s\n", dir,
			strerror(-rc));
		return EXIT_USAGE;
	}
	const struct blockdev *leaves[SETTINGS_MAX_DEVS];
	const char *names[SETTINGS_MAX_DEVS];
	size_t nl = stack_leaves(x->stack, leaves, SETTINGS_MAX_DEVS);
	if (nl > SETTINGS_MAX_DEVS)
		nl = SETTINGS_MAX_DEVS;
	size_t sl = (size_t)snprintf(x->stackline, sizeof(x->stackline), "%s on",
				     x->stack->mount.fstype[0] ? x->stack->mount.fstype : "?");
	for (size_t i = 0; i < nl; i++) {
		names[i] = leaves[i]->name;
		if (sl < sizeof(x->stackline))
			sl += (size_t)snprintf(x->stackline + sl, sizeof(x->stackline) - sl, " %s",
					       leaves[i]->name);
	}
	compare_describe_disks(leaves, nl, x->disks, sizeof(x->disks));
	char note[256];
	settings_init(&x->st, JOURNAL_RUN, names, nl, geteuid() == 0, what, note, sizeof(note));
	if (note[0])
		fprintf(stderr, "brisk compare: %s\n", note);
	if (!x->st.n_devs) {
		fprintf(stderr, "brisk compare: no disk with an I/O scheduler behind %s: nothing "
			"to compare\n", dir);
		return EXIT_USAGE;
	}
	return 0;
}

/* Arms from the command line (and --schedulers): 0 or 2, nothing changed. */
static int cmp_arms(struct cmp_ctx *x, struct compare_arm *arms, size_t *n)
{
	char err[512] = "";
	*n = 0;
	if (x->a->schedulers) {
		*n = compare_arms_schedulers(&x->st, arms, COMPARE_MAX_ARMS, err, sizeof(err));
		if (*n < 2) {
			fprintf(stderr, "brisk compare: --schedulers: %s\n",
				err[0] ? err : "fewer than two arms");
			return EXIT_USAGE;
		}
	}
	for (size_t i = 0; i < x->a->n_arms; i++) {
		if (*n == COMPARE_MAX_ARMS) {
			fprintf(stderr, "brisk compare: at most %d arms\n", COMPARE_MAX_ARMS);
			return EXIT_USAGE;
		}
		int rc = compare_arm_parse(x->a->arms[i], &x->st, &arms[*n], err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "brisk compare: %s; nothing was run or changed\n", err);
			return rc == -EPERM ? EXIT_PRIVILEGE : EXIT_USAGE;
		}
		(*n)++;
	}
	return 0;
}

/* ---- progress (on a terminal, unless -q; nothing otherwise) ---- */

/* "2/6" (--rounds), "2/~6" (the rounds the budget fits, so far), "1/?". */
static void round_text(char *buf, size_t len, unsigned round, unsigned rmax, int fixed)
{
	if (rmax)
		snprintf(buf, len, "%u/%s%u", round + 1, fixed ? "" : "~", rmax);
	else
		snprintf(buf, len, "%u/?", round + 1);
}

/* The leader so far: the arm ranked first, by its best ratio (the
 * baseline when it ranks first); none while no arm has a ratio. */
static void leader_text(const struct compare_result *r, char *buf, size_t len)
{
	int ratios = 0;
	for (size_t i = 1; i < r->n_arms; i++)
		for (unsigned k = 0; k < ACTION_KIND_COUNT; k++)
			ratios |= (r->actions & (1u << k)) && !isnan(r->cells[i][k].ratio_runs.est);
	size_t best = r->n_ranked ? r->ranking[0] : 0;
	const struct compare_cell *top = NULL;
	unsigned ta = 0;
	for (unsigned k = 0; best && k < ACTION_KIND_COUNT; k++) {
		const struct compare_cell *cell = &r->cells[best][k];
		if ((r->actions & (1u << k)) && !isnan(cell->ratio_runs.est) &&
		    (!top || cell->ratio_runs.est < top->ratio_runs.est)) {
			top = cell;
			ta = k;
		}
	}
	if (!ratios || !r->n_ranked)
		snprintf(buf, len, "no leader yet");
	else if (!best)
		snprintf(buf, len, "leader %s (the baseline)", r->arms[0].label);
	else if (!top)
		snprintf(buf, len, "leader %s", r->arms[best].label);
	else if (!isnan(top->ratio_runs.lo))
		snprintf(buf, len, "leader %s %s %.2fx [%.2f, %.2f]", r->arms[best].label,
			 action_kind_name((enum action_kind)ta), top->ratio_runs.est,
			 top->ratio_runs.lo, top->ratio_runs.hi);
	else
		snprintf(buf, len, "leader %s %s %.2fx (one run)", r->arms[best].label,
			 action_kind_name((enum action_kind)ta), top->ratio_runs.est);
}

/* The live line: round, the arm under way and its phase, the leader, ETA. */
static void cmp_show(struct cmp_ctx *x)
{
	const struct compare_result *r = compare_result(x->c);
	size_t arm, done, planned;
	unsigned round, rmax;
	uint64_t eta, e;
	compare_progress(x->c, &arm, &round, &rmax, &eta);
	char rt[32], what[96] = "", lead[256];
	round_text(rt, sizeof(rt), round, rmax, x->a->cfg->rounds != 0);
	const struct session *s = compare_session(x->c);
	if (s) {
		session_progress(s, &done, &planned, &e);
		if (s->phase == SESSION_LOADED || s->phase == SESSION_STOP)
			snprintf(what, sizeof(what), " %s %zu/%zu", session_phase_name(s->phase), done,
				 planned);
		else
			snprintf(what, sizeof(what), " %s", session_phase_name(s->phase));
	}
	leader_text(r, lead, sizeof(lead));
	char race[48] = "";
	if (r->race_end != COMPARE_RACE_OFF && compare_race_left(r) < r->n_arms)
		snprintf(race, sizeof(race), " (%zu of %zu arms left)", compare_race_left(r),
			 r->n_arms);
	progress_show(&x->line, eta ? eta : PROGRESS_ETA_UNKNOWN, "round %s%s, %s%s; %s", rt,
		      race, arm < r->n_arms ? r->arms[arm].label : "?", what, lead);
}

static void cmp_tick(void *ctx)
{
	cmp_show(ctx);
}

/* compare hook: a new arm-run's session; the line follows its ticks. */
static void on_session(void *ctx, struct compare *c, struct session *s)
{
	struct cmp_ctx *x = ctx;
	(void)c;
	if (!x->line.on)
		return;
	session_on_tick(s, cmp_tick, x);
	cmp_show(x);   /* its files are made first, before any tick */
}

/* compare hook: after each arm-run, one line that stays (round, arm, how
 * long it took) above the live line, which the next arm-run draws again;
 * called once more at the end. */
static void on_armrun(void *ctx, struct compare *c)
{
	struct cmp_ctx *x = ctx;
	const struct compare_result *r = compare_result(c);
	if (!x->line.on || !r->n_runs || r->n_runs == x->runs_shown)
		return;
	x->runs_shown = r->n_runs;
	const struct compare_run *run = &r->runs[r->n_runs - 1];
	char rt[32], label[96];
	round_text(rt, sizeof(rt), run->round, r->rounds_max, x->a->cfg->rounds != 0);
	text_escape(label, sizeof(label), r->arms[run->arm].label);
	progress_clear(&x->line);
	fprintf(stderr, "brisk compare: round %s, %s done in %.0fs%s\n", rt, label,
		(double)run->dur_ns / 1e9, run->failed ? " (FAILED: see the report)" : "");
}

static unsigned cmp_outputs(const struct cmp_args *a, const struct compare_result *r)
{
	char err[512];
	unsigned end = 0;
	const struct cliopt_args *o = &a->com;
	if (!cliopt_to_stdout(o))
		compare_report_text(stdout, r);
	if (o->json)
		end |= cliopt_written(CMD, "--json",
				      compare_report_json(r, o->json, err, sizeof(err)), err);
	if (o->csv)
		end |= cliopt_written(CMD, "--csv",
				      compare_report_csv(r, o->csv, err, sizeof(err)), err);
	if (o->openmetrics)
		end |= cliopt_written(CMD, "--openmetrics",
				      openmetrics_compare(r, o->openmetrics, err, sizeof(err)), err);
	if (o->plot)
		end |= cliopt_written(CMD, "--plot",
				      compare_plot(r, o->plot, err, sizeof(err)), err);
	if (a->save) {
		int src = compare_report_save(r, a->save, o->force, err, sizeof(err));
		if (src == -ENODATA) {   /* no winner: a result, not a failure */
			fprintf(stderr, "brisk compare: --save: %s; nothing saved\n", err);
		} else if (src < 0) {
			fprintf(stderr, "brisk compare: --save %s\n", err);
			end |= CLIOPT_END_FAILED;
		} else {
			fprintf(stderr, "brisk compare: saved the recommended settings as profile %s "
				"(brisk export %s --format udev makes them a default)\n", a->save,
				a->save);
		}
	}
	if (fflush(stdout) != 0)
		end |= CLIOPT_END_FAILED;
	return end;
}

static int cmp_exit(const struct compare_result *r, int rc, unsigned end)
{
	if (rc < 0 || (end & CLIOPT_END_FAILED))
		return EXIT_FAILED;
	size_t failed = 0;
	for (size_t i = 0; i < r->n_runs; i++)
		failed += (size_t)r->runs[i].failed;
	if (failed) {
		fprintf(stderr, "brisk compare: %zu arm-run(s) failed (see the report)\n", failed);
		return EXIT_FAILED;
	}
	return r->stop_signal ? EXIT_SIGNAL + r->stop_signal : 0;
}

static struct fiojob_report cmp_fio_rep;   /* --fio: the harmless keys' notes */
static struct profile cmp_profile;   /* --profile/--fio: exec points into it */

int cmd_compare_main(int argc, char **argv)
{
	struct compare_config cfg;
	compare_config_default(&cfg);
	struct cmp_args a = { .com.c = &cfg.run, .cfg = &cfg };
	char err[512], note[256];
	int rc = cliopt_profile(cmp_options, argc, argv, &cmp_profile, &cfg.run, note, sizeof(note),
				&cmp_fio_rep, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk compare: %s\n", err);
		return rc == -EINVAL || rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	if (note[0])
		fprintf(stderr, "brisk compare: %s\n", note);
	for (size_t i = 0; i < cmp_fio_rep.n_notes; i++)   /* a --fio job's harmless keys */
		fprintf(stderr, "brisk compare: %s\n", cmp_fio_rep.notes[i]);
	if ((rc = cmp_parse(argc, argv, &a)))
		return rc == OPTAB_DONE ? 0 : rc;
	if (geteuid() == 0)   /* a directory listing is cold only this way */
		cfg.run.evict = ACTION_EVICT_DROP_CACHES;
	if (a.com.seed_given)
		cfg.seed = a.com.seed;
	else
		cfg.seed = cfg.run.seed ? cfg.run.seed : (now_ns() ^ (uint64_t)getpid()) % 1000000007u;

	struct cmp_ctx x = { .a = &a };
	char what[256];
	journal_what(what, sizeof(what), argc, argv);
	const char *dir = cfg.run.dir[0] ? cfg.run.dir : ".";
	struct compare_arm arms[COMPARE_MAX_ARMS];
	size_t n = 0;
	struct compare *c = NULL;
	memset(arms, 0, sizeof(arms));
	if ((rc = cmp_stack(&x, dir, what)))
		goto out;
	if (loadscope_init(&cfg.run, &x.st, &x.load_st, err, sizeof(err)) < 0) {
		fprintf(stderr, "brisk compare: %s\n", err);
		rc = EXIT_USAGE;
		goto out;
	}
	for (size_t i = 0; x.st.load && i < x.load_st.n_devs; i++) {   /* load: KEY's disks */
		size_t l = strlen(x.stackline);
		snprintf(x.stackline + l, sizeof(x.stackline) - l, "%s%s", i ? " " : "; load on ",
			 x.load_st.devs[i]);
	}
	if ((rc = cmp_arms(&x, arms, &n)))
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
	x.c = c;
	progress_begin(&x.line, CMD, a.com.quiet);
	const struct compare_hooks hooks = { .session = on_session, .armrun = on_armrun, .ctx = &x };
	int run_rc = compare_run(c, &hooks, err, sizeof(err));
	progress_end(&x.line);
	if (run_rc < 0)
		fprintf(stderr, "brisk compare: %s\n", err);
	const struct compare_result *r = compare_result(c);
	unsigned end = r->n_runs ? cmp_outputs(&a, r) : 0;
	rc = cmp_exit(r, run_rc, end);
out:
	for (size_t i = 0; i < COMPARE_MAX_ARMS; i++)
		compare_arm_free(&arms[i]);
	compare_free(c);
	if (x.st.journal)
		settings_restore(&x.st, stderr);
	stack_free(x.stack);
	return rc;
}
