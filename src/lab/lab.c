/* lab — emulated slow disks: make, list and take apart; see lab.h. */
#include "lab.h"
#include "mountinfo.h"
#include "msg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/loop.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "datadir.h"
#include "labfs.h"
#include "rundir.h"
#include "sysfs.h"
#include "now.h"
#include "fileio.h"

#define FUSE_FSTYPE "fuse.brisk-lab"


static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* ---- paths ---- */

void lab_runtime_dir(char *buf, size_t len)
{
	char rt[LAB_PATH_MAX - 8];
	if (rundir_system_path(rt, sizeof rt) < 0)
		snprintf(rt, sizeof rt, "%s", RUNDIR_SYSTEM);
	if (snprintf(buf, len, "%s/lab", rt) >= (int)len)
		buf[0] = '\0';
}

/* While the lock is held (lock_take .. lock_drop): the checked runtime
 * directory and its checked lab/ subdirectory.  Every state, tmp, log and
 * lock file is reached from lk_dfd, never by path. */
static int lk_rfd = -1, lk_dfd = -1;

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

/* ---- processes ---- */

/* Start time (clock ticks since boot) and state letter of pid. */
static int proc_start(pid_t pid, unsigned long long *start, char *state)
{
	char path[64], buf[1024];
	size_t n;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int rc = sysfs_read_raw(path, buf, sizeof buf, &n);
	if (rc && rc != -EOVERFLOW)
		return rc;
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return -EINVAL;
	p += 2;
	*state = *p;
	/* p is field 3; starttime is field 22. */
	for (int f = 3; f < 22; f++) {
		p = strchr(p, ' ');
		if (!p)
			return -EINVAL;
		p++;
	}
	*start = strtoull(p, NULL, 10);
	return 0;
}

static int pid_alive(pid_t pid, unsigned long long start)
{
	unsigned long long st;
	char state;
	if (pid <= 0)
		return 0;
	waitpid(pid, NULL, WNOHANG); /* reap it if it is our child */
	if (proc_start(pid, &st, &state))
		return 0;
	return st == start && state != 'Z' && state != 'X';
}

/* ---- mounts and loop devices ---- */

/* Is path a mount point? fstype and source of the topmost mount there. */
static int mount_lookup(const char *path, char *fstype, size_t flen, char *source, size_t slen)
{
	struct mountinfo mi;
	if (mountinfo_read(&mi) < 0)
		return 0;
	const struct mountinfo_entry *top = NULL;
	for (size_t i = 0; i < mi.n; i++)
		if (strcmp(mi.v[i].target, path) == 0)
			top = &mi.v[i];
	if (top && fstype)
		snprintf(fstype, flen, "%s", top->fstype);
	if (top && source)
		snprintf(source, slen, "%s", top->source);
	mountinfo_free(&mi);
	return top != NULL;
}

static const char *loop_base(const char *dev)
{
	const char *b = strrchr(dev, '/');
	return b ? b + 1 : dev;
}

/* Is the loop device bound to file? */
static int loop_bound_to(const char *dev, const char *file)
{
	char bf[LAB_PATH_MAX + 16];
	if (!dev[0])
		return 0;
	if (sysfs_readf(bf, sizeof bf, "/sys/block/%s/loop/backing_file", loop_base(dev)))
		return 0;
	size_t n = strlen(file);
	return strncmp(bf, file, n) == 0 && (bf[n] == '\0' || strcmp(bf + n, " (deleted)") == 0);
}

static int loop_dio(const char *dev)
{
	int64_t v;
	char path[96];
	snprintf(path, sizeof path, "/sys/block/%s/loop/dio", loop_base(dev));
	return sysfs_read_s64(path, &v) ? -1 : (int)v;
}

static void queue_scheduler(const char *dev, char *active, size_t len)
{
	char raw[256], list[256];
	active[0] = '\0';
	if (sysfs_readf(raw, sizeof raw, "/sys/block/%s/queue/scheduler", loop_base(dev)) == 0)
		sysfs_parse_choice(raw, active, len, list, sizeof list);
}

/* ---- state file ---- */

/* Called with the lock held: NAME.state.tmp, then renamed to NAME.state. */
static int state_save(const struct lab_state *s)
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
		"orig_max_ratio_fine=%lld\n",
		s->name, s->model, s->size, s->dir, s->image, s->fusedir, s->fusefile,
		s->mnt, s->loop, (int)s->creator, s->creator_start, (int)s->server,
		s->server_start, s->dio, s->ready, s->scheduler, s->rotational,
		s->dirty_limit, s->orig_scheduler, s->orig_rotational, s->orig_strict_limit,
		s->orig_max_ratio_fine);
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

