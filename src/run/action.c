#include "action_priv.h"
#include "msg.h"
#include "child.h"
#include "stats.h"
#include "sysfs.h"
#include "now.h"
#include "trace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MiB (1024ull * 1024)
#define LS_PER_DIR 10
#define EVICT_TRIES 20         /* eviction attempts before a sample is warm */
#define EVICT_PAUSE_MS 10      /* between them: in-flight reads complete */

static const char *const kind_names[ACTION_KIND_COUNT] = {
	[ACTION_EXEC] = "exec",
	[ACTION_LS] = "ls",
	[ACTION_SSH] = "ssh-like",
	[ACTION_SAVE] = "save",
};

const char *action_kind_name(enum action_kind k)
{
	return (unsigned)k < ACTION_KIND_COUNT ? kind_names[k] : "?";
}

void action_config_default(struct action_config *c)
{
	*c = (struct action_config){
		.exec_cmd = NULL,
		.ls_files = 2000,
		.ssh_file = 30 * MiB,
		.ssh_region = 2 * MiB,
		.ssh_bs_lo = 4096,
		.ssh_bs_hi = 44 * 1024,
		.save_size = 4096,
	};
}


int action_parse_list(const char *text, unsigned *mask, char *err, size_t errlen)
{
	char buf[256];
	if (strlen(text) >= sizeof(buf))
		return msg_fail(-EINVAL, err, errlen, "actions '%.40s...': too long", text);
	strcpy(buf, text);
	unsigned m = 0;
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int k = -1;
		if (strcmp(t, "all") == 0) {
			m |= (1u << ACTION_KIND_COUNT) - 1;
			continue;
		}
		if (strcmp(t, "ssh") == 0)
			k = ACTION_SSH;
		for (int i = 0; i < ACTION_KIND_COUNT; i++)
			if (strcmp(t, kind_names[i]) == 0)
				k = i;
		if (k < 0)
			return msg_fail(-EINVAL, err, errlen, "actions: unknown action '%s' "
				    "(exec, ls, ssh-like, save, all)", t);
		m |= 1u << k;
	}
	if (!m)
		return msg_fail(-EINVAL, err, errlen, "actions: the list is empty");
	*mask = m;
	return 0;
}

/* A file of the action: a name in the work directory (never through a
 * link), or an absolute path of a program or library. */
static int open_file(int dirfd, const char *name)
{
	return openat(dirfd, name, O_RDONLY | O_CLOEXEC | (name[0] == '/' ? 0 : O_NOFOLLOW));
}

long action_resident_pages(const char *path)
{
	return action_resident_pages_at(AT_FDCWD, path);
}

long action_resident_pages_at(int dirfd, const char *path)
{
	int fd = open_file(dirfd, path);
	if (fd < 0)
		return -errno;
	struct stat st;
	long rc = 0;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
	} else if (st.st_size > 0) {
		size_t len = (size_t)st.st_size;
		size_t pg = (size_t)sysconf(_SC_PAGESIZE);
		size_t np = (len + pg - 1) / pg;
		void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		unsigned char *vec = map == MAP_FAILED ? NULL : malloc(np);
		if (map == MAP_FAILED) {
			rc = -errno;
		} else if (!vec) {
			rc = -ENOMEM;
		} else if (mincore(map, len, vec) < 0) {
			rc = -errno;
		} else {
			for (size_t i = 0; i < np; i++)
				rc += vec[i] & 1;
		}
		free(vec);
		if (map != MAP_FAILED)
			munmap(map, len);
	}
	close(fd);
	return rc;
}

int action_evict_file(int dirfd, const char *path)
{
	int fd = open_file(dirfd, path);
	if (fd < 0)
		return -errno;
	int rc = -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return rc;
}

