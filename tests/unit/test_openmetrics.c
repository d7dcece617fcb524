/* openmetrics: the writer (openmetrics.h) — label values escaped per the
 * spec (backslash, double quote, line feed), refused bytes and invalid
 * UTF-8 as \xHH, metric and label name rules, units as suffixes, one block
 * per family, no family without samples, NaN left out, "# EOF" last; and
 * the outputs' shared list helper. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <cmocka.h>

#include "openmetrics.h"
#include "openmetrics_priv.h"

static char *escaped(const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	openmetrics_escape(f, s);
	fclose(f);
	return out;
}

static void want_escape(const char *in, const char *want)
{
	char *got = escaped(in);
	if (strcmp(got, want) != 0)
		fail_msg("escape: got '%s', want '%s'", got, want);
	free(got);
}

static void test_escape_spec(void **state)
{
	(void)state;
	want_escape(NULL, "");
	want_escape("", "");
	want_escape("/home/ann", "/home/ann");
	want_escape("a\\b", "a\\\\b");                  /* backslash */
	want_escape("say \"hi\"", "say \\\"hi\\\"");    /* double quote */
	want_escape("two\nlines", "two\\nlines");       /* line feed */
	want_escape("\\\"\n", "\\\\\\\"\\n");
	want_escape("tab\tkept", "tab\tkept");          /* TAB is clean text */
	want_escape("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe");
	want_escape("{x=\"1\"},", "{x=\\\"1\\\"},");    /* braces, commas: inside quotes */
}

static void test_escape_refused(void **state)
{
	(void)state;
	/* control bytes but TAB and LF: \xHH as the value reads (\\xHH written) */
	want_escape("a\rb", "a\\\\x0db");
	want_escape("\x1b]0;pwn\x07", "\\\\x1b]0;pwn\\\\x07");
	want_escape("del\x7f", "del\\\\x7f");
	want_escape("nel\xc2\x85", "nel\\\\xc2\\\\x85");     /* a C1 control */
	/* invalid UTF-8: every byte of the bad sequence */
	want_escape("\xff", "\\\\xff");
	want_escape("x\xe2\x82", "x\\\\xe2\\\\x82");          /* cut short by the end */
	want_escape("\xe2\x82y", "\\\\xe2\\\\x82y");          /* cut short by a byte */
	want_escape("\xc0\xaf", "\\\\xc0\\\\xaf");            /* overlong */
	want_escape("\xed\xa0\x80", "\\\\xed\\\\xa0\\\\x80"); /* a surrogate */
	want_escape("\xf4\x90\x80\x80", "\\\\xf4\\\\x90\\\\x80\\\\x80");   /* > U+10FFFF */
	/* a lone continuation byte between good characters */
	want_escape("\xc3\xa9\x80\xc3\xa9", "\xc3\xa9\\\\x80\xc3\xa9");
}

static void test_names(void **state)
{
	(void)state;
	assert_true(openmetrics_name_ok("brisk_action_latency_seconds"));
	assert_true(openmetrics_name_ok("_x"));
	assert_true(openmetrics_name_ok("brisk_info"));          /* the Prometheus convention */
	assert_true(openmetrics_name_ok("A9"));
	assert_false(openmetrics_name_ok(NULL));
	assert_false(openmetrics_name_ok(""));
	assert_false(openmetrics_name_ok("9lives"));
	assert_false(openmetrics_name_ok("a-b"));
	assert_false(openmetrics_name_ok("a b"));
	assert_false(openmetrics_name_ok("job:rate5m"));         /* recording rules only */
	assert_false(openmetrics_name_ok("caf\xc3\xa9"));
	assert_false(openmetrics_name_ok("x_total"));
	assert_false(openmetrics_name_ok("x_created"));
	assert_false(openmetrics_name_ok("x_count"));
	assert_false(openmetrics_name_ok("x_sum"));
	assert_false(openmetrics_name_ok("x_bucket"));
	assert_false(openmetrics_name_ok("x_gcount"));
	assert_false(openmetrics_name_ok("x_gsum"));
	char longname[OPENMETRICS_NAME_MAX + 1];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_false(openmetrics_name_ok(longname));
	longname[OPENMETRICS_NAME_MAX - 1] = '\0';
	assert_true(openmetrics_name_ok(longname));

	assert_true(openmetrics_label_name_ok("dir"));
	assert_true(openmetrics_label_name_ok("threshold_seconds"));
	assert_true(openmetrics_label_name_ok("_x"));
	assert_false(openmetrics_label_name_ok(NULL));
	assert_false(openmetrics_label_name_ok(""));
	assert_false(openmetrics_label_name_ok("__name__"));     /* reserved */
	assert_false(openmetrics_label_name_ok("__x"));
	assert_false(openmetrics_label_name_ok("quantile"));     /* summaries' */
	assert_false(openmetrics_label_name_ok("le"));           /* histograms' */
	assert_false(openmetrics_label_name_ok("a:b"));          /* no colon in labels */
	assert_false(openmetrics_label_name_ok("1a"));
	assert_false(openmetrics_label_name_ok("a-b"));
}

