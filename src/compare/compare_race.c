#include "compare_priv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The race is a successive rejection on each arm-run's score, the mean
 * over the actions of the log of its samples' geometric mean (the log of
 * the ranking's objective, with the typical arm-run in place of the p90:
 * the baseline cancels out of every difference).  At race look j (one
 * after each round from COMPARE_MIN_ROUNDS) the level is
 * alpha * 6 / (pi^2 j^2), which sums to alpha over any number of looks.
 * The leader is the lowest mean, picked from the data: a test against it
 * is the test of the widest pair, so each is at the level over the
 * ordered pairs of the arms in the race (Bonferroni: the data chose the
 * direction), with the spread pooled over them
 * (Welch against the leader alone dropped an arm in 8 % of simulated
 * races of 16 equal arms).  What the simulation measured:
 * brisk-compare(1) RACING, tests/bench/race_sim.sh. */

const char *compare_race_end_name(enum compare_race_end e)
{
	switch (e) {
	case COMPARE_RACE_OFF:
		return "off";
	case COMPARE_RACE_RUNNING:
		return "running";
	case COMPARE_RACE_WINNER:
		return "winner";
	case COMPARE_RACE_EQUIVALENT:
		return "equivalent";
	case COMPARE_RACE_SETTLED:
		return "settled";
	case COMPARE_RACE_BUDGET:
		return "budget";
	case COMPARE_RACE_STOPPED:
		break;
	}
	return "stopped";
}

size_t compare_race_left(const struct compare_result *r)
{
	size_t n = 0;
	for (size_t a = 0; a < r->n_arms; a++)
		n += !r->race[a].out;
	return n;
}

void compare_race_progress(const struct compare_result *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->race_end == COMPARE_RACE_OFF || compare_race_left(r) == r->n_arms)
		return;
	size_t last = 0;
	for (size_t a = 0; a < r->n_arms; a++)
		if (r->race[a].out && (!r->race[last].out ||
				       r->race[a].out_round >= r->race[last].out_round))
			last = a;
	const struct compare_race *x = &r->race[last];
	snprintf(buf, len, " (%zu of %zu arms left; out after round %u: %s, %.*s)",
		 compare_race_left(r), r->n_arms, x->out_round, r->arms[last].label,
		 (int)strcspn(x->why, ":"), x->why);
}

/* Scores of every arm's arm-runs: sc[a][0..k[a]), an arm-run counted
 * only when each action has a sample the statistics count. */
struct scores {
	double *v[COMPARE_MAX_ARMS];
	size_t k[COMPARE_MAX_ARMS];
};

static void scores_free(struct scores *s)
{
	for (size_t a = 0; a < COMPARE_MAX_ARMS; a++)
		free(s->v[a]);
}

int compare_run_logs(const struct compare_result *r, int keep_warm, double *out)
{
	size_t nr = r->n_runs;
	double *sum = calloc((nr ? nr : 1) * ACTION_KIND_COUNT, sizeof(double));
	unsigned *cnt = calloc((nr ? nr : 1) * ACTION_KIND_COUNT, sizeof(unsigned));
	if (!sum || !cnt) {
		free(sum);
		free(cnt);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->n_samples; i++) {
		const struct compare_sample *x = &r->samples[i];
		if (x->err || !(x->ms > 0) || !isfinite(x->ms) || x->run >= nr ||
		    x->action >= ACTION_KIND_COUNT || (!x->cold && !keep_warm))
			continue;
		sum[x->run * ACTION_KIND_COUNT + x->action] += log(x->ms);
		cnt[x->run * ACTION_KIND_COUNT + x->action]++;
	}
	for (size_t i = 0; i < nr; i++) {
		double score = 0;
		unsigned n = 0, ok = 1;
		for (unsigned a = 0; a < ACTION_KIND_COUNT; a++) {
			unsigned m = cnt[i * ACTION_KIND_COUNT + a];
			double v = (r->actions & (1u << a)) && m ? sum[i * ACTION_KIND_COUNT + a] / m : NAN;
			out[(1 + a) * nr + i] = v;
			if (!(r->actions & (1u << a)))
				continue;
			ok &= m > 0;
			score += ok ? v : 0;
			n++;
		}
		out[i] = ok && n ? score / n : NAN;
	}
	free(sum);
	free(cnt);
	return 0;
}

