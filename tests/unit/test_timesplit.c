/* The breakdown's accounting (probes/iowhy_acct.h, the code the BPF
 * collector runs in the kernel) on synthetic event streams: precedence,
 * overlapping requests counted once, requeue, merge, a request that never
 * completes, the window's clipping, the issuers of the requests ahead, and
 * random streams whose parts must always add up to the window; then
 * timesplit's summary (median sample, mean shares) and its words. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "timesplit.h"

#define FROM 1000
#define TO 2000

/* A stream of moves on one accounting, then its last stretch at TO. */
struct ev {
	uint64_t t;
	unsigned old, new;
};

static void play(struct iowhy_acct *a, const struct ev *e, size_t n, uint64_t from, uint64_t to)
{
	for (size_t i = 0; i < n; i++)
		iowhy_acct_move(a, e[i].t, from, to, e[i].old, e[i].new);
	iowhy_acct_advance(a, to, from, to);
}

static uint64_t sum(const struct iowhy_acct *a)
{
	uint64_t s = 0;
	for (int p = 0; p < IOWHY_NPARTS; p++)
		s += a->part_ns[p];
	return s;
}

enum { N = IOWHY_NONE, CPU = IOWHY_CPU, RQ = IOWHY_RUNQ, DEV = IOWHY_DEVICE,
       QU = IOWHY_QUEUED, ADM = IOWHY_ADMIT, THR = IOWHY_THROTTLED, BLK = IOWHY_BLOCKED,
       SLP = IOWHY_SLEEP };

/* One task: forked before the window, reads once, sleeps on it, runs on. */
static void test_one_read(void **state)
{
	(void)state;
	struct iowhy_acct a = { 0 };
	const struct ev e[] = {
		{ 900, N, RQ },      /* forked: before the window, not charged */
		{ 1100, RQ, CPU },   /* runs */
		{ 1200, N, QU },     /* its request is made (it is on CPU: cpu wins) */
		{ 1250, QU, DEV },   /* issued */
		{ 1300, CPU, BLK },  /* sleeps on it: device */
		{ 1600, DEV, N },    /* completed */
		{ 1620, BLK, RQ },   /* woken */
		{ 1650, RQ, CPU },
	};
	play(&a, e, sizeof(e) / sizeof(e[0]), FROM, TO);
	assert_int_equal(a.part_ns[IOWHY_RUNQ], 100 + 30);
	assert_int_equal(a.part_ns[IOWHY_CPU], 200 + 350);
	assert_int_equal(a.part_ns[IOWHY_DEVICE], 300);
	assert_int_equal(a.part_ns[IOWHY_BLOCKED], 20);
	assert_int_equal(a.part_ns[IOWHY_QUEUED], 0);
	assert_int_equal(a.device_union_ns, 350);
	assert_int_equal(a.queued_union_ns, 50);
	assert_int_equal(sum(&a), TO - FROM);
}

/* Two requests on the device at once count once (a union, not a sum). */
static void test_overlap(void **state)
{
	(void)state;
	struct iowhy_acct a = { 0 };
	const struct ev e[] = {
		{ 1000, N, BLK },
		{ 1100, N, DEV }, { 1300, N, DEV },   /* [1100,1500) and [1300,1800) */
		{ 1500, DEV, N }, { 1800, DEV, N },
	};
	play(&a, e, sizeof(e) / sizeof(e[0]), FROM, TO);
	assert_int_equal(a.part_ns[IOWHY_DEVICE], 700);
	assert_int_equal(a.device_union_ns, 700);
	assert_int_equal(a.part_ns[IOWHY_BLOCKED], 300);
	assert_int_equal(sum(&a), TO - FROM);
}

/* Issued, requeued (back in the queue), issued again, completed. */
static void test_requeue(void **state)
{
	(void)state;
	struct iowhy_acct a = { 0 };
	const struct ev e[] = {
		{ 1000, N, BLK }, { 1000, N, QU },
		{ 1100, QU, DEV }, { 1200, DEV, QU }, { 1500, QU, DEV }, { 1700, DEV, N },
		{ 1700, BLK, CPU },
	};
	play(&a, e, sizeof(e) / sizeof(e[0]), FROM, TO);
	assert_int_equal(a.part_ns[IOWHY_QUEUED], 100 + 300);
	assert_int_equal(a.part_ns[IOWHY_DEVICE], 100 + 200);
	assert_int_equal(a.part_ns[IOWHY_CPU], 300);
	assert_int_equal(a.queued_union_ns, 400);
	assert_int_equal(sum(&a), TO - FROM);
}

/* Merged into another's request (which is not tracked): its wait is then
 * blocked, and the accounting says so by the flag the collector sets. */
