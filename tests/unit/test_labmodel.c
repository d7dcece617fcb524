/* Unit tests of the lab disk timing model (src/lab/labmodel.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "lab.h"
#include "labloop.h"
#include "labmodel.h"
#include "testdir.h"

#define GiB (1024ull * 1024 * 1024)
#define MS 1000000ull

static struct labmodel hdd(void)
{
	struct labmodel m = { .name = "hdd", .rotational = 1, .rpm = 7200,
		.seek_track_ms = 1, .seek_avg_ms = 8, .read_mb_s = 120,
		.write_mb_s = 120, .overhead_ms = 0.5, .scheduler = "mq-deadline",
		.queue_depth = 31, .queue_age_ms = 500 };
	return m;
}

static struct labmodel sd(void)
{
	struct labmodel m = { .name = "sd", .rpm = 0, .read_mb_s = 20,
		.write_mb_s = 8, .overhead_ms = 0.8, .random_write_ms = 330,
		.scheduler = "mq-deadline", .queue_depth = 1, .queue_age_ms = 500 };
	return m;
}

static void test_seek_curve(void **state)
{
	(void)state;
	struct labmodel m = hdd();
	assert_int_equal(labmodel_seek_ns(&m, 0, GiB), 0);
	/* Smallest move: track-to-track. */
	assert_int_equal(labmodel_seek_ns(&m, 512, 1ull << 60), 1 * MS);
	/* Full stroke: track + (avg - track) * 15/8 = 1 + 13.125 ms. */
	assert_int_equal(labmodel_seek_ns(&m, GiB, GiB), 14125000);
	/* Square-root growth: a quarter of the stroke costs half the extra. */
	assert_int_equal(labmodel_seek_ns(&m, GiB / 4, GiB), 1 * MS + 13125000 / 2);
	/* Beyond the disk is clamped to the full stroke. */
	assert_int_equal(labmodel_seek_ns(&m, 2 * GiB, GiB), 14125000);
	struct labmodel f = sd();
	assert_int_equal(labmodel_seek_ns(&f, GiB, GiB), 0);
}

static void test_mean_seek_is_average(void **state)
{
	(void)state;
	struct labmodel m = hdd();
	uint64_t seed = 12345, sum = 0;
	const int n = 200000;
	for (int i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t a = (seed >> 11) % GiB;
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t b = (seed >> 11) % GiB;
		sum += labmodel_seek_ns(&m, a > b ? a - b : b - a, GiB);
	}
	double mean_ms = (double)sum / n / 1e6;
	assert_true(mean_ms > 7.9 && mean_ms < 8.1);
}

static void test_rotation_half_on_average(void **state)
{
	(void)state;
	struct labmodel m = hdd();
	struct labmodel_head h = { 0 };
	struct labmodel_cost c;
	uint64_t rot = labmodel_rotation_ns(&m), sum = 0, now = 0, seed = 7;
	assert_int_equal(rot, 8333333);
	const int n = 20000;
	for (int i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t off = ((seed >> 11) % (GiB / 4096)) * 4096;
		uint64_t t = labmodel_service_ns(&m, &h, GiB, 0, off, 4096, now, &c);
		assert_true(c.rotation < rot);
		assert_int_equal(t, c.overhead + c.seek + c.rotation + c.transfer);
		sum += c.rotation;
		now += t + (seed >> 40) % 100000; /* the host's own delay */
	}
	double mean = (double)sum / n;
	assert_true(mean > 0.47 * rot && mean < 0.53 * rot);
}

static void test_rotation_follows_the_platter(void **state)
{
	(void)state;
	struct labmodel m = hdd();
	struct labmodel_head h = { .pos = 0, .started = 1 };
	struct labmodel_cost c;
	uint64_t rot = labmodel_rotation_ns(&m);
	/* Bytes per rotation at 120 MB/s: 1e6 (one "track"). */
	/* Target at angle 0.5; request starts at time 0 with head at angle
	 * (overhead + seek) / rot. */
	uint64_t off = 500000 + 3 * 1000000ull;
	labmodel_service_ns(&m, &h, GiB, 0, off, 4096, 0, &c);
	double head = (double)(c.overhead + c.seek) / (double)rot;
	double want = (0.5 - head) * (double)rot;
	assert_true(fabs((double)c.rotation - want) < 1000);
}

