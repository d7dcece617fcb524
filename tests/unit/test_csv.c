/* csv: RFC 4180 cells that no spreadsheet runs (csv.h).  A text cell is
 * escaped, quoted, its quotes doubled, and a formula's first character
 * (= + - @ TAB CR) put behind an apostrophe; numbers stay plain. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "csv.h"

/* What csv_text writes for s. */
static char *cell(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(csv_text(f, s), 0);
	fclose(f);
	return buf;
}

static void want(const char *s, const char *expect)
{
	char *got = cell(s);
	if (strcmp(got, expect) != 0)
		fail_msg("csv_text(\"%s\") = [%s], expected [%s]", s, got, expect);
	free(got);
}

static void test_plain(void **state)
{
	(void)state;
	want("", "\"\"");
	want(NULL, "\"\"");
	want("sda", "\"sda\"");
	want("a,b", "\"a,b\"");
	want("say \"hi\"", "\"say \"\"hi\"\"\"");
	want("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	/* a line break or ESC never reaches the file raw */
	want("a\nb\rc\x1b", "\"a\\x0ab\\x0dc\\x1b\"");
	want("back\\slash", "\"back\\\\slash\"");
	/* inside, a formula character is plain text */
	want("a=b", "\"a=b\"");
	want("WDC WD10EZEX-08WN4A0", "\"WDC WD10EZEX-08WN4A0\"");
}

static void test_formula(void **state)
{
	(void)state;
	want("=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\"");
	want("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
	want("+1+1", "\"'+1+1\"");
	want("-2+3", "\"'-2+3\"");
	want("@SUM(A1)", "\"'@SUM(A1)\"");
	want("\t=1", "\"'\t=1\"");
	/* CR is escaped, and still put behind an apostrophe */
	want("\r=1", "\"'\\x0d=1\"");
	want("=", "\"'=\"");
	/* a long one, past the small buffer */
	char big[3000];
	memset(big, 'x', sizeof(big) - 1);
	big[0] = '=';
	big[sizeof(big) - 1] = '\0';
	char *got = cell(big);
	assert_int_equal(strlen(got), sizeof(big) - 1 + 3);
	assert_memory_equal(got, "\"'=xxx", 6);
	free(got);
}

static void test_numbers(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	csv_num(f, -0.5, 6);
	fputc(',', f);
	csv_num(f, 1234567.0, 6);
	fputc(',', f);
	csv_num(f, NAN, 6);
	fputc(',', f);
	csv_fixed(f, -12.3456, 3);
	fputc(',', f);
	csv_fixed(f, INFINITY, 3);
	fclose(f);
	assert_string_equal(buf, "-0.5,1.23457e+06,,-12.346,");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_formula),
		cmocka_unit_test(test_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
