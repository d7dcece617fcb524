/* stats — descriptive figures, the tests, Holm, the verdict rule, the
 * generator, Student t and the order-statistic median interval.  The
 * bootstraps are in stats_boot.c; the contract is stats.h's. */
#include "stats.h"
#include "stats_priv.h"

#include <errno.h>
#include <float.h>
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

static int cmp_key(const void *x, const void *y)
{
	const struct stats_key *a = x, *b = y;
	int c = cmp_double(&a->v, &b->v);
	if (c)
		return c;
	return (a->i > b->i) - (a->i < b->i);
}

void stats_key_sort(struct stats_key *k, size_t n)
{
	if (n > 1)
		qsort(k, n, sizeof(*k), cmp_key);
}

int stats_all_finite(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
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

uint64_t stats_rand_index(uint64_t *state, uint64_t n)
{
	uint64_t x = stats_rand_next(state);
	if (n <= UINT32_MAX)   /* multiply-shift on the high half: no division */
		return ((x >> 32) * n) >> 32;
	return x % n;
}

int stats_holm(const double *p, size_t n, double *adjusted)
{
	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(p[i] >= 0 && p[i] <= 1))
			return -EINVAL;
	struct stats_key *o = malloc(n * sizeof(*o));
	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		o[i] = (struct stats_key){ p[i], i };
	stats_key_sort(o, n);   /* ties by position: R's order() is stable */
	/* R: pmin(1, cummax((n - i + 1) * p[o]))[ro], i = 1..n */
	double run = 0;
	for (size_t k = 0; k < n; k++) {
		double v = (double)(n - k) * o[k].v;
		if (v > run)
			run = v;
		adjusted[o[k].i] = run < 1 ? run : 1;
	}
	free(o);
	return 0;
}

/* The verdict needs the interval and the corrected test to agree: the
 * interval alone is not multiplicity-corrected, the test alone says
 * nothing of the size.  Which test, for clustered samples (arm-runs of
 * k samples), measured with the whole rule of `brisk compare`
 * (compare_stats.sh parts 5, 6: 4 arms x 4 actions, 12 comparisons
 * against arm 0, Holm over them, 3 looks at rounds ceil(R/3), ceil(2R/3),
 * R at alpha 0.05 / 3 each, the grouped 95 % ratio-of-medians interval;
 * k = 4, sigma_w 0.5; A/A 1000 simulated comparisons per setting, power
 * 500), family-wise false positive rate over all looks / power for a
 * ratio of 0.5 on one cell:
 *                             R = 4       6           9           12
 *   sigma_b 0.3
 *     MW on samples         15 / 39 %   17 / 66 %   22 / 83 %   22 / 94 %
 *     MW on run medians      0 /  0 %    0 /  0 %  0.2 / 22 %  1.7 / 50 %
 *     Welch, log run medians 1.5 / 3 %  1.6 / 17 %  1.8 / 47 %  3.3 / 64 %
 *     Welch, log run geomeans 2.0 / 4 %  2.3 / 18 %  2.4 / 50 %  3.1 / 70 %
 *   sigma_b 0.6
 *     MW on samples         43 / 41 %   42 / 49 %   44 / 57 %   45 / 69 %
 *     MW on run medians      0 /  0 %    0 /  0 %  0.4 /  2 %  0.8 / 12 %
 *     Welch, log run medians 1.8 / 1 %  2.3 /  5 %  2.3 /  8 %  2.5 / 17 %
 *     Welch, log run geomeans 1.7 / 1 %  1.7 /  4 %  2.1 /  8 %  2.5 / 19 %
 * Mann-Whitney on all samples takes a run's samples for independent: its
 * "power" is bought with 15-45 % false positives, which the grouped
 * interval does not stop (the interval alone: 41-74 %).  A rank test on
 * the run medians is valid but cannot reach 0.05 / 3 / 12 with fewer than
 * about 7 runs per arm.  So compare tests with stats_welch() on the log of
 * the per-run geometric means (stats_cluster_geomeans; the medians' row
 * is the earlier rule, which a stall on one sample of three could not
 * move), Holm over the comparisons, this rule at alpha / looks.  With
 * outlier runs (10 % of arm-runs 4x slower, sigma_b 0.3, part 7) Welch
 * stays valid: 1.3 / 1.1 % family-wise at R 6 / 12 on run medians, 0.9 /
 * 1.0 % on run geometric means (MW on samples 32 %); power for 0.5 drops
 * to 6 / 35 % and 7 / 36 %.  A ratio of 0.8 is found under 3 % of the
 * time in every setting above (MW on samples 4-16 %, with its false
 * positives): the spread between runs, not the samples per run, limits
 * what a comparison can tell.  The Welch log-ratio interval of the same
 * model (stats_log_ratio_ci) covered 94.0-97.0 % (part 8: ratio 1, 1.5, 3;
 * sigma_b 0.3 and 0.6; 3-12 rounds x 2-4 samples; 2000 repetitions a
 * cell), 95-97 % at 3-4 rounds. */
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
	case STATS_EQUIVALENT:
		return "equivalent";
	case STATS_NO_DIFFERENCE:
		break;
	}
	return "no difference detectable";
}

