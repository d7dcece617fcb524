/* lab — emulated slow disks: make, list and take apart; see lab.h. */
#include "lab.h"
#include "mountinfo.h"
#include "msg.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blockdev.h"
#include "fileio.h"
#include "labfs.h"
#include "labloop.h"
#include "labproc.h"
#include "labstate.h"
#include "now.h"
#include "trace.h"

#define FUSE_FSTYPE "fuse.brisk-lab"

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

void lab_check(const struct lab_state *s, struct lab_health *h)
{
	char fstype[64], source[LAB_PATH_MAX];
	struct stat st;

	memset(h, 0, sizeof *h);
	h->server_alive = labproc_alive(s->server, s->server_start);
	h->fuse_mounted = s->fusedir[0] &&
		mount_lookup(s->fusedir, fstype, sizeof fstype, NULL, 0) &&
		strcmp(fstype, FUSE_FSTYPE) == 0;
	h->loop_bound = s->fusefile[0] && labloop_bound_to(s->loop, s->fusefile);
	h->fs_mounted = s->mnt[0] && s->loop[0] &&
		mount_lookup(s->mnt, NULL, 0, source, sizeof source) &&
		strcmp(source, s->loop) == 0;
	h->image_exists = s->image[0] && stat(s->image, &st) == 0 && S_ISREG(st.st_mode);
	h->dio = h->loop_bound ? labloop_dio(s->loop) : -1;
	h->tag_depth = -ENOENT;
	if (h->loop_bound) {
		labloop_scheduler(s->loop, h->scheduler, sizeof h->scheduler);
		h->tag_depth = labloop_tag_depth(s->loop);
	}
}

int lab_is_stale(const struct lab_state *s)
{
	if (!s->ready)
		return !labproc_alive(s->creator, s->creator_start);
	return !labproc_alive(s->server, s->server_start);
}

int lab_describe_loop(const char *backing_file, char *model, size_t len, char *cls,
		      size_t clslen)
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
				if (cls)
					snprintf(cls, clslen, "%s", all[i].disk_class);
				rc = 0;
				break;
			}
	}
	free(all);
	return rc;
}

int lab_disk_model(const struct blockdev *b, char *model, size_t len, char *cls, size_t clslen)
{
	char lab[LABMODEL_NAME_MAX];
	if (cls && clslen)
		cls[0] = '\0';
	if (b->kind == BLOCKDEV_LOOP && b->backing_file[0] &&
	    lab_describe_loop(b->backing_file, lab, sizeof(lab), cls, clslen) == 0) {
		snprintf(model, len, "brisk lab %s", lab);
		return 1;
	}
	snprintf(model, len, "%s", b->model);
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
	if (labproc_alive(s->server, s->server_start))
		kill(s->server, SIGUSR2);
}

/* 1. the file system on the loop device */
static int unmount_fs(const struct lab_state *s, char *err, size_t errlen)
{
	char source[LAB_PATH_MAX];
	for (int i = 0; i < 4 && s->mnt[0] && s->loop[0] &&
	     mount_lookup(s->mnt, NULL, 0, source, sizeof source) &&
	     strcmp(source, s->loop) == 0; i++) {
		if (umount2(s->mnt, 0) == 0)
			continue;
		int e = errno;
		if (e == EBUSY && i < 3) {
			labproc_nap_ms(300);
			continue;
		}
		msg_set(err, errlen, "cannot unmount %s: %s%s", s->mnt, strerror(e),
		       e == EBUSY ? " (files are open there: see fuser -vm)" : "");
		return -e;
	}
	return 0;
}

/* 3. the FUSE mount, 4. its server */
static int stop_fuse(const struct lab_state *s, char *err, size_t errlen)
{
	struct lab_health h;
	lab_check(s, &h);
	for (int i = 0; h.fuse_mounted && i < 20; i++) {
		if (umount2(s->fusedir, 0) == 0)
			break;
		if (errno != EBUSY || i == 19) {
			int e = errno;
			msg_set(err, errlen, "cannot unmount %s: %s", s->fusedir, strerror(e));
			return -e;
		}
		labproc_nap_ms(100);
	}
	if (s->server > 0 && !labproc_wait_gone(s->server, s->server_start, 3000)) {
		kill(s->server, SIGTERM);
		if (!labproc_wait_gone(s->server, s->server_start, 2000)) {
			kill(s->server, SIGKILL);
			if (!labproc_wait_gone(s->server, s->server_start, 2000)) {
				msg_set(err, errlen, "lab server %d does not stop", (int)s->server);
				return -EBUSY;
			}
		}
	}
	return 0;
}

