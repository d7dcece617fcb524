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
#include "loaddist.h"
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

/* Mixed kinds, distributions and skips: parsed, formatted, read back. */
static void test_spec_mixed(void **state)
{
	(void)state;
	struct load_spec s, t;
	char err[256], text[512];
	assert_int_equal(load_spec_parse("rand-mixed:mix=70,dist=zipf:1.2,size=64m", &s, err,
					 sizeof(err)), 0);
	assert_int_equal(s.kind, LOAD_RAND_MIXED);
	assert_int_equal(s.mix_read, 70);
	assert_int_equal(s.dist, LOAD_DIST_ZIPF);
	assert_true(load_kind_writes(s.kind) && load_kind_mixed(s.kind) && load_kind_random(s.kind));
	load_spec_format(&s, text, sizeof(text));
	assert_string_equal(text, "rand-mixed:count=1,bs=4k,size=64m,mix=70,dist=zipf:1.2");
	assert_int_equal(load_spec_parse(text, &t, err, sizeof(err)), 0);
	assert_memory_equal(&s, &t, sizeof(s));
	assert_int_equal(load_spec_parse("mixed", &s, err, sizeof(err)), 0);
	assert_int_equal(s.mix_read, 50);                 /* fio's default rwmixread */
	assert_int_equal(load_spec_parse("seq-read:bs=4k,size=128m,skip=-8k", &s, err,
					 sizeof(err)), 0);
	assert_int_equal(s.skip, -8192);
	load_spec_format(&s, text, sizeof(text));
	assert_non_null(strstr(text, ",skip=-8k"));
	assert_int_equal(load_spec_parse("rand-read:dist=zoned:50/5:30/15:20/", &s, err,
					 sizeof(err)), 0);
	assert_int_equal(s.n_zones, 3);
	assert_int_equal(s.zones[2].size_pct, 80);
	static const char *const bad[] = {
		"seq-write:mix=50", "seq-read:dist=zipf:1.2", "rand-read:skip=4k",
		"rand-read:dist=zipf:1", "rand-read:dist=pareto:1.5", "rand-read:dist=normal:0",
		"rand-read:dist=zoned:50/5:30/15", "rand-read:dist=zoned:60/5:30/95",
		"rand-read:dist=frob", "mixed:mix=101", "seq-write:skip=-8k",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(load_spec_parse(bad[i], &s, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, bad[i]));
	}
}

static int cmp_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* Share of the draws that the hottest tenth of the slots took. */
static double top_tenth(const char *dist, uint64_t slots, unsigned draws)
{
	struct load_spec s;
	memset(&s, 0, sizeof(s));
	assert_int_equal(loaddist_parse(dist, &s), 0);
	unsigned *hits = calloc(slots, sizeof(*hits));
	assert_non_null(hits);
	uint64_t rng = 12345;
	for (unsigned i = 0; i < draws; i++) {
		uint64_t k = loaddist_slot(&s, slots, &rng);
		assert_true(k < slots);
		hits[k]++;
	}
	qsort(hits, slots, sizeof(*hits), cmp_desc);
	unsigned top = 0;
	for (uint64_t i = 0; i < slots / 10; i++)
		top += hits[i];
	free(hits);
	return (double)top / draws;
}

/* The shapes, roughly: zipf's and pareto's hot tenth takes most hits,
 * uniform's about a tenth; normal stays near its centre; zoned fills its
 * zones as asked. */
static void test_dist_shape(void **state)
{
	(void)state;
	double z = top_tenth("zipf:1.2", 1000, 100000);
	double p = top_tenth("pareto:0.9", 1000, 100000);
	double u = top_tenth("random", 1000, 100000);
	print_message("hottest tenth of 1000 slots: zipf:1.2 %.2f, pareto:0.9 %.2f, random %.2f\n",
		      z, p, u);
	assert_true(z > 0.6);
	assert_true(p > 0.8);
	assert_true(u > 0.09 && u < 0.14);
	assert_true(top_tenth("zipf:0.5", 1000, 100000) < z);   /* a smaller theta: flatter */
	struct load_spec s;
	memset(&s, 0, sizeof(s));
	uint64_t rng = 7, slots = 10000, near = 0, first = 0;
	assert_int_equal(loaddist_parse("normal:10", &s), 0);
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t k = loaddist_slot(&s, slots, &rng);
		near += k >= 4000 && k < 6000;               /* within one deviation */
	}
	assert_true(near > 64000 && near < 72000);
	assert_int_equal(loaddist_parse("zoned:50/5:30/15:20/", &s), 0);
	for (unsigned i = 0; i < 100000; i++)
		first += loaddist_slot(&s, slots, &rng) < 500;
	assert_true(first > 48000 && first < 52000);
	assert_int_equal(loaddist_slot(&s, 1, &rng), 0);
}

