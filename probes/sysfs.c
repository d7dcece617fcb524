#include "sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include "trace.h"
#include "str.h"

static int read_fd(int fd, char *buf, size_t len, size_t *n);

int sysfs_read_raw(const char *path, char *buf, size_t len, size_t *n)
{
	if (len == 0)
		return -EINVAL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = fd < 0 ? -errno : read_fd(fd, buf, len, n);
	if (rc < 0 && rc != -EOVERFLOW)
		trace(TRACE_PROBE, "read %s: %s", path, strerror(-rc));
	return rc;
}

/* read(2) that goes on after a signal: bytes read, 0 at the end, -errno. */
static ssize_t read_retry(int fd, char *buf, size_t len)
{
	for (;;) {
		ssize_t r = read(fd, buf, len);
		if (r >= 0 || errno != EINTR)
			return r < 0 ? -errno : r;
	}
}

/* One read(2) of at most room bytes to buf + *off, *off advanced: 1 when
 * it read some, 0 at the end, -errno. */
static int read_more(int fd, char *buf, size_t room, size_t *off)
{
	ssize_t r = read_retry(fd, buf + *off, room);
	if (r <= 0)
		return (int)r;
	*off += (size_t)r;
	return 1;
}

/* Read and close fd. */
static int read_fd(int fd, char *buf, size_t len, size_t *n)
{
	size_t off = 0;
	int rc = 0;
	while (off + 1 < len) {
		int r = read_more(fd, buf, len - 1 - off, &off);
		if (r <= 0) {
			rc = r;
			break;
		}
		/* A sysfs or proc attribute comes whole in one read(2), and a
		 * regular file returns less than asked only at its end: a short
		 * read is the end (saves a syscall per attribute). */
		if (off + 1 < len)
			break;
	}
	if (rc == 0 && off + 1 == len) {
		char extra;
		ssize_t r = read(fd, &extra, 1);
		if (r > 0)
			rc = -EOVERFLOW;
	}
	close(fd);
	buf[off] = '\0';
	if (n)
		*n = off;
	return rc;
}

char *sysfs_trim(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && str_is_space((unsigned char)s[n - 1]))
		s[--n] = '\0';
	size_t lead = 0;
	while (str_is_space((unsigned char)s[lead]))
		lead++;
	if (lead)
		memmove(s, s + lead, n - lead + 1);
	return s;
}

int sysfs_read(const char *path, char *buf, size_t len)
{
	int rc = sysfs_read_raw(path, buf, len, NULL);
	if (rc < 0 && rc != -EOVERFLOW)
		return rc;
	sysfs_trim(buf);
	return rc;
}

int sysfs_readf(char *buf, size_t len, const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return sysfs_read(path, buf, len);
}

static int parse_s64(const char *buf, int64_t *out);

