/* session_work — a directory's checks (session_create) and one work area
 * DIR/.brisk-XXXXXX (or a load directory's): made, owned, emptied and
 * removed by descriptor; work areas of killed runs collected (session.h;
 * brisk-run(1)).  session_area.c does it for each area. */
#include "session_priv.h"
#include "msg.h"
#include "stats.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *pseudo_fs(long type)
{
	switch (type) {
	case 0x9fa0: return "proc";
	case 0x62656572: return "sysfs";
	case 0x1cd1: return "devpts";
	case 0x27e0eb: return "cgroup";
	case 0x63677270: return "cgroup2";
	case 0x64626720: return "debugfs";
	case 0x74726163: return "tracefs";
	case 0x73636673: return "securityfs";
	case 0xcafe4a11: return "bpf";
	case 0x62656570: return "configfs";
	case 0x6165676c: return "pstore";
	case 0xde5e81e4: return "efivarfs";
	}
	return NULL;
}

/* Can someone other than root, brisk's user and the user who ran sudo
 * (trusted_uid) write the directory?  Then why in why, 1; else 0. */
static int dir_shared(const struct stat *st, uid_t trusted, char *why, size_t len)
{
	if (st->st_uid != 0 && st->st_uid != geteuid() && st->st_uid != trusted) {
		snprintf(why, len, "it belongs to uid %u, neither root nor the user who ran "
			 "sudo", (unsigned)st->st_uid);
		return 1;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX)) {
		snprintf(why, len, "it is %s-writable (mode %04o) without the sticky bit",
			 st->st_mode & S_IWOTH ? "world" : "group", (unsigned)(st->st_mode & 07777));
		return 1;
	}
	return 0;
}

int session_dir_check(const struct session_config *cfg, const char *dir, int dfd,
		      char *err, size_t errlen)
{
	struct statfs sf;
	const char *pseudo = fstatfs(dfd, &sf) == 0 ? pseudo_fs((long)sf.f_type) : NULL;
	if (pseudo)
		return msg_fail(-ENODEV, err, errlen, "no block device behind %s (it is on %s, "
			    "a kernel file system): give a directory on a disk", dir, pseudo);
	if (access(dir, W_OK | X_OK) < 0)
		return msg_fail(-errno, err, errlen, "%s: not writable (%s); brisk needs to create "
			    "its own subdirectory there", dir, strerror(errno));
	struct stat st;
	char why[160];
	if (fstat(dfd, &st) < 0)
		return msg_fail(-errno, err, errlen, "%s: %s", dir, strerror(errno));
	if (geteuid() == 0 && !cfg->allow_shared_dir && dir_shared(&st, cfg->trusted_uid, why,
								     sizeof(why)))
		return msg_fail(-EPERM, err, errlen, "%s: other users can write this directory "
			    "(%s); brisk runs as root and refuses it (--allow-shared-dir runs "
			    "anyway)", dir, why);
	return 0;
}

/* ---- the work directory ----
 *
 * The work area is reached only through descriptors: dir_fd (DIR, opened
 * once by session_create) and work_fd (DIR/.brisk-X, opened O_NOFOLLOW right
 * after mkdirat and checked).  Nothing walks a path string after that: a user
 * who can write DIR may rename .brisk-X and plant links, and gains nothing. */

static int is_dot(const char *n)
{
	return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2]));
}

/* Remove everything inside the directory dfd (taken: closed here), never
 * following a link and never crossing into another file system. */
static int empty_dir(int dfd, dev_t dev, int depth)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		int e = errno;
		close(dfd);
		return -e;
	}
	int rc = 0;
	struct dirent *e;
	while ((errno = 0, e = readdir(d))) {
		if (is_dot(e->d_name))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				rc = -errno;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (st.st_dev != dev || depth >= 16) {
				rc = -EXDEV;
				continue;
			}
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int r = sub < 0 ? -errno : empty_dir(sub, dev, depth + 1);
			if (r < 0)
				rc = r;
			if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) < 0 && errno != ENOENT)
				rc = -errno;
		} else if (unlinkat(dirfd(d), e->d_name, 0) < 0 && errno != ENOENT) {
			rc = -errno;
		}
	}
	if (errno && !rc)
		rc = -errno;
	closedir(d);
	return rc;
}

/* Empty our work directory through its descriptor, then remove its name
 * from DIR only if that name still is our directory. */