/* rate + poisson: the same mean pacing, exponential gaps (their
 * coefficient of variation about 1); without poisson every call counts
 * its own length. */
static void test_poisson(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256], text[512];
	assert_int_equal(load_spec_parse("rand-read:rate=200k,poisson", &s, err, sizeof(err)), 0);
	assert_int_equal(s.poisson, 1);
	load_spec_format(&s, text, sizeof(text));
	assert_non_null(strstr(text, ",poisson"));
	assert_int_equal(load_spec_parse("rand-read:poisson", &s, err, sizeof(err)), -EINVAL);
	s.poisson = 1;
	uint64_t rng = 5;
	double sum = 0, sq = 0;
	for (unsigned i = 0; i < 100000; i++) {
		double g = loaddist_paced(&s, 4096, &rng);
		assert_true(g >= 0);
		sum += g;
		sq += g * g;
	}
	double mean = sum / 100000, sd = sqrt(sq / 100000 - mean * mean);
	assert_true(fabs(mean / 4096 - 1) < 0.02);
	assert_true(fabs(sd / mean - 1) < 0.03);
	s.poisson = 0;
	assert_float_equal(loaddist_paced(&s, 4096, &rng), 4096, 0);
}

/* fio's flow: two loads of one group go in the ratio of their weights
 * (1:3 here, counted in calls of one size, so in bytes too). */
static void test_flow(void **state)
{
	(void)state;
	struct load_spec a, b;
	char err[256], text[512];
	assert_int_equal(load_spec_parse("rand-read:bs=4k,size=1m,flow=1,flow_id=3,flow_sleep=50",
					 &a, err, sizeof(err)), 0);
	load_spec_format(&a, text, sizeof(text));
	assert_non_null(strstr(text, ",flow=1,flow_id=3,flow_sleep=50"));
	assert_int_equal(load_spec_parse("rand-read:bs=4k,size=1m,flow=3,flow_id=3,flow_sleep=50",
					 &b, err, sizeof(err)), 0);
	assert_int_equal(load_spec_parse("rand-read:flow_id=16", &b, err, sizeof(err)), -EINVAL);
	assert_int_equal(load_spec_parse("rand-read:bs=4k,size=1m,flow=3,flow_id=3,flow_sleep=50",
					 &b, err, sizeof(err)), 0);
	struct load la, lb;
	assert_int_equal(load_prepare(&la, &a, 1, td.fd), 0);
	assert_int_equal(load_prepare(&lb, &b, 2, td.fd), 0);
	assert_int_equal(load_start(&la, 0), 0);
	assert_int_equal(load_start(&lb, 0), 0);
	for (int i = 0; i < 8; i++) {
		poll(NULL, 0, 50);
		load_read(&la);
		load_read(&lb);
	}
	load_stop(&la);
	load_stop(&lb);
	struct load *ls[2] = { &la, &lb };
	for (int k = 0; k < 2; k++) {
		while (ls[k]->fd >= 0) {
			struct pollfd p = { .fd = ls[k]->fd, .events = POLLIN };
			poll(&p, 1, 50);
			load_read(ls[k]);
		}
		int st;
		assert_int_equal(waitpid(ls[k]->pid, &st, 0), ls[k]->pid);
		load_reaped(ls[k], st);
	}
	if (!la.bytes || !lb.bytes)
		fail_msg("flow: %llu and %llu bytes, ends %s, %s", (unsigned long long)la.bytes,
			 (unsigned long long)lb.bytes, load_end_name(la.end), load_end_name(lb.end));
	double ratio = (double)lb.bytes / (double)la.bytes;
	print_message("flow 1:3 gave %llu:%llu bytes (%.2f)\n", (unsigned long long)la.bytes,
		      (unsigned long long)lb.bytes, ratio);
	if (ratio < 2.4 || ratio > 3.6)
		fail_msg("flow 1:3 gave %llu:%llu bytes (%.2f)", (unsigned long long)la.bytes,
			 (unsigned long long)lb.bytes, ratio);
	unlinkat(td.fd, la.name, 0);
	unlinkat(td.fd, lb.name, 0);
	load_free(&la);
	load_free(&lb);
}

