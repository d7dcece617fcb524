/* Unit tests for the probe helpers that need no device: sysfs parsing,
 * and firmware advisory matching. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "advisory.h"
#include "mountinfo.h"
#include "sysfs.h"
#include "testdir.h"

static void test_parse_choice(void **state)
{
	(void)state;
	char act[32], list[128];
	sysfs_parse_choice("none [mq-deadline] kyber bfq\n", act, sizeof(act), list, sizeof(list));
	assert_string_equal(act, "mq-deadline");
	assert_string_equal(list, "none mq-deadline kyber bfq");
	sysfs_parse_choice("[none] \n", act, sizeof(act), list, sizeof(list));
	assert_string_equal(act, "none");
	assert_string_equal(list, "none");
	sysfs_parse_choice("none", act, sizeof(act), list, sizeof(list));
	assert_string_equal(act, "");
	assert_string_equal(list, "none");
	sysfs_parse_choice("", act, sizeof(act), list, sizeof(list));
	assert_string_equal(act, "");
	assert_string_equal(list, "");
}

static void test_trim(void **state)
{
	(void)state;
	char s[] = "  ST31000340AS    \n";
	assert_string_equal(sysfs_trim(s), "ST31000340AS");
	char e[] = "   ";
	assert_string_equal(sysfs_trim(e), "");
}

static void test_sysfs_link(void **state)
{
	(void)state;
	struct testdir td;
	assert_int_equal(testdir_make(&td, "link"), 0);
	char l1[128], l2[128], out[256], want[256];
	snprintf(l1, sizeof(l1), "%s/rel", td.path);
	snprintf(l2, sizeof(l2), "%s/abs", td.path);
	assert_int_equal(symlink("../../devices/./pci0000:00/x/../block/sda", l1), 0);
	assert_int_equal(symlink("/sys/devices/vda", l2), 0);
	assert_int_equal(sysfs_link(l1, out, sizeof(out)), 0);
	/* l1 is build/ut-link.XXXXXX/rel: its "../.." climbs back to the start, "/" */
	snprintf(want, sizeof(want), "/devices/pci0000:00/block/sda");
	assert_string_equal(out, want);
	assert_int_equal(sysfs_link(l2, out, sizeof(out)), 0);
	assert_string_equal(out, "/sys/devices/vda");
	char tiny[8];
	assert_int_equal(sysfs_link(l2, tiny, sizeof(tiny)), -ENAMETOOLONG);
	assert_int_equal(sysfs_link(td.path, out, sizeof(out)), -EINVAL);   /* not a link */
	unlink(l1);
	unlink(l2);
	assert_int_equal(testdir_remove(&td, TESTDIR_EMPTY), 0);
}

static void test_sysfs_path_next(void **state)
{
	(void)state;
	const char *p = "//sys/devices//pci0000:00/", *c;
	size_t n;
	char got[128] = "";
	while ((c = sysfs_path_next(&p, &n)))
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "[%.*s]", (int)n, c);
	assert_string_equal(got, "[sys][devices][pci0000:00]");
	p = "///";
	assert_null(sysfs_path_next(&p, &n));
	p = "";
	assert_null(sysfs_path_next(&p, &n));
	p = "sda";
	assert_non_null(c = sysfs_path_next(&p, &n));
	assert_int_equal(n, 3);
	assert_string_equal(p, "");
}

static const struct mountinfo_entry *mount_at(const struct mountinfo *mi, const char *t)
{
	const struct mountinfo_entry *top = NULL;
	for (size_t i = 0; i < mi->n; i++)
		if (strcmp(mi->v[i].target, t) == 0)
			top = &mi->v[i];
	return top;
}

static void test_mountinfo(void **state)
{
	(void)state;
	struct mountinfo mi;
	assert_int_equal(mountinfo_read(&mi), 0);
	assert_true(mi.n > 0);
	const struct mountinfo_entry *root = mount_at(&mi, "/");
	if (!root)
		fail_msg("no mount at /");
	assert_true(root->fstype[0] && root->source[0] && root->options[0]);
	mountinfo_free(&mi);
	if (geteuid() != 0) {
		print_message("skipping the escaped mount point: needs root to mount\n");
		return;
	}
	/* a mount point with a space is "\040" in the table: unescaped here */
	struct testdir td;
	assert_int_equal(testdir_make(&td, "brisk unit"), 0);
	if (mount("brisk-unit", td.path, "tmpfs", 0, "size=64k") < 0) {
		testdir_remove(&td, TESTDIR_EMPTY);
		print_message("skipping the escaped mount point: mount failed\n");
		return;
	}
	assert_int_equal(mountinfo_read(&mi), 0);
	const struct mountinfo_entry *e = mount_at(&mi, td.abs);
	if (!e)
		fail_msg("no mount at '%s'", td.abs);
	assert_string_equal(e->fstype, "tmpfs");
	assert_string_equal(e->source, "brisk-unit");
	mountinfo_free(&mi);
	umount(td.path);
	assert_int_equal(testdir_remove(&td, TESTDIR_EMPTY), 0);
}

