/* splitbar: the stacked bar's cells, caption and legend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "splitbar.h"
#include "timesplit.h"

#define NP TIMESPLIT_NPARTS

static int sum(const int *c, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += c[i];
	return s;
}

static void exact_shares(void **state)
{
	(void)state;
	/* cpu 25, device 25, queued 50 on 20 cells: 5, 5, 10 */
	uint64_t v[NP] = { 25, 0, 25, 50, 0, 0, 0, 0 };
	int c[NP];
	char b[64];
	assert_int_equal(splitbar_layout(v, NP, 20, c), 20);
	assert_int_equal(c[0], 5);
	assert_int_equal(c[2], 5);
	assert_int_equal(c[3], 10);
	assert_int_equal(sum(c, NP), 20);
	splitbar_text(c, NP, b, sizeof(b));
	assert_string_equal(b, "cccccdddddqqqqqqqqqq");
}

static void rounding_adds_up(void **state)
{
	(void)state;
	/* thirds on 10 cells: 4, 3, 3 (the tie goes to the lower part) */
	uint64_t v[NP] = { 1, 1, 1, 0, 0, 0, 0, 0 };
	int c[NP];
	assert_int_equal(splitbar_layout(v, NP, 10, c), 10);
	assert_int_equal(c[0], 4);
	assert_int_equal(c[1], 3);
	assert_int_equal(c[2], 3);
	/* many shapes and widths: always exactly the width, each part floor or
	 * ceil of its share (or more for the 1 % rule) */
	srand(7);
	for (int t = 0; t < 2000; t++) {
		uint64_t w[NP];
		uint64_t tot = 0;
		for (int i = 0; i < NP; i++) {
			w[i] = rand() % 4 ? 0 : (uint64_t)rand() % 1000000;
			tot += w[i];
		}
		int width = 1 + rand() % 120;
		int got = splitbar_layout(w, NP, width, c);
		if (!tot) {
			assert_int_equal(got, 0);
			assert_int_equal(sum(c, NP), 0);
			continue;
		}
		assert_int_equal(got, width);
		assert_int_equal(sum(c, NP), width);
		for (int i = 0; i < NP; i++) {
			assert_true(c[i] >= 0);
			if (!w[i])
				assert_int_equal(c[i], 0);
		}
	}
}

static void tiny_parts(void **state)
{
	(void)state;
	int c[NP];
	char b[64];
	/* 1 % of runq on a 10-cell bar: a cell of its own, from the largest */
	uint64_t v[NP] = { 0, 10, 0, 990, 0, 0, 0, 0 };
	splitbar_layout(v, NP, 10, c);
	assert_int_equal(c[1], 1);
	assert_int_equal(c[3], 9);
	splitbar_text(c, NP, b, sizeof(b));
	assert_string_equal(b, "rqqqqqqqqq");
	/* 0.5 % of runq: under the threshold, no cell on 10 */
	uint64_t u[NP] = { 0, 5, 0, 995, 0, 0, 0, 0 };
	splitbar_layout(u, NP, 10, c);
	assert_int_equal(c[1], 0);
	assert_int_equal(c[3], 10);
	/* ... but on 200 cells it rounds to one */
	splitbar_layout(u, NP, 200, c);
	assert_int_equal(c[1], 1);
	assert_int_equal(c[3], 199);
	/* eight parts on a 4-cell bar: the four largest show, the sum holds */
	uint64_t all[NP] = { 30, 20, 15, 12, 10, 6, 4, 3 };
	assert_int_equal(splitbar_layout(all, NP, 4, c), 4);
	assert_int_equal(sum(c, NP), 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(c[i], 1);
	/* ... and all of them on 8 cells */
	splitbar_layout(all, NP, 8, c);
	for (int i = 0; i < NP; i++)
		assert_int_equal(c[i], 1);
	/* one cell: the largest part */
	splitbar_layout(all, NP, 1, c);
	assert_int_equal(c[0], 1);
	assert_int_equal(sum(c, NP), 1);
}

static void degenerate(void **state)
{
	(void)state;
	int c[NP];
	char b[4];
	uint64_t zero[NP] = { 0 };
	uint64_t v[NP] = { 5, 0, 0, 0, 0, 0, 0, 0 };
	assert_int_equal(splitbar_layout(zero, NP, 20, c), 0);
	assert_int_equal(splitbar_layout(v, NP, 0, c), 0);
	assert_int_equal(splitbar_layout(v, NP, -3, c), 0);
	assert_int_equal(sum(c, NP), 0);
	/* huge values do not overflow */
	uint64_t big[NP] = { UINT64_MAX / 2, UINT64_MAX / 4, 0, UINT64_MAX / 4, 0, 0, 0, 0 };
	assert_int_equal(splitbar_layout(big, NP, 8, c), 8);
	assert_int_equal(c[0], 4);
	assert_int_equal(c[1], 2);
	assert_int_equal(c[3], 2);
	/* the text is cut to its buffer */
	splitbar_layout(v, NP, 20, c);
	splitbar_text(c, NP, b, sizeof(b));
	assert_string_equal(b, "ccc");
	assert_int_equal(splitbar_letter(-1), '?');
	assert_int_equal(splitbar_letter(NP), '?');
	assert_int_equal(splitbar_letter(3), 'q');
	/* every letter distinct */
	for (int i = 0; i < NP; i++)
		for (int j = i + 1; j < NP; j++)
			assert_int_not_equal(splitbar_letter(i), splitbar_letter(j));
}

static void caption(void **state)
{
	(void)state;
	char b[128];
	uint64_t v[NP] = { 12, 0, 15, 62, 0, 0, 11, 0 };
	splitbar_caption(v, NP, 80, b, sizeof(b));
	assert_string_equal(b, "62 % queued in the I/O scheduler, 15 % on the disk");
	splitbar_caption(v, NP, 40, b, sizeof(b));
	assert_string_equal(b, "62 % queued, 15 % device, 12 % cpu");
	splitbar_caption(v, NP, 25, b, sizeof(b));
	assert_string_equal(b, "62 % queued, 15 % device");
	splitbar_caption(v, NP, 11, b, sizeof(b));
	assert_string_equal(b, "62 % queued");
	splitbar_caption(v, NP, 5, b, sizeof(b));
	assert_string_equal(b, "");
	/* parts under 1 % are not named */
	uint64_t t[NP] = { 995, 5, 0, 0, 0, 0, 0, 0 };
	splitbar_caption(t, NP, 80, b, sizeof(b));
	assert_string_equal(b, "100 % on CPU");
	uint64_t z[NP] = { 0 };
	splitbar_caption(z, NP, 80, b, sizeof(b));
	assert_string_equal(b, "");
}

static void legend(void **state)
{
	(void)state;
	char b[256];
	unsigned m = 1u << 0 | 1u << 2 | 1u << 3;
	splitbar_legend(m, 100, b, sizeof(b));
	assert_string_equal(b, "c on CPU  d on the disk  q queued in the I/O scheduler");
	splitbar_legend(m, 40, b, sizeof(b));
	assert_string_equal(b, "c cpu  d device  q queued");
	splitbar_legend(m, 16, b, sizeof(b));
	assert_string_equal(b, "c cpu  d device");
	splitbar_legend(0, 40, b, sizeof(b));
	assert_string_equal(b, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_shares),
		cmocka_unit_test(rounding_adds_up),
		cmocka_unit_test(tiny_parts),
		cmocka_unit_test(degenerate),
		cmocka_unit_test(caption),
		cmocka_unit_test(legend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
