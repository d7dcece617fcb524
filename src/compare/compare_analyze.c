#include "compare_priv.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCELL (COMPARE_MAX_ARMS * ACTION_KIND_COUNT)

static const struct stats_ci NO_CI = { NAN, NAN, NAN };

/* The bootstrap of every interval of `brisk compare`, seeded per cell. */
static unsigned boot_iters = COMPARE_BOOT_ITERS;

static struct stats_boot boot(uint64_t seed)
{
	return (struct stats_boot){ boot_iters, COMPARE_LEVEL, seed };
}

void compare_boot_iters(unsigned iters)
{
	boot_iters = iters ? iters : COMPARE_BOOT_ITERS;
}

/* The values and arm-run ids that enter the statistics of one cell. */
static size_t cell_values(const struct compare *c, size_t arm, unsigned action,
			  struct compare_cell *cell, double *v, uint32_t *g)
{
	const struct compare_result *r = &c->r;
	size_t n = 0;
	double sum = 0;
	cell->min = cell->max = NAN;
	for (size_t i = 0; i < r->n_samples; i++) {
		const struct compare_sample *x = &r->samples[i];
		if (x->arm != arm || x->action != action)
			continue;
		if (x->err) {
			cell->errors++;
			continue;
		}
		cell->timeouts += x->timeout;
		if (x->cold)
			cell->cold++;
		else
			cell->warm++;
		if (!x->cold && !c->cfg.keep_warm)
			continue;
		v[n] = x->ms;
		g[n++] = x->run;
		sum += x->ms;
		cell->min = isnan(cell->min) || x->ms < cell->min ? x->ms : cell->min;
		cell->max = isnan(cell->max) || x->ms > cell->max ? x->ms : cell->max;
	}
	cell->n = n;
	cell->mean = n ? sum / (double)n : NAN;
	return n;
}

static void ci(const double *v, const uint32_t *g, size_t n, double q, uint64_t seed,
	       struct stats_ci *out)
{
	struct stats_boot bt = boot(seed);
	*out = NO_CI;
	if (n)
		stats_bootstrap_ci_grouped(v, g, n, q, &bt, out);
}

static void ratio(const double *a, const uint32_t *ga, size_t na, const double *b,
		  const uint32_t *gb, size_t nb, double q, uint64_t seed, struct stats_ci *out)
{
	struct stats_boot bt = boot(seed);
	*out = NO_CI;
	if (na && nb)
		stats_bootstrap_ratio_grouped(a, ga, na, b, gb, nb, q, &bt, out);
}

/* log of each arm-run's geometric mean, in place; the count, or 0 when a
 * sample is not above 0 (no log). */
static size_t log_run_means(const double *v, const uint32_t *g, size_t n, double *out)
{
	size_t k = 0;
	if (stats_cluster_geomeans(v, g, n, out, &k) < 0)
		return 0;
	for (size_t i = 0; i < k; i++)
		out[i] = log(out[i]);
	return k;
}

/* Student t quantiles at whole degrees of freedom (the floor of Welch's:
 * a little larger, so the rounds estimated are never fewer), each
 * computed once per analysis: the estimate asks for many. */
#define TQ_DF (4 * COMPARE_MAX_ROUNDS + 2)
struct tq {
	double level;
	double q[2][TQ_DF];   /* [0] one-sided 1 - level, [1] two-sided 1 - level / 2 */
};

static double tq_get(struct tq *t, int two, double df)
{
	size_t i = df >= TQ_DF - 1 ? TQ_DF - 1 : df >= 1 ? (size_t)df : 1;
	if (isnan(t->q[two][i]))
		t->q[two][i] = stats_t_quantile(two ? 1 - t->level / 2 : 1 - t->level, (double)i);
	return t->q[two][i];
}

/* Would an estimate d (>= 0, log) with sd sa and sb be settled with ka +
 * n and kb + n runs: d / se past the two-sided t at level, or (logm -
 * d) / se past the one-sided one? */
static int settles(double d, double sa, double sb, size_t ka, size_t kb, unsigned n,
		   double logm, struct tq *t)
{
	double na = (double)ka + n, nb = (double)kb + n;
	double va = sa * sa / na, vb = sb * sb / nb, se = sqrt(va + vb);
	double df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
	return d / se >= tq_get(t, 1, df) || (logm - d) / se >= tq_get(t, 0, df);
}

/* Rounds more of each side after which the estimate (log ratio) and the
 * spread of ma[0..ka) and mb[0..kb) would be settled (settles(), which
 * only gets truer with n: found by doubling, then halving); -1 when fewer
 * than 2 runs a side, no spread, or not within COMPARE_MAX_ROUNDS. */