static void test_contiguous_streams(void **state)
{
	(void)state;
	struct labmodel m = hdd();
	struct labmodel_head h = { 0 };
	struct labmodel_cost c;
	uint64_t first = labmodel_service_ns(&m, &h, GiB, 0, 4096, 1 << 20, 0, &c);
	assert_true(first > c.transfer);
	assert_int_equal(h.pos, 4096 + (1 << 20));
	uint64_t next = labmodel_service_ns(&m, &h, GiB, 0, 4096 + (1 << 20), 1 << 20, 99, &c);
	/* 1 MiB at 120 MB/s = 8.738 ms, nothing else. */
	assert_int_equal(next, 8738133);
	assert_int_equal(c.seek + c.rotation + c.overhead, 0);
	/* The host took 1 ms before the next contiguous request: the
	 * drive's read-ahead used it. */
	uint64_t done = h.done_ns;
	next = labmodel_service_ns(&m, &h, GiB, 0, 4096 + (2 << 20), 1 << 20, done + 1 * MS, &c);
	assert_int_equal(next, 8738133 - 1 * MS);
	/* A long pause: served from the cache, not below zero. */
	next = labmodel_service_ns(&m, &h, GiB, 0, 4096 + (3 << 20), 1 << 20, h.done_ns + 1000 * MS, &c);
	assert_int_equal(next, 0);
	double bps = labmodel_expect_seq_read_bps(&m);
	assert_true(bps == 120e6);
}

static void test_expect_random(void **state)
{
	(void)state;
	struct labmodel m = hdd();
	/* 0.5 + 8 + 8.333/2 + 4096/120e6 s. */
	uint64_t t = labmodel_expect_random_read_ns(&m, 4096);
	assert_true(t > 12690000 && t < 12710000);
	struct labmodel f = sd();
	t = labmodel_expect_random_read_ns(&f, 4096);
	assert_int_equal(t, 800000 + 204800);
}

static void test_flash_writes(void **state)
{
	(void)state;
	struct labmodel m = sd();
	struct labmodel_head h = { 0 };
	struct labmodel_cost c;
	/* Random 4 KiB writes: 330 + 0.8 + 0.512 ms each -> ~12 KiB/s. */
	uint64_t t = labmodel_service_ns(&m, &h, GiB, 1, 1 << 20, 4096, 0, &c);
	assert_int_equal(c.penalty, 330 * MS);
	assert_int_equal(c.seek + c.rotation, 0);
	double kib_s = 4.0 / ((double)t / 1e9);
	assert_true(kib_s > 11 && kib_s < 13);
	/* Continuing the write: transfer only. */
	t = labmodel_service_ns(&m, &h, GiB, 1, (1 << 20) + 4096, 4096, 0, &c);
	assert_int_equal(t, 512000);
	/* A read in between does not break the write stream, but costs the
	 * next write its command overhead. */
	labmodel_service_ns(&m, &h, GiB, 0, 0, 4096, 0, &c);
	assert_int_equal(c.penalty, 0);
	t = labmodel_service_ns(&m, &h, GiB, 1, (1 << 20) + 8192, 4096, 0, &c);
	assert_int_equal(c.penalty, 0);
	assert_int_equal(t, 800000 + 512000);
	/* Random reads are fast: > 1 MB/s at 4 KiB. */
	t = labmodel_service_ns(&m, &h, GiB, 0, 77 << 20, 4096, 0, &c);
	assert_true(4096.0 / ((double)t / 1e9) > 1e6);
}

/* The ssh-like action on hdd-7200 across a 2 MiB region: ~85 reads of
 * 4k-44k; the model alone must land inside the 2009 band. */
static void test_ssh_like_band(void **state)
{
	(void)state;
	struct labmodel m = hdd();
	uint64_t seed = 99, now = 0;
	for (int run = 0; run < 20; run++) {
		struct labmodel_head h = { .pos = 0, .started = 1 };
		uint64_t base = 300ull << 20, total = 0, done = 0;
		while (done < (2u << 20)) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t bs = 4096 * (1 + (seed >> 33) % 11);
			uint64_t off = base + ((seed >> 13) % (30u << 20)) / 4096 * 4096;
			uint64_t t = labmodel_service_ns(&m, &h, GiB, 0, off, bs, now, NULL);
			total += t;
			now += t + 50000;
			done += bs;
		}
		/* Readahead-free reads across 30 MiB; the band is 0.5-0.7 s. */
		assert_true(total > 450 * MS && total < 750 * MS);
	}
}


