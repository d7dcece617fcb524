/* fleet_host — whose a result is: the host folder it lay in
 * (results/HOST/NAME.json), the machine id the controller recorded there,
 * and the check that a host's files claim one machine and no machine
 * hides under two hosts.  Contract in fleet.h. */
#include "fleet.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"

/* What to do about files whose machine is not certain. */
static const char ADVICE[] =
	"put each machine's results in a folder of its own, results/HOST/*.json, as the "
	"playbook does, or pass --trust-file-identity to take the machine each file names "
	"(any file can name any machine)";

/* HOST/machine-id: 32 lower-case hex digits and a newline, a regular file
 * (not a link).  0 with id; -ENOENT none; another -errno with why. */
static int read_record(int dirfd, char id[40], char *why, size_t whylen)
{
	id[0] = '\0';
	int fd = openat(dirfd, "machine-id", O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
			O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT)
		return -ENOENT;
	if (fd < 0)
		return msg_fail(-errno, why, whylen, "%s", errno == ELOOP ?
				"a symbolic link: not followed" : strerror(errno));
	struct stat st;
	char buf[64];
	ssize_t k = -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		k = read(fd, buf, sizeof(buf));
	int e = errno;
	close(fd);
	if (!S_ISREG(st.st_mode))
		return msg_fail(-EINVAL, why, whylen, "not a regular file");
	if (k < 0)
		return msg_fail(-e, why, whylen, "%s", strerror(e));
	if (k != 33 || buf[32] != '\n' || strspn(buf, "0123456789abcdef") != 32)
		return msg_fail(-EINVAL, why, whylen, "not 32 lower-case hex digits and a newline "
				"(brisk devices --json gives the id as .machine.machine_id)");
	memcpy(id, buf, 32);
	id[32] = '\0';
	return 0;
}

int fleet_hosts_add(struct fleet_hosts *hs, int dirfd, const char *name, size_t *idx)
{
	size_t i = 0;
	while (i < hs->n && strcmp(hs->h[i].name, name) != 0)
		i++;
	if (i == hs->n) {
		struct fleet_host *nh = realloc(hs->h, (hs->n + 1) * sizeof(*nh));
		if (!nh)
			return -ENOMEM;
		hs->h = nh;
		memset(&nh[i], 0, sizeof(nh[i]));
		snprintf(nh[i].name, sizeof(nh[i].name), "%s", name);
		hs->n++;
	}
	*idx = i;
	struct fleet_host *h = &hs->h[i];
	char id[40], why[200];
	int rc = read_record(dirfd, id, why, sizeof(why));
	if (rc == -ENOENT)
		return 0;
	if (rc < 0) {
		snprintf(h->bad, sizeof(h->bad), "%s/machine-id: %s", name, why);
		h->recorded[0] = '\0';
		h->n_records = -1;   /* never taken */
		return 0;
	}
	if (h->n_records < 0)
		return 0;
	if (h->n_records > 0 && strcmp(h->recorded, id) != 0) {
		snprintf(h->bad, sizeof(h->bad), "%s/machine-id: two folders of host %s record "
			 "different machine ids (%.8s..., %.8s...)", name, name, h->recorded, id);
		h->recorded[0] = '\0';
		h->n_records = -1;
		return 0;
	}
	memcpy(h->recorded, id, sizeof(h->recorded));
	h->n_records++;
	return 0;
}

