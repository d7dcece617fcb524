/* tune_space and tune: the space file's checks, each error naming its
 * line; the default space; the levels in canonical form; and what a tune
 * makes of a raced space (simulated arm-runs): the best arm, its evidence
 * against current and each scheduler's defaults with the load's cost,
 * and each of its settings' effect (the arm without it). */
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

#include "compare_priv.h"
#include "compare_report.h"
#include "tune.h"
#include "tune_space.h"
#include "../helpers/race_model.h"

#define LONG_ARM "scheduler=kyber wbt_lat_usec=0 vm.dirty_bytes=67108864"

static struct settings st;

static void test_default_space(void **state)
{
	(void)state;
	struct tune_space sp;
	char err[300];
	assert_int_equal(tune_space_parse(tune_space_default_text, "default", &sp, err,
					  sizeof(err)), 0);
	assert_true(sp.offered);
	assert_int_equal(sp.n_f, 5);
	assert_string_equal(sp.f[1].key, "vm.dirty_bytes");
	assert_string_equal(sp.f[1].levels[0], TUNE_KEEP);
	assert_string_equal(sp.f[1].levels[1], "67108864");   /* 64m, canonical */
	assert_string_equal(sp.f[2].sched, "bfq");
	assert_int_equal(sp.f[2].line, 9);
}

/* Each bad space: -EINVAL, and the message names the file and line. */
static void bad(const char *text, const char *where, const char *what)
{
	struct tune_space sp;
	char err[300] = "";
	assert_int_equal(tune_space_parse(text, "s.ini", &sp, err, sizeof(err)), -EINVAL);
	if (!strstr(err, where) || !strstr(err, what))
		fail_msg("got '%s', want '%s' and '%s'", err, where, what);
}

static void test_bad_spaces(void **state)
{
	(void)state;
	bad("[space]\nnr_requests = 64, 128\nfoo = 1, 2\n", "s.ini:3:", "unknown key 'foo'");
	bad("[space]\nlow_latency = 0, 1\n", "s.ini:2:", "put it under [bfq]");
	bad("[kyber]\n# a comment\nlow_latency = 0, 1\n", "s.ini:3:", "bfq's, not kyber's");
	bad("[bfq]\nwbt_lat_usec = 0, 1\n", "s.ini:2:", "put it under [space]");
	bad("[space]\nwbt_lat_usec = 0\n", "s.ini:2:", "two to 6 levels");
	bad("[space]\nwbt_lat_usec = 0, 75000,\n", "s.ini:2:", "two to 6 levels");
	bad("[space]\nvm.dirty_ratio = 10, 200\n", "s.ini:2:", "vm.dirty_ratio = 200");
	bad("[space]\nread_ahead_kb = keep, 128\n\nread_ahead_kb = 1, 2\n", "s.ini:4:",
	    "given twice (first on line 2");
	bad("[space]\nread_ahead_kb = 128, 128\n", "s.ini:2:", "level 128 given twice");
	bad("wbt_lat_usec = 0, 1\n", "s.ini:1:", "outside a section");
	bad("[space]\nscheduler = bfq, ../x\n", "s.ini:2:", "scheduler '../x'");
	bad("[space]\nscheduler = bfq\nscheduler = none\n", "s.ini:3:", "given twice");
	bad("[no/such]\nx = 1, 2\n", "s.ini:2:", "a section is [space]");
	bad("[space]\nread_ahead_kb = 1\x01, 2\n", "s.ini:2:", "control bytes");
	bad("[space\nread_ahead_kb = 1, 2\n", "s.ini:1:", "not INI");
	bad("# nothing\n", "s.ini", "no keys");
}

