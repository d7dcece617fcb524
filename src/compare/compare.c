#include "compare_priv.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blockdev.h"
#include "kstat.h"
#include "lab.h"
#include "msg.h"
#include "now.h"
#include "trace.h"

#define SEC 1000000000ull
#define MiB (1024.0 * 1024.0)
#define SETTLE_MARGIN (64ull << 20)   /* Dirty + Writeback above the start level */

double compare_look_alpha(double alpha, unsigned looks, int final)
{
	if (looks <= 1)
		return alpha;
	double interim = alpha * COMPARE_INTERIM_SHARE;
	return final ? alpha - interim * (looks - 1) : interim;
}

void compare_config_default(struct compare_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	session_config_default(&cfg->run);
	cfg->samples = COMPARE_DEFAULT_SAMPLES;
	cfg->budget_ns = COMPARE_DEFAULT_BUDGET_NS;
	cfg->looks = 3;
	cfg->alpha = COMPARE_ALPHA;
	cfg->settle_max_ns = 60 * SEC;
	cfg->load_window_ns = COMPARE_LOAD_WINDOW_NS;
	cfg->margin = COMPARE_MARGIN;
}

static void cmsg(struct compare *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cmsg(struct compare *c, const char *fmt, ...)
{
	struct compare_result *r = &c->r;
	if (r->n_msgs == COMPARE_MAX_MSGS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->msgs[r->n_msgs++], sizeof(r->msgs[0]), fmt, ap);
	va_end(ap);
}

int compare_create(const struct compare_config *cfg, struct settings *st,
		   struct compare_arm *arms, size_t n, struct compare **out,
		   char *err, size_t errlen)
{
	*out = NULL;
	if (n < 2 || n > COMPARE_MAX_ARMS)
		return msg_fail(-EINVAL, err, errlen, "%zu arms: compare needs 2 to %d (the first "
				"is the baseline)", n, COMPARE_MAX_ARMS);
	if (!cfg->run.actions)
		return msg_fail(-EINVAL, err, errlen, "no action to time (see --actions)");
	if (!cfg->samples || !cfg->looks || !(cfg->alpha > 0 && cfg->alpha < 1) ||
	    (!cfg->rounds && !cfg->budget_ns) || cfg->rounds > COMPARE_MAX_ROUNDS ||
	    !(cfg->margin >= COMPARE_MARGIN_MIN && cfg->margin <= COMPARE_MARGIN_MAX))
		return msg_fail(-EINVAL, err, errlen, "bad compare settings (samples, rounds, "
				"budget, looks, alpha or margin)");
	for (size_t i = 0; i < n; i++)
		if (arms[i].n_steps && !st->root)
			return msg_fail(-EPERM, err, errlen, "arm '%s' changes settings, which needs "
					"root; nothing was run (try sudo)", arms[i].name);
	struct compare *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cfg = *cfg;
	c->st = st;
	c->r.n_arms = n;
	for (size_t i = 0; i < n; i++) {
		c->r.arms[i] = arms[i];
		arms[i].steps = NULL;
		arms[i].n_steps = 0;
	}
	compare_arms_label_unique(c->r.arms, n);
	c->r.actions = cfg->run.actions;
	c->r.seed = cfg->seed;
	c->r.looks = cfg->looks;
	c->r.alpha = cfg->alpha;
	c->r.margin = cfg->margin;
	c->r.more_rounds = -1;
	c->r.race_end = cfg->no_racing ? COMPARE_RACE_OFF : COMPARE_RACE_RUNNING;
	c->r.race_leader = -1;
	for (size_t i = 0; i < n; i++)
		c->r.race[i].ratio = c->r.race[i].lo = c->r.race[i].hi = NAN;
	c->r.alpha_look = compare_look_alpha(cfg->alpha, cfg->looks, 1);
	c->r.best = -1;
	c->r.rounds_max = cfg->rounds;
	snprintf(c->r.dir, sizeof(c->r.dir), "%s", cfg->run.dir);
	snprintf(c->r.command, sizeof(c->r.command), "compare");
	*out = c;
	return 0;
}

void compare_set_command(struct compare *c, const char *command)
{
	snprintf(c->r.command, sizeof(c->r.command), "%s", command);
}

void compare_set_context(struct compare *c, const char *stackline, const char *disks,
			 const char *workload)
{
	if (stackline)
		snprintf(c->r.stackline, sizeof(c->r.stackline), "%s", stackline);
	if (disks)
		snprintf(c->r.disks, sizeof(c->r.disks), "%s", disks);
	if (workload)
		snprintf(c->r.workload, sizeof(c->r.workload), "%s", workload);
}

void compare_describe_workload(const struct session_config *c, unsigned samples, char *out,
			       size_t len)
{
	size_t l = 0;
	out[0] = '\0';
	for (size_t i = 0; i < c->n_loads && l < len; i++) {
		char spec[160];
		load_spec_format(&c->loads[i], spec, sizeof(spec));
		l += (size_t)snprintf(out + l, len - l, "%s%s", l ? " + " : "load ", spec);
	}
	if (l < len)
		l += (size_t)snprintf(out + l, len - l, "; actions");
	for (unsigned k = 0; k < ACTION_KIND_COUNT && l < len; k++)
		if (c->actions & (1u << k))
			l += (size_t)snprintf(out + l, len - l, " %s",
					      action_kind_name((enum action_kind)k));
	if (l < len && c->n_starts)   /* a schedule sets the samples, not -n */
		snprintf(out + l, len - l, "; %zu scheduled samples per arm-run, up to %u at once",
			 c->n_starts, c->concurrency > 1 ? c->concurrency : 1);
	else if (l < len)
		snprintf(out + l, len - l, "; %u samples per action and arm-run", samples);
}

void compare_describe_disks(const struct blockdev *const *leaves, size_t n, char *out,
			    size_t len)
{
	size_t l = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && l < len; i++) {
		const struct blockdev *b = leaves[i];
		char model[128];
		if (!lab_disk_model(b, model, sizeof(model), NULL, 0) && !model[0])
			snprintf(model, sizeof(model), "model unknown");
		l += (size_t)snprintf(out + l, len - l, "%s%s: %s%s%s%s%s, %s", l ? "; " : "",
				      b->name, b->vendor, b->vendor[0] ? " " : "", model,
				      b->firmware[0] ? " fw " : "", b->firmware,
				      b->rotational == 1 ? "rotational" :
				      b->rotational == 0 ? "non-rotational" : "rotation unknown");
	}
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->r.n_arms; i++)
		compare_arm_free(&c->r.arms[i]);
	free(c->r.samples);
	free(c->r.runs);
	free(c->rp_runs);
	free(c->rp_samples);
	free(c->rp_taken);
	free(c);
}