/* ---- the device queue: shortest positioning time first, aging ---- */

/* A disk whose seeks (up to 186 ms across it) dwarf its rotation (3 ms):
 * the order of a queue follows from the distances alone. */
static struct labmodel slow_seeker(void)
{
	struct labmodel m = { .name = "seeker", .rotational = 1, .rpm = 20000,
		.seek_track_ms = 1, .seek_avg_ms = 100, .read_mb_s = 100,
		.write_mb_s = 100, .overhead_ms = 0, .scheduler = "none",
		.queue_depth = 31, .queue_age_ms = 500 };
	return m;
}

static struct labmodel_req req_at(uint64_t off, uint64_t arrival)
{
	struct labmodel_req r = { .off = off, .len = 4096, .write = 0, .arrival_ns = arrival };
	return r;
}

/* Drain q[0..n-1] as the device would, starting at now with the head as
 * *h says; order[] gets the offsets in service order. */
static void drain(const struct labmodel *m, struct labmodel_head *h, uint64_t disk,
		  struct labmodel_req *q, int n, uint64_t now, uint64_t *order)
{
	for (int k = 0; n > 0; k++) {
		int i = labmodel_pick(m, h, disk, q, n, now, NULL);
		assert_true(i >= 0 && i < n);
		order[k] = q[i].off;
		now += labmodel_service_ns(m, h, disk, q[i].write, q[i].off, q[i].len, now, NULL);
		q[i] = q[--n];
	}
}

static void test_pick_shortest_positioning(void **state)
{
	(void)state;
	struct labmodel m = slow_seeker();
	struct labmodel_head h = { .pos = 0, .started = 1 };
	assert_int_equal(labmodel_pick(&m, &h, GiB, NULL, 0, 0, NULL), -1);
	/* Arrived far to near: served near to far (what an elevator would
	 * do too, from the head at 0). */
	struct labmodel_req q[3] = { req_at(GiB - 4096, 1), req_at(GiB / 4, 2),
				     req_at(GiB / 100, 3) };
	uint64_t order[3];
	drain(&m, &h, GiB, q, 3, 10, order);
	assert_int_equal(order[0], GiB / 100);
	assert_int_equal(order[1], GiB / 4);
	assert_int_equal(order[2], GiB - 4096);
	/* From the middle: the nearest first on either side, not a sweep:
	 * 0.45 (seek 42 ms), then 0.7 (94 ms from 0.45; 0.0 would be 125),
	 * then 0.0. */
	struct labmodel_head mid = { .pos = GiB / 2, .started = 1 };
	struct labmodel_req r[3] = { req_at(0, 1), req_at(GiB / 100 * 70, 2),
				     req_at(GiB / 100 * 45, 3) };
	drain(&m, &mid, GiB, r, 3, 10, order);
	assert_int_equal(order[0], GiB / 100 * 45);
	assert_int_equal(order[1], GiB / 100 * 70);
	assert_int_equal(order[2], 0);
	/* A request continuing where the head is costs no positioning at
	 * all: it goes first, whatever else waits. */
	struct labmodel_head at = { .pos = 8192, .started = 1, .done_ns = 5 };
	struct labmodel_req s[3] = { req_at(12288, 1), req_at(4096 * 3, 2), req_at(8192, 3) };
	assert_int_equal(labmodel_position_ns(&m, &at, GiB, 0, 8192, 5), 0);
	assert_int_equal(labmodel_pick(&m, &at, GiB, s, 3, 5, NULL), 2);
	/* Equal positioning time: the older one. */
	struct labmodel_req t[2] = { req_at(8192, 7), req_at(8192, 6) };
	assert_int_equal(labmodel_pick(&m, &at, GiB, t, 2, 10, NULL), 1);
}

