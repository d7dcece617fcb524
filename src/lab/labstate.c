/* labstate — the lab's state files, its runtime directory and its lock;
 * see labstate.h. */
#include "labstate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"
#include "labfs.h"
#include "msg.h"
#include "rundir.h"

/* While the lock is held (labstate_lock .. labstate_unlock): the checked runtime
 * directory and its checked lab/ subdirectory.  Every state, tmp, log and
 * lock file is reached from lk_dfd, never by path. */
static int lk_rfd = -1, lk_dfd = -1;


void lab_runtime_dir(char *buf, size_t len)
{
	char rt[LAB_PATH_MAX - 8];
	if (rundir_system_path(rt, sizeof rt) < 0)
		snprintf(rt, sizeof rt, "%s", RUNDIR_SYSTEM);
	if (snprintf(buf, len, "%s/lab", rt) >= (int)len)
		buf[0] = '\0';
}

/* Open RUNTIME and RUNTIME/lab, checked (rundir.h); create: make them.
 * Without root, only reading: root's are accepted.  -ENOENT absent; else
 * -errno with "PATH: what is wrong" in err. */
static int labdir_open(int create, int *rfd, int *dfd, char *err, size_t errlen)
{
	char rt[LAB_PATH_MAX];
	int flags = (create ? RUNDIR_CREATE : 0) | (geteuid() != 0 && !create ? RUNDIR_READ : 0);
	int rc = rundir_system_path(rt, sizeof rt);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "the runtime directory's path is too long");
	rc = rundir_open_at(rt, flags, rfd, err, errlen);
	if (rc < 0)
		return rc;
	rc = rundir_subdir(*rfd, rt, "lab", flags, dfd, err, errlen);
	if (rc < 0) {
		close(*rfd);
		*rfd = -1;
	}
	return rc;
}

/* The lab directory to read: the locked one, else a fresh checked one
 * (*own = 1: close it). */
static int labdir_read(int *own, char *err, size_t errlen)
{
	int rfd, dfd;
	*own = 0;
	if (lk_dfd >= 0)
		return lk_dfd;
	int rc = labdir_open(0, &rfd, &dfd, err, errlen);
	if (rc < 0)
		return rc;
	close(rfd);
	*own = 1;
	return dfd;
}

int lab_models_path(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("BRISK_LAB_MODELS");

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		if (access(buf, R_OK) == 0)
			return 0;
		msg_set(err, errlen, "BRISK_LAB_MODELS=%s: %s", env, strerror(errno));
		return -ENOENT;
	}
	if (datadir_find("lab-models.ini", buf, len) == 0)
		return 0;
	msg_set(err, errlen, "no lab model table lab-models.ini (not in $BRISK_DATADIR, "
	       "next to the binary in profiles/, nor at %s); set BRISK_LAB_MODELS=FILE", buf);
	return -ENOENT;
}

