/* rundir — the runtime directory, opened once and checked; see rundir.h. */
#include "rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"

int rundir_system_path(char *buf, size_t len)
{
	const char *env = getenv("BRISK_RUNTIME_DIR");
	int n = snprintf(buf, len, "%s", env && *env ? env : RUNDIR_SYSTEM);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int rundir_path(char *buf, size_t len)
{
	const char *env = getenv("BRISK_RUNTIME_DIR");
	int n;
	if (env && *env) {
		n = snprintf(buf, len, "%s", env);
	} else if (geteuid() == 0) {
		n = snprintf(buf, len, RUNDIR_SYSTEM);
	} else {
		const char *x = getenv("XDG_RUNTIME_DIR");
		if (!x || !*x)
			return -ENOENT;
		n = snprintf(buf, len, "%s/brisk", x);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int owner_ok(uid_t uid, int flags)
{
	return uid == geteuid() || ((flags & RUNDIR_READ) && uid == 0);
}

static int owner_fail(const struct stat *st, const char *path, int flags, char *why,
		      size_t whylen)
{
	if (flags & RUNDIR_READ)
		return msg_fail(-EPERM, why, whylen, "%s: owned by uid %ld, not by root nor "
				"by uid %ld (who runs brisk)", path, (long)st->st_uid,
				(long)geteuid());
	return msg_fail(-EPERM, why, whylen, "%s: owned by uid %ld, not by uid %ld "
			"(who runs brisk)", path, (long)st->st_uid, (long)geteuid());
}

static int mode_fail(const struct stat *st, const char *path, char *why, size_t whylen)
{
	return msg_fail(-EPERM, why, whylen, "%s: writable by %s (mode %04o)", path,
			(st->st_mode & 022) == 022 ? "its group and others" :
			(st->st_mode & 002) ? "others" : "its group",
			(unsigned)(st->st_mode & 07777));
}

static int check_dir_stat(const struct stat *st, const char *path, int flags, char *why,
			  size_t whylen)
{
	if (!S_ISDIR(st->st_mode))
		return msg_fail(-EPERM, why, whylen, "%s: not a directory", path);
	if (!owner_ok(st->st_uid, flags))
		return owner_fail(st, path, flags, why, whylen);
	if (st->st_mode & 022)
		return mode_fail(st, path, why, whylen);
	return 0;
}

static int check_file_stat(const struct stat *st, const char *path, int flags, char *why,
			   size_t whylen)
{
	if (S_ISLNK(st->st_mode))
		return msg_fail(-EPERM, why, whylen, "%s: a symbolic link", path);
	if (!S_ISREG(st->st_mode))
		return msg_fail(-EPERM, why, whylen, "%s: not a regular file", path);
	if (st->st_nlink == 0)
		return -ENOENT;
	if (st->st_nlink != 1)
		return msg_fail(-EPERM, why, whylen, "%s: has %lu hard links", path,
				(unsigned long)st->st_nlink);
	if (!owner_ok(st->st_uid, flags))
		return owner_fail(st, path, flags, why, whylen);
	if (st->st_mode & 022)
		return mode_fail(st, path, why, whylen);
	return 0;
}

/* openat() of a directory entry, NAME refused when it is a symlink; full
 * is the path so far, for messages. */
static int open_component(int at, const char *name, const char *full, int oflags,
			  char *why, size_t whylen)
{
	int fd = openat(at, name, oflags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	int e = errno;
	struct stat st;
	if ((e == ELOOP || e == ENOTDIR) &&
	    fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return msg_fail(-EPERM, why, whylen, "%s: a symbolic link", full);
	if (e == ENOTDIR)
		return msg_fail(-EPERM, why, whylen, "%s: not a directory", full);
	return msg_fail(-e, why, whylen, "%s: %s", full, strerror(e));
}

/* Open directory name in at (shown as full) without following a link, and
 * check it (check_dir_stat); *fd on success. */
static int open_dir_checked(int at, const char *name, const char *full, int flags, int *fd,
			    char *why, size_t whylen)
{
	int d = open_component(at, name, full, O_RDONLY, why, whylen);
	if (d < 0)
		return d;
	struct stat st;
	int rc = fstat(d, &st) < 0 ? msg_fail(-errno, why, whylen, "%s: %s", full, strerror(errno))
				   : check_dir_stat(&st, full, flags, why, whylen);
	if (rc < 0) {
		close(d);
		return rc;
	}
	*fd = d;
	return 0;
}

int rundir_open_at(const char *path, int flags, int *fd, char *why, size_t whylen)
{
	char buf[PATH_MAX], full[PATH_MAX];
	if (!path || !*path)
		return msg_fail(-ENOENT, why, whylen, "no runtime directory");
	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return msg_fail(-ENAMETOOLONG, why, whylen, "%.64s...: too long", path);
	/* the last component, without trailing slashes */
	size_t n = strlen(buf);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	int at = AT_FDCWD;
	char *p = buf;
	full[0] = '\0';
	if (*p == '/') {
		at = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (at < 0)
			return msg_fail(-errno, why, whylen, "/: %s", strerror(errno));
		snprintf(full, sizeof full, "/");
		while (*p == '/')
			p++;
		if (!*p) {   /* "/" itself: refused below (owner, mode) */
			p = (char *)".";
		}
	}
	for (;;) {
		char *slash = strchr(p, '/');
		if (!slash)
			break;
		*slash = '\0';
		size_t fl = strlen(full);
		snprintf(full + fl, sizeof full - fl, "%s%s", fl && full[fl - 1] != '/' ? "/" : "",
			 p);
		if (*p) {
			int nfd = open_component(at, p, full, O_PATH, why, whylen);
			if (at >= 0)
				close(at);
			if (nfd < 0)
				return nfd;
			at = nfd;
		}
		p = slash + 1;
		while (*p == '/')
			p++;
	}
	snprintf(full, sizeof full, "%s", path);
	if (flags & RUNDIR_CREATE) {
		mode_t mode = strcmp(path, RUNDIR_SYSTEM) == 0 ? 0755 : 0700;
		if (mkdirat(at, p, mode) < 0 && errno != EEXIST) {
			int e = errno;
			if (at >= 0)
				close(at);
			return msg_fail(-e, why, whylen, "%s: %s", full, strerror(e));
		}
	}
	int rc = open_dir_checked(at, p, full, flags, fd, why, whylen);
	if (at >= 0)
		close(at);
	return rc;
}

int rundir_open(int flags, int *fd, char *path, size_t pathlen, char *why, size_t whylen)
{
	int rc = rundir_path(path, pathlen);
	if (rc == -ENOENT)
		return msg_fail(rc, why, whylen, "no runtime directory: neither "
				"BRISK_RUNTIME_DIR nor XDG_RUNTIME_DIR is set");
	if (rc < 0)
		return msg_fail(rc, why, whylen, "the runtime directory's path is too long");
	return rundir_open_at(path, flags, fd, why, whylen);
}

int rundir_subdir(int dfd, const char *dirpath, const char *name, int flags, int *fd,
		  char *why, size_t whylen)
{
	char full[PATH_MAX];
	snprintf(full, sizeof full, "%s/%s", dirpath, name);
	if ((flags & RUNDIR_CREATE) && mkdirat(dfd, name, 0755) < 0 && errno != EEXIST)
		return msg_fail(-errno, why, whylen, "%s: %s", full, strerror(errno));
	return open_dir_checked(dfd, name, full, flags, fd, why, whylen);
}

int rundir_check_file(int fd, const char *path, int flags, char *why, size_t whylen)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return msg_fail(-errno, why, whylen, "%s: %s", path, strerror(errno));
	return check_file_stat(&st, path, flags, why, whylen);
}

int rundir_check_entry(int dfd, const char *dirpath, const char *name, int flags,
		       char *why, size_t whylen)
{
	char full[PATH_MAX];
	struct stat st;
	snprintf(full, sizeof full, "%s/%s", dirpath, name);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return msg_fail(-errno, why, whylen, "%s: %s", full, strerror(errno));
	return check_file_stat(&st, full, flags, why, whylen);
}
