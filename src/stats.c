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

static double resampled_median(const double *v, size_t n, double *tmp, uint64_t *st)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[stats_rand_range(st, 0, n - 1)];
	stats_sort(tmp, n);
	return stats_percentile_sorted(tmp, n, 50);
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