int lab_name_valid(const char *name)
{
	size_t n = strlen(name);
	return n > 0 && n < LAB_NAME_MAX && name[0] != '-' &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* Called with the lock held: NAME.state.tmp, then renamed to NAME.state. */
int labstate_save(const struct lab_state *s)
{
	char path[LAB_NAME_MAX + 16], tmp[LAB_NAME_MAX + 16];
	int rc;
	if (lk_dfd < 0)
		return -EBADF;
	snprintf(path, sizeof path, "%s.state", s->name);
	snprintf(tmp, sizeof tmp, "%s.state.tmp", s->name);
	unlinkat(lk_dfd, tmp, 0);   /* one a kill left */
	int fd = openat(lk_dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		rc = -errno;
		close(fd);
		unlinkat(lk_dfd, tmp, 0);
		return rc;
	}
	fprintf(f, "name=%s\nmodel=%s\nsize=%" PRIu64 "\ndir=%s\nimage=%s\nfusedir=%s\n"
		"fusefile=%s\nmnt=%s\nloop=%s\ncreator=%d:%llu\nserver=%d:%llu\n"
		"dio=%d\nready=%d\nscheduler=%s\nrotational=%d\ndirty_limit=%" PRIu64 "\n"
		"orig_scheduler=%s\norig_rotational=%d\norig_strict_limit=%d\n"
		"orig_max_ratio_fine=%lld\njournal=%s\nqueue_depth=%d\ntag_depth=%d\n"
		"orig_tag_depth=%d\ndiskseq=%s\nclass=%s\n",
		s->name, s->model, s->size, s->dir, s->image, s->fusedir, s->fusefile,
		s->mnt, s->loop, (int)s->creator, s->creator_start, (int)s->server,
		s->server_start, s->dio, s->ready, s->scheduler, s->rotational,
		s->dirty_limit, s->orig_scheduler, s->orig_rotational, s->orig_strict_limit,
		s->orig_max_ratio_fine, s->journal, s->queue_depth, s->tag_depth,
		s->orig_tag_depth, s->diskseq, s->disk_class);
	if (fflush(f) || fchmod(fileno(f), 0644) || fsync(fileno(f))) {
		rc = -errno;
		fclose(f);
		unlinkat(lk_dfd, tmp, 0);
		return rc;
	}
	fclose(f);
	if (renameat(lk_dfd, tmp, lk_dfd, path)) {
		rc = -errno;
		unlinkat(lk_dfd, tmp, 0);
		return rc;
	}
	return 0;
}

/* A depth: 1..1048576, else the default given. */
static int bounded_int(const char *v, int dflt)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	return end == v || *end || errno || x < 1 || x > 1 << 20 ? dflt : (int)x;
}

static void copy_field(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%s", v);
}

/* Do the recorded paths have the shape lab_up() gives them? */
static int state_consistent(const struct lab_state *s, const char *name)
{
	char want[LAB_PATH_MAX + 16];
	size_t dl = strlen(s->dir), nl = strlen(name);
	if (strcmp(s->name, name) != 0 || s->dir[0] != '/' || dl <= nl + 1 ||
	    strcmp(s->dir + dl - nl, name) != 0 || s->dir[dl - nl - 1] != '/' ||
	    strstr(s->dir, "/../") || strstr(s->dir, "/./"))
		return 0;
	snprintf(want, sizeof want, "%s/disk.img", s->dir);
	if (strcmp(s->image, want) != 0)
		return 0;
	snprintf(want, sizeof want, "%s/fuse", s->dir);
	if (strcmp(s->fusedir, want) != 0)
		return 0;
	snprintf(want, sizeof want, "%s/fuse/%s", s->dir, LABFS_FILE);
	if (strcmp(s->fusefile, want) != 0)
		return 0;
	snprintf(want, sizeof want, "%s/mnt", s->dir);
	if (strcmp(s->mnt, want) != 0)
		return 0;
	if (s->loop[0] && (strncmp(s->loop, "/dev/loop", 9) != 0 || !s->loop[9] ||
			   strspn(s->loop + 9, "0123456789") != strlen(s->loop + 9)))
		return 0;
	return 1;
}