struct buf {
	char *out;
	size_t len;
	FILE *f;
	struct openmetrics om;
};

static void buf_open(struct buf *b)
{
	b->out = NULL;
	b->len = 0;
	b->f = open_memstream(&b->out, &b->len);
	assert_non_null(b->f);
	openmetrics_init(&b->om, b->f);
}

static char *buf_close(struct buf *b)
{
	fclose(b->f);
	return b->out;
}

static void test_output(void **state)
{
	(void)state;
	struct buf b;
	buf_open(&b);
	const struct openmetrics_label l[] = { { "dir", "/srv/\"x\"" }, { "stat", "p50" } };
	assert_int_equal(openmetrics_family(&b.om, "brisk_x_seconds", "seconds", "How long x took."), 0);
	assert_int_equal(openmetrics_sample(&b.om, l, 2, 0.25), 0);
	assert_int_equal(openmetrics_sample(&b.om, l, 1, 3), 0);
	/* no samples: no lines at all */
	assert_int_equal(openmetrics_family(&b.om, "brisk_empty", NULL, "Nothing."), 0);
	assert_int_equal(openmetrics_sample(&b.om, l, 1, NAN), 0);
	assert_int_equal(openmetrics_family(&b.om, "brisk_n", NULL, "Counts."), 0);
	assert_int_equal(openmetrics_sample(&b.om, NULL, 0, 12345678901.0), 0);
	const struct openmetrics_label nul[] = { { "model", NULL } };
	assert_int_equal(openmetrics_sample(&b.om, nul, 1, INFINITY), 0);
	assert_int_equal(openmetrics_sample(&b.om, nul, 1, -INFINITY), 0);
	assert_int_equal(openmetrics_sample(&b.om, nul, 1, 0.1 + 0.2), 0);
	assert_int_equal(openmetrics_sample(&b.om, nul, 1, 1e-9), 0);
	assert_int_equal(openmetrics_sample(&b.om, nul, 1, -2), 0);
	assert_int_equal(openmetrics_finish(&b.om), 0);
	assert_int_equal(openmetrics_finish(&b.om), 0);     /* # EOF once */
	char *out = buf_close(&b);
	assert_string_equal(out,
		"# TYPE brisk_x_seconds gauge\n"
		"# UNIT brisk_x_seconds seconds\n"
		"# HELP brisk_x_seconds How long x took.\n"
		"brisk_x_seconds{dir=\"/srv/\\\"x\\\"\",stat=\"p50\"} 0.25\n"
		"brisk_x_seconds{dir=\"/srv/\\\"x\\\"\"} 3\n"
		"# TYPE brisk_n gauge\n"
		"# HELP brisk_n Counts.\n"
		"brisk_n 12345678901\n"
		"brisk_n{model=\"\"} +Inf\n"
		"brisk_n{model=\"\"} -Inf\n"
		"brisk_n{model=\"\"} 0.3\n"
		"brisk_n{model=\"\"} 1e-09\n"
		"brisk_n{model=\"\"} -2\n"
		"# EOF\n");
	free(out);
}

/* Each misuse is -EINVAL, sticky: later calls return it and write nothing. */
static void want_refused_family(const char *name, const char *unit, const char *help)
{
	struct buf b;
	buf_open(&b);
	assert_int_equal(openmetrics_family(&b.om, name, unit, help), -EINVAL);
	assert_int_equal(openmetrics_sample(&b.om, NULL, 0, 1), -EINVAL);
	assert_int_equal(openmetrics_finish(&b.om), -EINVAL);
	char *out = buf_close(&b);
	assert_string_equal(out, "# EOF\n");
	free(out);
}

static void test_family_refused(void **state)
{
	(void)state;
	want_refused_family("bad-name", NULL, "Help.");
	want_refused_family("x_total", NULL, "Help.");
	want_refused_family("brisk_x_seconds", "bytes", "Help.");       /* unit not the suffix */
	want_refused_family("brisk_xseconds", "seconds", "Help.");      /* no "_" before it */
	want_refused_family("brisk_x_Seconds", "Seconds", "Help.");     /* units are lower case */
	want_refused_family("seconds", "seconds", "Help.");             /* nothing but the unit */
	want_refused_family("brisk_x", "", "Help.");
	want_refused_family("brisk_x", NULL, "");
	want_refused_family("brisk_x", NULL, NULL);
	want_refused_family("brisk_x", NULL, "a \"quoted\" word");
	want_refused_family("brisk_x", NULL, "back\\slash");
	want_refused_family("brisk_x", NULL, "two\nlines");
	want_refused_family("brisk_x", NULL, "bell\x07");
	want_refused_family("brisk_x", NULL, "bad \xff");
}

