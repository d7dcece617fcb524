/* Loads: spec parsing, and real tiny loads in a directory under build/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "load.h"
#include "now.h"
#include "testdir.h"

#define MiB (1024ull * 1024)

static struct testdir td;

static void test_spec_parse(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256];
	assert_int_equal(load_spec_parse("seq-write", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, LOAD_SEQ_WRITE);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.bs_lo, MiB);
	assert_int_equal(s.size, 0);
	assert_int_equal(s.ioprio_class, -1);
	assert_int_equal(load_spec_parse("rand-read:count=5,bs=4k-44k,size=64m,direct,ionice=be/7,"
					 "rate=20m", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, LOAD_RAND_READ);
	assert_int_equal(s.count, 5);
	assert_int_equal(s.bs_lo, 4096);
	assert_int_equal(s.bs_hi, 44 * 1024);
	assert_int_equal(s.size, 64 * MiB);
	assert_int_equal(s.direct, 1);
	assert_int_equal(s.ioprio_class, 2);
	assert_int_equal(s.ioprio_level, 7);
	assert_int_equal(s.rate, 20 * MiB);
	char buf[200];
	load_spec_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "rand-read:count=5,bs=4k-44k,size=64m,rate=20m,direct,ionice=be/7");
	struct load_spec again;
	assert_int_equal(load_spec_parse(buf, &again, err, sizeof(err)), 0);
	assert_memory_equal(&s, &again, sizeof(s));
	assert_int_equal(load_spec_parse("fsync-heavy:ionice=idle", &s, err, sizeof(err)), 0);
	assert_int_equal(s.fsync_every, 4096);
	assert_int_equal(s.ioprio_class, 3);

	static const char *const bad[] = {
		"seq-frobnicate", "seq-write:count=0", "seq-write:count=x", "seq-write:bogus=1",
		"seq-write:bs", "seq-read:size=4k,bs=1m", "seq-write:bs=5000,direct",
		"seq-read:fsync=1m", "seq-write:ionice=weird", "seq-write:ionice=be/9",
		"seq-write:bs=0", "rand-read:bs=8k-4k",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(load_spec_parse(bad[i], &s, err, sizeof(err)), -EINVAL);
		assert_true(strstr(err, bad[i]) != NULL);   /* the message names the input */
	}
}

/* Run one instance until its pipe closes; returns its wait status. */
static int run_to_end(struct load *l, uint64_t floor, int stop_after_ms)
{
	assert_int_equal(load_start(l, floor), 0);
	int waited = 0;
	while (l->fd >= 0) {
		struct pollfd p = { .fd = l->fd, .events = POLLIN };
		poll(&p, 1, 50);
		load_read(l);
		load_sample(l, now_ns());   /* as the session's ticks do */
		waited += 50;
		if (stop_after_ms && waited >= stop_after_ms) {
			load_stop(l);
			stop_after_ms = 0;
		}
		assert_true(waited < 20000);
	}
	int st;
	assert_int_equal(waitpid(l->pid, &st, 0), l->pid);
	load_reaped(l, st);
	return st;
}

/* The timeline covers the whole run: the first report (no bytes) opens
 * it, the last closes it, nothing is added after the pipe closed, and the
 * mean lies between the slowest and fastest interval (a burst before the
 * first tick is in the first one). */
static void timeline_check(struct load *l)
{
	size_t n = l->n_timeline;
	assert_true(n >= 2);
	assert_int_equal(l->timeline[0].t_ns, l->t_start);
	assert_int_equal(l->timeline[0].bytes, 0);
	assert_int_equal(l->timeline[n - 1].t_ns, l->t_last);
	assert_int_equal(l->timeline[n - 1].bytes, l->bytes);
	assert_int_equal(load_sample(l, l->t_last + 1000000000ull), 0);
	assert_int_equal(l->n_timeline, n);
	double lo = INFINITY, hi = -INFINITY;
	for (size_t k = 1; k < n; k++) {
		const struct load_point *a = &l->timeline[k - 1], *b = &l->timeline[k];
		if (b->t_ns <= a->t_ns)
			continue;
		double r = (double)(b->bytes - a->bytes) / MiB / ((double)(b->t_ns - a->t_ns) / 1e9);
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
	}
	double m = load_mibps(l);
	assert_true(m >= lo * (1 - 1e-9) && m <= hi * (1 + 1e-9));
	assert_float_equal(m, (double)l->bytes / MiB / ((double)(l->t_last - l->t_start) / 1e9),
			   1e-9 * m);
}

static void test_write_total(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256];
	assert_int_equal(load_spec_parse("seq-write:total=8m,bs=256k", &s, err, sizeof(err)), 0);
	struct load l;
	assert_int_equal(load_prepare(&l, &s, 1, td.fd), 0);
	run_to_end(&l, 0, 0);
	assert_int_equal(l.end, LOAD_END_DONE);
	assert_int_equal(l.bytes, 8 * MiB);
	struct stat st;
	assert_int_equal(fstatat(td.fd, l.name, &st, 0), 0);
	assert_int_equal(st.st_size, 0);     /* the writer frees its data on the way out */
	assert_true(l.worst_ns > 0);
	assert_true(l.t_start > 0 && l.t_last >= l.t_start);
	unlinkat(td.fd, l.name, 0);
	load_free(&l);
}