int lab_load(const char *name, struct lab_state *s)
{
	char file[LAB_NAME_MAX + 16], line[LAB_PATH_MAX + 32];
	if (!lab_name_valid(name))
		return -EINVAL;
	int own, dfd = labdir_read(&own, NULL, 0);
	if (dfd < 0)
		return dfd;
	snprintf(file, sizeof file, "%s.state", name);
	/* lab down acts as root on what the file names: it must be root's
	 * (checked before and after opening, nothing followed). */
	int rf = geteuid() != 0 ? RUNDIR_READ : 0;
	int fd, rc = rundir_check_entry(dfd, "lab", file, rf, NULL, 0);
	if (rc == 0) {
		fd = openat(dfd, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			rc = -errno;
	} else if (rc != -ENOENT) {
		rc = -EPERM;
	}
	if (own)
		close(dfd);
	if (rc < 0)
		return rc;
	if (rundir_check_file(fd, file, rf, NULL, 0) < 0) {
		close(fd);
		return -EPERM;
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	memset(s, 0, sizeof *s);
	s->dio = s->orig_rotational = s->orig_strict_limit = -1;
	s->orig_max_ratio_fine = -1;
	s->tag_depth = s->orig_tag_depth = -1;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *v = strchr(line, '=');
		if (!v)
			continue;
		*v++ = '\0';
		int pid;
		unsigned long long st;
		if (!strcmp(line, "name")) copy_field(s->name, sizeof s->name, v);
		else if (!strcmp(line, "model")) copy_field(s->model, sizeof s->model, v);
		else if (!strcmp(line, "class") && labmodel_class_ok(v))
			copy_field(s->disk_class, sizeof s->disk_class, v);
		else if (!strcmp(line, "size")) s->size = strtoull(v, NULL, 10);
		else if (!strcmp(line, "dir")) copy_field(s->dir, sizeof s->dir, v);
		else if (!strcmp(line, "image")) copy_field(s->image, sizeof s->image, v);
		else if (!strcmp(line, "fusedir")) copy_field(s->fusedir, sizeof s->fusedir, v);
		else if (!strcmp(line, "fusefile")) copy_field(s->fusefile, sizeof s->fusefile, v);
		else if (!strcmp(line, "mnt")) copy_field(s->mnt, sizeof s->mnt, v);
		else if (!strcmp(line, "loop")) copy_field(s->loop, sizeof s->loop, v);
		else if (!strcmp(line, "scheduler")) copy_field(s->scheduler, sizeof s->scheduler, v);
		else if (!strcmp(line, "dio")) s->dio = atoi(v);
		else if (!strcmp(line, "ready")) s->ready = atoi(v);
		else if (!strcmp(line, "rotational")) s->rotational = atoi(v);
		else if (!strcmp(line, "dirty_limit")) s->dirty_limit = strtoull(v, NULL, 10);
		else if (!strcmp(line, "orig_scheduler"))
			copy_field(s->orig_scheduler, sizeof s->orig_scheduler, v);
		else if (!strcmp(line, "orig_rotational")) s->orig_rotational = atoi(v);
		else if (!strcmp(line, "orig_strict_limit")) s->orig_strict_limit = atoi(v);
		else if (!strcmp(line, "orig_max_ratio_fine")) s->orig_max_ratio_fine = atoll(v);
		else if (!strcmp(line, "journal")) copy_field(s->journal, sizeof s->journal, v);
		else if (!strcmp(line, "queue_depth")) s->queue_depth = bounded_int(v, 0);
		else if (!strcmp(line, "tag_depth")) s->tag_depth = bounded_int(v, -1);
		else if (!strcmp(line, "orig_tag_depth")) s->orig_tag_depth = bounded_int(v, -1);
		else if (!strcmp(line, "diskseq") && strspn(v, "0123456789") == strlen(v) &&
			 strlen(v) < sizeof s->diskseq)
			memcpy(s->diskseq, v, strlen(v) + 1);
		else if (!strcmp(line, "creator") && sscanf(v, "%d:%llu", &pid, &st) == 2)
			s->creator = pid, s->creator_start = st;
		else if (!strcmp(line, "server") && sscanf(v, "%d:%llu", &pid, &st) == 2)
			s->server = pid, s->server_start = st;
	}
	fclose(f);
	return state_consistent(s, name) ? 0 : -EINVAL;
}

static int cmp_state(const void *a, const void *b)
{
	return strcmp(((const struct lab_state *)a)->name, ((const struct lab_state *)b)->name);
}

int lab_list(struct lab_state *out, int max, int *n)
{
	return lab_list_err(out, max, n, NULL, 0);
}

int lab_list_err(struct lab_state *out, int max, int *n, char *err, size_t errlen)
{
	*n = 0;
	int own, dfd = labdir_read(&own, err, errlen);
	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0)
		return dfd;
	int lfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (own)
		close(dfd);
	DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
	if (!d) {
		int e = errno;
		if (lfd >= 0)
			close(lfd);
		return msg_fail(-e, err, errlen, "the lab state directory: %s", strerror(e));
	}
	struct dirent *e;
	while ((e = readdir(d)) && *n < max) {
		size_t l = strlen(e->d_name);
		char name[LAB_NAME_MAX];
		if (l <= 6 || l - 6 >= sizeof name || strcmp(e->d_name + l - 6, ".state"))
			continue;
		memcpy(name, e->d_name, l - 6);
		name[l - 6] = '\0';
		if (lab_load(name, &out[*n]) == 0)
			(*n)++;
	}
	closedir(d);
	qsort(out, (size_t)*n, sizeof *out, cmp_state);
	return 0;
}

