/* Unit tests: tunable key parsing and validation (the journal's tests are
 * in test_journal.c).  Nothing here writes to /sys or /proc. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "devlock.h"
#include "journal.h"
#include "profile.h"
#include "rundir.h"
#include "sysfs.h"
#include "tunable.h"
#include "tunable_bdi.h"

static void test_parse_key_whitelist(void **state)
{
	(void)state;
	struct tunable_key k;
	char why[TUNABLE_WHY_LEN];
	assert_int_equal(tunable_parse_key("scheduler", &k, why, sizeof(why)), 0);
	assert_int_equal(k.kind, TUNABLE_SCHEDULER);
	const char *queue[] = { "nr_requests", "read_ahead_kb", "wbt_lat_usec",
				"max_sectors_kb", "rq_affinity", "nomerges" };
	for (size_t i = 0; i < sizeof(queue) / sizeof(queue[0]); i++) {
		assert_int_equal(tunable_parse_key(queue[i], &k, why, sizeof(why)), 0);
		assert_int_equal(k.kind, TUNABLE_QUEUE);
		assert_string_equal(k.name, queue[i]);
		assert_string_equal(k.attr, queue[i]);
	}
	assert_int_equal(tunable_parse_key("slice_idle", &k, why, sizeof(why)), 0);
	assert_int_equal(k.kind, TUNABLE_IOSCHED);
	assert_string_equal(k.name, "iosched/slice_idle");
	assert_string_equal(k.attr, "slice_idle");
	assert_int_equal(tunable_parse_key("iosched/read_expire", &k, why, sizeof(why)), 0);
	assert_int_equal(k.kind, TUNABLE_IOSCHED);
	assert_string_equal(k.name, "iosched/read_expire");
	assert_int_equal(tunable_parse_key("queue_depth", &k, why, sizeof(why)), 0);
	assert_int_equal(k.kind, TUNABLE_DEVICE);
	assert_int_equal(tunable_parse_key("vm.dirty_ratio", &k, why, sizeof(why)), 0);
	assert_int_equal(k.kind, TUNABLE_SYSCTL);
	assert_string_equal(k.attr, "dirty_ratio");
	assert_int_equal(tunable_parse_key("vm.dirty_writeback_centisecs", &k, why, sizeof(why)), 0);
}

static void test_parse_key_refuses_paths(void **state)
{
	(void)state;
	struct tunable_key k;
	char why[TUNABLE_WHY_LEN];
	const char *bad[] = {
		"", "../scheduler", "/etc/passwd", "iosched/../scheduler",
		"iosched/", "queue/scheduler", "iosched/a/b", "slice idle",
		"Scheduler", "vm.swappiness", "vm.../dirty_ratio", "vm.dirty_ratio/",
		"..", ".", "read_ahead_kb\n", "dev/../../etc",
		"a_name_that_is_far_too_long_for_any_iosched_tunable_x",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(tunable_parse_key(bad[i], &k, why, sizeof(why)), -EINVAL);
		assert_true(why[0] != '\0');
	}
	tunable_parse_key("vm.swappiness", &k, why, sizeof(why));
	assert_non_null(strstr(why, "unknown sysctl"));
	tunable_parse_key("../x", &k, why, sizeof(why));
	assert_non_null(strstr(why, "never a path"));
}

static void test_devname(void **state)
{
	(void)state;
	assert_true(tunable_valid_devname("sda"));
	assert_true(tunable_valid_devname("dm-0"));
	assert_true(tunable_valid_devname("nvme0n1"));
	assert_true(tunable_valid_devname("loop3"));
	assert_false(tunable_valid_devname(""));
	assert_false(tunable_valid_devname(".."));
	assert_false(tunable_valid_devname("."));
	assert_false(tunable_valid_devname("../sda"));
	assert_false(tunable_valid_devname("sda/queue"));
	assert_false(tunable_valid_devname("/dev/sda"));
	assert_false(tunable_valid_devname("sd a"));
	assert_false(tunable_valid_devname(NULL));
}

static void test_paths(void **state)
{
	(void)state;
	struct tunable_key k;
	char p[512];
	tunable_parse_key("scheduler", &k, NULL, 0);
	assert_int_equal(tunable_path("sda", &k, p, sizeof(p)), 0);
	assert_string_equal(p, "/sys/block/sda/queue/scheduler");
	tunable_parse_key("slice_idle", &k, NULL, 0);
	assert_int_equal(tunable_path("sdb", &k, p, sizeof(p)), 0);
	assert_string_equal(p, "/sys/block/sdb/queue/iosched/slice_idle");
	tunable_parse_key("queue_depth", &k, NULL, 0);
	assert_int_equal(tunable_path("sdc", &k, p, sizeof(p)), 0);
	assert_string_equal(p, "/sys/block/sdc/device/queue_depth");
	tunable_parse_key("vm.dirty_bytes", &k, NULL, 0);
	assert_int_equal(tunable_path(NULL, &k, p, sizeof(p)), 0);
	assert_string_equal(p, "/proc/sys/vm/dirty_bytes");
	tunable_parse_key("nr_requests", &k, NULL, 0);
	assert_int_equal(tunable_path("../../etc", &k, p, sizeof(p)), -EINVAL);
	assert_int_equal(tunable_path("sda", &k, p, 10), -ENAMETOOLONG);
}

static int check(const char *key, const char *sched, const char *value, char *canon)
{
	struct tunable_key k;
	char why[TUNABLE_WHY_LEN], c[TUNABLE_VALUE_LEN];
	assert_int_equal(tunable_parse_key(key, &k, why, sizeof(why)), 0);
	int rc = tunable_check_value(&k, sched, value, c, sizeof(c), why, sizeof(why));
	if (rc == 0 && canon)
		strcpy(canon, c);
	if (rc < 0)
		assert_non_null(strstr(why, rc == -ERANGE ? "out of range" :
					     k.kind == TUNABLE_SCHEDULER ? "scheduler" : "integer"));
	return rc;
}

static void test_value_ranges(void **state)
{
	(void)state;
	char c[TUNABLE_VALUE_LEN];
	assert_int_equal(check("nr_requests", NULL, "4", c), 0);
	assert_int_equal(check("nr_requests", NULL, "3", c), -ERANGE);
	assert_int_equal(check("nr_requests", NULL, "2049", c), -ERANGE);
	assert_int_equal(check("read_ahead_kb", NULL, "+128", c), 0);
	assert_string_equal(c, "128");
	assert_int_equal(check("read_ahead_kb", NULL, "-1", c), -ERANGE);
	assert_int_equal(check("read_ahead_kb", NULL, "4294967296", c), -ERANGE);
	assert_int_equal(check("wbt_lat_usec", NULL, "-1", c), 0);
	assert_int_equal(check("wbt_lat_usec", NULL, "-2", c), -ERANGE);
	assert_int_equal(check("rq_affinity", NULL, "2", c), 0);
	assert_int_equal(check("rq_affinity", NULL, "3", c), -ERANGE);
	assert_int_equal(check("nomerges", NULL, "-1", c), -ERANGE);
	assert_int_equal(check("queue_depth", NULL, "0", c), -ERANGE);
	assert_int_equal(check("vm.dirty_ratio", NULL, "100", c), 0);
	assert_int_equal(check("vm.dirty_ratio", NULL, "101", c), -ERANGE);
	assert_int_equal(check("vm.dirty_bytes", NULL, "4096", c), -ERANGE);
	assert_int_equal(check("vm.dirty_bytes", NULL, "0", c), -ERANGE);
	assert_int_equal(check("vm.dirty_background_bytes", NULL, "1", c), 0);
	assert_int_equal(check("vm.dirty_expire_centisecs", NULL, "-5", c), -ERANGE);
	/* iosched ranges follow the scheduler */
	assert_int_equal(check("read_expire", "mq-deadline", "-5", c), -ERANGE);
	assert_int_equal(check("writes_starved", "mq-deadline", "-5", c), 0);
	assert_int_equal(check("front_merges", "mq-deadline", "2", c), -ERANGE);
	assert_int_equal(check("low_latency", "bfq", "2", c), -ERANGE);
	assert_int_equal(check("low_latency", "bfq", "0", c), 0);
	assert_int_equal(check("back_seek_penalty", "bfq", "0", c), -ERANGE);
	assert_int_equal(check("read_lat_nsec", "kyber", "9000000000", c), 0);
	assert_string_equal(c, "9000000000");
	/* an unknown scheduler's tunable: a plain non-negative int */
	assert_int_equal(check("some_knob", "newsched", "7", c), 0);
	assert_int_equal(check("some_knob", "newsched", "-7", c), -ERANGE);
	/* not numbers */
	assert_int_equal(check("nr_requests", NULL, "12abc", c), -EINVAL);
	assert_int_equal(check("nr_requests", NULL, "", c), -EINVAL);
	assert_int_equal(check("nr_requests", NULL, " 5", c), -EINVAL);
	assert_int_equal(check("nr_requests", NULL, "0x10", c), -EINVAL);
	assert_int_equal(check("nr_requests", NULL, "\n5", c), -EINVAL);
	assert_int_equal(check("nr_requests", NULL, "5 ", c), -EINVAL);
	/* scheduler names */
	assert_int_equal(check("scheduler", NULL, "bfq", c), 0);
	assert_int_equal(check("scheduler", NULL, "mq-deadline", c), 0);
	assert_int_equal(check("scheduler", NULL, "../bfq", c), -EINVAL);
	assert_int_equal(check("scheduler", NULL, "bfq kyber", c), -EINVAL);
	assert_int_equal(check("scheduler", NULL, "", c), -EINVAL);
}

