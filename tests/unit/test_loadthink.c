/* loadthink: fio's thinktime and startdelay for a load (issue 29 part 5). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "load.h"
#include "loadthink.h"
#include "now.h"
#include "testdir.h"

#define MS 1000000ull

static struct testdir td;

/* fio's time units; bare numbers in the key's own unit. */
static void test_parse_time(void **state)
{
	(void)state;
	static const struct { const char *in; uint64_t unit, ns; } ok[] = {
		{ "1000", 1000, 1 * MS }, { "10ms", 1000, 10 * MS }, { "10msec", 1000, 10 * MS },
		{ "250us", 1000, 250000 }, { "250usec", 1000, 250000 }, { "2s", 1000, 2000 * MS },
		{ "2", 1000000000ull, 2000 * MS }, { "1m", 1000, 60000 * MS }, { "1.5ms", 1000, 1500000 },
		{ "0", 1000, 0 }, { "1h", 1000, 3600000 * MS },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t ns = 7;
		assert_int_equal(loadthink_parse_time(ok[i].in, ok[i].unit, &ns), 0);
		assert_int_equal(ns, ok[i].ns);
	}
	static const char *const bad[] = { "", "ms", "-1", "1e3", "10 ms", "10ks", "2h", "1.",
					    ".5", "0x10" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t ns = 7;
		assert_int_equal(loadthink_parse_time(bad[i], 1000, &ns), -EINVAL);
		assert_int_equal(ns, 7);
	}
	uint64_t lo, hi;
	assert_int_equal(loadthink_parse_range("1-3", 1000000000ull, &lo, &hi), 0);
	assert_int_equal(lo, 1000 * MS);
	assert_int_equal(hi, 3000 * MS);
	assert_int_equal(loadthink_parse_range("500ms-2s", 1000000000ull, &lo, &hi), 0);
	assert_int_equal(lo, 500 * MS);
	assert_int_equal(hi, 2000 * MS);
	assert_int_equal(loadthink_parse_range("3-1", 1000000000ull, &lo, &hi), -EINVAL);
	assert_int_equal(loadthink_parse_range("1-", 1000000000ull, &lo, &hi), -EINVAL);
	char b[32];
	static const struct { uint64_t ns; const char *out; } fmt[] = {
		{ 10 * MS, "10ms" }, { 1500000, "1500us" }, { 2000 * MS, "2s" },
		{ 90000 * MS, "90s" }, { 120000 * MS, "2m" }, { 0, "0" },
	};
	for (size_t i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		loadthink_format_time(b, sizeof(b), fmt[i].ns);
		assert_string_equal(b, fmt[i].out);
	}
	loadthink_format_range(b, sizeof(b), 500 * MS, 2000 * MS);
	assert_string_equal(b, "500ms-2s");
	loadthink_format_range(b, sizeof(b), 2000 * MS, 2000 * MS);
	assert_string_equal(b, "2s");
}