/* ---- Student t ---- */

/* The regularized incomplete beta I_x(a, b) from its continued fraction,
 * DLMF 8.17.22:
 *
 *   I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) * 1 / (1 + d_1 / (1 + d_2 / (1 + ...)))
 *   d_2m   =  m (b - m) x / ((a + 2m - 1)(a + 2m))
 *   d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
 *
 * which converges fast for x < (a + 1) / (a + b + 2); above that point
 * I_x(a, b) = 1 - I_(1-x)(b, a) (DLMF 8.17.4). */

/* The n-th partial numerator d_n (n >= 1) of DLMF 8.17.22. */
static double beta_cf_term(double a, double b, double x, unsigned n)
{
	double m = (double)(n / 2);
	if (n % 2 == 0)
		return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
	return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
}

/* 1 + d_1 / (1 + d_2 / (1 + ...)) by the modified Lentz method (Thompson
 * and Barnett 1986): f_n = f_(n-1) C_n D_n with C_n = 1 + d_n / C_(n-1),
 * D_n = 1 / (1 + d_n D_(n-1)), a zero denominator replaced by a tiny
 * number; stops when C_n D_n is 1 to within a few ulps. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 4 * DBL_EPSILON;
	double f = 1, c = 1, d = 0;
	for (unsigned n = 1; n <= 1000; n++) {
		double dn = beta_cf_term(a, b, x, n);
		d = 1 + dn * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + dn / c;
		if (fabs(c) < tiny)
			c = tiny;
		double delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < eps)
			break;
	}
	return f;
}

/* I_x(a, b) for a, b > 0. */
static double beta_inc(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	int flip = x > (a + 1) / (a + b + 2);
	if (flip) {
		double t = a;
		a = b;
		b = t;
		x = 1 - x;
	}
	/* x^a (1 - x)^b / B(a, b), in logs: lgamma for B */
	double lfront = a * log(x) + b * log1p(-x) + lgamma(a + b) - lgamma(a) - lgamma(b);
	double r = exp(lfront) / (a * beta_cf(a, b, x));
	return flip ? 1 - r : r;
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0) || isinf(df))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_x(df/2, 1/2), x = df / (df + t^2) (Abramowitz and
	 * Stegun 26.7.1) */
	double tail = beta_inc(df / 2, 0.5, df / (df + t * t)) / 2;
	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0) || isinf(df))
		return NAN;
	if (p == 0.5)
		return 0;
	/* P(T > t) = I_x(df/2, 1/2) / 2 with x = df / (df + t^2), decreasing
	 * in t: solve I_x = 2 * tail for x by bisection (I_x increases in x) */
	double tail = p > 0.5 ? 1 - p : p, target = 2 * tail;
	double xlo = 0, xhi = 1;
	for (int i = 0; i < 200 && xhi - xlo > 1e-17 * xhi; i++) {
		double mid = (xlo + xhi) / 2;
		if (beta_inc(df / 2, 0.5, mid) < target)
			xlo = mid;
		else
			xhi = mid;
	}
	double x = (xlo + xhi) / 2;
	double t = sqrt(df * (1 - x) / x);
	return p > 0.5 ? t : -t;
}