static void test_active_scheduler(void **state)
{
	(void)state;
	char a[32];
	tunable_active_scheduler("none [mq-deadline] kyber bfq\n", a, sizeof(a));
	assert_string_equal(a, "mq-deadline");
	tunable_active_scheduler("[none] mq-deadline", a, sizeof(a));
	assert_string_equal(a, "none");
	tunable_active_scheduler("none\n", a, sizeof(a));   /* bio-based queue */
	assert_string_equal(a, "none");
	tunable_active_scheduler("none kyber", a, sizeof(a));
	assert_string_equal(a, "");
	tunable_active_scheduler("", a, sizeof(a));
	assert_string_equal(a, "");
}

static void test_sysctl_partner(void **state)
{
	(void)state;
	assert_string_equal(tunable_sysctl_partner("vm.dirty_ratio"), "vm.dirty_bytes");
	assert_string_equal(tunable_sysctl_partner("vm.dirty_bytes"), "vm.dirty_ratio");
	assert_string_equal(tunable_sysctl_partner("vm.dirty_background_bytes"),
			    "vm.dirty_background_ratio");
	assert_null(tunable_sysctl_partner("vm.dirty_expire_centisecs"));
	assert_null(tunable_sysctl_partner("scheduler"));
}

/* The one settings table: every entry parses back to itself, and a
 * profile and `brisk set` accept exactly the same values for it (the
 * ranges that used to drift: nr_requests, fifo_expire_async,
 * vm.dirty_bytes, read_ahead_kb). */
