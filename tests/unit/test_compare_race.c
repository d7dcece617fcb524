/* compare_race: the race of `brisk compare` on simulated arm-runs (the
 * engine's own rounds, with a stand-in for the session): an arm shown
 * slower than the leader leaves it, one starving the load too, the
 * baseline never; the race ends with a winner, with the arms left
 * equivalent, or at the rounds; --no-racing runs every arm every round;
 * the text and JSON say who left when and why. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "compare_priv.h"
#include "compare_report.h"
#include "../helpers/race_model.h"

static struct settings st;

static struct compare *race(size_t n, struct race_model *m, unsigned rounds, int no_racing)
{
	struct compare_config cfg;
	compare_config_default(&cfg);
	cfg.run.actions = 1u << ACTION_LS | 1u << ACTION_SSH;
	cfg.run.n_loads = 0;
	cfg.rounds = rounds;
	cfg.seed = 3;
	cfg.no_racing = no_racing;
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
	m->sd_within = 0.1;
	c->sim = race_model_sim;
	c->sim_ctx = m;
	assert_int_equal(compare_run(c, NULL, err, sizeof(err)), 0);
	return c;
}

static unsigned runs_of(const struct compare_result *r, size_t arm)
{
	unsigned n = 0;
	for (size_t i = 0; i < r->n_runs; i++)
		n += r->runs[i].arm == arm;
	return n;
}

/* Arm 2 is three times slower: it leaves after the first race look; the
 * others run on; its verdict against the baseline comes from its rounds. */
static void test_drop_slower(void **state)
{
	(void)state;
	struct race_model m = { .ratio = { 1, 1, 3, 1 }, .sd_run = 0.05, .rng = 7 };
	struct compare *c = race(4, &m, 8, 0);
	const struct compare_result *r = compare_result(c);
	assert_true(r->race[2].out);
	assert_int_equal(r->race[2].out_round, COMPARE_MIN_ROUNDS);
	assert_int_equal(runs_of(r, 2), COMPARE_MIN_ROUNDS);
	assert_int_equal(r->race[2].runs, COMPARE_MIN_ROUNDS);
	assert_non_null(strstr(r->race[2].why, "slower than"));
	assert_true(r->race[2].lo > 1);
	assert_false(r->race[0].out);   /* the baseline never leaves */
	char line[200];
	compare_race_progress(r, line, sizeof(line));
	assert_string_equal(line, " (3 of 4 arms left; out after round 3: arm2, slower than arm3, "
			    "the leader)");
	assert_int_equal(r->cells[2][ACTION_LS].verdict, STATS_SLOWER);
	assert_true(r->cells[2][ACTION_LS].n == 3 * COMPARE_MIN_ROUNDS);
	/* the others: in, and ran more rounds, or the race ended with them equivalent */
	assert_false(r->race[1].out);
	assert_false(r->race[3].out);
	assert_true(r->race_end == COMPARE_RACE_EQUIVALENT || r->race_end == COMPARE_RACE_BUDGET);
	assert_true(runs_of(r, 1) >= COMPARE_MIN_ROUNDS);
	/* ranked last: out of the race */
	assert_int_equal(r->ranking[r->n_ranked - 1], 2);
	compare_free(c);
}

/* One arm far faster than all: it wins, and the race ends there. */
static void test_winner(void **state)
{
	(void)state;
	struct race_model m = { .ratio = { 1, 0.3, 1 }, .sd_run = 0.05, .rng = 9 };
	struct compare *c = race(3, &m, 20, 0);
	const struct compare_result *r = compare_result(c);
	assert_int_equal(r->race_end, COMPARE_RACE_WINNER);
	assert_int_equal(r->race_leader, 1);
	assert_true(r->race[2].out);
	assert_false(r->race[0].out);
	assert_true(r->rounds_done < 20);
	assert_non_null(strstr(r->race_words, "arm1 is faster than every other arm"));
	assert_int_equal(r->best, 1);
	assert_int_equal(r->cells[1][ACTION_SSH].verdict, STATS_FASTER);
	compare_free(c);
}

/* A race that ends with a winner ends with compare recommending it: a
 * winner whose verdicts against the baseline are not settled yet keeps
 * the rounds going (seen in some of these races). */
