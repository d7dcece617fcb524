/* rundir: which runtime directories and files are trusted (rundir.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "rundir.h"
#include "testdir.h"

static struct testdir td;
static const char *const base = td.abs;

static int setup(void **state)
{
	(void)state;
	if (testdir_make(&td, "rundir") < 0)
		return -1;
	umask(022);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_TREE);
}

static void path_of(char *buf, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/%s", base, name);
}

/* open PATH with FLAGS: the rc; why must contain WANT (NULL: rc 0) */
static int try_open(const char *path, int flags, const char *want)
{
	char why[PATH_MAX + 128] = "";
	int fd = -1;
	int rc = rundir_open_at(path, flags, &fd, why, sizeof(why));
	if (rc == 0)
		close(fd);
	if (want && !strstr(why, want)) {
		print_error("why '%s' lacks '%s'\n", why, want);
		return 99;
	}
	return rc;
}

static void test_create_and_reopen(void **state)
{
	(void)state;
	char p[PATH_MAX];
	struct stat st;
	path_of(p, "rt");
	assert_int_equal(try_open(p, 0, NULL), -ENOENT);
	assert_int_equal(try_open(p, RUNDIR_CREATE, NULL), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(try_open(p, 0, NULL), 0);
	/* trailing slashes are fine */
	char q[PATH_MAX + 2];
	snprintf(q, sizeof(q), "%s//", p);
	assert_int_equal(try_open(q, 0, NULL), 0);
	/* readable by others is allowed */
	chmod(p, 0755);
	assert_int_equal(try_open(p, 0, NULL), 0);
}

static void test_writable_refused(void **state)
{
	(void)state;
	char p[PATH_MAX];
	path_of(p, "w");
	assert_int_equal(mkdir(p, 0700), 0);
	chmod(p, 0770);
	assert_int_equal(try_open(p, 0, "writable by its group (mode 0770)"), -EPERM);
	chmod(p, 0707);
	assert_int_equal(try_open(p, 0, "writable by others (mode 0707)"), -EPERM);
	chmod(p, 01777);
	assert_int_equal(try_open(p, 0, "writable by its group and others (mode 1777)"), -EPERM);
	assert_int_equal(try_open(p, RUNDIR_READ, "mode 1777"), -EPERM);
}

static void test_owner_refused(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	char p[PATH_MAX];
	path_of(p, "u");
	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(chown(p, 65534, 65534), 0);
	assert_int_equal(try_open(p, 0, "owned by uid 65534, not by uid 0"), -EPERM);
	assert_int_equal(try_open(p, RUNDIR_CREATE, "owned by uid 65534"), -EPERM);
}

static void test_symlinks_refused(void **state)
{
	(void)state;
	char real[PATH_MAX], link[PATH_MAX], deep[PATH_MAX + 8];
	path_of(real, "real");
	path_of(link, "link");
	assert_int_equal(mkdir(real, 0700), 0);
	assert_int_equal(symlink(real, link), 0);
	char want[PATH_MAX + 32];
	snprintf(want, sizeof(want), "%s: a symbolic link", link);
	assert_int_equal(try_open(link, 0, want), -EPERM);
	assert_int_equal(try_open(link, RUNDIR_CREATE, want), -EPERM);
	/* in the middle of the path too */
	snprintf(deep, sizeof(deep), "%s/sub", real);
	assert_int_equal(mkdir(deep, 0700), 0);
	snprintf(deep, sizeof(deep), "%s/sub", link);
	assert_int_equal(try_open(deep, 0, want), -EPERM);
	/* a subdirectory that is a symlink */
	int fd;
	assert_int_equal(rundir_open_at(real, 0, &fd, NULL, 0), 0);
	assert_int_equal(symlinkat(real, fd, "lab"), 0);
	char why[PATH_MAX + 128] = "";
	int sfd = -1;
	assert_int_equal(rundir_subdir(fd, real, "lab", RUNDIR_CREATE, &sfd, why, sizeof(why)),
			 -EPERM);
	assert_non_null(strstr(why, "/real/lab: a symbolic link"));
	assert_int_equal(unlinkat(fd, "lab", 0), 0);
	assert_int_equal(rundir_subdir(fd, real, "lab", RUNDIR_CREATE, &sfd, why, sizeof(why)), 0);
	close(sfd);
	close(fd);
}

static void test_files(void **state)
{
	(void)state;
	char d[PATH_MAX], why[PATH_MAX + 128];
	int dfd;
	path_of(d, "files");
	assert_int_equal(rundir_open_at(d, RUNDIR_CREATE, &dfd, why, sizeof(why)), 0);
	int fd = openat(dfd, "ok", O_RDWR | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(rundir_check_file(fd, "ok", 0, why, sizeof(why)), 0);
	assert_int_equal(rundir_check_entry(dfd, d, "ok", 0, why, sizeof(why)), 0);
	fchmod(fd, 0664);
	assert_int_equal(rundir_check_file(fd, "ok", 0, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "ok: writable by its group (mode 0664)"));
	fchmod(fd, 0644);
	assert_int_equal(linkat(dfd, "ok", dfd, "ok2", 0), 0);
	assert_int_equal(rundir_check_file(fd, "ok", 0, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "has 2 hard links"));
	assert_int_equal(unlinkat(dfd, "ok2", 0), 0);
	if (geteuid() == 0) {
		assert_int_equal(fchown(fd, 65534, 65534), 0);
		assert_int_equal(rundir_check_file(fd, "ok", 0, why, sizeof(why)), -EPERM);
		assert_non_null(strstr(why, "owned by uid 65534"));
		assert_int_equal(fchown(fd, 0, 0), 0);
	}
	/* removed meanwhile */
	assert_int_equal(unlinkat(dfd, "ok", 0), 0);
	assert_int_equal(rundir_check_file(fd, "ok", 0, why, sizeof(why)), -ENOENT);
	close(fd);
	/* not regular, symlinks: refused without opening */
	assert_int_equal(mkfifoat(dfd, "fifo", 0600), 0);
	assert_int_equal(rundir_check_entry(dfd, d, "fifo", 0, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "/files/fifo: not a regular file"));
	assert_int_equal(symlinkat("/etc/passwd", dfd, "sym"), 0);
	assert_int_equal(rundir_check_entry(dfd, d, "sym", 0, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "/files/sym: a symbolic link"));
	close(dfd);
}

static void test_paths(void **state)
{
	(void)state;
	char buf[PATH_MAX];
	setenv("BRISK_RUNTIME_DIR", "/x/y", 1);
	assert_int_equal(rundir_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/y");
	assert_int_equal(rundir_system_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/y");
	unsetenv("BRISK_RUNTIME_DIR");
	assert_int_equal(rundir_system_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, RUNDIR_SYSTEM);
	if (geteuid() == 0) {
		assert_int_equal(rundir_path(buf, sizeof(buf)), 0);
		assert_string_equal(buf, RUNDIR_SYSTEM);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_and_reopen),
		cmocka_unit_test(test_writable_refused),
		cmocka_unit_test(test_owner_refused),
		cmocka_unit_test(test_symlinks_refused),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_paths),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