static void test_settings_table(void **state)
{
	(void)state;
	assert_true(tunable_n_defs > 30);
	for (size_t i = 0; i < tunable_n_defs; i++) {
		const struct tunable_def *d = &tunable_defs[i];
		struct tunable_key k;
		char why[TUNABLE_WHY_LEN], c[TUNABLE_VALUE_LEN], norm[64], err[256], v[32];
		assert_ptr_equal(tunable_def_find(d->key), d);
		assert_int_equal(tunable_parse_key(d->key, &k, why, sizeof(why)), 0);
		assert_int_equal(k.kind, d->kind);
		assert_non_null(d->help);
		assert_int_equal(d->kind == TUNABLE_IOSCHED, d->sched != NULL);
		if (d->type == TUNABLE_TYPE_SCHED)
			continue;
		assert_true(d->min <= d->max);
		const int64_t probe[] = { d->min, d->max, d->min - 1, d->max + (d->max < INT64_MAX) };
		for (size_t j = 0; j < 4; j++) {
			if ((j == 2 && d->min == INT64_MIN) || (j == 3 && d->max == INT64_MAX))
				continue;
			snprintf(v, sizeof(v), "%lld", (long long)probe[j]);
			int set = tunable_check_value(&k, d->sched, v, c, sizeof(c), why, sizeof(why));
			int prof = profile_setting_check(d->key, v, norm, sizeof(norm), err, sizeof(err));
			if (j < 2) {
				assert_int_equal(set, 0);
				assert_int_equal(prof, 0);
				assert_string_equal(c, norm);
			} else {
				assert_int_equal(set, -ERANGE);
				assert_int_not_equal(prof, 0);
			}
		}
	}
	assert_null(tunable_def_find("iosched/slice_idle"));
	assert_null(tunable_def_find("elevator"));
	/* the drifted ranges, decided by what the kernel accepts */
	char norm[64], err[256], c[TUNABLE_VALUE_LEN];
	assert_int_not_equal(profile_setting_check("nr_requests", "1", norm, sizeof(norm), err,
						   sizeof(err)), 0);
	assert_non_null(strstr(err, "from 4 to 2048"));
	assert_int_not_equal(profile_setting_check("fifo_expire_async", "0", norm, sizeof(norm),
						   err, sizeof(err)), 0);
	assert_int_not_equal(profile_setting_check("vm.dirty_bytes", "0", norm, sizeof(norm), err,
						   sizeof(err)), 0);
	assert_int_equal(profile_setting_check("read_ahead_kb", "4294967295", norm, sizeof(norm),
					       err, sizeof(err)), 0);
	assert_int_equal(profile_setting_check("writes_starved", "-1", norm, sizeof(norm), err,
					       sizeof(err)), 0);
	/* a size is a size for `brisk set` too */
	assert_int_equal(check("vm.dirty_bytes", NULL, "64m", c), 0);
	assert_string_equal(c, "67108864");
	assert_int_equal(check("vm.dirty_bytes", NULL, "4k", c), -ERANGE);
	assert_int_equal(check("vm.dirty_ratio", NULL, "64m", c), -EINVAL);
	assert_string_equal(tunable_kind_name(TUNABLE_SYSCTL), "vm");
}

/* The kernel's defaults (tunable.h's table of dflt kinds): the values the
 * kernel sources give, one entry each. */
