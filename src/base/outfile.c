#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"


int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
	o->path = path;
	o->tmp[0] = '\0';
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	if (snprintf(o->tmp, sizeof(o->tmp), "%s.tmpXXXXXX", path) >= (int)sizeof(o->tmp))
		return msg_fail(-ENAMETOOLONG, err, errlen, "%s: path too long", path);
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		o->tmp[0] = '\0';
		return msg_fail(-e, err, errlen, "cannot write %s: %s (is the directory there "
				"and writable?)", path, strerror(e));
	}
	fchmod(fd, 0644);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		return msg_fail(-e, err, errlen, "cannot write %s: %s", path, strerror(e));
	}
	return 0;
}

int outfile_place(const char *tmp, const char *path, int clobber)
{
	struct stat st;
	if (clobber) {
		/* only a regular file is replaced: as root, --json /dev/null or
		 * /dev/stdout (a link) would otherwise become a file in /dev, and
		 * a link someone planted is neither followed nor removed */
		if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
			return -EINVAL;
		return rename(tmp, path) < 0 ? -errno : 0;
	}
	if (link(tmp, path) == 0) {
		unlink(tmp);
		return 0;
	}
	if (errno != EPERM && errno != ENOTSUP && errno != ENOSYS)
		return -errno;
	if (access(path, F_OK) == 0)
		return -EEXIST;
	return rename(tmp, path) < 0 ? -errno : 0;
}

int outfile_close(struct outfile *o, int ok, int clobber,
		  int (*check)(struct outfile *o, char *err, size_t errlen), char *err,
		  size_t errlen)
{
	int e = ferror(o->f) ? (errno ? errno : EIO) : 0;
	if (o->f == stdout) {
		if (fflush(stdout) != 0 && !e)
			e = errno;
		if (e && ok)
			return msg_fail(-EIO, err, errlen, "stdout: write failed: %s", strerror(e));
		return 0;
	}
	if (fflush(o->f) != 0 && !e)
		e = errno;
	if (!e && fsync(fileno(o->f)) != 0)
		e = errno;
	if (fclose(o->f) != 0 && !e)
		e = errno;
	o->f = NULL;
	int rc = 0;
	if (!ok)
		rc = -1;
	else if (e)
		rc = msg_fail(-e, err, errlen, "cannot write %s: %s", o->path, strerror(e));
	else if (check && (rc = check(o, err, errlen)) < 0)
		;
	else if ((rc = outfile_place(o->tmp, o->path, clobber)) < 0) {
		if (rc == -EEXIST)
			msg_set(err, errlen, "%s exists", o->path);
		else if (rc == -EINVAL)
			msg_set(err, errlen, "%s is not a regular file (a symbolic link, device, "
				"FIFO, socket or directory): not replaced ('-' is standard output)",
				o->path);
		else
			msg_set(err, errlen, "cannot write %s: %s", o->path, strerror(-rc));
	}
	if (rc < 0)
		unlink(o->tmp);
	return rc;
}


int outfile_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (strcmp(path, "-") == 0)
		return 0;
	if (lstat(path, &st) == 0) {
		if (S_ISREG(st.st_mode))
			return 0;
		return msg_fail(-EINVAL, err, errlen, "%s is not a regular file (%s): brisk "
				"replaces only a regular file; name another file", path,
				S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ?
				"a directory" : "a device, FIFO or socket");
	}
	if (errno != ENOENT)
		return msg_fail(-errno, err, errlen, "%s: %s", path, strerror(errno));
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else if ((size_t)(slash - path) < sizeof(dir))
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	else
		return msg_fail(-ENAMETOOLONG, err, errlen, "%.100s...: name too long", path);
	if (stat(dir, &st) != 0)
		return msg_fail(-errno, err, errlen, "%s: its directory %s: %s", path, dir,
				strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return msg_fail(-ENOTDIR, err, errlen, "%s: %s is not a directory", path, dir);
	if (access(dir, W_OK | X_OK) != 0)
		return msg_fail(-errno, err, errlen, "%s: cannot write in %s: %s", path, dir,
				strerror(errno));
	return 0;
}