static void test_good_space(void **state)
{
	(void)state;
	struct tune_space sp;
	char err[300];
	assert_int_equal(tune_space_parse("[space]\nscheduler = bfq, none\n"
					  "vm.dirty_bytes = keep, 1g, 256m\n[bfq]\n"
					  "slice_idle = keep, 0\n", "s.ini", &sp, err, sizeof(err)), 0);
	assert_false(sp.offered);
	assert_int_equal(sp.n_scheds, 2);
	assert_string_equal(sp.scheds[1], "none");
	assert_int_equal(sp.f[0].n_levels, 3);
	assert_string_equal(sp.f[0].levels[1], "1073741824");
	assert_int_equal(sp.f[1].line, 5);
}

/* Five arms: current; s1 and s1 with wbt off; s2 and s2 with wbt off.
 * s1 with wbt off is twice as fast as everything else, and costs the load
 * 40 %. */
static struct compare *raced(struct tune_space *sp, struct tune_point *pts)
{
	char err[300];
	assert_int_equal(tune_space_parse("[space]\nscheduler = mq-deadline, kyber\n"
					  "wbt_lat_usec = keep, 0\n", "s.ini", sp, err,
					  sizeof(err)), 0);
	memset(pts, 0, 5 * sizeof(*pts));
	const char *sched[5] = { "", "mq-deadline", "mq-deadline", "kyber", "kyber" };
	const signed char lv[5] = { -1, 0, 1, 0, 1 };
	struct compare_arm arms[5];
	memset(arms, 0, sizeof(arms));
	for (size_t i = 0; i < 5; i++) {
		snprintf(pts[i].sched, sizeof(pts[i].sched), "%s", sched[i]);
		memset(pts[i].level, -1, sizeof(pts[i].level));
		pts[i].level[0] = lv[i];
		snprintf(arms[i].name, sizeof(arms[i].name), "arm%zu", i);
		snprintf(arms[i].label, sizeof(arms[i].label), "arm%zu", i);
	}
	/* the winner's label is its settings cut, as compare makes it */
	snprintf(arms[2].settings, sizeof(arms[2].settings), "%s", LONG_ARM);
	snprintf(arms[2].label, sizeof(arms[2].label), "%.47s", LONG_ARM);
	struct compare_config cfg;
	compare_config_default(&cfg);
	cfg.run.actions = 1u << ACTION_LS | 1u << ACTION_SSH;
	cfg.rounds = 6;
	cfg.seed = 5;
	cfg.no_racing = 1;
	snprintf(cfg.run.dir, sizeof(cfg.run.dir), "/nonexistent");
	struct compare *c = NULL;
	assert_int_equal(compare_create(&cfg, &st, arms, 5, &c, err, sizeof(err)), 0);
	struct race_model m = { .ratio = { 1, 1, 0.5, 1, 1 }, .mibps = { 100, 100, 60, 100, 100 },
				.sd_run = 0.05, .sd_within = 0.1, .rng = 9 };
	c->sim = race_model_sim;
	c->sim_ctx = &m;
	compare_set_command(c, "tune");
	assert_int_equal(compare_run(c, NULL, err, sizeof(err)), 0);
	return c;
}

