/* brisk tui — wires the engine (session), the settings (tunables and the
 * restore journal) and the dashboard (ui/) into one event loop.
 *
 * Invariants:
 *  - One process, one loop: the session's poll() also watches the
 *    terminal (keys) and a signalfd for SIGWINCH; disk I/O happens only in
 *    the session's child processes.
 *  - Every setting the dashboard changed is restored on every way out:
 *    'q', --iterations/--duration, SIGINT/SIGTERM/SIGHUP, the terminal
 *    going away (EOF/HUP on stdin), a failed run.  The restore runs as a
 *    session exit hook (after the loads stopped); if the process dies
 *    anyway, the journal is restored at the next start.
 *  - The terminal is restored (endwin) before anything is printed.
 *  - The compare screen (key c): ui/tuicompare.h; the state both share:
 *    ui/tui.h.
 */
#include "cmd_tui.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "advisory.h"
#include "compare.h"
#include "compare_report.h"
#include "datadir.h"
#include "cliopt.h"
#include "loadscope.h"
#include "profile.h"
#include "runreport.h"
#include "session.h"
#include "stack.h"
#include "stats.h"

#include "comparescr.h"
#include "dash.h"
#include "keys.h"
#include "screen.h"
#include "tui.h"
#include "tuicompare.h"
#include "settings.h"
#include "now.h"
#include "fileio.h"


static const char CMD[] = "tui";   /* for messages: brisk tui: ... */
enum {   /* this command's own keys; the shared ones are cliopt.h's */
	OPT_TICK = CLIOPT_NEXT, OPT_BENCH,
};

/* The command line of the dashboard, beyond the shared options. */
struct tui_args {
	struct cliopt_args com;   /* first: the shared entries' (cliopt.h) */
	unsigned iterations, bench;
	int no_report;
};

static optab_fn tui_set;

/* The options, in the order --help lists them. */
static const struct optab tui_options[] = {
	CLIOPT_LOAD("the load (repeatable; default seq-write), as in\n"
		    "brisk run: KIND[:count=N,bs=..,size=..,total=..,\n"
		    "rate=..,fsync=..,direct,ionice=..]"),
	CLIOPT_ACTIONS,
	CLIOPT_EXEC("program the exec action starts"),
	CLIOPT_LS_FILES,
	{ "idle-samples", 'i', "N", "idle samples per action (default 5)", tui_set, 0, NULL },
	CLIOPT_INTERVAL,
	CLIOPT_TIMEOUT("a sample past T counts as a timeout (default 60s)"),
	{ "tick", OPT_TICK, "T", "sampling and redraw period (default 1s)", tui_set, 0, NULL },
	CLIOPT_LOAD_DIR,
	CLIOPT_FLOOR("free space writers leave (default max(5%, 2GiB))"),
	CLIOPT_DROP_CACHES("evict with /proc/sys/vm/drop_caches (root)"),
	CLIOPT_KEEP_WARM("count samples that were not cold in the statistics"),
	CLIOPT_NO_BREAKDOWN,
	CLIOPT_ALLOW_SHARED_DIR("as root, run even when others can write DIR"),
	{ "iterations", 'n', "N", "quit after N redraw ticks (tests, scripts)", tui_set, 0, NULL },
	{ "duration", 'd', "T", "quit after T", tui_set, 0, NULL },
	{ "no-report", OPTAB_LONG, NULL, "print no report after the dashboard closes", optab_flag,
	  offsetof(struct tui_args, no_report), NULL },
	{ "bench-redraw", OPT_BENCH, "N",   /* tests/bench/tui.sh */
	  "benchmark: at the end, time N redraws of the screen\n"
	  "and print their mean and p99 (tests/bench/tui.sh)", tui_set, 0, NULL },
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text usage_text = {
	"usage: brisk tui [DIR] [options]\n"
	"\n"
	"The dashboard: the storage stack behind DIR (default: the current\n"
	"directory), a background load, interactive actions timed with cold\n"
	"caches (idle first, then under load, until you quit), live disk and\n"
	"pressure figures; switch the scheduler and tunables from the keyboard\n"
	"(root), each change starting a new epoch.  q restores every setting it\n"
	"changed.  Files go only into DIR/.brisk-XXXXXX, removed on exit.\n"
	"\n",
	25,
	"\n"
	"Keys: l load on/off, s scheduler, t tunables, p save as a profile,\n"
	"c compare schedulers (root), ?, F1 or h help, q quit.\n"
	"See brisk-tui(1).\n"
};


static void on_tick(void *ctx)
{
	struct tui *t = ctx;
	if (t->in_compare)   /* the session is stopping for the comparison */
		comparescr_draw(&t->cs, NULL, 0);
	else if (t->d.cmp_pick)   /* the picker owns the screen (no load figure this tick) */
		comparescr_pick_draw(&t->cs);
	else
		dash_tick(&t->d);
	if (t->iterations && ++t->ticks >= t->iterations)
		session_stop(t->s);
}

static void on_keys(void *ctx, int fd, short revents)
{
	struct tui *t = ctx;
	(void)fd;
	if (t->in_compare) {   /* stopping for the comparison: keys wait for its screen */
		if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
			t->term_lost = 1;
			session_stop(t->s);
		}
		return;
	}
	unsigned f = keys_read(&t->d);
	if (f & KEYS_COMPARE) {
		t->compare_go = 1;
		t->in_compare = 1;
		session_stop(t->s);
		comparescr_message(&t->cs, SCREEN_DIM, "stopping the dashboard's load%s ...",
				   t->st.journal ? " and putting its settings back" : "");
		comparescr_draw(&t->cs, NULL, 1);
	}
	if (f & KEYS_QUIT) {
		session_stop(t->s);
		dash_message(&t->d, 0, "stopping: restoring settings after the load stops...");
		dash_draw(&t->d, 0);
	}
	if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
		/* the terminal went away: stop (and restore) like a SIGHUP */
		t->term_lost = 1;
		session_stop(t->s);
	}
}

