/* Unit tests for compare_report.c: the text, JSON and CSV of a synthetic
 * comparison (3 arms, 2 actions, NaNs, a label with a comma, a quote and
 * an ESC byte) and --save NAME.  Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <dirent.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "compare_report.h"
#include "profile.h"
#include "testdir.h"

#define ESC_LABEL "mq,\"dl\"\x1b[31m"
#define NOSPLIT ",,,,,,,,,,,,,,,,,,,"   /* 19 empty breakdown cells */

static struct settings_step steps1[2], steps2[1];
static struct compare_sample samples[8];
static struct compare_run runs[3];
static struct testdir td;   /* td.abs: the absolute scratch directory */

static void ci(struct stats_ci *c, double est, double lo, double hi)
{
	c->est = est;
	c->lo = lo;
	c->hi = hi;
}

static void step(struct settings_step *s, const char *dev, const char *key, const char *value)
{
	char why[256];
	memset(s, 0, sizeof(*s));
	s->dev = dev;
	assert_int_equal(tunable_parse_key(key, &s->key, why, sizeof(why)), 0);
	snprintf(s->value, sizeof(s->value), "%s", value);
}

static void cell(struct compare_cell *c, size_t n, double p50, double lo, double hi,
		 double r50, double rlo, double rhi, enum stats_verdict v)
{
	memset(c, 0, sizeof(*c));
	c->n = n;
	c->cold = (unsigned)n;
	c->min = p50 * 0.5;
	c->mean = p50 * 1.1;
	c->max = p50 * 3;
	ci(&c->p50, p50, lo, hi);
	ci(&c->p90, p50 * 2, lo * 2, hi * 2);
	ci(&c->p99, p50 * 3, NAN, NAN);
	ci(&c->pmax, p50 * 3, p50 * 2, p50 * 4);
	ci(&c->ratio50, r50, rlo, rhi);
	ci(&c->ratio_runs, r50, rlo, rhi);
	ci(&c->ratio90, r50, rlo, rhi);
	c->p = isnan(r50) ? NAN : 0.001;
	c->p_adj = isnan(r50) ? NAN : 0.004;
	c->p_equiv = isnan(r50) ? NAN : 0.2;
	c->p_equiv_adj = isnan(r50) ? NAN : 0.4;
	c->verdict = v;
	c->settled = v != STATS_NO_DIFFERENCE;
	c->more_rounds = -1;
}

/* The synthetic result (static: it is large). */
static struct compare_result *make(void)
{
	static struct compare_result r;
	memset(&r, 0, sizeof(r));
	r.n_arms = 3;
	snprintf(r.arms[0].name, sizeof(r.arms[0].name), "current");
	snprintf(r.arms[0].label, sizeof(r.arms[0].label), "current");
	snprintf(r.arms[1].name, sizeof(r.arms[1].name), "scheduler=bfq,low_latency=1");
	snprintf(r.arms[1].label, sizeof(r.arms[1].label), "bfq");
	snprintf(r.arms[1].settings, sizeof(r.arms[1].settings), "scheduler=bfq low_latency=1");
	step(&steps1[0], "vda", "scheduler", "bfq");
	step(&steps1[1], "vda", "low_latency", "1");
	r.arms[1].steps = steps1;
	r.arms[1].n_steps = 2;
	snprintf(r.arms[2].name, sizeof(r.arms[2].name), "./odd" ESC_LABEL ".profile");
	snprintf(r.arms[2].label, sizeof(r.arms[2].label), ESC_LABEL);
	snprintf(r.arms[2].settings, sizeof(r.arms[2].settings), "scheduler=mq-deadline");
	step(&steps2[0], "vda", "scheduler", "mq-deadline");
	r.arms[2].steps = steps2;
	r.arms[2].n_steps = 1;
	r.actions = 1u << ACTION_EXEC | 1u << ACTION_LS;

	cell(&r.cells[0][ACTION_EXEC], 12, 3060, 2900, 3300, NAN, NAN, NAN, STATS_NO_DIFFERENCE);
	cell(&r.cells[1][ACTION_EXEC], 12, 643, 590, 701, 0.21, 0.15, 0.30, STATS_FASTER);
	/* arm 2 exec: nothing came back */
	cell(&r.cells[2][ACTION_EXEC], 0, NAN, NAN, NAN, NAN, NAN, NAN, STATS_NO_DIFFERENCE);
	r.cells[2][ACTION_EXEC].errors = 3;
	cell(&r.cells[0][ACTION_LS], 12, 41.5, 30, 52, NAN, NAN, NAN, STATS_NO_DIFFERENCE);
	cell(&r.cells[1][ACTION_LS], 12, 40.2, 31, 50, 0.97, 0.8, 1.2, STATS_NO_DIFFERENCE);
	cell(&r.cells[2][ACTION_LS], 12, 88, 70, 99, 2.12, 1.7, 2.6, STATS_SLOWER);
	r.cells[1][ACTION_LS].more_rounds = 4;
	r.more_rounds = 4;
	r.margin = 1.10;