int action_add_file(struct action *a, const char *path)
{
	for (size_t i = 0; i < a->n_files; i++)
		if (strcmp(a->files[i], path) == 0)
			return 0;
	char **f = realloc(a->files, (a->n_files + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	a->files = f;
	unsigned char *p = realloc(a->pinned, a->n_files + 1);
	if (!p)
		return -ENOMEM;
	a->pinned = p;
	if (!(f[a->n_files] = strdup(path)))
		return -ENOMEM;
	p[a->n_files++] = 0;
	return 0;
}

void action_free_strv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* A new directory name in dfd (never one that was there), opened; mode
 * 0755 whatever the umask: the sample walks it as run_as, from a
 * descriptor, inside the 0700 work area that only brisk enters. */
static int mkdir_at(int dfd, const char *name)
{
	if (mkdirat(dfd, name, 0700) < 0)
		return -errno;
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0755) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

static int prepare_ls(struct action *a, int dirfd)
{
	snprintf(a->path, sizeof(a->path), "tree");
	int tree = mkdir_at(dirfd, a->path);
	if (tree < 0)
		return tree;
	unsigned files = a->cfg.ls_files;
	unsigned leaves = (files + LS_PER_DIR - 1) / LS_PER_DIR;
	unsigned made = 0, dirs = 0;
	int rc = 0, top = -1;
	for (unsigned leaf = 0; rc == 0 && leaf < leaves; leaf++) {
		char p[32];
		if (leaf % LS_PER_DIR == 0) {
			if (top >= 0)
				close(top);
			snprintf(p, sizeof(p), "d%03u", leaf / LS_PER_DIR);
			if ((top = rc = mkdir_at(tree, p)) < 0)
				break;
			rc = 0;
			dirs++;
		}
		snprintf(p, sizeof(p), "s%u", leaf % LS_PER_DIR);
		int sub = mkdir_at(top, p);
		if (sub < 0) {
			rc = sub;
			break;
		}
		dirs++;
		for (unsigned f = 0; f < LS_PER_DIR && made < files; f++, made++) {
			char fp[32], text[96];
			snprintf(fp, sizeof(fp), "f%u", f);
			int fd = openat(sub, fp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
					0600);
			if (fd < 0) {
				rc = -errno;
				break;
			}
			/* a little data, as real files have */
			int n = snprintf(text, sizeof(text), "tree/d%03u/s%u/%s", leaf / LS_PER_DIR,
					 leaf % LS_PER_DIR, fp);
			if (write(fd, text, (size_t)n) < 0)
				rc = -errno;
			close(fd);
		}
		close(sub);
	}
	if (top >= 0)
		close(top);
	close(tree);
	a->ls_expect = made + dirs;
	return rc;
}

/* A new file (O_EXCL, never through a link) of size random bytes. */
static int make_file(int dirfd, const char *name, uint64_t size, uint64_t seed)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	/* 64 KiB at a time (a multiple of 8: the same bytes at the same
	 * offsets whatever the step): a larger buffer only adds to the
	 * parent's RSS */
	const size_t step = 64 << 10;
	unsigned char *buf = malloc(step);
	int rc = buf ? 0 : -ENOMEM;
	uint64_t st = seed;
	for (uint64_t off = 0; rc == 0 && off < size;) {
		size_t len = size - off < step ? (size_t)(size - off) : step;
		for (size_t i = 0; i + 8 <= len; i += 8) {
			uint64_t r = stats_rand_next(&st);
			memcpy(buf + i, &r, 8);
		}
		ssize_t w = pwrite(fd, buf, len, (off_t)off);
		if (w < 0 && errno != EINTR)
			rc = -errno;
		else if (w > 0)
			off += (uint64_t)w;
	}
	free(buf);
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

int action_prepare(struct action *a, enum action_kind k, const struct action_config *cfg,
		   int dirfd, enum action_evict evict, char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	a->kind = k;
	a->cfg = *cfg;
	a->dirfd = dirfd;
	child_cred_resolve(&a->run_as);
	int rc = 0;
	switch (k) {
	case ACTION_EXEC:
		rc = action_prepare_exec(a, dirfd, err, errlen);
		break;
	case ACTION_LS:
		if (cfg->ls_files == 0)
			return msg_fail(-EINVAL, err, errlen, "ls: the tree needs at least one file");
		rc = prepare_ls(a, dirfd);
		if (rc < 0)
			msg_fail(rc, err, errlen, "ls: cannot create the tree in the work directory: %s",
				 strerror(-rc));
		if (evict != ACTION_EVICT_DROP_CACHES)
			snprintf(a->note, sizeof(a->note), "warm: dentries and inodes stay "
				 "cached without --drop-caches (root)");
		break;
	case ACTION_SSH:
		if (cfg->ssh_region > cfg->ssh_file || cfg->ssh_bs_lo == 0 ||
		    cfg->ssh_bs_hi > cfg->ssh_region || cfg->ssh_bs_lo > cfg->ssh_bs_hi)
			return msg_fail(-EINVAL, err, errlen, "ssh-like: need 0 < bs <= region <= file");
		snprintf(a->path, sizeof(a->path), "ssh-like.dat");
		rc = make_file(dirfd, a->path, cfg->ssh_file, 0x55aa);
		if (rc == 0)
			rc = action_add_file(a, a->path);
		if (rc < 0)
			msg_fail(rc, err, errlen, "ssh-like: cannot write %s: %s", a->path, strerror(-rc));
		break;
	case ACTION_SAVE:
		snprintf(a->path, sizeof(a->path), "save.dat");
		rc = make_file(dirfd, a->path, cfg->save_size, 0x5a5e);
		if (rc == 0)
			rc = action_add_file(a, a->path);
		if (rc < 0)
			msg_fail(rc, err, errlen, "save: cannot write %s: %s", a->path, strerror(-rc));
		break;
	case ACTION_KIND_COUNT:
		return -EINVAL;
	}
	if (rc < 0)
		return rc;
	/* Which files does eviction fail on (mapped by running processes, or
	 * dirty)?  Those are excluded from the cold check and named. */
	size_t o = strlen(a->note);
	for (size_t i = 0; i < a->n_files; i++) {
		action_evict_file(dirfd, a->files[i]);
		if (action_resident_pages_at(dirfd, a->files[i]) > 0) {
			a->pinned[i] = 1;
			const char *base = strrchr(a->files[i], '/');
			base = base ? base + 1 : a->files[i];
			if (o + strlen(base) + 64 < sizeof(a->note))
				o += (size_t)snprintf(a->note + o, sizeof(a->note) - o, "%s%s",
						      o ? ", " : "stays cached (mapped by running "
						      "processes): ", base);
		}
	}
	return 0;
}

/* ---- the sample process ---- */

static int walk(int dfd, unsigned *count)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -errno;
	}
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (errno = 0, e = readdir(d))) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			rc = -errno;
			break;
		}
		(*count)++;
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			rc = sub < 0 ? -errno : walk(sub, count);
		}
	}
	if (rc == 0 && errno)
		rc = -errno;
	closedir(d);
	return rc;
}