/* Take apart everything recorded in s; keeps the state file when something
 * in use stops it. */
static int teardown(const struct lab_state *s, char *err, size_t errlen)
{
	trace(TRACE_LAB, "taking apart %s (%s, %s)", s->name, s->loop[0] ? s->loop : "no loop",
	      s->mnt);
	/* 0. the server stops modelling: what is left to flush goes fast */
	if (labproc_alive(s->server, s->server_start))
		kill(s->server, SIGUSR1);
	/* 1. the file system, 2. the loop device: its settings back, detach */
	int rc = unmount_fs(s, err, errlen);
	if (!rc)
		rc = labloop_detach(s, err, errlen);
	if (rc) {
		model_again(s);
		return rc;
	}
	/* 3. the FUSE mount, 4. its server */
	if ((rc = stop_fuse(s, err, errlen)))
		return rc;
	/* Nothing mounted over the directories any more? */
	if ((s->fusedir[0] && mount_lookup(s->fusedir, NULL, 0, NULL, 0)) ||
	    (s->mnt[0] && mount_lookup(s->mnt, NULL, 0, NULL, 0))) {
		msg_set(err, errlen, "something else is mounted on %s or %s; unmount it "
		       "and run 'brisk lab down %s' again", s->mnt, s->fusedir, s->name);
		return -EBUSY;
	}
	/* 5. files */
	rc = remove_path(s->image, 0, err, errlen);
	if (!rc)
		rc = remove_path(s->fusedir, 1, err, errlen);
	if (!rc)
		rc = remove_path(s->mnt, 1, err, errlen);
	if (!rc)
		rc = remove_path(s->dir, 1, err, errlen);
	if (!rc)
		rc = labstate_remove(s->name, err, errlen);
	trace(TRACE_LAB, "%s: %s", s->name, rc ? err : "taken apart");
	return rc;
}

int lab_down(const char *name, char *err, size_t errlen)
{
	struct lab_state s;
	int lk = labstate_lock(err, errlen);
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
	labstate_unlock(lk);
	return rc;
}