static void test_analyze(void **state)
{
	(void)state;
	struct tune_space sp;
	struct tune_point pts[5];
	struct compare *c = raced(&sp, pts);
	const struct compare_result *r = compare_result(c);
	struct tune_result t;
	assert_int_equal(tune_analyze(r, 0, &sp, pts, &t), 0);
	assert_int_equal(t.best, 2);
	assert_true(t.recommended);
	assert_int_equal(t.n_vs, 3);   /* current, mq-deadline's and kyber's defaults */
	assert_string_equal(t.vs[0].what, "current");
	assert_int_equal(t.vs[1].arm, 1);
	assert_string_equal(t.vs[1].what, "mq-deadline's defaults");
	assert_int_equal(t.vs[2].arm, 3);
	assert_int_equal(t.n_factor, 1);
	assert_int_equal(t.factor[0].arm, 1);   /* the best without wbt_lat_usec=0 */
	assert_string_equal(t.factor[0].what, "without wbt_lat_usec=0");
	assert_int_equal(t.factor[0].n_best, 6);
	for (size_t i = 0; i < t.n_vs; i++)
		if (!(t.vs[i].score.hi < 0.6 && t.vs[i].score.lo > 0.4))
			fail_msg("%zu: %g [%g, %g]", i, t.vs[i].score.est, t.vs[i].score.lo,
				 t.vs[i].score.hi);
	for (size_t i = 0; i < t.n_vs; i++)
		assert_true(t.vs[i].score.hi < 0.6 && t.vs[i].score.lo > 0.4);
	assert_true(t.factor[0].act[ACTION_LS].hi < 0.6);
	assert_true(isnan(t.factor[0].act[ACTION_SAVE].est));   /* not an action here */
	/* the load's cost: 60 against 100 MiB/s */
	assert_true(t.vs[0].load.lo > 0.5 && t.vs[0].load.hi < 0.7);
	assert_true(t.factor[0].load.lo > 0.5 && t.factor[0].load.hi < 0.7);
	/* the recommendation names the winner whole, once; the report is
	 * brisk tune's */
	assert_true(!strncmp(r->recommendation, "use " LONG_ARM ": faster than arm0 on ",
			     strlen("use " LONG_ARM ": faster than arm0 on ")));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	compare_report_text(f, r);
	fclose(f);
	assert_true(!strncmp(text, "brisk " BRISK_VERSION " tune on /nonexistent\n",
			     strlen("brisk " BRISK_VERSION " tune on /nonexistent\n")));
	free(text);
	compare_free(c);
}

/* The JSON a tune writes reads back as it was: the command, the seed,
 * every arm-run and sample, where its time went. */
static void test_saved_roundtrip(void **state)
{
	(void)state;
	struct tune_space sp;
	struct tune_point pts[5];
	struct compare *c = raced(&sp, pts);
	const struct compare_result *r = compare_result(c);
	struct timesplit *ts = &c->r.samples[1].split;   /* one sample with a breakdown */
	ts->ok = 1;
	ts->part_ns[2] = 41000000;
	ts->part_ns[3] = 1500000;
	ts->rq[1] = 7;
	ts->ahead_bytes[1] = 1 << 20;
	ts->n_makers = 1;
	ts->makers[0] = (struct timesplit_maker){ .pid = 42, .comm = "dd", .n = 3, .bytes = 4096,
						  .role = TIMESPLIT_LOAD };
	struct tune_result t;
	assert_int_equal(tune_analyze(r, 0, &sp, pts, &t), 0);
	char path[] = "/tmp/brisk-test-tune-XXXXXX", err[512];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char a0[] = "tune", a1[] = "/mnt", a2[] = "--seed", a3[] = "5";
	char *argv[] = { a0, a1, a2, a3, NULL };
	assert_int_equal(tune_report_json(r, &sp, &t, 4, argv, "/tmp", path, err, sizeof(err)), 0);
	struct tune_saved sv;
	assert_int_equal(tune_saved_read(path, &sv, err, sizeof(err)), 0);
	assert_int_equal(sv.argc, 4);
	assert_string_equal(sv.argv[3], "5");
	assert_null(sv.argv[4]);
	assert_string_equal(sv.cwd, "/tmp");
	assert_int_equal(sv.seed, r->seed);
	assert_int_equal(sv.n_arms, 5);
	assert_string_equal(sv.arms[2], "arm2");
	assert_int_equal(sv.n_runs, r->n_runs);
	assert_int_equal(sv.n_samples, r->n_samples);
	for (size_t i = 0; i < r->n_runs; i++) {
		assert_int_equal(sv.runs[i].arm, r->runs[i].arm);
		assert_int_equal(sv.runs[i].round, r->runs[i].round);
		assert_true(fabs(sv.runs[i].disk_mibps - r->runs[i].disk_mibps) < 1e-9);
	}
	for (size_t i = 0; i < r->n_samples; i++) {
		assert_int_equal(sv.samples[i].run, r->samples[i].run);
		assert_int_equal(sv.samples[i].action, r->samples[i].action);
		assert_true(fabs(sv.samples[i].ms - r->samples[i].ms) < 1e-6);
		assert_int_equal(sv.samples[i].split.ok, i == 1);
	}
	const struct timesplit *back = &sv.samples[1].split;
	assert_int_equal(back->part_ns[2], 41000000);
	assert_int_equal(back->part_ns[3], 1500000);
	assert_int_equal(back->rq[1], 7);
	assert_int_equal(back->ahead_bytes[1], 1 << 20);
	assert_int_equal(back->n_makers, 1);
	assert_string_equal(back->makers[0].comm, "dd");
	assert_int_equal(back->makers[0].role, TIMESPLIT_LOAD);
	tune_saved_free(&sv);
	unlink(path);
	compare_free(c);
}