static void test_defaults_table(void **state)
{
	(void)state;
	static const struct { const char *key; int64_t v; } want[] = {
		{ "low_latency", 1 }, { "slice_idle", 8 }, { "slice_idle_us", 8000 },
		{ "strict_guarantees", 0 }, { "back_seek_max", 16384 }, { "back_seek_penalty", 2 },
		{ "fifo_expire_async", 250 }, { "fifo_expire_sync", 125 }, { "max_budget", 0 },
		{ "timeout_sync", 125 }, { "read_expire", 500 }, { "write_expire", 5000 },
		{ "writes_starved", 2 }, { "front_merges", 1 }, { "fifo_batch", 16 },
		{ "prio_aging_expire", 10000 }, { "read_lat_nsec", 2000000 },
		{ "write_lat_nsec", 10000000 }, { "rq_affinity", 1 }, { "nomerges", 0 },
		{ "vm.dirty_ratio", 20 }, { "vm.dirty_background_ratio", 10 },
		{ "vm.dirty_bytes", 0 }, { "vm.dirty_background_bytes", 0 },
		{ "vm.dirty_expire_centisecs", 3000 }, { "vm.dirty_writeback_centisecs", 500 },
		{ "bdi.strict_limit", 0 }, { "bdi.max_ratio", 100 }, { "bdi.max_ratio_fine", 1000000 },
		{ "bdi.min_ratio", 0 }, { "bdi.min_ratio_fine", 0 }, { "bdi.min_bytes", 0 },
	};
	size_t known = 0;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct tunable_def *d = tunable_def_find(want[i].key);
		assert_non_null(d);
		assert_true(d->dflt == TUNABLE_DFLT_FIXED || d->dflt == TUNABLE_DFLT_HZ);
		if (d->dflt_value != want[i].v)
			fail_msg("%s: default %lld, the kernel's is %lld", d->key,
				 (long long)d->dflt_value, (long long)want[i].v);
	}
	for (size_t i = 0; i < tunable_n_defs; i++) {
		const struct tunable_def *d = &tunable_defs[i];
		/* a reason exactly for the hardware-bound ones */
		assert_int_equal(d->dflt == TUNABLE_DFLT_HW, d->bound != NULL);
		assert_ptr_equal(tunable_hw_bound(d->key), d->bound);
		if (d->dflt == TUNABLE_DFLT_FIXED || d->dflt == TUNABLE_DFLT_HZ) {
			known++;
			/* a default the kernel also accepts when written (the
			 * *_bytes keys' 0 means off and cannot be written) */
			if (d->type != TUNABLE_TYPE_BYTES)
				assert_true(d->dflt_value >= d->min && d->dflt_value <= d->max);
		}
	}
	assert_int_equal(known, sizeof(want) / sizeof(want[0]));
	assert_int_equal(tunable_def_find("scheduler")->dflt, TUNABLE_DFLT_CHOICE);
	static const char *const hw[] = { "nr_requests", "max_sectors_kb", "queue_depth",
					  "async_depth" };
	size_t nhw = 0;
	for (size_t i = 0; i < tunable_n_defs; i++)
		nhw += tunable_defs[i].dflt == TUNABLE_DFLT_HW;
	assert_int_equal(nhw, 4);
	for (size_t i = 0; i < 4; i++)
		assert_non_null(tunable_hw_bound(hw[i]));
	assert_non_null(strstr(tunable_hw_bound("max_sectors_kb"), "max_hw_sectors_kb"));
	assert_null(tunable_hw_bound("read_ahead_kb"));
	assert_null(tunable_hw_bound("wbt_lat_usec"));
	assert_null(tunable_hw_bound("scheduler"));
	assert_null(tunable_hw_bound("no_such_key"));
}

static enum tunable_verdict verdict(const char *key, const struct tunable_facts *f,
				    const char *value)
{
	const struct tunable_def *d = tunable_def_find(key);
	if (!d)
		fail_msg("no key %s", key);
	return tunable_default_verdict(d, f, value);
}

/* Is a value the kernel's default: every kind, the device-dependent ones
 * on the disks this was written on (vda: virtio, rotational, io_opt 0,
 * max_sectors_kb 4096, read_ahead_kb 8192; a loop device). */
/* What a capture keeps: a value off its default on any disk, the
 * scheduler, a sysctl by its own default; hardware-bound values left out
 * and said so. */