int lab_recover_stale(int *cleaned, char *err, size_t errlen)
{
	struct lab_state *all = calloc(64, sizeof *all);
	int n, first = 0, c = 0;
	if (cleaned)
		*cleaned = 0;
	if (!all)
		return -ENOMEM;
	int lk = labstate_lock(err, errlen);
	if (lk < 0) {
		free(all);
		return lk;
	}
	int rc = lab_list_err(all, 64, &n, err, errlen);
	if (rc) {
		labstate_unlock(lk);
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
	labstate_remove_orphans();
	labstate_unlock(lk);
	free(all);
	if (cleaned)
		*cleaned = c;
	return first;
}

/* NAME.log in the locked lab directory, for appending. */
static int log_open(const char *log)
{
	return openat(labstate_dfd(), log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK |
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
	int fd = labstate_dfd() < 0 ? -1 : openat(labstate_dfd(), log, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
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
	for (int i = 0; i < 100 && labproc_start(pid, &st, &c); i++)
		labproc_nap_ms(1);
	s->server_start = st;
	int rc = labstate_save(s);
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

static int pick_name(const char *base, char *name, size_t len)
{
	for (int i = 0; i < 64; i++) {
		char p[LAB_PATH_MAX], st[LAB_NAME_MAX + 16];
		struct stat sb;
		snprintf(name, len, "lab%d", i);
		snprintf(p, sizeof p, "%s/%s", base, name);
		snprintf(st, sizeof st, "%s.state", name);
		if (stat(p, &sb) < 0 && errno == ENOENT &&
		    fstatat(labstate_dfd(), st, &sb, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
			return 0;
	}
	return -EEXIST;
}

/* The model O asks for, from the model table: *m points into models. */
static int up_model(const struct lab_options *o, struct labmodel *models, char *mpath,
		    size_t mlen, const struct labmodel **m, char *err, size_t errlen)
{
	int n, rc;
	if (o->models_file)
		snprintf(mpath, mlen, "%s", o->models_file);
	else if ((rc = lab_models_path(mpath, mlen, err, errlen)))
		return rc;
	if ((rc = labmodel_load(mpath, models, LABMODEL_MAX, &n, err, errlen)))
		return rc == -EINVAL ? rc : -ENOENT;
	const char *mname = o->model ? o->model : "hdd-7200";
	*m = labmodel_find(models, n, mname);
	if (*m)
		return 0;
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

/* Size, name and directory of O checked; BASE the directory's real path
 * (made), with room for the disk and the free-space floor. */
static int up_check(const struct lab_options *o, uint64_t *sizep, char *base,
		    char *err, size_t errlen)
{
	int rc;
	uint64_t size = o->size ? o->size : LAB_DEFAULT_SIZE;
	size &= ~((1ull << 20) - 1);
	if (size < LAB_MIN_SIZE || size > LAB_MAX_SIZE) {
		msg_set(err, errlen, "size %" PRIu64 " MiB is out of range (%llu MiB .. %llu GiB)",
		       o->size >> 20, LAB_MIN_SIZE >> 20, LAB_MAX_SIZE >> 30);
		return -EINVAL;
	}
	*sizep = size;
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
	return 0;
}

/* With the lock held: the lab's name (O's, or the first free labN) and its
 * paths under BASE. */
static int up_name(const struct lab_options *o, const char *base, struct lab_state *s,
		   char *err, size_t errlen)
{
	if (o->name) {
		char p[LAB_PATH_MAX + LAB_NAME_MAX], st[LAB_NAME_MAX + 16];
		struct stat sb;
		snprintf(s->name, sizeof s->name, "%s", o->name);
		snprintf(p, sizeof p, "%s/%s", base, s->name);
		snprintf(st, sizeof st, "%s.state", s->name);
		if (fstatat(labstate_dfd(), st, &sb, AT_SYMLINK_NOFOLLOW) == 0 || stat(p, &sb) == 0) {
			char rt[LAB_PATH_MAX];
			lab_runtime_dir(rt, sizeof rt);
			msg_set(err, errlen, "lab '%s' exists (%s/%s or %s)", s->name, rt, st, p);
			return -EEXIST;
		}
	} else if (pick_name(base, s->name, sizeof s->name)) {
		msg_set(err, errlen, "no free lab name under %s", base);
		return -EEXIST;
	}
	if (snprintf(s->dir, sizeof s->dir, "%s/%s", base, s->name) >= (int)sizeof s->dir ||
	    snprintf(s->image, sizeof s->image, "%s/disk.img", s->dir) >= (int)sizeof s->image ||
	    snprintf(s->fusedir, sizeof s->fusedir, "%s/fuse", s->dir) >= (int)sizeof s->fusedir ||
	    snprintf(s->fusefile, sizeof s->fusefile, "%s/%s", s->fusedir, LABFS_FILE) >=
		    (int)sizeof s->fusefile ||
	    snprintf(s->mnt, sizeof s->mnt, "%s/mnt", s->dir) >= (int)sizeof s->mnt) {
		msg_set(err, errlen, "%s: path too long", base);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* The directories and the image, with ext4 made on the plain file (fast,
 * and no slow-model writes). */
static int make_image(const struct lab_state *s, const char *log, char *err, size_t errlen)
{
	int rc;
	if (mkdir(s->dir, 0755) || mkdir(s->fusedir, 0755) || mkdir(s->mnt, 0755)) {
		rc = -errno;
		msg_set(err, errlen, "cannot create %s: %s", s->dir, strerror(-rc));
		return rc;
	}
	int img = open(s->image, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (img < 0 || ftruncate(img, (off_t)s->size) < 0) {
		rc = -errno;
		if (img >= 0)
			close(img);
		msg_set(err, errlen, "cannot create %s: %s", s->image, strerror(-rc));
		return rc;
	}
	close(img);
	char *mkfs[] = { (char *)"mkfs.ext4", (char *)"-q", (char *)"-F", (char *)"-L",
		(char *)s->name, (char *)"-E",
		(char *)"nodiscard,lazy_itable_init=0,lazy_journal_init=0",
		(char *)s->image, NULL };
	if ((rc = run_wait(mkfs, log)) != 0) {
		msg_set(err, errlen, "mkfs.ext4 %s failed (%s %d)", s->image,
		       rc < 0 ? "error" : "exit", rc < 0 ? -rc : rc);
		return -EIO;
	}
	return 0;
}

/* Server, loop device, its settings, the file system mounted. */
static int bring_up(struct lab_state *s, const struct labmodel *m, const char *mpath,
		    const char *log, char *err, size_t errlen)
{
	int rc, lfd;
	if ((rc = start_server(s, mpath, log, err, errlen)))
		return rc;
	if ((lfd = labloop_attach(s, err, errlen)) < 0)
		return lfd;
	s->dio = labloop_dio(s->loop);
	if (!(rc = labloop_configure(s, m, err, errlen)) && !(rc = labstate_save(s)) &&
	    mount(s->loop, s->mnt, "ext4", 0, NULL) < 0) {
		rc = -errno;
		msg_set(err, errlen, "cannot mount %s on %s: %s", s->loop, s->mnt, strerror(-rc));
	}
	close(lfd);
	if (!rc && chmod(s->mnt, 01777) < 0) {
		rc = -errno;
		msg_set(err, errlen, "chmod %s: %s", s->mnt, strerror(-rc));
	}
	return rc;
}

int lab_up(const struct lab_options *o, struct lab_state *out, char *err, size_t errlen)
{
	struct labmodel models[LABMODEL_MAX];
	const struct labmodel *m;
	char mpath[LAB_PATH_MAX], base[PATH_MAX], log[LAB_PATH_MAX], e2[256];
	struct lab_state *s = out;
	uint64_t size;
	int rc, lk;

	memset(s, 0, sizeof *s);
	s->dio = s->orig_rotational = s->orig_strict_limit = -1;
	s->orig_max_ratio_fine = -1;
	s->tag_depth = s->orig_tag_depth = -1;
	if ((rc = up_model(o, models, mpath, sizeof mpath, &m, err, errlen)) ||
	    (rc = up_check(o, &size, base, err, errlen)))
		return rc;
	if ((lk = labstate_lock(err, errlen)) < 0)
		return lk;
	if ((rc = up_name(o, base, s, err, errlen))) {
		labstate_unlock(lk);
		return rc;
	}
	snprintf(s->model, sizeof s->model, "%s", m->name);
	snprintf(s->disk_class, sizeof s->disk_class, "%s", m->disk_class);
	s->size = size;
	s->dirty_limit = o->dirty_limit;
	s->creator = getpid();
	s->creator_start = labproc_self_start();
	snprintf(log, sizeof log, "%s.log", s->name);
	if ((rc = labstate_save(s))) {
		msg_set(err, errlen, "cannot write the lab state file: %s", strerror(-rc));
		labstate_unlock(lk);
		return rc;
	}
	trace(TRACE_LAB, "making %s: %s, %" PRIu64 " MiB in %s", s->name, m->name, size >> 20,
	      s->dir);
	if (!(rc = make_image(s, log, err, errlen)) &&
	    !(rc = bring_up(s, m, mpath, log, err, errlen))) {
		s->ready = 1;
		rc = labstate_save(s);
	}
	if (rc) {
		log_tail(log, err, errlen);
		if (teardown(s, e2, sizeof e2))
			snprintf(err + strlen(err), errlen - strlen(err),
				 "; taking it apart again failed too: %s", e2);
	}
	labstate_unlock(lk);
	return rc;
}

/* ---- calibration ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The progress reporter of one calibration. */
struct cal_report {
	lab_calibrate_fn fn;
	void *ctx;
	uint64_t last;			/* when it was last called, 0 = not yet this phase */
};

static void cal_report(struct cal_report *r, enum lab_calibrate_phase ph, uint64_t done,
		       uint64_t total, uint64_t rand_left_ns, double seq_left_ns)
{
	uint64_t now = now_ns();
	if (!r->fn || (r->last && now - r->last < LAB_CALIBRATE_REPORT_NS))
		return;
	r->last = now;
	struct lab_calibrate_progress p = {
		.phase = ph, .done = done, .total = total,
		.eta_ns = rand_left_ns + (seq_left_ns > 0 ? (uint64_t)seq_left_ns : 0),
	};
	r->fn(r->ctx, &p);
}

int lab_calibrate(const struct lab_state *s, const struct labmodel *m, double seconds,
		  struct lab_calibration *c, lab_calibrate_fn progress, void *ctx,
		  char *err, size_t errlen)
{
	const size_t bs = 4096, seq_bs = 1u << 20;
	const uint64_t seq_total = 64ull << 20;
	const int min_reads = 20;
	void *buf = NULL;
	memset(c, 0, sizeof *c);
	c->want_rand_ms = (double)labmodel_expect_random_read_ns(m, bs) / 1e6;
	c->want_seq_mb_s = labmodel_expect_seq_read_bps(m) / 1e6;
	struct cal_report rep = { .fn = progress, .ctx = ctx };
	double seq_bps = labmodel_expect_seq_read_bps(m);
	uint64_t total = s->size < seq_total ? s->size : seq_total;
	double seq_guess_ns = seq_bps > 0 ? (double)total / seq_bps * 1e9 : 0;

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
	/* the reads the time will hold, at the model's pace until one is seen */
	uint64_t want = c->want_rand_ms > 0 ? (uint64_t)((double)limit / 1e6 / c->want_rand_ms) : 0;
	want = want < (uint64_t)min_reads ? (uint64_t)min_reads : want > cap ? cap : want;
	cal_report(&rep, LAB_CALIBRATE_RANDOM, 0, want, limit, seq_guess_ns);
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
		if (b - t0 >= limit && c->n >= min_reads)
			break;
		if (c->n) {
			uint64_t per = (b - t0) / (uint64_t)c->n;   /* the pace so far */
			want = per ? limit / per : cap;
			want = want < (uint64_t)min_reads ? (uint64_t)min_reads : want > cap ? cap : want;
			if (want < (uint64_t)c->n)
				want = (uint64_t)c->n;
			uint64_t left = (want - (uint64_t)c->n) * per;
			cal_report(&rep, LAB_CALIBRATE_RANDOM, (uint64_t)c->n, want, left, seq_guess_ns);
		}
	}
	double sum = 0;
	for (int i = 0; i < c->n; i++)
		sum += lat[i];
	c->rand_mean_ms = sum / c->n;
	qsort(lat, (size_t)c->n, sizeof *lat, cmp_double);
	c->rand_p50_ms = lat[c->n / 2];
	c->rand_p90_ms = lat[(c->n * 9) / 10];

	uint64_t start = s->size > 2 * seq_total ? ((seed % (s->size - seq_total)) & ~(uint64_t)(seq_bs - 1)) : 0;
	rep.last = 0;
	cal_report(&rep, LAB_CALIBRATE_SEQ, 0, total, 0, seq_guess_ns);
	/* one read to put the head there, then time the stream */
	if (pread(fd, buf, seq_bs, (off_t)start) != (ssize_t)seq_bs) {
		rc = -(errno ? errno : EIO);
		msg_set(err, errlen, "read %s: %s", s->loop, strerror(-rc));
		goto out;
	}
	uint64_t a = now_ns();
	for (uint64_t done = seq_bs; done < total; done += seq_bs) {
		if (pread(fd, buf, seq_bs, (off_t)(start + done)) != (ssize_t)seq_bs) {
			rc = -(errno ? errno : EIO);
			msg_set(err, errlen, "read %s: %s", s->loop, strerror(-rc));
			goto out;
		}
		/* timed so far: `done` bytes (from seq_bs on) in el */
		uint64_t el = now_ns() - a;
		cal_report(&rep, LAB_CALIBRATE_SEQ, done + seq_bs, total, 0,
			   (double)(total - done - seq_bs) * (double)el / (double)done);
	}
	c->seq_mb_s = (double)(total - seq_bs) / ((double)(now_ns() - a) / 1e9) / 1e6;
out:
	free(buf);
	free(lat);
	close(fd);
	return rc;
}

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