/* The settings as they are now, in the keys `brisk set` takes: the
 * scheduler and every key the tunables editor shows; of a ratio/bytes
 * pair the one in use (the other reads 0). */
/* The stack's settings into p: the scheduler and what differs from the
 * kernel's defaults.  Keys the profile refuses go into skipped; *n_dflt and
 * *n_hw count the values left out at their defaults and hardware-bound. */
static size_t capture_settings(struct tui *t, struct profile *p, char *skipped, size_t len,
			       size_t *n_dflt, size_t *n_hw)
{
	struct tunable_key keys[128];
	struct tunable_facts facts[SETTINGS_MAX_DEVS];
	size_t n = settings_keys(&t->st, keys, 128), o = 0, nf = 0;
	char sched[32], detail[8];
	skipped[0] = '\0';
	*n_dflt = *n_hw = 0;
	for (size_t i = 0; i < t->st.n_devs && i < SETTINGS_MAX_DEVS; i++)
		if (tunable_facts_read(t->st.devs[i], &facts[nf]) == 0)
			nf++;
	settings_scheduler(&t->st, sched, sizeof(sched), detail, sizeof(detail));
	char err[256];
	if (sched[0] && strcmp(sched, "mixed") != 0)
		profile_capture(p, PROFILE_CLASS_ALL, "scheduler", sched, err, sizeof(err));
	for (size_t i = 0; i < n; i++) {
		char v[TUNABLE_VALUE_LEN];
		settings_current(&t->st, &keys[i], v, sizeof(v));
		const char *partner = tunable_sysctl_partner(keys[i].name);
		if (!v[0] || strcmp(v, "(differs)") == 0 || (partner && strcmp(v, "0") == 0))
			continue;
		const char *k = keys[i].kind == TUNABLE_IOSCHED ? keys[i].attr : keys[i].name;
		if (keys[i].kind == TUNABLE_SCHEDULER)
			continue;
		int hw;
		if (!tunable_capture_keeps(tunable_def_find(k), facts, nf, v, &hw)) {
			(*(hw ? n_hw : n_dflt))++;
			continue;
		}
		if (profile_capture(p, PROFILE_CLASS_ALL, k, v, err, sizeof(err)) < 0 && o < len)
			o += (size_t)snprintf(skipped + o, len - o, "%s%s", o ? ", " : "", k);
	}
	return p->n_settings;
}

