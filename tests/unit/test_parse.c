/* Unit tests for sizes, durations and integers (src/base/parse.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <cmocka.h>

#include "parse.h"

static void test_parse_size(void **state)
{
	(void)state;
	uint64_t v, lo, hi;
	assert_int_equal(parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("4k", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("30m", &v), 0);
	assert_int_equal(v, 30u << 20);
	assert_int_equal(parse_size("2GiB", &v), 0);
	assert_int_equal(v, 2ull << 30);
	assert_int_equal(parse_size("-1", &v), -EINVAL);
	assert_int_equal(parse_size("4x", &v), -EINVAL);
	assert_int_equal(parse_size("99999999999999999999", &v), -ERANGE);
	assert_int_equal(parse_size("20000000000T", &v), -ERANGE);
	assert_int_equal(parse_size_range("4k-44k", &lo, &hi), 0);
	assert_int_equal(lo, 4096);
	assert_int_equal(hi, 44 * 1024);
	assert_int_equal(parse_size_range("44k-4k", &lo, &hi), -ERANGE);
	assert_int_equal(parse_size_range("-4k", &lo, &hi), -EINVAL);
	char b[32];
	static const uint64_t round[] = { 0, 1, 4096, 4097, 30u << 20, 10ull << 30, 3ull << 40,
					  5ull << 50 };
	for (size_t i = 0; i < sizeof(round) / sizeof(round[0]); i++) {
		parse_format_size(b, sizeof(b), round[i]);
		assert_int_equal(parse_size(b, &v), 0);
		assert_int_equal(v, round[i]);
	}
	parse_format_size(b, sizeof(b), 44 * 1024);
	assert_string_equal(b, "44k");
	parse_format_size(b, sizeof(b), 1536);
	assert_string_equal(b, "1536");
}

static void test_parse_duration(void **state)
{
	(void)state;
	uint64_t ns;
	assert_int_equal(parse_duration("20s", &ns), 0);
	assert_int_equal(ns, 20000000000ull);
	assert_int_equal(parse_duration("1.5", &ns), 0);
	assert_int_equal(ns, 1500000000ull);
	assert_int_equal(parse_duration("250ms", &ns), 0);
	assert_int_equal(ns, 250000000ull);
	assert_int_equal(parse_duration("2m", &ns), 0);
	assert_int_equal(ns, 120000000000ull);
	assert_int_equal(parse_duration("s", &ns), -EINVAL);
	assert_int_equal(parse_duration("5 days", &ns), -EINVAL);
	int64_t i;
	assert_int_equal(parse_int("42", 0, 100, &i), 0);
	assert_int_equal(i, 42);
	assert_int_equal(parse_int("101", 0, 100, &i), -ERANGE);
	assert_int_equal(parse_int("4k", 0, 100, &i), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_duration),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
