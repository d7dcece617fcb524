/* spark: value -> level -> glyph, UTF-8 and ASCII. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "spark.h"

static void linear(void **state)
{
	(void)state;
	assert_int_equal(spark_level_linear(0, 100), 0);
	assert_int_equal(spark_level_linear(100, 100), SPARK_LEVELS - 1);
	assert_int_equal(spark_level_linear(50, 100), 4);        /* 3.5 rounds up */
	assert_int_equal(spark_level_linear(1000, 100), SPARK_LEVELS - 1);
	assert_int_equal(spark_level_linear(-5, 100), 0);
	assert_int_equal(spark_level_linear(5, 0), 0);           /* no scale: baseline */
	assert_int_equal(spark_level_linear(NAN, 100), SPARK_EMPTY);
}

static void logscale(void **state)
{
	(void)state;
	assert_int_equal(spark_level_log(1, 1, 1000), 0);
	assert_int_equal(spark_level_log(1000, 1, 1000), SPARK_LEVELS - 1);
	/* 10 is a third of the way from 1 to 1000 on a log scale: 7/3 -> 2 */
	assert_int_equal(spark_level_log(10, 1, 1000), 2);
	assert_int_equal(spark_level_log(0, 1, 1000), SPARK_EMPTY);
	assert_int_equal(spark_level_log(NAN, 1, 1000), SPARK_EMPTY);
	assert_int_equal(spark_level_log(5, 5, 5), SPARK_LEVELS / 2);
}

static void glyphs(void **state)
{
	(void)state;
	assert_string_equal(spark_glyph(0, 1), "\u2581");
	assert_string_equal(spark_glyph(SPARK_LEVELS - 1, 1), "\u2588");
	assert_string_equal(spark_glyph(0, 0), "_");
	assert_string_equal(spark_glyph(SPARK_LEVELS - 1, 0), "@");
	assert_string_equal(spark_glyph(SPARK_MARK, 1), "\u2502");
	assert_string_equal(spark_glyph(SPARK_MARK, 0), "|");
	assert_string_equal(spark_glyph(SPARK_EMPTY, 1), " ");
	assert_string_equal(spark_glyph(99, 0), " ");
	for (int l = 0; l < SPARK_LEVELS; l++)
		assert_int_equal(strlen(spark_glyph(l, 0)), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linear),
		cmocka_unit_test(logscale),
		cmocka_unit_test(glyphs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
