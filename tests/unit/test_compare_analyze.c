/* compare_analyze: the verdicts of `brisk compare` on synthetic arm-runs
 * whose spread and ratios are known: faster, slower, equivalent within
 * the margin, undecided with the rounds that would likely settle it, and
 * the recommendation's words for each. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"

static struct settings st;

/* Arm-run `run` of arm `arm`: k samples around ms * its run effect. */
static void push_run(struct compare_result *r, uint32_t arm, uint32_t round, uint32_t run,
		     enum action_kind a, double ms, double run_effect, unsigned k)
{
	for (unsigned i = 0; i < k; i++) {
		assert_true(r->n_samples < r->cap_samples);
		struct compare_sample *x = &r->samples[r->n_samples++];
		memset(x, 0, sizeof(*x));
		x->arm = arm;
		x->round = round;
		x->run = run;
		x->action = (uint8_t)a;
		x->cold = 1;
		x->ms = ms * run_effect * (1.0 + 0.02 * ((double)i - 1.0));
	}
}

/* A comparison of n arms on `actions`, nothing run yet. */
static struct compare *make(size_t n, unsigned actions, double margin)
{
	struct compare_config cfg;
	compare_config_default(&cfg);
	cfg.run.actions = actions;
	cfg.rounds = 12;
	cfg.seed = 5;
	cfg.margin = margin;
	snprintf(cfg.run.dir, sizeof(cfg.run.dir), "/nonexistent");
	struct compare_arm arms[COMPARE_MAX_ARMS];
	memset(arms, 0, sizeof(arms));
	for (size_t i = 0; i < n; i++) {
		snprintf(arms[i].name, sizeof(arms[i].name), i ? "arm%zu" : "current", i);
		snprintf(arms[i].label, sizeof(arms[i].label), i ? "arm%zu" : "current", i);
	}
	struct compare *c = NULL;
	char err[256];
	assert_int_equal(compare_create(&cfg, &st, arms, n, &c, err, sizeof(err)), 0);
	struct compare_result *r = (struct compare_result *)compare_result(c);
	r->cap_samples = 4096;
	r->samples = calloc(r->cap_samples, sizeof(*r->samples));
	assert_non_null(r->samples);
	return c;
}

/* Run-to-run effects with a known spread: exp(sd * z), z a fixed
 * zero-mean sequence. */
static double effect(unsigned i, double sd)
{
	static const double z[] = { 0.3, -1.1, 0.8, -0.2, 1.4, -0.9, 0.1, -0.6, 1.0, -0.8 };
	return exp(sd * z[i % 10]);
}

/* ratio[arm], sd[arm]: each arm's true ratio and run spread. */
static struct compare *comparison(size_t n, const double *ratio, const double *sd,
				  unsigned rounds, double margin)
{
	struct compare *c = make(n, 1u << ACTION_LS, margin);
	struct compare_result *r = (struct compare_result *)compare_result(c);
	uint32_t run = 0;
	for (unsigned k = 0; k < rounds; k++)
		for (uint32_t a = 0; a < n; a++)
			push_run(r, a, k, run++, ACTION_LS, 100 * ratio[a],
				 effect(k + 3 * a, sd[a]), 3);
	r->rounds_done = rounds;
	assert_int_equal(compare_analyze(c), 0);
	return c;
}

static void test_verdicts(void **state)
{
	(void)state;
	/* 0 baseline; 1 the same, tight; 2 half; 3 double; 4 the same, wide */
	const double ratio[] = { 1, 1, 0.5, 2, 1 }, sd[] = { 0.02, 0.02, 0.02, 0.02, 0.6 };
	struct compare *c = comparison(5, ratio, sd, 6, 1.10);
	const struct compare_result *r = compare_result(c);
	const struct compare_cell *x = r->cells[1];
	assert_int_equal(x[ACTION_LS].verdict, STATS_EQUIVALENT);
	assert_true(x[ACTION_LS].settled);
	assert_true(x[ACTION_LS].p_equiv_adj < r->alpha_look);
	assert_int_equal(x[ACTION_LS].more_rounds, -1);
	assert_int_equal(r->cells[2][ACTION_LS].verdict, STATS_FASTER);
	assert_int_equal(r->cells[3][ACTION_LS].verdict, STATS_SLOWER);
	const struct compare_cell *w = &r->cells[4][ACTION_LS];
	assert_int_equal(w->verdict, STATS_NO_DIFFERENCE);
	assert_false(w->settled);
	assert_true(w->more_rounds > 0);
	assert_int_equal(r->more_rounds, w->more_rounds);
	assert_string_equal(compare_verdict_name(w->verdict), "undecided");
	assert_string_equal(compare_verdict_name(x[ACTION_LS].verdict), "equivalent");
	/* arm 2 is recommended: faster, slower nowhere */
	assert_int_equal(r->best, 2);
	compare_free(c);
}

/* A tight arm 5 % off the baseline: equivalent at a 10 % margin, not at
 * 2 %, where it is undecided (too few runs to show 5 %) or faster. */
static void test_margin(void **state)
{
	(void)state;
	const double ratio[] = { 1, 0.95 }, sd[] = { 0.03, 0.03 };
	struct compare *c = comparison(2, ratio, sd, 4, 1.10);
	assert_int_equal(compare_result(c)->cells[1][ACTION_LS].verdict, STATS_EQUIVALENT);
	assert_non_null(strstr(compare_result(c)->recommendation,
			       "every arm is equivalent to current (within 10 %): keep current"));
	compare_free(c);
	c = comparison(2, ratio, sd, 4, 1.02);
	enum stats_verdict v = compare_result(c)->cells[1][ACTION_LS].verdict;
	assert_true(v == STATS_NO_DIFFERENCE || v == STATS_FASTER);
	compare_free(c);
}

/* Undecided: more rounds of the same data settle it as the estimate said. */
static void test_more_rounds(void **state)
{
	(void)state;
	const double ratio[] = { 1, 1 }, sd[] = { 0.15, 0.15 };
	struct compare *c = comparison(2, ratio, sd, 3, 1.10);
	const struct compare_result *r = compare_result(c);
	assert_int_equal(r->cells[1][ACTION_LS].verdict, STATS_NO_DIFFERENCE);
	int more = r->more_rounds;
	assert_true(more > 0 && more < 100);
	assert_non_null(strstr(r->recommendation, "more round"));
	compare_free(c);
	/* the same spread, more rounds than it said (twice, for the noise of
	 * a fixed sequence): settled */
	c = comparison(2, ratio, sd, (unsigned)(3 + 2 * more), 1.10);
	assert_int_equal(compare_result(c)->cells[1][ACTION_LS].verdict, STATS_EQUIVALENT);
	compare_free(c);
}

static void test_bad_margin(void **state)
{
	(void)state;
	struct compare_config cfg;
	compare_config_default(&cfg);
	assert_float_equal(cfg.margin, COMPARE_MARGIN, 0);
	cfg.run.actions = 1u << ACTION_LS;
	cfg.margin = 1.0;
	struct compare_arm arms[2];
	memset(arms, 0, sizeof(arms));
	struct compare *c = NULL;
	char err[256];
	assert_int_equal(compare_create(&cfg, &st, arms, 2, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "margin"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_margin),
		cmocka_unit_test(test_more_rounds),
		cmocka_unit_test(test_bad_margin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