/* The spec's keys: parsed, checked, and read back from their format. */
static void test_spec_round_trip(void **state)
{
	(void)state;
	static const char *const specs[] = {
		"rand-read:count=1,bs=4k,size=16m,thinktime=10ms",
		"seq-read:count=2,bs=64k,size=16m,thinktime=1500us,thinktime_spin=500us,"
		"thinktime_blocks=8,thinktime_blocks_type=issue,startdelay=1s-3s",
		"seq-write:count=1,bs=1m,startdelay=500ms",
		"rand-mixed:count=1,bs=4k,engine=io_uring,iodepth=8,size=16m,mix=50,thinktime=2s,"
		"thinktime_blocks=16",
	};
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct load_spec s, t;
		char err[256] = "", text[512];
		if (load_spec_parse(specs[i], &s, err, sizeof(err)) < 0)
			fail_msg("%s: %s", specs[i], err);
		load_spec_format(&s, text, sizeof(text));
		assert_string_equal(text, specs[i]);
		assert_int_equal(load_spec_parse(text, &t, err, sizeof(err)), 0);
		assert_memory_equal(&s, &t, sizeof(s));
		assert_int_equal(load_spec_check(&s, err, sizeof(err)), 0);
	}
	struct load_spec s;
	char err[256];
	assert_int_equal(load_spec_parse("seq-read:thinktime=1s,startdelay=2-4", &s, err,
					 sizeof(err)), 0);
	assert_int_equal(s.think_ns, 1000 * MS);
	assert_int_equal(s.delay_lo_ns, 2000 * MS);
	assert_int_equal(s.delay_hi_ns, 4000 * MS);
	assert_int_equal(load_spec_parse("seq-read:thinktime=10", &s, err, sizeof(err)), 0);
	assert_int_equal(s.think_ns, 10000);    /* bare: microseconds, as fio */
	static const char *const bad[] = {
		"seq-read:thinktime_spin=1ms", "seq-read:thinktime_blocks=4",
		"seq-read:thinktime_blocks_type=issue", "seq-read:thinktime=1ms,thinktime_spin=2ms",
		"seq-read:thinktime=1ms,thinktime_blocks=0", "seq-read:thinktime=1ms,"
		"thinktime_blocks_type=sometimes", "seq-read:thinktime=2h", "seq-read:startdelay=3-1",
		"seq-read:thinktime=-1", "seq-read:startdelay=soon",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (load_spec_parse(bad[i], &s, err, sizeof(err)) != -EINVAL)
			fail_msg("%s was taken", bad[i]);
		assert_non_null(strstr(err, bad[i]));
	}
}

/* When a pause is due, the bound it puts on the calls, the delay drawn. */
static void test_arithmetic(void **state)
{
	(void)state;
	struct load_spec s;
	memset(&s, 0, sizeof(s));
	uint64_t last = 0;
	assert_int_equal(loadthink_due(&s, 1, &last), 0);     /* no thinktime: never */
	assert_true(isinf(loadthink_max_calls(&s)));
	s.think_ns = 10 * MS;
	for (uint64_t c = 1; c <= 5; c++)
		assert_int_equal(loadthink_due(&s, c, &last), 1);  /* after each call */
	assert_int_equal(last, 5);
	assert_float_equal(loadthink_max_calls(&s), 100.0, 1e-9);   /* 4k, 10ms: <= 100/s */
	s.think_blocks = 4;
	last = 0;
	int due = 0;
	for (uint64_t c = 1; c <= 20; c++)
		due += loadthink_due(&s, c, &last);
	assert_int_equal(due, 5);       /* after calls 4, 8, 12, 16, 20 */
	assert_float_equal(loadthink_max_calls(&s), 400.0, 1e-9);
	/* an io_uring load counts several completions at once */
	last = 0;
	assert_int_equal(loadthink_due(&s, 3, &last), 0);
	assert_int_equal(loadthink_due(&s, 6, &last), 1);
	assert_int_equal(loadthink_due(&s, 9, &last), 0);
	assert_int_equal(loadthink_due(&s, 10, &last), 1);
	/* start delays: uniform in the range, whole microseconds, from the seed */
	s.delay_lo_ns = 1000 * MS;
	s.delay_hi_ns = 3000 * MS;
	uint64_t r1 = 42, r2 = 42, lo = UINT64_MAX, hi = 0;
	double sum = 0;
	for (int i = 0; i < 2000; i++) {
		uint64_t d = loadthink_pick_delay(&s, &r1);
		assert_int_equal(d, loadthink_pick_delay(&s, &r2));   /* same seed, same times */
		assert_true(d >= s.delay_lo_ns && d <= s.delay_hi_ns);
		assert_int_equal(d % 1000, 0);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		sum += (double)d;
	}
	assert_true(lo < 1100 * MS && hi > 2900 * MS);
	assert_float_equal(sum / 2000 / 1e9, 2.0, 0.05);
	s.delay_hi_ns = s.delay_lo_ns;
	assert_int_equal(loadthink_pick_delay(&s, &r1), 1000 * MS);
	/* a pause: its busy part spins, the rest sleeps; a stop cuts it short */
	volatile sig_atomic_t stop = 0;
	s.think_ns = 20 * MS;
	s.think_spin_ns = 5 * MS;
	uint64_t took = loadthink_pause(&s, &stop);
	assert_true(took >= 20 * MS && took < 200 * MS);
	stop = 1;
	assert_true(loadthink_pause(&s, &stop) < 5 * MS);
}