int compare_replay(struct compare *c, const struct compare_run *runs, size_t n_runs,
		   const struct compare_sample *samples, size_t n_samples)
{
	for (size_t i = 0; i < n_runs; i++) {
		if (runs[i].arm >= c->r.n_arms || runs[i].round >= COMPARE_MAX_ROUNDS)
			return -EINVAL;
		for (size_t j = 0; j < i; j++)
			if (runs[j].arm == runs[i].arm && runs[j].round == runs[i].round)
				return -EINVAL;
	}
	for (size_t i = 0; i < n_samples; i++)
		if (samples[i].run >= n_runs || samples[i].action >= ACTION_KIND_COUNT)
			return -EINVAL;
	size_t nr = n_runs ? n_runs : 1, ns = n_samples ? n_samples : 1;
	c->rp_runs = malloc(nr * sizeof(*runs));
	c->rp_samples = malloc(ns * sizeof(*samples));
	c->rp_taken = calloc(nr, 1);
	if (!c->rp_runs || !c->rp_samples || !c->rp_taken)
		return -ENOMEM;
	if (n_runs)
		memcpy(c->rp_runs, runs, n_runs * sizeof(*runs));
	if (n_samples)
		memcpy(c->rp_samples, samples, n_samples * sizeof(*samples));
	c->rp_n_runs = n_runs;
	c->rp_n_samples = n_samples;
	return 0;
}

const struct compare_result *compare_result(const struct compare *c)
{
	return &c->r;
}

struct session *compare_session(const struct compare *c)
{
	return c->cur;
}

void compare_stop(struct compare *c)
{
	c->r.stop_requested = 1;
	if (c->cur)
		session_stop(c->cur);
}

/* Rounds that fit into the budget at per_run a run of each arm still in
 * the race (at least the minimum). */
