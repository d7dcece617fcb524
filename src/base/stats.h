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
 *  - Nothing prints; only stats_summarize(), the Mann-Whitney, bootstrap,
 *    Holm and cluster helpers allocate (a sorted copy or one scratch
 *    buffer), and they return -ENOMEM when that fails.
 */
#ifndef BRISK_STATS_H
#define BRISK_STATS_H

#include <stddef.h>
#include <stdint.h>

/* An estimate with its confidence interval; NaN where not defined. */
struct stats_ci {
	double est, lo, hi;
};

/* How a bootstrap resamples: iterations (replicates, >= 1), level of the
 * interval (strictly between 0 and 1, e.g. 0.95), seed of splitmix64. */
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

/* median(b) - median(a) with its percentile bootstrap interval (each
 * group resampled bt->iterations times; a given seed gives the same
 * interval).  0; -EINVAL (out NaN) for an empty group or a bad bt; -ENOMEM. */
int stats_bootstrap_median_diff(const double *a, size_t na, const double *b, size_t nb,
				const struct stats_boot *bt, struct stats_ci *out);

/* Comparing an arm (a setting) with the baseline.
 *
 * Quantiles here are fractions q in [0, 1] (0.5 median, 0.9 p90), type 7 as
 * above.  The bootstrap draws from splitmix64 seeded with bt->seed: a given
 * seed gives the same interval, bit for bit.  bt->iterations: replicates
 * (>= 1; use >= 2000 for a 95 % interval); bt->level: e.g. 0.95, strictly
 * between 0 and 1.  Every output is set: NaN whenever the call fails,
 * never a fake number.
 *
 * stats_bootstrap_ci: percentile-bootstrap interval of the q-quantile of v,
 *   out->est the quantile of v itself.  0; -EINVAL for n == 0, q outside
 *   [0, 1], no iterations, a level outside (0, 1) or a non-finite value;
 *   -ENOMEM.
 *   Each resample is counted by rank over one sorted copy (as the
 *   paired and grouped bootstraps below): linear in n per replicate.
 *
 * stats_bootstrap_ratio: interval of quantile_q(b) / quantile_q(a), b the
 *   arm and a the baseline (< 1: the arm is faster), resampling a and b
 *   independently (b's resample drawn after a's, each replicate in turn).
 *   Method: plain percentile bootstrap of the ratio.  It is
 *   transformation-respecting, so it is the same interval as a log-scale
 *   percentile interval (log is monotone), and it needs no symmetry of the
 *   ratio's distribution, which is skewed for latencies.  Measured on
 *   lognormal latencies with a known ratio (tests/bench/compare_stats.sh,
 *   sigma 0.5 and 1, ratio 1, 1.5, 3, 2000 replicates): the 95 % interval
 *   of the ratio of medians covers 95-98 % at n = 8, 16, 32 per arm
 *   (slightly conservative: the bootstrap distribution of a median is
 *   discrete); of p90 ratios 94-97 % at n >= 16 but only about 90 % at
 *   n = 8, where a resample cannot exceed the sample's max; a caller should
 *   not rest a p90 verdict on fewer than 16 runs per arm.  Alternatives
 *   measured on the same replicates and not taken: the basic interval on
 *   the log scale undercovers (74-93 %); BCa (jackknife acceleration, which
 *   is not consistent for sample quantiles) is a little closer to 95 % for
 *   medians (95-98 %) but worse than percentile for p90 (84-96 %); one
 *   method for every quantile keeps the rule simple.
 *   Non-positive baseline: a latency ratio needs a positive base, and any
 *   baseline value <= 0 could make some resample's quantile <= 0, so the
 *   call then returns -EDOM without resampling (whether a replicate hits
 *   it would otherwise depend on the seed); out->est is the observed ratio
 *   when that is still defined (stats_ratio()), its bounds are NaN.  Otherwise
 *   errors as stats_bootstrap_ci.
 *
 * stats_holm: Holm-Bonferroni adjusted p-values, as R's
 *   p.adjust(p, "holm"): sorted ascending, the k-th smallest (k from 1)
 *   times (n - k + 1), made non-decreasing in that order, capped at 1;
 *   written to adjusted[] in the input order (adjusted may be p).  Reject
 *   hypothesis i at family-wise level alpha iff adjusted[i] < alpha.
 *   0; -EINVAL for n == 0 or a p outside [0, 1] (NaN included); -ENOMEM.
 *
 * stats_verdict: the rule for one arm x action against the baseline, from
 *   the ratio interval [ratio_lo, ratio_hi] (arm / baseline, latency) and
 *   the Holm-adjusted p of a test of that comparison (which test: below):
 *     STATS_FASTER  ratio_hi < 1 and p_adjusted < alpha
 *     STATS_SLOWER  ratio_lo > 1 and p_adjusted < alpha
 *     STATS_NO_DIFFERENCE otherwise ("no difference detectable"): the
 *       interval includes 1, the test is not significant after correction,
 *       or an input is NaN / alpha is outside (0, 1).
 *   Both must agree, so a verdict never rests on the interval alone (which
 *   is not multiplicity-corrected) nor on the test alone (which says
 *   nothing about the size or the quantile).
 *   Which test, for clustered samples (arm-runs of k samples): measured
 *   with the whole rule of `brisk compare` (compare_stats.sh parts 5, 6:
 *   4 arms x 4 actions, 12 comparisons against arm 0, Holm over them, 3
 *   looks at rounds ceil(R/3), ceil(2R/3), R at alpha 0.05 / 3 each, the
 *   grouped 95 % ratio-of-medians interval; k = 4, sigma_w 0.5; A/A 1000
 *   simulated comparisons per setting, power 500), family-wise false
 *   positive rate over all looks / power for a ratio of 0.5 on one cell:
 *                             R = 4       6           9           12
 *     sigma_b 0.3
 *       MW on samples         15 / 39 %   17 / 66 %   22 / 83 %   22 / 94 %
 *       MW on run medians      0 /  0 %    0 /  0 %  0.2 / 22 %  1.7 / 50 %
 *       Welch, log run medians 1.5 / 3 %  1.6 / 17 %  1.8 / 47 %  3.3 / 64 %
 *       Welch, log run geomeans 2.0 / 4 %  2.3 / 18 %  2.4 / 50 %  3.1 / 70 %
 *     sigma_b 0.6
 *       MW on samples         43 / 41 %   42 / 49 %   44 / 57 %   45 / 69 %
 *       MW on run medians      0 /  0 %    0 /  0 %  0.4 /  2 %  0.8 / 12 %
 *       Welch, log run medians 1.8 / 1 %  2.3 /  5 %  2.3 /  8 %  2.5 / 17 %
 *       Welch, log run geomeans 1.7 / 1 %  1.7 /  4 %  2.1 /  8 %  2.5 / 19 %
 *   Mann-Whitney on all samples treats a run's samples as independent:
 *   its "power" is bought with 15-45 % false positives, and the grouped
 *   interval does not stop them (the interval alone, uncorrected: 41-74 %).
 *   A rank test on the per-run medians is valid but cannot reach the Holm
 *   level 0.05 / 3 / 12 with fewer than about 7 runs per arm.  So the rule
 *   is: p from stats_welch() on the log of the per-run geometric means
 *   (stats_cluster_geomeans; baseline a, arm b; the medians' row is the
 *   earlier rule, which a stall on one sample of three could not move), Holm over the
 *   comparisons, stats_verdict at alpha / looks with the grouped interval.
 *   With outlier runs (10 % of arm-runs 4x slower, sigma_b 0.3, part 7)
 *   Welch stays valid: 1.3 / 1.1 % family-wise at R 6 / 12 on run
 *   medians, 0.9 / 1.0 % on run geometric means (MW on samples 32 %),
 *   power for 0.5 drops to 6 / 35 % and 7 / 36 % (MW on run medians 0 /
 *   32 %).
 *   With one run on a side, or a sample <= 0 (no log), stats_welch
 *   gives -EINVAL: count that comparison's p as 1 (no verdict).  A ratio of 0.8 is found under 3 % of the time in every setting above
 *   (MW on samples 4-16 %, with its false positives): the spread between
 *   runs, not the samples per run, limits what a comparison can tell.
 */