static void test_capture_keeps(void **state)
{
	(void)state;
	struct tunable_facts rot = { .sched = "mq-deadline", .rotational = 1, .max_sectors_kb = 4096 };
	struct tunable_facts two[2] = { rot, rot };
	two[1].rotational = 0;
	int hw = -1;
	/* 75 ms: the rotational disk's default, not the ssd's */
	assert_int_equal(tunable_capture_keeps(tunable_def_find("wbt_lat_usec"), &rot, 1, "75000", &hw), 0);
	assert_int_equal(hw, 0);
	assert_int_equal(tunable_capture_keeps(tunable_def_find("wbt_lat_usec"), two, 2, "75000", &hw), 1);
	/* no disk: nothing to differ on */
	assert_int_equal(tunable_capture_keeps(tunable_def_find("wbt_lat_usec"), NULL, 0, "1", &hw), 0);
	assert_int_equal(tunable_capture_keeps(tunable_def_find("scheduler"), &rot, 1, "bfq", &hw), 1);
	assert_int_equal(tunable_capture_keeps(tunable_def_find("nr_requests"), two, 2, "64", &hw), 0);
	assert_int_equal(hw, 1);
	assert_int_equal(tunable_capture_keeps(tunable_def_find("vm.dirty_ratio"), NULL, 0, "20", &hw), 0);
	assert_int_equal(tunable_capture_keeps(tunable_def_find("vm.dirty_ratio"), NULL, 0, "5", &hw), 1);
	assert_int_equal(tunable_capture_keeps(NULL, NULL, 0, "5", &hw), 1);
}

static void test_default_verdict(void **state)
{
	(void)state;
	const enum tunable_verdict D = TUNABLE_VERDICT_DEFAULT, C = TUNABLE_VERDICT_CHANGED,
				   H = TUNABLE_VERDICT_HW;
	/* every FIXED/HZ default is one, one more is not */
	for (size_t i = 0; i < tunable_n_defs; i++) {
		const struct tunable_def *d = &tunable_defs[i];
		if (d->dflt != TUNABLE_DFLT_FIXED && d->dflt != TUNABLE_DFLT_HZ)
			continue;
		char v[32];
		snprintf(v, sizeof(v), "%lld", (long long)d->dflt_value);
		if (tunable_default_verdict(d, NULL, v) != D)
			fail_msg("%s=%s is not its own default", d->key, v);
		snprintf(v, sizeof(v), "%lld", (long long)d->dflt_value + 1);
		if (tunable_default_verdict(d, NULL, v) != C)
			fail_msg("%s=%s taken for the default", d->key, v);
	}
	/* jiffies shown in ms: HZ/8 at 1000, 250 and 300, 100 */
	assert_int_equal(verdict("timeout_sync", NULL, "125"), D);
	assert_int_equal(verdict("timeout_sync", NULL, "124"), D);
	assert_int_equal(verdict("timeout_sync", NULL, "120"), D);
	assert_int_equal(verdict("timeout_sync", NULL, "123"), C);
	assert_int_equal(verdict("timeout_sync", NULL, "126"), C);
	assert_int_equal(verdict("read_expire", NULL, "504"), C);
	assert_int_equal(verdict("read_expire", NULL, "250"), C);
	/* the scheduler is the choice; hardware-bound whatever the value */
	assert_int_equal(verdict("scheduler", NULL, "mq-deadline"), TUNABLE_VERDICT_CHOICE);
	assert_int_equal(tunable_default_verdict(NULL, NULL, "1"), TUNABLE_VERDICT_CHOICE);
	assert_int_equal(verdict("nr_requests", NULL, "256"), H);
	assert_int_equal(verdict("nr_requests", NULL, "64"), H);
	assert_int_equal(verdict("max_sectors_kb", NULL, "4096"), H);
	assert_int_equal(verdict("async_depth", NULL, "256"), H);
	assert_int_equal(verdict("queue_depth", NULL, "32"), H);
	/* not a number: kept */
	assert_int_equal(verdict("rq_affinity", NULL, "x"), C);
	assert_int_equal(verdict("rq_affinity", NULL, ""), C);
	assert_int_equal(verdict("rq_affinity", NULL, NULL), C);

	struct tunable_facts vda = { .sched = "mq-deadline", .rotational = 1, .loop = 0,
				     .io_opt_kb = 0, .max_sectors_kb = 4096 };
	struct tunable_facts ssd = vda, loop = vda, bfq = vda, raid = vda;
	ssd.rotational = 0;
	loop.loop = 1;
	loop.max_sectors_kb = 1280;
	snprintf(bfq.sched, sizeof(bfq.sched), "bfq");
	raid.io_opt_kb = 512;
	/* wbt: 75 ms rotational, 2 ms not, off under bfq, 2 ms on a loop */
	assert_int_equal(verdict("wbt_lat_usec", &vda, "75000"), D);
	assert_int_equal(verdict("wbt_lat_usec", &vda, "2000"), C);
	assert_int_equal(verdict("wbt_lat_usec", &ssd, "2000"), D);
	assert_int_equal(verdict("wbt_lat_usec", &ssd, "75000"), C);
	assert_int_equal(verdict("wbt_lat_usec", &loop, "2000"), D);
	assert_int_equal(verdict("wbt_lat_usec", &loop, "75000"), C);
	assert_int_equal(verdict("wbt_lat_usec", &bfq, "0"), D);
	assert_int_equal(verdict("wbt_lat_usec", &bfq, "75000"), C);
	assert_int_equal(verdict("wbt_lat_usec", &vda, "0"), C);
	assert_int_equal(verdict("wbt_lat_usec", NULL, "2000"), D);
	assert_int_equal(verdict("wbt_lat_usec", NULL, "75000"), D);
	assert_int_equal(verdict("wbt_lat_usec", NULL, "1000"), C);
	/* read-ahead: 128; twice the largest request on a rotational disk
	 * without an optimal I/O size, twice that size: the hardware's */
	assert_int_equal(verdict("read_ahead_kb", &vda, "128"), D);
	assert_int_equal(verdict("read_ahead_kb", NULL, "128"), D);
	assert_int_equal(verdict("read_ahead_kb", &vda, "8192"), H);
	assert_int_equal(verdict("read_ahead_kb", &loop, "2560"), H);
	assert_int_equal(verdict("read_ahead_kb", &vda, "4096"), C);
	assert_int_equal(verdict("read_ahead_kb", &ssd, "8192"), C);
	assert_int_equal(verdict("read_ahead_kb", &raid, "1024"), H);
	assert_int_equal(verdict("read_ahead_kb", &raid, "8192"), C);
	assert_int_equal(verdict("read_ahead_kb", NULL, "8192"), C);
	assert_int_equal(verdict("read_ahead_kb", &vda, "512"), C);
	/* vm.*: the kernel's constants */
	assert_int_equal(verdict("vm.dirty_ratio", NULL, "20"), D);
	assert_int_equal(verdict("vm.dirty_ratio", NULL, "10"), C);
	assert_int_equal(verdict("vm.dirty_bytes", NULL, "67108864"), C);
}