static int save_profile(void *ctx, const char *name, char *msg, size_t len)
{
	struct tui *t = ctx;
	const struct session_config *c = &t->s->cfg;
	char path[PATH_MAX], err[PROFILE_ERR_LEN];
	if (strchr(name, '/') || strlen(name) >= PROFILE_NAME_LEN ||
	    profile_resolve(name, path, sizeof(path), err, sizeof(err)) == -EINVAL) {
		snprintf(msg, len, "'%s': expected letters, digits, '-', '_' or '.'", name);
		return -EINVAL;
	}
	char udir[PATH_MAX];
	if (profile_user_dir(udir, sizeof(udir)) < 0) {
		snprintf(msg, len, "no HOME or XDG_CONFIG_HOME: nowhere to save profiles");
		return -ENOENT;
	}
	if (snprintf(path, sizeof(path), "%s/%s.profile", udir, name) >= (int)sizeof(path)) {
		snprintf(msg, len, "path too long");
		return -ENAMETOOLONG;
	}
	struct profile *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	profile_init(p, name);
	snprintf(p->description, sizeof(p->description), "saved from the brisk dashboard");
	if (strlen(t->d.dir) < sizeof(p->directory))
		snprintf(p->directory, sizeof(p->directory), "%s", t->d.dir);
	/* the dashboard's workload */
	profile_default_workload(p);
	p->n_loads = 0;
	for (size_t i = 0; i < c->n_loads && i < PROFILE_MAX_LOADS; i++) {
		struct profile_load *l = &p->loads[p->n_loads++];
		memset(l, 0, sizeof(*l));
		snprintf(l->name, sizeof(l->name), "load%zu", i + 1);
		l->spec = c->loads[i];
	}
	size_t na = 0;
	for (size_t i = 0; i < p->n_actions; i++) {
		struct profile_action *a = &p->actions[i];
		if (!(c->actions & (1u << a->kind)))
			continue;
		a->cfg = c->action;
		a->cfg.exec_cmd = NULL;
		if (a->kind == ACTION_EXEC && c->action.exec_cmd)
			snprintf(a->cmd, sizeof(a->cmd), "%s", c->action.exec_cmd);
		p->actions[na++] = *a;
	}
	p->n_actions = na;
	char skipped[160];
	size_t n_dflt, n_hw;
	size_t ns = capture_settings(t, p, skipped, sizeof(skipped), &n_dflt, &n_hw);
	/* the file is written by a child: the UI process never waits on a disk */
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		free(p);
		snprintf(msg, len, "cannot save: fork: %s", strerror(e));
		return -e;
	}
	if (pid == 0) {
		char out[640];
		int rc = fileio_mkdir_p(udir, 0755);
		if (rc < 0)
			snprintf(out, sizeof(out), "cannot create %.300s: %s\n", udir, strerror(-rc));
		else if ((rc = profile_save(p, path, 0, err, sizeof(err))) == -EEXIST)
			snprintf(out, sizeof(out), "%.300s: %s (pick another name)\n", path,
				 strerror(EEXIST));
		else if (rc < 0)
			snprintf(out, sizeof(out), "cannot save %.200s: %.200s\n", path,
				 rc == -EINVAL ? err : strerror(-rc));
		else
			snprintf(out, sizeof(out), "saved %.64s: %zu setting%s (left out %zu at "
				 "kernel defaults, %zu hardware-bound%s%.100s) in %.300s\n",
				 p->name, ns, ns == 1 ? "" : "s", n_dflt, n_hw,
				 skipped[0] ? "; refused: " : "", skipped, path);
		ssize_t w = write(t->job[1], out, strlen(out));
		_exit(w < 0);
	}
	free(p);
	snprintf(msg, len, "saving profile %s ...", name);
	return 0;
}