int stats_bootstrap_ci(const double *v, size_t n, double q, const struct stats_boot *bt,
		       struct stats_ci *out);
int stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, double q,
			  const struct stats_boot *bt, struct stats_ci *out);
int stats_holm(const double *p, size_t n, double *adjusted);

/* Clustered samples: the arm-runs of `brisk compare`.
 *
 * g[i] is the cluster of v[i] (the arm-run id: any uint32 values, in any
 * order, not necessarily contiguous).  Samples of one arm-run share its
 * load state, so they are not independent; resampling them as if they were
 * makes intervals too narrow (measured below).
 *
 * stats_bootstrap_ci_grouped: two-stage percentile bootstrap of the
 *   q-quantile of v.  Each replicate draws as many clusters as there are,
 *   with replacement, then within each drawn cluster as many samples as it
 *   has, with replacement, and takes the q-quantile of the pooled draw.
 *   out->est is the q-quantile of v itself.  Same generator, seeding and
 *   errors as stats_bootstrap_ci (and -EINVAL for g NULL).  With one
 *   cluster no cluster is drawn, so the interval is stats_bootstrap_ci's
 *   for the same v and seed, bit for bit (samples keep their input order
 *   within a cluster; clusters are taken in ascending id order).
 *
 * stats_bootstrap_ratio_grouped: interval of quantile_q(b) / quantile_q(a),
 *   b the arm and a the baseline, each side resampled two-stage as above
 *   (b's replicate drawn after a's, each replicate in turn; one cluster on
 *   each side gives stats_bootstrap_ratio's interval bit for bit).
 *   Non-positive baseline: -EDOM, out->est as stats_bootstrap_ratio.
 *
 * Both allocate one scratch buffer per call (grown once when clusters are
 * unequal) and select quantiles instead of sorting: 2000 replicates of a
 * p50, p90, p99 and max interval for each of 4 arms x 4 actions plus the
 * 3 x 4 ratio intervals of p50 and p90, 10 arm-runs x 4 samples each, take
 * 32 ms of CPU on the 2-core VM; the CI of p50 and the p50 ratio alone
 * 12 ms (tests/bench/compare_stats.sh part 3, best of 5, CPU time; up to
 * 41 / 13 ms while other jobs share the cores; with qsort per replicate
 * instead of counting ranks and selecting it was 120 / 55 ms).
 *
 * Coverage of the 95 % ratio interval on clustered lognormal latencies
 * with a known ratio (1.5 for every quantile: the arm is the baseline
 * scaled), each arm-run a random effect of sigma_b 0.3 or 0.6 times
 * within-run noise of sigma 0.5, R = 3, 5, 8, 12 rounds x k = 4, 8
 * samples, 1000 data sets per row, 2000 replicates (compare_stats.sh
 * part 4; Monte Carlo s.e. 0.7 points):
 *                       plain (ungrouped)          grouped (two-stage)
 *   sigma_b 0.3, p50    81-93 % (k 8: 81-84 %)     93-98 %
 *   sigma_b 0.3, p90    84-93 %                    95-98.5 %
 *   sigma_b 0.6, p50    68-84 %                    R 3: 90.5-92.5 %, R >= 5: 93.5-97 %
 *   sigma_b 0.6, p90    64-85 %                    R 3: 89.5-90 %, R >= 5: 93-97.5 %
 * The plain interval treats the samples of a run as independent and is
 * far too narrow, the more so the more samples per run.  The grouped one
 * is slightly conservative when runs differ little (its within-run stage
 * counts the within-run spread a second time) and undercovers with 3
 * runs per arm, where three clusters cannot show the spread between runs:
 * rest no verdict on fewer than 5 rounds.  Its hi/lo is 1.3-2.2 times the
 * plain one's: the price of the runs' own variation.
 */
