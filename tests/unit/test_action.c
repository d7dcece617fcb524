/* Actions: list parsing, library resolution, residency, and real samples
 * (tiny sizes) in a directory under build/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <pwd.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>

#include "action.h"
#include "testdir.h"

static struct testdir td;

static void test_parse_list(void **state)
{
	(void)state;
	unsigned m;
	char err[200];
	assert_int_equal(action_parse_list("exec,ssh", &m, err, sizeof(err)), 0);
	assert_int_equal(m, (1u << ACTION_EXEC) | (1u << ACTION_SSH));
	assert_int_equal(action_parse_list("all", &m, err, sizeof(err)), 0);
	assert_int_equal(m, (1u << ACTION_KIND_COUNT) - 1);
	assert_int_equal(action_parse_list("ls,ssh-like,save", &m, err, sizeof(err)), 0);
	assert_int_equal(m, (1u << ACTION_LS) | (1u << ACTION_SSH) | (1u << ACTION_SAVE));
	assert_int_equal(action_parse_list("ls,dance", &m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'dance'"));
	assert_int_equal(action_parse_list(",", &m, err, sizeof(err)), -EINVAL);
}

/* One sample to the end: returns the final record. */
static struct action_result sample(const struct action *a, enum action_evict ev)
{
	pid_t pid;
	int fd;
	assert_int_equal(action_sample_start(a, ev, NULL, &pid, &fd), 0);
	struct action_result first, last;
	assert_int_equal(action_sample_read(fd, &first), 1);
	assert_true(first.dur_ns == UINT64_MAX);
	assert_int_equal(action_sample_read(fd, &last), 1);
	assert_true(last.dur_ns != UINT64_MAX);
	assert_true(last.cold <= first.cold);   /* the walk may show ls warm, never cold */
	assert_int_equal(action_sample_read(fd, &first), 0);   /* EOF */
	close(fd);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return last;
}

/* A fresh subdirectory NAME of the test directory, opened. */
static int subdir(const char *name)
{
	char sub[64];
	snprintf(sub, sizeof(sub), "%s/%s", td.path, name);
	assert_int_equal(mkdir(sub, 0700), 0);
	int fd = open(sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

static void test_ssh_like(void **state)
{
	(void)state;
	struct action_config c;
	action_config_default(&c);
	c.ssh_file = 3 << 20;
	c.ssh_region = 1 << 20;
	struct action a;
	char err[300];
	assert_int_equal(action_prepare(&a, ACTION_SSH, &c, td.fd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), 0);
	struct stat st;
	assert_int_equal(fstatat(td.fd, a.path, &st, 0), 0);
	assert_int_equal(st.st_size, 3 << 20);
	assert_int_equal(action_resident_pages_at(td.fd, a.path), 0);   /* prepare evicted it */
	struct action_result r = sample(&a, ACTION_EVICT_FADVISE);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.cold, 1);
	assert_true(r.dur_ns > 0);
	/* it read the region: those pages are now cached, the rest is not */
	long res = action_resident_pages_at(td.fd, a.path);
	assert_true(res > 0 && res <= (1 << 20) / 4096);
	action_free(&a);
}

static void test_ls_and_save(void **state)
{
	(void)state;
	struct action_config c;
	action_config_default(&c);
	c.ls_files = 95;
	struct action a;
	char err[300];
	assert_int_equal(action_prepare(&a, ACTION_LS, &c, td.fd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), 0);
	assert_int_equal(a.ls_expect, 95 + 10 + 1);   /* files, leaf dirs, one top dir */
	assert_non_null(strstr(a.note, "warm"));
	struct action_result r = sample(&a, ACTION_EVICT_FADVISE);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.cold, 0);      /* no dentry eviction without drop_caches */
	action_free(&a);

	assert_int_equal(action_prepare(&a, ACTION_SAVE, &c, td.fd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), 0);
	r = sample(&a, ACTION_EVICT_FADVISE);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.cold, 1);
	struct stat st;
	assert_int_equal(fstatat(td.fd, a.path, &st, 0), 0);
	assert_int_equal(st.st_size, 4096);
	action_free(&a);
}

/* One ls sample with drop_caches on a 20-file tree made in dfd a moment
 * ago and made evictable (action_make_evictable: until the journal lets
 * go of the new metadata, a walk may read nothing from the disk, and is
 * then warm); its result.  The note must be empty (ls can be cold). */
static struct action_result ls_dropped(int dfd)
{
	struct action_config c;
	action_config_default(&c);
	c.ls_files = 20;
	struct action a;
	char err[300];
	assert_int_equal(action_prepare(&a, ACTION_LS, &c, dfd, ACTION_EVICT_DROP_CACHES, err,
					sizeof(err)), 0);
	assert_string_equal(a.note, "");
	action_make_evictable(dfd);
	struct action_result r = sample(&a, ACTION_EVICT_DROP_CACHES);
	action_free(&a);
	return r;
}