static void on_exit_restore(void *ctx)
{
	struct tui *t = ctx;
	if (!t->st.journal)
		return;
	if (screen_is_open())
		tui_say(t, 0, "restoring settings...");
	int rc = settings_restore(&t->st, t->restore_log);
	t->restore_failed = rc != 0;
	if (t->compare_go)
		t->cmp_restored = 1;
}

/* Time n redraws of the final screen: composed (what a tick costs) and
 * fully repainted.  Figures in microseconds. */
static void bench_redraw(struct tui *t, unsigned n, double out[4])
{
	double *v = calloc(n, sizeof(*v));
	if (!v)
		return;
	for (int full = 0; full < 2; full++) {
		for (unsigned i = 0; i < n; i++) {
			uint64_t a = now_ns();
			t->d.tab_samples = (size_t)-1;   /* recompute the table too */
			dash_draw(&t->d, full);
			v[i] = (double)(now_ns() - a) / 1e3;
		}
		stats_sort(v, n);
		out[full * 2] = stats_mean(v, n);
		out[full * 2 + 1] = stats_percentile_sorted(v, n, 99);
	}
	free(v);
}

/* One of tui's own options (optab_fn). */
static int tui_set(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct tui_args *a = ctx;
	struct session_config *c = a->com.c;
	int rc = 0;
	switch (o->key) {
	case 'i':
		rc = cliopt_count(cmd, "--idle-samples", arg, 1, 1000000, &c->idle_samples);
		break;
	case OPT_TICK:
		rc = cliopt_time(cmd, "--tick", arg, &c->tick_ns);
		if (!rc && c->tick_ns < 100000000)
			rc = cliopt_bad(cmd, "--tick", arg, "must be at least 100ms");
		break;
	case 'n':
		rc = cliopt_count(cmd, "--iterations", arg, 1, 100000000, &a->iterations);
		break;
	case 'd':
		rc = cliopt_time(cmd, "--duration", arg, &c->max_time_ns);
		if (!rc && !c->max_time_ns)
			rc = cliopt_bad(cmd, "--duration", arg, "must be above zero");
		break;
	case OPT_BENCH:
		rc = cliopt_count(cmd, "--bench-redraw", arg, 1, 1000000, &a->bench);
		break;
	}
	return rc;
}

/* Options and the terminal: 0, OPTAB_DONE, or an exit status. */
static int tui_parse(int argc, char **argv, struct tui_args *a)
{
	const struct optab_cmd cmd = { CMD, tui_options, NULL, a, &usage_text };
	int rc = cliopt_parse(&cmd, argc, argv, NULL);
	if (rc)
		return rc;
	if (!a->com.c->n_loads) {
		fprintf(stderr, "brisk tui: the dashboard needs a load (it can be stopped with l)\n");
		return EXIT_USAGE;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "brisk tui: needs a terminal on stdin and stdout "
			"(use 'brisk run' for the batch mode)\n");
		return EXIT_USAGE;
	}
	return 0;
}

/* Everything cmd_tui_main() set up, in reverse (the screen is closed). */
static void tui_free(struct tui *t)
{
	if (t->d.s)
		dash_free(&t->d);
	if (t->job[0] >= 0) {
		close(t->job[0]);
		close(t->job[1]);
	}
	if (t->restore_log)
		fclose(t->restore_log);
	free(t->restore_text);
	session_free(t->s);
	compare_free(t->cmp);
	stack_free(t->stack);
	advisory_free(&t->adv);
	free(t);
}

/* The stack, its leaf disks (the settings), the advisories, the restore
 * log and the job pipe: before the screen opens.  The first message for
 * the dashboard goes into note (may be ""). */