void lab_check(const struct lab_state *s, struct lab_health *h)
{
	char fstype[64], source[LAB_PATH_MAX];
	struct stat st;

	memset(h, 0, sizeof *h);
	h->server_alive = pid_alive(s->server, s->server_start);
	h->fuse_mounted = s->fusedir[0] &&
		mount_lookup(s->fusedir, fstype, sizeof fstype, NULL, 0) &&
		strcmp(fstype, FUSE_FSTYPE) == 0;
	h->loop_bound = s->fusefile[0] && loop_bound_to(s->loop, s->fusefile);
	h->fs_mounted = s->mnt[0] && s->loop[0] &&
		mount_lookup(s->mnt, NULL, 0, source, sizeof source) &&
		strcmp(source, s->loop) == 0;
	h->image_exists = s->image[0] && stat(s->image, &st) == 0 && S_ISREG(st.st_mode);
	h->dio = h->loop_bound ? loop_dio(s->loop) : -1;
	if (h->loop_bound)
		queue_scheduler(s->loop, h->scheduler, sizeof h->scheduler);
}

int lab_is_stale(const struct lab_state *s)
{
	if (!s->ready)
		return !pid_alive(s->creator, s->creator_start);
	return !pid_alive(s->server, s->server_start);
}

int lab_describe_loop(const char *backing_file, char *model, size_t len)
{
	struct lab_state *all = calloc(64, sizeof *all);
	int n, rc = -ENOENT;
	if (!all)
		return -ENOMEM;
	if (lab_list(all, 64, &n) == 0) {
		size_t bl = strlen(backing_file);
		const char *del = " (deleted)";
		if (bl > strlen(del) && strcmp(backing_file + bl - strlen(del), del) == 0)
			bl -= strlen(del);
		for (int i = 0; i < n; i++)
			if (all[i].fusefile[0] && strlen(all[i].fusefile) == bl &&
			    strncmp(all[i].fusefile, backing_file, bl) == 0) {
				snprintf(model, len, "%s", all[i].model);
				rc = 0;
				break;
			}
	}
	free(all);
	return rc;
}

/* ---- lock ---- */


/* RUNTIME/lock serialises lab up/down.  Like devlock's files it is removed
 * by its holder on release, with the runtime directory once no lab is
 * left, so a machine without lab disks has nothing under /run/brisk; a
 * process that opened the removed file sees it (inode check) and retries.
 * RUNTIME and RUNTIME/lab are opened checked (rundir.h) and kept open in
 * lk_rfd/lk_dfd until lock_drop. */
static int lock_take(char *err, size_t errlen)
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

static void lock_drop(int fd)
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

/* ---- the loop device's settings ---- */

static int loop_attr(const char *dev, const char *attr, char *path, size_t len)
{
	return snprintf(path, len, "/sys/block/%s/%s", loop_base(dev), attr) >= (int)len
		? -ENAMETOOLONG : 0;
}

/* Record the settings lab up changes; 0 or -errno. */
static int record_queue(struct lab_state *s)
{
	char path[128];
	int64_t v;
	queue_scheduler(s->loop, s->orig_scheduler, sizeof s->orig_scheduler);
	if (!loop_attr(s->loop, "queue/rotational", path, sizeof path) &&
	    !sysfs_read_s64(path, &v))
		s->orig_rotational = (int)v;
	if (!loop_attr(s->loop, "bdi/strict_limit", path, sizeof path) &&
	    !sysfs_read_s64(path, &v))
		s->orig_strict_limit = (int)v;
	if (!loop_attr(s->loop, "bdi/max_ratio_fine", path, sizeof path) &&
	    !sysfs_read_s64(path, &v))
		s->orig_max_ratio_fine = v;
	return state_save(s);
}

/* Put back what record_queue() saw; the caller made sure the loop device is
 * still bound to this lab.  Best effort: these are our own device's
 * attributes, and a failure leaves nothing worse than a setting. */
static void restore_queue(const struct lab_state *s)
{
	char path[128], val[32];
	if (s->orig_max_ratio_fine >= 0 &&
	    !loop_attr(s->loop, "bdi/max_ratio_fine", path, sizeof path)) {
		snprintf(val, sizeof val, "%lld", s->orig_max_ratio_fine);
		sysfs_write(path, val);
	}
	if (s->orig_strict_limit >= 0 &&
	    !loop_attr(s->loop, "bdi/strict_limit", path, sizeof path)) {
		snprintf(val, sizeof val, "%d", s->orig_strict_limit);
		sysfs_write(path, val);
	}
	if (s->orig_rotational >= 0 &&
	    !loop_attr(s->loop, "queue/rotational", path, sizeof path)) {
		snprintf(val, sizeof val, "%d", s->orig_rotational);
		sysfs_write(path, val);
	}
	if (s->orig_scheduler[0] && !loop_attr(s->loop, "queue/scheduler", path, sizeof path))
		sysfs_write(path, s->orig_scheduler);
}