int session_work_remove(struct session *s, struct session_area *a)
{
	if (!a->work_name[0])
		return 0;
	int rc = 0;
	if (a->work_fd >= 0) {
		rc = empty_dir(a->work_fd, a->work_dev, 0);
		a->work_fd = -1;
		if (rc < 0)
			session_msg(s, "could not remove all of %s: %s", a->workdir, strerror(-rc));
	}
	struct stat st;
	int ours = fstatat(a->dir_fd, a->work_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		   S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
		   (a->work_ino ? st.st_dev == a->work_dev && st.st_ino == a->work_ino
				: (st.st_mode & 07777) == 0700);
	if (!ours) {
		session_msg(s, "%s was renamed or replaced while brisk ran (by someone who can "
			    "write %s): nothing was followed there; brisk's files were removed "
			    "and its empty directory is left where it was moved", a->workdir,
			    a->dir);
		a->work_name[0] = '\0';
		return -EXDEV;
	}
	if (unlinkat(a->dir_fd, a->work_name, AT_REMOVEDIR) < 0 && errno != ENOENT) {
		rc = -errno;
		session_msg(s, "could not remove %s: %s", a->workdir, strerror(errno));
	}
	a->work_name[0] = '\0';
	return rc;
}

/* Is the work directory wfd an orphan?  Its owner file's lock is free (its
 * brisk is gone), or it has no owner file, is empty and was last changed
 * more than ORPHAN_EMPTY_AGE seconds ago (a brisk that could not make the
 * owner file; a live run makes it at once after the directory). */
static int workdir_orphaned(int wfd, const struct stat *wst)
{
	int fd = openat(wfd, "owner", O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		int free_lock = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type == F_UNLCK;
		close(fd);
		return free_lock;
	}
	if (errno != ENOENT || time(NULL) - wst->st_mtime < ORPHAN_EMPTY_AGE)
		return 0;
	int dup_fd = openat(wfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return 0;
	}
	int empty = 1;
	struct dirent *e;
	while (empty && (e = readdir(d)))
		empty = is_dot(e->d_name);
	closedir(d);
	return empty;
}

static int workdir_name(const char *n)
{
	return strncmp(n, ".brisk-", 7) == 0 && strlen(n) == 13;
}

/* Remove the work directories a SIGKILLed brisk left in DIR: by descriptor,
 * only directories of ours on DIR's file system, never through a link. */
void session_work_reap_orphans(struct session *s, struct session_area *a)
{
	int fd = openat(a->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct stat dst;
	if (fstat(a->dir_fd, &dst) < 0) {
		closedir(d);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!workdir_name(e->d_name))
			continue;
		struct stat st, wst;
		if (fstatat(a->dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || st.st_dev != dst.st_dev)
			continue;
		int wfd = openat(a->dir_fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (wfd < 0)
			continue;
		if (fstat(wfd, &wst) < 0 || wst.st_ino != st.st_ino || wst.st_dev != st.st_dev ||
		    !workdir_orphaned(wfd, &wst)) {
			close(wfd);
			continue;
		}
		int rc = empty_dir(wfd, wst.st_dev, 0);
		/* the name must still be the directory just emptied */
		if (rc == 0 && fstatat(a->dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_ino == wst.st_ino && st.st_dev == wst.st_dev &&
		    unlinkat(a->dir_fd, e->d_name, AT_REMOVEDIR) == 0)
			session_msg(s, "removed %s/%s, left by a brisk run that was killed",
				    a->dir, e->d_name);
	}
	closedir(d);
}

/* Create the owner file of our work directory and hold its lock (record
 * locks are not inherited by the children, and go when we die). */
int session_work_own(struct session_area *a)
{
	int fd = openat(a->work_fd, "owner", O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0600);
	if (fd < 0)
		return -errno;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(fd, F_SETLK, &fl) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	dprintf(fd, "%ld\n", (long)getpid());
	a->owner_fd = fd;
	return 0;
}

/* mkdirat a fresh DIR/.brisk-XXXXXX, open it O_NOFOLLOW and check it is the
 * directory just made: ours, 0700, on DIR's file system. */
int session_work_make(struct session *s, struct session_area *a, char *err, size_t errlen)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct stat dst, st;
	if (fstat(a->dir_fd, &dst) < 0)
		return msg_fail(-errno, err, errlen, "%s: %s", a->dir, strerror(errno));
	int rc = -EEXIST;
	for (int tries = 0; tries < 100 && rc == -EEXIST; tries++) {
		unsigned char rnd[6];
		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			for (size_t i = 0; i < sizeof(rnd); i++)
				rnd[i] = (unsigned char)stats_rand_next(&s->run->rng);
		char name[16] = ".brisk-";
		for (size_t i = 0; i < sizeof(rnd); i++)
			name[7 + i] = chars[rnd[i] % (sizeof(chars) - 1)];
		name[13] = '\0';
		rc = mkdirat(a->dir_fd, name, 0700) < 0 ? -errno : 0;
		if (rc == 0)
			memcpy(a->work_name, name, sizeof(name));
	}
	if (rc < 0)
		return msg_fail(rc, err, errlen, "%s: cannot create a work directory: %s", a->dir,
			    strerror(-rc));
	snprintf(a->workdir, sizeof(a->workdir), "%.4000s/%s", a->dir, a->work_name);
	int fd = openat(a->dir_fd, a->work_name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return msg_fail(-errno, err, errlen, "%s: cannot open the work directory just made: "
			    "%s", a->workdir, strerror(errno));
	if (fstat(fd, &st) < 0 || fchmod(fd, 0700) < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return msg_fail(-e, err, errlen, "%s: %s", a->workdir, strerror(e));
	}
	if (st.st_uid != geteuid() || (st.st_mode & 07777) != 0700 || st.st_dev != dst.st_dev) {
		close(fd);
		/* not the directory we made: someone swapped it; leave that name */
		a->work_name[0] = '\0';
		return msg_fail(-EPERM, err, errlen, "%s was replaced as soon as it was made (by "
			    "someone who can write %s): nothing was run", a->workdir, a->dir);
	}
	a->work_fd = fd;
	a->work_dev = st.st_dev;
	a->work_ino = st.st_ino;
	return 0;
}