	for (size_t a = 0; a < 3; a++) {
		r.armstat[a].runs = 2;
		r.armstat[a].failed_runs = a == 2;
		r.armstat[a].load_ok = a != 2;
	}
	/* the disk figures decide; the loads' own rate (bursts into the page
	 * cache) is shown apart */
	ci(&r.armstat[0].disk_mibps, 101.2, 98.0, 104.1);
	ci(&r.armstat[1].disk_mibps, 95.4, 90.1, 99.9);
	ci(&r.armstat[2].disk_mibps, 40.3, NAN, NAN);
	ci(&r.armstat[0].load_mibps, 310.5, 250.0, 371.0);
	ci(&r.armstat[1].load_mibps, 588.4, 488.5, 688.3);
	ci(&r.armstat[2].load_mibps, 96.6, NAN, NAN);
	r.load_by_disk = 1;
	r.load_dirs = COMPARE_LOAD_WRITES;
	r.load_window_ns = 10000000000ull;
	snprintf(r.load_dev, sizeof(r.load_dev), "vda1");
	r.armstat[0].worst_stall_ms = 1234.5;
	r.armstat[1].worst_stall_ms = 310;
	r.armstat[2].worst_stall_ms = NAN;
	r.armstat[0].score = 1.0;
	r.armstat[1].score = 0.34;
	r.armstat[2].score = NAN;
	r.ranking[0] = 1;
	r.ranking[1] = 0;
	r.ranking[2] = 2;
	r.n_ranked = 3;
	r.best = 1;
	snprintf(r.recommendation, sizeof(r.recommendation),
		 "use bfq: faster than current for exec, no slower for ls");
	snprintf(r.rule, sizeof(r.rule), "rank by the geometric mean of the p90 ratios among "
		 "arms that keep at least 80%% of the best load throughput");

	for (size_t i = 0; i < 3; i++) {
		struct compare_run *x = &runs[i];
		memset(x, 0, sizeof(*x));
		x->arm = (uint32_t)i;
		x->order = (uint32_t)((i + 1) % 3);
		x->t_ns = i * 20000000000ull;
		x->dur_ns = 19500000000ull;
		x->load_mibps = i == 2 ? NAN : 300.0 - (double)i;
		x->disk_mibps = x->disk_wr_mibps = i == 2 ? NAN : 100.0 - (double)i;
		x->disk_rd_mibps = i == 2 ? NAN : 0.5;
		x->window_s = 10;
		x->worst_stall_ms = 300;
		x->settle_s = 1.5;
		x->settle_left_mib = NAN;
		x->failed = i == 2;
		if (i == 2)
			snprintf(x->note, sizeof(x->note), "session failed: " ESC_LABEL);
	}
	r.runs = runs;
	r.n_runs = r.cap_runs = 3;
	for (size_t i = 0; i < 8; i++) {
		struct compare_sample *s = &samples[i];
		memset(s, 0, sizeof(*s));
		s->arm = (uint32_t)(i % 3);
		s->run = s->arm;
		s->order = runs[s->arm].order;
		s->action = i % 2 ? ACTION_LS : ACTION_EXEC;
		s->cold = 1;
		s->ms = 100.0 + (double)i;
		s->t_ns = i * 1000000000ull;
	}
	samples[2].ms = NAN;          /* arm 2, exec: failed */
	samples[2].err = -EIO;
	samples[2].cold = 0;
	samples[5].timeout = 1;
	r.samples = samples;
	r.n_samples = r.cap_samples = 8;

	r.rounds_done = 1;
	r.rounds_max = 6;
	r.looks = 3;
	r.looks_taken = 1;
	r.alpha = 0.05;
	r.alpha_look = 0.05 / 3;
	r.seed = 12345;
	r.t_start_real = 1764569018;   /* 2025-12-01 06:03 UTC */
	r.t_ns = 60000000000ull;
	r.stop_signal = 0;
	snprintf(r.dir, sizeof(r.dir), "/mnt/te\x1bst dir");
	snprintf(r.stackline, sizeof(r.stackline), "ext4 on vda (virtio)");
	snprintf(r.disks, sizeof(r.disks), "vda: model Caf\xc3\xa9 \x07" "Disk fw 1.0");
	snprintf(r.workload, sizeof(r.workload), "seq-write 1M; actions exec ls");
	snprintf(r.msgs[0], sizeof(r.msgs[0]), "arm " ESC_LABEL " starved the load");
	r.n_msgs = 1;
	return &r;
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

/* ASCII, no control byte but LF, no line past the width. */
static void assert_clean_lines(const char *t, size_t cols)
{
	size_t col = 0;
	for (const char *p = t; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '\n') {
			col = 0;
			continue;
		}
		if (c < 0x20 || c > 0x7e)
			fail_msg("byte 0x%02x at offset %zu", c, (size_t)(p - t));
		if (++col > cols)
			fail_msg("line longer than %zu at offset %zu", cols, (size_t)(p - t));
	}
}