/* ---- taking apart ---- */

static int wait_gone(pid_t pid, unsigned long long start, long ms)
{
	for (long t = 0; t <= ms; t += 20) {
		if (!pid_alive(pid, start))
			return 1;
		nap_ms(20);
	}
	return 0;
}

static int remove_path(const char *p, int dir, char *err, size_t errlen)
{
	if (!p[0])
		return 0;
	if ((dir ? rmdir(p) : unlink(p)) == 0 || errno == ENOENT)
		return 0;
	int e = errno;
	msg_set(err, errlen, "cannot remove %s: %s", p, strerror(e));
	return -e;
}

/* Teardown stopped while the disk is still in use: the server models again. */
static void model_again(const struct lab_state *s)
{
	if (pid_alive(s->server, s->server_start))
		kill(s->server, SIGUSR2);
}

/* Take apart everything recorded in s; keeps the state file when something
 * in use stops it. */
static int teardown(const struct lab_state *s, char *err, size_t errlen)
{
	struct lab_health h;
	char source[LAB_PATH_MAX];

	/* 0. the server stops modelling: what is left to flush goes fast */
	if (pid_alive(s->server, s->server_start))
		kill(s->server, SIGUSR1);
	/* 1. the file system on the loop device */
	for (int i = 0; i < 4 && s->mnt[0] && s->loop[0] &&
	     mount_lookup(s->mnt, NULL, 0, source, sizeof source) &&
	     strcmp(source, s->loop) == 0; i++) {
		if (umount2(s->mnt, 0) == 0)
			continue;
		int e = errno;
		if (e == EBUSY && i < 3) {
			nap_ms(300);
			continue;
		}
		msg_set(err, errlen, "cannot unmount %s: %s%s", s->mnt, strerror(e),
		       e == EBUSY ? " (files are open there: see fuser -vm)" : "");
		model_again(s);
		return -e;
	}
	/* 2. the loop device: its settings back, then detach */
	if (s->loop[0] && s->fusefile[0] && loop_bound_to(s->loop, s->fusefile)) {
		restore_queue(s);
		int fd = open(s->loop, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (ioctl(fd, LOOP_CLR_FD, 0) < 0 && errno != ENXIO) {
				int e = errno;
				close(fd);
				msg_set(err, errlen, "cannot detach %s: %s", s->loop, strerror(e));
				model_again(s);
				return -e;
			}
			close(fd);
		}
		for (int t = 0; t < 500 && loop_bound_to(s->loop, s->fusefile); t++)
			nap_ms(20);
		if (loop_bound_to(s->loop, s->fusefile)) {
			msg_set(err, errlen, "%s is still open by someone and stays attached "
			       "to %s; close it and run 'brisk lab down %s' again",
			       s->loop, s->fusefile, s->name);
			model_again(s);
			return -EBUSY;
		}
	}
	/* 3. the FUSE mount, 4. its server */
	lab_check(s, &h);
	for (int i = 0; h.fuse_mounted && i < 20; i++) {
		if (umount2(s->fusedir, 0) == 0)
			break;
		if (errno != EBUSY || i == 19) {
			int e = errno;
			msg_set(err, errlen, "cannot unmount %s: %s", s->fusedir, strerror(e));
			return -e;
		}
		nap_ms(100);
	}
	if (s->server > 0 && !wait_gone(s->server, s->server_start, 3000)) {
		kill(s->server, SIGTERM);
		if (!wait_gone(s->server, s->server_start, 2000)) {
			kill(s->server, SIGKILL);
			if (!wait_gone(s->server, s->server_start, 2000)) {
				msg_set(err, errlen, "lab server %d does not stop", (int)s->server);
				return -EBUSY;
			}
		}
	}
	/* Nothing mounted over the directories any more? */
	if ((s->fusedir[0] && mount_lookup(s->fusedir, NULL, 0, NULL, 0)) ||
	    (s->mnt[0] && mount_lookup(s->mnt, NULL, 0, NULL, 0))) {
		msg_set(err, errlen, "something else is mounted on %s or %s; unmount it "
		       "and run 'brisk lab down %s' again", s->mnt, s->fusedir, s->name);
		return -EBUSY;
	}
	/* 5. files */
	int rc = remove_path(s->image, 0, err, errlen);
	if (!rc)
		rc = remove_path(s->fusedir, 1, err, errlen);
	if (!rc)
		rc = remove_path(s->mnt, 1, err, errlen);
	if (!rc)
		rc = remove_path(s->dir, 1, err, errlen);
	if (rc)
		return rc;
	char file[LAB_NAME_MAX + 16];
	if (lk_dfd < 0)
		return msg_fail(-EBADF, err, errlen, "the lab state directory is not locked");
	snprintf(file, sizeof file, "%s.log", s->name);
	unlinkat(lk_dfd, file, 0);
	snprintf(file, sizeof file, "%s.state.tmp", s->name);
	unlinkat(lk_dfd, file, 0); /* a save cut short by a kill */
	snprintf(file, sizeof file, "%s.state", s->name);
	if (unlinkat(lk_dfd, file, 0) && errno != ENOENT) {
		int e = errno;
		char rt[LAB_PATH_MAX];
		lab_runtime_dir(rt, sizeof rt);
		msg_set(err, errlen, "cannot remove %s/%s: %s", rt, file, strerror(e));
		return -e;
	}
	return 0;
}