/* A JSON brisk did not write as a tune's (root reads what a user hands
 * it): refused with -EINVAL and a reason, never trusted. */
static void hostile(const char *json, const char *what)
{
	char path[] = "/tmp/brisk-test-tune-XXXXXX", err[512] = "";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	struct tune_saved sv;
	int rc = tune_saved_read(path, &sv, err, sizeof(err));
	unlink(path);
	if (rc != -EINVAL || !strstr(err, what))
		fail_msg("%s: rc %d, '%s'", json, rc, err);
}

#define HEAD "{\"seed\":1,\"arms\":[{\"name\":\"current\"},{\"name\":\"scheduler=none\"}]," \
	     "\"tune\":{\"command\":[\"tune\"],\"cwd\":\"/tmp\"},"
#define RUN(arm, extra) "{\"arm\":" #arm ",\"round\":0,\"order\":0,\"t_s\":0,\"dur_s\":1," \
	"\"load_mibps\":null,\"disk_mibps\":null,\"disk_written_mibps\":null," \
	"\"disk_read_mibps\":null,\"window_s\":null,\"worst_stall_ms\":null,\"settle_s\":0," \
	"\"settle_timeout\":false,\"settle_left_mib\":0,\"failed\":false,\"note\":\"\"" extra "}"

static void test_saved_hostile(void **state)
{
	(void)state;
	hostile("[1]", "not JSON");
	hostile("{\"seed\":1", "not JSON");
	hostile("{}", "no tune");
	hostile(HEAD "\"runs\":[" RUN(7, "") "],\"samples\":[]}", "an arm-run's fields");
	hostile(HEAD "\"runs\":[" RUN(1, ",\"x\":1") "],\"samples\":[{\"run\":3,\"action\":"
		"\"ls\",\"ms\":1,\"cold\":true,\"timeout\":false,\"err\":0,\"t_s\":0}]}",
		"a sample's fields");
	hostile(HEAD "\"runs\":[" RUN(1, "") "],\"samples\":[{\"run\":0,\"action\":"
		"\"rm -rf\",\"ms\":1,\"cold\":true,\"timeout\":false,\"err\":0,\"t_s\":0}]}",
		"a sample's fields");
	hostile(HEAD "\"runs\":[" RUN(1, "") "],\"samples\":[{\"run\":0,\"action\":"
		"\"ls\",\"ms\":1e300,\"cold\":true,\"timeout\":false,\"err\":0,\"t_s\":0}]}",
		"a sample's fields");
	hostile("{\"seed\":1,\"arms\":[{\"name\":\"current\"},{\"name\":\"x\"}],\"tune\":"
		"{\"command\":[\"tune\"],\"cwd\":\"relative\"},\"runs\":[],\"samples\":[]}",
		"the directory it ran in");
	hostile("{\"seed\":1,\"arms\":[{\"name\":\"current\"},{\"name\":\"x\"}],\"tune\":"
		"{\"command\":[\"tune\",\"\\u001b[2J\"],\"cwd\":\"/tmp\"},\"runs\":[],"
		"\"samples\":[]}", "a word of the command");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_space), cmocka_unit_test(test_bad_spaces),
		cmocka_unit_test(test_good_space),    cmocka_unit_test(test_analyze),
		cmocka_unit_test(test_saved_roundtrip), cmocka_unit_test(test_saved_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
