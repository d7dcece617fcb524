/* Unit tests of a lab server's counters as text (src/lab/labstats.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "labstats.h"

static void test_roundtrip(void **state)
{
	(void)state;
	struct labstats s, t;
	memset(&s, 0, sizeof s);   /* padding too: compared as memory below */
	s.rd = (struct labstats_dir){ 300, 1228800, 2818190123ull, 2864756456ull };
	s.wr = (struct labstats_dir){ 47, 1 << 20, 15113058, 16868061 };
	s.late = 2;
	s.late_ns = 3000000;
	s.unmodelled = 1;
	char buf[LABSTATS_TEXT_MAX];
	int n = labstats_format(&s, "hdd-7200", buf, sizeof buf);
	assert_true(n > 0 && (size_t)n == strlen(buf));
	assert_non_null(strstr(buf, "\nmodel hdd-7200\n"));
	assert_non_null(strstr(buf, "\nread_service_ns 2818190123\n"));
	assert_int_equal(labstats_parse(buf, &t), 0);
	assert_memory_equal(&s, &t, sizeof s);
}

static void test_too_small(void **state)
{
	(void)state;
	struct labstats s = { .rd.n = 1 };
	char buf[64];
	assert_int_equal(labstats_format(&s, "hdd-7200", buf, sizeof buf), -ENOSPC);
}

static void test_parse_errors(void **state)
{
	(void)state;
	struct labstats s = { .rd.n = 7 }, t;
	char buf[LABSTATS_TEXT_MAX], bad[LABSTATS_TEXT_MAX + 64];
	labstats_format(&s, "m", buf, sizeof buf);
	/* a missing counter */
	char *p = strstr(buf, "late_ns");
	snprintf(bad, sizeof bad, "%.*s", (int)(p - buf), buf);
	assert_int_equal(labstats_parse(bad, &t), -EINVAL);
	/* not a number, a sign, trailing junk */
	const char *vals[] = { "x", "-1", "12a", "" };
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		snprintf(bad, sizeof bad, "%sreads %s\n", buf, vals[i]);
		assert_int_equal(labstats_parse(bad, &t), -EINVAL);
	}
	/* unknown keys and comments are skipped; the last value counts */
	snprintf(bad, sizeof bad, "# x\nfuture_key 3\n%sreads 9\n", buf);
	assert_int_equal(labstats_parse(bad, &t), 0);
	assert_int_equal(t.rd.n, 9);
	assert_int_equal(labstats_parse("", &t), -EINVAL);
	assert_int_equal(labstats_read("/nonexistent-brisk-lab", &t), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_parse_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
