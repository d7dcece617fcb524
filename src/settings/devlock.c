#include "devlock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundir.h"
#include "trace.h"
#include "tunable.h"

static int name_ok(const char *name, char *file, size_t len)
{
	if (!tunable_valid_devname(name) && !(strncmp(name, "dev-", 4) == 0 &&
					      tunable_valid_devname(name + 4)))
		return -EINVAL;
	int n = snprintf(file, len, "%s.lock", name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

static pid_t who(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(fd, F_GETLK, &fl) < 0 || fl.l_type == F_UNLCK)
		return 0;
	return fl.l_pid;
}

/* Is fd still the file FILE in DFD?  A holder unlinks the file on release,
 * so a process that opened it before that must start again on the new one. */
static int still_linked(int fd, int dfd, const char *file)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && fstatat(dfd, file, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int devlock_acquire(int dfd, const char *name, int *fd, pid_t *holder)
{
	char file[64];
	int rc = name_ok(name, file, sizeof(file));
	if (rc < 0)
		return rc;
	if (holder)
		*holder = 0;
	for (;;) {
		int f = openat(dfd, file, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			       0644);
		if (f < 0)
			return -errno;
		/* a lock file someone else made or can write is not ours */
		rc = rundir_check_file(f, file, 0, NULL, 0);
		if (rc == -ENOENT) {   /* removed meanwhile */
			close(f);
			continue;
		}
		if (rc < 0) {
			close(f);
			return rc;
		}
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		if (fcntl(f, F_SETLK, &fl) < 0) {
			rc = -errno;
			if (rc == -EAGAIN || rc == -EACCES) {
				rc = -EBUSY;
				if (holder)
					*holder = who(f);
			}
			close(f);
			return rc;
		}
		if (!still_linked(f, dfd, file)) {   /* released and removed meanwhile */
			close(f);
			continue;
		}
		char buf[32];
		int n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
		if (ftruncate(f, 0) == 0 && pwrite(f, buf, (size_t)n, 0) != n) {
			/* the pid in the file is for people; the lock itself holds */
		}
		*fd = f;
		return 0;
	}
}

pid_t devlock_holder(int dfd, const char *name)
{
	char file[64];
	struct stat st;
	if (name_ok(name, file, sizeof(file)) < 0)
		return 0;
	int f = openat(dfd, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (f < 0)
		return 0;
	pid_t p = fstat(f, &st) == 0 && S_ISREG(st.st_mode) ? who(f) : 0;
	close(f);
	return p;
}

void devlock_release(int dfd, const char *name, int fd)
{
	if (fd < 0)
		return;
	char file[64];
	/* Unlinked while still held: nothing is left behind, and whoever opened
	 * it meanwhile sees it is stale (still_linked) and starts again. */
	if (name_ok(name, file, sizeof(file)) == 0)
		unlinkat(dfd, file, 0);
	close(fd);
}

int devlock_remove_stale(int dfd, const char *dir, const char *file, int dry_run,
			 pid_t *last, char *why, size_t whylen)
{
	char name[64], path[PATH_MAX];
	size_t l = strlen(file);
	*last = 0;
	if (l <= 5 || l - 5 >= sizeof(name) || strcmp(file + l - 5, ".lock") != 0)
		return 0;
	memcpy(name, file, l - 5);
	name[l - 5] = '\0';
	char lockfile[64];
	if (name_ok(name, lockfile, sizeof(lockfile)) < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	/* the runtime dir's rules, before anything is opened: a regular file
	 * of the euid, one link, not group/other-writable (never a link) */
	int rc = rundir_check_entry(dfd, dir, file, 0, why, whylen);
	if (rc < 0)
		return rc == -ENOENT ? 0 : rc;
	int f = openat(dfd, file, (dry_run ? O_RDONLY : O_RDWR) | O_NOFOLLOW | O_NONBLOCK |
		       O_CLOEXEC);
	if (f < 0)
		return errno == ENOENT ? 0 : -errno;
	rc = rundir_check_file(f, path, 0, why, whylen);
	/* a dry run only asks: it takes no lock someone could trip over */
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (rc < 0 || (dry_run ? who(f) != 0 : fcntl(f, F_SETLK, &fl) < 0)) {
		int e = rc < 0 && rc != -ENOENT ? rc : 0;   /* not ours; else held: live */
		trace(TRACE_JOURNAL, "%s: %s", path, e ? why : "held or gone: left alone");
		close(f);
		return e;
	}
	/* locked by us now: is it still the file at that name? */
	if (!still_linked(f, dfd, file)) {
		close(f);
		return 0;
	}
	char buf[24] = "";
	ssize_t n = pread(f, buf, sizeof(buf) - 1, 0);
	if (n > 0) {
		buf[n] = '\0';
		*last = (pid_t)strtol(buf, NULL, 10);
	}
	/* removed while locked, as devlock_release does: an acquirer that
	 * opened it meanwhile sees it is gone and starts again on a new one */
	rc = dry_run || unlinkat(dfd, file, 0) == 0 ? 1 : -errno;
	trace(TRACE_JOURNAL, "%s: nobody holds it (last pid %ld): %s", path, (long)*last,
	      rc == 1 ? (dry_run ? "would remove it" : "removed") : strerror(-rc));
	close(f);
	return rc;
}