static void tui_prepare(struct tui *t, int root, int *stack_ok, char *note, size_t len)
{
	const struct session_config *c = &t->s->cfg;
	int src = stack_resolve_path(c->dir, &t->stack);
	const struct blockdev *leaves[SETTINGS_MAX_DEVS];
	const char *names[SETTINGS_MAX_DEVS];
	size_t nl = 0;
	if (src == 0 && t->stack) {
		nl = stack_leaves(t->stack, leaves, SETTINGS_MAX_DEVS);
		if (nl > SETTINGS_MAX_DEVS)
			nl = SETTINGS_MAX_DEVS;
		for (size_t i = 0; i < nl; i++)
			names[i] = leaves[i]->name;
	}
	*stack_ok = src == 0 || src == -ENODEV;
	char what[256];
	snprintf(what, sizeof(what), "brisk tui %.200s", c->dir);
	settings_init(&t->st, JOURNAL_TUI, names, nl, root, what, note, len);
	char lerr[512];
	int lrc = loadscope_init(c, &t->st, &t->load_st, lerr, sizeof(lerr));
	if (lrc < 0 && !note[0])
		snprintf(note, len, "%.400s: the load's disks cannot be changed here", lerr);
	else if (lrc > 0 && !note[0] && t->load_st.n_devs)
		snprintf(note, len, "the load works on %.32s%s: key d points s and t at its disks",
			 t->load_st.devs[0], t->load_st.n_devs > 1 ? " and more" : "");
	char advpath[1024], adverr[256] = "";
	t->adv_ok = datadir_find("advisories.conf", advpath, sizeof(advpath)) == 0 &&
		    advisory_load(advpath, &t->adv, adverr, sizeof(adverr)) == 0;
	if (!note[0] && !t->adv_ok)
		snprintf(note, len, "no firmware advisory data (%.400s): advisories are not checked",
			 adverr[0] ? adverr : advpath);
	else if (!note[0] && !root)
		snprintf(note, len, "read-only: run as root to change the scheduler and tunables");
	t->restore_log = open_memstream(&t->restore_text, &t->restore_len);
	if (pipe2(t->job, O_CLOEXEC | O_NONBLOCK) < 0)
		t->job[0] = t->job[1] = -1;
}

/* The dashboard on the open screen, wired into the session's loop. */
static void tui_wire(struct tui *t, int stack_ok, int root, const char *note, int wfd)
{
	struct session *s = t->s;
	dash_init(&t->d, s, &t->st, stack_ok ? t->stack : NULL, t->adv_ok ? &t->adv : NULL,
		  root);
	if (t->job[0] >= 0) {
		t->d.save_profile = save_profile;
		t->d.save_ctx = t;
	}
	if (note[0])
		dash_message(&t->d, 0, "%s", note);
	t->d.cmp = &t->cs;
	snprintf(t->cs.dir, sizeof(t->cs.dir), "%s", t->d.dir);
	snprintf(t->cs.stackline, sizeof(t->cs.stackline), "%s", t->d.stackline);
	compare_describe_workload(&s->cfg, COMPARE_DEFAULT_SAMPLES, t->cs.workload,
			    sizeof(t->cs.workload));
	session_on_tick(s, on_tick, t);
	session_on_exit(s, on_exit_restore, t);
	session_on_child(s, tui_on_child, t);
	session_watch_fd(s, STDIN_FILENO, POLLIN, on_keys, t);
	if (wfd >= 0)
		session_watch_fd(s, wfd, POLLIN, tui_on_winch, t);
	if (t->job[0] >= 0)
		session_watch_fd(s, t->job[0], POLLIN, tui_on_job, t);
	dash_draw(&t->d, 1);
}

/* After the loop: close the screen, then say what happened; the exit
 * status (cliopt_exit_status: the same mapping as brisk run). */