static void test_drop_caches(void **state)
{
	(void)state;
	if (geteuid() != 0 || access("/proc/sys/vm/drop_caches", W_OK) != 0)
		skip();
	int sfd = subdir("drop");
	struct action_result r = ls_dropped(sfd);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.cold, 1);
	close(sfd);
}

/* On tmpfs nothing is ever read from storage: ls with drop_caches is warm
 * however the caches were dropped (the walk read no byte). */
static void test_ls_warm_without_reads(void **state)
{
	(void)state;
	struct statfs sf;
	if (geteuid() != 0 || access("/proc/sys/vm/drop_caches", W_OK) != 0 ||
	    statfs("/dev/shm", &sf) != 0 || sf.f_type != 0x01021994 /* TMPFS_MAGIC */)
		skip();
	struct testdir shm;
	assert_int_equal(testdir_make_in(&shm, "/dev/shm", "ls"), 0);
	struct action_result r = ls_dropped(shm.fd);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.cold, 0);
	assert_int_equal(testdir_remove(&shm, TESTDIR_TREE), 0);
}

static void test_exec(void **state)
{
	(void)state;
	struct action_config c;
	action_config_default(&c);
	struct action a;
	char err[300];
	/* the default: a program copied into the work directory, started there */
	assert_int_equal(action_prepare(&a, ACTION_EXEC, &c, td.fd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), 0);
	assert_string_equal(a.argv[0], "./ld.so");   /* from prog/ */
	assert_non_null(a.prog.argv);
	assert_true(a.n_files >= 3 && a.files[0][0] != '/');
	assert_true(a.cold_bytes > 0 && a.cold_files > 0);
	assert_string_equal(a.where, "");
	struct action_result r = sample(&a, ACTION_EVICT_FADVISE);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.cold, 1);
	action_free(&a);

	/* --exec: in place */
	c.exec_cmd = "ls --version";
	assert_int_equal(action_prepare(&a, ACTION_EXEC, &c, td.fd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), 0);
	assert_string_equal(a.argv[1], "--version");
	assert_true(a.argv[0][0] == '/');
	/* the binary, libc and the dynamic loader at least */
	assert_true(a.n_files >= 3);
	int libc = 0, ldso = 0;
	for (size_t i = 0; i < a.n_files; i++) {
		libc |= strstr(a.files[i], "libc.so") != NULL;
		ldso |= strstr(a.files[i], "ld-linux") != NULL || strstr(a.files[i], "ld-") != NULL;
	}
	assert_true(libc && ldso);
	r = sample(&a, ACTION_EVICT_FADVISE);
	assert_int_equal(r.err, 0);
	action_free(&a);

	c.exec_cmd = "false";
	assert_int_equal(action_prepare(&a, ACTION_EXEC, &c, td.fd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), 0);
	r = sample(&a, ACTION_EVICT_FADVISE);
	assert_int_equal(r.err, 1000 + 1);   /* exit status recorded, not hidden */
	action_free(&a);

	/* a program that cannot be started: its errno, not an exit status */
	c.exec_cmd = "true";
	assert_int_equal(action_prepare(&a, ACTION_EXEC, &c, td.fd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), 0);
	free(a.argv[0]);
	a.argv[0] = strdup("/nonexistent/brisk-no-program");
	r = sample(&a, ACTION_EVICT_FADVISE);
	assert_int_equal(r.err, ENOENT);
	action_free(&a);

	c.exec_cmd = "no-such-program-brisk";
	assert_int_equal(action_prepare(&a, ACTION_EXEC, &c, td.fd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no-such-program-brisk"));
	action_free(&a);
}

static void test_resident(void **state)
{
	(void)state;
	char p[64];
	snprintf(p, sizeof(p), "%s/r", td.path);
	int fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	char buf[8192] = { 1 };
	assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(action_resident_pages(p), 2);      /* dirty: cached */
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	assert_int_equal(action_resident_pages(p), 0);
	close(fd);
	unlink(p);
	assert_int_equal(action_resident_pages(p), -ENOENT);
}

/* Names in the work directory that are already there (links planted by
 * someone who swapped the directory) are never followed: prepare creates
 * O_EXCL|O_NOFOLLOW, samples open relative to the descriptor O_NOFOLLOW. */
static void test_no_follow(void **state)
{
	(void)state;
	char victim[] = "build/ut-action-victim.XXXXXX";
	int vfd = mkstemp(victim);
	assert_true(vfd >= 0);
	assert_int_equal(write(vfd, "keep", 4), 4);
	close(vfd);
	char target[PATH_MAX], err[300];
	assert_non_null(realpath(victim, target));
	int sfd = subdir("nf");
	struct action_config c;
	action_config_default(&c);
	c.ssh_file = 1 << 20;
	c.ssh_region = 256 << 10;
	c.ls_files = 5;
	struct action a;
	assert_int_equal(symlinkat(target, sfd, "save.dat"), 0);
	assert_int_equal(symlinkat(target, sfd, "ssh-like.dat"), 0);
	assert_int_equal(symlinkat(td.path, sfd, "tree"), 0);
	assert_int_equal(action_prepare(&a, ACTION_SAVE, &c, sfd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), -EEXIST);
	action_free(&a);
	assert_int_equal(action_prepare(&a, ACTION_SSH, &c, sfd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), -EEXIST);
	action_free(&a);
	assert_int_equal(action_prepare(&a, ACTION_LS, &c, sfd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), -EEXIST);
	action_free(&a);
	/* swapped after prepare: the sample fails, the link's target is untouched */
	assert_int_equal(unlinkat(sfd, "save.dat", 0), 0);
	assert_int_equal(action_prepare(&a, ACTION_SAVE, &c, sfd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), 0);
	assert_int_equal(unlinkat(sfd, "save.dat", 0), 0);
	assert_int_equal(symlinkat(target, sfd, "save.dat"), 0);
	struct action_result r = sample(&a, ACTION_EVICT_FADVISE);
	assert_int_equal(r.err, ELOOP);
	action_free(&a);
	struct stat st;
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_size, 4);
	close(sfd);
	unlink(victim);
}