static void test_merge(void **state)
{
	(void)state;
	struct iowhy_acct a = { 0 };
	const struct ev e[] = {
		{ 1000, N, BLK }, { 1000, N, QU }, { 1400, QU, N },   /* merged away */
		{ 1900, BLK, CPU },
	};
	play(&a, e, sizeof(e) / sizeof(e[0]), FROM, TO);
	assert_int_equal(a.part_ns[IOWHY_QUEUED], 400);
	assert_int_equal(a.part_ns[IOWHY_BLOCKED], 500);
	assert_int_equal(a.part_ns[IOWHY_CPU], 100);
	assert_int_equal(sum(&a), TO - FROM);
}

/* A request that never completes is on the device to the window's end;
 * the task that exits leaves "sleep" when nothing else is left. */
static void test_never_completes(void **state)
{
	(void)state;
	struct iowhy_acct a = { 0 };
	const struct ev e[] = {
		{ 1000, N, CPU }, { 1200, N, DEV }, { 1300, CPU, N },   /* exits */
	};
	play(&a, e, sizeof(e) / sizeof(e[0]), FROM, TO);
	assert_int_equal(a.part_ns[IOWHY_CPU], 300);
	assert_int_equal(a.part_ns[IOWHY_DEVICE], 700);
	assert_int_equal(sum(&a), TO - FROM);
	struct iowhy_acct b = { 0 };
	const struct ev f[] = { { 1000, N, CPU }, { 1300, CPU, N } };
	play(&b, f, 2, FROM, TO);
	assert_int_equal(b.part_ns[IOWHY_SLEEP], 700);
}

/* Precedence among tasks: one on a CPU hides another's wait; admit is
 * below a queued request, throttled below admit, blocked below both. */
static void test_precedence(void **state)
{
	(void)state;
	struct iowhy_acct a = { 0 };
	const struct ev e[] = {
		{ 1000, N, CPU }, { 1000, N, THR },                  /* cpu */
		{ 1100, CPU, ADM },                                  /* admit > throttled */
		{ 1200, N, QU },                                     /* queued > admit */
		{ 1300, QU, N }, { 1300, ADM, BLK },                 /* throttled > blocked */
		{ 1400, THR, SLP },                                  /* blocked > sleep */
		{ 1500, BLK, SLP },                                  /* sleep */
	};
	play(&a, e, sizeof(e) / sizeof(e[0]), FROM, TO);
	assert_int_equal(a.part_ns[IOWHY_CPU], 100);
	assert_int_equal(a.part_ns[IOWHY_ADMIT], 100);
	assert_int_equal(a.part_ns[IOWHY_QUEUED], 100);
	assert_int_equal(a.part_ns[IOWHY_THROTTLED], 100);
	assert_int_equal(a.part_ns[IOWHY_BLOCKED], 100);
	assert_int_equal(a.part_ns[IOWHY_SLEEP], 500);
	assert_int_equal(sum(&a), TO - FROM);
}

/* Only the window counts: before it, after it, and a window never opened. */
static void test_window(void **state)
{
	(void)state;
	struct iowhy_acct a = { 0 };
	const struct ev e[] = { { 500, N, CPU }, { 1500, CPU, BLK }, { 2500, BLK, CPU } };
	play(&a, e, 3, FROM, TO);
	assert_int_equal(a.part_ns[IOWHY_CPU], 500);
	assert_int_equal(a.part_ns[IOWHY_BLOCKED], 500);
	assert_int_equal(sum(&a), TO - FROM);
	struct iowhy_acct b = { 0 };
	play(&b, e, 3, 0, 0);
	assert_int_equal(sum(&b), 0);
	/* own requests and requests ahead count only inside it */
	iowhy_acct_own(&a, 900, FROM, TO, 0, 4096);
	iowhy_acct_own(&a, 1500, FROM, TO, 0, 4096);
	iowhy_acct_own(&a, 2000, FROM, TO, 1, 4096);
	assert_int_equal(a.rq[0], 1);
	assert_int_equal(a.rq[1], 0);
}

/* Who issued the requests ahead: four named, the rest counted apart. */
static void test_makers(void **state)
{
	(void)state;
	struct iowhy_acct a = { 0 };
	char comm[IOWHY_COMM] = "writer";
	for (uint32_t tgid = 1; tgid <= 6; tgid++)
		for (uint32_t k = 0; k < tgid; k++)
			iowhy_acct_ahead(&a, 1500, FROM, TO, 1, 1 << 20, tgid, comm);
	iowhy_acct_ahead(&a, 1500, FROM, TO, 0, 4096, 0, comm);   /* unknown issuer */
	assert_int_equal(a.ahead[1], 21);
	assert_int_equal(a.ahead[0], 1);
	assert_int_equal(a.ahead_bytes[1], 21ull << 20);
	assert_int_equal(a.ahead_unnamed, 5 + 6 + 1);
	struct timesplit t;
	timesplit_from_acct(&t, &a);
	assert_int_equal(t.n_makers, 4);
	assert_int_equal(t.makers[0].pid, 4);   /* most requests first */
	assert_int_equal(t.makers[0].n, 4);
	assert_int_equal(t.makers[3].pid, 1);
	assert_string_equal(t.makers[0].comm, "writer");
}

