/* labfs — FUSE server of a lab disk; see labfs.h. */
#define FUSE_USE_VERSION 31
#include "labfs.h"
#include "now.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef PR_SET_IO_FLUSHER
#define PR_SET_IO_FLUSHER 57
#endif

/* One server per process: the FUSE callbacks reach their state here. */
static struct {
	const struct labmodel *m;
	int fd;
	uint64_t size;
	struct labmodel_head head;
	uint64_t reads, writes, busy_ns;
	uint64_t late, late_ns;	/* requests the backing file made late */
} S;

static const char file_path[] = "/" LABFS_FILE;

/* Set by SIGUSR1 (lab down, before unmounting): serve at the host's speed
 * so flushing the dirty pages of a slow model does not take hours; cleared
 * by SIGUSR2 (lab down could not unmount: the disk stays in use). */
static volatile sig_atomic_t unmodelled;

static void on_usr(int sig)
{
	unmodelled = sig == SIGUSR1;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u),
			       .tv_nsec = (long)(t % 1000000000u) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->entry_timeout = cfg->attr_timeout = 3600;
	cfg->negative_timeout = 0;
	conn->max_write = 1u << 20;
	conn->max_read = 1u << 20;
	conn->max_readahead = 0;
	return NULL;
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof *st);
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, file_path) != 0)
		return -ENOENT;
	st->st_mode = S_IFREG | 0600;
	st->st_nlink = 1;
	st->st_size = (off_t)S.size;
	st->st_blocks = (blkcnt_t)(S.size / 512);
	return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off, (void)fi, (void)flags;
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, LABFS_FILE, NULL, 0, 0);
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, file_path) != 0)
		return -ENOENT;
	if (fi->flags & O_TRUNC)
		return -EPERM;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return 0;
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)fi;
	if (strcmp(path, file_path) != 0)
		return -ENOENT;
	return (uint64_t)size == S.size ? 0 : -EPERM;
}

/* One request through the model: time it, do it, wait out the rest. */
static int serve(int write, char *buf, size_t size, off_t off)
{
	if (off < 0)
		return -EINVAL;
	uint64_t o = (uint64_t)off;
	if (o >= S.size)
		return write ? -ENOSPC : 0;
	if (size > S.size - o) {
		if (write)
			return -ENOSPC;
		size = (size_t)(S.size - o);
	}
	uint64_t start = now_ns();
	uint64_t svc = unmodelled ? 0
		: labmodel_service_ns(S.m, &S.head, S.size, write, o, size, start, NULL);
	size_t done = 0;
	if (!write) {
		/* Never-written ranges of the sparse image read as zeros without
		 * asking the host's disk (and without filling its page cache). */
		off_t data = lseek(S.fd, off, SEEK_DATA);
		if ((data < 0 && errno == ENXIO) || (data >= 0 && (uint64_t)data >= o + size)) {
			memset(buf, 0, size);
			done = size;
		}
	}
	while (done < size) {
		ssize_t n = write ? pwrite(S.fd, buf + done, size - done, off + (off_t)done)
				  : pread(S.fd, buf + done, size - done, off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) { /* read past the image's end: zeros, like a disk */
			memset(buf + done, 0, size - done);
			break;
		}
		done += (size_t)n;
	}
	uint64_t end = now_ns();
	if (end > start + svc) { /* the host's disk was slower than the model */
		S.late++;
		S.late_ns += end - (start + svc);
	}
	sleep_until(start + svc);
	S.busy_ns += svc;
	if (write)
		S.writes++;
	else
		S.reads++;
	return (int)size;
}

static int fs_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	return serve(0, buf, size, off);
}

static int fs_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	return serve(1, (char *)buf, size, off);
}

static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path, (void)datasync, (void)fi;
	return 0;
}

static int fs_fallocate(const char *path, int mode, off_t off, off_t len,
			struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	if (off < 0 || len <= 0 || (uint64_t)off + (uint64_t)len > S.size)
		return -EINVAL;
	return fallocate(S.fd, mode, off, len) ? -errno : 0;
}

static const struct fuse_operations ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.truncate = fs_truncate,
	.read = fs_read,
	.write = fs_write,
	.fsync = fs_fsync,
	.fallocate = fs_fallocate,
};

int labfs_serve(const struct labmodel *m, const char *image,
		const char *mountpoint, const char *fsname, int ready_fd)
{
	struct stat st;
	char opts[256];
	int rc = 0;

	memset(&S, 0, sizeof S);
	S.m = m;
	S.fd = open(image, O_RDWR | O_CLOEXEC);
	if (S.fd < 0 || fstat(S.fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = S.fd < 0 ? -errno : -EINVAL;
		fprintf(stderr, "labfs: %s: cannot use as image: %s\n", image, strerror(-rc));
		if (S.fd >= 0)
			close(S.fd);
		return rc;
	}
	S.size = (uint64_t)st.st_size;
	if (prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0) < 0)
		fprintf(stderr, "labfs: PR_SET_IO_FLUSHER: %s (continuing)\n", strerror(errno));

	snprintf(opts, sizeof opts, "fsname=%s,subtype=brisk-lab,max_read=1048576", fsname);
	char *argv[] = { (char *)"brisk-labfs", (char *)"-o", opts, NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, argv);
	struct fuse *f = fuse_new(&args, &ops, sizeof ops, NULL);
	if (!f) {
		fprintf(stderr, "labfs: fuse_new failed\n");
		rc = -EINVAL;
		goto out;
	}
	if (fuse_mount(f, mountpoint) != 0) {
		fprintf(stderr, "labfs: cannot mount FUSE at %s\n", mountpoint);
		rc = -EIO;
		goto out_destroy;
	}
	if (fuse_set_signal_handlers(fuse_get_session(f)) != 0) {
		rc = -EIO;
		goto out_unmount;
	}
	struct sigaction sa = { .sa_handler = on_usr };
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	if (ready_fd >= 0) {
		ssize_t w = write(ready_fd, "1", 1);
		(void)w;
		close(ready_fd);
		ready_fd = -1;
	}
	fprintf(stderr, "labfs: serving %s (%" PRIu64 " bytes) at %s as model %s\n",
		image, S.size, mountpoint, m->name);
	if (fuse_loop(f) != 0)
		rc = -EIO;
	fprintf(stderr, "labfs: stopped after %" PRIu64 " reads, %" PRIu64
		" writes, %.3f s modelled busy time; %" PRIu64 " requests late by %.3f s "
		"in all (the image's own disk was slower than the model)\n", S.reads, S.writes,
		(double)S.busy_ns / 1e9, S.late, (double)S.late_ns / 1e9);
	fuse_remove_signal_handlers(fuse_get_session(f));
out_unmount:
	fuse_unmount(f);
out_destroy:
	fuse_destroy(f);
out:
	fuse_opt_free_args(&args);
	close(S.fd);
	if (ready_fd >= 0)
		close(ready_fd);
	return rc;
}
