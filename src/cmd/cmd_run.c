#include "cmd_run.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cliopt.h"
#include "fiojob.h"
#include "parse.h"
#include "journal.h"
#include "loadprio.h"
#include "loadscope.h"
#include "openmetrics.h"
#include "profile.h"
#include "progress.h"
#include "runreport.h"
#include "session.h"
#include "settings.h"
#include "stack.h"
#include "tunable.h"


static const char CMD[] = "run";   /* for messages: brisk run: ... */

enum {   /* this command's own keys; the shared ones are cliopt.h's */
	OPT_IDLE_MAX = CLIOPT_NEXT, OPT_WARMUP, OPT_JITTER, OPT_MAX_TIME, OPT_TICK, OPT_AT,
};

/* The profile or fio job a run was given: the session's exec command
 * points into it, so it lives as long as the run. */
static struct profile run_profile;
static struct fiojob_report run_fio_rep;   /* --fio: the harmless keys' notes */

/* The command line of a run, beyond the shared options. */
struct run_args {
	struct cliopt_args com;   /* first: the shared entries' (cliopt.h) */
	int no_load, phase_opt, max_time_set, no_settings;
};

static optab_fn run_set;

/* The options, in the order --help lists them. */
static const struct optab run_options[] = {
	CLIOPT_LOAD("add a load (repeatable; default seq-write):\n"
		    "KIND[:count=N,bs=SIZE[-SIZE],size=S,total=S,rate=S,\n"
		    "fsync=S,direct,ionice=rt|be|idle[/0-7],\n"
		    "engine=sync|io_uring,iodepth=N,bssplit=B/P:B/P]; KIND is\n"
		    "seq-write seq-read rand-read rand-write fsync-heavy"),
	{ "no-load", OPTAB_LONG, NULL, "idle baseline only", optab_flag,
	  offsetof(struct run_args, no_load), NULL },
	CLIOPT_ACTIONS,
	CLIOPT_EXEC("program the exec action starts, in place (default: a\n"
		    "python3 start copied to DIR's file system, else ls)"),
	CLIOPT_LS_FILES,
	{ "idle-samples", 'i', "N", "idle samples per action (default 5)", run_set, 0, NULL },
	{ "samples", 'n', "N", "loaded samples per action and epoch (default 10)", run_set, 0,
	  NULL },
	{ "idle-max", OPT_IDLE_MAX, "T", "idle phase at most T (default 10s; 0 = no limit)",
	  run_set, 0, NULL },
	{ "warmup", OPT_WARMUP, "T",
	  "warm-up at most T (default 5s; ends after 1s once\n"
	  "writeback is under way)", run_set, 0, NULL },
	{ "duration", 'd', "T", "loaded phase at most T (default 30s; 0 = no limit)", run_set, 0,
	  NULL },
	CLIOPT_INTERVAL,
	{ "jitter", OPT_JITTER, "PCT", "pause varies by +-PCT % (default 50)", run_set, 0, NULL },
	CLIOPT_TIMEOUT("a sample past T is killed, counted as a timeout (60s)"),
	{ "max-time", OPT_MAX_TIME, "T",
	  "end the whole run after T (default 60s unless a\n"
	  "phase option is given; 0 = no limit)", run_set, 0, NULL },
	{ "tick", OPT_TICK, "T", "system sampling period (default 1s)", run_set, 0, NULL },
	CLIOPT_DROP_CACHES("evict with /proc/sys/vm/drop_caches (root; makes ls cold)"),
	CLIOPT_KEEP_WARM("count samples that were not cold in the statistics\n"
			 "(default: left out, counted and shown apart)"),
	CLIOPT_NO_BREAKDOWN,
	CLIOPT_LOAD_DIR,
	CLIOPT_FLOOR("free space writers leave (default: max(5%, 2GiB));\n"
		     "0 = none: writers end on ENOSPC"),
	CLIOPT_SEED("seed for jitter and offsets"),
	CLIOPT_ALLOW_SHARED_DIR("as root, run even when others can write DIR (another\n"
				"user's, or group/world-writable without the sticky\n"
				"bit; the owner who ran sudo counts as trusted)"),
	CLIOPT_JSON("every figure and raw sample as JSON ('-' = stdout)"),
	CLIOPT_CSV("raw samples as CSV ('-' = stdout)"),
	CLIOPT_OPENMETRICS,
	{ "at", OPT_AT, "TIME:KEY=VALUE",
	  "change a setting (as 'brisk set' takes it) on every\n"
	  "disk of the stack TIME after the load started; a new\n"
	  "epoch begins (repeatable; root; restored at the end);\n"
	  "load.ionice=idle|be/N|rt/N|none changes the load's\n"
	  "own I/O priority instead", run_set, 0, NULL },
	CLIOPT_PROFILE("the workload of a profile (see brisk-profile(5));\n"
		       "other options override it"),
	{ "no-settings", OPTAB_LONG, NULL,
	  "do not apply the profile's [settings] (root applies\n"
	  "them for the run and puts them back afterwards)", optab_flag,
	  offsetof(struct run_args, no_settings), NULL },
	CLIOPT_FIO("the workload of a fio job file (writers and readers\n"
		   "become loads, small random readers ssh-like samples)"),
	CLIOPT_SCALE("shrink --fio/--profile sizes and delays (0.01, 1/100)"),
	CLIOPT_QUIET,
	OPTAB_PARSE_ONLY,
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text usage_text = {
	"usage: brisk run [DIR] [options]\n"
	"\n"
	"Start a background load on the file system behind DIR (default: the\n"
	"current directory) and time interactive actions with cold caches, idle\n"
	"first, then under load.  Files go only into DIR/.brisk-XXXXXX, removed at\n"
	"the end (also on SIGINT, SIGTERM, SIGHUP, which still print the report).\n"
	"With no options: one buffered writer + the four actions, at most 60s.\n"
	"\n",
	25,
	"\n"
	"T is a duration (500ms, 20s, 2m).  Exit status: 0 done, 1 failed (also\n"
	"when a load or action could not start), 2 bad input, 4 --at or\n"
	"--drop-caches without root, 128+N stopped by signal N.  See brisk-run(1).\n"
};


/* The progress line (progress.h): the phase, samples taken of those
 * planned, the time left; drawn at every tick. */
static struct progress run_progress;

static void show_progress(void *ctx)
{
	struct session *s = ctx;
	size_t done, planned;
	uint64_t eta;
	session_progress(s, &done, &planned, &eta);
	progress_show(&run_progress, s->phase >= SESSION_STOP ? 0 : eta, "%s  samples %zu/%zu",
		      session_phase_name(s->phase), done, planned);
}

/* ---- --at TIME:KEY=VALUE: timed setting changes, each a new epoch ---- */

#define RUN_MAX_AT 32

struct run_at {
	uint64_t t_ns;
	char key[TUNABLE_NAME_LEN + 16];
	char value[TUNABLE_VALUE_LEN];
	char label[96];
	int load;                /* a load.* key (loadprio): no sysfs, no journal */
	struct loadprio lp;
	struct session *s;       /* for a load key: the session it changes */
};

static struct run_at run_ats[RUN_MAX_AT];
static size_t n_run_ats;
static struct settings run_settings;
static struct settings run_load_settings;   /* load:KEY (loadscope.h) */

static int parse_at(const char *arg)
{
	if (n_run_ats == RUN_MAX_AT) {
		fprintf(stderr, "brisk run: at most %d --at options\n", RUN_MAX_AT);
		return EXIT_USAGE;
	}
	const char *colon = strchr(arg, ':'), *eq = colon ? strchr(colon, '=') : NULL;
	struct run_at *a = &run_ats[n_run_ats];
	char t[32];
	size_t tl = colon ? (size_t)(colon - arg) : 0;
	size_t kl = eq ? (size_t)(eq - colon - 1) : 0;
	if (!colon || !eq || tl == 0 || tl >= sizeof(t) || kl == 0 || kl >= sizeof(a->key) ||
	    !eq[1] || strlen(eq + 1) >= sizeof(a->value))
		return cliopt_bad(CMD, "--at", arg, "expected TIME:KEY=VALUE, e.g. 20s:scheduler=bfq");
	memcpy(t, arg, tl);
	t[tl] = '\0';
	if (parse_duration(t, &a->t_ns) < 0)
		return cliopt_bad(CMD, "--at", arg, "TIME is a duration such as 500ms, 20s, 2m");
	memcpy(a->key, colon + 1, kl);
	a->key[kl] = '\0';
	snprintf(a->value, sizeof(a->value), "%s", eq + 1);
	char label[sizeof(a->label)];
	snprintf(label, sizeof(label), "%.*s=%s", (int)kl, colon + 1, eq + 1);
	memcpy(a->label, label, sizeof(label));
	n_run_ats++;
	return 0;
}

static int cmp_at(const void *x, const void *y)
{
	const struct run_at *a = x, *b = y;
	return a->t_ns < b->t_ns ? -1 : a->t_ns > b->t_ns;
}

/* The leaf disks of the stack behind dir, for --at and profile settings
 * (once).  2 when there is none with a scheduler. */
static int run_settings_ready;

static int init_run_settings(const char *dir, const char *what)
{
	if (run_settings_ready)
		return 0;
	struct stack *st = NULL;
	int rc = stack_resolve_path(dir, &st);
	if (rc < 0) {
		fprintf(stderr, "brisk run: cannot find the disks behind %s: %s\n", dir,
			strerror(-rc));
		stack_free(st);
		return EXIT_USAGE;
	}
	const struct blockdev *leaves[SETTINGS_MAX_DEVS];
	const char *names[SETTINGS_MAX_DEVS];
	size_t nl = stack_leaves(st, leaves, SETTINGS_MAX_DEVS);
	if (nl > SETTINGS_MAX_DEVS)
		nl = SETTINGS_MAX_DEVS;
	for (size_t i = 0; i < nl; i++)
		names[i] = leaves[i]->name;
	char note[256];
	settings_init(&run_settings, JOURNAL_RUN, names, nl, geteuid() == 0, what, note,
		      sizeof(note));
	stack_free(st);
	if (note[0])
		fprintf(stderr, "brisk run: %s\n", note);
	if (!run_settings.n_devs) {
		fprintf(stderr, "brisk run: no disk with an I/O scheduler behind %s\n", dir);
		return EXIT_USAGE;
	}
	run_settings_ready = 1;
	return 0;
}

/* ---- a profile's [settings]: applied before the idle baseline, per disk
 * by its class, checked first (nothing is written if any is refused). ---- */

#define RUN_MAX_PSET (SETTINGS_MAX_DEVS * PROFILE_MAX_SETTINGS)

/* The profile's settings as planned for this run, made before --at is
 * checked (an --at iosched key may follow the profile's scheduler) and
 * applied after the session is created. */
static struct settings_step *run_plan;
static size_t n_run_plan;

static int plan_run_profile(const struct profile *p, const char *dir, const char *what)
{
	if (!p->n_settings)
		return 0;
	if (geteuid() != 0) {
		fprintf(stderr, "brisk run: the profile's %zu setting(s) need root to apply: "
			"measuring with the current settings (--no-settings says so quietly)\n",
			p->n_settings);
		return 0;
	}
	int rc = init_run_settings(dir, what);
	if (rc)
		return rc;
	run_plan = calloc(RUN_MAX_PSET, sizeof(*run_plan));
	if (!run_plan)
		return EXIT_FAILED;
	char note[256], err[512];
	rc = profile_plan_settings(p, &run_settings, run_plan, RUN_MAX_PSET, &n_run_plan, note,
				  sizeof(note), err, sizeof(err));
	if (note[0])
		fprintf(stderr, "brisk run: profile %s\n", note);
	if (rc) {
		fprintf(stderr, "brisk run: profile %s; nothing was run or changed\n", err);
		rc = rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
		free(run_plan);
		run_plan = NULL;
		n_run_plan = 0;
	}
	return rc;
}

/* The scheduler the profile's plan puts on dev, or NULL. */
static const char *planned_scheduler(const char *dev)
{
	for (size_t i = 0; i < n_run_plan; i++)
		if (run_plan[i].dev && !strcmp(run_plan[i].dev, dev) &&
		    run_plan[i].key.kind == TUNABLE_SCHEDULER)
			return run_plan[i].value;
	return NULL;
}

/* How the profile's settings went, one stderr line each; each one in
 * place is noted in the session arg (its JSON says what was measured). */
static void run_plan_event(const struct settings_event *ev, void *arg)
{
	struct session *s = arg;
	const struct settings_step *sp = ev->step;
	const char *dev = sp && sp->dev ? sp->dev : "";
	switch (ev->kind) {
	case SETTINGS_EV_APPLIED: {
		const char *v = ev->res->readback[0] ? ev->res->readback : sp->value;
		const char *k = strncmp(sp->key.name, "iosched/", 8) == 0 ? sp->key.name + 8
									   : sp->key.name;
		fprintf(stderr, "brisk run: profile setting %s%s%s=%s (was %s)\n", dev, *dev ? " " : "",
			sp->key.name, v, ev->res->before[0] ? ev->res->before : "?");
		if (session_note_setting(s, k, v) < 0)
			session_msg(s, "profile setting %s=%s: not recorded in the JSON (more "
				    "than %d bytes of settings)", k, v, SESSION_SETTINGS_LEN - 1);
		break;
	}
	case SETTINGS_EV_LOCKED_OUT:
		fprintf(stderr, "brisk run: profile settings: %s is being changed by another brisk "
			"(pid %d); nothing was changed\n", strcmp(ev->dev, "-") ? ev->dev : "vm.*",
			(int)ev->holder);
		break;
	case SETTINGS_EV_FAILED:
		if (ev->err == -EBUSY)
			fprintf(stderr, "brisk run: profile setting %s is being changed by another "
				"brisk (pid %d)\n", *dev ? dev : "vm.*", (int)ev->holder);
		else
			fprintf(stderr, "brisk run: profile setting %s%s%s=%s: the kernel refused: %s\n",
				dev, *dev ? " " : "", sp->key.name, sp->value, strerror(-ev->err));
		break;
	case SETTINGS_EV_ROLLBACK:
		fprintf(stderr, "brisk run: putting back what was changed\n");
		break;
	case SETTINGS_EV_ROLLED_BACK:
		if (ev->left)
			fprintf(stderr, "brisk run: %d value(s) could not be put back; they stay "
				"journaled for the next start\n", ev->left);
		break;
	}
}

/* The profile's settings, as one transaction (settings_apply_plan), noted
 * in s. */
static int apply_run_plan(struct session *s)
{
	if (!n_run_plan)
		return 0;
	int rc = 0;
	char msg[256] = "";
	if (settings_apply_plan(&run_settings, run_plan, n_run_plan, run_plan_event, s,
				stderr, msg, sizeof(msg)) < 0) {
		if (msg[0])
			fprintf(stderr, "brisk run: profile settings: %s\n", msg);
		settings_restore(&run_settings, stderr);
		rc = EXIT_FAILED;
	}
	free(run_plan);
	run_plan = NULL;
	n_run_plan = 0;
	return rc;
}

/* A load.* --at (loadprio): checked here, applied to the load processes
 * (no root needed but for rt, nothing journaled).  0 or an exit status. */
static int check_load_at(struct run_at *a)
{
	char why[512];
	int rc = loadprio_parse(a->key, a->value, &a->lp, why, sizeof(why));
	if (rc < 0) {
		fprintf(stderr, "brisk run: --at %s: %s; nothing was run\n", a->label, why);
		return rc == -EPERM ? EXIT_PRIVILEGE : EXIT_USAGE;
	}
	a->load = 1;
	loadprio_format(&a->lp, a->label, sizeof(a->label));
	return 0;
}

/* One --at of a setting on every disk of its scope (load:KEY: the load
 * directories' disks), after the scheduler an earlier one switched it
 * to (sched_after, updated).  0 or an exit status. */
static int check_at(const struct run_at *a, char *sched_after)
{
	const char *kt = a->key;
	const struct settings *in = settings_scope(&run_settings, &kt);
	struct tunable_key key;
	char why[TUNABLE_WHY_LEN], canon[TUNABLE_VALUE_LEN] = "";
	if (!in) {
		fprintf(stderr, "brisk run: --at %s: no load works in a directory of its own "
			"(a load's dir=): load: names the disks of such a load; nothing was run\n",
			a->label);
		return EXIT_USAGE;
	}
	if (tunable_parse_key(kt, &key, why, sizeof(why)) < 0) {
		fprintf(stderr, "brisk run: --at %s: %s\n", a->label, why);
		return EXIT_USAGE;
	}
	if (in != &run_settings && tunable_is_sysctl(&key)) {
		fprintf(stderr, "brisk run: --at %s: vm.* settings are system-wide: drop the load: "
			"prefix; nothing was run\n", a->label);
		return EXIT_USAGE;
	}
	if (!in->n_devs) {
		fprintf(stderr, "brisk run: --at %s: no disk with an I/O scheduler behind the "
			"load's directory; nothing was run\n", a->label);
		return EXIT_USAGE;
	}
	size_t n = tunable_is_sysctl(&key) ? 1 : in->n_devs;
	for (size_t d = 0; d < n; d++) {
		const char *dev = in->devs[d];
		if (tunable_check(dev, &key, a->value,
				  sched_after[0] ? sched_after : planned_scheduler(dev),
				  canon, sizeof(canon), why, sizeof(why)) < 0) {
			fprintf(stderr, "brisk run: --at %s refused on %s: %s; nothing was run\n",
				a->label, tunable_is_sysctl(&key) ? "vm" : dev, why);
			return EXIT_USAGE;
		}
	}
	if (!strcmp(key.name, "scheduler") && strlen(canon) < TUNABLE_SCHED_LEN)
		memcpy(sched_after, canon, strlen(canon) + 1);
	return 0;
}

/* Before anything runs: every change must be valid on every leaf disk of
 * the stack, in time order (an iosched tunable is checked against the
 * scheduler an earlier --at switched to, else the one the profile's plan
 * sets on that disk, else the current one), and root is needed (but
 * for load.* keys alone, which need a load).  2 on bad input. */
static int check_ats(const char *dir, const char *what, const struct session_config *c)
{
	qsort(run_ats, n_run_ats, sizeof(run_ats[0]), cmp_at);
	int need_root = 0, rc;
	for (size_t i = 0; i < n_run_ats; i++) {
		if (!loadprio_is_key(run_ats[i].key))
			need_root = 1;
		else if ((rc = check_load_at(&run_ats[i])))
			return rc;
		else if (!c->n_loads) {
			fprintf(stderr, "brisk run: --at %s: this run has no load to change; nothing "
				"was run\n", run_ats[i].label);
			return EXIT_USAGE;
		}
	}
	if (!need_root)
		return 0;
	if (geteuid() != 0) {
		fprintf(stderr, "brisk run: --at changes settings, which needs root; nothing "
			"was run (try sudo)\n");
		return EXIT_PRIVILEGE;
	}
	rc = init_run_settings(dir, what);
	if (rc)
		return rc;
	char err[512];
	if ((rc = loadscope_init(c, &run_settings, &run_load_settings, err, sizeof(err))) < 0) {
		fprintf(stderr, "brisk run: --at: %s; nothing was run\n", err);
		return EXIT_USAGE;
	}
	char after[2][TUNABLE_SCHED_LEN] = { "", "" };   /* DIR's disks, the load's */
	for (size_t i = 0; i < n_run_ats; i++) {
		struct run_at *a = &run_ats[i];
		if (!a->load && (rc = check_at(a, after[loadscope_key(a->key)])))
			return rc;
	}
	return 0;
}

static int run_at_apply(void *ctx, char *err, size_t errlen)
{
	struct run_at *a = ctx;
	if (a->load) {
		int rc = session_loads_ioprio(a->s, a->lp.cls, a->lp.level);
		if (rc < 0)
			snprintf(err, errlen, "%s: ioprio_set: %s", a->label, strerror(-rc));
		return rc;
	}
	char label[96];
	int rc = settings_apply(&run_settings, a->key, a->value, err, errlen, label, sizeof(label));
	return rc < 0 ? rc : 0;
}

static void run_at_restore(void *ctx)
{
	(void)ctx;
	progress_clear(&run_progress);   /* "restored ..." lines start at column 0 */
	if (run_settings.journal)
		settings_restore(&run_settings, stderr);
}

static int schedule_ats(struct session *s)
{
	for (size_t i = 0; i < n_run_ats; i++)
		run_ats[i].s = s;
	for (size_t i = 0; i < n_run_ats; i++)
		if (session_at(s, run_ats[i].t_ns, run_at_apply, &run_ats[i], run_ats[i].label) < 0)
			return -ENOMEM;
	return n_run_ats || run_settings.journal ? session_on_exit(s, run_at_restore, NULL) : 0;
}

/* One of run's own options (optab_fn). */
static int run_set(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct run_args *a = ctx;
	struct session_config *c = a->com.c;
	int rc = 0;
	switch (o->key) {
	case 'i':
		rc = cliopt_count(cmd, "--idle-samples", arg, 0, 1000000, &c->idle_samples);
		a->phase_opt = 1;
		break;
	case 'n':
		rc = cliopt_count(cmd, "--samples", arg, 1, 1000000, &c->loaded_samples);
		a->phase_opt = 1;
		break;
	case OPT_IDLE_MAX:
		rc = cliopt_time(cmd, "--idle-max", arg, &c->idle_max_ns);
		a->phase_opt = 1;
		break;
	case OPT_WARMUP:
		rc = cliopt_time(cmd, "--warmup", arg, &c->warmup_max_ns);
		if (!rc && c->warmup_min_ns > c->warmup_max_ns)
			c->warmup_min_ns = c->warmup_max_ns;
		break;
	case 'd':
		rc = cliopt_time(cmd, "--duration", arg, &c->loaded_max_ns);
		a->phase_opt = 1;
		break;
	case OPT_JITTER:
		rc = cliopt_count(cmd, "--jitter", arg, 0, 100, &c->jitter_pct);
		break;
	case OPT_MAX_TIME:
		rc = cliopt_time(cmd, "--max-time", arg, &c->max_time_ns);
		a->max_time_set = 1;
		break;
	case OPT_TICK:
		rc = cliopt_time(cmd, "--tick", arg, &c->tick_ns);
		if (!rc && c->tick_ns < 10000000)
			rc = cliopt_bad(cmd, "--tick", arg, "must be at least 10ms");
		break;
	case OPT_AT:
		rc = parse_at(arg);
		break;
	}
	return rc;
}

/* The options after the profile: 0, OPTAB_DONE, or an exit status. */
static int run_parse(int argc, char **argv, struct run_args *a)
{
	const struct optab_cmd cmd = { CMD, run_options, NULL, a, &usage_text };
	int rc = cliopt_parse(&cmd, argc, argv, NULL);
	if (rc)
		return rc;
	if (a->no_load) {
		if (a->com.user_loads)
			return optab_usage_error(CMD, "--no-load and --load exclude each other");
		a->com.c->n_loads = 0;
	}
	if (!a->max_time_set && a->phase_opt)
		a->com.c->max_time_ns = 0;
	if (a->com.seed_given)
		a->com.c->seed = a->com.seed;
	return cliopt_files(CMD, &a->com);
}

/* The reports of a run that measured something; CLIOPT_END_* flags. */
static unsigned run_report(const struct run_args *a, struct session *s)
{
	char err[512];
	unsigned end = 0;
	const struct cliopt_args *o = &a->com;
	if (!cliopt_to_stdout(o)) {
		runreport_text(stdout, s);
		end |= CLIOPT_END_REPORTED;
	}
	if (o->json)
		end |= cliopt_written(CMD, "--json",
				      runreport_json(s, o->json, err, sizeof(err)), err);
	if (o->csv)
		end |= cliopt_written(CMD, "--csv",
				      runreport_csv(s, o->csv, err, sizeof(err)), err);
	if (o->openmetrics)
		end |= cliopt_written(CMD, "--openmetrics",
				      openmetrics_run(s, o->openmetrics, err, sizeof(err)), err);
	if (fflush(stdout) != 0)
		end |= CLIOPT_END_FAILED;
	return end;
}

/* Run the session and report: the exit status. */
static int run_session(const struct run_args *a, struct session *s)
{
	char err[512];
	if (progress_begin(&run_progress, CMD, a->com.quiet)) {
		session_on_tick(s, show_progress, s);
		/* making the files comes first, before any tick */
		progress_show(&run_progress, PROGRESS_ETA_UNKNOWN, "%s",
			      session_phase_name(SESSION_PREPARE));
	}
	int rc = session_run(s, err, sizeof(err));
	progress_end(&run_progress);
	if (rc < 0)
		fprintf(stderr, "brisk run: %s\n", err);
	unsigned end = 0;
	if (rc == 0 || s->t_idle_start)   /* else nothing was measured */
		end = run_report(a, s);
	return cliopt_exit_status(CMD, s, rc, end);
}

int cmd_run_main(int argc, char **argv)
{
	struct session_config c;
	session_config_default(&c);
	struct run_args a = { .com.c = &c };
	int have_profile, rc;
	char err[512];

	/* --profile / --fio first: every other option overrides them. */
	char note[256];
	rc = cliopt_profile(run_options, argc, argv, &run_profile, &c, note, sizeof(note), &run_fio_rep, err,
			    sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk run: %s\n", err);
		return rc == -EINVAL || rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	have_profile = rc == 1;
	if (note[0])
		fprintf(stderr, "brisk run: %s\n", note);
	if ((rc = run_parse(argc, argv, &a)))
		return rc == OPTAB_DONE ? 0 : rc;

	char what[256];
	journal_what(what, sizeof(what), argc, argv);
	if (have_profile && !a.no_settings &&
	    (rc = plan_run_profile(&run_profile, c.dir[0] ? c.dir : ".", what)))
		return rc;
	if (n_run_ats && (rc = check_ats(c.dir[0] ? c.dir : ".", what, &c)))
		return rc;

	struct session *s;
	rc = session_create(&c, &s, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk run: %s\n", err);
		return cliopt_session_status(rc);
	}
	/* a --fio job's harmless keys: one note each in the report */
	for (size_t i = 0; i < run_fio_rep.n_notes; i++)
		session_msg(s, "%s", run_fio_rep.notes[i]);
	if ((rc = apply_run_plan(s))) {
		session_free(s);
		return rc;
	}
	if (schedule_ats(s) < 0) {
		fprintf(stderr, "brisk run: out of memory\n");
		session_free(s);
		return EXIT_FAILED;
	}
	int status = run_session(&a, s);
	session_free(s);
	return status;
}