/* A mixed load's split: mix % of the calls read. */
static void test_mix_split(void **state)
{
	(void)state;
	struct load_spec s;
	memset(&s, 0, sizeof(s));
	uint64_t rng = 99, reads = 0;
	s.mix_read = 70;
	for (unsigned i = 0; i < 100000; i++)
		reads += (uint64_t)loaddist_reads(&s, &rng);
	assert_true(reads > 69000 && reads < 71000);
	s.mix_read = 0;
	assert_int_equal(loaddist_reads(&s, &rng), 0);
	s.mix_read = 100;
	assert_int_equal(loaddist_reads(&s, &rng), 1);
}

/* rw=read:-8k: 4k calls walk backwards, wrapping to the region's end. */
static void test_seq_skip(void **state)
{
	(void)state;
	struct load_spec s;
	memset(&s, 0, sizeof(s));
	s.size = 64 * 1024;
	s.skip = -8192;
	assert_int_equal(loaddist_seq_next(&s, 8192, 4096, 4096), 4096);
	assert_int_equal(loaddist_seq_next(&s, 4096, 4096, 4096), 0);
	assert_int_equal(loaddist_seq_next(&s, 0, 4096, 4096), 60 * 1024);
	s.skip = 4096;
	assert_int_equal(loaddist_seq_next(&s, 0, 4096, 4096), 8192);
	assert_int_equal(loaddist_seq_next(&s, 56 * 1024, 4096, 4096), 0);
}

/* A real rand-mixed load: it reads and writes its laid-out file, and
 * reports how much it read. */
static void test_mixed_run(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256];
	assert_int_equal(load_spec_parse("rand-mixed:mix=50,size=2m,total=4m,bs=4k,"
					 "dist=zipf:1.1", &s, err, sizeof(err)), 0);
	struct load l;
	assert_int_equal(load_prepare(&l, &s, 1, td.fd), 0);
	run_to_end(&l, 0, 0);
	assert_int_equal(l.end, LOAD_END_DONE);
	assert_int_equal(l.bytes, 4 * MiB);
	assert_true(l.bytes_read > 1 * MiB && l.bytes_read < 3 * MiB);
	double r, w;
	load_mibps_split(&l, &r, &w);
	assert_true(r > 0 && w > 0);
	assert_float_equal(r + w, load_mibps(&l), 1e-6 * load_mibps(&l));
	unlinkat(td.fd, l.name, 0);
	load_free(&l);
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_EMPTY);   /* fails if a test left a file behind */
}

/* dir=: stored, written back, read again the same; bad paths refused with why */
/* copy: its spec, and a real copy from one directory to another: the
 * source made where it reads, the copy where it writes, its reads and
 * writes counted apart, total counted in bytes copied. */