int stats_bootstrap_ci_grouped(const double *v, const uint32_t *g, size_t n, double q,
			       const struct stats_boot *bt, struct stats_ci *out);
int stats_bootstrap_ratio_grouped(const double *a, const uint32_t *ga, size_t na,
				  const double *b, const uint32_t *gb, size_t nb, double q,
				  const struct stats_boot *bt, struct stats_ci *out);

/* stats_bootstrap_ratio_paired: the ratio of an arm to its baseline over
 *   paired clusters (the machines of a fleet that measured both), each
 *   cluster one vote.  Cluster k holds the baseline's samples
 *   a[aoff[k] .. aoff[k + 1]) and the arm's b[boff[k] .. boff[k + 1]),
 *   both non-empty (aoff and boff hold nc + 1 offsets, non-decreasing).
 *   Its own ratio is quantile_q(b_k) / quantile_q(a_k); out->est is the
 *   geometric mean of the nc own ratios, written to per[] (may be NULL;
 *   nc values) for a count of the clusters that agree.  The interval is a
 *   two-stage percentile bootstrap: each replicate draws nc clusters with
 *   replacement (no draw when nc is 1), then, within each drawn cluster,
 *   its baseline samples and its arm samples with replacement (each side
 *   its own size), and takes the geometric mean of the drawn clusters'
 *   ratios.  Drawing a cluster's two sides together keeps the pairing: a
 *   machine that is slow under every setting moves both of its sides,
 *   and its ratio cancels that, where stats_bootstrap_ratio_grouped
 *   (each side's clusters drawn on their own) would count the spread
 *   between machines against the ratio.  Same generator and seeding as
 *   above; bt as stats_bootstrap_ci.  0; -EINVAL for nc 0,
 *   an empty side, offsets out of order or a non-finite value (outputs
 *   NaN); -EDOM when a value is not above 0 (no ratio, no log); -ENOMEM.
 *   Each cluster's sides are sorted once (a ranked copy of a and b); a
 *   replicate counts how often it drew each rank and reads its quantile
 *   off the counts, so a replicate costs the drawn clusters' sizes, not
 *   their sizes times their logarithm: the same interval as sorting each
 *   drawn side, bit for bit (a 16 MiB result of 105k samples: 2 s of CPU
 *   for `brisk report` instead of 48 s).  Allocates the ranked copy. */