static int rounds_to_settle(const double *ma, size_t ka, const double *mb, size_t kb,
			    double logm, struct tq *t)
{
	if (ka < 2 || kb < 2 || !t || !(t->level > 0 && t->level < 1))
		return -1;
	double d = fabs(stats_mean(mb, kb) - stats_mean(ma, ka));
	double sa = stats_sd(ma, ka), sb = stats_sd(mb, kb);
	if (!(sa * sa + sb * sb > 0) || !isfinite(d))
		return -1;
	unsigned lo = 0, hi = 1;   /* lo: not settled (or 0), hi: to test */
	while (!settles(d, sa, sb, ka, kb, hi, logm, t)) {
		if (hi >= COMPARE_MAX_ROUNDS)
			return -1;
		lo = hi;
		hi = hi * 2 > COMPARE_MAX_ROUNDS ? COMPARE_MAX_ROUNDS : hi * 2;
	}
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		if (settles(d, sa, sb, ka, kb, mid, logm, t))
			hi = mid;
		else
			lo = mid;
	}
	return (int)hi;
}

/* The tests of an arm against the baseline, on the arm-runs (the unit;
 * a test on samples would take the samples of one run for independent:
 * 15-45 % false alarms measured, see stats.c): Welch's t on the log of
 * the per-run geometric means, p into cell->p (1 when a side has fewer
 * than 2 runs); the TOST within the margin on the same, into p_equiv (1
 * likewise); the ratio of the arms' typical runs (geometric means again)
 * with the Welch 95 % interval into ratio_runs; more_rounds at level. */
static void run_test(const double *a, const uint32_t *ga, size_t na, const double *b,
		     const uint32_t *gb, size_t nb, double *ma, double *mb, double logm,
		     struct tq *tq, struct compare_cell *cell)
{
	size_t ka = log_run_means(a, ga, na, ma), kb = log_run_means(b, gb, nb, mb);
	double t, df;
	struct stats_ci *ratio = &cell->ratio_runs;
	cell->p = cell->p_equiv = 1.0;
	*ratio = NO_CI;
	if (ka && kb)
		stats_log_ratio_ci(ma, ka, mb, kb, COMPARE_LEVEL, &ratio->est, &ratio->lo, &ratio->hi);
	if (ka < 2 || kb < 2 || stats_welch(ma, ka, mb, kb, &t, &df, &cell->p) < 0 ||
	    isnan(cell->p))
		cell->p = 1.0;
	if (ka < 2 || kb < 2 || stats_welch_tost(ma, ka, mb, kb, logm, &cell->p_equiv) < 0)
		cell->p_equiv = 1.0;
	cell->more_rounds = rounds_to_settle(ma, ka, mb, kb, logm, tq);
}

/* Per cell: counts, quantiles with CIs, ratio CIs and the raw p. */
static int cells(struct compare *c)
{
	struct compare_result *r = &c->r;
	size_t cap = r->n_samples ? r->n_samples : 1;
	double *base = malloc(cap * sizeof(double)), *v = malloc(cap * sizeof(double));
	uint32_t *gb = malloc(cap * sizeof(uint32_t)), *g = malloc(cap * sizeof(uint32_t));
	double *ma = malloc(cap * sizeof(double)), *mb = malloc(cap * sizeof(double));
	int rc = base && v && gb && g && ma && mb ? 0 : -ENOMEM;
	size_t m = 0;   /* the cells tested: the level more_rounds aims at is Holm's last */
	for (unsigned a = 0; a < ACTION_KIND_COUNT; a++)
		m += (r->actions & (1u << a)) ? r->n_arms - 1 : 0;
	double logm = log(r->margin);
	struct tq *tq = malloc(sizeof(*tq));
	if (tq) {
		tq->level = m ? r->alpha_look / (double)m : r->alpha_look;
		for (size_t i = 0; i < TQ_DF; i++)
			tq->q[0][i] = tq->q[1][i] = NAN;
	}
	for (unsigned a = 0; rc == 0 && a < ACTION_KIND_COUNT; a++) {
		if (!(r->actions & (1u << a)))
			continue;
		size_t nb = 0;
		for (size_t arm = 0; arm < r->n_arms; arm++) {
			struct compare_cell *cell = &r->cells[arm][a];
			memset(cell, 0, sizeof(*cell));
			double *x = arm ? v : base;
			uint32_t *gx = arm ? g : gb;
			size_t n = cell_values(c, arm, a, cell, x, gx);
			if (!arm)
				nb = n;
			uint64_t seed = c->cfg.seed + 1000003ull * (arm * ACTION_KIND_COUNT + a);
			ci(x, gx, n, 0.5, seed, &cell->p50);
			ci(x, gx, n, 0.9, seed + 1, &cell->p90);
			ci(x, gx, n, 0.99, seed + 2, &cell->p99);
			ci(x, gx, n, 1.0, seed + 3, &cell->pmax);
			cell->ratio50 = cell->ratio90 = cell->ratio_runs = NO_CI;
			cell->p = cell->p_adj = cell->p_equiv = cell->p_equiv_adj = NAN;
			cell->more_rounds = -1;
			if (!arm || !n || !nb)
				continue;
			ratio(base, gb, nb, x, gx, n, 0.5, seed + 4, &cell->ratio50);
			ratio(base, gb, nb, x, gx, n, 0.9, seed + 5, &cell->ratio90);
			run_test(base, gb, nb, x, gx, n, ma, mb, logm, tq, cell);
		}
	}
	free(base);
	free(v);
	free(gb);
	free(g);
	free(ma);
	free(tq);
	free(mb);
	return rc;
}

