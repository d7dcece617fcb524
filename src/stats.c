#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_double);
}

double stats_percentile_sorted(const double *s, size_t n, double p)
{
	if (n == 0 || isnan(p))
		return NAN;
	if (p <= 0)
		return s[0];
	if (p >= 100)
		return s[n - 1];
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);
	double frac = h - (double)lo;
	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + frac * (s[lo + 1] - s[lo]);
}

double stats_mean(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_sd(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	if (n < 2)
		return 0;
	/* Two passes: exact enough for latencies and simple to trust. */
	double m = stats_mean(v, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return sqrt(ss / (double)(n - 1));
}

double stats_pct_over(const double *v, size_t n, double threshold)
{
	if (n == 0)
		return NAN;
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += v[i] > threshold;
	return 100.0 * (double)c / (double)n;
}

double stats_ratio(double value, double base)
{
	if (isnan(value) || isnan(base) || base <= 0)
		return NAN;
	return value / base;
}

int stats_summarize(const double *v, size_t n, double thr_2s, double thr_10s,
		    struct stats_summary *out)
{
	out->n = n;
	if (n == 0) {
		out->min = out->p50 = out->p90 = out->p99 = out->max = NAN;
		out->mean = out->sd = out->pct_over_2s = out->pct_over_10s = NAN;
		return 0;
	}
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	stats_sort(s, n);
	out->min = s[0];
	out->max = s[n - 1];
	out->p50 = stats_percentile_sorted(s, n, 50);
	out->p90 = stats_percentile_sorted(s, n, 90);
	out->p99 = stats_percentile_sorted(s, n, 99);
	out->mean = stats_mean(s, n);
	out->sd = stats_sd(s, n);
	out->pct_over_2s = stats_pct_over(s, n, thr_2s);
	out->pct_over_10s = stats_pct_over(s, n, thr_10s);
	free(s);
	return 0;
}

struct ranked {
	double v;
	int group;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       double *u, double *p)
{
	if (na == 0 || nb == 0)
		return -EINVAL;
	size_t n = na + nb;
	struct ranked *r = malloc(n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 1 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	double rank_a = 0, ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		double t = (double)(j - i + 1);
		double avg = ((double)i + (double)j) / 2.0 + 1.0;
		for (size_t k = i; k <= j; k++)
			if (r[k].group == 0)
				rank_a += avg;
		ties += t * t * t - t;
		i = j + 1;
	}
	free(r);
	double dna = (double)na, dnb = (double)nb, dn = (double)n;
	double ua = rank_a - dna * (dna + 1) / 2.0;
	double mu = dna * dnb / 2.0;
	double var = dna * dnb / 12.0 * ((dn + 1) - ties / (dn * (dn - 1)));
	*u = ua;
	if (var <= 0) {
		*p = 1.0;   /* every value equal: no evidence of a difference */
		return 0;
	}
	double z = (fabs(ua - mu) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	*p = erfc(z / sqrt(2.0));
	return 0;
}

uint64_t stats_rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t stats_rand_range(uint64_t *state, uint64_t lo, uint64_t hi)
{
	uint64_t span = hi - lo;
	if (span == UINT64_MAX)
		return stats_rand_next(state);
	return lo + stats_rand_next(state) % (span + 1);
}

/* The q-quantile (0..1) of one resample of v drawn into tmp. */
static double resampled_quantile(const double *v, size_t n, double q,
				 double *tmp, uint64_t *st)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[stats_rand_range(st, 0, n - 1)];
	stats_sort(tmp, n);
	return stats_percentile_sorted(tmp, n, q * 100.0);
}

static double resampled_median(const double *v, size_t n, double *tmp, uint64_t *st)
{
	return resampled_quantile(v, n, 0.5, tmp, st);
}

int stats_bootstrap_median_diff(const double *a, size_t na,
				const double *b, size_t nb,
				unsigned iters, double level, uint64_t seed,
				double *lo, double *hi)
{
	if (na == 0 || nb == 0 || iters == 0 || !(level > 0 && level < 1))
		return -EINVAL;
	double *tmp = malloc((na > nb ? na : nb) * sizeof(*tmp));
	double *d = malloc(iters * sizeof(*d));
	if (!tmp || !d) {
		free(tmp);
		free(d);
		return -ENOMEM;
	}
	uint64_t st = seed;
	for (unsigned i = 0; i < iters; i++) {
		double ma = resampled_median(a, na, tmp, &st);
		double mb = resampled_median(b, nb, tmp, &st);
		d[i] = mb - ma;
	}
	stats_sort(d, iters);
	double tail = (1 - level) / 2 * 100;
	*lo = stats_percentile_sorted(d, iters, tail);
	*hi = stats_percentile_sorted(d, iters, 100 - tail);
	free(tmp);
	free(d);
	return 0;
}

static int all_finite(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

static int all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	return 1;
}

/* The q-quantile (0..1) of v, through a sorted copy; NaN when out of memory. */
static double quantile_of(const double *v, size_t n, double q)
{
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	stats_sort(s, n);
	double r = stats_percentile_sorted(s, n, q * 100.0);
	free(s);
	return r;
}

/* Percentile interval from `iters` bootstrap replicates (sorted in place). */
static void percentile_interval(double *rep, unsigned iters, double level,
				double *lo, double *hi)
{
	stats_sort(rep, iters);
	double tail = (1 - level) / 2 * 100;
	*lo = stats_percentile_sorted(rep, iters, tail);
	*hi = stats_percentile_sorted(rep, iters, 100 - tail);
}

static int boot_args_ok(double q, unsigned iters, double level)
{
	return q >= 0 && q <= 1 && iters > 0 && level > 0 && level < 1;
}

int stats_bootstrap_ci(const double *v, size_t n, double q, unsigned iters,
		       double level, uint64_t seed,
		       double *est, double *lo, double *hi)
{
	*est = *lo = *hi = NAN;
	if (n == 0 || !boot_args_ok(q, iters, level) || !all_finite(v, n))
		return -EINVAL;
	double *tmp = malloc(n * sizeof(*tmp));
	double *rep = malloc(iters * sizeof(*rep));
	if (!tmp || !rep) {
		free(tmp);
		free(rep);
		return -ENOMEM;
	}
	memcpy(tmp, v, n * sizeof(*tmp));
	stats_sort(tmp, n);
	double e = stats_percentile_sorted(tmp, n, q * 100.0);
	uint64_t st = seed;
	for (unsigned i = 0; i < iters; i++)
		rep[i] = resampled_quantile(v, n, q, tmp, &st);
	percentile_interval(rep, iters, level, lo, hi);
	*est = e;
	free(tmp);
	free(rep);
	return 0;
}

int stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
			  double q, unsigned iters, double level, uint64_t seed,
			  double *est, double *lo, double *hi)
{
	*est = *lo = *hi = NAN;
	if (na == 0 || nb == 0 || !boot_args_ok(q, iters, level) ||
	    !all_finite(a, na) || !all_finite(b, nb))
		return -EINVAL;
	double qa = quantile_of(a, na, q), qb = quantile_of(b, nb, q);
	if (isnan(qa) || isnan(qb))
		return -ENOMEM;
	if (!all_positive(a, na)) {
		*est = stats_ratio(qb, qa);   /* may still be defined; the CI is not */
		return -EDOM;
	}
	double *tmp = malloc((na > nb ? na : nb) * sizeof(*tmp));
	double *rep = malloc(iters * sizeof(*rep));
	if (!tmp || !rep) {
		free(tmp);
		free(rep);
		return -ENOMEM;
	}
	uint64_t st = seed;
	for (unsigned i = 0; i < iters; i++) {
		double ra = resampled_quantile(a, na, q, tmp, &st);
		double rb = resampled_quantile(b, nb, q, tmp, &st);
		rep[i] = rb / ra;   /* ra > 0: every base value is */
	}
	percentile_interval(rep, iters, level, lo, hi);
	*est = qb / qa;
	free(tmp);
	free(rep);
	return 0;
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;
	int c = cmp_double(&a->p, &b->p);
	if (c)
		return c;
	return (a->i > b->i) - (a->i < b->i);   /* stable: qsort is not */
}

int stats_holm(const double *p, size_t n, double *adjusted)
{
	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(p[i] >= 0 && p[i] <= 1))
			return -EINVAL;
	struct pidx *o = malloc(n * sizeof(*o));
	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		o[i] = (struct pidx){ p[i], i };
	qsort(o, n, sizeof(*o), cmp_pidx);
	/* R: pmin(1, cummax((n - i + 1) * p[o]))[ro], i = 1..n */
	double run = 0;
	for (size_t k = 0; k < n; k++) {
		double v = (double)(n - k) * o[k].p;
		if (v > run)
			run = v;
		adjusted[o[k].i] = run < 1 ? run : 1;
	}
	free(o);
	return 0;
}

enum stats_verdict stats_verdict(double ratio_lo, double ratio_hi,
				 double p_adjusted, double alpha)
{
	if (!(alpha > 0 && alpha < 1) || !(p_adjusted >= 0 && p_adjusted < alpha) ||
	    isnan(ratio_lo) || isnan(ratio_hi) || ratio_lo > ratio_hi)
		return STATS_NO_DIFFERENCE;
	if (ratio_hi < 1)
		return STATS_FASTER;
	if (ratio_lo > 1)
		return STATS_SLOWER;
	return STATS_NO_DIFFERENCE;
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case STATS_FASTER:
		return "faster";
	case STATS_SLOWER:
		return "slower";
	case STATS_NO_DIFFERENCE:
		break;
	}
	return "no difference detectable";
}