static void test_winner_recommended(void **state)
{
	(void)state;
	unsigned held = 0, winners = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct race_model m = { .ratio = { 1, 0.7 }, .sd_run = 0.2, .rng = seed };
		struct compare *c = race(2, &m, 12, 0);
		const struct compare_result *r = compare_result(c);
		held += c->race_held > 0;
		if (r->race_end == COMPARE_RACE_WINNER && r->race_leader > 0) {
			winners++;
			assert_int_equal(r->best, r->race_leader);
		}
		compare_free(c);
	}
	assert_true(held > 0);
	assert_true(winners > 0);
}

/* Alike arms with a tight spread: equivalent, well before the rounds run out. */
static void test_equivalent(void **state)
{
	(void)state;
	struct race_model m = { .ratio = { 1, 1, 1.02 }, .sd_run = 0.03, .rng = 11 };
	struct compare *c = race(3, &m, 30, 0);
	const struct compare_result *r = compare_result(c);
	assert_int_equal(r->race_end, COMPARE_RACE_EQUIVALENT);
	assert_true(r->rounds_done < 10);
	assert_non_null(strstr(r->race_words, "equivalent to"));
	for (size_t a = 0; a < 3; a++)
		assert_false(r->race[a].out);
	compare_free(c);
}

/* Noisy alike arms: nobody leaves, the rounds run out. */
static void test_budget(void **state)
{
	(void)state;
	struct race_model m = { .ratio = { 1, 1, 1 }, .sd_run = 0.6, .rng = 13 };
	struct compare *c = race(3, &m, 5, 0);
	const struct compare_result *r = compare_result(c);
	assert_int_equal(r->race_end, COMPARE_RACE_BUDGET);
	assert_int_equal(r->rounds_done, 5);
	assert_non_null(strstr(r->race_words, "out of rounds after round 5, with 3 arms"));
	compare_free(c);
}

/* An arm that keeps a tenth of the load leaves, faster or not. */
static void test_starving(void **state)
{
	(void)state;
	struct race_model m = { .ratio = { 1, 1, 0.5 }, .mibps = { 100, 100, 10 }, .sd_run = 0.05,
			   .rng = 17 };
	struct compare *c = race(3, &m, 6, 0);
	const struct compare_result *r = compare_result(c);
	assert_true(r->race[2].out);
	assert_non_null(strstr(r->race[2].why, "starves the load"));
	assert_true(isnan(r->race[2].ratio));
	assert_true(r->best != 2);
	compare_free(c);
}

/* --no-racing: every arm every round, as before. */
static void test_no_racing(void **state)
{
	(void)state;
	struct race_model m = { .ratio = { 1, 1, 3 }, .sd_run = 0.05, .rng = 7 };
	struct compare *c = race(3, &m, 6, 1);
	const struct compare_result *r = compare_result(c);
	assert_int_equal(r->race_end, COMPARE_RACE_OFF);
	assert_int_equal(r->race_looks, 0);
	for (size_t a = 0; a < 3; a++)
		assert_false(r->race[a].out);
	assert_true(runs_of(r, 2) == runs_of(r, 0));
	compare_free(c);
}

/* The report: who left when and why, in text and JSON. */
static void test_report(void **state)
{
	(void)state;
	struct race_model m = { .ratio = { 1, 1, 3, 1 }, .sd_run = 0.05, .rng = 7 };
	struct compare *c = race(4, &m, 8, 0);
	const struct compare_result *r = compare_result(c);
	char *t = NULL;
	size_t tl = 0;
	FILE *f = open_memstream(&t, &tl);
	assert_non_null(f);
	compare_report_text(f, r);
	fclose(f);
	assert_non_null(strstr(t, "race (an arm shown slower than the leader leaves it):"));
	assert_non_null(strstr(t, "out after round 3: slower than"));
	assert_non_null(strstr(t, "  ended: "));
	free(t);
	char path[] = "/tmp/brisk-race-XXXXXX", err[256];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(compare_report_json(r, path, err, sizeof(err)), 0);
	struct json_object *j = json_object_from_file(path);
	unlink(path);
	assert_non_null(j);
	struct json_object *race, *arms, *e, *v;
	assert_true(json_object_object_get_ex(j, "race", &race));
	assert_true(json_object_object_get_ex(race, "arms", &arms));
	e = json_object_array_get_idx(arms, 2);
	assert_true(json_object_object_get_ex(e, "out_after_round", &v));
	assert_int_equal(json_object_get_int(v), 3);
	assert_true(json_object_object_get_ex(e, "ratio_to_leader", &v));
	assert_true(json_object_is_type(v, json_type_object));
	assert_true(json_object_object_get_ex(race, "end", &v));
	assert_true(strcmp(json_object_get_string(v), "equivalent") == 0 ||
		    strcmp(json_object_get_string(v), "budget") == 0);
	json_object_put(j);
	compare_free(c);
}