/* fd: the tree, opened before the drop (walk takes it) */
static int do_ls(const struct action *a, int fd)
{
	unsigned count = 0;
	int rc = walk(fd, &count);
	if (rc < 0)
		return -rc;
	return count == a->ls_expect ? 0 : EUCLEAN;
}

struct chunk {
	uint64_t off, len;
};

/* fd: the file, opened O_RDONLY before the drop */
static int do_ssh(const struct action *a, int fd, uint64_t *t0, volatile struct iowhy_window *win)
{
	const struct action_config *c = &a->cfg;
	size_t max = (size_t)(c->ssh_region / c->ssh_bs_lo) + 1, n = 0;
	struct chunk *ch = malloc(max * sizeof(*ch));
	void *buf = NULL;
	if (!ch || posix_memalign(&buf, 4096, c->ssh_bs_hi)) {
		free(ch);
		close(fd);
		return ENOMEM;
	}
	uint64_t rng = now_ns() ^ (uint64_t)getpid() << 20;
	uint64_t g = c->ssh_bs_lo % 4096 == 0 ? 4096 : 512;
	/* cover the region once, like fio's random map */
	for (uint64_t off = 0; off < c->ssh_region && n < max; n++) {
		uint64_t len = c->ssh_bs_lo + stats_rand_range(&rng, 0, (c->ssh_bs_hi - c->ssh_bs_lo) / g) * g;
		if (len > c->ssh_region - off)
			len = c->ssh_region - off;
		ch[n] = (struct chunk){ off, len };
		off += len;
	}
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)stats_rand_range(&rng, 0, i - 1);
		struct chunk t = ch[i - 1];
		ch[i - 1] = ch[j];
		ch[j] = t;
	}
	*t0 = now_ns();
	if (win)
		win->from = *t0;
	int rc = 0;
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);   /* as fio does */
	for (size_t i = 0; rc == 0 && i < n; i++) {
		ssize_t r = pread(fd, buf, ch[i].len, (off_t)ch[i].off);
		if (r < 0 && errno == EINTR)
			i--;
		else if (r < 0)
			rc = errno;
		else if ((uint64_t)r != ch[i].len)
			rc = EIO;
	}
	close(fd);
	free(ch);
	free(buf);
	return rc;
}

/* fd: the file prepare made, opened O_WRONLY before the drop (without
 * O_TRUNC: truncated here, in the timed part, as the open did before) */
