/* testdir — the scratch directory of a unit test that does real I/O:
 * build/ut-NAME.XXXXXX (on the disk the tree is on, not a tmpfs), opened
 * as a directory descriptor for the *at() calls the engine makes, and
 * removed after the group.  Header-only: each tests/unit/test_*.c is one
 * program linked against build/libbrisk.a.
 *
 *   static struct testdir td;
 *   static int setup(void **s) { (void)s; return testdir_make(&td, "load"); }
 *   static int teardown(void **s) { (void)s; return testdir_remove(&td, TESTDIR_EMPTY); }
 *
 * TESTDIR_EMPTY makes the teardown fail when a test left a file behind
 * (the engine must clean up after itself); TESTDIR_TREE removes whatever
 * is there, never following a symbolic link.  abs is the same directory
 * as an absolute path, for what needs one (XDG_CONFIG_HOME, HOME).
 * testdir_make_in puts it elsewhere (a test that wants a tmpfs). */
#ifndef BRISK_TESTS_TESTDIR_H
#define BRISK_TESTS_TESTDIR_H

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum testdir_end { TESTDIR_EMPTY, TESTDIR_TREE };

struct testdir {
	char path[40];   /* build/ut-NAME.XXXXXX (short: tests append to it) */
	char abs[256];   /* $PWD/build/ut-NAME.XXXXXX (or path, when absolute) */
	int fd;          /* O_DIRECTORY; -1 when not open */
};

/* PARENT/ut-NAME.XXXXXX, PARENT an existing directory (/dev/shm for a
 * test that wants a tmpfs): 0, or -1. */
static inline int testdir_make_in(struct testdir *t, const char *parent, const char *name)
{
	char cwd[200] = "";
	t->fd = -1;
	if (snprintf(t->path, sizeof(t->path), "%s/ut-%s.XXXXXX", parent, name) >= (int)sizeof(t->path))
		return -1;
	if ((t->path[0] != '/' && !getcwd(cwd, sizeof(cwd))) || !mkdtemp(t->path))
		return -1;
	snprintf(t->abs, sizeof(t->abs), "%s%s%s", cwd, cwd[0] ? "/" : "", t->path);
	t->fd = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return t->fd < 0 ? -1 : 0;
}

/* build/ut-NAME.XXXXXX: 0, or -1 (then cmocka skips the group's tests as
 * failed setup). */
static inline int testdir_make(struct testdir *t, const char *name)
{
	mkdir("build", 0755);
	return testdir_make_in(t, "build", name);
}

static inline int testdir_rm_(const char *p, const struct stat *sb, int f, struct FTW *w)
{
	(void)sb;
	(void)w;
	return f == FTW_DP ? rmdir(p) : unlink(p);
}

/* Close the descriptor and remove the directory: 0, or -1. */
static inline int testdir_remove(struct testdir *t, enum testdir_end how)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (how == TESTDIR_TREE)
		return nftw(t->path, testdir_rm_, 8, FTW_DEPTH | FTW_PHYS);
	return rmdir(t->path);
}

#endif
