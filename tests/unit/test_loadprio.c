/* The load's own settings (loadprio): load.ionice values, the io
 * controller's keys and why they are refused, the ionice part of a load
 * spec, and a compare arm that sets load.ionice. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "compare.h"
#include "load.h"
#include "loadprio.h"

static void test_ionice_values(void **state)
{
	(void)state;
	static const struct { const char *in, *out; int cls, level; } ok[] = {
		{ "idle", "idle", 3, 0 }, { "IDLE", "idle", 3, 0 }, { "be/7", "be/7", 2, 7 },
		{ "be", "be/4", 2, 4 }, { "none", "none", 0, 0 }, { "3", "idle", 3, 0 },
		{ "2/0", "be/0", 2, 0 }, { "rt/1", "rt/1", 1, 1 },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int cls = -9, level = -9;
		char buf[16];
		assert_int_equal(load_ionice_parse(ok[i].in, &cls, &level), 0);
		assert_int_equal(cls, ok[i].cls);
		assert_int_equal(level, ok[i].level);
		load_ionice_format(cls, level, buf, sizeof(buf));
		assert_string_equal(buf, ok[i].out);
	}
	static const char *const bad[] = { "", "/3", "be/8", "be/-1", "none/2", "4", "idle/x",
					   "realtime", "be/" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int cls, level;
		assert_int_equal(load_ionice_parse(bad[i], &cls, &level), -EINVAL);
	}
}

static void test_spec_ionice_none(void **state)
{
	(void)state;
	struct load_spec s, again;
	char err[256], buf[256];
	assert_int_equal(load_spec_parse("seq-write:ionice=none", &s, err, sizeof(err)), 0);
	assert_int_equal(s.ioprio_class, 0);
	load_spec_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "seq-write:count=1,bs=1m,ionice=none");
	assert_int_equal(load_spec_parse(buf, &again, err, sizeof(err)), 0);
	assert_memory_equal(&s, &again, sizeof(s));
	assert_int_equal(load_spec_parse("seq-write", &s, err, sizeof(err)), 0);
	load_spec_format(&s, buf, sizeof(buf));
	assert_null(strstr(buf, "ionice"));   /* inherit: not said */
}

