/* Statistics against known data: numpy/R type-7 percentiles, sample sd,
 * threshold shares, slowdown ratios, Mann-Whitney (R wilcox.test with
 * exact=FALSE, correct=TRUE) and the seeded bootstrap. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <errno.h>
#include <cmocka.h>

#include "stats.h"

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
	double lo, hi, lo2, hi2;
	assert_int_equal(stats_bootstrap_median_diff(a, 4, b, 3, 500, 0.95, 1, &lo, &hi), 0);
	assert_float_equal(lo, 15, 0);
	assert_float_equal(hi, 15, 0);
	/* a real spread: CI contains the observed difference, and the same seed
	 * gives the same interval */
	const double x[] = { 10, 12, 9, 11, 10, 13, 8, 10 }, y[] = { 20, 22, 19, 25, 21, 18, 20, 23 };
	assert_int_equal(stats_bootstrap_median_diff(x, 8, y, 8, 2000, 0.95, 42, &lo, &hi), 0);
	assert_true(lo <= 10.5 && hi >= 10.5 && lo > 0);
	assert_int_equal(stats_bootstrap_median_diff(x, 8, y, 8, 2000, 0.95, 42, &lo2, &hi2), 0);
	assert_float_equal(lo, lo2, 0);
	assert_float_equal(hi, hi2, 0);
	assert_int_equal(stats_bootstrap_median_diff(x, 0, y, 8, 10, 0.95, 1, &lo, &hi), -EINVAL);
	assert_int_equal(stats_bootstrap_median_diff(x, 8, y, 8, 10, 1.5, 1, &lo, &hi), -EINVAL);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_percentile_edges),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_slowdown),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_rand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