static void test_misuse(void **state)
{
	(void)state;
	struct buf b;
	/* a sample before any family */
	buf_open(&b);
	assert_int_equal(openmetrics_sample(&b.om, NULL, 0, 1), -EINVAL);
	free(buf_close(&b));
	/* a family twice: OpenMetrics keeps a family in one block */
	buf_open(&b);
	assert_int_equal(openmetrics_family(&b.om, "brisk_a", NULL, "A."), 0);
	assert_int_equal(openmetrics_sample(&b.om, NULL, 0, 1), 0);
	assert_int_equal(openmetrics_family(&b.om, "brisk_b", NULL, "B."), 0);
	assert_int_equal(openmetrics_family(&b.om, "brisk_a", NULL, "A."), -EINVAL);
	assert_int_equal(openmetrics_family(&b.om, "brisk_c", NULL, "C."), -EINVAL);   /* sticky */
	assert_int_equal(openmetrics_finish(&b.om), -EINVAL);
	free(buf_close(&b));
	/* label names: reserved, invalid, twice, too many */
	static const struct openmetrics_label bad[][2] = {
		{ { "__name__", "x" }, { "a", "b" } },
		{ { "quantile", "0.5" }, { "a", "b" } },
		{ { "le", "1" }, { "a", "b" } },
		{ { "a-b", "x" }, { "a", "b" } },
		{ { "dir", "x" }, { "dir", "y" } },
		{ { NULL, "x" }, { "a", "b" } },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		buf_open(&b);
		assert_int_equal(openmetrics_family(&b.om, "brisk_a", NULL, "A."), 0);
		assert_int_equal(openmetrics_sample(&b.om, bad[i], 2, 1), -EINVAL);
		assert_int_equal(openmetrics_finish(&b.om), -EINVAL);
		char *out = buf_close(&b);
		assert_string_equal(out, "# EOF\n");   /* nothing half-written */
		free(out);
	}
	struct openmetrics_label many[OPENMETRICS_MAX_LABELS + 1];
	char names[OPENMETRICS_MAX_LABELS + 1][8];
	for (size_t i = 0; i <= OPENMETRICS_MAX_LABELS; i++) {
		snprintf(names[i], sizeof(names[i]), "l%zu", i);
		many[i] = (struct openmetrics_label){ names[i], "v" };
	}
	buf_open(&b);
	assert_int_equal(openmetrics_family(&b.om, "brisk_a", NULL, "A."), 0);
	assert_int_equal(openmetrics_sample(&b.om, many, OPENMETRICS_MAX_LABELS, 1), 0);
	assert_int_equal(openmetrics_sample(&b.om, many, OPENMETRICS_MAX_LABELS + 1, 1), -EINVAL);
	free(buf_close(&b));
	/* after # EOF nothing more */
	buf_open(&b);
	assert_int_equal(openmetrics_finish(&b.om), 0);
	assert_int_equal(openmetrics_family(&b.om, "brisk_a", NULL, "A."), -EINVAL);
	char *out = buf_close(&b);
	assert_string_equal(out, "# EOF\n");
	free(out);
	/* more families than the table holds */
	buf_open(&b);
	char name[32];
	for (int i = 0; i < OPENMETRICS_MAX_FAMILIES; i++) {
		snprintf(name, sizeof(name), "brisk_f%d", i);
		assert_int_equal(openmetrics_family(&b.om, name, NULL, "F."), 0);
	}
	assert_int_equal(openmetrics_family(&b.om, "brisk_one_more", NULL, "F."), -EINVAL);
	free(buf_close(&b));
}

/* A hostile value stays inside its quotes: the line is one sample. */
static void test_hostile_value_one_line(void **state)
{
	(void)state;
	struct buf b;
	buf_open(&b);
	const char *evil = "x\"} 666\nbrisk_fake{a=\"\\\r\x1b[31m\xff";
	const struct openmetrics_label l[] = { { "dir", evil } };
	assert_int_equal(openmetrics_family(&b.om, "brisk_a", NULL, "A."), 0);
	assert_int_equal(openmetrics_sample(&b.om, l, 1, 1), 0);
	assert_int_equal(openmetrics_finish(&b.om), 0);
	char *out = buf_close(&b);
	assert_string_equal(out,
		"# TYPE brisk_a gauge\n"
		"# HELP brisk_a A.\n"
		"brisk_a{dir=\"x\\\"} 666\\nbrisk_fake{a=\\\"\\\\\\\\x0d\\\\x1b[31m\\\\xff\"} 1\n"
		"# EOF\n");
	free(out);
}

static void test_list_add(void **state)
{
	(void)state;
	char list[16] = "";
	openmetrics_list_add(list, sizeof(list), "sda");
	openmetrics_list_add(list, sizeof(list), "");
	openmetrics_list_add(list, sizeof(list), NULL);
	openmetrics_list_add(list, sizeof(list), "sdb");
	openmetrics_list_add(list, sizeof(list), "sda");     /* named once */
	assert_string_equal(list, "sda,sdb");
	openmetrics_list_add(list, sizeof(list), "sd");      /* not a prefix match */
	assert_string_equal(list, "sda,sdb,sd");
	openmetrics_list_add(list, sizeof(list), "toolong");  /* does not fit whole */
	assert_string_equal(list, "sda,sdb,sd");
	openmetrics_list_add(list, sizeof(list), "xyz");      /* 14 bytes + NUL: fits */
	assert_string_equal(list, "sda,sdb,sd,xyz");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_spec),
		cmocka_unit_test(test_escape_refused),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_family_refused),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_hostile_value_one_line),
		cmocka_unit_test(test_list_add),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