int stats_bootstrap_ratio_paired(const double *a, const size_t *aoff, const double *b,
				 const size_t *boff, size_t nc, double q,
				 const struct stats_boot *bt, struct stats_ci *out, double *per);

/* stats_mean_ci: the mean of v with a Student-t interval at `level`
 *   (mean +- t(1 - (1 - level) / 2, n - 1) * sd / sqrt(n)).  0; n == 1
 *   gives *est with NaN bounds and 0; -EINVAL (every output NaN) for
 *   n == 0, a non-finite value or level outside (0, 1).  No allocation.
 * stats_t_quantile: the p-quantile of Student's t with df degrees of
 *   freedom (df > 0, need not be whole), by bisection on stats_t_cdf:
 *   within 1e-9 of the tables.  NaN for p outside (0, 1), df <= 0 or not
 *   finite.
 * stats_t_cdf: P(T <= t) for Student's t with df degrees of freedom
 *   (df > 0), from the regularized incomplete beta (DLMF 8.17.22, its
 *   continued fraction by the modified Lentz method): within 1e-13 of R's
 *   pt().  NaN for t NaN or df <= 0 or not finite. */
/* stats_cluster_quantiles: the q-quantile of each cluster of v (g as
 *   above), written to out[0 .. *n_out) in ascending cluster id order;
 *   out must hold n values (there are at most n clusters).  For a test on
 *   the arm-runs rather than on the samples (stats_welch on the log of the
 *   per-run medians: see stats_verdict).  0; -EINVAL (*n_out 0) for
 *   n == 0, g NULL, q outside [0, 1] or a non-finite value; -ENOMEM. */
int stats_cluster_quantiles(const double *v, const uint32_t *g, size_t n, double q,
			    double *out, size_t *n_out);
/* stats_cluster_geomeans: the geometric mean of each cluster of v (as
 *   stats_cluster_quantiles: ascending cluster id, out holds n values).
 *   The arm-run summary `brisk compare` tests (stats_welch on its log):
 *   every sample of a run counts, so a stall that hits one position of
 *   every run (the first sample after the writer starts) is not voted
 *   away by a median of three.  0; -EINVAL as above; -EDOM (*n_out 0)
 *   when a value is not above 0 (no log); -ENOMEM. */
int stats_cluster_geomeans(const double *v, const uint32_t *g, size_t n, double *out,
			   size_t *n_out);

int stats_mean_ci(const double *v, size_t n, double level, double *est, double *lo,
		  double *hi);
double stats_t_quantile(double p, double df);
double stats_t_cdf(double t, double df);