static void test_parse_keys(void **state)
{
	(void)state;
	struct loadprio lp;
	char err[512], buf[96];
	assert_true(loadprio_is_key("load.ionice"));
	assert_true(loadprio_is_key("load.whatever"));
	assert_false(loadprio_is_key("scheduler"));
	assert_false(loadprio_is_key("loader"));
	assert_int_equal(loadprio_parse("load.ionice", "be/7", &lp, err, sizeof(err)), 0);
	assert_int_equal(lp.key, LOADPRIO_IONICE);
	assert_int_equal(lp.cls, 2);
	assert_int_equal(lp.level, 7);
	loadprio_format(&lp, buf, sizeof(buf));
	assert_string_equal(buf, "load.ionice=be/7");
	assert_int_equal(loadprio_parse("load.ionice", "Idle", &lp, err, sizeof(err)), 0);
	loadprio_format(&lp, buf, sizeof(buf));
	assert_string_equal(buf, "load.ionice=idle");
	assert_int_equal(loadprio_parse("load.ionice", "rt/3", &lp, err, sizeof(err)),
			 geteuid() == 0 ? 0 : -EPERM);

	err[0] = '\0';
	assert_int_equal(loadprio_parse("load.nice", "3", &lp, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown load setting 'load.nice'"));
	assert_int_equal(loadprio_parse("load.ionice", "best", &lp, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "load.ionice=best"));
	/* the io controller's keys: a bad value is a bad value wherever ... */
	static const char *const bad_weight[] = { "0", "10001", "x", "-5", "" };
	for (size_t i = 0; i < sizeof(bad_weight) / sizeof(bad_weight[0]); i++)
		assert_int_equal(loadprio_parse("load.io.weight", bad_weight[i], &lp, err,
						sizeof(err)), -EINVAL);
	static const char *const bad_max[] = { "20m", "wbps", "wbps=", "wbps=0", "xbps=1m",
					       "wbps=1m/", "/", "wbps=1m//rbps=x" };
	for (size_t i = 0; i < sizeof(bad_max) / sizeof(bad_max[0]); i++)
		assert_int_equal(loadprio_parse("load.io.max", bad_max[i], &lp, err, sizeof(err)),
				 -EINVAL);
	/* ... and a good one is refused with why (this brisk has no cgroup path) */
	err[0] = '\0';
	assert_int_equal(loadprio_parse("load.io.weight", "100", &lp, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "load.io.weight"));
	assert_non_null(strstr(err, "unavailable"));
	assert_int_equal(loadprio_parse("load.io.max", "wbps=20m/riops=max", &lp, err,
					sizeof(err)), -ENOTSUP);
}

static const char *const groups_v1_blkio =
	"#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
	"cpuset\t3\t1\t1\n"
	"blkio\t7\t1\t1\n"
	"memory\t4\t12\t1\n";
static const char *const groups_v2 =
	"#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
	"cpuset\t0\t1\t1\n"
	"blkio\t0\t1\t1\n";

static void test_cgroup_judge(void **state)
{
	(void)state;
	char why[512];
	/* this VM: io bound to cgroup v1 blkio, a cgroup2 mount without io */
	assert_int_equal(loadprio_cgroup_judge("load.io.weight", groups_v1_blkio, "", "/", why,
					       sizeof(why)), -ENOTSUP);
	assert_string_equal(why, "load.io.weight needs the cgroup v2 io controller; here io is "
			    "bound to cgroup v1 blkio: unavailable");
	/* no cgroup2 at all, blkio bound */
	assert_int_equal(loadprio_cgroup_judge("load.io.max", groups_v1_blkio, NULL, "?", why,
					       sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "bound to cgroup v1 blkio"));
	/* nothing in v1, no cgroup2 hierarchy */
	assert_int_equal(loadprio_cgroup_judge("load.io.max", groups_v2, NULL, "?", why,
					       sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "no cgroup v2 hierarchy"));
	/* cgroup2 without io in brisk's cgroup */
	assert_int_equal(loadprio_cgroup_judge("load.io.weight", groups_v2, "cpu memory pids",
					       "/user.slice", why, sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "not enabled for brisk's cgroup /user.slice"));
	assert_non_null(strstr(why, "cpu memory pids"));
	/* "iomem" is not "io" */
	assert_int_equal(loadprio_cgroup_judge("load.io.weight", groups_v2, "cpu iomem",
					       "/", why, sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "not enabled"));
	/* io there: said so, and that loads in a cgroup are not built */
	assert_int_equal(loadprio_cgroup_judge("load.io.weight", groups_v2, "cpuset cpu io memory",
					       "/", why, sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "io controller is there"));
	/* /proc/cgroups unreadable */
	assert_int_equal(loadprio_cgroup_judge("load.io.weight", NULL, NULL, "?", why,
					       sizeof(why)), -ENOTSUP);
}

static void test_arm(void **state)
{
	(void)state;
	struct settings st;
	struct compare_arm a;
	char err[512];
	memset(&st, 0, sizeof(st));   /* no disk: only load keys apply */
	assert_int_equal(compare_arm_parse("load.ionice=idle", &st, &a, err, sizeof(err)), 0);
	assert_true(a.load_ionice);
	assert_int_equal(a.ioprio_class, 3);
	assert_string_equal(a.settings, "load.ionice=idle");
	assert_string_equal(a.label, "io=idle");   /* fits the tables' 10 columns */
	assert_int_equal(a.n_steps, 0);

	struct session_config sc;
	memset(&sc, 0, sizeof(sc));
	sc.n_loads = 2;
	sc.loads[0].ioprio_class = -1;
	sc.loads[1].ioprio_class = 2;
	sc.loads[1].ioprio_level = 1;
	compare_arm_session(&a, &sc);
	assert_int_equal(sc.loads[0].ioprio_class, 3);
	assert_int_equal(sc.loads[1].ioprio_class, 3);
	assert_int_equal(sc.loads[1].ioprio_level, 0);
	compare_arm_free(&a);

	assert_int_equal(compare_arm_parse("load.ionice=be/7", &st, &a, err, sizeof(err)), 0);
	assert_string_equal(a.settings, "load.ionice=be/7");
	assert_string_equal(a.label, "io=be/7");
	compare_arm_free(&a);

	/* current leaves the loads alone */
	assert_int_equal(compare_arm_parse("current", &st, &a, err, sizeof(err)), 0);
	assert_false(a.load_ionice);
	sc.loads[0].ioprio_class = -1;
	compare_arm_session(&a, &sc);
	assert_int_equal(sc.loads[0].ioprio_class, -1);
	compare_arm_free(&a);

	assert_int_equal(compare_arm_parse("load.ionice=idle,load.ionice=be", &st, &a, err,
					   sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "given twice"));
	assert_int_equal(compare_arm_parse("load.ionice=sometimes", &st, &a, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "arm 'load.ionice=sometimes'"));
	assert_int_equal(compare_arm_parse("load.io.weight=100", &st, &a, err, sizeof(err)),
			 -ENOTSUP);
	assert_non_null(strstr(err, "load.io.weight"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ionice_values),
		cmocka_unit_test(test_spec_ionice_none),
		cmocka_unit_test(test_parse_keys),
		cmocka_unit_test(test_cgroup_judge),
		cmocka_unit_test(test_arm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