int stats_mean_ci(const double *v, size_t n, double level, double *est, double *lo,
		  double *hi)
{
	*est = *lo = *hi = NAN;
	if (n == 0 || !(level > 0 && level < 1) || !stats_all_finite(v, n))
		return -EINVAL;
	double m = stats_mean(v, n);
	*est = m;
	if (n == 1)
		return 0;
	double half = stats_t_quantile(1 - (1 - level) / 2, (double)(n - 1)) *
		      stats_sd(v, n) / sqrt((double)n);
	*lo = m - half;
	*hi = m + half;
	return 0;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, double *t,
		double *df, double *p)
{
	*t = *df = *p = NAN;
	if (na < 2 || nb < 2 || !stats_all_finite(a, na) || !stats_all_finite(b, nb))
		return -EINVAL;
	double ma = stats_mean(a, na), mb = stats_mean(b, nb);
	double sa = stats_sd(a, na), sb = stats_sd(b, nb);
	double va = sa * sa / (double)na, vb = sb * sb / (double)nb;
	double se2 = va + vb;
	if (!(se2 > 0)) {   /* no spread on either side */
		*t = mb == ma ? 0 : mb > ma ? INFINITY : -INFINITY;
		*p = mb == ma ? 1 : 0;
		return 0;
	}
	double tt = (mb - ma) / sqrt(se2);
	double d = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	*t = tt;
	*df = d;
	*p = 2 * stats_t_cdf(-fabs(tt), d);
	return 0;
}

/* Schuirmann's TOST with Welch's standard error and degrees of freedom:
 * H0 is |d| >= margin, rejected when both d + margin > 0 and d - margin < 0
 * are shown one-sidedly. */
int stats_welch_tost(const double *a, size_t na, const double *b, size_t nb, double margin,
		     double *p)
{
	*p = NAN;
	if (na < 2 || nb < 2 || !stats_all_finite(a, na) || !stats_all_finite(b, nb) ||
	    !(margin > 0 && isfinite(margin)))
		return -EINVAL;
	double d = stats_mean(b, nb) - stats_mean(a, na);
	double sa = stats_sd(a, na), sb = stats_sd(b, nb);
	double va = sa * sa / (double)na, vb = sb * sb / (double)nb, se2 = va + vb;
	if (!(se2 > 0)) {
		*p = fabs(d) < margin ? 0 : 1;
		return 0;
	}
	double se = sqrt(se2);
	double df = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	double p_lo = 1 - stats_t_cdf((d + margin) / se, df);   /* H0: d <= -margin */
	double p_hi = stats_t_cdf((d - margin) / se, df);       /* H0: d >= margin */
	*p = p_lo > p_hi ? p_lo : p_hi;
	return 0;
}

int stats_log_ratio_ci(const double *la, size_t na, const double *lb, size_t nb, double level,
		       double *est, double *lo, double *hi)
{
	*est = *lo = *hi = NAN;
	if (!na || !nb || !(level > 0 && level < 1))
		return -EINVAL;
	double ma = stats_mean(la, na), mb = stats_mean(lb, nb);
	if (!isfinite(ma) || !isfinite(mb))
		return -EINVAL;
	*est = exp(mb - ma);
	if (na < 2 || nb < 2)
		return 0;
	double sa = stats_sd(la, na), sb = stats_sd(lb, nb);
	double va = sa * sa / (double)na, vb = sb * sb / (double)nb, se = sqrt(va + vb);
	if (!(se > 0)) {   /* no spread on either side */
		*lo = *hi = *est;
		return 0;
	}
	double df = (va + vb) * (va + vb) /
		    (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	double q = stats_t_quantile(0.5 + level / 2, df);
	*lo = exp(mb - ma - q * se);
	*hi = exp(mb - ma + q * se);
	return 0;
}

/* ---- robust pooling over machines ---- */

int stats_median_ci_order(const double *v, size_t n, double level, double *est, double *lo,
			  double *hi)
{
	*est = *lo = *hi = NAN;
	if (!n || !stats_all_finite(v, n) || !(level > 0 && level < 1))
		return -EINVAL;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	stats_sort(s, n);
	*est = stats_percentile_sorted(s, n, 50);
	/* P(X < k) for X ~ Binomial(n, 1/2), k = 1, 2, ...: the largest k
	 * whose tail is within (1 - level) / 2 */
	double tail = (1 - level) / 2, cdf = 0, logn2 = (double)n * log(0.5);
	size_t k = 0;
	for (size_t j = 0; j < n / 2; j++) {
		cdf += exp(lgamma((double)n + 1) - lgamma((double)j + 1) -
			   lgamma((double)(n - j) + 1) + logn2);   /* P(X = j) */
		if (cdf > tail)
			break;
		k = j + 1;
	}
	if (k) {
		*lo = s[k - 1];
		*hi = s[n - k];
	}
	free(s);
	return 0;
}