static void test_floor(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256];
	assert_int_equal(load_spec_parse("seq-write", &s, err, sizeof(err)), 0);
	struct load l;
	assert_int_equal(load_prepare(&l, &s, 2, td.fd), 0);
	uint64_t avail;
	assert_int_equal(load_avail(td.fd, &avail), 0);
	run_to_end(&l, avail, 0);        /* already under the floor: writes nothing */
	assert_int_equal(l.end, LOAD_END_FLOOR);
	assert_int_equal(l.bytes, 0);
	unlinkat(td.fd, l.name, 0);
	load_free(&l);
	uint64_t f;
	assert_int_equal(load_floor(td.fd, 0, 12345, &f), 0);
	assert_int_equal(f, 12345);
	assert_int_equal(load_floor(td.fd, 100, 0, &f), 0);
	assert_true(f >= avail);
}

static void test_reader_stop(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256];
	assert_int_equal(load_spec_parse("rand-read:size=4m,bs=4k-16k,ionice=idle", &s, err,
					 sizeof(err)), 0);
	struct load l;
	assert_int_equal(load_prepare(&l, &s, 1, td.fd), 0);
	struct stat st;
	assert_int_equal(fstatat(td.fd, l.name, &st, 0), 0);
	assert_int_equal(st.st_size, 4 * MiB);
	int status = run_to_end(&l, 0, 300);
	assert_true(WIFEXITED(status));
	assert_int_equal(l.end, LOAD_END_STOPPED);
	assert_true(l.bytes > 0);
	timeline_check(&l);
	unlinkat(td.fd, l.name, 0);
	load_free(&l);
}

static void test_killed(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256];
	assert_int_equal(load_spec_parse("seq-write:rate=1m", &s, err, sizeof(err)), 0);
	struct load l;
	assert_int_equal(load_prepare(&l, &s, 3, td.fd), 0);
	assert_int_equal(load_start(&l, 0), 0);
	usleep(100000);
	pid_t pid = l.pid;
	load_kill(&l);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	load_reaped(&l, st);
	assert_int_equal(l.end, LOAD_END_DIED);
	assert_int_equal(l.err, 9);
	unlinkat(td.fd, l.name, 0);
	load_free(&l);
}

/* Sizes from user input: absurd ones are refused, products cannot wrap. */
static void test_sizes(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256];
	static const char *const bad[] = {
		"rand-write:size=4611686018427387904,count=4",     /* 2^62 */
		"rand-write:size=9223372036854775808,count=2",     /* 2^63 */
		"seq-write:total=2000000t", "seq-write:fsync=99999999t",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(load_spec_parse(bad[i], &s, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, bad[i]));
	}
	assert_int_equal(load_spec_parse("rand-write:size=1024t,count=256", &s, err, sizeof(err)), 0);
	uint64_t need;
	assert_int_equal(load_spec_need(&s, &need), 0);
	assert_true(need == 256ull << 50);
	s.size = 1ull << 62;             /* a spec built some other way */
	s.count = 4;
	assert_int_equal(load_spec_need(&s, &need), -EOVERFLOW);
}

/* A name in the work directory that is already there (a planted link) is
 * never opened: load_prepare() creates O_EXCL|O_NOFOLLOW, and the child
 * opens relative to the directory descriptor, never following a link. */
static void test_no_follow(void **state)
{
	(void)state;
	char victim[] = "build/ut-load-victim.XXXXXX";
	int vfd = mkstemp(victim);
	assert_true(vfd >= 0);
	assert_int_equal(write(vfd, "keep", 4), 4);
	close(vfd);
	char target[PATH_MAX];
	assert_non_null(realpath(victim, target));
	struct load_spec s;
	char err[256];
	struct load l;
	assert_int_equal(load_spec_parse("seq-write:total=1m", &s, err, sizeof(err)), 0);
	assert_int_equal(symlinkat(target, td.fd, "load-seq-write-7"), 0);
	assert_int_equal(load_prepare(&l, &s, 7, td.fd), -EEXIST);
	/* even if the file is swapped for a link after prepare */
	assert_int_equal(unlinkat(td.fd, "load-seq-write-7", 0), 0);
	assert_int_equal(load_prepare(&l, &s, 7, td.fd), 0);
	assert_int_equal(unlinkat(td.fd, l.name, 0), 0);
	assert_int_equal(symlinkat(target, td.fd, l.name), 0);
	run_to_end(&l, 0, 0);
	assert_int_equal(l.end, LOAD_END_ERROR);
	assert_int_equal(l.err, ELOOP);
	assert_int_equal(l.bytes, 0);
	struct stat st;
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_size, 4);
	unlinkat(td.fd, l.name, 0);
	unlink(victim);
	load_free(&l);
}

static int setup(void **state)
{
	(void)state;
	return testdir_make(&td, "load");
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_EMPTY);   /* fails if a test left a file behind */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_parse),
		cmocka_unit_test(test_write_total),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_reader_stop),
		cmocka_unit_test(test_killed),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_no_follow),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