/* Holm over every arm x action that has a p, the difference tests and
 * the equivalence tests each on their own; verdicts at this look's level:
 * faster or slower (stats_verdict), else equivalent (TOST), else
 * undecided.  1 when every comparison is settled. */
static int verdicts(struct compare *c)
{
	struct compare_result *r = &c->r;
	double p[NCELL], pe[NCELL];
	struct compare_cell *which[NCELL];
	size_t n = 0, want = 0;
	for (size_t arm = 1; arm < r->n_arms; arm++)
		for (unsigned a = 0; a < ACTION_KIND_COUNT; a++) {
			if (!(r->actions & (1u << a)))
				continue;
			want++;
			struct compare_cell *cell = &r->cells[arm][a];
			if (!isnan(cell->p)) {
				p[n] = cell->p;
				pe[n] = cell->p_equiv;
				which[n++] = cell;
			}
		}
	if (n && (stats_holm(p, n, p) < 0 || stats_holm(pe, n, pe) < 0))
		return -ENOMEM;
	size_t settled = 0;
	r->more_rounds = -1;
	for (size_t i = 0; i < n; i++) {
		struct compare_cell *cell = which[i];
		cell->p_adj = p[i];
		cell->p_equiv_adj = pe[i];
		cell->verdict = stats_verdict(cell->ratio_runs.lo, cell->ratio_runs.hi, cell->p_adj,
					      r->alpha_look);
		if (cell->verdict == STATS_NO_DIFFERENCE && cell->p_equiv_adj < r->alpha_look)
			cell->verdict = STATS_EQUIVALENT;
		cell->settled = cell->verdict != STATS_NO_DIFFERENCE;
		settled += (size_t)cell->settled;
		if (cell->settled)
			cell->more_rounds = -1;
		else if (cell->more_rounds > r->more_rounds)
			r->more_rounds = cell->more_rounds;
	}
	return want && settled == want;
}

/* Mean and t interval of one figure over an arm's arm-runs (NaN ones left
 * out), never below 0. */
static struct stats_ci run_mean_ci(const struct compare_result *r, size_t arm,
				     size_t field_off)
{
	double v[COMPARE_MAX_ROUNDS];
	size_t n = 0;
	for (size_t i = 0; i < r->n_runs && n < COMPARE_MAX_ROUNDS; i++) {
		double x;
		memcpy(&x, (const char *)&r->runs[i] + field_off, sizeof(x));
		if (r->runs[i].arm == arm && !isnan(x))
			v[n++] = x;
	}
	struct stats_ci ci = NO_CI;
	if (n)
		stats_mean_ci(v, n, COMPARE_LEVEL, &ci.est, &ci.lo, &ci.hi);
	if (ci.lo < 0)   /* a throughput is not negative */
		ci.lo = 0;
	return ci;
}

/* Load throughput per arm (mean of its arm-runs, t interval: what reached
 * the disk, and the loads' own rate), worst stall, the score, and whether
 * the arm keeps the load going: by the disk figure when every arm with a
 * load figure has one, else by the loads' own rate. */