/* Same seek, different angle: the one coming under the head sooner. */
static void test_pick_counts_rotation(void **state)
{
	(void)state;
	struct labmodel m = hdd();
	uint64_t rot = labmodel_rotation_ns(&m);
	double track = m.read_mb_s * 1e6 * (double)rot / 1e9;
	uint64_t pos = (uint64_t)(100 * track);
	struct labmodel_head h = { .pos = pos, .started = 1 };
	uint64_t d = (uint64_t)(0.3 * track);
	int picked_a = 0, picked_b = 0;
	for (uint64_t now = 0; now < rot; now += rot / 16) {
		struct labmodel_req q[2] = { req_at(pos + d, 1), req_at(pos - d, 2) };
		/* Both seek the same distance; by hand, the rotational waits. */
		uint64_t seek = labmodel_seek_ns(&m, d, GiB);
		uint64_t arrive = now + (uint64_t)(m.overhead_ms * 1e6 + 0.5) + seek;
		double head = (double)(arrive % rot) / (double)rot, wait[2];
		for (int i = 0; i < 2; i++) {
			double target = fmod((double)q[i].off, track) / track;
			wait[i] = target - head < 0 ? target - head + 1 : target - head;
		}
		int want = wait[0] <= wait[1] ? 0 : 1;
		int got = labmodel_pick(&m, &h, GiB, q, 2, now, NULL);
		assert_int_equal(got, want);
		picked_a += got == 0;
		picked_b += got == 1;
	}
	/* The platter turns: each wins at some moments. */
	assert_true(picked_a > 0 && picked_b > 0);
}

static void test_pick_aging_bound(void **state)
{
	(void)state;
	struct labmodel m = slow_seeker();
	struct labmodel_head h = { .pos = 0, .started = 1 };
	int aged = -1;
	/* The far request came first; the near one is cheaper. */
	struct labmodel_req q[3] = { req_at(GiB - 4096, 0), req_at(4096, 10 * MS),
				     req_at(8192, 20 * MS) };
	assert_int_equal(labmodel_pick(&m, &h, GiB, q, 3, 499 * MS, &aged), 1);
	assert_int_equal(aged, 0);
	/* At 500 ms queued it is served next, flagged as aged. */
	assert_int_equal(labmodel_pick(&m, &h, GiB, q, 3, 500 * MS, &aged), 0);
	assert_int_equal(aged, 1);
	/* Several aged: the oldest of them. */
	q[0].arrival_ns = 30 * MS;
	assert_int_equal(labmodel_pick(&m, &h, GiB, q, 3, 600 * MS, &aged), 1);
	assert_int_equal(aged, 1);

	/* A queue kept full of requests near the head (a writer's, every
	 * other block: track seeks and rotation, a few ms each) and one far
	 * away: without the bound it would wait
	 * forever; with it, no longer than the bound plus one service. */
	for (int bounded = 0; bounded < 2; bounded++) {
		struct labmodel_req w[31];
		struct labmodel_head hh = { .pos = 0, .started = 1 };
		uint64_t now = 0, served_at = 0, next = 4096, max_svc = 0;
		m.queue_age_ms = bounded ? 500 : 60000;
		w[0] = req_at(GiB - 4096, 0);
		for (int i = 1; i < 31; i++, next += 8192)
			w[i] = req_at(next, 0);
		for (int k = 0; k < 5000 && !served_at; k++) {
			int i = labmodel_pick(&m, &hh, GiB, w, 31, now, NULL);
			uint64_t svc = labmodel_service_ns(&m, &hh, GiB, 0, w[i].off, w[i].len,
							   now, NULL);
			if (w[i].off == GiB - 4096)
				served_at = now;
			if (svc > max_svc)
				max_svc = svc;
			now += svc;
			w[i] = req_at(next, now); /* the stream goes on */
			next += 8192;
		}
		if (bounded) {
			assert_true(served_at >= 500 * MS);
			assert_true(served_at <= 500 * MS + max_svc);
		} else {
			assert_int_equal(served_at, 0); /* starved: 5000 services, */
			assert_true(now > 2000 * MS);   /* seconds of them */
		}
	}
}