/* The disk's dirty limits: keys, files, values, what carries them in the
 * journal, what a capture keeps.  Reads no sysfs. */
static void test_bdi_keys(void **state)
{
	(void)state;
	struct tunable_key k;
	char why[TUNABLE_WHY_LEN], canon[TUNABLE_VALUE_LEN], path[256];
	static const char *const keys[] = {
		"bdi.max_bytes", "bdi.max_ratio", "bdi.max_ratio_fine", "bdi.min_bytes",
		"bdi.min_ratio", "bdi.min_ratio_fine", "bdi.strict_limit",
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		assert_int_equal(tunable_parse_key(keys[i], &k, why, sizeof(why)), 0);
		assert_int_equal(k.kind, TUNABLE_BDI);
		assert_string_equal(k.name, keys[i]);
		assert_string_equal(k.attr, keys[i] + 4);
		assert_non_null(tunable_def_find(keys[i]));
		assert_int_equal(tunable_path("loop3", &k, path, sizeof(path)), 0);
		char want[64];
		snprintf(want, sizeof(want), "/sys/block/loop3/bdi/%s", keys[i] + 4);
		assert_string_equal(path, want);
		assert_int_equal(tunable_path("../x", &k, path, sizeof(path)), -EINVAL);
	}
	assert_string_equal(tunable_kind_name(TUNABLE_BDI), "bdi");
	/* not a bdi file brisk changes, nor a path */
	static const char *const bad[] = { "bdi.read_ahead_kb", "bdi.", "bdi./max_bytes",
					   "bdi.../max_bytes", "bdi.stable_pages_required",
					   "bdi.max_bytes/" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(tunable_parse_key(bad[i], &k, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, "unknown dirty limit"));
		assert_non_null(strstr(why, "bdi.max_bytes"));
	}
	/* values: sizes for the bytes, the kernel's ranges for the rest */
	tunable_parse_key("bdi.max_bytes", &k, NULL, 0);
	assert_int_equal(tunable_check_value(&k, NULL, "64m", canon, sizeof(canon), why, sizeof(why)), 0);
	assert_string_equal(canon, "67108864");
	assert_int_equal(tunable_check_value(&k, NULL, "1G", canon, sizeof(canon), why, sizeof(why)), 0);
	assert_string_equal(canon, "1073741824");
	assert_int_equal(tunable_check_value(&k, NULL, "-1", canon, sizeof(canon), why, sizeof(why)), -ERANGE);
	assert_int_equal(tunable_check_value(&k, NULL, "lots", canon, sizeof(canon), why, sizeof(why)), -EINVAL);
	tunable_parse_key("bdi.max_ratio", &k, NULL, 0);
	assert_int_equal(tunable_check_value(&k, NULL, "100", canon, sizeof(canon), why, sizeof(why)), 0);
	assert_int_equal(tunable_check_value(&k, NULL, "101", canon, sizeof(canon), why, sizeof(why)), -ERANGE);
	assert_non_null(strstr(why, "0..100"));
	tunable_parse_key("bdi.min_ratio_fine", &k, NULL, 0);
	assert_int_equal(tunable_check_value(&k, NULL, "1000000", canon, sizeof(canon), why, sizeof(why)), 0);
	assert_int_equal(tunable_check_value(&k, NULL, "1000001", canon, sizeof(canon), why, sizeof(why)), -ERANGE);
	tunable_parse_key("bdi.strict_limit", &k, NULL, 0);
	assert_int_equal(tunable_check_value(&k, NULL, "2", canon, sizeof(canon), why, sizeof(why)), -ERANGE);
	/* the journal restores the file that carries a change */
	assert_string_equal(tunable_bdi_carrier("bdi.max_bytes"), "bdi.max_ratio_fine");
	assert_string_equal(tunable_bdi_carrier("bdi.max_ratio"), "bdi.max_ratio_fine");
	assert_string_equal(tunable_bdi_carrier("bdi.min_bytes"), "bdi.min_ratio_fine");
	assert_string_equal(tunable_bdi_carrier("bdi.min_ratio"), "bdi.min_ratio_fine");
	assert_null(tunable_bdi_carrier("bdi.max_ratio_fine"));
	assert_null(tunable_bdi_carrier("bdi.strict_limit"));
	assert_null(tunable_bdi_carrier("read_ahead_kb"));
	assert_null(tunable_bdi_carrier(NULL));
	/* a max before a min in the table: that order applies a profile */
	assert_true(tunable_def_find("bdi.max_bytes") < tunable_def_find("bdi.min_ratio"));
	/* max_bytes is the default while the share is 100 %, whatever it reads */
	struct tunable_facts f = { .rotational = 1, .io_opt_kb = -1, .max_sectors_kb = -1,
				   .bdi_max_fine = 1000000 };
	assert_int_equal(verdict("bdi.max_bytes", &f, "4970037248"), TUNABLE_VERDICT_DEFAULT);
	f.bdi_max_fine = 13495;
	assert_int_equal(verdict("bdi.max_bytes", &f, "67076096"), TUNABLE_VERDICT_CHANGED);
	assert_int_equal(verdict("bdi.max_bytes", NULL, "67076096"), TUNABLE_VERDICT_CHANGED);
	/* a capture keeps the bytes, never the ratio views of them */
	int hw;
	assert_int_equal(tunable_capture_keeps(tunable_def_find("bdi.max_bytes"), &f, 1,
					       "67076096", &hw), 1);
	assert_int_equal(tunable_capture_keeps(tunable_def_find("bdi.max_ratio_fine"), &f, 1,
					       "13495", &hw), 0);
	assert_int_equal(tunable_capture_keeps(tunable_def_find("bdi.max_ratio"), &f, 1, "1", &hw), 0);
	assert_int_equal(tunable_capture_keeps(tunable_def_find("bdi.strict_limit"), &f, 1, "1", &hw), 1);
	assert_int_equal(tunable_capture_keeps(tunable_def_find("bdi.strict_limit"), &f, 1, "0", &hw), 0);
	/* a distribution default: a max of at least 1 MiB */
	int64_t lo, hi;
	assert_int_equal(tunable_fleet_range("bdi.max_bytes", "64k", &lo, &hi), 0);
	assert_int_equal(tunable_fleet_range("bdi.max_bytes", "64m", &lo, &hi), 1);
}

