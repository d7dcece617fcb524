/* Statistics against known data: numpy/R type-7 percentiles, sample sd,
 * threshold shares, slowdown ratios, Mann-Whitney (R wilcox.test with
 * exact=FALSE, correct=TRUE), the seeded bootstrap (quantile and ratio
 * intervals), Holm adjustment (R p.adjust) and the compare verdict rule;
 * the grouped (two-stage) bootstrap over arm-runs, per-cluster quantiles,
 * Student-t quantiles (tables), the mean's t interval and Welch's test
 * (t.test, values from mpmath). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <errno.h>
#include <cmocka.h>

#include "stats.h"

/* The bootstrap parameters as one argument. */
#define BOOT(iters, level, seed) (&(struct stats_boot){ (iters), (level), (seed) })

static const double one_to_ten[] = { 7, 3, 10, 1, 5, 9, 2, 8, 6, 4 };

static void test_summary(void **state)
{
	(void)state;
	struct stats_summary s;
	assert_int_equal(stats_summarize(one_to_ten, 10, 2000, 10000, &s), 0);
	assert_int_equal(s.n, 10);
	assert_float_equal(s.min, 1, 1e-12);
	assert_float_equal(s.max, 10, 1e-12);
	assert_float_equal(s.p50, 5.5, 1e-12);    /* numpy.percentile(1..10, 50) */
	assert_float_equal(s.p90, 9.1, 1e-12);
	assert_float_equal(s.p99, 9.91, 1e-12);
	assert_float_equal(s.mean, 5.5, 1e-12);
	assert_float_equal(s.sd, 3.0276503540974917, 1e-12);
	assert_float_equal(s.pct_over_2s, 0, 1e-12);
	/* the input is not reordered */
	assert_float_equal(one_to_ten[0], 7, 0);
}

static void test_percentile_edges(void **state)
{
	(void)state;
	const double one[] = { 42 };
	assert_float_equal(stats_percentile_sorted(one, 1, 0), 42, 0);
	assert_float_equal(stats_percentile_sorted(one, 1, 50), 42, 0);
	assert_float_equal(stats_percentile_sorted(one, 1, 100), 42, 0);
	const double two[] = { 10, 20 };
	assert_float_equal(stats_percentile_sorted(two, 2, 25), 12.5, 1e-12);
	assert_float_equal(stats_percentile_sorted(two, 2, 99), 19.9, 1e-12);
	assert_true(isnan(stats_percentile_sorted(two, 0, 50)));
	struct stats_summary s;
	assert_int_equal(stats_summarize(two, 0, 1, 2, &s), 0);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.p50) && isnan(s.mean) && isnan(s.sd) && isnan(s.pct_over_2s));
	assert_int_equal(stats_summarize(one, 1, 1, 2, &s), 0);
	assert_float_equal(s.sd, 0, 0);
}

static void test_thresholds(void **state)
{
	(void)state;
	const double v[] = { 100, 2500, 12000, 1999, 2000 };   /* ms */
	struct stats_summary s;
	assert_int_equal(stats_summarize(v, 5, 2000, 10000, &s), 0);
	assert_float_equal(s.pct_over_2s, 40, 1e-12);    /* strictly above: 2000 is not */
	assert_float_equal(s.pct_over_10s, 20, 1e-12);
	assert_float_equal(stats_pct_over(v, 5, 0), 100, 1e-12);
	assert_float_equal(stats_pct_over(v, 5, 12000), 0, 1e-12);
}

static void test_slowdown(void **state)
{
	(void)state;
	const double idle[] = { 10, 12, 8, 11, 9 };
	const double loaded[] = { 30, 36, 24, 33, 27 };
	struct stats_summary i, l;
	stats_summarize(idle, 5, 2000, 10000, &i);
	stats_summarize(loaded, 5, 2000, 10000, &l);
	assert_float_equal(stats_ratio(l.p50, i.p50), 3.0, 1e-12);
	assert_float_equal(stats_ratio(l.p99, i.p99), 3.0, 1e-12);
	assert_true(isnan(stats_ratio(5, 0)));
	assert_true(isnan(stats_ratio(NAN, 1)));
	assert_true(isnan(stats_ratio(1, NAN)));
}

static void test_mann_whitney(void **state)
{
	(void)state;
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	double u, p;
	assert_int_equal(stats_mann_whitney(a, 5, b, 5, &u, &p), 0);
	assert_float_equal(u, 0, 0);
	assert_float_equal(p, 0.012185780355344818, 1e-9);
	/* ties: R gives W = 2.5, p-value = 0.1367 */
	const double c[] = { 1, 2, 2, 3 }, d[] = { 2, 3, 4, 5 };
	assert_int_equal(stats_mann_whitney(c, 4, d, 4, &u, &p), 0);
	assert_float_equal(u, 2.5, 1e-12);
	assert_float_equal(p, 0.13665824773814753, 1e-9);
	/* the same sample twice: no difference */
	assert_int_equal(stats_mann_whitney(a, 5, a, 5, &u, &p), 0);
	assert_true(p > 0.99);
	const double e[] = { 3, 3, 3 };
	assert_int_equal(stats_mann_whitney(e, 3, e, 3, &u, &p), 0);
	assert_float_equal(p, 1, 0);
	assert_int_equal(stats_mann_whitney(a, 0, b, 5, &u, &p), -EINVAL);
}