/* Who samples run as: as root SUDO_UID/SUDO_GID when both are valid and
 * not 0, else nobody; without root brisk's own user, nothing to drop. */
static void test_cred_resolve(void **state)
{
	(void)state;
	char *su = getenv("SUDO_UID"), *sg = getenv("SUDO_GID");
	char *osu = su ? strdup(su) : NULL, *osg = sg ? strdup(sg) : NULL;
	struct child_cred c;
	const struct passwd *pw = getpwnam("nobody");
	uid_t nob = pw ? pw->pw_uid : 65534;
	gid_t nobg = pw ? pw->pw_gid : 65534;
	static const char *const cases[][3] = {   /* SUDO_UID, SUDO_GID, taken */
		{ "1234", "2345", "y" }, { "0", "2345", "" }, { "1234", "0", "" },
		{ "12x", "2345", "" }, { "1234", NULL, "" }, { NULL, NULL, "" },
		{ "-1", "2345", "" }, { "99999999999", "1", "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i][0])
			setenv("SUDO_UID", cases[i][0], 1);
		else
			unsetenv("SUDO_UID");
		if (cases[i][1])
			setenv("SUDO_GID", cases[i][1], 1);
		else
			unsetenv("SUDO_GID");
		child_cred_resolve(&c);
		if (geteuid() != 0) {
			assert_int_equal(c.drop, 0);
			assert_int_equal(c.uid, geteuid());
			continue;
		}
		assert_int_equal(c.drop, 1);
		assert_int_equal(c.uid, cases[i][2][0] ? 1234 : nob);
		assert_int_equal(c.gid, cases[i][2][0] ? 2345 : nobg);
		if (!cases[i][2][0] && pw)
			assert_string_equal(c.user, "nobody");
	}
	if (osu)
		setenv("SUDO_UID", osu, 1);
	else
		unsetenv("SUDO_UID");
	if (osg)
		setenv("SUDO_GID", osg, 1);
	else
		unsetenv("SUDO_GID");
	free(osu);
	free(osg);
}

/* After child_drop: the user, no groups, no capability, no way back to
 * root, no new privileges, and the death signal set again. */
static void test_drop(void **state)
{
	(void)state;
	struct child_cred c;
	child_cred_resolve(&c);
	pid_t pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || child_drop(&c) < 0)
			_exit(10);
		struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
		struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
		int sig = 0;
		if (getuid() != c.uid || geteuid() != c.uid || getegid() != c.gid)
			_exit(11);
		if (c.drop && (setuid(0) == 0 || getgroups(0, NULL) != 0))
			_exit(12);
		if (syscall(SYS_capget, &h, d) < 0 || d[0].effective || d[0].permitted ||
		    d[1].effective || d[1].permitted)
			_exit(13);
		if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
			_exit(14);
		if (prctl(PR_GET_PDEATHSIG, &sig) < 0 || sig != SIGKILL)
			_exit(15);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* A sample that cannot drop runs nothing and says why (never as root). */
static void test_drop_fails(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	int sfd = subdir("df");
	struct action_config c;
	action_config_default(&c);
	struct action a;
	char err[300];
	assert_int_equal(action_prepare(&a, ACTION_SAVE, &c, sfd, ACTION_EVICT_FADVISE, err,
					sizeof(err)), 0);
	a.run_as.uid = 0;   /* "drop" to root: refused */
	struct action_result r = sample(&a, ACTION_EVICT_FADVISE);
	assert_int_equal(r.err, EINVAL);
	char buf[16];
	int fd = openat(sfd, a.path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	close(fd);
	assert_memory_not_equal(buf, "ssssssssssssssss", sizeof(buf));   /* not rewritten */
	action_free(&a);
	close(sfd);
}

static int setup(void **state)
{
	(void)state;
	return testdir_make(&td, "action");
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_TREE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_ssh_like),
		cmocka_unit_test(test_ls_and_save),
		cmocka_unit_test(test_drop_caches),
		cmocka_unit_test(test_ls_warm_without_reads),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_resident),
		cmocka_unit_test(test_no_follow),
		cmocka_unit_test(test_cred_resolve),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_drop_fails),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