/* Depth 1 (no command queue): arrival order, however far. */
static void test_pick_fifo_without_queue(void **state)
{
	(void)state;
	struct labmodel m = slow_seeker();
	m.queue_depth = 1;
	struct labmodel_head h = { .pos = 0, .started = 1 };
	struct labmodel_req q[3] = { req_at(GiB / 100, 3), req_at(GiB - 4096, 1),
				     req_at(GiB / 4, 2) };
	uint64_t order[3];
	drain(&m, &h, GiB, q, 3, 10, order);
	assert_int_equal(order[0], GiB - 4096);
	assert_int_equal(order[1], GiB / 4);
	assert_int_equal(order[2], GiB / 100);
	struct labmodel f = sd();
	struct labmodel_req r[2] = { req_at(0, 5), req_at(4096, 4) };
	assert_int_equal(labmodel_pick(&f, &h, GiB, r, 2, 10, NULL), 1);
}

/* debugfs's block/loopN/hctx0/tags as this kernel writes it. */
static void test_parse_tags(void **state)
{
	(void)state;
	const char *text = "nr_tags=128\nnr_reserved_tags=0\nactive_queues=0\n\n"
		"bitmap_tags:\ndepth=31\nbusy=0\ncleared=0\nbits_per_word=32\n"
		"map_nr=1\n";
	assert_int_equal(labloop_parse_tags(text), 31);
	assert_int_equal(labloop_parse_tags("nr_tags=128\n\nbitmap_tags:\ndepth=128"), 128);
	/* nr_tags is not the depth; nothing else is taken for it. */
	assert_int_equal(labloop_parse_tags("nr_tags=128\ndepth=31\n"), -EINVAL);
	assert_int_equal(labloop_parse_tags("x\nbitmap_tags:\ndepth=3a\n"), -EINVAL);
	assert_int_equal(labloop_parse_tags("x\nbitmap_tags:\ndepth=0\n"), -EINVAL);
	assert_int_equal(labloop_parse_tags("x\nbitmap_tags:\ndepth=\n"), -EINVAL);
	assert_int_equal(labloop_parse_tags("x\nbitmap_tags:\ndepth=99999999\n"), -EINVAL);
	assert_int_equal(labloop_parse_tags(""), -EINVAL);
}

static void test_validate(void **state)
{
	(void)state;
	char err[200];
	struct labmodel m = hdd();
	assert_int_equal(labmodel_validate(&m, err, sizeof err), 0);
	m.seek_avg_ms = 0.5;
	assert_int_equal(labmodel_validate(&m, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "seek_avg_ms"));
	m = hdd();
	m.rpm = 50;
	assert_int_equal(labmodel_validate(&m, err, sizeof err), -EINVAL);
	m = hdd();
	snprintf(m.scheduler, sizeof m.scheduler, "bad;rm");
	assert_int_equal(labmodel_validate(&m, err, sizeof err), -EINVAL);
	m = hdd();
	m.queue_depth = 0;
	assert_int_equal(labmodel_validate(&m, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "queue_depth"));
	m.queue_depth = 129;
	assert_int_equal(labmodel_validate(&m, err, sizeof err), -EINVAL);
	m = hdd();
	m.queue_age_ms = 0;
	assert_int_equal(labmodel_validate(&m, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "queue_age_ms"));
}

static char *write_tmp(const char *text)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/test_labmodel.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_load_shipped(void **state)
{
	(void)state;
	struct labmodel ms[LABMODEL_MAX];
	char err[300];
	int n;
	int rc = labmodel_load("profiles/lab-models.ini", ms, LABMODEL_MAX, &n, err, sizeof err);
	if (rc == -ENOENT)
		skip();
	assert_int_equal(rc, 0);
	const char *want[] = { "hdd-7200", "hdd-5400", "sd-card", "usb2-stick" };
	for (size_t i = 0; i < 4; i++)
		assert_non_null(labmodel_find(ms, n, want[i]));
	const struct labmodel *h = labmodel_find(ms, n, "hdd-7200");
	assert_true(h->rpm == 7200 && h->seek_avg_ms == 8 && h->read_mb_s == 120);
	assert_true(h->ssh_lo_s == 0.5 && h->ssh_hi_s == 0.7);
	/* Queue depths: SATA NCQ for the disks, none for the flash. */
	assert_int_equal(h->queue_depth, 31);
	assert_int_equal(labmodel_find(ms, n, "hdd-5400")->queue_depth, 31);
	assert_int_equal(labmodel_find(ms, n, "usb2-stick")->queue_depth, 1);
	assert_int_equal(labmodel_find(ms, n, "sd-card")->queue_depth, 1);
	/* The classes their results stand for in brisk report. */
	assert_string_equal(h->disk_class, "rotational");
	assert_string_equal(labmodel_find(ms, n, "sd-card")->disk_class, "mmc");
	assert_string_equal(labmodel_find(ms, n, "usb2-stick")->disk_class, "usb");
	assert_null(labmodel_find(ms, n, "floppy"));
}

