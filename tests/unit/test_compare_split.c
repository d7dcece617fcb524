/* compare_split: where the time went, per arm and action, in brisk
 * compare, on synthetic breakdowns.  A comparison of current (4 s
 * ssh-like samples, 81 % queued behind 400 writes) against bfq (680 ms,
 * 80 % on the disk behind 12 writes), 3 rounds, save alike in both, goes
 * through the real analysis (compare_analyze): the summary per arm and
 * action (incomplete, unmeasured, warm and failed samples as the
 * statistics count them), the words, the recommendation's reason, the
 * text, JSON, CSV and OpenMetrics of it, the plot; and without a
 * breakdown (unavailable, --no-breakdown).
 *
 * BRISK_TEST_PLOT_KEEP=DIR also writes the picture into DIR to look at. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "compare.h"
#include "compare_plot.h"
#include "compare_report.h"
#include "compare_split.h"
#include "openmetrics.h"
#include "testdir.h"

#define MS 1000000ull
#define MiB (1024ull * 1024)
#define HOSTILE_COMM "k\x1b[2Jworker"

static struct testdir td;
static struct settings st;

static int setup(void **state)
{
	(void)state;
	return testdir_make(&td, "csplit");
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_TREE);
}

/* A breakdown of wall ms: shares of queued, device, cpu (the rest
 * blocked), n writes of mib MiB each ahead. */
static struct timesplit split(double wall, double queued, double device, double cpu,
			      unsigned ahead, unsigned mib)
{
	struct timesplit t;
	memset(&t, 0, sizeof(t));
	t.ok = 1;
	uint64_t w = (uint64_t)(wall * MS);
	t.part_ns[IOWHY_QUEUED] = (uint64_t)(queued * (double)w);
	t.part_ns[IOWHY_DEVICE] = (uint64_t)(device * (double)w);
	t.part_ns[IOWHY_CPU] = (uint64_t)(cpu * (double)w);
	t.part_ns[IOWHY_BLOCKED] = w - t.part_ns[IOWHY_QUEUED] - t.part_ns[IOWHY_DEVICE] -
				   t.part_ns[IOWHY_CPU];
	t.rq[0] = 3;
	t.rq_bytes[0] = 12288;
	t.ahead[1] = ahead;
	t.ahead_bytes[1] = (uint64_t)ahead * mib * MiB;
	if (ahead) {
		t.n_makers = 1;
		t.makers[0] = (struct timesplit_maker){ .pid = 77, .n = ahead,
							.bytes = t.ahead_bytes[1],
							.role = TIMESPLIT_OTHER };
		snprintf(t.makers[0].comm, sizeof(t.makers[0].comm), HOSTILE_COMM);
	}
	return t;
}

static void push(struct compare_result *r, uint32_t arm, uint32_t round, enum action_kind a,
		 double ms, const struct timesplit *t)
{
	assert_true(r->n_samples < r->cap_samples);
	struct compare_sample *x = &r->samples[r->n_samples++];
	memset(x, 0, sizeof(*x));
	x->arm = arm;
	x->round = round;
	x->run = round * 2 + arm;
	x->action = (uint8_t)a;
	x->cold = 1;
	x->ms = ms;
	x->t_ns = r->n_samples * 1000 * MS;
	if (t)
		x->split = *t;
}

/* The comparison, analysed.  Arm 0 ssh-like also has an incomplete, an
 * unmeasured, a warm and a failed sample. */
