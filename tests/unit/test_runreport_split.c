/* Where the time went in a run's reports (runreport_split.h) on synthetic
 * breakdowns: a group's median sample and mean shares with an incomplete
 * and an unmeasured sample, the text table and its notes, the line when
 * the breakdown is unavailable (and none for --no-breakdown), the JSON
 * fields, the CSV columns, and a hostile process name escaped everywhere
 * but JSON (which has its exact bytes). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "runreport_split.h"

#define MS 1000000ull
#define HOSTILE "a\x1b[2Jb\n"

static struct session_epoch epoch0 = { .label = "start" };

/* One ssh-like loaded sample of wall ms: cpu 10 %, queued 70 %, device
 * 20 %; its own 2 reads, 410 writes of others ahead, from two issuers. */
static void sample(struct session_sample *x, uint64_t wall_ms)
{
	memset(x, 0, sizeof(*x));
	x->action = ACTION_SSH;
	x->phase = SESSION_LOADED;
	x->cold = 1;
	x->dur_ns = wall_ms * MS;
	struct timesplit *t = &x->split;
	t->ok = 1;
	t->part_ns[IOWHY_CPU] = wall_ms * MS / 10;
	t->part_ns[IOWHY_QUEUED] = wall_ms * MS * 7 / 10;
	t->part_ns[IOWHY_DEVICE] = wall_ms * MS - t->part_ns[IOWHY_CPU] - t->part_ns[IOWHY_QUEUED];
	t->device_union_ns = t->part_ns[IOWHY_DEVICE];
	t->queued_union_ns = t->part_ns[IOWHY_QUEUED];
	t->rq[0] = 2;
	t->rq_bytes[0] = 8192;
	t->ahead[1] = 410;
	t->ahead_bytes[1] = 400ull << 20;
	t->n_makers = 2;
	t->makers[0] = (struct timesplit_maker){ .pid = 4242, .comm = HOSTILE, .n = 400,
						 .bytes = 390ull << 20, .role = TIMESPLIT_LOAD };
	t->makers[1] = (struct timesplit_maker){ .pid = 77, .comm = "kworker/u8:2", .n = 8,
						 .bytes = 8ull << 20 };
	t->ahead_unnamed = 2;
}

/* Five samples of one group: 10, 30, 20 ms whole, 90 ms incomplete, one
 * without a breakdown. */
static struct session *make(void)
{
	struct session *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	s->n_actions = 1;
	s->actions[0].kind = ACTION_SSH;
	s->epochs = &epoch0;
	s->n_epochs = 1;
	s->samples = calloc(5, sizeof(*s->samples));
	assert_non_null(s->samples);
	s->n_samples = s->cap_samples = 5;
	sample(&s->samples[0], 10);
	sample(&s->samples[1], 30);
	sample(&s->samples[2], 20);
	sample(&s->samples[3], 90);
	s->samples[3].split.incomplete = 1;
	sample(&s->samples[4], 15);
	memset(&s->samples[4].split, 0, sizeof(s->samples[4].split));
	s->split_on = 1;
	return s;
}

static void drop(struct session *s)
{
	free(s->samples);
	free(s);
}