/* brisk-profile(1)'s table of defaults ("KEY VALUE ..." lines between
 * ".SS Kernel defaults" and its ".fi") names every key of the table, with
 * the value of each FIXED and HZ one, "hardware-bound" for the HW ones
 * and "always" for the scheduler.  Run from the repository root. */
static void test_defaults_documented(void **state)
{
	(void)state;
	FILE *f = fopen("man/brisk-profile.1", "r");
	assert_non_null(f);
	char line[512];
	int in = 0, seen[64] = { 0 };
	size_t rows = 0;
	assert_true(tunable_n_defs <= 64);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, ".SS Kernel defaults") == 0) {
			in = 1;
			continue;
		}
		if (!in)
			continue;
		if (in == 1 && strcmp(line, ".nf") == 0) {
			in = 2;
			continue;
		}
		if (in == 2 && strcmp(line, ".fi") == 0)
			break;
		if (in != 2 || line[0] == ' ')   /* a continued line */
			continue;
		char key[64], val[64];
		for (char *c = line; *c; c++)   /* groff's \- is a '-' */
			if (c[0] == '\\' && c[1] == '-')
				memmove(c, c + 1, strlen(c));
		if (sscanf(line, "%63s %63s", key, val) != 2)
			fail_msg("brisk-profile.1: bad defaults line '%s'", line);
		const struct tunable_def *d = tunable_def_find(key);
		if (!d)
			fail_msg("brisk-profile.1 lists '%s', not a key of the table", key);
		seen[d - tunable_defs]++;
		rows++;
		char want[64];
		switch (d->dflt) {
		case TUNABLE_DFLT_FIXED:
		case TUNABLE_DFLT_HZ:
			snprintf(want, sizeof(want), "%lld", (long long)d->dflt_value);
			break;
		case TUNABLE_DFLT_HW:
			snprintf(want, sizeof(want), "hardware-bound");
			break;
		case TUNABLE_DFLT_CHOICE:
			snprintf(want, sizeof(want), "always");
			break;
		case TUNABLE_DFLT_DEVICE:
			snprintf(want, sizeof(want), "%s", val);   /* explained in words */
			break;
		}
		if (strcmp(val, want) != 0)
			fail_msg("brisk-profile.1: %s default '%s', the table's is '%s'", key, val, want);
	}
	fclose(f);
	assert_int_equal(in, 2);
	for (size_t i = 0; i < tunable_n_defs; i++)
		if (seen[i] != 1)
			fail_msg("brisk-profile.1 lists %s %d times", tunable_defs[i].key, seen[i]);
	assert_int_equal(rows, tunable_n_defs);
}