/* A stand-in that gives each arm-run the one the recorded comparison had
 * for the same arm and round. */
static int from_record(struct compare *c, size_t arm, unsigned round, uint32_t idx, void *ctx)
{
	const struct compare_result *rec = ctx;
	struct compare_result *r = &c->r;
	for (size_t j = 0; j < rec->n_runs; j++) {
		if (rec->runs[j].arm != arm || rec->runs[j].round != round)
			continue;
		uint64_t t = r->runs[idx].t_ns;
		r->runs[idx] = rec->runs[j];
		r->runs[idx].t_ns = t;
		for (size_t i = 0; i < rec->n_samples; i++) {
			if (rec->samples[i].run != j)
				continue;
			struct compare_sample x = rec->samples[i];
			x.run = idx;
			if (race_model_push(r, &x) < 0)
				return -ENOMEM;
		}
		return 0;
	}
	return -ENOENT;
}

/* --resume: a comparison continued from its first k arm-runs (the
 * replayed ones) and the same data after them ends as the whole one did:
 * the same arm-runs in the same order, the same race. */
static void test_replay(void **state)
{
	(void)state;
	struct race_model m = { .ratio = { 1, 1, 3, 0.9 }, .sd_run = 0.05, .rng = 11 };
	struct compare *whole = race(4, &m, 6, 0);
	const struct compare_result *w = compare_result(whole);
	size_t k = 7;   /* into the second round */
	assert_true(w->n_runs > k);
	size_t ks = 0;
	while (ks < w->n_samples && w->samples[ks].run < k)
		ks++;
	struct compare_config cfg = whole->cfg;
	struct compare_arm arms[4];
	memset(arms, 0, sizeof(arms));
	for (size_t i = 0; i < 4; i++) {
		snprintf(arms[i].name, sizeof(arms[i].name), "%s", w->arms[i].name);
		snprintf(arms[i].label, sizeof(arms[i].label), "%s", w->arms[i].label);
	}
	struct compare *c = NULL;
	char err[256];
	assert_int_equal(compare_create(&cfg, &st, arms, 4, &c, err, sizeof(err)), 0);
	/* what does not fit is refused */
	struct compare_run bad[2] = { w->runs[0], w->runs[0] };
	assert_int_equal(compare_replay(c, bad, 2, NULL, 0), -EINVAL);   /* the same twice */
	bad[0].arm = 9;
	assert_int_equal(compare_replay(c, bad, 1, NULL, 0), -EINVAL);   /* no such arm */
	assert_int_equal(compare_replay(c, w->runs, k, w->samples, ks), 0);
	c->sim = from_record;
	c->sim_ctx = (void *)w;
	assert_int_equal(compare_run(c, NULL, err, sizeof(err)), 0);
	const struct compare_result *r = compare_result(c);
	assert_int_equal(r->replayed_runs, k);
	assert_int_equal(r->n_runs, w->n_runs);
	assert_int_equal(r->n_samples, w->n_samples);
	for (size_t i = 0; i < w->n_runs; i++) {
		assert_int_equal(r->runs[i].arm, w->runs[i].arm);
		assert_int_equal(r->runs[i].round, w->runs[i].round);
	}
	for (size_t i = 0; i < w->n_samples; i++)
		assert_true(r->samples[i].ms == w->samples[i].ms || (isnan(r->samples[i].ms) &&
								     isnan(w->samples[i].ms)));
	assert_int_equal(r->race_end, w->race_end);
	assert_int_equal(r->rounds_done, w->rounds_done);
	for (size_t a = 0; a < 4; a++) {
		assert_int_equal(r->race[a].out, w->race[a].out);
		assert_int_equal(r->race[a].out_round, w->race[a].out_round);
		assert_int_equal(r->race[a].runs, w->race[a].runs);
	}
	assert_true(w->race[2].out);   /* the race did something to keep */
	compare_free(c);
	compare_free(whole);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_slower), cmocka_unit_test(test_winner),
		cmocka_unit_test(test_winner_recommended),
		cmocka_unit_test(test_equivalent),  cmocka_unit_test(test_budget),
		cmocka_unit_test(test_starving),    cmocka_unit_test(test_no_racing),
		cmocka_unit_test(test_report),     cmocka_unit_test(test_replay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
