#include "comparefront.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compare_plot.h"
#include "compare_report.h"
#include "fiojob.h"
#include "exitcode.h"
#include "loadscope.h"
#include "openmetrics.h"
#include "stack.h"
#include "text.h"

int comparefront_profile(const char *cmd, const struct optab *tab, int argc, char **argv,
			 struct profile *p, struct session_config *run, struct fiojob_report *rep)
{
	char err[512], note[256];
	int rc = cliopt_profile(tab, argc, argv, p, run, note, sizeof(note), rep, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk %s: %s\n", cmd, err);
		return rc == -EINVAL || rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	if (note[0])
		fprintf(stderr, "brisk %s: %s\n", cmd, note);
	for (size_t i = 0; i < rep->n_notes; i++)   /* a --fio job's harmless keys */
		fprintf(stderr, "brisk %s: %s\n", cmd, rep->notes[i]);
	return 0;
}

int comparefront_stack(struct comparefront *x, const char *dir, const char *what)
{
	int rc = stack_resolve_path(dir, &x->stack);
	if (rc < 0) {
		fprintf(stderr, "brisk %s: cannot find the disks behind %s: %s\n", x->cmd, dir,
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
		fprintf(stderr, "brisk %s: %s\n", x->cmd, note);
	if (!x->st.n_devs) {
		fprintf(stderr, "brisk %s: no disk with an I/O scheduler behind %s: nothing "
			"to %s\n", x->cmd, dir, x->cmd);
		return EXIT_USAGE;
	}
	return 0;
}


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
static void cmp_show(struct comparefront *x)
{
	const struct compare_result *r = compare_result(x->c);
	size_t arm, done, planned;
	unsigned round, rmax;
	uint64_t eta, e;
	compare_progress(x->c, &arm, &round, &rmax, &eta);
	char rt[32], what[96] = "", lead[256];
	round_text(rt, sizeof(rt), round, rmax, x->fixed_rounds);
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
	char race[160];
	compare_race_progress(r, race, sizeof(race));
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
	struct comparefront *x = ctx;
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
	struct comparefront *x = ctx;
	const struct compare_result *r = compare_result(c);
	if (x->armrun)
		x->armrun(x->ctx, c);
	if (!x->line.on || !r->n_runs || r->n_runs == x->runs_shown)
		return;
	x->runs_shown = r->n_runs;
	const struct compare_run *run = &r->runs[r->n_runs - 1];
	char rt[32], label[96];
	round_text(rt, sizeof(rt), run->round, r->rounds_max, x->fixed_rounds);
	text_escape(label, sizeof(label), r->arms[run->arm].label);
	progress_clear(&x->line);
	fprintf(stderr, "brisk %s: round %s, %s done in %.0fs%s%s\n", x->cmd, rt, label,
		(double)run->dur_ns / 1e9, run->failed ? " (FAILED: see the report)" : "",
		r->replayed_runs ? " (after the resumed ones)" : "");
}

unsigned comparefront_outputs(struct comparefront *x, const struct cliopt_args *o,
			      const char *save,
			      void (*text_more)(FILE *f, const struct compare_result *r, void *ctx),
			      int (*json)(void *ctx, const struct compare_result *r,
					  const char *path, char *err, size_t errlen),
			      void *ctx)
{
	char err[512];
	unsigned end = 0;
	const char *cmd = x->cmd;
	const struct compare_result *r = compare_result(x->c);
	if (!cliopt_to_stdout(o)) {
		compare_report_text(stdout, r);
		if (text_more)
			text_more(stdout, r, ctx);
	}
	if (o->json)
		end |= cliopt_written(cmd, "--json", json ? json(ctx, r, o->json, err, sizeof(err)) :
				      compare_report_json(r, o->json, err, sizeof(err)), err);
	if (o->csv)
		end |= cliopt_written(cmd, "--csv",
				      compare_report_csv(r, o->csv, err, sizeof(err)), err);
	if (o->openmetrics)
		end |= cliopt_written(cmd, "--openmetrics",
				      openmetrics_compare(r, o->openmetrics, err, sizeof(err)), err);
	if (o->plot)
		end |= cliopt_written(cmd, "--plot",
				      compare_plot(r, o->plot, err, sizeof(err)), err);
	if (save) {
		int src = compare_report_save(r, save, o->force, err, sizeof(err));
		if (src == -ENODATA) {   /* no winner: a result, not a failure */
			fprintf(stderr, "brisk %s: --save: %s; nothing saved\n", cmd, err);
		} else if (src < 0) {
			fprintf(stderr, "brisk %s: --save %s\n", cmd, err);
			end |= CLIOPT_END_FAILED;
		} else {
			fprintf(stderr, "brisk %s: saved the recommended settings as profile %s "
				"(brisk export %s --format udev makes them a default)\n", cmd, save,
				save);
		}
	}
	if (fflush(stdout) != 0)
		end |= CLIOPT_END_FAILED;
	return end;
}

int comparefront_exit(const struct comparefront *x, const struct compare_result *r, int rc,
		      unsigned end)
{
	if (rc < 0 || (end & CLIOPT_END_FAILED))
		return EXIT_FAILED;
	size_t failed = 0;
	for (size_t i = 0; i < r->n_runs; i++)
		failed += (size_t)r->runs[i].failed;
	if (failed) {
		fprintf(stderr, "brisk %s: %zu arm-run(s) failed (see the report)\n", x->cmd,
			failed);
		return EXIT_FAILED;
	}
	return r->stop_signal ? EXIT_SIGNAL + r->stop_signal : 0;
}

struct compare_hooks comparefront_hooks(struct comparefront *x)
{
	return (struct compare_hooks){ .session = on_session, .armrun = on_armrun, .ctx = x };
}

int comparefront_run(struct comparefront *x, struct compare *c, int quiet)
{
	char err[512];
	x->c = c;
	progress_begin(&x->line, x->cmd, quiet);
	const struct compare_hooks hooks = comparefront_hooks(x);
	int rc = compare_run(c, &hooks, err, sizeof(err));
	progress_end(&x->line);
	if (rc < 0)
		fprintf(stderr, "brisk %s: %s\n", x->cmd, err);
	return rc;
}

int comparefront_loads(struct comparefront *x, struct session_config *run)
{
	char err[512];
	if (loadscope_init(run, &x->st, &x->load_st, err, sizeof(err)) < 0) {
		fprintf(stderr, "brisk %s: %s\n", x->cmd, err);
		return EXIT_USAGE;
	}
	for (size_t i = 0; x->st.load && i < x->load_st.n_devs; i++) {   /* load: KEY's disks */
		size_t l = strlen(x->stackline);
		snprintf(x->stackline + l, sizeof(x->stackline) - l, "%s%s", i ? " " : "; load on ",
			 x->load_st.devs[i]);
	}
	return 0;
}

void comparefront_free(struct comparefront *x)
{
	if (x->st.journal)
		settings_restore(&x->st, stderr);
	stack_free(x->stack);
	x->stack = NULL;
}