/* Random streams of tasks and requests: the parts always add up to the
 * window, device/queued never exceed their unions, no count underflows. */
static void test_random_streams(void **state)
{
	(void)state;
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	for (int run = 0; run < 3000; run++) {
		struct iowhy_acct a = { 0 };
		unsigned task[4], req[8];
		for (int i = 0; i < 4; i++)
			task[i] = N;
		for (int i = 0; i < 8; i++)
			req[i] = N;
		uint64_t t = 800, from = 900 + run % 200, to = from + 500 + run % 977;
		for (int k = 0; k < 60; k++) {
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			unsigned r = (unsigned)(rng >> 33);
			t += r % 50;
			if (r & 1) {
				unsigned i = (r >> 1) % 4, st = (unsigned[]){ CPU, RQ, ADM, THR, BLK, SLP, N }[(r >> 3) % 7];
				iowhy_acct_move(&a, t, from, to, task[i], st);
				task[i] = st;
			} else {
				unsigned i = (r >> 1) % 8, st = (unsigned[]){ QU, DEV, N }[(r >> 4) % 3];
				iowhy_acct_move(&a, t, from, to, req[i], st);
				req[i] = st;
			}
		}
		iowhy_acct_advance(&a, to, from, to);
		assert_int_equal(sum(&a), to - from);   /* events before, in and after it */
		assert_true(a.part_ns[IOWHY_DEVICE] <= a.device_union_ns);
		assert_true(a.part_ns[IOWHY_QUEUED] <= a.queued_union_ns);
		for (int p = 0; p < IOWHY_NPARTS; p++)
			assert_true(a.n[p] < 100);
	}
}

static struct timesplit split_of(uint64_t cpu, uint64_t dev, uint64_t queued, int incomplete)
{
	struct timesplit t = { .ok = 1, .incomplete = (uint8_t)incomplete };
	t.part_ns[IOWHY_CPU] = cpu;
	t.part_ns[IOWHY_DEVICE] = dev;
	t.part_ns[IOWHY_QUEUED] = queued;
	return t;
}

static void test_sum(void **state)
{
	(void)state;
	struct timesplit v[] = {
		split_of(10, 90, 0, 0), split_of(50, 50, 100, 0), split_of(150, 0, 0, 0),
		split_of(1, 1, 1000, 1), { 0 },
	};
	const struct timesplit *p[] = { &v[0], &v[1], &v[2], &v[3], &v[4], NULL };
	struct timesplit_sum s;
	timesplit_sum(p, 6, &s);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.n_incomplete, 1);
	assert_ptr_equal(s.median, &v[2]);   /* walls 100, 200, 150 */
	assert_float_equal(s.share[IOWHY_CPU], (0.1 + 0.25 + 1.0) / 3, 1e-12);
	assert_float_equal(s.share[IOWHY_QUEUED], 0.5 / 3, 1e-12);
	double total = 0;
	for (int i = 0; i < TIMESPLIT_NPARTS; i++)
		total += s.share[i];
	assert_float_equal(total, 1.0, 1e-12);
	timesplit_sum(p, 0, &s);
	assert_int_equal(s.n, 0);
	assert_null(s.median);
}

static void test_cause(void **state)
{
	(void)state;
	struct timesplit t = split_of(150, 70, 780, 0);
	t.ahead[1] = 410;
	t.ahead_bytes[1] = 400ull << 20;
	char buf[256];
	timesplit_cause(&t, buf, sizeof(buf));
	assert_string_equal(buf, "78 % queued in the I/O scheduler while 410 writes (400.0 MiB) "
			    "went first, 15 % on CPU");
	t.ahead[0] = 1;
	t.ahead[1] = 0;
	t.ahead_bytes[0] = 0;   /* a flush: no size */
	timesplit_cause(&t, buf, sizeof(buf));
	assert_string_equal(buf, "78 % queued in the I/O scheduler while 1 read went first, 15 % on CPU");
	struct timesplit none = { 0 };
	timesplit_cause(&none, buf, sizeof(buf));
	assert_string_equal(buf, "");
	timesplit_cause(&t, buf, 12);   /* truncated, terminated */
	assert_true(strlen(buf) < 12);
	assert_string_equal(timesplit_key(IOWHY_ADMIT), "admit");
	assert_string_equal(timesplit_key(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_read),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_requeue),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_never_completes),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_makers),
		cmocka_unit_test(test_random_streams),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_cause),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