int sysfs_read_s64(const char *path, int64_t *out)
{
	char buf[64];
	int rc = sysfs_read(path, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	return parse_s64(buf, out);
}

int sysfs_dir_open(const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int sysfs_read_at(int dirfd, const char *rel, char *buf, size_t len)
{
	if (len == 0)
		return -EINVAL;
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
	int rc = fd < 0 ? -errno : read_fd(fd, buf, len, NULL);
	if (rc < 0 && rc != -EOVERFLOW) {
		if (trace_on(TRACE_PROBE)) {
			char fdp[64], dir[512];
			snprintf(fdp, sizeof(fdp), "/proc/self/fd/%d", dirfd);
			ssize_t l = readlink(fdp, dir, sizeof(dir) - 1);
			dir[l > 0 ? l : 0] = '\0';
			trace_print(TRACE_PROBE, "read %s/%s: %s", l > 0 ? dir : "...", rel,
				    strerror(-rc));
		}
		return rc;
	}
	sysfs_trim(buf);
	return rc;
}

int sysfs_read_s64_at(int dirfd, const char *rel, int64_t *out)
{
	char buf[64];
	int rc = sysfs_read_at(dirfd, rel, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	return parse_s64(buf, out);
}

static int parse_s64(const char *buf, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

int sysfs_read_u64(const char *path, uint64_t *out)
{
	char buf[64];
	int rc = sysfs_read(path, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	if (buf[0] == '-')
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

static int write_attr(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(value);
	ssize_t w;
	do
		w = write(fd, value, len);
	while (w < 0 && errno == EINTR);
	int rc = 0;
	if (w < 0)
		rc = -errno;
	else if ((size_t)w != len)
		rc = -EIO;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

int sysfs_write(const char *path, const char *value)
{
	int rc = write_attr(path, value);
	trace(TRACE_PROBE, "write %s \"%s\": %s", path, value, rc ? strerror(-rc) : "ok");
	return rc;
}

int sysfs_exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 ? 0 : -errno;
}

void sysfs_parse_choice(const char *raw, char *active, size_t alen,
			char *list, size_t llen)
{
	if (alen)
		active[0] = '\0';
	if (llen)
		list[0] = '\0';
	size_t lo = 0;
	const char *p = raw;
	while (*p) {
		while (*p && str_is_space((unsigned char)*p))
			p++;
		if (!*p)
			break;
		const char *s = p;
		while (*p && !str_is_space((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - s);
		int bracket = n >= 2 && s[0] == '[' && s[n - 1] == ']';
		if (bracket) {
			s++;
			n -= 2;
			if (alen) {
				size_t c = n < alen - 1 ? n : alen - 1;
				memcpy(active, s, c);
				active[c] = '\0';
			}
		}
		if (llen && lo + n + 2 <= llen) {
			if (lo)
				list[lo++] = ' ';
			memcpy(list + lo, s, n);
			lo += n;
			list[lo] = '\0';
		}
	}
}

int sysfs_read_alloc(const char *path, char **buf, size_t *n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t cap = 16384, off = 0;
	char *b = malloc(cap);
	int rc = 0;
	while (b) {
		if (off + 1 >= cap) {
			char *nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		int r = read_more(fd, b, cap - 1 - off, &off);
		if (r <= 0) {
			rc = r;
			break;
		}
	}
	close(fd);
	if (!b)
		return -ENOMEM;
	if (rc) {
		free(b);
		return rc;
	}
	b[off] = '\0';
	*buf = b;
	if (n)
		*n = off;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sysfs_list_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int list_dir(DIR *d, char ***names, size_t *n);

int sysfs_list(const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	return list_dir(d, names, n);
}

int sysfs_list_at(int dirfd, const char *rel, char ***names, size_t *n)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		return -e;
	}
	return list_dir(d, names, n);
}

/* Read and close d. */
static int list_dir(DIR *d, char ***names, size_t *n)
{
	char **v = NULL;
	size_t cnt = 0, cap = 0;
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (cnt == cap) {
			size_t nc = cap ? cap * 2 : 16;
			char **nv = realloc(v, nc * sizeof(*nv));
			if (!nv) {
				rc = -ENOMEM;
				break;
			}
			v = nv;
			cap = nc;
		}
		if (!(v[cnt] = strdup(e->d_name))) {
			rc = -ENOMEM;
			break;
		}
		cnt++;
	}
	closedir(d);
	if (rc) {
		sysfs_list_free(v, cnt);
		return rc;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*names = v;
	*n = cnt;
	return 0;
}

const char *sysfs_path_next(const char **p, size_t *n)
{
	const char *c = *p;
	while (*c == '/')
		c++;
	if (!*c)
		return NULL;
	const char *e = c;
	while (*e && *e != '/')
		e++;
	*n = (size_t)(e - c);
	*p = e;
	return c;
}

int sysfs_link(const char *path, char *out, size_t len)
{
	char target[4096];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	char joined[8192];
	if (target[0] == '/') {
		snprintf(joined, sizeof(joined), "%s", target);
	} else {
		const char *slash = strrchr(path, '/');
		int dl = slash ? (int)(slash - path) : 0;
		snprintf(joined, sizeof(joined), "%.*s/%s", dl, path, target);
	}
	/* collapse the components into out */
	size_t o = 0, cl;
	const char *p = joined;
	for (const char *c; (c = sysfs_path_next(&p, &cl));) {
		if (cl == 1 && c[0] == '.')
			continue;
		if (cl == 2 && c[0] == '.' && c[1] == '.') {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
			continue;
		}
		if (o + 1 + cl + 1 > len)
			return -ENAMETOOLONG;
		out[o++] = '/';
		memcpy(out + o, c, cl);
		o += cl;
	}
	if (o == 0) {
		if (len < 2)
			return -ENAMETOOLONG;
		out[o++] = '/';
	}
	out[o] = '\0';
	return 0;
}