/* The range a distribution default may carry: within the kernel's, holding
 * the kernel's own default, and brisk-report(1)'s DEFAULT RANGES table
 * ("KEY LO..HI" lines between ".SH DEFAULT RANGES" and its ".fi") is the
 * table's.  Run from the repository root. */
static void test_fleet_ranges(void **state)
{
	(void)state;
	for (size_t i = 0; i < tunable_n_defs; i++) {
		const struct tunable_def *d = &tunable_defs[i];
		if (d->type == TUNABLE_TYPE_SCHED)
			continue;
		if (d->fleet_min < d->min || d->fleet_max > d->max || d->fleet_min > d->fleet_max)
			fail_msg("%s: default range %lld..%lld not within the kernel's %lld..%lld", d->key,
				 (long long)d->fleet_min, (long long)d->fleet_max, (long long)d->min,
				 (long long)d->max);
		if ((d->dflt == TUNABLE_DFLT_FIXED || d->dflt == TUNABLE_DFLT_HZ) &&
		    (d->dflt_value < d->fleet_min || d->dflt_value > d->fleet_max) &&
		    !(d->key[0] == 'v' && d->dflt_value == 0))   /* vm.*_bytes: 0 is off */
			fail_msg("%s: the kernel's default %lld is outside its default range", d->key,
				 (long long)d->dflt_value);
	}
	int64_t lo, hi;
	assert_int_equal(tunable_fleet_range("slice_idle", "2147483647", &lo, &hi), 0);
	assert_true(lo == 0 && hi == 100);
	assert_int_equal(tunable_fleet_range("slice_idle", "8", &lo, &hi), 1);
	assert_int_equal(tunable_fleet_range("vm.dirty_bytes", "64k", &lo, &hi), 0);
	assert_int_equal(tunable_fleet_range("vm.dirty_bytes", "64m", &lo, &hi), 1);
	assert_int_equal(tunable_fleet_range("scheduler", "bfq", &lo, &hi), 1);
	FILE *f = fopen("man/brisk-report.1", "r");
	assert_non_null(f);
	char line[512];
	int in = 0, seen[64] = { 0 };
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, ".SH DEFAULT RANGES") == 0)
			in = 1;
		else if (in == 1 && strcmp(line, ".nf") == 0)
			in = 2;
		else if (in == 2 && strcmp(line, ".fi") == 0)
			break;
		else if (in == 2) {
			for (char *c = line; *c; c++)   /* groff's \- is a '-' */
				if (c[0] == '\\' && c[1] == '-')
					memmove(c, c + 1, strlen(c));
			char key[64];
			long long a, b;
			if (sscanf(line, "%63s %lld..%lld", key, &a, &b) != 3)
				fail_msg("brisk-report.1: bad range line '%s'", line);
			const struct tunable_def *d = tunable_def_find(key);
			if (!d)
				fail_msg("brisk-report.1 lists '%s', not a key of the table", key);
			if (a != d->fleet_min || b != d->fleet_max)
				fail_msg("brisk-report.1: %s %lld..%lld, the table's %lld..%lld", key, a, b,
					 (long long)d->fleet_min, (long long)d->fleet_max);
			seen[d - tunable_defs]++;
		}
	}
	fclose(f);
	assert_int_equal(in, 2);
	for (size_t i = 0; i < tunable_n_defs; i++)
		if (seen[i] != (tunable_defs[i].type != TUNABLE_TYPE_SCHED))
			fail_msg("brisk-report.1 lists %s %d times", tunable_defs[i].key, seen[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_key_whitelist),
		cmocka_unit_test(test_parse_key_refuses_paths),
		cmocka_unit_test(test_devname),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_value_ranges),
		cmocka_unit_test(test_active_scheduler),
		cmocka_unit_test(test_sysctl_partner),
		cmocka_unit_test(test_settings_table),
		cmocka_unit_test(test_defaults_table),
		cmocka_unit_test(test_capture_keeps),
		cmocka_unit_test(test_default_verdict),
		cmocka_unit_test(test_defaults_documented),
		cmocka_unit_test(test_fleet_ranges),
		cmocka_unit_test(test_bdi_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