static void armstats(struct compare *c)
{
	struct compare_result *r = &c->r;
	int by_disk = 1;
	for (size_t arm = 0; arm < r->n_arms; arm++) {
		struct compare_armstat *as = &r->armstat[arm];
		memset(as, 0, sizeof(*as));
		as->worst_stall_ms = NAN;
		for (size_t i = 0; i < r->n_runs; i++) {
			const struct compare_run *run = &r->runs[i];
			if (run->arm != arm)
				continue;
			as->runs++;
			as->failed_runs += (size_t)run->failed;
			if (!isnan(run->worst_stall_ms) &&
			    (isnan(as->worst_stall_ms) || run->worst_stall_ms > as->worst_stall_ms))
				as->worst_stall_ms = run->worst_stall_ms;
		}
		as->load_mibps = run_mean_ci(r, arm, offsetof(struct compare_run, load_mibps));
		as->disk_mibps = run_mean_ci(r, arm, offsetof(struct compare_run, disk_mibps));
		if (!isnan(as->load_mibps.est) && isnan(as->disk_mibps.est))
			by_disk = 0;
		double logsum = 0;
		size_t k = 0;
		for (unsigned a = 0; a < ACTION_KIND_COUNT; a++) {
			if (!(r->actions & (1u << a)))
				continue;
			double x = arm ? r->cells[arm][a].ratio90.est : 1.0;
			if (x > 0 && isfinite(x)) {
				logsum += log(x);
				k++;
			}
		}
		as->score = k ? exp(logsum / (double)k) : NAN;
	}
	r->load_by_disk = by_disk;
	double best = NAN;
	for (size_t arm = 0; arm < r->n_arms; arm++) {
		double x = compare_load_figure(r, arm);
		if (!isnan(x) && (isnan(best) || x > best))
			best = x;
	}
	for (size_t arm = 0; arm < r->n_arms; arm++) {
		double x = compare_load_figure(r, arm);
		r->armstat[arm].load_ok = isnan(best) || isnan(x) ||
					  x >= best * (1.0 - COMPARE_LOAD_TOLERANCE_PCT / 100.0);
	}
}

const struct stats_ci *compare_load_ci(const struct compare_result *r, size_t arm)
{
	return r->load_by_disk ? &r->armstat[arm].disk_mibps : &r->armstat[arm].load_mibps;
}

double compare_load_figure(const struct compare_result *r, size_t arm)
{
	return compare_load_ci(r, arm)->est;
}