static void test_load_errors(void **state)
{
	(void)state;
	struct labmodel ms[LABMODEL_MAX];
	char err[300];
	int n;
	char *p = write_tmp("[a]\nrotational = 1\nrpm = 7200\nseek_track_ms = 1\n"
			    "seek_avg_ms = 8\nread_mb_s = fast\n");
	assert_int_equal(labmodel_load(p, ms, LABMODEL_MAX, &n, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, ":6: [a]: bad value 'fast' for read_mb_s"));
	unlink(p);
	p = write_tmp("[a]\nrotational = 0\nrpm = 0\nread_mb_s = 1\nwrite_mb_s = 1\n"
		      "overhead_ms = 1\ncolour = red\n");
	assert_int_equal(labmodel_load(p, ms, LABMODEL_MAX, &n, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, ":7: [a]: unknown key 'colour'"));
	unlink(p);
	p = write_tmp("[a]\nrotational = 1\nrpm = 7200\nread_mb_s = 1\nwrite_mb_s = 1\n"
		      "overhead_ms = 1\n");
	assert_int_equal(labmodel_load(p, ms, LABMODEL_MAX, &n, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "lacks"));
	unlink(p);
	p = write_tmp("[a]\nrotational = 0\nrpm = 0\nread_mb_s = 1\nwrite_mb_s = 1\n"
		      "overhead_ms = 1\nssh_like_s = 0.2-0.3\n[b]\nrotational = 0\nrpm = 0\n"
		      "read_mb_s = 2\nwrite_mb_s = 1\noverhead_ms = 1\n");
	assert_int_equal(labmodel_load(p, ms, LABMODEL_MAX, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(ms[1].name, "b");
	assert_string_equal(ms[1].scheduler, "mq-deadline");
	assert_true(ms[0].ssh_hi_s == 0.3);
	/* Without queue keys: no command queue, the default aging bound. */
	assert_int_equal(ms[1].queue_depth, 1);
	assert_true(ms[1].queue_age_ms == LABMODEL_AGE_MS_DEFAULT);
	/* Without class: ssd from rotational 0. */
	assert_string_equal(ms[1].disk_class, "ssd");
	unlink(p);
	p = write_tmp("[a]\nrotational = 1\nrpm = 0\nread_mb_s = 1\nwrite_mb_s = 1\n"
		      "overhead_ms = 1\n[b]\nrotational = 0\nrpm = 0\nread_mb_s = 1\n"
		      "write_mb_s = 1\noverhead_ms = 1\nclass = nvme\n");
	assert_int_equal(labmodel_load(p, ms, LABMODEL_MAX, &n, err, sizeof err), 0);
	assert_string_equal(ms[0].disk_class, "rotational");
	assert_string_equal(ms[1].disk_class, "nvme");
	unlink(p);
	p = write_tmp("[a]\nrotational = 0\nrpm = 0\nread_mb_s = 1\nwrite_mb_s = 1\n"
		      "overhead_ms = 1\nclass = floppy\n");
	assert_int_equal(labmodel_load(p, ms, LABMODEL_MAX, &n, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, ":7: [a]: bad value 'floppy' for class"));
	unlink(p);
	p = write_tmp("[a]\nrotational = 0\nrpm = 0\nread_mb_s = 1\nwrite_mb_s = 1\n"
		      "overhead_ms = 1\nqueue_depth = 31\nqueue_age_ms = 250\n");
	assert_int_equal(labmodel_load(p, ms, LABMODEL_MAX, &n, err, sizeof err), 0);
	assert_int_equal(ms[0].queue_depth, 31);
	assert_true(ms[0].queue_age_ms == 250);
	unlink(p);
	p = write_tmp("[a]\nrotational = 0\nrpm = 0\nread_mb_s = 1\nwrite_mb_s = 1\n"
		      "overhead_ms = 1\nqueue_depth = 0\n");
	assert_int_equal(labmodel_load(p, ms, LABMODEL_MAX, &n, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, ":7: [a]: bad value '0' for queue_depth"));
	unlink(p);
	p = write_tmp("[a]\nrotational = 0\nrpm = 0\nread_mb_s = 1\nwrite_mb_s = 1\n"
		      "overhead_ms = 1\nqueue_depth = 8x\n");
	assert_int_equal(labmodel_load(p, ms, LABMODEL_MAX, &n, err, sizeof err), -EINVAL);
	unlink(p);
	assert_int_equal(labmodel_load("/nonexistent/x.ini", ms, LABMODEL_MAX, &n, err,
				       sizeof err), -ENOENT);
}

/* ---- lab state files (src/lab/lab.c): what lab down and brisk devices read ---- */

static struct testdir td;
static const char *const rtdir = td.abs;

static unsigned long long start_of(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')') + 2;
	for (int i = 3; i < 22; i++)
		p = strchr(p, ' ') + 1;
	return strtoull(p, NULL, 10);
}

static void put_state(const char *name, const char *body)
{
	char path[320];
	snprintf(path, sizeof path, "%s/lab/%s.state", rtdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
}

static int lab_setup(void **state)
{
	(void)state;
	char path[300];
	if (testdir_make(&td, "lab") < 0)
		return -1;
	snprintf(path, sizeof path, "%s/lab", rtdir);
	setenv("BRISK_RUNTIME_DIR", rtdir, 1);
	return mkdir(path, 0755);
}

static int lab_teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_TREE);
}