static unsigned rounds_fit(const struct compare *c, uint64_t per_run)
{
	uint64_t per_round = per_run * compare_race_left(&c->r);
	uint64_t k = per_round ? c->cfg.budget_ns / per_round : COMPARE_MIN_ROUNDS;
	if (k < COMPARE_MIN_ROUNDS)
		k = COMPARE_MIN_ROUNDS;
	if (k > COMPARE_MAX_ROUNDS)
		k = COMPARE_MAX_ROUNDS;
	return (unsigned)k;
}

/* The time the arm-runs left will take: each at its arm's mean so far
 * (an arm not measured yet: the mean of all), plus the mean time between
 * arm-runs (the analysis, settings put back): the arms of this round that
 * have not run in it, the one under way counting down (not below 0 when
 * it runs long), then every arm once per round left. */
static uint64_t left_by_arm(const struct compare *c, size_t done, uint64_t started,
			    uint64_t in_run, unsigned rmax)
{
	const struct compare_result *r = &c->r;
	uint64_t sum[COMPARE_MAX_ARMS] = { 0 }, all = 0;
	size_t cnt[COMPARE_MAX_ARMS] = { 0 };
	for (size_t i = 0; i < done; i++) {
		sum[r->runs[i].arm] += r->runs[i].dur_ns;
		cnt[r->runs[i].arm]++;
		all += r->runs[i].dur_ns;
	}
	uint64_t gap = started > all ? (started - all) / done : 0, mean[COMPARE_MAX_ARMS];
	uint64_t round_t = 0, left = 0;
	for (size_t a = 0; a < r->n_arms; a++) {
		if (r->race[a].out)
			continue;
		mean[a] = (cnt[a] ? sum[a] / cnt[a] : all / done) + gap;
		round_t += mean[a];
		int ran = 0;   /* in the current round (the one under way included) */
		for (size_t i = 0; i < r->n_runs && !ran; i++)
			ran = r->runs[i].round == c->cur_round && r->runs[i].arm == a;
		if (!ran && c->cur_round < rmax)
			left += mean[a];
	}
	if (c->cur && !r->race[c->cur_arm].out)
		left += mean[c->cur_arm] > in_run ? mean[c->cur_arm] - in_run : 0;
	if (rmax > c->cur_round + 1)
		left += round_t * (rmax - c->cur_round - 1);
	return left;
}

void compare_progress(const struct compare *c, size_t *arm, unsigned *round,
		      unsigned *rounds_max, uint64_t *eta_ns)
{
	*arm = c->cur_arm;
	*round = c->cur_round;
	*rounds_max = c->r.rounds_max;
	*eta_ns = 0;
	if (!c->t0)
		return;   /* compare_run has not started */
	uint64_t now = now_ns();
	size_t done = c->r.n_runs - (c->cur ? 1 : 0);   /* the one under way is left */
	/* the arm-run under way: when it started, how long it has run */
	uint64_t started = c->cur && c->r.n_runs ? c->r.runs[c->r.n_runs - 1].t_ns : now - c->t0;
	uint64_t in_run = c->cur ? now - c->t0 - started : 0;
	if (done) {
		unsigned rmax = c->r.rounds_max ? c->r.rounds_max : rounds_fit(c, started / done);
		*eta_ns = left_by_arm(c, done, started, in_run, rmax);
	} else if (c->cur && !c->cfg.rounds) {
		/* the first arm-run: the budget is what it plans to use */
		uint64_t el = now - c->t0;
		*eta_ns = c->cfg.budget_ns > el ? c->cfg.budget_ns - el : 0;
	} else if (c->cur) {
		/* the first of --rounds: its own estimate stands for each */
		size_t d, p;
		uint64_t e;
		session_progress(c->cur, &d, &p, &e);
		if (!e)
			return;
		*eta_ns = (in_run + e) * ((uint64_t)c->cfg.rounds * c->r.n_arms - 1) + e;
	} else {
		return;
	}
	if (!*eta_ns && (c->cur || done < (size_t)c->r.rounds_max * c->r.n_arms))
		*eta_ns = 1;   /* not done yet; 0 would say "unknown" */
}

/* ---- one arm-run ---- */

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 64;
	while (nc < need)
		nc *= 2;
	void *np = realloc(*p, nc * size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = nc;
	return 0;
}