static void test_copy(void **state)
{
	(void)state;
	struct load_spec s;
	char err[256], buf[300];
	assert_int_equal(load_spec_parse("copy", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, LOAD_COPY);
	assert_int_equal(s.size, 1024 * MiB);
	assert_int_equal(s.bs_hi, MiB);
	assert_true(load_kind_writes(LOAD_COPY) && load_kind_splits(LOAD_COPY));
	assert_false(load_kind_mixed(LOAD_COPY));
	assert_int_equal(load_spec_parse("copy:size=2m,bs=256k,total=6m,dir=/mnt/stick", &s, err,
					 sizeof(err)), 0);
	load_spec_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "copy:count=1,bs=256k,size=2m,total=6m,dir=/mnt/stick");
	static const char *const bad[] = { "copy:engine=io_uring", "copy:skip=4k", "copy:flow=2",
					   "copy:mix=30", "copy:dist=zipf:1.2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(load_spec_parse(bad[i], &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr((load_spec_parse("copy:skip=4k", &s, err, sizeof(err)), err),
			       "does not apply to copy"));

	/* a real copy: source in td/src, copy in td/dst */
	assert_int_equal(mkdirat(td.fd, "src", 0700), 0);
	assert_int_equal(mkdirat(td.fd, "dst", 0700), 0);
	int sfd = openat(td.fd, "src", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int dfd = openat(td.fd, "dst", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(sfd >= 0 && dfd >= 0);
	assert_int_equal(load_spec_parse("copy:size=2m,bs=256k,total=5m", &s, err, sizeof(err)), 0);
	struct load l;
	assert_int_equal(load_prepare_from(&l, &s, 1, dfd, sfd), 0);
	struct stat st;
	assert_int_equal(fstatat(sfd, "load-copy-1.src", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(st.st_size, 2 * MiB);
	assert_int_equal(fstatat(dfd, "load-copy-1", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(fstatat(dfd, "load-copy-1.src", &st, 0), -1);   /* not where it writes */
	run_to_end(&l, 0, 0);
	assert_int_equal(l.end, LOAD_END_DONE);
	assert_int_equal(l.bytes_read, 5 * MiB);        /* two passes and a half */
	assert_int_equal(l.bytes, 10 * MiB);            /* read and written */
	double r, w;
	load_mibps_split(&l, &r, &w);
	assert_true(r > 0 && fabs(r - w) < 1e-9 * r);
	assert_int_equal(unlinkat(sfd, "load-copy-1.src", 0), 0);
	assert_int_equal(unlinkat(dfd, "load-copy-1", 0), 0);
	load_free(&l);
	close(sfd);
	close(dfd);
	assert_int_equal(unlinkat(td.fd, "src", AT_REMOVEDIR), 0);
	assert_int_equal(unlinkat(td.fd, "dst", AT_REMOVEDIR), 0);
}

static void test_dir_key(void **state)
{
	(void)state;
	struct load_spec s, t;
	char err[512], text[1024];
	assert_int_equal(load_spec_parse("seq-write:size=32m,dir=/mnt/b:x y,direct", &s, err,
					 sizeof(err)), 0);
	assert_string_equal(s.dir, "/mnt/b:x y");
	load_spec_format(&s, text, sizeof(text));
	assert_non_null(strstr(text, ",dir=/mnt/b:x y"));
	assert_int_equal(load_spec_parse(text, &t, err, sizeof(err)), 0);
	assert_memory_equal(&s, &t, sizeof(s));
	assert_int_equal(load_spec_check(&s, err, sizeof(err)), 0);
	assert_int_equal(load_spec_parse("seq-write", &s, err, sizeof(err)), 0);
	assert_string_equal(s.dir, "");
	load_spec_format(&s, text, sizeof(text));
	assert_null(strstr(text, "dir="));
	assert_int_equal(load_spec_parse("seq-write:dir=rel/x", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "absolute"));
	assert_int_equal(load_spec_parse("seq-write:dir=/a=b", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "','"));
	assert_int_equal(load_spec_parse("seq-write:dir=/a\tb", &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(load_spec_parse("seq-write:dir=/a\x01b", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "control"));
	char why[96];
	assert_int_equal(load_dir_check("/x,y", why, sizeof(why)), -EINVAL);
	char longp[300];
	memset(longp, 'a', sizeof(longp));
	longp[0] = '/';
	longp[299] = '\0';
	assert_int_equal(load_dir_check(longp, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "long"));
	assert_int_equal(load_dir_check("/x\xffy", why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "UTF-8"));
	assert_int_equal(load_dir_check("/x\xe2\x80\xaey", why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "U+202E"));
	assert_int_equal(load_dir_check("/m\xc3\xbcnchen/b", why, sizeof(why)), 0);
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
		cmocka_unit_test(test_spec_mixed),
		cmocka_unit_test(test_dist_shape),
		cmocka_unit_test(test_mix_split),
		cmocka_unit_test(test_poisson),
		cmocka_unit_test(test_flow),
		cmocka_unit_test(test_seq_skip),
		cmocka_unit_test(test_mixed_run),
		cmocka_unit_test(test_dir_key),
		cmocka_unit_test(test_copy),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