static char *write_tmp(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/brisk-unit-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_sysfs_read(void **state)
{
	(void)state;
	char *p = write_tmp("  12345 \n");
	char buf[16];
	int64_t v;
	assert_int_equal(sysfs_read_s64(p, &v), 0);
	assert_int_equal(v, 12345);
	assert_int_equal(sysfs_read(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "12345");
	char small[4];
	assert_int_equal(sysfs_read(p, small, sizeof(small)), -EOVERFLOW);
	unlink(p);
	p = write_tmp("abc\n");
	assert_int_equal(sysfs_read_s64(p, &v), -EINVAL);
	unlink(p);
	assert_int_equal(sysfs_read("/nonexistent/x", buf, sizeof(buf)), -ENOENT);
}

static void test_advisory(void **state)
{
	(void)state;
	struct advisory_db db;
	char err[200];
	char *p = write_tmp("[a]\nmodels = ST3500320AS ST31000340AS\nfirmware = SD1[5-9] AD14\n"
			    "problem = stalls\nfixed_in = SD1A\n[b]\nmodels = M4-CT*\n"
			    "firmware = 000?\nproblem = 5184 hours\n");
	assert_int_equal(advisory_load(p, &db, err, sizeof(err)), 0);
	unlink(p);
	assert_int_equal(db.n, 2);
	const struct advisory *a = advisory_match(&db, "ST31000340AS", "SD15");
	assert_non_null(a);
	assert_string_equal(a->id, "a");
	assert_string_equal(a->fixed_in, "SD1A");
	assert_null(advisory_match(&db, "ST31000340AS", "SD1A"));
	assert_null(advisory_match(&db, "ST31000340AS", ""));
	assert_null(advisory_match(&db, "ST3100034", "SD15"));
	a = advisory_match(&db, "M4-CT256M4SSD2", "0009");
	assert_non_null(a);
	assert_string_equal(a->id, "b");
	assert_null(advisory_match(&db, "M4-CT256M4SSD2", "0309"));
	advisory_free(&db);

	p = write_tmp("[a]\nmodels = X\nfirmware = Y\nproblem = p\ncolour = red\n");
	assert_int_equal(advisory_load(p, &db, err, sizeof(err)), -EINVAL);
	unlink(p);
	assert_non_null(strstr(err, "5: unknown key 'colour'"));
	p = write_tmp("[a]\nmodels = X\nproblem = p\n");
	assert_int_equal(advisory_load(p, &db, err, sizeof(err)), -EINVAL);
	unlink(p);
	assert_non_null(strstr(err, "[a] has no 'firmware"));
	p = write_tmp("[a]\nmodels = X\nthis line is wrong\n");
	assert_int_equal(advisory_load(p, &db, err, sizeof(err)), -EINVAL);
	unlink(p);
	assert_true(strncmp(err, "3: ", 3) == 0);
	assert_int_equal(advisory_load("/nonexistent", &db, err, sizeof(err)), -ENOENT);
}

static void test_shipped_advisories(void **state)
{
	(void)state;
	struct advisory_db db;
	char err[200] = "";
	int rc = advisory_load("profiles/advisories.conf", &db, err, sizeof(err));
	if (rc) print_error("profiles/advisories.conf: %s\n", err);
	assert_int_equal(rc, 0);
	static const char *const bsy[] = { "ST3500320AS", "ST3640330AS", "ST3750330AS", "ST31000340AS" };
	for (size_t i = 0; i < 4; i++) {
		assert_non_null(advisory_match(&db, bsy[i], "SD15"));
		assert_non_null(advisory_match(&db, bsy[i], "AD14"));
		assert_null(advisory_match(&db, bsy[i], "SD1A"));
	}
	static const char *const ncq[] = { "ST31500341AS", "ST31000333AS", "ST3640323AS",
					   "ST3640623AS", "ST3320613AS", "ST3320813AS" };
	for (size_t i = 0; i < 6; i++) {
		assert_non_null(advisory_match(&db, ncq[i], "SD19"));
		assert_null(advisory_match(&db, ncq[i], "SD1A"));
	}
	assert_non_null(advisory_match(&db, "M4-CT256M4SSD2", "000F"));
	assert_null(advisory_match(&db, "M4-CT256M4SSD2", "0309"));
	assert_non_null(advisory_match(&db, "Samsung SSD 840 EVO 250GB", "EXT0BB6Q"));
	assert_null(advisory_match(&db, "Samsung SSD 840 EVO 250GB", "EXT0CB6Q"));
	assert_null(advisory_match(&db, "Samsung SSD 850 EVO 250GB", "EXT0BB6Q"));
	advisory_free(&db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_choice),
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_sysfs_read),
		cmocka_unit_test(test_sysfs_link),
		cmocka_unit_test(test_sysfs_path_next),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_advisory),
		cmocka_unit_test(test_shipped_advisories),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