static struct compare *make(int keep_warm)
{
	struct compare_config cfg;
	compare_config_default(&cfg);
	cfg.run.actions = 1u << ACTION_SSH | 1u << ACTION_SAVE;
	cfg.rounds = 3;
	cfg.seed = 11;
	cfg.keep_warm = keep_warm;
	snprintf(cfg.run.dir, sizeof(cfg.run.dir), "%s", td.abs);
	struct compare_arm arms[2];
	memset(arms, 0, sizeof(arms));
	snprintf(arms[0].name, sizeof(arms[0].name), "current");
	snprintf(arms[0].label, sizeof(arms[0].label), "current");
	snprintf(arms[1].name, sizeof(arms[1].name), "scheduler=bfq");
	snprintf(arms[1].label, sizeof(arms[1].label), "bfq");
	snprintf(arms[1].settings, sizeof(arms[1].settings), "scheduler=bfq");
	struct compare *c = NULL;
	char err[256];
	assert_int_equal(compare_create(&cfg, &st, arms, 2, &c, err, sizeof(err)), 0);
	struct compare_result *r = (struct compare_result *)compare_result(c);
	r->cap_samples = 64;
	r->samples = calloc(r->cap_samples, sizeof(*r->samples));
	assert_non_null(r->samples);
	for (uint32_t round = 0; round < 3; round++) {
		for (int i = 0; i < 2; i++) {
			double cur = 3800 + 100.0 * (round * 2 + (uint32_t)i);
			double bfq = (double[]){ 600, 650, 680, 700, 720, 740 }[round * 2 + (uint32_t)i];
			struct timesplit tc = split(cur, 0.81, 0.12, 0.07, 400, 1);
			struct timesplit tb = split(bfq, 0.09, 0.80, 0.11, 12, 0);
			tb.ahead_bytes[1] = 10 * MiB;
			push(r, 0, round, ACTION_SSH, cur, &tc);
			push(r, 1, round, ACTION_SSH, bfq, &tb);
			struct timesplit ts = split(10 + i, 0, 0.1, 0.3, 0, 0);
			push(r, 0, round, ACTION_SAVE, 10 + i, &ts);
			push(r, 1, round, ACTION_SAVE, 10 + i, &ts);
		}
	}
	struct timesplit inc = split(9000, 0.5, 0.5, 0, 0, 0);
	inc.incomplete = 1;
	push(r, 0, 1, ACTION_SSH, 9000, &inc);          /* counted, left out */
	push(r, 0, 2, ACTION_SSH, 5000, NULL);          /* not measured */
	struct timesplit warm = split(100, 0, 0, 1, 0, 0);
	push(r, 0, 2, ACTION_SSH, 100, &warm);
	r->samples[r->n_samples - 1].cold = 0;               /* warm: only with --keep-warm */
	push(r, 0, 2, ACTION_SSH, NAN, &warm);
	r->samples[r->n_samples - 1].err = EIO;              /* failed: never */
	r->split_state.runs_on = 6;
	r->rounds_done = r->rounds_max = 3;
	assert_int_equal(compare_analyze(c), 0);
	return c;
}

static struct compare_result *res(struct compare *c)
{
	return (struct compare_result *)compare_result(c);
}

static void test_summary(void **state)
{
	(void)state;
	struct compare *c = make(0);
	const struct compare_result *r = res(c);
	const struct compare_split *b = &r->splits[1][ACTION_SSH];
	const struct compare_split *k = &r->splits[0][ACTION_SSH];
	assert_int_equal(b->n_counted, 6);
	assert_int_equal(b->n_measured, 6);
	assert_int_equal(b->n, 6);
	assert_int_equal(b->n_incomplete, 0);
	assert_true(b->has_median);
	/* the lower median of 6 by wall time: a real sample, 680 ms */
	assert_int_equal(timesplit_wall_ns(&b->median), 680 * MS);
	assert_int_equal(r->samples[b->median_sample].arm, 1);
	assert_true(fabs(r->samples[b->median_sample].ms - 680) < 1e-9);
	assert_true(fabs(b->share[IOWHY_DEVICE] - 0.80) < 1e-6);
	assert_true(fabs(b->share[IOWHY_QUEUED] - 0.09) < 1e-6);
	assert_true(fabs(b->ahead_mean[1] - 12) < 1e-9);
	assert_true(fabs(b->ahead_bytes_mean[1] - 10.0 * MiB) < 1e-3);
	/* the baseline: the incomplete and the unmeasured one counted, left
	 * out of the summary; the warm and the failed one not counted */
	assert_int_equal(k->n_counted, 8);
	assert_int_equal(k->n_measured, 7);
	assert_int_equal(k->n, 6);
	assert_int_equal(k->n_incomplete, 1);
	assert_int_equal(timesplit_wall_ns(&k->median), 4000 * MS);
	assert_true(fabs(k->share[IOWHY_QUEUED] - 0.81) < 1e-6);
	double sum = 0;
	for (int p = 0; p < TIMESPLIT_NPARTS; p++)
		sum += k->share[p];
	assert_true(fabs(sum - 1) < 1e-9);
	/* save alike in both */
	assert_int_equal(r->splits[0][ACTION_SAVE].n, 6);
	assert_true(r->splits[1][ACTION_SAVE].has_median);
	/* no other action, and the counts are the statistics' */
	assert_int_equal(r->splits[0][ACTION_LS].n_counted, 0);
	assert_int_equal(r->cells[0][ACTION_SSH].n, k->n_counted);
	compare_free(c);

	/* --keep-warm: the warm sample counts, and it was measured whole */
	c = make(1);
	k = &res(c)->splits[0][ACTION_SSH];
	assert_int_equal(k->n_counted, 9);
	assert_int_equal(k->n, 7);
	compare_free(c);
}

