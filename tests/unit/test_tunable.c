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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