int fleet_hosts_add_file(struct fleet_hosts *hs, const char *path, size_t *idx, char *err,
			 size_t errlen)
{
	char dir[PATH_MAX], real[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (!realpath(dir, real))
		return msg_fail(-errno, err, errlen, "its folder %s: %s", dir, strerror(errno));
	int fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return msg_fail(-errno, err, errlen, "its folder %s: %s", real, strerror(errno));
	const char *name = strrchr(real, '/');
	name = name && name[1] ? name + 1 : real;
	int rc = fleet_hosts_add(hs, fd, name, idx);
	close(fd);
	return rc < 0 ? msg_fail(rc, err, errlen, "out of memory") : 0;
}

void fleet_hosts_free(struct fleet_hosts *hs)
{
	free(hs->h);
	hs->h = NULL;
	hs->n = 0;
}

static int cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The names in the folder open at fd (a dup is read), sorted; free each
 * and the array.  0 or -errno. */
static int names(int fd, char ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int d = dup(fd);
	DIR *dp = d >= 0 ? fdopendir(d) : NULL;
	if (!dp) {
		int e = errno;
		if (d >= 0)
			close(d);
		return -e;
	}
	rewinddir(dp);
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.' && (!de->d_name[1] || (de->d_name[1] == '.' &&
								 !de->d_name[2])))
			continue;
		char **nn = realloc(*out, (*n + 1) * sizeof(*nn));
		char *s = strdup(de->d_name);
		if (!nn || !s) {
			free(s);
			if (nn)
				*out = nn;
			rc = -ENOMEM;
			break;
		}
		*out = nn;
		(*out)[(*n)++] = s;
	}
	closedir(dp);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_name);
	return rc;
}

static void names_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int is_json(const char *name)
{
	size_t l = strlen(name);
	return l > 5 && strcmp(name + l - 5, ".json") == 0;
}