/* The loaded samples and the loads' figures of a finished session. */
static int collect(struct compare *c, const struct session *s, struct compare_run *run,
		   uint32_t run_idx)
{
	struct compare_result *r = &c->r;
	compare_split_note_run(&r->split_state, s);
	if (s->n_actions) {
		r->ran_as = s->actions[0].run_as;
		r->have_ran_as = 1;
	}
	for (size_t i = 0; i < s->n_samples; i++) {
		const struct session_sample *x = &s->samples[i];
		if (x->phase != SESSION_LOADED)
			continue;
		if (grow((void **)&r->samples, &r->cap_samples, r->n_samples + 1,
			 sizeof(*r->samples)) < 0)
			return -ENOMEM;
		r->samples[r->n_samples++] = (struct compare_sample){
			.arm = run->arm, .round = run->round, .order = run->order, .run = run_idx,
			.action = x->action, .cold = x->cold, .timeout = x->timeout, .err = x->err,
			.ms = x->err ? NAN : (double)x->dur_ns / 1e6,
			.t_ns = run->t_ns + x->t_ns, .split = x->split,
		};
	}
	/* the load's figures over the load window, the same stretch of the
	 * load in every arm-run (session.h) */
	struct session_load_window w;
	session_load_window(s, &w);
	run->load_mibps = w.load_mibps;
	run->disk_mibps = w.disk_mibps;
	run->disk_wr_mibps = w.disk_wr_mibps;
	run->disk_rd_mibps = w.disk_rd_mibps;
	run->window_s = w.seconds;
	if (s->fsdev.name[0])
		snprintf(r->load_dev, sizeof(r->load_dev), "%s", s->fsdev.name);
	double worst = 0;
	int have = 0;
	for (size_t i = 0; i < s->n_loads; i++) {
		if (s->loads[i].t_start)
			have = 1;
		if (s->loads[i].t_start && (double)s->loads[i].worst_ns / 1e6 > worst)
			worst = (double)s->loads[i].worst_ns / 1e6;
	}
	run->worst_stall_ms = have ? worst : NAN;
	run->settle_s = (double)s->settle_ns / 1e9;
	run->settle_timeout = s->settle_timeout;
	run->settle_left_mib = (double)s->settle_left / MiB;
	return 0;
}

static void plan_event(const struct settings_event *ev, void *arg)
{
	struct compare_run *run = arg;
	if (ev->kind == SETTINGS_EV_LOCKED_OUT)
		snprintf(run->note, sizeof(run->note), "%s is being changed by another brisk "
			 "(pid %d)", strcmp(ev->dev, "-") ? ev->dev : "vm.*", (int)ev->holder);
	else if (ev->kind == SETTINGS_EV_FAILED && ev->step)
		snprintf(run->note, sizeof(run->note), "%s%s%s=%s: the kernel refused: %s",
			 ev->step->dev ? ev->step->dev : "", ev->step->dev ? " " : "",
			 ev->step->key.name, ev->step->value, strerror(-ev->err));
}

/* The stored arm-run of arm in round into r.runs[idx] (compare_replay),
 * with its samples: 1 taken, 0 none stored, -ENOMEM. */
static int replay_run(struct compare *c, size_t arm, unsigned round, unsigned order,
		      uint32_t idx)
{
	struct compare_result *r = &c->r;
	size_t j = 0, split = 0;
	while (j < c->rp_n_runs && (c->rp_taken[j] || c->rp_runs[j].arm != arm ||
				    c->rp_runs[j].round != round))
		j++;
	if (j == c->rp_n_runs)
		return 0;
	for (size_t i = 0; i < c->rp_n_samples; i++) {
		if (c->rp_samples[i].run != j)
			continue;
		if (grow((void **)&r->samples, &r->cap_samples, r->n_samples + 1,
			 sizeof(*r->samples)) < 0)
			return -ENOMEM;
		struct compare_sample *x = &r->samples[r->n_samples++];
		*x = c->rp_samples[i];
		x->arm = (uint32_t)arm;
		x->round = round;
		x->order = order;
		x->run = idx;
		split |= x->split.ok;
	}
	if (split)   /* where its samples' time went was measured (and kept) */
		r->split_state.runs_on++;
	else
		r->split_state.runs_off++;
	c->rp_taken[j] = 1;
	r->runs[idx] = c->rp_runs[j];
	r->runs[idx].order = order;
	/* its time counts as spent: the budget and the estimates go on from it */
	c->t0 -= r->runs[idx].dur_ns;
	c->run_ns_sum += r->runs[idx].dur_ns;
	c->run_ns_n++;
	r->replayed_runs++;
	c->stale = 1;
	return 1;
}