static int do_save(const struct action *a, int fd)
{
	size_t n = (size_t)a->cfg.save_size;
	char *buf = malloc(n ? n : 1);
	int rc = buf ? 0 : ENOMEM;
	if (buf)
		memset(buf, 's', n);
	if (rc == 0 && ftruncate(fd, 0) < 0)
		rc = errno;
	for (size_t off = 0; rc == 0 && off < n;) {
		ssize_t w = write(fd, buf + off, n - off);
		if (w < 0 && errno != EINTR)
			rc = errno;
		else if (w > 0)
			off += (size_t)w;
	}
	if (rc == 0 && fsync(fd) < 0)
		rc = errno;
	if (close(fd) < 0 && rc == 0)
		rc = errno;
	free(buf);
	return rc;
}

/* The program dies with the sample process, which dies with brisk: vfork
 * (what posix_spawn does, so the timed part costs the same), then
 * PR_SET_PDEATHSIG in the child before it execs.  It stays in the
 * sample's process group, which the watchdog kills, and runs as the
 * sample does (dropped); the copy from prog/, the sample's cwd. */
static int do_exec(const struct action *a)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return errno;
	pid_t parent = getpid();
	/* the vfork child shares our memory until it execs: why it could not */
	static volatile int start_err;
	start_err = 0;
	pid_t pid = vfork();
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent ||
		    dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0) {
			start_err = errno ? errno : ESRCH;
			_exit(127);
		}
		/* the copy: relative to prog/, its own environment */
		execve(a->argv[0], a->argv, a->prog.argv ? a->prog.envp : environ);
		start_err = errno;
		_exit(127);
	}
	int rc = pid < 0 ? errno : 0;
	close(null);
	if (rc)
		return rc;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return errno;
	if (start_err)
		return start_err;
	if (WIFSIGNALED(st))
		return 1000 + 128 + WTERMSIG(st);
	return WEXITSTATUS(st) ? 1000 + WEXITSTATUS(st) : 0;
}

/* What the action needs from the work directory, opened before the drop
 * (the dropped user could not reach it by name): *fd for ls (the tree),
 * ssh-like (O_RDONLY) and save (O_WRONLY); the copied program's prog/
 * becomes the cwd.  0 or an errno. */
static int open_for(const struct action *a, int *fd)
{
	const int fl = O_NOFOLLOW | O_CLOEXEC;
	*fd = -1;
	switch (a->kind) {
	case ACTION_LS:
		*fd = openat(CHILD_DIR_FD, a->path, fl | O_RDONLY | O_DIRECTORY);
		break;
	case ACTION_SSH:
		*fd = openat(CHILD_DIR_FD, a->path, fl | O_RDONLY);
		break;
	case ACTION_SAVE:
		*fd = openat(CHILD_DIR_FD, a->path, fl | O_WRONLY);
		break;
	case ACTION_EXEC: {
		if (!a->prog.argv)
			return 0;   /* --exec: in place */
		int d = openat(CHILD_DIR_FD, PROGCOPY_DIR, fl | O_RDONLY | O_DIRECTORY);
		int rc = d < 0 || fchdir(d) < 0 ? errno : 0;
		if (d >= 0)
			close(d);
		return rc;
	}
	case ACTION_KIND_COUNT:
		return EINVAL;
	}
	return *fd < 0 ? errno : 0;
}

/* Blocks this process read from storage (getrusage's ru_inblock: the
 * kernel's read_bytes / 512, what /proc/self/io shows, which a dropped
 * process may no longer open). */
static int read_blocks(uint64_t *out)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -errno;
	*out = (uint64_t)ru.ru_inblock;
	return 0;
}

