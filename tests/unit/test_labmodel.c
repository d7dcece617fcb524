/* Unit tests of the lab disk timing model (src/labmodel.c). */
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
#include "labmodel.h"

#define GiB (1024ull * 1024 * 1024)
#define MS 1000000ull

static struct labmodel hdd(void)
{
	struct labmodel m = { .name = "hdd", .rotational = 1, .rpm = 7200,
		.seek_track_ms = 1, .seek_avg_ms = 8, .read_mb_s = 120,
		.write_mb_s = 120, .overhead_ms = 0.5, .scheduler = "mq-deadline" };
	return m;
}

static struct labmodel sd(void)
{
	struct labmodel m = { .name = "sd", .rpm = 0, .read_mb_s = 20,
		.write_mb_s = 8, .overhead_ms = 0.8, .random_write_ms = 330,
		.scheduler = "mq-deadline" };
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
	unlink(p);
	assert_int_equal(labmodel_load("/nonexistent/x.ini", ms, LABMODEL_MAX, &n, err,
				       sizeof err), -ENOENT);
}

/* ---- lab state files (src/lab.c): what lab down and brisk devices read ---- */

static char rtdir[64];

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
	char path[128];
	snprintf(path, sizeof path, "%s/lab/%s.state", rtdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
}

static int lab_setup(void **state)
{
	(void)state;
	char path[96];
	snprintf(rtdir, sizeof rtdir, "/tmp/test_lab.XXXXXX");
	if (!mkdtemp(rtdir))
		return -1;
	snprintf(path, sizeof path, "%s/lab", rtdir);
	setenv("BRISK_RUNTIME_DIR", rtdir, 1);
	return mkdir(path, 0755);
}

static int lab_teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", rtdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_lab_runtime_dir(void **state)
{
	(void)state;
	char buf[256], want[128];
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
		 "journal=session-77.journal\n",
		 (int)child, (int)getpid(), start_of(getpid()));
	put_state("lab7", body);
	snprintf(body, sizeof body, "name=lab3\nmodel=hdd-7200\ndir=/y/lab3\n"
		 "image=/y/lab3/disk.img\nfusedir=/y/lab3/fuse\nmnt=/y/lab3/mnt\n"
		 "fusefile=/y/lab3/fuse/disk.img\ncreator=%d:1\nserver=%d:5\nready=1\n",
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

	assert_int_equal(lab_describe_loop("/x/lab7/fuse/disk.img", model, sizeof model), 0);
	assert_string_equal(model, "sd-card");
	assert_int_equal(lab_describe_loop("/x/lab7/fuse/disk.img (deleted)", model,
					   sizeof model), 0);
	assert_int_equal(lab_describe_loop("/y/lab3/fuse/disk.img", model, sizeof model), 0);
	assert_string_equal(model, "hdd-7200");
	assert_int_equal(lab_describe_loop("/x/lab7/fuse/disk.im", model, sizeof model), -ENOENT);
	assert_int_equal(lab_describe_loop("/srv/disk.img", model, sizeof model), -ENOENT);
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