/* Run a load for ms; its wait status. */
static void run_for(struct load *l, int ms)
{
	assert_int_equal(load_start(l, 0), 0);
	int waited = 0;
	while (l->fd >= 0) {
		struct pollfd p = { .fd = l->fd, .events = POLLIN };
		poll(&p, 1, 20);
		load_read(l);
		load_sample(l, now_ns());
		waited += 20;
		if (waited == ms)
			load_stop(l);
		assert_true(waited < 20000);
	}
	int st;
	assert_int_equal(waitpid(l->pid, &st, 0), l->pid);
	load_reaped(l, st);
}

/* A load that thinks 10 ms after each 4k read makes at most 100 calls a
 * second, and its rate says so; with the sync and the io_uring engine. */
static void test_think_rate(void **state)
{
	(void)state;
	static const char *const specs[] = {
		"rand-read:bs=4k,size=1m,thinktime=10ms",
		"rand-read:bs=4k,size=1m,engine=io_uring,iodepth=4,thinktime=10ms,thinktime_blocks=4",
	};
	for (size_t i = 0; i < 2; i++) {
		struct load_spec s;
		char err[256];
		struct load l;
		assert_int_equal(load_spec_parse(specs[i], &s, err, sizeof(err)), 0);
		assert_int_equal(load_prepare(&l, &s, 1, td.fd), 0);
		run_for(&l, 600);
		double secs = (double)(l.t_last - l.t_start) / 1e9;
		double calls = (double)l.bytes / 4096 / secs;
		double bound = loadthink_max_calls(&s);
		print_message("%s: %.0f calls/s over %.2f s (bound %.0f)\n", specs[i], calls, secs,
			      bound);
		assert_true(secs > 0.4);
		assert_true(calls <= bound * 1.05);
		assert_true(calls > bound * 0.5);     /* it still goes */
		assert_float_equal(load_mibps(&l) * 1048576 / 4096, calls, calls * 0.05);
		unlinkat(td.fd, l.name, 0);
		load_free(&l);
	}
}

/* A delayed load: nothing before its delay, its timeline starts after it. */
static void test_start_delay(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256];
	struct load l;
	assert_int_equal(load_spec_parse("rand-read:bs=4k,size=1m,rate=400k,startdelay=300ms",
					 &s, err, sizeof(err)), 0);
	assert_int_equal(load_prepare(&l, &s, 1, td.fd), 0);
	assert_int_equal(l.delay_ns, 300 * MS);
	uint64_t t0 = now_ns();
	run_for(&l, 700);
	assert_true(l.t_start >= t0 + 290 * MS);
	assert_int_equal(l.timeline[0].t_ns, l.t_start);
	assert_int_equal(l.timeline[0].bytes, 0);
	double m = load_mibps(&l) * 1024;   /* KiB/s over its running time */
	print_message("delayed load: first report %.0f ms after start, %.0f KiB/s\n",
		      (double)(l.t_start - t0) / 1e6, m);
	assert_float_equal(m, 400, 80);
	unlinkat(td.fd, l.name, 0);
	load_free(&l);
	/* stopped while it waits: it ends at once, without a call */
	assert_int_equal(load_spec_parse("seq-write:bs=4k,startdelay=10s", &s, err, sizeof(err)), 0);
	assert_int_equal(load_prepare(&l, &s, 1, td.fd), 0);
	t0 = now_ns();
	run_for(&l, 100);
	assert_true(now_ns() - t0 < 2000 * MS);
	assert_int_equal(l.bytes, 0);
	assert_int_equal(l.end, LOAD_END_STOPPED);
	assert_true(isnan(load_mibps(&l)));
	unlinkat(td.fd, l.name, 0);
	load_free(&l);
}

static int setup(void **state)
{
	(void)state;
	return testdir_make(&td, "think");
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_EMPTY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_spec_round_trip),
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_think_rate),
		cmocka_unit_test(test_start_delay),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