static void __attribute__((noreturn)) sample_main(const struct action *a,
						  enum action_evict evict, int wfd,
						  volatile struct iowhy_window *win)
{
	struct action_result r = { 0 };
	int cold = 1;
	if (evict == ACTION_EVICT_DROP_CACHES)
		cold = sysfs_write("/proc/sys/vm/drop_caches",
				   a->kind == ACTION_LS ? "3" : "1") == 0;
	else if (a->kind == ACTION_LS)
		cold = 0;
	/* Pages under read I/O (a readahead the last start left in flight,
	 * slow under load) are locked and survive DONTNEED: wait and retry. */
	int resident = 1;
	for (int t = 0; resident && t < EVICT_TRIES; t++) {
		if (t)
			poll(NULL, 0, EVICT_PAUSE_MS);
		resident = 0;
		for (size_t i = 0; i < a->n_files; i++) {
			if (t && a->pinned[i])
				continue;
			action_evict_file(CHILD_DIR_FD, a->files[i]);
			long left;
			if (!a->pinned[i] &&
			    (left = action_resident_pages_at(CHILD_DIR_FD, a->files[i])) != 0) {
				resident = 1;
				if (t == EVICT_TRIES - 1)
					trace(TRACE_SESSION, "%s: %ld page(s) of %s stay cached after %d "
					      "evictions", action_kind_name(a->kind), left, a->files[i],
					      EVICT_TRIES);
			}
		}
	}
	if (resident)
		cold = 0;
	r.cold = cold;
	/* then as the user the actions run as: nothing of the work directory
	 * left but what the action needs (a drop that fails runs nothing) */
	int fd;
	r.err = open_for(a, &fd);
	close(CHILD_DIR_FD);
	int drc = r.err ? 0 : child_drop(&a->run_as);
	if (drc == -ESRCH)
		_exit(1);   /* brisk is gone */
	if (drc < 0) {
		trace(TRACE_SESSION, "%s: cannot drop to uid %u: %s", action_kind_name(a->kind),
		      (unsigned)a->run_as.uid, strerror(-drc));
		r.err = -drc;
		if (fd >= 0)
			close(fd);
	}
	/* ls has no file pages to check: a walk that read nothing from storage
	 * was warm (metadata the journal still pins survives drop_caches) */
	uint64_t io0 = 0, io1 = 0;
	int io_check = a->kind == ACTION_LS && cold && !r.err && read_blocks(&io0) == 0;
	uint64_t t0 = now_ns();
	if (win && a->kind != ACTION_SSH)   /* ssh-like: once its reads are planned */
		win->from = t0;             /* before anything else: the write below
					     * wakes brisk, which may preempt us */
	/* First record: eviction done, the timed part begins (the watchdog
	 * needs the cold flag even if the action never finishes). */
	r.t_start_ns = t0;
	r.dur_ns = UINT64_MAX;
	ssize_t w;
	do
		w = write(wfd, &r, sizeof(r));
	while (w < 0 && errno == EINTR);
	switch (r.err ? ACTION_KIND_COUNT : a->kind) {
	case ACTION_EXEC: r.err = do_exec(a); break;
	case ACTION_LS: r.err = do_ls(a, fd); break;
	case ACTION_SSH: r.err = do_ssh(a, fd, &t0, win); break;
	case ACTION_SAVE: r.err = do_save(a, fd); break;
	case ACTION_KIND_COUNT: r.err = r.err ? r.err : EINVAL; break;
	}
	uint64_t t1 = now_ns();
	if (win)
		win->to = t1;
	if (io_check && !r.err && read_blocks(&io1) == 0 && io1 == io0)
		r.cold = 0;
	r.t_start_ns = t0;
	r.dur_ns = t1 - t0;
	do
		w = write(wfd, &r, sizeof(r));
	while (w < 0 && errno == EINTR);
	_exit(0);
}

#ifndef EXT4_IOC_CHECKPOINT   /* linux/ext4.h, not in every libc's headers */
#define EXT4_IOC_CHECKPOINT _IOW('f', 43, uint32_t)
#endif
#define EXT4_MAGIC 0xef53

void action_make_evictable(int dirfd)
{
	syncfs(dirfd);
	struct statfs sf;
	uint32_t flags = 0;   /* no discard, no zeroing: write the journal back */
	if (geteuid() == 0 && fstatfs(dirfd, &sf) == 0 && sf.f_type == EXT4_MAGIC &&
	    ioctl(dirfd, EXT4_IOC_CHECKPOINT, &flags) < 0)
		trace(TRACE_SESSION, "ext4 journal checkpoint: %s", strerror(errno));
}

int action_sample_start(const struct action *a, enum action_evict evict,
			volatile struct iowhy_window *win, pid_t *pidp, int *fdp)
{
	int rc = child_fork(pidp, fdp, a->dirfd);
	if (rc == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_IGN);
		child_unblock_signals();
		sample_main(a, evict, CHILD_RESULT_FD, win);
	}
	return rc < 0 ? rc : 0;
}

int action_sample_read(int fd, struct action_result *out)
{
	for (;;) {
		ssize_t r = read(fd, out, sizeof(*out));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		return r == (ssize_t)sizeof(*out);
	}
}

int action_cold_only(const struct action *a, enum action_evict evict, int keep_warm)
{
	return !keep_warm && !(a->kind == ACTION_LS && evict != ACTION_EVICT_DROP_CACHES);
}

void action_free(struct action *a)
{
	progcopy_free(&a->prog);
	free(a->devs);
	free(a->off);
	action_free_strv(a->argv);
	for (size_t i = 0; i < a->n_files; i++)
		free(a->files[i]);
	free(a->files);
	free(a->pinned);
	memset(a, 0, sizeof(*a));
}
