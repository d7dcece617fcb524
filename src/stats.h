/* stats — descriptive statistics of latency samples and a significance test.
 *
 * Contract:
 *  - Inputs are plain arrays of doubles in any unit; nothing is modified
 *    unless the name says "sorted" (the caller sorted it ascending).
 *  - Percentiles interpolate linearly between closest ranks (Hyndman-Fan
 *    type 7, the default of R and numpy): p0 = min, p100 = max.
 *  - sd is the sample standard deviation (n - 1); 0 for n < 2.
 *  - Empty input gives n = 0 and every figure NaN (never a fake zero).
 *  - stats_ratio() is NaN when either side is NaN or the base is <= 0.
 *  - Nothing prints; only stats_summarize() and the significance helpers
 *    allocate (a sorted copy), and they return -ENOMEM when that fails.
 */
#ifndef BRISK_STATS_H
#define BRISK_STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats_summary {
	size_t n;
	double min, p50, p90, p99, max;
	double mean, sd;
	double pct_over_2s, pct_over_10s;   /* % of samples strictly above */
};

int stats_summarize(const double *v, size_t n, double thr_2s, double thr_10s,
		    struct stats_summary *out);
double stats_percentile_sorted(const double *sorted, size_t n, double p);
double stats_mean(const double *v, size_t n);
double stats_sd(const double *v, size_t n);
double stats_pct_over(const double *v, size_t n, double threshold);
double stats_ratio(double value, double base);
void stats_sort(double *v, size_t n);

/* Mann-Whitney U test of two independent samples (normal approximation
 * with tie and continuity correction).  *p gets the two-sided p-value.
 * 0, -EINVAL when either sample is empty, -ENOMEM. */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       double *u, double *p);

/* Percentile bootstrap confidence interval for median(b) - median(a),
 * resampling each group `iters` times with a seeded generator (results
 * are reproducible for a given seed).  level e.g. 0.95. */
int stats_bootstrap_median_diff(const double *a, size_t na,
				const double *b, size_t nb,
				unsigned iters, double level, uint64_t seed,
				double *lo, double *hi);

/* Small, fast, seedable generator (splitmix64) shared by the engine. */
uint64_t stats_rand_next(uint64_t *state);
/* Uniform in [lo, hi] (inclusive); lo <= hi. */
uint64_t stats_rand_range(uint64_t *state, uint64_t lo, uint64_t hi);

#endif