static void test_words(void **state)
{
	(void)state;
	struct compare *c = make(0);
	const struct compare_result *r = res(c);
	char w[512];
	compare_split_words(&r->splits[1][ACTION_SSH], w, sizeof(w));
	assert_string_equal(w, "680 ms - 80 % on the disk, 11 % on CPU, 9 % queued; behind 12 "
			    "writes (10.0 MiB) on average");
	compare_split_words(&r->splits[0][ACTION_SSH], w, sizeof(w));
	assert_string_equal(w, "4.00 s - 81 % queued, 12 % on the disk, 7 % on CPU; behind 400 "
			    "writes (400.0 MiB) on average");
	/* nothing ahead: no "behind" */
	compare_split_words(&r->splits[0][ACTION_SAVE], w, sizeof(w));
	assert_string_equal(w, "10.0 ms - 60 % other waits, 30 % on CPU, 10 % on the disk");
	/* no median: nothing */
	compare_split_words(&r->splits[0][ACTION_LS], w, sizeof(w));
	assert_string_equal(w, "");
	char t[32];
	compare_split_time(0.25, t, sizeof(t));
	assert_string_equal(t, "0.25 ms");
	compare_split_time(12345, t, sizeof(t));
	assert_string_equal(t, "12.3 s");
	compare_split_time(NAN, t, sizeof(t));
	assert_string_equal(t, "-");
	compare_free(c);
}

static void test_reason(void **state)
{
	(void)state;
	struct compare *c = make(0);
	struct compare_result *r = res(c);
	/* bfq wins ssh-like (and only that): the reason is ssh-like's */
	assert_int_equal(r->best, 1);
	assert_int_equal(r->cells[1][ACTION_SSH].verdict, STATS_FASTER);
	const char *want = "where the time went in ssh-like: bfq 680 ms (80 % on the disk, "
			   "11 % on CPU), current 4.00 s (81 % queued, 12 % on the disk)";
	assert_string_equal(r->reason, want);
	assert_non_null(strstr(r->recommendation, "use bfq (scheduler=bfq): faster than current on "
				 "ssh-like"));
	size_t rl = strlen(r->recommendation), wl = strlen(want);
	assert_true(rl > wl + 2);
	assert_string_equal(r->recommendation + rl - wl - 2, "; where the time went in ssh-like: "
			    "bfq 680 ms (80 % on the disk, 11 % on CPU), current 4.00 s (81 % queued, "
			    "12 % on the disk)");
	/* both actions, the larger difference first; max_actions holds */
	char b[COMPARE_SPLIT_REASON_LEN];
	compare_split_reason(r, 1, r->actions, 2, b, sizeof(b));
	assert_non_null(strstr(b, "where the time went in ssh-like: "));
	assert_non_null(strstr(b, "; in save: bfq 10.0 ms (60 % other waits, 30 % on CPU), "
			       "current 10.0 ms (60 % other waits, 30 % on CPU)"));
	compare_split_reason(r, 1, r->actions, 1, b, sizeof(b));
	assert_null(strstr(b, "save"));
	/* too small a buffer: whole actions only, never half of one */
	compare_split_reason(r, 1, r->actions, 2, b, 40);
	assert_string_equal(b, "");
	/* the baseline has no reason against itself */
	compare_split_reason(r, 0, r->actions, 2, b, sizeof(b));
	assert_string_equal(b, "");
	compare_free(c);

	/* no breakdown at all: the recommendation has no reason */
	c = make(0);
	r = res(c);
	for (size_t i = 0; i < r->n_samples; i++)
		r->samples[i].split.ok = 0;
	assert_int_equal(compare_analyze(c), 0);
	assert_string_equal(r->reason, "");
	assert_null(strstr(r->recommendation, "where the time went"));
	assert_int_equal(r->best, 1);
	compare_free(c);
}