/* Apply arm, run its session, put everything back.  0, or -errno with a
 * message (settings could not be applied or put back, no session). */
static int arm_run(struct compare *c, const struct compare_hooks *h, size_t arm,
		   unsigned round, unsigned order, char *err, size_t errlen)
{
	struct compare_result *r = &c->r;
	const struct compare_arm *a = &r->arms[arm];
	if (grow((void **)&r->runs, &r->cap_runs, r->n_runs + 1, sizeof(*r->runs)) < 0)
		return -ENOMEM;
	uint32_t idx = (uint32_t)r->n_runs;
	struct compare_run *run = &r->runs[idx];
	uint64_t t = now_ns();
	*run = (struct compare_run){ .arm = (uint32_t)arm, .round = round, .order = order,
				     .t_ns = t - c->t0, .load_mibps = NAN, .disk_mibps = NAN,
				     .disk_wr_mibps = NAN, .disk_rd_mibps = NAN, .worst_stall_ms = NAN };
	r->n_runs++;
	c->cur_arm = arm;
	c->cur_round = round;
	trace(TRACE_SESSION, "compare: round %u, arm %zu (%s)", round + 1, arm, a->label);
	r->race[arm].runs++;
	int rp = c->rp_n_runs ? replay_run(c, arm, round, order, idx) : 0;
	if (rp)
		return rp < 0 ? msg_fail(rp, err, errlen, "out of memory") : 0;
	if (c->sim) {
		c->stale = 1;
		int src = c->sim(c, arm, round, idx, c->sim_ctx);
		run->dur_ns = now_ns() - t;
		c->run_ns_sum += run->dur_ns;
		c->run_ns_n++;
		return src < 0 ? msg_fail(src, err, errlen, "simulated arm-run failed") : 0;
	}
	char msg[256] = "";
	int rc = 0;
	if (a->n_steps && settings_apply_plan(c->st, a->steps, a->n_steps, plan_event, run, NULL,
					      msg, sizeof(msg)) < 0) {
		run->failed = 1;
		int left = settings_restore(c->st, NULL);
		return msg_fail(-EIO, err, errlen, "arm '%s' could not be applied: %s%s", a->label,
				run->note[0] ? run->note : msg,
				left ? "; some values could not be put back (see brisk restore)" : "");
	}
	struct session_config sc = c->cfg.run;
	sc.idle_samples = 0;
	sc.warmup_plateau = c->cfg.steady;
	sc.loaded_samples = c->cfg.samples;
	sc.load_window_ns = c->cfg.load_window_ns;
	if (sc.loaded_max_ns && sc.loaded_max_ns < sc.load_window_ns)
		sc.loaded_max_ns = sc.load_window_ns;   /* the window is not cut short */
	sc.max_time_ns = 0;
	sc.settle_max_ns = c->cfg.settle_max_ns;
	sc.settle_target = r->dirty_level + SETTLE_MARGIN;
	/* which action goes first rotates by round, the same for every arm
	 * of a round: the first seconds of a load (often its worst) fall on
	 * each action in turn, never on one only */
	sc.first_action = round;
	sc.seed = c->cfg.seed ^ ((uint64_t)idx * 0x9e3779b97f4a7c15ull);
	compare_arm_session(a, &sc);
	struct session *s = NULL;
	char serr[512];
	rc = session_create(&sc, &s, serr, sizeof(serr));
	if (rc == 0) {
		c->cur = s;
		if (h && h->session)
			h->session(h->ctx, c, s);
		if (r->stop_requested)
			session_stop(s);
		rc = session_run(s, serr, sizeof(serr));
		c->cur = NULL;
		if (s->stop_signal && !r->stop_signal)
			r->stop_signal = s->stop_signal;
		if (collect(c, s, run, idx) < 0)
			rc = -ENOMEM;
		if (s->n_failed) {
			run->failed = 1;
			snprintf(run->note, sizeof(run->note), "%.190s",
				 s->n_msgs ? s->msgs[s->n_msgs - 1] : "a load or action failed");
		}
		if (s->t_load_ended)   /* its loaded figures after that point are not loaded */
			snprintf(run->note, sizeof(run->note), "%.60s ended at +%.1fs, before the "
				 "loaded phase did: %u sample(s) after it not under load%s",
				 s->load_ended, (double)s->t_load_ended / 1e9, s->n_after_load_end,
				 s->cfg.load_finite ? " (finite on purpose)" : "");
		if (s->t_load_ended)
			cmsg(c, "round %u, %s: %s", round + 1, a->label, run->note);
		if (s->cfg.concurrency > 1)
			cmsg(c, "round %u, %s: up to %u samples in flight (cap %u)%s", round + 1,
			     a->label, s->inflight_max, s->cfg.concurrency,
			     s->late_starts ? ", some starts held back by the cap" : "");
		for (size_t i = 0; i < s->n_msgs; i++)
			if (strstr(s->msgs[i], "settle:"))
				cmsg(c, "round %u, %s: %.200s", round + 1, a->label, s->msgs[i]);
	}
	session_free(s);
	int left = c->st->journal ? settings_restore(c->st, NULL) : 0;
	run->dur_ns = now_ns() - t;
	c->run_ns_sum += run->dur_ns;
	c->run_ns_n++;
	if (rc < 0) {
		run->failed = 1;
		return msg_fail(rc, err, errlen, "%s", serr);
	}
	if (left)
		return msg_fail(-EIO, err, errlen, "after arm '%s', %d setting(s) could not be put "
				"back; they stay journaled for 'brisk restore'", a->label, left);
	return 0;
}