/* The line of the text that starts with prefix and holds every needle. */
static const char *line_with(const char *t, const char *prefix, const char *n1, const char *n2)
{
	for (const char *p = t; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char line[512];
		if (len >= sizeof(line))
			continue;
		memcpy(line, p, len);
		line[len] = '\0';
		if (strncmp(line, prefix, strlen(prefix)) == 0 && (!n1 || strstr(line, n1)) &&
		    (!n2 || strstr(line, n2)))
			return p;
	}
	return NULL;
}

/* The text with each line break and the indent after it as one space. */
static const char *flat(const char *t)
{
	static char b[65536];
	size_t o = 0;
	for (const char *p = t; *p && o + 1 < sizeof(b); p++) {
		if (*p == '\n') {
			while (p[1] == ' ')
				p++;
			b[o++] = ' ';
		} else {
			b[o++] = *p;
		}
	}
	b[o] = '\0';
	return b;
}

static void test_text(void **state)
{
	(void)state;
	struct compare_result *r = make();
	char *t = text_of(r);
	assert_clean_lines(t, COMPARE_REPORT_COLS);
	assert_null(memchr(t, 0x1b, strlen(t)));
	assert_non_null(strstr(t, "/mnt/te\\x1bst dir"));
	assert_non_null(strstr(t, "Caf\\xc3\\xa9 \\x07Disk"));      /* UTF-8 as \xHH: ASCII */
	assert_non_null(strstr(t, "rounds: 1 of 6, seed 12345"));
	assert_non_null(strstr(t, "split over 3 looks (1 taken): 0.0167 at the last"));
	/* the rows, one per arm and action */
	assert_non_null(line_with(t, "current    exec", "3060 [2900, 3300]", "baseline"));
	assert_non_null(line_with(t, "bfq        exec", "643 [590, 701]", "0.21 [0.15, 0.30]"));
	assert_non_null(line_with(t, "bfq        exec", "faster", NULL));
	assert_non_null(line_with(t, "current    ls", "41.5 [30.0, 52.0]", "baseline"));
	assert_non_null(line_with(t, "bfq        ls", "0.97 [0.80, 1.20]", "undecided"));
	assert_non_null(strstr(t, "equivalence margin 10%"));
	assert_non_null(strstr(flat(t), "about 4 more rounds would likely settle them"));
	/* the label is escaped and cut to its column at a whole escape */
	assert_non_null(line_with(t, "mq,\"dl\"    ls", "2.12 [1.70, 2.60]", "slower"));
	/* NaN is "-": arm 2 has no exec figures */
	const char *row = line_with(t, "mq,\"dl\"    exec", NULL, NULL);
	assert_non_null(row);
	char rl[200];
	snprintf(rl, sizeof(rl), "%.*s", (int)strcspn(row, "\n"), row);
	assert_non_null(strstr(rl, "   0    0      -      -      -  -"));
	assert_null(strstr(rl, "nan"));
	assert_null(strstr(t, "nan"));
	/* the loads: to the disk with its CI, the loads' own rate, worst
	 * stall, runs, failed; named, and what they cover said */
	assert_non_null(line_with(t, "arm        runs failed  written to disk MiB/s [95% CI]",
				  "write() MiB/s worst-stall-ms", NULL));
	assert_non_null(line_with(t, "current       2      0  101.2 [98.0, 104.1]", " 310.5 ",
				  "1234"));
	assert_non_null(line_with(t, "bfq           2      0  95.4 [90.1, 99.9]", " 588.4 ", NULL));
	assert_non_null(line_with(t, "mq,\"dl\"       2      1  40.3 [-, -]", " 96.6 ", " -"));
	assert_non_null(line_with(t, "(over each arm-run's load window, the first 10 s of its "
				  "loaded phase", NULL, NULL));
	assert_non_null(strstr(t, "written to disk = what reached vda1 in it"));
	assert_non_null(strstr(t, "the load rule goes by written to disk)"));
	/* the ranking, best first, and who starves the load */
	const char *r1 = line_with(t, "  1. bfq", "score   0.34", "recommended");
	const char *r2 = line_with(t, "  2. current", "1.00", NULL);
	const char *r3 = line_with(t, "  3. mq,\"dl\"", "starves the load (40.3 MiB/s written to disk", NULL);
	assert_non_null(r1);
	assert_non_null(r2);
	assert_non_null(r3);
	assert_true(r1 < r2 && r2 < r3);
	assert_non_null(line_with(t, "recommendation: use bfq: faster than current", NULL, NULL));
	assert_non_null(line_with(t, "rule: rank by the geometric mean", NULL, NULL));
	/* the arm legend keeps the whole label, escaped */
	assert_non_null(strstr(t, "(from ./oddmq,\"dl\"\\x1b[31m.profile)"));
	assert_non_null(line_with(t, "  arm mq,\"dl\"\\x1b[31m starved the load", NULL, NULL));
	free(t);

	/* how it ended */
	r->stop_signal = 2;
	t = text_of(r);
	assert_non_null(strstr(t, "interrupted by SIGINT"));
	free(t);
	r->stop_signal = 0;
	r->stopped_early = 1;
	t = text_of(r);
	assert_non_null(strstr(t, "stopped early: every verdict settled at look 1 of 3"));
	free(t);
}