static void test_bootstrap(void **state)
{
	(void)state;
	const double a[] = { 10, 10, 10, 10 }, b[] = { 25, 25, 25 };
	struct stats_ci ci, ci2;
	assert_int_equal(stats_bootstrap_median_diff(a, 4, b, 3, BOOT(500, 0.95, 1), &ci), 0);
	assert_float_equal(ci.est, 15, 0);
	assert_float_equal(ci.lo, 15, 0);
	assert_float_equal(ci.hi, 15, 0);
	/* a real spread: CI contains the observed difference, and the same seed
	 * gives the same interval */
	const double x[] = { 10, 12, 9, 11, 10, 13, 8, 10 }, y[] = { 20, 22, 19, 25, 21, 18, 20, 23 };
	assert_int_equal(stats_bootstrap_median_diff(x, 8, y, 8, BOOT(2000, 0.95, 42), &ci), 0);
	assert_float_equal(ci.est, 10.5, 0);   /* 20.5 - 10 */
	assert_true(ci.lo <= 10.5 && ci.hi >= 10.5 && ci.lo > 0);
	assert_int_equal(stats_bootstrap_median_diff(x, 8, y, 8, BOOT(2000, 0.95, 42), &ci2), 0);
	assert_float_equal(ci.lo, ci2.lo, 0);
	assert_float_equal(ci.hi, ci2.hi, 0);
	assert_int_equal(stats_bootstrap_median_diff(x, 0, y, 8, BOOT(10, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_median_diff(x, 8, y, 8, BOOT(10, 1.5, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
}

static void test_bootstrap_ci(void **state)
{
	(void)state;
	struct stats_ci ci, ci2;
	assert_int_equal(stats_bootstrap_ci(one_to_ten, 10, 0.5, BOOT(2000, 0.95, 3), &ci), 0);
	assert_float_equal(ci.est, 5.5, 1e-12);              /* median(1..10) */
	assert_true(ci.lo >= 1 && ci.lo < 5.5 && ci.hi > 5.5 && ci.hi <= 10);
	/* same seed, same interval, bit for bit */
	assert_int_equal(stats_bootstrap_ci(one_to_ten, 10, 0.5, BOOT(2000, 0.95, 3), &ci2), 0);
	assert_true(ci.lo == ci2.lo && ci.hi == ci2.hi && ci.est == ci2.est);
	/* p90: type 7 like stats_summarize */
	assert_int_equal(stats_bootstrap_ci(one_to_ten, 10, 0.9, BOOT(2000, 0.95, 3), &ci), 0);
	assert_float_equal(ci.est, 9.1, 1e-12);
	assert_true(ci.lo <= 9.1 && ci.hi >= 9.1 && ci.hi <= 10);
	/* every value equal: a zero-width interval at that value */
	const double same[] = { 4, 4, 4, 4, 4 };
	assert_int_equal(stats_bootstrap_ci(same, 5, 0.5, BOOT(100, 0.95, 1), &ci), 0);
	assert_true(ci.est == 4 && ci.lo == 4 && ci.hi == 4);
	/* many ties: the interval stays on the data */
	const double tied[] = { 7, 7, 7, 7, 7, 7, 9, 7, 7, 30 };
	assert_int_equal(stats_bootstrap_ci(tied, 10, 0.5, BOOT(2000, 0.95, 5), &ci), 0);
	assert_true(ci.est == 7 && ci.lo == 7 && ci.hi >= 7 && ci.hi <= 30);
	/* degenerate input: -EINVAL and NaN, never a number */
	const double bad[] = { 1, NAN, 3 };
	assert_int_equal(stats_bootstrap_ci(one_to_ten, 0, 0.5, BOOT(100, 0.95, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ci(bad, 3, 0.5, BOOT(100, 0.95, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ci(one_to_ten, 10, 1.5, BOOT(100, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ci(one_to_ten, 10, NAN, BOOT(100, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ci(one_to_ten, 10, 0.5, BOOT(0, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ci(one_to_ten, 10, 0.5, BOOT(100, 1, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
}

static void test_bootstrap_ratio(void **state)
{
	(void)state;
	const double x[] = { 10, 12, 9, 11, 10, 13, 8, 10 };
	const double y[] = { 20, 22, 19, 25, 21, 18, 20, 23 };   /* about 2x */
	struct stats_ci ci, ci2;
	/* identical samples: ratio 1 and the interval contains it */
	assert_int_equal(stats_bootstrap_ratio(x, 8, x, 8, 0.5, BOOT(2000, 0.95, 11), &ci), 0);
	assert_float_equal(ci.est, 1, 1e-12);
	assert_true(ci.lo < 1 && ci.hi > 1);
	/* a clear 2x shift: median 20.5 / 10 and the interval excludes 1 */
	assert_int_equal(stats_bootstrap_ratio(x, 8, y, 8, 0.5, BOOT(2000, 0.95, 11), &ci), 0);
	assert_float_equal(ci.est, 2.05, 1e-12);
	assert_true(ci.lo > 1 && ci.lo <= 2.05 && ci.hi >= 2.05);
	/* and the other way round: the arm faster, the interval below 1 */
	assert_int_equal(stats_bootstrap_ratio(y, 8, x, 8, 0.5, BOOT(2000, 0.95, 11), &ci), 0);
	assert_true(ci.hi < 1 && ci.lo <= ci.est && ci.est <= ci.hi);
	/* reproducible with a fixed seed */
	assert_int_equal(stats_bootstrap_ratio(x, 8, y, 8, 0.9, BOOT(2000, 0.95, 99), &ci), 0);
	assert_int_equal(stats_bootstrap_ratio(x, 8, y, 8, 0.9, BOOT(2000, 0.95, 99), &ci2), 0);
	assert_true(ci.est == ci2.est && ci.lo == ci2.lo && ci.hi == ci2.hi);
	/* many ties on both sides do not break it */
	const double ta[] = { 10, 10, 10, 10, 10, 10, 11, 10 };
	const double tb[] = { 20, 20, 20, 21, 20, 20, 20, 20 };
	assert_int_equal(stats_bootstrap_ratio(ta, 8, tb, 8, 0.5, BOOT(2000, 0.95, 4), &ci), 0);
	assert_float_equal(ci.est, 2, 1e-12);
	assert_true(isfinite(ci.lo) && isfinite(ci.hi) && ci.lo > 1 && ci.lo <= 2 && ci.hi >= 2);
	assert_int_equal(stats_bootstrap_ratio(ta, 8, ta, 8, 0.5, BOOT(2000, 0.95, 4), &ci), 0);
	assert_true(ci.est == 1 && ci.lo <= 1 && ci.hi >= 1);
	/* a non-positive baseline value: -EDOM, no interval; the observed
	 * ratio is still given while it is defined */
	const double z[] = { 0, 10, 10, 12 }, zz[] = { 0, 0, 0 }, neg[] = { -1, 5, 6 };
	assert_int_equal(stats_bootstrap_ratio(z, 4, x, 8, 0.5, BOOT(100, 0.95, 1), &ci), -EDOM);
	assert_float_equal(ci.est, 1, 1e-12);   /* 10 / 10 */
	assert_true(isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ratio(zz, 3, x, 8, 0.5, BOOT(100, 0.95, 1), &ci), -EDOM);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ratio(neg, 3, x, 8, 0.5, BOOT(100, 0.95, 1), &ci), -EDOM);
	assert_true(isnan(ci.lo) && isnan(ci.hi));
	/* empty or invalid: -EINVAL and NaN */
	const double inf[] = { 1, INFINITY };
	assert_int_equal(stats_bootstrap_ratio(x, 0, y, 8, 0.5, BOOT(100, 0.95, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ratio(x, 8, y, 0, 0.5, BOOT(100, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ratio(x, 8, inf, 2, 0.5, BOOT(100, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ratio(x, 8, y, 8, -0.1, BOOT(100, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ratio(x, 8, y, 8, 0.5, BOOT(100, 0, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
}

static void test_mann_whitney_ties(void **state)
{
	(void)state;
	/* mostly one value on both sides: a finite p, symmetric in a and b */
	const double a[] = { 10, 10, 10, 10, 10, 10, 10, 11 };
	const double b[] = { 10, 10, 10, 10, 10, 10, 11, 11 };
	double u, p, u2, p2;
	assert_int_equal(stats_mann_whitney(a, 8, b, 8, &u, &p), 0);
	assert_true(isfinite(p) && p > 0.3 && p <= 1);
	assert_int_equal(stats_mann_whitney(b, 8, a, 8, &u2, &p2), 0);
	assert_float_equal(p, p2, 1e-12);
	assert_float_equal(u + u2, 64, 1e-12);   /* U_a + U_b = na * nb */
	/* ties within each side but separated: clearly significant */
	const double c[] = { 10, 10, 10, 10, 10, 10, 10, 10 };
	const double d[] = { 20, 20, 20, 20, 20, 20, 20, 20 };
	assert_int_equal(stats_mann_whitney(c, 8, d, 8, &u, &p), 0);
	assert_float_equal(u, 0, 0);
	assert_true(isfinite(p) && p < 0.001);
}

/* stats_holm(p) is want[], each within tol. */
static void holm_is(const double *p, size_t n, const double *want, double tol)
{
	double adj[8];
	assert_true(n <= 8);
	assert_int_equal(stats_holm(p, n, adj), 0);
	for (size_t i = 0; i < n; i++)
		assert_float_equal(adj[i], want[i], tol);
}

static void test_holm(void **state)
{
	(void)state;
	double adj[5];
	/* R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm")
	 *   = 0.03 0.06 0.06 0.02, by hand: sorted 0.005 0.01 0.03 0.04 times
	 *   4 3 2 1 = 0.02 0.03 0.06 0.04, cummax 0.02 0.03 0.06 0.06 */
	const double p1[] = { 0.01, 0.04, 0.03, 0.005 };
	holm_is(p1, 4, (const double[]){ 0.03, 0.06, 0.06, 0.02 }, 1e-12);
	/* R: p.adjust(c(0.5, 0.2, 0.8), "holm") = 1.0 0.6 1.0
	 *   (0.2*3 = 0.6, 0.5*2 = 1.0, 0.8*1 = 0.8 -> cummax 1.0; capped at 1) */
	const double p2[] = { 0.5, 0.2, 0.8 };
	holm_is(p2, 3, (const double[]){ 1, 0.6, 1 }, 1e-12);
	/* R: p.adjust(c(0.01, 0.02, 0.01, 0.9, 0.3), "holm")
	 *   = 0.05 0.06 0.05 0.90 0.60: sorted 0.01 0.01 0.02 0.3 0.9 times
	 *   5 4 3 2 1 = 0.05 0.04 0.06 0.6 0.9, cummax 0.05 0.05 0.06 0.6 0.9 */
	const double p3[] = { 0.01, 0.02, 0.01, 0.9, 0.3 };
	holm_is(p3, 5, (const double[]){ 0.05, 0.06, 0.05, 0.9, 0.6 }, 1e-12);
	/* one hypothesis: unchanged; in place works */
	double one[] = { 0.07 };
	assert_int_equal(stats_holm(one, 1, one), 0);
	assert_float_equal(one[0], 0.07, 0);
	const double bad[] = { 0.1, NAN }, big[] = { 0.1, 1.2 };
	assert_int_equal(stats_holm(p1, 0, adj), -EINVAL);
	assert_int_equal(stats_holm(bad, 2, adj), -EINVAL);
	assert_int_equal(stats_holm(big, 2, adj), -EINVAL);
}

static void test_verdict(void **state)
{
	(void)state;
	assert_int_equal(stats_verdict(0.5, 0.8, 0.01, 0.05), STATS_FASTER);
	assert_int_equal(stats_verdict(1.2, 3.0, 0.01, 0.05), STATS_SLOWER);
	/* interval includes 1: no difference, however small p */
	assert_int_equal(stats_verdict(0.7, 1.1, 0.0001, 0.05), STATS_NO_DIFFERENCE);
	assert_int_equal(stats_verdict(1.0, 2.0, 0.0001, 0.05), STATS_NO_DIFFERENCE);
	/* interval excludes 1 but not significant after correction */
	assert_int_equal(stats_verdict(0.5, 0.8, 0.05, 0.05), STATS_NO_DIFFERENCE);
	assert_int_equal(stats_verdict(1.2, 3.0, 0.2, 0.05), STATS_NO_DIFFERENCE);
	/* NaN or nonsense never gives a verdict */
	assert_int_equal(stats_verdict(NAN, NAN, 0.01, 0.05), STATS_NO_DIFFERENCE);
	assert_int_equal(stats_verdict(0.5, 0.8, NAN, 0.05), STATS_NO_DIFFERENCE);
	assert_int_equal(stats_verdict(0.5, 0.8, 0.01, 0), STATS_NO_DIFFERENCE);
	assert_int_equal(stats_verdict(0.8, 0.5, 0.01, 0.05), STATS_NO_DIFFERENCE);
	assert_string_equal(stats_verdict_name(STATS_FASTER), "faster");
	assert_string_equal(stats_verdict_name(STATS_SLOWER), "slower");
	assert_string_equal(stats_verdict_name(STATS_NO_DIFFERENCE), "no difference detectable");
}

static void test_rand(void **state)
{
	(void)state;
	uint64_t s1 = 7, s2 = 7;
	for (int i = 0; i < 100; i++)
		assert_true(stats_rand_next(&s1) == stats_rand_next(&s2));
	for (int i = 0; i < 1000; i++) {
		uint64_t v = stats_rand_range(&s1, 4, 11);
		assert_true(v >= 4 && v <= 11);
	}
	assert_int_equal(stats_rand_range(&s1, 5, 5), 5);
}

/* x of the ratio tests, and one cluster id for all */
static const double gx[] = { 10, 12, 9, 11, 10, 13, 8, 10 };
static const double gy[] = { 20, 22, 19, 25, 21, 18, 20, 23 };

static void test_grouped_one_cluster(void **state)
{
	(void)state;
	/* one cluster: no cluster draw, so exactly the plain bootstrap's
	 * interval for the same seed (the documented equivalence) */
	const uint32_t g10[10] = { 7, 7, 7, 7, 7, 7, 7, 7, 7, 7 };
	const uint32_t g8[8] = { 3, 3, 3, 3, 3, 3, 3, 3 };
	static const double qs[] = { 0, 0.5, 0.9, 0.99, 1 };
	for (size_t i = 0; i < sizeof(qs) / sizeof(*qs); i++)
		for (uint64_t seed = 1; seed < 4; seed++) {
			struct stats_ci c1, c2;
			assert_int_equal(stats_bootstrap_ci(one_to_ten, 10, qs[i],
							    BOOT(999, 0.95, seed), &c1), 0);
			assert_int_equal(stats_bootstrap_ci_grouped(one_to_ten, g10, 10, qs[i],
								    BOOT(999, 0.95, seed), &c2), 0);
			assert_true(c1.est == c2.est && c1.lo == c2.lo && c1.hi == c2.hi);
			assert_int_equal(stats_bootstrap_ratio(gx, 8, gy, 8, qs[i],
							       BOOT(999, 0.9, seed), &c1), 0);
			assert_int_equal(stats_bootstrap_ratio_grouped(gx, g8, 8, gy, g10, 8, qs[i],
								       BOOT(999, 0.9, seed), &c2), 0);
			assert_true(c1.est == c2.est && c1.lo == c2.lo && c1.hi == c2.hi);
		}
}

static void test_grouped_clusters(void **state)
{
	(void)state;
	/* three arm-runs at very different load levels, 6 samples each */
	const double v[] = { 10, 11, 9, 10, 12, 10,   20, 22, 19, 21, 20, 18,
			     30, 29, 33, 31, 30, 32 };
	const uint32_t g[] = { 900, 900, 900, 900, 900, 900, 5, 5, 5, 5, 5, 5,
			       77, 77, 77, 77, 77, 77 };
	struct stats_ci ci, ci2, pci;
	assert_int_equal(stats_bootstrap_ci_grouped(v, g, 18, 0.5, BOOT(2000, 0.95, 9), &ci), 0);
	assert_float_equal(ci.est, 20, 1e-12);   /* median of the 18 */
	/* the same seed, the same interval bit for bit */
	assert_int_equal(stats_bootstrap_ci_grouped(v, g, 18, 0.5, BOOT(2000, 0.95, 9), &ci2), 0);
	assert_true(ci.est == ci2.est && ci.lo == ci2.lo && ci.hi == ci2.hi);
	/* clustering counts: resampling the runs reaches the 10 ms and the
	 * 30 ms run's levels, the plain bootstrap of 18 "independent" samples
	 * stays near 20 */
	assert_int_equal(stats_bootstrap_ci(v, 18, 0.5, BOOT(2000, 0.95, 9), &pci), 0);
	assert_true(ci.lo < pci.lo && ci.hi > pci.hi);
	assert_true(ci.lo <= 12 && ci.hi >= 29);
	assert_true(pci.lo >= 12 && pci.hi <= 29);
	/* ids are labels: relabelled in the same order (5 < 77 < 900 becomes
	 * 1 < 2 < 3) and the samples interleaved across clusters (each
	 * cluster's own order kept), the interval is the same bit for bit */
	const double w[] = { 20, 10, 30, 22, 11, 29, 19, 9, 33, 21, 10, 31, 20, 12, 30,
			     18, 10, 32 };
	const uint32_t h[] = { 1, 3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2 };
	assert_int_equal(stats_bootstrap_ci_grouped(w, h, 18, 0.5, BOOT(2000, 0.95, 9), &ci2), 0);
	assert_true(ci.est == ci2.est && ci.lo == ci2.lo && ci.hi == ci2.hi);
	/* unequal cluster sizes (1, 5, 2): the replicates vary in size */
	const double u[] = { 50, 10, 11, 12, 9, 10, 30, 31 };
	const uint32_t gu[] = { 4000000000u, 2, 2, 2, 2, 2, 17, 17 };
	assert_int_equal(stats_bootstrap_ci_grouped(u, gu, 8, 0.9, BOOT(2000, 0.95, 5), &ci), 0);
	assert_true(ci.lo >= 9 && ci.lo <= ci.est && ci.est <= ci.hi && ci.hi <= 50);
	assert_int_equal(stats_bootstrap_ci_grouped(u, gu, 8, 1, BOOT(500, 0.95, 5), &ci), 0);
	assert_true(ci.est == 50 && ci.hi == 50 && ci.lo >= 12);   /* max: some replicates miss the 50 */
	/* every sample its own cluster: still a sane interval */
	const uint32_t own[] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };
	assert_int_equal(stats_bootstrap_ci_grouped(one_to_ten, own, 10, 0.5, BOOT(2000, 0.95, 3),
						    &ci), 0);
	assert_true(ci.est == 5.5 && ci.lo >= 1 && ci.lo < 5.5 && ci.hi > 5.5 && ci.hi <= 10);
}

static void test_grouped_ties_and_errors(void **state)
{
	(void)state;
	struct stats_ci ci;
	const uint32_t g5[] = { 1, 1, 2, 2, 3 };
	const double same[] = { 4, 4, 4, 4, 4 };
	assert_int_equal(stats_bootstrap_ci_grouped(same, g5, 5, 0.5, BOOT(200, 0.95, 1), &ci), 0);
	assert_true(ci.est == 4 && ci.lo == 4 && ci.hi == 4);
	assert_int_equal(stats_bootstrap_ratio_grouped(same, g5, 5, same, g5, 5, 0.9,
						       BOOT(200, 0.95, 1), &ci), 0);
	assert_true(ci.est == 1 && ci.lo == 1 && ci.hi == 1);
	const double tied[] = { 7, 7, 7, 7, 7, 7, 9, 7, 7, 30 };
	const uint32_t gt[] = { 1, 1, 2, 2, 3, 3, 4, 4, 5, 5 };
	assert_int_equal(stats_bootstrap_ci_grouped(tied, gt, 10, 0.5, BOOT(2000, 0.95, 5), &ci), 0);
	assert_true(ci.est == 7 && ci.lo == 7 && ci.hi >= 7 && ci.hi <= 30);
	/* empty, NULL ids, NaN, bad q / level / iters: -EINVAL, NaN */
	const double bad[] = { 1, NAN, 3 };
	const uint32_t g3[] = { 1, 2, 3 };
	assert_int_equal(stats_bootstrap_ci_grouped(same, g5, 0, 0.5, BOOT(10, 0.95, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ci_grouped(same, NULL, 5, 0.5, BOOT(10, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ci_grouped(bad, g3, 3, 0.5, BOOT(10, 0.95, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ci_grouped(same, g5, 5, 1.01, BOOT(10, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ci_grouped(same, g5, 5, 0.5, BOOT(0, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ci_grouped(same, g5, 5, 0.5, BOOT(10, 0, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ci_grouped(same, g5, 5, 0.5, BOOT(10, NAN, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ratio_grouped(same, g5, 5, bad, g3, 3, 0.5,
						       BOOT(10, 0.95, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ratio_grouped(same, g5, 5, same, NULL, 5, 0.5,
						       BOOT(10, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ratio_grouped(same, g5, 0, same, g5, 5, 0.5,
						       BOOT(10, 0.95, 1), &ci), -EINVAL);
	assert_int_equal(stats_bootstrap_ratio_grouped(same, g5, 5, same, g5, 0, 0.5,
						       BOOT(10, 0.95, 1), &ci), -EINVAL);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	/* a non-positive baseline value: -EDOM, the observed ratio while it
	 * is defined, never an interval; zero in the arm is fine */
	const double z[] = { 0, 10, 10, 12 }, zz[] = { 0, 0, 0 }, neg[] = { -1, 5, 6 };
	const uint32_t g4[] = { 8, 8, 9, 9 };
	assert_int_equal(stats_bootstrap_ratio_grouped(z, g4, 4, gx, g4, 4, 0.5, BOOT(100, 0.95, 1),
						       &ci), -EDOM);
	assert_float_equal(ci.est, 1.05, 1e-12);   /* median(10, 12, 9, 11) / median(z) = 10.5 / 10 */
	assert_true(isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ratio_grouped(zz, g3, 3, gx, g4, 4, 0.5,
						       BOOT(100, 0.95, 1), &ci), -EDOM);
	assert_true(isnan(ci.est) && isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ratio_grouped(neg, g3, 3, gx, g4, 4, 0.5,
						       BOOT(100, 0.95, 1), &ci), -EDOM);
	assert_true(isnan(ci.lo) && isnan(ci.hi));
	assert_int_equal(stats_bootstrap_ratio_grouped(gx, g4, 4, z, g4, 4, 0.5, BOOT(100, 0.95, 1),
						       &ci), 0);
	assert_true(isfinite(ci.lo) && ci.lo >= 0 && ci.lo <= ci.est && ci.est <= ci.hi);
}

static void test_grouped_ratio(void **state)
{
	(void)state;
	/* arm about 2x the baseline in every run: the interval excludes 1 */
	const uint32_t ga[] = { 10, 10, 10, 10, 20, 20, 20, 20 };
	const uint32_t gb[] = { 11, 11, 21, 21, 31, 31, 41, 41 };
	struct stats_ci ci, ci2;
	assert_int_equal(stats_bootstrap_ratio_grouped(gx, ga, 8, gy, gb, 8, 0.5,
						       BOOT(2000, 0.95, 11), &ci), 0);
	assert_float_equal(ci.est, 2.05, 1e-12);
	assert_true(ci.lo > 1 && ci.lo <= 2.05 && ci.hi >= 2.05);
	assert_int_equal(stats_bootstrap_ratio_grouped(gx, ga, 8, gy, gb, 8, 0.5,
						       BOOT(2000, 0.95, 11), &ci2), 0);
	assert_true(ci.est == ci2.est && ci.lo == ci2.lo && ci.hi == ci2.hi);
	/* arm == baseline: ratio 1 inside */
	assert_int_equal(stats_bootstrap_ratio_grouped(gx, ga, 8, gx, ga, 8, 0.5,
						       BOOT(2000, 0.95, 11), &ci), 0);
	assert_true(ci.est == 1 && ci.lo < 1 && ci.hi > 1);
	/* the baseline's two runs far apart: the ratio is not known to 2x */
	const double wide[] = { 5, 6, 5, 6, 20, 19, 21, 20 };
	assert_int_equal(stats_bootstrap_ratio_grouped(wide, ga, 8, gy, gb, 8, 0.5,
						       BOOT(2000, 0.95, 11), &ci), 0);
	assert_true(ci.lo <= 1.1 && ci.hi >= 3.3);
}

static void test_cluster_quantiles(void **state)
{
	(void)state;
	const double v[] = { 3, 100, 1, 200, 2, 300, 9 };
	const uint32_t g[] = { 50, 7, 50, 7, 50, 7, 4000000000u };
	double out[7];
	size_t n;
	assert_int_equal(stats_cluster_quantiles(v, g, 7, 0.5, out, &n), 0);
	assert_int_equal(n, 3);
	assert_float_equal(out[0], 200, 0);   /* id 7 */
	assert_float_equal(out[1], 2, 0);     /* id 50 */
	assert_float_equal(out[2], 9, 0);     /* id 4e9 */
	assert_int_equal(stats_cluster_quantiles(v, g, 7, 0.9, out, &n), 0);
	assert_float_equal(out[0], 280, 1e-12);   /* type 7: 200 + 0.8 * 100 */
	assert_float_equal(out[1], 2.8, 1e-12);
	assert_int_equal(stats_cluster_quantiles(v, g, 0, 0.5, out, &n), -EINVAL);
	assert_int_equal(n, 0);
	assert_int_equal(stats_cluster_quantiles(v, NULL, 7, 0.5, out, &n), -EINVAL);
	assert_int_equal(stats_cluster_quantiles(v, g, 7, -1, out, &n), -EINVAL);
	const double bad[] = { 1, INFINITY };
	assert_int_equal(stats_cluster_quantiles(bad, g, 2, 0.5, out, &n), -EINVAL);
}

static void test_cluster_geomeans(void **state)
{
	(void)state;
	/* id 7: 100, 200, 300 -> (6e6)^(1/3); id 50: 1, 2, 4 -> 2; id 9: 9 */
	const double v[] = { 1, 100, 2, 200, 4, 300, 9 };
	const uint32_t g[] = { 50, 7, 50, 7, 50, 7, 9 };
	double out[7];
	size_t n;
	assert_int_equal(stats_cluster_geomeans(v, g, 7, out, &n), 0);
	assert_int_equal(n, 3);
	assert_float_equal(out[0], cbrt(6e6), 1e-9);            /* id 7 */
	assert_float_equal(out[1], 9, 1e-12);                   /* id 9 */
	assert_float_equal(out[2], 2, 1e-12);                   /* id 50 */
	/* a stall on one sample of three moves it (a median would not) */
	const double st[] = { 4000, 500, 500 };
	const uint32_t g1[] = { 1, 1, 1 };
	assert_int_equal(stats_cluster_geomeans(st, g1, 3, out, &n), 0);
	assert_float_equal(out[0], 1000, 1e-9);
	const double zero[] = { 1, 0 };
	assert_int_equal(stats_cluster_geomeans(zero, g, 2, out, &n), -EDOM);
	assert_int_equal(n, 0);
	const double bad[] = { 1, NAN };
	assert_int_equal(stats_cluster_geomeans(bad, g, 2, out, &n), -EINVAL);
	assert_int_equal(stats_cluster_geomeans(v, NULL, 7, out, &n), -EINVAL);
	assert_int_equal(stats_cluster_geomeans(v, g, 0, out, &n), -EINVAL);
}

static void test_t_quantile(void **state)
{
	(void)state;
	/* two-sided 95 % and 99 % critical values (any t table; checked with
	 * mpmath at 30 digits: root of 1 - betainc(df/2, 1/2, 0, x) / 2) */
	static const struct { double df, t975, t995; } tab[] = {
		{ 1, 12.706205, 63.656741 },
		{ 2, 4.302653, 9.924843 },
		{ 5, 2.570582, 4.032143 },
		{ 10, 2.228139, 3.169273 },
		{ 30, 2.042272, 2.749996 },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(*tab); i++) {
		assert_float_equal(stats_t_quantile(0.975, tab[i].df), tab[i].t975, 1e-6);
		assert_float_equal(stats_t_quantile(0.995, tab[i].df), tab[i].t995, 1e-6);
		assert_float_equal(stats_t_quantile(0.025, tab[i].df), -tab[i].t975, 1e-6);
	}
	assert_float_equal(stats_t_quantile(0.95, 3), 2.353363, 1e-6);    /* one-sided */
	assert_float_equal(stats_t_quantile(0.975, 2.5), 3.574655, 1e-6); /* qt(.975, 2.5) */
	assert_float_equal(stats_t_quantile(0.975, 1e6), 1.959966, 1e-5); /* the normal */
	assert_float_equal(stats_t_quantile(0.5, 4), 0, 0);
	assert_true(isnan(stats_t_quantile(0, 4)));
	assert_true(isnan(stats_t_quantile(1, 4)));
	assert_true(isnan(stats_t_quantile(NAN, 4)));
	assert_true(isnan(stats_t_quantile(0.9, 0)));
	assert_true(isnan(stats_t_quantile(0.9, INFINITY)));
}

/* The t distribution function against R's pt() (R 4.2.2, Debian 12: pt(t, df)
 * printed with digits = 17; mpmath's betainc at 40 digits agrees),
 * integer and fractional df, both tails, far into a tail; and Welch's test
 * against R's t.test(b, a)$p.value. */
static void test_t_cdf(void **state)
{
	(void)state;
	static const struct { double t, df, p; } tab[] = {
		{ 2, 5, 0.94903026058507082 },
		{ -1.5, 10, 0.08225366322272009 },
		{ 0.3, 1, 0.59277357907774234 },
		{ 3.2, 2.5, 0.96829448588180927 },
		{ 1.96, 1000, 0.97486340752212564 },
		{ -4, 3, 0.014004228005073083 },
		{ 12, 7, 0.99999682084481091 },
		{ 0.01, 50, 0.50396945931642854 },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(*tab); i++) {
		assert_float_equal(stats_t_cdf(tab[i].t, tab[i].df), tab[i].p, 1e-13);
		/* symmetry, and the quantile inverts the distribution function */
		assert_float_equal(stats_t_cdf(-tab[i].t, tab[i].df), 1 - tab[i].p, 1e-13);
		assert_float_equal(stats_t_quantile(tab[i].p, tab[i].df), tab[i].t,
				   1e-7 * (1 + fabs(tab[i].t)));
	}
	assert_float_equal(stats_t_cdf(0, 4), 0.5, 1e-15);
	assert_float_equal(stats_t_cdf(INFINITY, 4), 1, 0);
	assert_float_equal(stats_t_cdf(-INFINITY, 4), 0, 0);
	assert_true(isnan(stats_t_cdf(NAN, 4)));
	assert_true(isnan(stats_t_cdf(1, 0)));
	assert_true(isnan(stats_t_cdf(1, INFINITY)));
	static const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2.5, 4, 6.5, 8, 10.5, 12 };
	double t, df, p;
	assert_int_equal(stats_welch(a, 5, b, 6, &t, &df, &p), 0);
	assert_float_equal(t, 2.5647901883325504, 1e-12);
	assert_float_equal(df, 7.038110857931875, 1e-12);
	assert_float_equal(p, 0.037119333996764214, 1e-13);
}

static void test_mean_ci(void **state)
{
	(void)state;
	double e, lo, hi;
	/* t.test(1:10)$conf.int = 3.334149 7.665851 (mpmath) */
	assert_int_equal(stats_mean_ci(one_to_ten, 10, 0.95, &e, &lo, &hi), 0);
	assert_float_equal(e, 5.5, 1e-12);
	assert_float_equal(lo, 3.334149, 1e-6);
	assert_float_equal(hi, 7.665851, 1e-6);
	/* t.test(c(12.5, 14.1, 13.2), conf.level = 0.99)$conf.int, by mpmath
	 * at 30 digits: 13.26667 -+ 9.924843 * 0.8020806 / sqrt(3) */
	const double three[] = { 12.5, 14.1, 13.2 };
	assert_int_equal(stats_mean_ci(three, 3, 0.99, &e, &lo, &hi), 0);
	assert_float_equal(e, 13.266667, 1e-6);
	assert_float_equal(lo, 8.670656, 1e-6);
	assert_float_equal(hi, 17.862678, 1e-6);
	/* one value: the mean, no interval */
	assert_int_equal(stats_mean_ci(three, 1, 0.95, &e, &lo, &hi), 0);
	assert_true(e == 12.5 && isnan(lo) && isnan(hi));
	/* equal values: zero width */
	const double same[] = { 3, 3, 3 };
	assert_int_equal(stats_mean_ci(same, 3, 0.95, &e, &lo, &hi), 0);
	assert_true(e == 3 && lo == 3 && hi == 3);
	const double bad[] = { 1, NAN };
	assert_int_equal(stats_mean_ci(three, 0, 0.95, &e, &lo, &hi), -EINVAL);
	assert_true(isnan(e) && isnan(lo) && isnan(hi));
	assert_int_equal(stats_mean_ci(bad, 2, 0.95, &e, &lo, &hi), -EINVAL);
	assert_true(isnan(e) && isnan(lo) && isnan(hi));
	assert_int_equal(stats_mean_ci(three, 3, 1, &e, &lo, &hi), -EINVAL);
	assert_int_equal(stats_mean_ci(three, 3, 0, &e, &lo, &hi), -EINVAL);
	assert_true(isnan(e) && isnan(lo) && isnan(hi));
}

static void test_holm_ties(void **state)
{
	(void)state;
	/* R: p.adjust(c(0.01, 0.01, 0.01), "holm") = 0.03 0.03 0.03 */
	const double t3[] = { 0.01, 0.01, 0.01 };
	holm_is(t3, 3, (const double[]){ 0.03, 0.03, 0.03 }, 1e-12);
	/* R: p.adjust(c(0.02, 0.001, 0.02, 0.5), "holm") = 0.060 0.004 0.060 0.500 */
	const double t4[] = { 0.02, 0.001, 0.02, 0.5 };
	holm_is(t4, 4, (const double[]){ 0.06, 0.004, 0.06, 0.5 }, 1e-12);
	/* ties at the cap: R gives 1 1 1 1 */
	const double c4[] = { 0.4, 0.4, 0.4, 0.4 };
	holm_is(c4, 4, (const double[]){ 1, 1, 1, 1 }, 0);
	/* n = 1 at the edges: unchanged */
	const double z[] = { 0 }, o[] = { 1 };
	holm_is(z, 1, z, 0);
	holm_is(o, 1, o, 0);
}

static void test_rand_index(void **state)
{
	(void)state;
	uint64_t s = 5;
	unsigned hist[6] = { 0 };
	for (int i = 0; i < 60000; i++) {
		uint64_t v = stats_rand_index(&s, 6);
		assert_true(v < 6);
		hist[v]++;
	}
	for (int i = 0; i < 6; i++)   /* 10000 expected, sd 91 */
		assert_true(hist[i] > 9500 && hist[i] < 10500);
	assert_int_equal(stats_rand_index(&s, 1), 0);
	assert_true(stats_rand_index(&s, (uint64_t)1 << 40) < ((uint64_t)1 << 40));
}

/* TOST from the Welch figures above: with a margin of 5 the upper test
 * is the lower tail at t - 5 / se, half the two-sided p of a shifted
 * test; the margin at the estimate gives 0.5. */
static void test_welch_tost(void **state)
{
	(void)state;
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7, 8 };
	double p, t, df, pw;
	/* d 2.5; 2.5 - 5 = -2.5 is the Welch t of a against b shifted by 5 */
	const double b5[] = { -2, -1, 0, 1, 2, 3 };
	assert_int_equal(stats_welch(a, 5, b5, 6, &t, &df, &pw), 0);
	assert_int_equal(stats_welch_tost(a, 5, b, 6, 5.0, &p), 0);
	assert_float_equal(p, pw / 2, 1e-12);
	assert_float_equal(p, 0.03980308202 / 2, 1e-9);
	assert_int_equal(stats_welch_tost(a, 5, b, 6, 2.5, &p), 0);
	assert_float_equal(p, 0.5, 1e-12);
	assert_int_equal(stats_welch_tost(a, 5, b, 6, 1.0, &p), 0);
	assert_true(p > 0.5 && p < 1);
	/* symmetric: a against b as b against a */
	double q;
	assert_int_equal(stats_welch_tost(b, 6, a, 5, 5.0, &q), 0);
	assert_float_equal(q, 0.03980308202 / 2, 1e-9);
	/* no spread: inside or outside */
	const double s1[] = { 2, 2, 2 }, s2[] = { 3, 3 };
	assert_int_equal(stats_welch_tost(s1, 3, s2, 2, 1.5, &p), 0);
	assert_true(p == 0);
	assert_int_equal(stats_welch_tost(s1, 3, s2, 2, 1.0, &p), 0);
	assert_true(p == 1);
	/* bad input */
	assert_int_equal(stats_welch_tost(a, 1, b, 6, 1.0, &p), -EINVAL);
	assert_true(isnan(p));
	assert_int_equal(stats_welch_tost(a, 5, b, 6, 0, &p), -EINVAL);
	assert_int_equal(stats_welch_tost(a, 5, b, 6, NAN, &p), -EINVAL);
	assert_string_equal(stats_verdict_name(STATS_EQUIVALENT), "equivalent");
}

static void test_welch(void **state)
{
	(void)state;
	/* t.test(b, a) (Welch), computed with mpmath at 30 digits (the p by
	 * quadrature of the t density, not through the incomplete beta) */
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7, 8 };
	double t, df, p;
	assert_int_equal(stats_welch(a, 5, b, 6, &t, &df, &p), 0);
	assert_float_equal(t, 2.401922307, 1e-8);
	assert_float_equal(df, 8.989361702, 1e-8);
	assert_float_equal(p, 0.03980308202, 1e-9);
	const double c[] = { 10.1, 9.8, 10.4, 10.0 };
	const double d[] = { 10.2, 10.9, 11.5, 10.8, 11.1, 12.0, 10.6 };
	assert_int_equal(stats_welch(c, 4, d, 7, &t, &df, &p), 0);
	assert_float_equal(t, 3.660908033, 1e-8);
	assert_float_equal(df, 8.641785321, 1e-8);
	assert_float_equal(p, 0.005601243781, 1e-10);
	/* swapped: t changes sign, p does not */
	double t2, df2, p2;
	assert_int_equal(stats_welch(d, 7, c, 4, &t2, &df2, &p2), 0);
	assert_float_equal(t2, -t, 1e-12);
	assert_float_equal(p2, p, 1e-12);
	/* no spread at all */
	const double s1[] = { 2, 2, 2 }, s2[] = { 3, 3 };
	assert_int_equal(stats_welch(s1, 3, s1, 3, &t, &df, &p), 0);
	assert_true(t == 0 && p == 1 && isnan(df));
	assert_int_equal(stats_welch(s1, 3, s2, 2, &t, &df, &p), 0);
	assert_true(isinf(t) && t > 0 && p == 0);
	/* too few or non-finite: -EINVAL, NaN */
	const double bad[] = { 1, NAN, 2 };
	assert_int_equal(stats_welch(a, 1, b, 6, &t, &df, &p), -EINVAL);
	assert_true(isnan(t) && isnan(df) && isnan(p));
	assert_int_equal(stats_welch(a, 5, bad, 3, &t, &df, &p), -EINVAL);
	assert_true(isnan(t) && isnan(df) && isnan(p));
}

static void test_log_ratio_ci(void **state)
{
	(void)state;
	const double la[] = { 0.0, 0.2, 0.4 };
	double lb[3], est, lo, hi;
	for (int i = 0; i < 3; i++)
		lb[i] = la[i] + log(2.0);
	/* equal spread: se = sqrt(2 * 0.04 / 3), df = 4, t(0.975, 4) = 2.776445 */
	assert_int_equal(stats_log_ratio_ci(la, 3, lb, 3, 0.95, &est, &lo, &hi), 0);
	double se = sqrt(2 * 0.04 / 3);
	assert_true(fabs(est - 2.0) < 1e-12);
	assert_true(fabs(lo - 2.0 * exp(-2.776445 * se)) < 1e-5);
	assert_true(fabs(hi - 2.0 * exp(2.776445 * se)) < 1e-5);
	/* one run on a side: the estimate only */
	assert_int_equal(stats_log_ratio_ci(la, 1, lb, 3, 0.95, &est, &lo, &hi), 0);
	assert_true(fabs(est - exp(0.2 + log(2.0))) < 1e-12);
	assert_true(isnan(lo) && isnan(hi));
	/* no spread: the bounds are the estimate */
	const double ca[] = { 1.0, 1.0 }, cb[] = { 1.5, 1.5 };
	assert_int_equal(stats_log_ratio_ci(ca, 2, cb, 2, 0.95, &est, &lo, &hi), 0);
	assert_true(fabs(lo - exp(0.5)) < 1e-12 && fabs(hi - exp(0.5)) < 1e-12);
	/* bad input */
	assert_int_equal(stats_log_ratio_ci(la, 0, lb, 3, 0.95, &est, &lo, &hi), -EINVAL);
	assert_true(isnan(est) && isnan(lo) && isnan(hi));
	assert_int_equal(stats_log_ratio_ci(la, 3, lb, 3, 1.0, &est, &lo, &hi), -EINVAL);
	const double bad[] = { 0.0, NAN };
	assert_int_equal(stats_log_ratio_ci(bad, 2, lb, 3, 0.95, &est, &lo, &hi), -EINVAL);
}

/* ---- issue 24: resamples counted by rank, not sorted ---- */

/* The paired bootstraps as they were: each drawn side copied and sorted
 * (iterations x n log n).  The counted ones must give the same interval,
 * bit for bit. */
static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double sorted_quantile(double *v, size_t n, double q)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return stats_percentile_sorted(v, n, q * 100.0);
}

/* median: 1 for the median of the bounded ratios, 0 for the geometric mean */
static void ref_paired(const double *a, const size_t *ao, const double *b, const size_t *bo,
		       size_t nc, double q, unsigned iters, double level, uint64_t seed,
		       int median, double *lo, double *hi)
{
	double draw[256], own[16], *rep = malloc(iters * sizeof(*rep));
	assert_non_null(rep);
	uint64_t st = seed;
	for (unsigned i = 0; i < iters; i++) {
		double s = 0;
		for (size_t j = 0; j < nc; j++) {
			size_t k = nc == 1 ? 0 : (size_t)stats_rand_index(&st, nc);
			size_t ka = ao[k + 1] - ao[k], kb = bo[k + 1] - bo[k];
			for (size_t x = 0; x < ka; x++)
				draw[x] = a[ao[k] + stats_rand_index(&st, ka)];
			double ra = sorted_quantile(draw, ka, q);
			for (size_t x = 0; x < kb; x++)
				draw[x] = b[bo[k] + stats_rand_index(&st, kb)];
			double r = sorted_quantile(draw, kb, q) / ra;
			own[j] = r > 1000 ? 1000 : r < 1e-3 ? 1e-3 : r;
			s += log(r);
		}
		rep[i] = median ? sorted_quantile(own, nc, 0.5) : exp(s / (double)nc);
	}
	double tail = (1 - level) / 2 * 100;
	qsort(rep, iters, sizeof(*rep), cmp_d);
	*lo = stats_percentile_sorted(rep, iters, tail);
	*hi = stats_percentile_sorted(rep, iters, 100 - tail);
	free(rep);
}

static void test_counted_resamples(void **state)
{
	(void)state;
	uint64_t st = 7;
	for (int t = 0; t < 30; t++) {
		size_t nc = 1 + (size_t)t % 6, ao[8], bo[8], na = 0, nb = 0;
		double a[1600], b[1600];
		for (size_t k = 0; k < nc; k++) {
			ao[k] = na;
			bo[k] = nb;
			size_t ka = 1 + stats_rand_index(&st, 200), kb = 1 + stats_rand_index(&st, 60);
			for (size_t x = 0; x < ka; x++)   /* ties every third data set */
				a[na++] = t % 3 ? exp((double)(stats_rand_next(&st) >> 11) * 0x1p-53)
						: (double)(1 + stats_rand_index(&st, 4));
			for (size_t x = 0; x < kb; x++)
				b[nb++] = t % 3 ? 1.3 * exp((double)(stats_rand_next(&st) >> 11) * 0x1p-53)
						: (double)(1 + stats_rand_index(&st, 4));
		}
		ao[nc] = na;
		bo[nc] = nb;
		double q = 0.25 * (t % 5), rlo, rhi;
		struct stats_ci ci;
		assert_int_equal(stats_bootstrap_ratio_paired(a, ao, b, bo, nc, q,
							      BOOT(300, 0.95, (uint64_t)t), &ci, NULL),
				 0);
		ref_paired(a, ao, b, bo, nc, q, 300, 0.95, (uint64_t)t, 0, &rlo, &rhi);
		if (ci.lo != rlo || ci.hi != rhi)
			fail_msg("data set %d, geometric mean: [%a, %a], sorted [%a, %a]", t, ci.lo,
				 ci.hi, rlo, rhi);
		assert_int_equal(stats_bootstrap_median_ratio_paired(a, ao, b, bo, nc, q,
								     BOOT(300, 0.9, (uint64_t)t),
								     1000, &ci, NULL), 0);
		ref_paired(a, ao, b, bo, nc, q, 300, 0.9, (uint64_t)t, 1, &rlo, &rhi);
		if (ci.lo != rlo || ci.hi != rhi)
			fail_msg("data set %d, median: [%a, %a], sorted [%a, %a]", t, ci.lo, ci.hi, rlo,
				 rhi);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_percentile_edges),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_slowdown),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_bootstrap_ci),
		cmocka_unit_test(test_bootstrap_ratio),
		cmocka_unit_test(test_mann_whitney_ties),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_rand),
		cmocka_unit_test(test_grouped_one_cluster),
		cmocka_unit_test(test_grouped_clusters),
		cmocka_unit_test(test_grouped_ties_and_errors),
		cmocka_unit_test(test_grouped_ratio),
		cmocka_unit_test(test_cluster_quantiles),
		cmocka_unit_test(test_cluster_geomeans),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_t_cdf),
		cmocka_unit_test(test_mean_ci),
		cmocka_unit_test(test_holm_ties),
		cmocka_unit_test(test_rand_index),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_welch_tost),
		cmocka_unit_test(test_log_ratio_ci),
		cmocka_unit_test(test_counted_resamples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