/* ---- the rounds ---- */

/* A signal that came between arm-runs (they are blocked). */
static void pending_signal(struct compare *c, const sigset_t *set)
{
	struct timespec zero = { 0, 0 };
	int sig = sigtimedwait(set, NULL, &zero);
	if (sig > 0 && !c->r.stop_signal)
		c->r.stop_signal = sig;
}

/* Rounds that fit into the budget at the mean round time so far. */
static void plan_rounds(struct compare *c)
{
	if (c->cfg.rounds || !c->run_ns_n)
		return;
	c->r.rounds_max = rounds_fit(c, c->run_ns_sum / c->run_ns_n);
}

/* Is an interim look due after `done` rounds?  Looks i = 1..L-1 at
 * ceil(i * K / L) rounds; the final one is at the end. */
static int look_due(const struct compare *c, unsigned done)
{
	unsigned L = c->r.looks, K = c->r.rounds_max, i = c->r.looks_taken + 1;
	if (i >= L || done >= K)
		return 0;
	return (uint64_t)done * L >= (uint64_t)i * K;
}

/* Say which actions lost samples to the cold-only rule. */
static void warm_note(struct compare *c)
{
	struct compare_result *r = &c->r;
	if (c->cfg.keep_warm)
		return;
	for (unsigned a = 0; a < ACTION_KIND_COUNT; a++) {
		unsigned warm = 0, all = 0;
		for (size_t arm = 0; arm < r->n_arms; arm++) {
			warm += r->cells[arm][a].warm;
			all += r->cells[arm][a].warm + r->cells[arm][a].cold;
		}
		if (warm)
			cmsg(c, "%s: %u of %u samples were not cold and are left out of the "
			     "statistics (--keep-warm counts them%s)", action_kind_name((enum action_kind)a),
			     warm, all, c->cfg.run.evict == ACTION_EVICT_DROP_CACHES ? "" :
			     "; as root, --drop-caches makes them cold");
	}
}

/* compare_analyze_look(), and the analysis is current. */
static int analyze(struct compare *c)
{
	int a = compare_analyze_look(c);
	if (a >= 0)
		c->stale = 0;
	return a;
}

static int stopping(const struct compare *c)
{
	return c->r.stop_signal || c->r.stop_requested;
}