static void test_lab_runtime_dir(void **state)
{
	(void)state;
	char buf[256], want[300];
	lab_runtime_dir(buf, sizeof buf);
	snprintf(want, sizeof want, "%s/lab", rtdir);
	assert_string_equal(buf, want);
	assert_true(lab_name_valid("lab0"));
	assert_true(lab_name_valid("my_lab-2"));
	assert_false(lab_name_valid(""));
	assert_false(lab_name_valid("-x"));
	assert_false(lab_name_valid("a/b"));
	assert_false(lab_name_valid(".."));
	assert_false(lab_name_valid("0123456789012345678901234567890123"));
}

static void test_lab_state_and_describe(void **state)
{
	(void)state;
	char body[1024], model[32];
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0); /* a pid that is surely gone */
	snprintf(body, sizeof body,
		 "name=lab7\nmodel=sd-card\nsize=268435456\ndir=/x/lab7\nimage=/x/lab7/disk.img\n"
		 "fusedir=/x/lab7/fuse\nfusefile=/x/lab7/fuse/disk.img\nmnt=/x/lab7/mnt\n"
		 "loop=/dev/loop9\n"
		 "creator=%d:1\nserver=%d:%llu\ndio=1\nready=1\nscheduler=bfq\n"
		 "rotational=0\ndirty_limit=1048576\norig_scheduler=none\n"
		 "orig_rotational=0\norig_strict_limit=0\norig_max_ratio_fine=1000000\n"
		 "journal=session-77.journal\nclass=mmc\n",
		 (int)child, (int)getpid(), start_of(getpid()));
	put_state("lab7", body);
	snprintf(body, sizeof body, "name=lab3\nmodel=hdd-7200\ndir=/y/lab3\n"
		 "image=/y/lab3/disk.img\nfusedir=/y/lab3/fuse\nmnt=/y/lab3/mnt\n"
		 "fusefile=/y/lab3/fuse/disk.img\ncreator=%d:1\nserver=%d:5\nready=1\n"
		 "class=floppy\n",
		 (int)child, (int)child);
	put_state("lab3", body);
	put_state("wrong", "name=other\n");
	/* Paths not of the shape lab up makes: never acted upon. */
	put_state("evil", "name=evil\ndir=/y/evil\nimage=/etc/passwd\nfusedir=/y/evil/fuse\n"
		  "mnt=/y/evil/mnt\nfusefile=/y/evil/fuse/disk.img\n");
	put_state("evil2", "name=evil2\ndir=/y/evil2\nimage=/y/evil2/disk.img\n"
		  "fusedir=/y/evil2/fuse\nmnt=/y/evil2/mnt\nfusefile=/y/evil2/fuse/disk.img\n"
		  "loop=/dev/sda\n");

	struct lab_state ls[8];
	int n;
	assert_int_equal(lab_list(ls, 8, &n), 0);
	assert_int_equal(n, 2); /* "wrong" and the "evil"s: ignored */
	assert_int_equal(lab_load("evil", &ls[2]), -EINVAL);
	assert_int_equal(lab_load("evil2", &ls[2]), -EINVAL);
	assert_string_equal(ls[0].name, "lab3");
	assert_string_equal(ls[1].name, "lab7");
	const struct lab_state *s = &ls[1];
	assert_int_equal(s->size, 268435456);
	assert_string_equal(s->loop, "/dev/loop9");
	assert_string_equal(s->mnt, "/x/lab7/mnt");
	assert_int_equal(s->server, getpid());
	assert_int_equal(s->dirty_limit, 1048576);
	assert_string_equal(s->orig_scheduler, "none");
	assert_int_equal(s->orig_max_ratio_fine, 1000000);
	assert_int_equal(ls[0].orig_strict_limit, -1); /* not recorded */
	assert_string_equal(s->journal, "session-77.journal");
	assert_string_equal(ls[0].journal, "");        /* none */

	/* Our own process as the server: alive; lab3's server is gone. */
	assert_false(lab_is_stale(&ls[1]));
	assert_true(lab_is_stale(&ls[0]));
	/* Same pid, another start time: a reused pid is not our server. */
	ls[1].server_start++;
	assert_true(lab_is_stale(&ls[1]));
	/* Not ready: stale only when its maker is gone. */
	ls[1].ready = 0;
	ls[1].creator = getpid();
	ls[1].creator_start = start_of(getpid());
	assert_false(lab_is_stale(&ls[1]));

	char cls[LABMODEL_CLASS_MAX];
	assert_int_equal(lab_describe_loop("/x/lab7/fuse/disk.img", model, sizeof model, cls,
					   sizeof cls), 0);
	assert_string_equal(model, "sd-card");
	assert_string_equal(cls, "mmc");
	assert_int_equal(lab_describe_loop("/x/lab7/fuse/disk.img (deleted)", model,
					   sizeof model, NULL, 0), 0);
	/* a class that is not one is not kept: unknown */
	assert_int_equal(lab_describe_loop("/y/lab3/fuse/disk.img", model, sizeof model, cls,
					   sizeof cls), 0);
	assert_string_equal(model, "hdd-7200");
	assert_string_equal(cls, "");
	assert_int_equal(lab_describe_loop("/x/lab7/fuse/disk.im", model, sizeof model, NULL, 0),
			 -ENOENT);
	assert_int_equal(lab_describe_loop("/srv/disk.img", model, sizeof model, NULL, 0),
			 -ENOENT);
	assert_int_equal(lab_load("nosuch", &ls[0]), -ENOENT);
	assert_int_equal(lab_load("../etc", &ls[0]), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seek_curve),
		cmocka_unit_test(test_mean_seek_is_average),
		cmocka_unit_test(test_rotation_half_on_average),
		cmocka_unit_test(test_rotation_follows_the_platter),
		cmocka_unit_test(test_contiguous_streams),
		cmocka_unit_test(test_expect_random),
		cmocka_unit_test(test_flash_writes),
		cmocka_unit_test(test_ssh_like_band),
		cmocka_unit_test(test_pick_shortest_positioning),
		cmocka_unit_test(test_pick_counts_rotation),
		cmocka_unit_test(test_pick_aging_bound),
		cmocka_unit_test(test_pick_fifo_without_queue),
		cmocka_unit_test(test_parse_tags),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_load_shipped),
		cmocka_unit_test(test_load_errors),
	};
	const struct CMUnitTest lab_tests[] = {
		cmocka_unit_test(test_lab_runtime_dir),
		cmocka_unit_test(test_lab_state_and_describe),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	return failed + cmocka_run_group_tests(lab_tests, lab_setup, lab_teardown);
}