/* One host folder: its *.json. */
static int walk_host(int hostfd, size_t host, const char *display, fleet_found_fn found,
		     fleet_skipped_fn skipped, void *ctx)
{
	char **v;
	size_t n;
	int rc = names(hostfd, &v, &n);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!is_json(v[i]))
			continue;
		char path[PATH_MAX];
		if (snprintf(path, sizeof(path), "%s/%s", display, v[i]) >= (int)sizeof(path))
			continue;   /* no such path can be named */
		struct stat st;
		if (fstatat(hostfd, v[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			rc = skipped(ctx, path, strerror(errno));
		else if (S_ISLNK(st.st_mode))
			rc = skipped(ctx, path, "a symbolic link: not followed: skipped");
		else if (!S_ISREG(st.st_mode))
			rc = skipped(ctx, path, "not a regular file: skipped");
		else
			rc = found(ctx, hostfd, host, v[i], path);
	}
	names_free(v, n);
	return rc;
}

int fleet_dir_walk(const char *dir, struct fleet_hosts *hs, fleet_found_fn found,
		   fleet_skipped_fn skipped, void *ctx, char *err, size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return msg_fail(-errno, err, errlen, "%s: %s", dir, strerror(errno));
	char **v;
	size_t n;
	int rc = names(fd, &v, &n);
	if (rc < 0)
		msg_set(err, errlen, "%s: %s", dir, strerror(-rc));
	const char *sep = dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/";
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char path[PATH_MAX];
		if (snprintf(path, sizeof(path), "%s%s%s", dir, sep, v[i]) >= (int)sizeof(path))
			continue;
		struct stat st;
		if (fstatat(fd, v[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !(S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)))
			continue;   /* the playbook's report.json and the like */
		if (S_ISLNK(st.st_mode)) {
			rc = skipped(ctx, path, "a symbolic link in place of a host folder: not "
				     "followed: skipped");
			continue;
		}
		int hfd = openat(fd, v[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (hfd < 0) {
			rc = skipped(ctx, path, strerror(errno));
			continue;
		}
		size_t host;
		rc = fleet_hosts_add(hs, hfd, v[i], &host);
		if (rc < 0)
			msg_set(err, errlen, "out of memory");
		else
			rc = walk_host(hfd, host, path, found, skipped, ctx);
		close(hfd);
	}
	names_free(v, n);
	close(fd);
	return rc;
}

/* ---- the check ---- */

#define GONE SIZE_MAX   /* a result's folder once it is left out */

/* The claims of one host's files: each distinct id and how many. */
struct claim {
	const char *id;
	size_t n;
};

static void left_out(struct fleet_result *r, struct fleet_skip *skip, size_t *n_skip,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void left_out(struct fleet_result *r, struct fleet_skip *skip, size_t *n_skip,
		     const char *fmt, ...)
{
	struct fleet_skip *s = &skip[(*n_skip)++];
	snprintf(s->path, sizeof(s->path), "%s", r->path);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
	fleet_result_free(r);
	r->folder = GONE;
}

static const char *id_text(const char *id, char *b, size_t n)
{
	if (!id[0])
		snprintf(b, n, "no machine id");
	else
		snprintf(b, n, "machine id %.8s...", id);
	return b;
}

/* The machine id of host h over its files (NULL: no majority). */
static const char *host_id(const struct fleet_result *r, size_t n, size_t h,
			   const struct fleet_hosts *hs, char *why, size_t whylen)
{
	if (hs->h[h].recorded[0])
		return hs->h[h].recorded;
	struct claim c[16];
	size_t nc = 0, total = 0, more = 0;
	for (size_t i = 0; i < n; i++) {
		if (r[i].folder != h)
			continue;
		total++;
		size_t k = 0;
		while (k < nc && strcmp(c[k].id, r[i].m.machine_id) != 0)
			k++;
		if (k == nc && nc == sizeof(c) / sizeof(c[0])) {
			more++;
			continue;
		}
		if (k == nc)
			c[nc++] = (struct claim){ r[i].m.machine_id, 0 };
		c[k].n++;
	}
	for (size_t k = 0; k < nc; k++)
		if (2 * c[k].n > total)
			return c[k].id;
	snprintf(why, whylen, "the %zu files of host folder %.100s claim %zu machines", total,
		 hs->h[h].name, nc + more);
	return NULL;
}

void fleet_identify(struct fleet_result *r, size_t *n, const struct fleet_hosts *hs,
		    struct fleet_skip *skip, size_t *n_skip)
{
	size_t nr = *n;
	/* each host's machine id; files that claim another */
	for (size_t h = 0; h < hs->n; h++) {
		char why[200], a[48], b[48];
		const char *id = host_id(r, nr, h, hs, why, sizeof(why));
		const char *src = hs->h[h].recorded[0] ? "as the controller recorded in its "
			"machine-id" : "as most of its files claim";
		for (size_t i = 0; i < nr; i++) {
			if (r[i].folder != h)
				continue;
			if (!id)
				left_out(&r[i], skip, n_skip, "%s (%s), no one id most of them: "
					 "whose it is is not certain: left out; %s", why,
					 id_text(r[i].m.machine_id, a, sizeof(a)), ADVICE);
			else if (strcmp(id, r[i].m.machine_id) != 0)
				left_out(&r[i], skip, n_skip, "claims %s, but its host folder %s is %s "
					 "(%s): left out; %s", id_text(r[i].m.machine_id, a, sizeof(a)),
					 hs->h[h].name, id_text(id, b, sizeof(b)), src, ADVICE);
			else {
				snprintf(r[i].host, sizeof(r[i].host), "%s", hs->h[h].name);
				snprintf(r[i].host_id, sizeof(r[i].host_id), "%s", id);
			}
		}
	}
	/* one machine id under two hosts */
	for (size_t i = 0; i < nr; i++) {
		if (r[i].folder == GONE || !r[i].host_id[0])
			continue;
		const char *other = NULL;
		for (size_t j = 0; j < nr && !other; j++)
			if (r[j].folder != GONE && strcmp(r[j].host_id, r[i].host_id) == 0 &&
			    strcmp(r[j].host, r[i].host) != 0)
				other = r[j].host;
		if (!other)
			continue;
		/* every file of that id, under every host */
		char id[40], first[FLEET_HOST_LEN], second[FLEET_HOST_LEN];
		snprintf(id, sizeof(id), "%s", r[i].host_id);
		snprintf(first, sizeof(first), "%s", r[i].host);
		snprintf(second, sizeof(second), "%s", other);
		for (size_t j = 0; j < nr; j++)
			if (r[j].folder != GONE && strcmp(r[j].host_id, id) == 0)
				left_out(&r[j], skip, n_skip, "machine id %.8s... is that of host "
					 "folders %s and %s: cloned images share /etc/machine-id: give "
					 "each its own with systemd-machine-id-setup, or pass "
					 "--trust-file-identity: left out", id, first, second);
	}
	/* keep the rest, in order */
	size_t k = 0;
	for (size_t i = 0; i < nr; i++)
		if (r[i].folder != GONE)
			r[k++] = r[i];
	*n = k;
}
