/* stats — statistics of latency samples: descriptive figures, and the
 * tests and intervals `brisk compare` and `brisk report` rest on.
 *
 * Inputs are plain arrays of doubles in any unit, never changed unless the
 * name says "sorted".  Percentiles p (0..100) and quantiles q (0..1) are
 * Hyndman-Fan type 7, R's and numpy's default; sd is the sample sd (n - 1).
 * A figure that is not defined is NaN, never a fake 0, and a call that
 * fails leaves its outputs NaN.  Errors: -EINVAL, -EDOM (a value no log
 * or ratio can take), -ENOMEM.  Nothing prints.  Bootstraps draw from
 * stats_rand_*: a given seed gives the same interval, bit for bit.  Why
 * each method, with what was measured: stats.c (the verdict's test) and
 * stats_boot.c (the intervals); for users, brisk-compare(1) STATISTICS.
 */
#ifndef BRISK_STATS_H
#define BRISK_STATS_H

#include <stddef.h>
#include <stdint.h>

/* An estimate with its confidence interval; NaN where not defined. */
struct stats_ci {
	double est, lo, hi;
};

/* How a bootstrap resamples: iterations (replicates, >= 1; 2000 for a
 * 95 % interval), level of the interval (in (0, 1)), seed. */
struct stats_boot {
	unsigned iterations;
	double level;
	uint64_t seed;
};

struct stats_summary {
	size_t n;
	double min, p50, p90, p99, max;
	double mean, sd;
	double pct_over_2s, pct_over_10s;   /* % of samples strictly above */
};

/* *out of v (through a sorted copy); n 0 gives every figure NaN.  0 or
 * -ENOMEM. */
int stats_summarize(const double *v, size_t n, double thr_2s, double thr_10s,
		    struct stats_summary *out);
/* The p-th percentile of sorted[] (ascending): p <= 0 the min, >= 100 the
 * max; NaN for n 0 or p NaN. */
double stats_percentile_sorted(const double *sorted, size_t n, double p);
/* Mean; sample sd (0 for n 1); % of values strictly above threshold.  NaN
 * for n 0. */
double stats_mean(const double *v, size_t n);
double stats_sd(const double *v, size_t n);
double stats_pct_over(const double *v, size_t n, double threshold);
/* value / base; NaN when either is NaN or base <= 0. */
double stats_ratio(double value, double base);
void stats_sort(double *v, size_t n);

/* Mann-Whitney U of two independent samples, *p two-sided (normal
 * approximation, tie and continuity corrected).  0; -EINVAL a side empty. */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       double *u, double *p);
/* Holm-adjusted p-values as R's p.adjust(p, "holm"), into adjusted[] in
 * input order (may be p).  -EINVAL for n 0 or a p outside [0, 1]. */
int stats_holm(const double *p, size_t n, double *adjusted);

/* ---- bootstraps (stats_boot.c): percentile intervals at bt->level;
 * -EINVAL for an empty side, q outside [0, 1], a bad bt or a non-finite
 * value.  b is the arm, a the baseline: a ratio below 1 is faster. ---- */

/* median(b) - median(a), a and b resampled independently. */
int stats_bootstrap_median_diff(const double *a, size_t na, const double *b, size_t nb,
				const struct stats_boot *bt, struct stats_ci *out);
/* The q-quantile of v. */
int stats_bootstrap_ci(const double *v, size_t n, double q, const struct stats_boot *bt,
		       struct stats_ci *out);
/* quantile_q(b) / quantile_q(a), each side resampled on its own (a's
 * draw first); -EDOM for a value of a <= 0, out->est then the observed
 * ratio while it is defined. */
int stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, double q,
			  const struct stats_boot *bt, struct stats_ci *out);
/* The same over clusters, g[i] the cluster of v[i] (any ids; -EINVAL for
 * g NULL): each replicate draws the clusters with replacement, then the
 * samples within each drawn one.  One cluster: the plain interval, bit for
 * bit. */
int stats_bootstrap_ci_grouped(const double *v, const uint32_t *g, size_t n, double q,
			       const struct stats_boot *bt, struct stats_ci *out);
int stats_bootstrap_ratio_grouped(const double *a, const uint32_t *ga, size_t na,
				  const double *b, const uint32_t *gb, size_t nb, double q,
				  const struct stats_boot *bt, struct stats_ci *out);