int compare_run(struct compare *c, const struct compare_hooks *h, char *err, size_t errlen)
{
	struct compare_result *r = &c->r;
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, &old) < 0)
		return msg_fail(-errno, err, errlen, "sigprocmask: %s", strerror(errno));
	c->t0 = now_ns();
	r->t_start_real = (uint64_t)time(NULL);
	struct kstat_mem m;
	r->dirty_level = kstat_mem_read(&m) == 0 ? m.dirty + m.writeback : 0;
	r->load_window_ns = c->cfg.load_window_ns;
	for (size_t i = 0; i < c->cfg.run.n_loads; i++)
		r->load_dirs |= load_kind_writes(c->cfg.run.loads[i].kind) ? COMPARE_LOAD_WRITES
			       : COMPARE_LOAD_READS;
	uint64_t rng = c->cfg.seed;
	unsigned offset = (unsigned)(stats_rand_next(&rng) % r->n_arms);
	int rc = 0;
	for (unsigned round = 0; rc == 0 && !stopping(c); round++) {
		plan_rounds(c);
		if (r->rounds_max && round >= r->rounds_max)
			break;
		/* a budget: do not start a round that cannot end in it */
		if (!c->cfg.rounds && round >= COMPARE_MIN_ROUNDS && c->run_ns_n &&
		    now_ns() - c->t0 + c->run_ns_sum / c->run_ns_n * compare_race_left(r) >
		    c->cfg.budget_ns)
			break;
		for (unsigned k = 0; k < r->n_arms && rc == 0; k++) {
			pending_signal(c, &set);
			if (stopping(c))
				break;
			size_t arm = (offset + round + k) % r->n_arms;
			if (r->race[arm].out)
				continue;
			size_t replayed = r->replayed_runs;
			rc = arm_run(c, h, arm, round, k, err, errlen);
			plan_rounds(c);
			pending_signal(c, &set);
			if (rc == 0 && !c->sim && replayed == r->replayed_runs && analyze(c) < 0)
				cmsg(c, "out of memory: the figures after round %u are not current",
				     round + 1);
			if (h && h->armrun && rc == 0 && replayed == r->replayed_runs)
				h->armrun(h->ctx, c);
		}
		if (rc < 0 || stopping(c))
			break;
		r->rounds_done = round + 1;
		if (r->race_end == COMPARE_RACE_RUNNING && r->rounds_done >= COMPARE_MIN_ROUNDS) {
			unsigned held = c->race_held;
			int ended = c->stale ? analyze(c) : 0;   /* else current */
			if (ended >= 0)
				ended = compare_race_look(c, r->rounds_done);
			if (ended < 0) {
				rc = msg_fail(ended, err, errlen, "out of memory");
				break;
			}
			if (c->race_held && !held)
				cmsg(c, "round %u: %s leads every arm left, but its verdicts against %s "
				     "are not settled: the rounds go on", r->rounds_done,
				     r->arms[r->race_leader].label, r->arms[0].label);
			for (size_t a = 0; a < r->n_arms; a++)   /* who left at this look */
				if (r->race[a].out && r->race[a].out_round == r->rounds_done)
					cmsg(c, "round %u: %s left the race: %s", r->rounds_done,
					     r->arms[a].label, r->race[a].why);
			if (ended) {
				cmsg(c, "the race ended %s", r->race_words);
				break;
			}
		}
		plan_rounds(c);
		if (look_due(c, r->rounds_done)) {
			r->looks_taken++;
			r->alpha_look = compare_look_alpha(r->alpha, r->looks, 0);
			int settled = analyze(c);
			if (settled < 0)
				rc = msg_fail(settled, err, errlen, "out of memory");
			else if (settled) {
				r->stopped_early = 1;
				cmsg(c, "stopped early after round %u of %u: every verdict was settled "
				     "at look %u of %u", r->rounds_done, r->rounds_max, r->looks_taken,
				     r->looks);
				if (r->race_end == COMPARE_RACE_RUNNING) {
					r->race_end = COMPARE_RACE_SETTLED;
					snprintf(r->race_words, sizeof(r->race_words), "after round %u: "
						 "every verdict against %s was settled", r->rounds_done,
						 r->arms[0].label);
				}
				break;
			}
		}
	}
	r->t_ns = now_ns() - c->t0;
	if (r->race_end == COMPARE_RACE_RUNNING) {
		r->race_end = rc < 0 || stopping(c) ? COMPARE_RACE_STOPPED : COMPARE_RACE_BUDGET;
		snprintf(r->race_words, sizeof(r->race_words), "%s after round %u, with %zu arms "
			 "still in it", rc < 0 || stopping(c) ? "stopped" : "out of rounds",
			 r->rounds_done, compare_race_left(r));
	}
	if (!r->stopped_early) {
		r->looks_taken++;
		r->alpha_look = compare_look_alpha(r->alpha, r->looks, 1);
		int a = analyze(c);
		if (a < 0 && rc == 0)
			rc = msg_fail(a, err, errlen, "out of memory");
	}
	warm_note(c);
	if (h && h->armrun)
		h->armrun(h->ctx, c);
	pending_signal(c, &set);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}