static char *text_of(const struct session *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	runreport_split_text(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The wrapped lines joined again: a line that starts with 3 or 4 blanks
 * (text_wrap's continuations here) continues the one before. */
static void unwrap(char *t)
{
	char *o = t;
	for (const char *p = t; *p;) {
		size_t b = 0;
		while (p[0] == '\n' && p[1 + b] == ' ')
			b++;
		if (p[0] == '\n' && (b == 3 || b == 4)) {
			*o++ = ' ';
			p += 1 + b;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_group(void **state)
{
	(void)state;
	struct session *s = make();
	struct runreport_split g;
	assert_int_equal(runreport_split_group(s, ACTION_SSH, 0, SESSION_LOADED, &g), 0);
	assert_int_equal(g.n_counted, 5);
	assert_int_equal(g.n_measured, 4);
	assert_int_equal(g.sum.n, 3);
	assert_int_equal(g.sum.n_incomplete, 1);
	assert_ptr_equal(g.sum.median, &s->samples[2].split);   /* 20 ms of 10, 20, 30 */
	assert_true(g.sum.share[IOWHY_QUEUED] > 0.699 && g.sum.share[IOWHY_QUEUED] < 0.701);
	assert_null(runreport_split_why_not(s, &g));
	/* the idle phase has none: the reason is the group's */
	assert_int_equal(runreport_split_group(s, ACTION_SSH, 0, SESSION_IDLE, &g), 0);
	assert_int_equal(g.n_measured, 0);
	assert_string_equal(runreport_split_why_not(s, &g), "no sample was measured");
	s->samples[0].split.incomplete = s->samples[1].split.incomplete = 1;
	s->samples[2].split.incomplete = 1;
	assert_int_equal(runreport_split_group(s, ACTION_SSH, 0, SESSION_LOADED, &g), 0);
	assert_string_equal(runreport_split_why_not(s, &g), "every sample's breakdown was incomplete");
	s->split_on = 0;
	snprintf(s->split_off, sizeof(s->split_off), "it needs root (BPF)");
	assert_string_equal(runreport_split_why_not(s, &g), "it needs root (BPF)");
	drop(s);
}

static void test_text(void **state)
{
	(void)state;
	struct session *s = make();
	char *t = text_of(s);
	unwrap(t);
	assert_non_null(strstr(t, "\nWhere the time went (per action, phase and epoch: the median "
			       "sample's parts in ms"));
	/* the header names every part, the rows the median sample and the shares */
	assert_non_null(strstr(t, "      wall       cpu      runq    device    queued     admit "
			       "throttled   blocked     sleep\n"));
	assert_non_null(strstr(t, "ssh-like  loaded  0    3 median ms     20.00      2.00         0"
			       "      4.00     14.00         0         0         0         0\n"));
	assert_non_null(strstr(t, "                         mean %          100        10         0"
			       "        20        70         0         0         0         0\n"));
	assert_non_null(strstr(t, "  median sample: own requests: 2 reads (8.0 KiB), no writes; ahead of "
			       "them 410 writes (400.0 MiB), no reads; issued by 4242 "
			       "a\\x1b[2Jb\\x0a, brisk's load (400), 77 kworker/u8:2 (8), others (2)\n"));
	assert_non_null(strstr(t, "  1 sample left out: not every task or request could be "
			       "tracked\n"));
	assert_non_null(strstr(t, "  1 sample without a breakdown\n"));
	assert_non_null(strstr(t, "queued: queued in the I/O scheduler"));
	assert_null(strchr(t, '\x1b'));   /* the hostile name cannot reach a terminal */
	assert_int_equal(count(t, "unavailable"), 0);
	free(t);
	/* unavailable: one line with the reason (the session adds no note) */
	s->split_on = 0;
	snprintf(s->split_off, sizeof(s->split_off), "it needs root (BPF)");
	t = text_of(s);
	assert_string_equal(t, "\nWhere the time went: the breakdown is unavailable: it needs root "
			    "(BPF)\n");
	free(t);
	/* --no-breakdown: nothing said */
	s->cfg.no_breakdown = 1;
	snprintf(s->split_off, sizeof(s->split_off), "turned off (--no-breakdown)");
	t = text_of(s);
	assert_string_equal(t, "");
	free(t);
	drop(s);
}

static double num(struct json_object *o, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", path);
	struct json_object *v = o;
	for (char *sv, *k = strtok_r(buf, ".", &sv); k; k = strtok_r(NULL, ".", &sv))
		assert_true(json_object_object_get_ex(v, k, &v));
	return json_object_get_double(v);
}

static void test_json(void **state)
{
	(void)state;
	struct session *s = make();
	struct json_object *o = runreport_split_json(&s->samples[2].split);
	assert_non_null(o);
	assert_true(num(o, "wall_ms") == 20.0);
	assert_true(num(o, "parts.cpu_ms") == 2.0);
	assert_true(num(o, "parts.queued_ms") == 14.0);
	assert_true(num(o, "parts.device_ms") == 4.0);
	assert_true(num(o, "parts.sleep_ms") == 0.0);
	assert_true(num(o, "device_union_ms") == 4.0);
	assert_true(num(o, "requests.read.n") == 2 && num(o, "requests.read.bytes") == 8192);
	assert_true(num(o, "ahead.write.n") == 410 && num(o, "ahead.read.n") == 0);
	struct json_object *mk, *m0, *comm, *inc;
	assert_true(json_object_object_get_ex(o, "makers", &mk));
	assert_int_equal(json_object_array_length(mk), 2);
	m0 = json_object_array_get_idx(mk, 0);
	assert_true(json_object_object_get_ex(m0, "comm", &comm));
	assert_string_equal(json_object_get_string(comm), HOSTILE);   /* exact; JSON escapes */
	assert_null(strchr(json_object_to_json_string(o), '\x1b'));
	assert_true(num(m0, "pid") == 4242 && num(m0, "requests") == 400);
	struct json_object *role;
	assert_true(json_object_object_get_ex(m0, "role", &role));
	assert_string_equal(json_object_get_string(role), "load");
	assert_true(json_object_object_get_ex(json_object_array_get_idx(mk, 1), "role", &role));
	assert_null(role);   /* another process: null */
	assert_true(json_object_object_get_ex(o, "incomplete", &inc));
	assert_false(json_object_get_boolean(inc));
	json_object_put(o);
	assert_null(runreport_split_json(&s->samples[4].split));   /* not measured: null */

	struct runreport_split g;
	assert_int_equal(runreport_split_group(s, ACTION_SSH, 0, SESSION_LOADED, &g), 0);
	o = runreport_split_group_json(&g);
	assert_true(num(o, "n") == 3 && num(o, "n_incomplete") == 1 && num(o, "n_without") == 1);
	assert_true(num(o, "median_wall_ms") == 20.0);
	assert_true(num(o, "median_parts.queued_ms") == 14.0);
	double sum = 0;
	static const char *const k[] = { "cpu", "runq", "device", "queued", "admit", "throttled",
					 "blocked", "sleep" };
	for (size_t i = 0; i < 8; i++) {
		char p[64];
		snprintf(p, sizeof(p), "mean_shares.%s", k[i]);
		sum += num(o, p);
	}
	assert_true(sum > 0.9999 && sum < 1.0001);
	assert_true(num(o, "mean_ahead.write_n") == 410);
	json_object_put(o);
	assert_int_equal(runreport_split_group(s, ACTION_SSH, 0, SESSION_IDLE, &g), 0);
	assert_null(runreport_split_group_json(&g));

	o = runreport_split_state_json(s);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"available\":true,\"why_not\":null}");
	json_object_put(o);
	s->split_on = 0;
	snprintf(s->split_off, sizeof(s->split_off), "it needs root (BPF)");
	o = runreport_split_state_json(s);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"available\":false,\"why_not\":\"it needs root (BPF)\"}");
	json_object_put(o);
	drop(s);
}

static char *csv_of(const struct timesplit *t, int header)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (header)
		runreport_split_csv_header(f);
	else
		runreport_split_csv_row(f, t);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_csv(void **state)
{
	(void)state;
	struct session *s = make();
	char *h = csv_of(NULL, 1), *r = csv_of(&s->samples[2].split, 0);
	char *e = csv_of(&s->samples[4].split, 0), *n = csv_of(NULL, 0);
	assert_string_equal(h, ",split_cpu_ms,split_runq_ms,split_device_ms,split_queued_ms,"
			    "split_admit_ms,split_throttled_ms,split_blocked_ms,split_sleep_ms,"
			    "split_device_union_ms,split_queued_union_ms,split_read_n,split_read_bytes,"
			    "split_write_n,split_write_bytes,split_ahead_read_n,split_ahead_read_bytes,"
			    "split_ahead_write_n,split_ahead_write_bytes,split_incomplete");
	assert_string_equal(r, ",2.000,0.000,4.000,14.000,0.000,0.000,0.000,0.000,4.000,14.000,2,8192,"
			    "0,0,0,0,410,419430400,0");
	assert_int_equal(count(h, ","), count(r, ","));
	assert_string_equal(e, ",,,,,,,,,,,,,,,,,,,");   /* not measured: empty cells */
	assert_string_equal(n, e);
	assert_int_equal(count(h, ","), count(e, ","));
	free(h);
	free(r);
	free(e);
	free(n);
	drop(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