/* Paired clusters: cluster k is a[aoff[k] .. aoff[k + 1]) against
 * b[boff[k] .. boff[k + 1]) (nc + 1 offsets, both sides non-empty); a
 * replicate draws nc clusters, then each drawn one's two sides.  out->est:
 * the geometric mean of the clusters' own q-quantile ratios, or for the
 * median variant the median of them bounded to [1/cap, cap] (cap > 1);
 * per[] (may be NULL) gets the nc own ratios.  -EDOM for a value <= 0. */
int stats_bootstrap_ratio_paired(const double *a, const size_t *aoff, const double *b,
				 const size_t *boff, size_t nc, double q,
				 const struct stats_boot *bt, struct stats_ci *out, double *per);
int stats_bootstrap_median_ratio_paired(const double *a, const size_t *aoff, const double *b,
					const size_t *boff, size_t nc, double q,
					const struct stats_boot *bt, double cap,
					struct stats_ci *out, double *per);

/* One figure per cluster of v (g as above) into out[] (room for n) in
 * ascending id order, *n_out of them: the q-quantile, or the geometric
 * mean (-EDOM for a value <= 0).  -EINVAL for n 0, g NULL, a bad q or a
 * non-finite value. */
int stats_cluster_quantiles(const double *v, const uint32_t *g, size_t n, double q,
			    double *out, size_t *n_out);
int stats_cluster_geomeans(const double *v, const uint32_t *g, size_t n, double *out,
			   size_t *n_out);

/* ---- Student t and order statistics (stats.c) ---- */

/* mean(v) with the t interval at level (bounds NaN for n 1).  -EINVAL
 * (all NaN) for n 0, a non-finite value or level outside (0, 1). */
int stats_mean_ci(const double *v, size_t n, double level, double *est, double *lo,
		  double *hi);
/* Student's t with df > 0 degrees of freedom: the p-quantile (within 1e-9
 * of the tables) and P(T <= t) (within 1e-13 of R's pt()); NaN for bad
 * arguments. */
double stats_t_quantile(double p, double df);
double stats_t_cdf(double t, double df);
/* Welch's t test of mean(b) - mean(a), *p two-sided; no spread on either
 * side: *t 0 or +-inf, *p 1 or 0, *df NaN.  -EINVAL (outputs NaN) for a
 * side with fewer than 2 values or a non-finite one. */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, double *t,
		double *df, double *p);
/* Two one-sided Welch tests that |mean(b) - mean(a)| < margin (> 0, in the
 * values' unit): *p the larger of the two one-sided p-values, below alpha
 * when the (1 - 2 alpha) interval lies inside (-margin, margin); no spread:
 * 0 inside, 1 outside.  -EINVAL (*p NaN) as stats_welch() or a bad margin. */
int stats_welch_tost(const double *a, size_t na, const double *b, size_t nb, double margin,
		     double *p);
/* exp(mean(lb) - mean(la)) with the Welch interval at level (logs of
 * per-run figures: the ratio of the typical runs); bounds NaN with fewer
 * than 2 values a side, equal to *est with no spread.  -EINVAL (all NaN)
 * for an empty side, a non-finite mean or a bad level. */
int stats_log_ratio_ci(const double *la, size_t na, const double *lb, size_t nb, double level,
		       double *est, double *lo, double *hi);
/* The median of v with the distribution-free order-statistic interval
 * that covers it at least at level (bounds NaN when n is too small: n < 6
 * at 95 %).  -EINVAL (all NaN) for n 0, a non-finite value or a bad level. */
int stats_median_ci_order(const double *v, size_t n, double level, double *est, double *lo,
			  double *hi);

/* ---- the verdict ---- */

enum stats_verdict {
	STATS_NO_DIFFERENCE = 0,
	STATS_FASTER,
	STATS_SLOWER,
	STATS_EQUIVALENT,   /* within a margin (compare's TOST), never from stats_verdict() */
};
/* FASTER when ratio_hi < 1, SLOWER when ratio_lo > 1, either only with
 * p_adjusted < alpha; otherwise (a NaN, alpha outside (0, 1)) none. */
enum stats_verdict stats_verdict(double ratio_lo, double ratio_hi,
				 double p_adjusted, double alpha);
/* "faster", "slower", "equivalent", "no difference detectable" */
const char *stats_verdict_name(enum stats_verdict v);

/* ---- the generator: splitmix64 ---- */

uint64_t stats_rand_next(uint64_t *state);
/* Uniform in [lo, hi] (lo <= hi). */
uint64_t stats_rand_range(uint64_t *state, uint64_t lo, uint64_t hi);
/* Uniform in [0, n), n >= 1, from one draw: multiply-shift of its high 32
 * bits when n < 2^32 (bias below n / 2^32), else modulo. */
uint64_t stats_rand_index(uint64_t *state, uint64_t n);

#endif