int lab_down(const char *name, char *err, size_t errlen)
{
	struct lab_state s;
	int lk = lock_take(err, errlen);
	if (lk < 0)
		return lk;
	int rc = lab_load(name, &s);
	if (rc == -ENOENT)
		msg_set(err, errlen, "no lab disk called '%s' (see 'brisk lab status')", name);
	else if (rc)
		msg_set(err, errlen, "cannot use the state of lab '%s': %s%s", name, strerror(-rc),
		       rc == -EPERM ? " (it must be root's and not writable by others)" : "");
	else
		rc = teardown(&s, err, errlen);
	lock_drop(lk);
	return rc;
}

/* Remove NAME.state.tmp files without a NAME.state: a first save cut short
 * by a kill.  Called with the lock held (every save happens under it). */
static void remove_orphan_tmp(void)
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

int lab_recover_stale(int *cleaned, char *err, size_t errlen)
{
	struct lab_state *all = calloc(64, sizeof *all);
	int n, first = 0, c = 0;
	if (cleaned)
		*cleaned = 0;
	if (!all)
		return -ENOMEM;
	int lk = lock_take(err, errlen);
	if (lk < 0) {
		free(all);
		return lk;
	}
	int rc = lab_list_err(all, 64, &n, err, errlen);
	if (rc) {
		lock_drop(lk);
		free(all);
		return rc;
	}
	for (int i = 0; i < n; i++) {
		if (!lab_is_stale(&all[i]))
			continue;
		char e[512];
		rc = teardown(&all[i], e, sizeof e);
		if (rc && !first) {
			first = rc;
			msg_set(err, errlen, "lab %s: %s", all[i].name, e);
		} else if (!rc) {
			c++;
		}
	}
	remove_orphan_tmp();
	lock_drop(lk);
	free(all);
	if (cleaned)
		*cleaned = c;
	return first;
}

/* ---- making ---- */

/* NAME.log in the locked lab directory, for appending. */
static int log_open(const char *log)
{
	return openat(lk_dfd, log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK |
		      O_CLOEXEC, 0644);
}

