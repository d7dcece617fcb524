#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* off < 0: write() at the file position; else pwrite() from off */
static int put_all(int fd, const char *buf, size_t n, off_t off)
{
	while (n) {
		ssize_t w = off < 0 ? write(fd, buf, n) : pwrite(fd, buf, n, off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += w;
		n -= (size_t)w;
		if (off >= 0)
			off += w;
	}
	return 0;
}

int fileio_write_all(int fd, const void *buf, size_t n)
{
	return put_all(fd, buf, n, -1);
}

int fileio_pwrite_all(int fd, const void *buf, size_t n, off_t off)
{
	return off < 0 ? -EINVAL : put_all(fd, buf, n, off);
}

int fileio_pread_all(int fd, void *buf, size_t n, off_t off)
{
	for (size_t got = 0; got < n;) {
		ssize_t r = pread(fd, (char *)buf + got, n - got, off + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		got += (size_t)r;
	}
	return 0;
}

int fileio_read_file(const char *path, size_t max, char **buf, size_t *n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	int rc = 0;
	char *b = NULL;
	size_t got = 0;
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	else if ((uint64_t)st.st_size > max)
		rc = -EFBIG;
	else if (!(b = malloc(max + 1)))
		rc = -ENOMEM;
	while (rc == 0) {
		if (got > max) {
			rc = -EFBIG;
			break;
		}
		ssize_t r = read(fd, b + got, max + 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			rc = -errno;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (rc < 0) {
		free(b);
		return rc;
	}
	b[got] = '\0';
	*buf = b;
	*n = got;
	return 0;
}

int fileio_mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);
	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

void fileio_abspath(char *out, size_t len, const char *path, int resolve)
{
	char *r = resolve && path && path[0] ? realpath(path, NULL) : NULL;
	char cwd[PATH_MAX];
	if (r)
		snprintf(out, len, "%s", r);
	else if (path && path[0] && path[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(out, len, "%s%s%s", cwd, strcmp(cwd, "/") ? "/" : "", path);
	else
		snprintf(out, len, "%s", path ? path : "");
	free(r);
}