/* stats_welch: Welch's two-sample t test of mean(b) - mean(a) (unequal
 *   variances, Welch-Satterthwaite df); *p two-sided, from the same
 *   incomplete beta as stats_t_quantile.  Meant for the log of per-run
 *   medians (stats_cluster_quantiles), where a rank test on a handful of
 *   runs cannot reach a Holm-corrected level: see stats_verdict.  When
 *   neither side has any spread, *t is 0 (*p 1) for equal means, else
 *   +-inf (*p 0), and *df NaN.  0; -EINVAL (outputs NaN) when a side has
 *   fewer than 2 values or a non-finite one. */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, double *t,
		double *df, double *p);

/* stats_log_ratio_ci: exp(mean(lb) - mean(la)) with the Welch t interval
 *   at `level` (the interval of the same model as stats_welch), for logs
 *   of per-run medians: the ratio of the typical run medians, b / a.  With
 *   fewer than 2 values on a side *est only (bounds NaN), 0; with no spread
 *   on either side the bounds equal *est.  -EINVAL (all NaN) for an empty
 *   side, a non-finite mean or level outside (0, 1).  Coverage of the 95 %
 *   interval on the clustered simulation (compare_stats.sh, part 8: true
 *   ratio 1, 1.5, 3; sigma_b 0.3 and 0.6; 3-12 rounds x 2-4 samples; 2000
 *   repetitions per cell): 94.0-97.0 %, 95-97 % at 3-4 rounds. */
int stats_log_ratio_ci(const double *la, size_t na, const double *lb, size_t nb, double level,
		       double *est, double *lo, double *hi);

enum stats_verdict {
	STATS_NO_DIFFERENCE = 0,
	STATS_FASTER,
	STATS_SLOWER,
};
enum stats_verdict stats_verdict(double ratio_lo, double ratio_hi,
				 double p_adjusted, double alpha);
/* "faster", "slower", "no difference detectable" */
const char *stats_verdict_name(enum stats_verdict v);

/* Small, fast, seedable generator (splitmix64) shared by the engine. */
uint64_t stats_rand_next(uint64_t *state);
/* Uniform in [lo, hi] (inclusive); lo <= hi. */
uint64_t stats_rand_range(uint64_t *state, uint64_t lo, uint64_t hi);
/* Uniform in [0, n), n >= 1: one draw, multiply-shift of its high 32 bits
 * when n < 2^32 (no division; bias below n / 2^32), else modulo.  The
 * bootstraps draw their indexes with it. */
uint64_t stats_rand_index(uint64_t *state, uint64_t n);

/* ---- robust pooling over machines (brisk report) ---- */

/* stats_median_ci_order: the median of v (n values, not changed) with the
 *   distribution-free interval of order statistics: [x(k), x(n+1-k)] for
 *   the largest k with P(Binomial(n, 1/2) < k) <= (1 - level) / 2, which
 *   covers the true median with at least `level` whatever the values'
 *   distribution.  Bounds NaN when n is too small for any k (n < 6 at
 *   95 %).  0; -EINVAL (outputs NaN) for n 0, a non-finite value or level
 *   outside (0, 1); -ENOMEM. */
int stats_median_ci_order(const double *v, size_t n, double level, double *est, double *lo,
			  double *hi);
/* stats_bootstrap_median_ratio_paired: stats_bootstrap_ratio_paired made
 *   robust.  Each cluster's own ratio quantile_q(b_k) / quantile_q(a_k)
 *   is bounded to [1/cap, cap] (cap > 1); out->est is the median of the nc
 *   own ratios (written to per[], may be NULL), and each replicate (the
 *   same two-stage draw: clusters, then each drawn cluster's two sides)
 *   the median of its drawn clusters' bounded ratios; percentile
 *   interval at level.  A minority of clusters, however extreme, moves
 *   neither the estimate nor the interval beyond the majority's own
 *   ratios (a median's breakdown point is one half; the geometric mean's
 *   is 0).  0; errors as stats_bootstrap_ratio_paired, and -EINVAL for
 *   cap <= 1. */
int stats_bootstrap_median_ratio_paired(const double *a, const size_t *aoff, const double *b,
					const size_t *boff, size_t nc, double q,
					const struct stats_boot *bt, double cap,
					struct stats_ci *out, double *per);

#endif