static int run_wait(char *const argv[], const char *log)
{
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = log_open(log);
		int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (nul >= 0)
			dup2(nul, 0);
		execvp(argv[0], argv);
		char alt[64];
		snprintf(alt, sizeof alt, "/usr/sbin/%s", argv[0]);
		execv(alt, argv);
		snprintf(alt, sizeof alt, "/sbin/%s", argv[0]);
		execv(alt, argv);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Append the last line of the log to err: teardown removes the log. */
static void log_tail(const char *log, char *err, size_t errlen)
{
	char buf[4096];
	int fd = lk_dfd < 0 ? -1 : openat(lk_dfd, log, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
					   O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	if (n == 0)
		return;
	char *last = strrchr(buf, '\n');
	last = last ? last + 1 : buf;
	size_t used = strlen(err);
	snprintf(err + used, errlen - used, " [log: %s]", last);
}

static unsigned long long self_start(void)
{
	unsigned long long st = 0;
	char c;
	proc_start(getpid(), &st, &c);
	return st;
}

/* Fork and exec `brisk lab serve`, wait until it has mounted. */
static int start_server(struct lab_state *s, const char *models, const char *log,
			char *err, size_t errlen)
{
	int p[2];
	char fsname[64];
	snprintf(fsname, sizeof fsname, "brisk-lab-%s", s->name);
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid == 0) {
		setsid();
		if (chdir("/") < 0)
			_exit(127);
		int fd = log_open(log);
		int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || nul < 0)
			_exit(127);
		dup2(nul, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (dup2(p[1], 3) < 0)
			_exit(127);
		char *argv[] = { (char *)"brisk", (char *)"lab", (char *)"serve",
			(char *)"--models", (char *)models, (char *)"--model", s->model,
			(char *)"--image", s->image, (char *)"--mountpoint", s->fusedir,
			(char *)"--fsname", fsname, (char *)"--ready-fd", (char *)"3", NULL };
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(p[1]);
	s->server = pid;
	unsigned long long st = 0;
	char c;
	for (int i = 0; i < 100 && proc_start(pid, &st, &c); i++)
		nap_ms(1);
	s->server_start = st;
	int rc = state_save(s);
	struct pollfd pf = { .fd = p[0], .events = POLLIN };
	char b = 0;
	int pr;
	while ((pr = poll(&pf, 1, 15000)) < 0 && errno == EINTR)
		;
	if (pr == 1 && read(p[0], &b, 1) == 1 && b == '1') {
		close(p[0]);
		return rc;
	}
	close(p[0]);
	msg_set(err, errlen, "the lab server did not come up (%s)",
	       pr == 0 ? "timeout" : "it exited");
	return -EIO;
}

static int attach_loop(struct lab_state *s, char *err, size_t errlen)
{
	int ffd = open(s->fusefile, O_RDWR | O_CLOEXEC | O_DIRECT);
	if (ffd < 0) {
		int e = errno;
		msg_set(err, errlen, "cannot open %s with O_DIRECT: %s", s->fusefile, strerror(e));
		return -e;
	}
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		int e = errno;
		close(ffd);
		msg_set(err, errlen, "/dev/loop-control: %s (is the loop module loaded?)",
		       strerror(e));
		return -e;
	}
	int lfd = -1, rc = -EBUSY;
	for (int tries = 0; tries < 20; tries++) {
		int nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			rc = -errno;
			msg_set(err, errlen, "no free loop device: %s", strerror(-rc));
			break;
		}
		snprintf(s->loop, sizeof s->loop, "/dev/loop%d", nr);
		if ((rc = state_save(s)))
			break;
		lfd = open(s->loop, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			rc = -errno;
			msg_set(err, errlen, "%s: %s", s->loop, strerror(-rc));
			break;
		}
		struct loop_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cfg.fd = (unsigned)ffd;
		/* No autoclear: lab down puts the device's settings back while
		 * it is still bound to us, then detaches it. */
		cfg.info.lo_flags = LO_FLAGS_DIRECT_IO;
		size_t fl = strlen(s->fusefile);
		if (fl >= sizeof cfg.info.lo_file_name)
			fl = sizeof cfg.info.lo_file_name - 1;
		memcpy(cfg.info.lo_file_name, s->fusefile, fl);
		if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0) {
			rc = 0;
			break;
		}
		rc = -errno;
		if (rc == -EINVAL) { /* a kernel refusing direct I/O here */
			cfg.info.lo_flags = 0;
			if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0) {
				rc = 0;
				break;
			}
			rc = -errno;
		}
		close(lfd);
		lfd = -1;
		if (rc != -EBUSY) {
			msg_set(err, errlen, "cannot attach %s to %s: %s", s->loop, s->fusefile,
			       strerror(-rc));
			break;
		}
	}
	close(ctl);
	close(ffd);
	if (rc && rc != -EBUSY)
		return rc;
	if (rc) {
		msg_set(err, errlen, "every free loop device was taken by someone else");
		return rc;
	}
	return lfd; /* held open until mounted */
}