static char *text_of(const struct compare_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	compare_report_text(f, r);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void assert_clean_lines(const char *t, size_t cols)
{
	size_t col = 0;
	for (const char *p = t; *p; p++) {
		unsigned char ch = (unsigned char)*p;
		if (ch == '\n') {
			col = 0;
			continue;
		}
		if (ch < 0x20 || ch > 0x7e)
			fail_msg("byte 0x%02x at offset %zu", ch, (size_t)(p - t));
		if (++col > cols)
			fail_msg("line longer than %zu at offset %zu", cols, (size_t)(p - t));
	}
}

static void test_text(void **state)
{
	(void)state;
	struct compare *c = make(0);
	struct compare_result *r = res(c);
	snprintf(r->arms[1].label, sizeof(r->arms[1].label), "bfq\x1b[2J");
	assert_int_equal(compare_analyze(c), 0);
	char *t = text_of(r);
	assert_clean_lines(t, COMPARE_REPORT_COLS);
	assert_non_null(strstr(t, "\nwhere the time went (per action and arm"));
	assert_non_null(strstr(t, "\nssh-like     n          cpu      runq    device    queued"));
	/* the median sample's parts in ms, then the mean shares */
	assert_non_null(strstr(t, "\nbfq\\x1b[2J   6 ms     74.80         0    544.00     61.20"));
	assert_non_null(strstr(t, "\n                %        11         0        80         9"));
	assert_non_null(strstr(t, "\ncurrent      6 ms    280.00         0    480.00   3240.00"));
	assert_non_null(strstr(t, "\n  bfq\\x1b[2J: 680 ms - 80 % on the disk, 11 % on CPU, 9 % "
			       "queued; behind 12"));
	assert_non_null(strstr(t, "\n  current: 4.00 s - 81 % queued, 12 % on the disk, 7 % on "
			       "CPU; behind 400"));
	assert_non_null(strstr(t, "(1 left out: not whole)"));
	assert_non_null(strstr(t, "(cpu: on CPU; runq: waiting for a CPU; device: on the disk;"));
	/* the recommendation quotes the reason (wrapped) */
	const char *rec = strstr(t, "\nrecommendation: use bfq\\x1b[2J (scheduler=bfq)");
	assert_non_null(rec);
	assert_non_null(strstr(rec, "where the time went in ssh-like: bfq\\x1b[2J 680 ms (80 % on"));
	/* before the load rows: the section sits after the actions' table */
	assert_true(strstr(t, "where the time went (") < strstr(t, "runs failed"));
	free(t);

	/* some arm-runs without one: said under the section */
	r->split_state.runs_off = 2;
	snprintf(r->split_state.why_not, sizeof(r->split_state.why_not), "it needs root (BPF)");
	t = text_of(r);
	assert_non_null(strstr(t, "\n2 of 8 arm-runs without a breakdown: it needs root (BPF)\n"));
	free(t);

	/* none: why, once; with --no-breakdown nothing at all */
	for (size_t i = 0; i < r->n_samples; i++)
		r->samples[i].split.ok = 0;
	r->split_state.runs_on = 0;
	assert_int_equal(compare_analyze(c), 0);
	r->n_runs = 6;   /* the text only counts them */
	t = text_of(r);
	assert_non_null(strstr(t, "\nwhere the time went: the breakdown is unavailable: it needs "
			       "root (BPF)\n"));
	assert_null(strstr(t, "where the time went in"));
	free(t);
	r->split_state.no_breakdown = 1;
	snprintf(r->split_state.why_not, sizeof(r->split_state.why_not),
		 "turned off (--no-breakdown)");
	t = text_of(r);
	assert_null(strstr(t, "where the time went"));
	free(t);
	r->n_runs = 0;
	compare_free(c);
}

static struct json_object *get(struct json_object *o, const char *k, json_type type)
{
	struct json_object *v = NULL;
	if (!json_object_object_get_ex(o, k, &v))
		fail_msg("no key %s", k);
	if (!json_object_is_type(v, type))
		fail_msg("key %s: type %s", k, json_type_to_name(json_object_get_type(v)));
	return v;
}

static double num(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;
	if (!json_object_object_get_ex(o, k, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		fail_msg("key %s: not a number", k);
	return json_object_get_double(v);
}

static void test_json(void **state)
{
	(void)state;
	struct compare *c = make(0);
	struct compare_result *r = res(c);
	char path[PATH_MAX], err[512];
	snprintf(path, sizeof(path), "%s/c.json", td.abs);
	assert_int_equal(compare_report_json(r, path, err, sizeof(err)), 0);
	struct json_object *j = json_object_from_file(path);
	assert_non_null(j);
	struct json_object *bd = get(j, "breakdown", json_type_object);
	assert_true(json_object_get_boolean(get(bd, "available", json_type_boolean)));
	get(bd, "why_not", json_type_null);
	assert_int_equal(json_object_get_int(get(bd, "runs_without", json_type_int)), 0);
	struct json_object *rec = get(j, "recommendation", json_type_object);
	assert_string_equal(json_object_get_string(get(rec, "reason", json_type_string)), r->reason);
	/* per arm and action */
	struct json_object *arm1 = json_object_array_get_idx(get(j, "arms", json_type_array), 1);
	struct json_object *acts = get(arm1, "actions", json_type_object);
	struct json_object *g = get(get(acts, "ssh-like", json_type_object), "breakdown",
				    json_type_object);
	assert_int_equal(json_object_get_int(get(g, "n", json_type_int)), 6);
	assert_int_equal(json_object_get_int(get(g, "n_incomplete", json_type_int)), 0);
	assert_true(fabs(num(g, "median_wall_ms") - 680) < 1e-6);
	assert_true(fabs(num(get(g, "median_parts", json_type_object), "device_ms") - 544) < 1e-6);
	assert_true(fabs(num(get(g, "mean_shares", json_type_object), "device") - 0.8) < 1e-6);
	assert_true(fabs(num(get(g, "mean_ahead", json_type_object), "write_n") - 12) < 1e-9);
	struct json_object *arm0 = json_object_array_get_idx(get(j, "arms", json_type_array), 0);
	g = get(get(get(arm0, "actions", json_type_object), "ssh-like", json_type_object),
		"breakdown", json_type_object);
	assert_int_equal(json_object_get_int(get(g, "n_incomplete", json_type_int)), 1);
	assert_int_equal(json_object_get_int(get(g, "n_without", json_type_int)), 1);
	/* per sample: its parts, or null when not measured; the comm exact */
	struct json_object *ss = get(j, "samples", json_type_array);
	assert_int_equal(json_object_array_length(ss), r->n_samples);
	size_t nulls = 0, parts = 0;
	for (size_t i = 0; i < r->n_samples; i++) {
		struct json_object *s = json_object_array_get_idx(ss, i), *b = NULL;
		assert_true(json_object_object_get_ex(s, "breakdown", &b));
		if (!b) {
			nulls++;
			assert_false(r->samples[i].split.ok);
			continue;
		}
		struct json_object *pt = get(b, "parts", json_type_object);
		double sum = 0;
		json_object_object_foreach(pt, key, v) {
			(void)key;
			sum += json_object_get_double(v);
		}
		assert_true(fabs(sum - num(b, "wall_ms")) < 1e-3);
		parts++;
		if (r->samples[i].split.n_makers) {
			struct json_object *m = json_object_array_get_idx(get(b, "makers",
									    json_type_array), 0);
			assert_string_equal(json_object_get_string(get(m, "comm", json_type_string)),
					    HOSTILE_COMM);
		}
	}
	assert_int_equal(nulls, 1);
	assert_int_equal(parts, r->n_samples - 1);
	json_object_put(j);

	/* unavailable: why, and no cell summary */
	for (size_t i = 0; i < r->n_samples; i++)
		r->samples[i].split.ok = 0;
	r->split_state.runs_on = 0;
	r->split_state.runs_off = 6;
	snprintf(r->split_state.why_not, sizeof(r->split_state.why_not), "it needs root (BPF)");
	assert_int_equal(compare_analyze(c), 0);
	assert_int_equal(compare_report_json(r, path, err, sizeof(err)), 0);
	j = json_object_from_file(path);
	bd = get(j, "breakdown", json_type_object);
	assert_false(json_object_get_boolean(get(bd, "available", json_type_boolean)));
	assert_string_equal(json_object_get_string(get(bd, "why_not", json_type_string)),
			    "it needs root (BPF)");
	assert_int_equal(json_object_get_int(get(bd, "runs_without", json_type_int)), 6);
	arm1 = json_object_array_get_idx(get(j, "arms", json_type_array), 1);
	get(get(get(arm1, "actions", json_type_object), "ssh-like", json_type_object), "breakdown",
	    json_type_null);
	get(get(j, "recommendation", json_type_object), "reason", json_type_null);
	json_object_put(j);
	compare_free(c);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_csv_openmetrics(void **state)
{
	(void)state;
	struct compare *c = make(0);
	struct compare_result *r = res(c);
	char path[PATH_MAX], err[512];
	snprintf(path, sizeof(path), "%s/c.csv", td.abs);
	assert_int_equal(compare_report_csv(r, path, err, sizeof(err)), 0);
	char *t = slurp(path);
	assert_non_null(strstr(t, ",t_s,split_cpu_ms,split_runq_ms,split_device_ms,split_queued_ms,"));
	/* bfq's 680 ms sample: its parts; the unmeasured one: empty cells */
	assert_non_null(strstr(t, ",\"ssh-like\",680.000,1,0,0,"));
	assert_non_null(strstr(t, ",74.800,0.000,544.000,61.200,0.000,0.000,0.000,0.000,"));
	assert_non_null(strstr(t, ",\"ssh-like\",5000.000,1,0,0,"));
	const char *un = strstr(t, ",\"ssh-like\",5000.000,1,0,0,");
	assert_non_null(strstr(un, ",,,,,,,,,,,,,,,,,,,\n"));
	assert_true(strstr(un, ",,,,,,,,,,,,,,,,,,,\n") < strchr(un, '\n'));

	snprintf(path, sizeof(path), "%s/c.prom", td.abs);
	assert_int_equal(openmetrics_compare(r, path, err, sizeof(err)), 0);
	t = slurp(path);
	assert_non_null(strstr(t, "# TYPE brisk_compare_time_share_ratio gauge\n"));
	const char *l = strstr(t, "\nbrisk_compare_time_share_ratio{");
	assert_non_null(l);
	/* bfq ssh-like device: 0.8 */
	int found = 0;
	for (const char *p = l; (p = strstr(p, "\nbrisk_compare_time_share_ratio{")); p++) {
		char line[1024];
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
		if (strstr(line, "arm=\"bfq\"") && strstr(line, "action=\"ssh-like\"") &&
		    strstr(line, "part=\"device\"")) {
			found = 1;
			assert_true(fabs(atof(strrchr(line, ' ') + 1) - 0.8) < 1e-6);
		}
	}
	assert_true(found);
	assert_non_null(strstr(t, "# TYPE brisk_compare_time_median_seconds gauge\n"));
	compare_free(c);
}

static void test_plot(void **state)
{
	(void)state;
	struct compare *c = make(0);
	struct compare_result *r = res(c);
	char path[PATH_MAX], err[512];
	snprintf(path, sizeof(path), "%s/c.png", td.abs);
	assert_int_equal(compare_plot(r, path, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/c.svg", td.abs);
	assert_int_equal(compare_plot(r, path, err, sizeof(err)), 0);
	char *t = slurp(path);
	assert_non_null(strstr(t, "<svg"));
	const char *keep = getenv("BRISK_TEST_PLOT_KEEP");
	if (keep && *keep) {
		snprintf(path, sizeof(path), "%s/compare_split.png", keep);
		assert_int_equal(compare_plot(r, path, err, sizeof(err)), 0);
	}
	compare_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_reason),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv_openmetrics),
		cmocka_unit_test(test_plot),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