/* RUNTIME/lock serialises lab up/down.  Like devlock's files it is removed
 * by its holder on release, with the runtime directory once no lab is
 * left, so a machine without lab disks has nothing under /run/brisk; a
 * process that opened the removed file sees it (inode check) and retries.
 * RUNTIME and RUNTIME/lab are opened checked (rundir.h) and kept open in
 * lk_rfd/lk_dfd until labstate_unlock. */
int labstate_lock(char *err, size_t errlen)
{
	int rc, fd;
	for (;;) {
		if ((rc = labdir_open(1, &lk_rfd, &lk_dfd, err, errlen)))
			return rc;
		fd = openat(lk_dfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			    0644);
		if (fd < 0) {
			rc = msg_fail(-errno, err, errlen, "lab/lock: %s", strerror(errno));
			goto fail;
		}
		char rt[LAB_PATH_MAX], lp[LAB_PATH_MAX + 8];
		lab_runtime_dir(rt, sizeof rt);
		snprintf(lp, sizeof lp, "%s/lock", rt);
		rc = rundir_check_file(fd, lp, 0, err, errlen);
		if (rc < 0 && rc != -ENOENT) {
			close(fd);
			goto fail;
		}
		while (rc == 0 && flock(fd, LOCK_EX) < 0)
			if (errno != EINTR) {
				rc = msg_fail(-errno, err, errlen, "%s: %s", lp, strerror(errno));
				close(fd);
				goto fail;
			}
		struct stat a, b;
		if (rc == 0 && fstat(fd, &a) == 0 &&
		    fstatat(lk_dfd, "lock", &b, AT_SYMLINK_NOFOLLOW) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return fd;
		close(fd);   /* released and removed meanwhile: take the new one */
		close(lk_dfd);
		close(lk_rfd);
		lk_dfd = lk_rfd = -1;
	}
fail:
	close(lk_dfd);
	close(lk_rfd);
	lk_dfd = lk_rfd = -1;
	return rc;
}

void labstate_unlock(int fd)
{
	if (fd < 0)
		return;
	unlinkat(lk_dfd, "lock", 0);
	/* fails, as it should, while a lab's state is there */
	unlinkat(lk_rfd, "lab", AT_REMOVEDIR);
	close(fd);
	close(lk_dfd);
	close(lk_rfd);
	lk_dfd = lk_rfd = -1;
}

/* Remove NAME.state.tmp files without a NAME.state: a first save cut short
 * by a kill.  Called with the lock held (every save happens under it). */
void labstate_remove_orphans(void)
{
	char p[300];
	struct stat sb;
	if (lk_dfd < 0)
		return;
	int lfd = openat(lk_dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
	if (!d) {
		if (lfd >= 0)
			close(lfd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l <= 10 || l >= sizeof p || strcmp(e->d_name + l - 10, ".state.tmp") != 0)
			continue;
		snprintf(p, sizeof p, "%.*s", (int)(l - 4), e->d_name);
		if (fstatat(lk_dfd, p, &sb, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
			unlinkat(lk_dfd, e->d_name, 0);
	}
	closedir(d);
}

int labstate_dfd(void)
{
	return lk_dfd;
}

int labstate_remove(const char *name, char *err, size_t errlen)
{
	char file[LAB_NAME_MAX + 16];
	if (lk_dfd < 0)
		return msg_fail(-EBADF, err, errlen, "the lab state directory is not locked");
	snprintf(file, sizeof file, "%s.log", name);
	unlinkat(lk_dfd, file, 0);
	snprintf(file, sizeof file, "%s.state.tmp", name);
	unlinkat(lk_dfd, file, 0); /* a save cut short by a kill */
	snprintf(file, sizeof file, "%s.state", name);
	if (unlinkat(lk_dfd, file, 0) && errno != ENOENT) {
		int e = errno;
		char rt[LAB_PATH_MAX];
		lab_runtime_dir(rt, sizeof rt);
		msg_set(err, errlen, "cannot remove %s/%s: %s", rt, file, strerror(e));
		return -e;
	}
	return 0;
}