static int set_queue(struct lab_state *s, const struct labmodel *m, char *err, size_t errlen)
{
	char path[128], val[32];
	int64_t v = -1;
	int rc = record_queue(s);
	if (rc)
		return rc;
	/* queue/rotational: a FUSE backing file makes loop say 0. */
	loop_attr(s->loop, "queue/rotational", path, sizeof path);
	snprintf(val, sizeof val, "%d", m->rotational);
	sysfs_write(path, val);
	sysfs_read_s64(path, &v);
	s->rotational = (int)v;
	if (s->rotational != m->rotational) {
		msg_set(err, errlen, "%s: cannot set %s (reads %d)", path, val, s->rotational);
		return -EINVAL;
	}
	loop_attr(s->loop, "queue/scheduler", path, sizeof path);
	rc = sysfs_write(path, m->scheduler);
	queue_scheduler(s->loop, s->scheduler, sizeof s->scheduler);
	if (rc || strcmp(s->scheduler, m->scheduler) != 0) {
		msg_set(err, errlen, "%s: cannot set scheduler %s (%s); the device has [%s]",
		       path, m->scheduler, rc ? strerror(-rc) : "not taken", s->scheduler);
		return rc ? rc : -EINVAL;
	}
	if (s->dirty_limit) {
		uint64_t got = 0;
		loop_attr(s->loop, "bdi/max_bytes", path, sizeof path);
		snprintf(val, sizeof val, "%" PRIu64, s->dirty_limit);
		rc = sysfs_write(path, val);
		if (rc == -EINVAL) {
			/* More than the global dirty limit (vm.dirty_*): that one
			 * is the stricter already; leave the disk to it. */
			s->dirty_limit = 0;
			return 0;
		}
		sysfs_read_u64(path, &got);
		if (!rc) {
			loop_attr(s->loop, "bdi/strict_limit", path, sizeof path);
			rc = sysfs_write(path, "1");
		}
		/* max_bytes is kept as a ratio of the global limit: near, not equal */
		if (rc || got == 0 || got > s->dirty_limit + s->dirty_limit / 8) {
			msg_set(err, errlen, "%s: cannot set the dirty limit to %s (%s)", path, val,
			       rc ? strerror(-rc) : "not taken");
			return rc ? rc : -EINVAL;
		}
		s->dirty_limit = got;
	}
	return 0;
}