static int scores_make(const struct compare *c, struct scores *s)
{
	const struct compare_result *r = &c->r;
	memset(s, 0, sizeof(*s));
	size_t nr = r->n_runs ? r->n_runs : 1;
	double *v = malloc(nr * COMPARE_RUN_LOG_COLS * sizeof(double));
	int rc = v ? compare_run_logs(r, c->cfg.keep_warm, v) : -ENOMEM;   /* column 0: scores */
	for (size_t a = 0; rc == 0 && a < r->n_arms; a++)
		if (!(s->v[a] = malloc(nr * sizeof(double))))
			rc = -ENOMEM;
	for (size_t i = 0; rc == 0 && i < r->n_runs; i++) {
		size_t arm = r->runs[i].arm;
		if (arm < r->n_arms && !isnan(v[i]))
			s->v[arm][s->k[arm]++] = v[i];
	}
	free(v);
	if (rc < 0)
		scores_free(s);
	return rc;
}

/* The spread of the scores, pooled over the arms in the race with two
 * arm-runs or more: *sd and its degrees of freedom (0: none). */
static void pooled(const struct compare_result *r, const struct scores *s, double *sd,
		   double *df)
{
	double ss = 0, n = 0;
	for (size_t a = 0; a < r->n_arms; a++) {
		if (r->race[a].out || s->k[a] < 2)
			continue;
		double m = stats_mean(s->v[a], s->k[a]);
		for (size_t i = 0; i < s->k[a]; i++)
			ss += (s->v[a][i] - m) * (s->v[a][i] - m);
		n += (double)s->k[a] - 1;
	}
	*df = n;
	*sd = n > 0 ? sqrt(ss / n) : NAN;
}

/* Arm b against the leader a, with the pooled spread: the one-sided p
 * that b is slower, the TOST p that they are within logm, and the ratio
 * b / a with its 95 % interval. */
static void versus(const double *a, size_t na, const double *b, size_t nb, double sd,
		   double df, double logm, double *p, double *pe, struct stats_ci *x)
{
	double d = stats_mean(b, nb) - stats_mean(a, na);
	double se = sd * sqrt(1.0 / (double)na + 1.0 / (double)nb);
	*p = *pe = 1.0;
	x->est = exp(d);
	x->lo = x->hi = NAN;
	if (!(df >= 1) || !isfinite(d))
		return;
	if (!(se > 0)) {
		*p = d > 0 ? 0 : 1;
		*pe = fabs(d) < logm ? 0 : 1;
		x->lo = x->hi = x->est;
		return;
	}
	*p = 1 - stats_t_cdf(d / se, df);
	double lo = 1 - stats_t_cdf((d + logm) / se, df), hi = stats_t_cdf((d - logm) / se, df);
	*pe = lo > hi ? lo : hi;
	double q = stats_t_quantile(0.5 + COMPARE_LEVEL / 2, df);
	x->lo = exp(d - q * se);
	x->hi = exp(d + q * se);
}

static void drop(struct compare_result *r, size_t arm, unsigned done, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void drop(struct compare_result *r, size_t arm, unsigned done, const char *fmt, ...)
{
	struct compare_race *x = &r->race[arm];
	x->out = 1;
	x->out_round = done;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->why, sizeof(x->why), fmt, ap);
	va_end(ap);
}

/* Arms that keep less of the load than the tolerance, surely: the upper
 * end of their interval below the share of the best arm's lower end.
 * The baseline stays in (every verdict needs it). */
static void drop_starving(struct compare_result *r, unsigned done)
{
	double best_lo = NAN;
	for (size_t a = 0; a < r->n_arms; a++) {
		const struct stats_ci *ci = compare_load_ci(r, a);
		if (!r->race[a].out && isfinite(ci->lo) && (isnan(best_lo) || ci->lo > best_lo))
			best_lo = ci->lo;
	}
	if (!(best_lo > 0))
		return;
	double line = best_lo * (1.0 - COMPARE_LOAD_TOLERANCE_PCT / 100.0);
	for (size_t a = 1; a < r->n_arms; a++) {
		const struct stats_ci *ci = compare_load_ci(r, a);
		if (!r->race[a].out && isfinite(ci->hi) && ci->hi < line) {
			drop(r, a, done, "starves the load: %.1f MiB/s [%.1f, %.1f], below %.0f %% of "
			     "the best arm's %.1f", ci->est, ci->lo, ci->hi,
			     100.0 - COMPARE_LOAD_TOLERANCE_PCT, best_lo);
			r->race[a].ratio = r->race[a].lo = r->race[a].hi = NAN;
		}
	}
}