static int rank_cmp(const struct compare_result *r, size_t x, size_t y)
{
	const struct compare_armstat *a = &r->armstat[x], *b = &r->armstat[y];
	if (a->load_ok != b->load_ok)
		return a->load_ok ? -1 : 1;
	if (r->race[x].out != r->race[y].out)   /* shown slower than a leader */
		return r->race[x].out ? 1 : -1;
	if (isnan(a->score) != isnan(b->score))
		return isnan(a->score) ? 1 : -1;
	if (!isnan(a->score) && a->score != b->score)
		return a->score < b->score ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void ranking(struct compare *c)
{
	struct compare_result *r = &c->r;
	r->n_ranked = r->n_arms;
	for (size_t i = 0; i < r->n_arms; i++)
		r->ranking[i] = i;
	for (size_t i = 1; i < r->n_arms; i++)   /* insertion sort: 8 at most */
		for (size_t j = i; j > 0 && rank_cmp(r, r->ranking[j], r->ranking[j - 1]) < 0; j--) {
			size_t t = r->ranking[j];
			r->ranking[j] = r->ranking[j - 1];
			r->ranking[j - 1] = t;
		}
	snprintf(r->rule, sizeof(r->rule),
		 "arms are ranked by the geometric mean of their p90 ratios against the baseline "
		 "over the actions (lower is better), among the arms whose load throughput %s is "
		 "at least %.0f %% of the best (below it, an arm starves the load); an arm is recommended when it is faster than the "
		 "baseline on at least one action and slower on none (verdict: Welch's t on the log "
		 "of the arm-runs' geometric means, Holm-corrected, p < %.3g at this look, and "
		 "its 95 %% interval of the run ratio excludes 1; equivalent: two one-sided tests "
		 "that the run ratio is within %.0f %% either way, Holm-corrected at the same "
		 "level)",
		 r->load_by_disk ? "(to the disk, over the load window)"
		 : "(the loads' own rate over the load window: no disk counters)",
		 100.0 - COMPARE_LOAD_TOLERANCE_PCT, r->alpha_look, 100.0 * (r->margin - 1.0));
	r->best = -1;
	r->reason[0] = '\0';
	const struct compare_arm *base = &r->arms[0];
	for (size_t k = 0; k < r->n_ranked; k++) {
		size_t arm = r->ranking[k];
		if (arm == 0)
			continue;
		unsigned faster = 0, slower = 0;
		char why[300] = "";
		size_t wl = 0;
		for (unsigned a = 0; a < ACTION_KIND_COUNT; a++) {
			if (!(r->actions & (1u << a)))
				continue;
			const struct compare_cell *cell = &r->cells[arm][a];
			slower += cell->verdict == STATS_SLOWER;
			if (cell->verdict == STATS_FASTER) {
				faster++;
				if (wl < sizeof(why))
					wl += (size_t)snprintf(why + wl, sizeof(why) - wl,
							       "%s%s %.2fx [%.2f, %.2f]", wl ? ", " : "",
							       action_kind_name((enum action_kind)a),
							       cell->ratio_runs.est, cell->ratio_runs.lo,
							       cell->ratio_runs.hi);
			}
		}
		if (r->armstat[arm].load_ok && faster && !slower) {
			r->best = (int)arm;
			char cost[160] = "";
			double mine = compare_load_figure(r, arm), theirs = compare_load_figure(r, 0);
			if (theirs > 0 && mine < theirs * (1.0 - COMPARE_LOAD_COST_PCT / 100.0))
				snprintf(cost, sizeof(cost), "; at a cost to the load: %.1f MiB/s %s "
					 "against %.1f (-%.0f %%)", mine, r->load_by_disk ?
					 "to the disk" : "(its own rate)", theirs,
					 100.0 * (1.0 - mine / theirs));
			unsigned fast = 0;   /* the reason: where the time went where it won */
			for (unsigned a = 0; a < ACTION_KIND_COUNT; a++)
				if (r->cells[arm][a].verdict == STATS_FASTER)
					fast |= 1u << a;
			compare_split_reason(r, arm, fast & r->actions, 2, r->reason,
					     sizeof(r->reason));
			/* a label that is its settings (or their start) is not
			 * said twice, nor cut */
			const struct compare_arm *w = &r->arms[arm];
			int own = strncmp(w->settings, w->label, strlen(w->label)) != 0;
			snprintf(r->recommendation, sizeof(r->recommendation),
				 "use %s%s%s%s: faster than %s on %s%s%s%s", own ? w->label : "",
				 own ? " (" : "", w->settings, own ? ")" : "", base->label, why,
				 cost, r->reason[0] ? "; " : "", r->reason);
			return;
		}
		break;   /* only the first of the ranking can be recommended */
	}
	int any = 0, undecided = 0;
	for (size_t arm = 1; arm < r->n_arms; arm++)
		for (unsigned a = 0; a < ACTION_KIND_COUNT; a++) {
			if (!(r->actions & (1u << a)))
				continue;
			enum stats_verdict v = r->cells[arm][a].verdict;
			any |= v == STATS_FASTER || v == STATS_SLOWER;
			undecided |= v == STATS_NO_DIFFERENCE;
		}
	/* the reason: where the time went under the arm ranked first and the
	 * baseline, in the action where they differ most */
	for (size_t k = 0; k < r->n_ranked; k++)
		if (r->ranking[k] != 0) {
			compare_split_reason(r, r->ranking[k], r->actions, 1, r->reason,
					     sizeof(r->reason));
			break;
		}
	char more[96] = "";
	if (undecided && r->more_rounds > 0)
		snprintf(more, sizeof(more), "; about %d more round%s would likely settle the "
			 "undecided", r->more_rounds, r->more_rounds == 1 ? "" : "s");
	else if (undecided)
		snprintf(more, sizeof(more), "; the undecided need more rounds");
	double pct = 100.0 * (r->margin - 1.0);
	if (any)
		snprintf(r->recommendation, sizeof(r->recommendation),
			 "no recommendation: no arm is faster than %s on some action without being "
			 "slower on another or starving the load; keep %s%s%s%s", base->label,
			 base->label, more, r->reason[0] ? "; " : "", r->reason);
	else if (!undecided)
		snprintf(r->recommendation, sizeof(r->recommendation),
			 "every arm is equivalent to %s (within %.0f %%): keep %s%s%s", base->label,
			 pct, base->label, r->reason[0] ? "; " : "", r->reason);
	else
		snprintf(r->recommendation, sizeof(r->recommendation),
			 "no arm is distinguishable from %s: keep %s%s%s%s", base->label, base->label,
			 more, r->reason[0] ? "; " : "", r->reason);
}

const char *compare_verdict_name(enum stats_verdict v)
{
	return v == STATS_NO_DIFFERENCE ? "undecided" : stats_verdict_name(v);
}

int compare_analyze_look(struct compare *c)
{
	int rc = cells(c);
	if (rc < 0)
		return rc;
	rc = compare_split_analyze(&c->r, c->cfg.keep_warm);
	if (rc < 0)
		return rc;
	int settled = verdicts(c);
	if (settled < 0)
		return settled;
	armstats(c);
	ranking(c);
	return settled;
}

int compare_analyze(struct compare *c)
{
	int rc = compare_analyze_look(c);
	return rc < 0 ? rc : 0;
}