static int pick_name(const char *base, char *name, size_t len)
{
	for (int i = 0; i < 64; i++) {
		char p[LAB_PATH_MAX], st[LAB_NAME_MAX + 16];
		struct stat sb;
		snprintf(name, len, "lab%d", i);
		snprintf(p, sizeof p, "%s/%s", base, name);
		snprintf(st, sizeof st, "%s.state", name);
		if (stat(p, &sb) < 0 && errno == ENOENT &&
		    fstatat(lk_dfd, st, &sb, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
			return 0;
	}
	return -EEXIST;
}

int lab_up(const struct lab_options *o, struct lab_state *out, char *err, size_t errlen)
{
	struct labmodel models[LABMODEL_MAX];
	char mpath[LAB_PATH_MAX], base[PATH_MAX], log[LAB_PATH_MAX], e2[256];
	struct lab_state *s = out;
	int n, rc, lk, lfd = -1, img = -1;

	memset(s, 0, sizeof *s);
	s->dio = s->orig_rotational = s->orig_strict_limit = -1;
	s->orig_max_ratio_fine = -1;
	if (o->models_file)
		snprintf(mpath, sizeof mpath, "%s", o->models_file);
	else if ((rc = lab_models_path(mpath, sizeof mpath, err, errlen)))
		return rc;
	if ((rc = labmodel_load(mpath, models, LABMODEL_MAX, &n, err, errlen)))
		return rc == -EINVAL ? rc : -ENOENT;
	const char *mname = o->model ? o->model : "hdd-7200";
	const struct labmodel *m = labmodel_find(models, n, mname);
	if (!m) {
		char names[256] = "";
		for (int i = 0; i < n; i++) {
			size_t used = strlen(names);
			if (snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
				     models[i].name) >= (int)(sizeof names - used))
				break;
		}
		msg_set(err, errlen, "no model '%s' in %s (models: %s)", mname, mpath, names);
		return -EINVAL;
	}
	uint64_t size = o->size ? o->size : LAB_DEFAULT_SIZE;
	size &= ~((1ull << 20) - 1);
	if (size < LAB_MIN_SIZE || size > LAB_MAX_SIZE) {
		msg_set(err, errlen, "size %" PRIu64 " MiB is out of range (%llu MiB .. %llu GiB)",
		       o->size >> 20, LAB_MIN_SIZE >> 20, LAB_MAX_SIZE >> 30);
		return -EINVAL;
	}
	if (o->name && !lab_name_valid(o->name)) {
		msg_set(err, errlen, "bad lab name '%s' (letters, digits, _ and -, at most %d)",
		       o->name, LAB_NAME_MAX - 1);
		return -EINVAL;
	}
	const char *dir = o->dir ? o->dir : LAB_DEFAULT_DIR;
	if ((rc = fileio_mkdir_p(dir, 0755)) || !realpath(dir, base)) {
		rc = rc ? rc : -errno;
		msg_set(err, errlen, "%s: %s", dir, strerror(-rc));
		return rc;
	}
	if (strlen(base) > LAB_PATH_MAX - 64) {
		msg_set(err, errlen, "%s: path too long", base);
		return -ENAMETOOLONG;
	}
	struct statvfs vfs;
	if (statvfs(base, &vfs) == 0) {
		uint64_t total = (uint64_t)vfs.f_blocks * vfs.f_frsize;
		uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		uint64_t floor = total / 20 > (2ull << 30) ? total / 20 : (2ull << 30);
		if (avail < size + floor) {
			msg_set(err, errlen, "%s has %" PRIu64 " MiB free; a %" PRIu64 " MiB lab disk "
			       "needs that plus a floor of %" PRIu64 " MiB: use --size or --dir",
			       base, avail >> 20, size >> 20, floor >> 20);
			return -ENOSPC;
		}
	}

	if ((lk = lock_take(err, errlen)) < 0)
		return lk;
	if (o->name) {
		char p[LAB_PATH_MAX + LAB_NAME_MAX];
		struct stat sb;
		snprintf(s->name, sizeof s->name, "%s", o->name);
		snprintf(p, sizeof p, "%s/%s", base, s->name);
		snprintf(log, sizeof log, "%s.state", s->name);
		if (fstatat(lk_dfd, log, &sb, AT_SYMLINK_NOFOLLOW) == 0 || stat(p, &sb) == 0) {
			char rt[LAB_PATH_MAX];
			lab_runtime_dir(rt, sizeof rt);
			msg_set(err, errlen, "lab '%s' exists (%s/%s or %s)", s->name, rt, log, p);
			lock_drop(lk);
			return -EEXIST;
		}
	} else if ((rc = pick_name(base, s->name, sizeof s->name))) {
		msg_set(err, errlen, "no free lab name under %s", base);
		lock_drop(lk);
		return rc;
	}
	snprintf(s->model, sizeof s->model, "%s", m->name);
	s->size = size;
	if (snprintf(s->dir, sizeof s->dir, "%s/%s", base, s->name) >= (int)sizeof s->dir ||
	    snprintf(s->image, sizeof s->image, "%s/disk.img", s->dir) >= (int)sizeof s->image ||
	    snprintf(s->fusedir, sizeof s->fusedir, "%s/fuse", s->dir) >= (int)sizeof s->fusedir ||
	    snprintf(s->fusefile, sizeof s->fusefile, "%s/%s", s->fusedir, LABFS_FILE) >=
		    (int)sizeof s->fusefile ||
	    snprintf(s->mnt, sizeof s->mnt, "%s/mnt", s->dir) >= (int)sizeof s->mnt) {
		msg_set(err, errlen, "%s: path too long", base);
		lock_drop(lk);
		return -ENAMETOOLONG;
	}
	s->dirty_limit = o->dirty_limit;
	s->creator = getpid();
	s->creator_start = self_start();
	snprintf(log, sizeof log, "%s.log", s->name);
	if ((rc = state_save(s))) {
		msg_set(err, errlen, "cannot write the lab state file: %s", strerror(-rc));
		lock_drop(lk);
		return rc;
	}

	/* image, with ext4 made on the plain file (fast, and no slow-model writes) */
	if (mkdir(s->dir, 0755) || mkdir(s->fusedir, 0755) || mkdir(s->mnt, 0755)) {
		rc = -errno;
		msg_set(err, errlen, "cannot create %s: %s", s->dir, strerror(-rc));
		goto fail;
	}
	img = open(s->image, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (img < 0 || ftruncate(img, (off_t)size) < 0) {
		rc = -errno;
		msg_set(err, errlen, "cannot create %s: %s", s->image, strerror(-rc));
		goto fail;
	}
	close(img);
	img = -1;
	char *mkfs[] = { (char *)"mkfs.ext4", (char *)"-q", (char *)"-F", (char *)"-L", s->name,
		(char *)"-E", (char *)"nodiscard,lazy_itable_init=0,lazy_journal_init=0",
		s->image, NULL };
	if ((rc = run_wait(mkfs, log)) != 0) {
		msg_set(err, errlen, "mkfs.ext4 %s failed (%s %d)", s->image,
		       rc < 0 ? "error" : "exit", rc < 0 ? -rc : rc);
		rc = -EIO;
		goto fail;
	}

	if ((rc = start_server(s, mpath, log, err, errlen)))
		goto fail;
	if ((lfd = attach_loop(s, err, errlen)) < 0) {
		rc = lfd;
		goto fail;
	}
	s->dio = loop_dio(s->loop);
	if ((rc = set_queue(s, m, err, errlen)))
		goto fail;
	if ((rc = state_save(s)))
		goto fail;
	if (mount(s->loop, s->mnt, "ext4", 0, NULL) < 0) {
		rc = -errno;
		msg_set(err, errlen, "cannot mount %s on %s: %s", s->loop, s->mnt, strerror(-rc));
		goto fail;
	}
	close(lfd);
	lfd = -1;
	if (chmod(s->mnt, 01777) < 0) {
		rc = -errno;
		msg_set(err, errlen, "chmod %s: %s", s->mnt, strerror(-rc));
		goto fail;
	}
	s->ready = 1;
	if ((rc = state_save(s)))
		goto fail;
	lock_drop(lk);
	return 0;
fail:
	if (img >= 0)
		close(img);
	if (lfd >= 0)
		close(lfd);
	log_tail(log, err, errlen);
	if (teardown(s, e2, sizeof e2))
		snprintf(err + strlen(err), errlen - strlen(err),
			 "; taking it apart again failed too: %s", e2);
	lock_drop(lk);
	return rc;
}

/* ---- calibration ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int lab_calibrate(const struct lab_state *s, const struct labmodel *m, double seconds,
		  struct lab_calibration *c, char *err, size_t errlen)
{
	const size_t bs = 4096, seq_bs = 1u << 20;
	const uint64_t seq_total = 64ull << 20;
	void *buf = NULL;
	memset(c, 0, sizeof *c);
	c->want_rand_ms = (double)labmodel_expect_random_read_ns(m, bs) / 1e6;
	c->want_seq_mb_s = labmodel_expect_seq_read_bps(m) / 1e6;

	int fd = open(s->loop, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		msg_set(err, errlen, "%s: %s", s->loop, strerror(e));
		return -e;
	}
	size_t cap = 4096;
	double *lat = malloc(cap * sizeof *lat);
	if (!lat || posix_memalign(&buf, 4096, seq_bs)) {
		free(lat);
		close(fd);
		return -ENOMEM;
	}
	uint64_t seed = now_ns() | 1, blocks = s->size / bs;
	uint64_t t0 = now_ns(), limit = (uint64_t)(seconds * 1e9);
	int rc = 0;
	for (int i = -1; (size_t)c->n < cap; i++) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		off_t off = (off_t)((seed % blocks) * bs);
		uint64_t a = now_ns();
		if (pread(fd, buf, bs, off) != (ssize_t)bs) {
			rc = -(errno ? errno : EIO);
			msg_set(err, errlen, "read %s at %lld: %s", s->loop, (long long)off,
			       strerror(-rc));
			goto out;
		}
		uint64_t b = now_ns();
		if (i >= 0) /* the first read only positions the head */
			lat[c->n++] = (double)(b - a) / 1e6;
		if (b - t0 >= limit && c->n >= 20)
			break;
	}
	double sum = 0;
	for (int i = 0; i < c->n; i++)
		sum += lat[i];
	c->rand_mean_ms = sum / c->n;
	qsort(lat, (size_t)c->n, sizeof *lat, cmp_double);
	c->rand_p50_ms = lat[c->n / 2];
	c->rand_p90_ms = lat[(c->n * 9) / 10];

	uint64_t start = s->size > 2 * seq_total ? ((seed % (s->size - seq_total)) & ~(uint64_t)(seq_bs - 1)) : 0;
	uint64_t total = s->size < seq_total ? s->size : seq_total;
	/* one read to put the head there, then time the stream */
	if (pread(fd, buf, seq_bs, (off_t)start) != (ssize_t)seq_bs) {
		rc = -(errno ? errno : EIO);
		msg_set(err, errlen, "read %s: %s", s->loop, strerror(-rc));
		goto out;
	}
	uint64_t a = now_ns();
	for (uint64_t done = seq_bs; done < total; done += seq_bs)
		if (pread(fd, buf, seq_bs, (off_t)(start + done)) != (ssize_t)seq_bs) {
			rc = -(errno ? errno : EIO);
			msg_set(err, errlen, "read %s: %s", s->loop, strerror(-rc));
			goto out;
		}
	c->seq_mb_s = (double)(total - seq_bs) / ((double)(now_ns() - a) / 1e9) / 1e6;
out:
	free(buf);
	free(lat);
	close(fd);
	return rc;
}

/* ---- the server process ---- */

int lab_serve(const char *models_file, const char *model, const char *image,
	      const char *mountpoint, const char *fsname, int ready_fd)
{
	struct labmodel models[LABMODEL_MAX];
	char err[512];
	int n, rc = labmodel_load(models_file, models, LABMODEL_MAX, &n, err, sizeof err);
	if (rc) {
		fprintf(stderr, "brisk lab serve: %s\n", err);
		return rc;
	}
	const struct labmodel *m = labmodel_find(models, n, model);
	if (!m) {
		fprintf(stderr, "brisk lab serve: no model '%s' in %s\n", model, models_file);
		return -EINVAL;
	}
	return labfs_serve(m, image, mountpoint, fsname, ready_fd);
}