int compare_race_look(struct compare *c, unsigned done)
{
	struct compare_result *r = &c->r;
	if (r->race_end != COMPARE_RACE_RUNNING)
		return 0;
	struct scores s;
	if (scores_make(c, &s) < 0)
		return -ENOMEM;
	unsigned j = ++r->race_looks;
	double level = r->alpha * 6.0 / (M_PI * M_PI * (double)j * (double)j);
	r->race_level = level;
	drop_starving(r, done);
	/* the leader: the lowest mean score among the arms in the race that
	 * keep the load going and have two scored arm-runs */
	int lead = -1;
	double best = INFINITY;
	for (size_t a = 0; a < r->n_arms; a++) {
		if (r->race[a].out || !r->armstat[a].load_ok || s.k[a] < 2)
			continue;
		double m = stats_mean(s.v[a], s.k[a]);
		if (m < best) {
			best = m;
			lead = (int)a;
		}
	}
	r->race_leader = lead;
	if (lead < 0) {
		scores_free(&s);
		return 0;
	}
	const double *L = s.v[lead];
	size_t kl = s.k[lead];
	double sd, df;
	pooled(r, &s, &sd, &df);
	/* every ordered pair of the arms that can be tested (the leader is
	 * the lowest of them: the tests against it stand for all the pairs,
	 * each in the direction the data chose) */
	size_t testable = 0;
	for (size_t a = 0; a < r->n_arms; a++)
		testable += !r->race[a].out && s.k[a] >= 2;
	double pairs = (double)testable * (double)(testable - 1), cut = level / pairs;
	size_t others = 0, slower = 0, equiv = 0, tested = 0;
	char ll[sizeof(r->arms[0].label)];
	memcpy(ll, r->arms[lead].label, sizeof(ll));
	for (size_t a = 0; a < r->n_arms; a++) {
		if (r->race[a].out || (int)a == lead)
			continue;
		others++;
		if (s.k[a] < 2)
			continue;
		tested++;
		struct stats_ci x;
		double p, pe;
		versus(L, kl, s.v[a], s.k[a], sd, df, log(r->margin), &p, &pe, &x);
		equiv += pe < level;
		if (!(p < cut))
			continue;
		slower++;
		struct compare_race *y = &r->race[a];
		y->ratio = x.est;
		y->lo = x.lo;
		y->hi = x.hi;
		memcpy(y->leader, ll, sizeof(y->leader));
		if (a != 0)   /* the baseline stays: every verdict needs it */
			drop(r, a, done, "slower than %s, the leader: %.2fx [%.2f, %.2f] (p %.2g < "
			     "%.2g at race look %u)", ll, x.est, x.lo, x.hi, p, cut, j);
	}
	scores_free(&s);
	if (!others || slower == others) {
		/* a winner compare cannot recommend yet (its verdicts against the
		 * baseline, per action, are not settled) is no end: the rounds go on */
		if (lead > 0 && r->best != lead) {
			c->race_held++;
			return 0;
		}
		r->race_end = COMPARE_RACE_WINNER;
		if (others)
			snprintf(r->race_words, sizeof(r->race_words), "after round %u, %s is faster "
				 "than every other arm still in the race (race look %u, level %.2g)",
				 done, ll, j, level);
		else
			snprintf(r->race_words, sizeof(r->race_words), "after round %u, %s is the "
				 "only arm left in the race", done, ll);
		return 1;
	}
	if (tested == others && equiv == others) {
		r->race_end = COMPARE_RACE_EQUIVALENT;
		snprintf(r->race_words, sizeof(r->race_words), "after round %u, the arms still in "
			 "the race are equivalent to %s, the leader, within %.0f %% (race look %u, "
			 "level %.2g)", done, ll, 100.0 * (r->margin - 1.0), j, level);
		return 1;
	}
	return 0;
}