static void test_text_wraps(void **state)
{
	(void)state;
	struct compare_result *r = make();
	/* a long stack line of words and one long word of escapes */
	char *p = r->stackline;
	for (int i = 0; i < 40; i++)
		p += sprintf(p, "dm-%d ", i);
	/* extreme figures keep the table inside the width */
	cell(&r->cells[2][ACTION_LS], 99999, 99999, 90000, 120000, 123.4, 100.2, 1500.9,
	     STATS_NO_DIFFERENCE);
	r->cells[2][ACTION_LS].min = 0.001;
	r->cells[2][ACTION_LS].max = 654321;
	ci(&r->armstat[2].load_mibps, 12345.6, 12000.1, 13000.9);
	r->armstat[2].worst_stall_ms = 123456789;
	r->armstat[2].runs = 99999;
	memset(r->disks, '\x1b', 200);
	r->disks[200] = '\0';
	char *t = text_of(r);
	assert_clean_lines(t, COMPARE_REPORT_COLS);
	assert_non_null(strstr(t, "123 [100, 1501]"));
	assert_non_null(strstr(t, "dm-0 dm-1"));
	assert_non_null(strstr(t, "dm-39"));
	/* every ESC is there, as whole escapes, none cut */
	size_t n = 0;
	for (const char *q = t; (q = strstr(q, "\\x1b")); q += 4)
		n++;
	assert_int_equal(n, 200 + 3);   /* + dir, legend, note */
	free(t);
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

static void check_ci(struct json_object *o, const char *k, int null_est)
{
	struct json_object *c = get(o, k, json_type_object);
	get(c, "est", null_est ? json_type_null : json_type_double);
	get(c, "lo", null_est ? json_type_null : json_type_double);
	get(c, "hi", null_est ? json_type_null : json_type_double);
}

static void no_tmp_left(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp"))
			fail_msg("temporary file %s left in %s", e->d_name, dir);
	closedir(d);
}

static void test_json(void **state)
{
	(void)state;
	struct compare_result *r = make();
	char path[PATH_MAX + 16], err[512];
	snprintf(path, sizeof(path), "%s/cmp.json", td.abs);
	assert_int_equal(compare_report_json(r, path, err, sizeof(err)), 0);
	no_tmp_left(td.abs);
	char *raw = slurp(path);
	assert_null(memchr(raw, 0x1b, strlen(raw)));
	struct json_object *j = json_object_from_file(path);
	assert_non_null(j);
	assert_string_equal(json_object_get_string(get(j, "kind", json_type_string)), "compare");
	assert_int_equal(json_object_get_int(get(j, "format_version", json_type_int)), 1);
	get(j, "brisk_version", json_type_string);
	assert_string_equal(json_object_get_string(get(j, "dir", json_type_string)), r->dir);
	get(j, "stack", json_type_string);
	assert_string_equal(json_object_get_string(get(j, "disks", json_type_string)), r->disks);
	get(j, "workload", json_type_string);
	assert_int_equal(json_object_get_int64(get(j, "seed", json_type_int)), 12345);
	struct json_object *rounds = get(j, "rounds", json_type_object);
	assert_int_equal(json_object_get_int(get(rounds, "done", json_type_int)), 1);
	assert_int_equal(json_object_get_int(get(rounds, "max", json_type_int)), 6);
	get(j, "looks", json_type_int);
	get(j, "alpha", json_type_double);
	get(j, "alpha_look", json_type_double);
	get(j, "stopped_early", json_type_boolean);
	assert_float_equal(json_object_get_double(get(j, "margin", json_type_double)), 1.10, 1e-12);
	assert_int_equal(json_object_get_int(get(j, "more_rounds", json_type_int)), 4);
	get(j, "stop_signal", json_type_null);

	struct json_object *arms = get(j, "arms", json_type_array);
	assert_int_equal(json_object_array_length(arms), 3);
	for (size_t a = 0; a < 3; a++) {
		struct json_object *o = json_object_array_get_idx(arms, a);
		assert_int_equal(json_object_get_int(get(o, "index", json_type_int)), a);
		get(o, "name", json_type_string);
		get(o, "settings", json_type_string);
		get(o, "runs", json_type_int);
		get(o, "failed_runs", json_type_int);
		get(o, "load_ok", json_type_boolean);
		struct json_object *ld = get(o, "load_mibps", json_type_object);
		get(ld, "est", json_type_double);
		get(ld, "lo", a == 2 ? json_type_null : json_type_double);
		struct json_object *dm = get(o, "disk_mibps", json_type_object);
		assert_true(fabs(json_object_get_double(get(dm, "est", json_type_double)) -
				 (a == 0 ? 101.2 : a == 1 ? 95.4 : 40.3)) < 1e-9);
		get(o, "worst_stall_ms", a == 2 ? json_type_null : json_type_double);
		get(o, "score", a == 2 ? json_type_null : json_type_double);
		struct json_object *acts = get(o, "actions", json_type_object);
		assert_int_equal(json_object_object_length(acts), 2);
		struct json_object *ex = get(acts, "exec", json_type_object);
		struct json_object *ls = get(acts, "ls", json_type_object);
		get(ex, "n", json_type_int);
		get(ex, "cold", json_type_int);
		get(ex, "warm", json_type_int);
		get(ex, "timeouts", json_type_int);
		get(ex, "errors", json_type_int);
		get(ls, "min", json_type_double);
		get(ls, "mean", json_type_double);
		get(ls, "max", json_type_double);
		check_ci(ls, "p50", 0);
		check_ci(ls, "p90", 0);
		check_ci(ls, "max_ci", 0);
		struct json_object *p99 = get(ls, "p99", json_type_object);
		get(p99, "est", json_type_double);
		get(p99, "lo", json_type_null);          /* NaN -> null */
		check_ci(ls, "ratio_p50", a == 0);
		check_ci(ls, "ratio_p90", a == 0);
		get(ls, "p", a == 0 ? json_type_null : json_type_double);
		get(ls, "p_adjusted", a == 0 ? json_type_null : json_type_double);
		get(ls, "settled", json_type_boolean);
		const char *v = json_object_get_string(get(ls, "verdict", json_type_string));
		assert_string_equal(v, a == 0 ? "baseline" : a == 1 ? "undecided" : "slower");
		get(ls, "p_equivalent_adjusted", a == 0 ? json_type_null : json_type_double);
		get(ls, "more_rounds", a == 1 ? json_type_int : json_type_null);
		if (a == 2) {
			/* arm 2 exec: every figure null */
			get(ex, "min", json_type_null);
			check_ci(ex, "p50", 1);
			assert_int_equal(json_object_get_int(get(ex, "errors", json_type_int)), 3);
		}
	}
	/* the label with a comma, a quote and ESC comes back exactly */
	assert_string_equal(json_object_get_string(get(json_object_array_get_idx(arms, 2),
						       "label", json_type_string)), ESC_LABEL);

	struct json_object *rank = get(j, "ranking", json_type_array);
	assert_int_equal(json_object_array_length(rank), 3);
	static const int order[] = { 1, 0, 2 };
	for (size_t i = 0; i < 3; i++) {
		struct json_object *o = json_object_array_get_idx(rank, i);
		assert_int_equal(json_object_get_int(get(o, "arm", json_type_int)), order[i]);
		get(o, "label", json_type_string);
		get(o, "settings", json_type_string);
		get(o, "score", i == 2 ? json_type_null : json_type_double);
	}
	struct json_object *rec = get(j, "recommendation", json_type_object);
	assert_int_equal(json_object_get_int(get(rec, "arm", json_type_int)), 1);
	assert_string_equal(json_object_get_string(get(rec, "text", json_type_string)),
			    r->recommendation);
	get(j, "rule", json_type_string);
	struct json_object *vs = get(j, "verdicts", json_type_array);
	assert_int_equal(json_object_array_length(vs), 4);   /* arms 1, 2 x exec, ls */
	struct json_object *v0 = json_object_array_get_idx(vs, 0);
	assert_int_equal(json_object_get_int(get(v0, "arm", json_type_int)), 1);
	assert_string_equal(json_object_get_string(get(v0, "action", json_type_string)), "exec");
	assert_string_equal(json_object_get_string(get(v0, "verdict", json_type_string)), "faster");
	check_ci(v0, "ratio_p50", 0);

	struct json_object *rn = get(j, "runs", json_type_array);
	assert_int_equal(json_object_array_length(rn), 3);
	struct json_object *r2 = json_object_array_get_idx(rn, 2);
	static const char *const rkeys[] = { "arm", "round", "order" };
	for (size_t k = 0; k < 3; k++)
		get(r2, rkeys[k], json_type_int);
	get(r2, "t_s", json_type_double);
	get(r2, "dur_s", json_type_double);
	get(r2, "load_mibps", json_type_null);
	get(r2, "disk_mibps", json_type_null);
	struct json_object *r1 = json_object_array_get_idx(rn, 1);
	assert_true(fabs(json_object_get_double(get(r1, "disk_mibps", json_type_double)) - 99) < 1e-9);
	assert_true(fabs(json_object_get_double(get(r1, "disk_written_mibps", json_type_double)) -
			 99) < 1e-9);
	assert_true(fabs(json_object_get_double(get(r1, "disk_read_mibps", json_type_double)) -
			 0.5) < 1e-9);
	assert_true(fabs(json_object_get_double(get(r1, "load_mibps", json_type_double)) - 299) < 1e-9);
	assert_true(fabs(json_object_get_double(get(r1, "window_s", json_type_double)) - 10) < 1e-9);
	struct json_object *lw = get(j, "load_window", json_type_object);
	assert_true(fabs(json_object_get_double(get(lw, "seconds", json_type_double)) - 10) < 1e-9);
	assert_string_equal(json_object_get_string(get(lw, "device", json_type_string)), "vda1");
	assert_string_equal(json_object_get_string(get(lw, "rule_by", json_type_string)), "disk");
	get(r2, "worst_stall_ms", json_type_double);
	get(r2, "settle_s", json_type_double);
	get(r2, "settle_timeout", json_type_boolean);
	assert_true(json_object_get_boolean(get(r2, "failed", json_type_boolean)));
	get(r2, "note", json_type_string);

	struct json_object *sm = get(j, "samples", json_type_array);
	assert_int_equal(json_object_array_length(sm), 8);
	struct json_object *s2 = json_object_array_get_idx(sm, 2);
	static const char *const skeys[] = { "arm", "round", "order", "run", "err" };
	for (size_t k = 0; k < 5; k++)
		get(s2, skeys[k], json_type_int);
	assert_string_equal(json_object_get_string(get(s2, "action", json_type_string)), "exec");
	get(s2, "ms", json_type_null);
	get(s2, "cold", json_type_boolean);
	get(s2, "timeout", json_type_boolean);
	get(s2, "t_s", json_type_double);
	assert_int_equal(json_object_get_int(get(s2, "err", json_type_int)), -EIO);
	assert_true(json_object_get_double(get(json_object_array_get_idx(sm, 3), "ms",
					       json_type_double)) == 103.0);
	struct json_object *msgs = get(j, "messages", json_type_array);
	assert_int_equal(json_object_array_length(msgs), 1);
	json_object_put(j);

	/* no recommendation: arm is null; a stop signal is named */
	r->best = -1;
	r->stop_signal = 15;
	assert_int_equal(compare_report_json(r, path, err, sizeof(err)), 0);
	j = json_object_from_file(path);
	assert_non_null(j);
	get(get(j, "recommendation", json_type_object), "arm", json_type_null);
	assert_string_equal(json_object_get_string(get(j, "stop_signal", json_type_string)),
			    "SIGTERM");
	json_object_put(j);

	/* a path that cannot be written: a message that names it, nothing left */
	snprintf(path, sizeof(path), "%s/none/cmp.json", td.abs);
	assert_int_equal(compare_report_json(r, path, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, path));
	unlink(path);
}

static void test_csv(void **state)
{
	(void)state;
	struct compare_result *r = make();
	char path[PATH_MAX + 16], err[512];
	snprintf(path, sizeof(path), "%s/cmp.csv", td.abs);
	assert_int_equal(compare_report_csv(r, path, err, sizeof(err)), 0);
	no_tmp_left(td.abs);
	char *t = slurp(path);
	assert_null(memchr(t, 0x1b, strlen(t)));
	/* the breakdown's columns follow, empty for a sample not measured
	 * (test_compare_split checks them filled) */
	assert_memory_equal(t, "arm,arm_label,round,order,run,action,ms,cold,timeout,err,t_s,"
			    "split_cpu_ms,", 73);
	size_t lines = 0;
	for (const char *p = t; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 1 + 8);
	/* sample 0: arm 0, exec */
	assert_non_null(strstr(t, "\n0,\"current\",0,1,0,\"exec\",100.000,1,0,0,0.000000" NOSPLIT "\n"));
	/* sample 2: arm 2 (comma, quote, ESC in its label), failed: empty ms */
	char want[200];
	snprintf(want, sizeof(want), "\n2,\"mq,\"\"dl\"\"\\x1b[31m\",0,0,2,\"exec\",,0,0,%d,2.000000"
		 NOSPLIT "\n",
		 -EIO);
	assert_non_null(strstr(t, want));
	/* sample 5: a timeout */
	assert_non_null(strstr(t, "\n2,\"mq,\"\"dl\"\"\\x1b[31m\",0,0,2,\"ls\",105.000,1,1,0,5.000000"
			       NOSPLIT "\n"));
	unlink(path);
	snprintf(path, sizeof(path), "%s/none/cmp.csv", td.abs);
	assert_true(compare_report_csv(r, path, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "cannot write"));
}

/* "-" is stdout. */
static void test_stdout(void **state)
{
	(void)state;
	struct compare_result *r = make();
	char path[sizeof(td.abs) + 32], err[512];
	snprintf(path, sizeof(path), "%s/stdout.txt", td.abs);
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_true(dup2(fileno(f), STDOUT_FILENO) >= 0);
	fclose(f);
	int rc1 = compare_report_csv(r, "-", err, sizeof(err));
	int rc2 = compare_report_json(r, "-", err, sizeof(err));
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	assert_int_equal(rc1, 0);
	assert_int_equal(rc2, 0);
	assert_int_equal(access("-", F_OK), -1);
	const char *t = slurp(path);
	assert_memory_equal(t, "arm,arm_label,", 14);
	assert_non_null(strstr(t, "\"kind\":\"compare\""));
	unlink(path);
}

static void set_xdg(const char *sub, char *udir, size_t len)
{
	char x[sizeof(td.abs) + 32];
	snprintf(x, sizeof(x), "%s/%s", td.abs, sub);
	setenv("XDG_CONFIG_HOME", x, 1);
	snprintf(udir, len, "%s/brisk/profiles", x);
}

static void test_save(void **state)
{
	(void)state;
	struct compare_result *r = make();
	char udir[sizeof(td.abs) + 64], err[512], path[PATH_MAX];
	struct profile *p = malloc(sizeof(*p));
	assert_non_null(p);
	set_xdg("xdg", udir, sizeof(udir));
	/* the user directory does not exist yet: save makes it */
	int rc = compare_report_save(r, "cmpwin", 0, err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	no_tmp_left(udir);
	rc = profile_load_named("cmpwin", p, path, sizeof(path), err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	assert_non_null(strstr(path, udir));
	assert_string_equal(p->name, "cmpwin");
	assert_int_equal(p->n_settings, 2);
	const struct profile_setting *s = profile_setting_get(p, PROFILE_CLASS_ALL, "scheduler");
	assert_non_null(s);
	assert_string_equal(s->value, "bfq");
	s = profile_setting_get(p, PROFILE_CLASS_ALL, "low_latency");
	assert_non_null(s);
	assert_string_equal(s->value, "1");
	/* the comment: date, machine, disks, figures; clean lines */
	char *t = slurp(path);
	assert_clean_lines(t, PROFILE_MAX_LINE);
	assert_non_null(strstr(t, "; saved by brisk "));
	assert_non_null(strstr(t, "2025-12-01 06:03 UTC"));
	assert_non_null(strstr(t, "; machine: "));
	assert_non_null(strstr(t, "; disks: vda: model Caf\\xc3\\xa9 \\x07Disk fw 1.0"));
	assert_non_null(strstr(t, "; exec: run ratio 0.21 [0.15, 0.30], p90 ratio 0.21 "
			       "[0.15, 0.30], faster"));
	assert_non_null(strstr(t, "; load MiB/s written to disk: 95.4 [90.1, 99.9], baseline "
			       "101.2 [98.0, 104.1]"));
	assert_non_null(strstr(t, "brisk export cmpwin --format udev"));

	/* an existing name: refused without force, replaced with it */
	r->best = 2;
	assert_int_equal(compare_report_save(r, "cmpwin", 0, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "--force"));
	assert_int_equal(profile_load_named("cmpwin", p, path, sizeof(path), err, sizeof(err)), 0);
	assert_string_equal(profile_setting_get(p, PROFILE_CLASS_ALL, "scheduler")->value, "bfq");
	rc = compare_report_save(r, "cmpwin", 1, err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	assert_int_equal(profile_load_named("cmpwin", p, path, sizeof(path), err, sizeof(err)), 0);
	assert_int_equal(p->n_settings, 1);
	assert_string_equal(profile_setting_get(p, PROFILE_CLASS_ALL, "scheduler")->value,
			    "mq-deadline");
	t = slurp(path);
	assert_null(memchr(t, 0x1b, strlen(t)));
	no_tmp_left(udir);

	/* no recommended arm */
	r->best = -1;
	assert_int_equal(compare_report_save(r, "other", 0, err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "no arm was recommended"));
	snprintf(path, sizeof(path), "%s/other.profile", udir);
	assert_int_equal(access(path, F_OK), -1);
	/* the baseline "current" sets nothing */
	r->best = 0;
	assert_int_equal(compare_report_save(r, "other", 0, err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "sets nothing"));
	/* a bad name */
	r->best = 1;
	assert_int_equal(compare_report_save(r, "../x", 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "bad profile name"));
	assert_int_equal(access(path, F_OK), -1);
	/* no user directory at all */
	unsetenv("XDG_CONFIG_HOME");
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	unsetenv("HOME");
	assert_int_equal(compare_report_save(r, "other", 0, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "HOME"));
	if (home) {
		setenv("HOME", home, 1);
		free(home);
	}
	free(p);
}

/* Settings that differ between disks go under the disks' classes. */
/* queue/rotational of a disk: '1', '0', or -1 when it has none. */
static int rotational(const char *dev)
{
	char path[96];
	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational", dev);
	FILE *f = fopen(path, "r");
	int c = f ? fgetc(f) : -1;
	if (f)
		fclose(f);
	return c == '0' || c == '1' ? c : -1;
}

static void test_save_per_class(void **state)
{
	(void)state;
	/* disks of this machine, classed as brisk classes them: one rotational
	 * (rot), one not (ssd), and a third of the class of one of them (twin,
	 * of that one: pair) for the conflict; virtio, zram and loop devices
	 * are classed by their rotational flag, which a loop device takes from
	 * its backing file's disk and tests change */
	static const char *const cand[] = { "vda", "zram0", "loop0", "loop1", "loop2", "loop3",
					    "loop4", "loop5", "loop6", "loop7" };
	const char *rot = NULL, *ssd = NULL, *twin = NULL, *pair = NULL;
	for (size_t i = 0; i < sizeof(cand) / sizeof(*cand); i++) {
		int c = rotational(cand[i]);
		const char **slot = c == '1' ? &rot : c == '0' ? &ssd : NULL;
		if (!slot)
			continue;
		if (!*slot)
			*slot = cand[i];
		else if (!twin) {
			twin = cand[i];
			pair = *slot;
		}
	}
	if (!rot || !ssd || !twin) {
		printf("SKIP: needs a rotational and a non-rotational disk and a third of one of "
		       "their classes among vda, zram0 and loop0-7\n");
		skip();
	}
	struct compare_result *r = make();
	char udir[sizeof(td.abs) + 64], err[512], path[PATH_MAX];
	set_xdg("xdg2", udir, sizeof(udir));
	struct settings_step st[4];
	step(&st[0], rot, "scheduler", "bfq");
	step(&st[1], ssd, "scheduler", "none");
	step(&st[2], rot, "read_ahead_kb", "512");
	step(&st[3], ssd, "read_ahead_kb", "512");
	r->arms[1].steps = st;
	r->arms[1].n_steps = 4;
	int rc = compare_report_save(r, "perclass", 0, err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	struct profile *p = malloc(sizeof(*p));
	assert_non_null(p);
	assert_int_equal(profile_load_named("perclass", p, path, sizeof(path), err, sizeof(err)), 0);
	assert_null(profile_setting_get(p, PROFILE_CLASS_ALL, "scheduler"));
	assert_string_equal(profile_setting_get(p, PROFILE_CLASS_ROTATIONAL, "scheduler")->value,
			    "bfq");
	assert_string_equal(profile_setting_get(p, PROFILE_CLASS_SSD, "scheduler")->value, "none");
	assert_string_equal(profile_setting_get(p, PROFILE_CLASS_ALL, "read_ahead_kb")->value, "512");
	/* two disks of one class with two values: a profile cannot hold it */
	step(&st[0], pair, "scheduler", "bfq");
	step(&st[1], twin, "scheduler", "mq-deadline");
	step(&st[2], pair, "read_ahead_kb", "512");
	step(&st[3], twin, "read_ahead_kb", "512");
	assert_int_equal(compare_report_save(r, "conflict", 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "one value per class"));
	snprintf(path, sizeof(path), "%s/conflict.profile", udir);
	assert_int_equal(access(path, F_OK), -1);
	unsetenv("XDG_CONFIG_HOME");
	free(p);
}

static int setup(void **state)
{
	(void)state;
	return testdir_make(&td, "creport");
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_TREE);
}

/* Two arms whose labels read alike in the tables' ten columns get their
 * index in front; the others keep theirs. */
static void test_label_unique(void **state)
{
	(void)state;
	struct compare_arm a[4];
	memset(a, 0, sizeof(a));
	snprintf(a[0].label, sizeof(a[0].label), "current");
	snprintf(a[1].label, sizeof(a[1].label), "bdi.strict_limit=1 bdi.max_bytes=67108864");
	snprintf(a[2].label, sizeof(a[2].label), "bdi.strict_limit=1 bdi.max_bytes=268435456");
	snprintf(a[3].label, sizeof(a[3].label), "io=idle");
	compare_arms_label_unique(a, 4);
	assert_string_equal(a[0].label, "current");
	assert_string_equal(a[1].label, "1:bdi.strict_limit=1 bdi.max_bytes=67108864");
	assert_string_equal(a[2].label, "2:bdi.strict_limit=1 bdi.max_bytes=268435456");
	assert_string_equal(a[3].label, "io=idle");
	assert_true(strncmp(a[1].label, a[2].label, COMPARE_LABEL_COLS) != 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_label_unique),
		cmocka_unit_test(test_text_wraps),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_stdout),
		cmocka_unit_test(test_save),
		cmocka_unit_test(test_save_per_class),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