static int tui_finish(struct tui *t, int rc, const char *err)
{
	struct session *s = t->s;
	double b[4] = { NAN, NAN, NAN, NAN };
	int bw = 0, bh = 0;
	if (t->bench) {
		bench_redraw(t, t->bench, b);
		bw = screen_cols();
		bh = screen_lines();
	}
	screen_close();
	if (t->restore_log)
		fclose(t->restore_log);
	t->restore_log = NULL;
	unsigned end = t->term_lost ? CLIOPT_END_LOST : 0;
	if (rc < 0)
		fprintf(stderr, "brisk tui: %s\n", err);
	if (t->restore_len)
		fprintf(stderr, "%s", t->restore_text);
	if (t->restore_failed) {
		fprintf(stderr, "brisk tui: some settings could not be restored; the journal keeps "
			"them for 'brisk restore'\n");
		end |= CLIOPT_END_FAILED;
	}
	if (rc == 0 && !t->no_report) {
		runreport_text(stdout, s);
		end |= CLIOPT_END_REPORTED;
	}
	if (t->cmp && compare_result(t->cmp)->n_runs && !t->no_report) {
		printf("\n");
		compare_report_text(stdout, compare_result(t->cmp));
	}
	if (t->bench)
		printf("redraw %dx%d, %u times: compose+refresh mean %.0f us (p99 %.0f us); "
		       "full repaint mean %.0f us (p99 %.0f us)\n", bw, bh, t->bench, b[0], b[1], b[2],
		       b[3]);
	if (fflush(stdout) != 0)
		end |= CLIOPT_END_FAILED;
	return cliopt_exit_status(CMD, s, rc, end);
}

int cmd_tui_main(int argc, char **argv)
{
	struct session_config c;
	session_config_default(&c);
	c.open_ended = 1;
	c.max_time_ns = 0;
	c.loaded_max_ns = 0;
	struct tui_args a = { .com.c = &c };
	char err[512], note[512];
	int rc = tui_parse(argc, argv, &a);
	if (rc)
		return rc == OPTAB_DONE ? 0 : rc;

	struct tui *t = calloc(1, sizeof(*t));
	if (!t)
		return EXIT_FAILED;
	t->iterations = a.iterations;
	t->no_report = a.no_report;
	t->bench = a.bench;
	t->job[0] = t->job[1] = -1;
	rc = session_create(&c, &t->s, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk tui: %s\n", err);
		free(t);
		return cliopt_session_status(rc);
	}
	int root = geteuid() == 0, stack_ok;
	tui_prepare(t, root, &stack_ok, note, sizeof(note));
	int wfd = screen_winch_fd();   /* SIGWINCH blocked before curses starts */
	if (screen_open(err, sizeof(err)) < 0) {
		fprintf(stderr, "brisk tui: %s\n", err);
		tui_free(t);
		return EXIT_FAILED;
	}
	t->cfg = t->s->cfg;
	t->stack_ok = stack_ok;
	t->root = root;
	t->wfd = wfd;
	tui_wire(t, stack_ok, root, note, wfd);
	for (;;) {
		rc = session_run(t->s, err, sizeof(err));
		if (rc < 0 || !t->compare_go || t->term_lost || t->s->stop_signal)
			break;
		t->compare_go = 0;
		if (!tuicompare_run(t) || t->term_lost)
			break;
		/* back to the dashboard: a fresh session (the figures start again) */
		t->in_compare = 0;
		t->cmp_restored = 0;
		dash_free(&t->d);
		session_free(t->s);
		t->s = NULL;
		if ((rc = session_create(&t->cfg, &t->s, err, sizeof(err))) < 0)
			break;
		t->ticks = 0;
		tui_wire(t, stack_ok, root, "back from the comparison: a fresh session (idle "
			 "baseline first, then the load)", wfd);
	}
	int status = t->s ? tui_finish(t, rc, err) : EXIT_FAILED;
	if (!t->s) {
		screen_close();
		fprintf(stderr, "brisk tui: %s\n", err);
	}
	if (t->cmp_signal)
		status = EXIT_SIGNAL + t->cmp_signal;
	tui_free(t);
	return status;
}
