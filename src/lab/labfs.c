/* labfs — FUSE server of a lab disk; see labfs.h. */
#define FUSE_USE_VERSION 34
#include "labfs.h"
#include "labstats.h"
#include "now.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef PR_SET_IO_FLUSHER
#define PR_SET_IO_FLUSHER 57
#endif

#define INO_FILE 2
#define INO_STATS 3
/* A service that starts later than this after it could have is late. */
#define LATE_SLACK_NS 1000000ull
#define STATS_EVERY_NS 10000000000ull
#define TIMEOUT_S 3600.0

/* A request held until the model says it is done. */
struct pending {
	fuse_req_t req;
	struct labmodel_req r;
	char *buf;		/* read data (malloc'ed); NULL for a write */
	uint64_t svc;		/* the service time the model gave it */
};

/* What the queue looked like, over a window or the whole run. */
struct counts {
	uint64_t reqs;		/* reads and writes received */
	uint64_t out_sum, out_max; /* outstanding at the server at each arrival,
				    * the arriving one included */
	uint64_t picks, cand_sum; /* services started, requests chosen among */
	uint64_t reordered;	/* served before an older queued request */
	uint64_t aged;		/* chosen by the aging bound */
};

/* One server per process: the FUSE callbacks reach their state here. */
static struct {
	const struct labmodel *m;
	int fd;
	uint64_t size;
	int async_dio;
	struct labmodel_head head;
	struct pending *q;	/* waiting, q[0..n-1] */
	struct labmodel_req *qr; /* their model view, for labmodel_pick */
	int n, cap;
	struct pending cur;	/* in service while busy */
	int busy;
	uint64_t cur_done;	/* when cur completes (CLOCK_MONOTONIC ns) */
	uint64_t busy_ns;
	struct labstats st;	/* what the stats file shows */
	uint64_t late, late_ns;	/* services the server started late */
	struct counts all, win;
	uint64_t win_start;
} S;

/* Set by SIGUSR1 (lab down, before unmounting): serve at the host's speed
 * so flushing the dirty pages of a slow model does not take hours; cleared
 * by SIGUSR2 (lab down could not unmount: the disk stays in use). */
static volatile sig_atomic_t unmodelled;

static void on_usr(int sig)
{
	unmodelled = sig == SIGUSR1;
}

static void fill_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof *st);
	st->st_ino = ino;
	if (ino == FUSE_ROOT_ID) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return;
	}
	st->st_nlink = 1;
	if (ino == INO_STATS) {	/* made at open, size unknown before (as /proc's) */
		st->st_mode = S_IFREG | 0444;
		return;
	}
	st->st_mode = S_IFREG | 0600;
	st->st_size = (off_t)S.size;
	st->st_blocks = (blkcnt_t)(S.size / 512);
}

static void ll_init(void *ud, struct fuse_conn_info *conn)
{
	(void)ud;
	unsigned depth = S.m->queue_depth > 0 ? (unsigned)S.m->queue_depth : 1;
	conn->max_write = 1u << 20;
	conn->max_read = 1u << 20;
	conn->max_readahead = 0;
	/* The loop device's direct I/O is asynchronous: FUSE keeps up to
	 * max_background such requests in flight, the device's queue. */
	if (conn->capable & FUSE_CAP_ASYNC_DIO)
		conn->want |= FUSE_CAP_ASYNC_DIO;
	S.async_dio = (conn->want & FUSE_CAP_ASYNC_DIO) != 0;
	conn->max_background = depth;
	conn->congestion_threshold = depth;
}

static void ll_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_ino_t ino = parent != FUSE_ROOT_ID ? 0 : strcmp(name, LABFS_FILE) == 0 ? INO_FILE
		: strcmp(name, LABSTATS_FILE) == 0 ? INO_STATS : 0;
	if (!ino) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	struct fuse_entry_param e;
	memset(&e, 0, sizeof e);
	e.ino = ino;
	e.attr_timeout = e.entry_timeout = TIMEOUT_S;
	fill_attr(ino, &e.attr);
	fuse_reply_entry(req, &e);
}

static void ll_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)fi;
	struct stat st;
	if (ino != FUSE_ROOT_ID && ino != INO_FILE && ino != INO_STATS) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_attr(ino, &st);
	fuse_reply_attr(req, &st, TIMEOUT_S);
}

/* Only a truncate to the size it has is accepted. */
static void ll_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		       struct fuse_file_info *fi)
{
	(void)fi;
	struct stat st;
	if (ino != INO_FILE) {
		fuse_reply_err(req, ino == FUSE_ROOT_ID || ino == INO_STATS ? EPERM : ENOENT);
		return;
	}
	if ((to_set & ~FUSE_SET_ATTR_SIZE) ||
	    ((to_set & FUSE_SET_ATTR_SIZE) && (uint64_t)attr->st_size != S.size)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	fill_attr(ino, &st);
	fuse_reply_attr(req, &st, TIMEOUT_S);
}

/* The stats file: read-only, its text made now and kept until release. */
static void open_stats(fuse_req_t req, struct fuse_file_info *fi)
{
	if ((fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC)) {
		fuse_reply_err(req, EACCES);
		return;
	}
	char *text = malloc(LABSTATS_TEXT_MAX);
	S.st.unmodelled = unmodelled != 0;
	if (!text || labstats_format(&S.st, S.m->name, text, LABSTATS_TEXT_MAX) < 0) {
		free(text);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)text;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fuse_reply_open(req, fi);
}

static void read_stats(fuse_req_t req, size_t size, off_t off, struct fuse_file_info *fi)
{
	const char *text = (const char *)(uintptr_t)fi->fh;
	size_t len = text ? strlen(text) : 0;
	if (off < 0 || (uint64_t)off >= len) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > len - (size_t)off)
		size = len - (size_t)off;
	fuse_reply_buf(req, text + off, size);
}

static void ll_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (ino == INO_STATS) {
		open_stats(req, fi);
		return;
	}
	if (ino != INO_FILE) {
		fuse_reply_err(req, ino == FUSE_ROOT_ID ? EISDIR : ENOENT);
		return;
	}
	if (fi->flags & O_TRUNC) {
		fuse_reply_err(req, EPERM);
		return;
	}
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fuse_reply_open(req, fi);
}

static void ll_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	(void)fi;
	static const char *const names[] = { ".", "..", LABFS_FILE, LABSTATS_FILE };
	static const fuse_ino_t inos[] = { FUSE_ROOT_ID, FUSE_ROOT_ID, INO_FILE, INO_STATS };
	char buf[512];
	size_t used = 0;
	if (ino != FUSE_ROOT_ID) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (off_t i = off < 0 ? 0 : off; i < 4; i++) {
		struct stat st = { .st_ino = inos[i], .st_mode = i >= 2 ? S_IFREG : S_IFDIR };
		size_t need = fuse_add_direntry(req, NULL, 0, names[i], NULL, 0);
		if (used + need > size || used + need > sizeof buf)
			break;
		fuse_add_direntry(req, buf + used, sizeof buf - used, names[i], &st, i + 1);
		used += need;
	}
	fuse_reply_buf(req, buf, used);
}

static void ll_ok(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino, (void)fi;
	fuse_reply_err(req, 0);
}

static void ll_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (ino == INO_STATS)
		free((void *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

static void ll_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	(void)ino, (void)datasync, (void)fi;
	fuse_reply_err(req, 0);
}

static void ll_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off, off_t len,
			 struct fuse_file_info *fi)
{
	(void)fi;
	if (ino != INO_FILE || off < 0 || len <= 0 || (uint64_t)off + (uint64_t)len > S.size) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	fuse_reply_err(req, fallocate(S.fd, mode, off, len) ? errno : 0);
}

/* ---- the device queue ---- */

static void answer(struct pending *p)
{
	struct labstats_dir *d = p->buf ? &S.st.rd : &S.st.wr;
	if (p->buf)
		fuse_reply_buf(p->req, p->buf, (size_t)p->r.len);
	else
		fuse_reply_write(p->req, (size_t)p->r.len);
	uint64_t t = now_ns();
	d->n++;
	d->bytes += p->r.len;
	d->service_ns += p->svc;
	d->resident_ns += t > p->r.arrival_ns ? t - p->r.arrival_ns : 0;
	free(p->buf);
	p->buf = NULL;
}

static void count_arrival(struct counts *c, uint64_t outstanding)
{
	c->reqs++;
	c->out_sum += outstanding;
	if (outstanding > c->out_max)
		c->out_max = outstanding;
}

static void count_pick(struct counts *c, int candidates, int reordered, int aged)
{
	c->picks++;
	c->cand_sum += (uint64_t)candidates;
	c->reordered += reordered != 0;
	c->aged += aged != 0;
}

static void log_counts(const char *what, const struct counts *c)
{
	if (c->reqs == 0)
		return;
	fprintf(stderr, "labfs: %s: %" PRIu64 " requests; outstanding at arrival mean %.1f "
		"max %" PRIu64 "; the head chose among %.1f on average; %" PRIu64
		" served out of arrival order, %" PRIu64 " by the %.0f ms aging bound\n", what,
		c->reqs, (double)c->out_sum / (double)c->reqs, c->out_max,
		c->picks ? (double)c->cand_sum / (double)c->picks : 0.0, c->reordered, c->aged,
		S.m->queue_age_ms);
}

/* The data of a read, from the image: never-written ranges of the sparse
 * image read as zeros without asking the host's disk (and without filling
 * its page cache); past the image's end, zeros, like a disk. */
static int image_read(char *buf, size_t size, off_t off)
{
	size_t done = 0;
	off_t data = lseek(S.fd, off, SEEK_DATA);
	if ((data < 0 && errno == ENXIO) || (data >= 0 && (uint64_t)data >= (uint64_t)off + size)) {
		memset(buf, 0, size);
		return 0;
	}
	while (done < size) {
		ssize_t n = pread(S.fd, buf + done, size - done, off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			memset(buf + done, 0, size - done);
			break;
		}
		done += (size_t)n;
	}
	return 0;
}

static int image_write(const char *buf, size_t size, off_t off)
{
	size_t done = 0;
	while (done < size) {
		ssize_t n = pwrite(S.fd, buf + done, size - done, off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	/* start the host's writeback of it now: the image's pages must not
	 * pile up as dirty memory on the host's disk, where they would count
	 * in /proc/meminfo as if the emulated disk still held them (a
	 * settle step would wait for them, a grade would blame them) */
	sync_file_range(S.fd, off, (off_t)size, SYNC_FILE_RANGE_WRITE);
	return 0;
}

static int enqueue(const struct pending *p)
{
	if (S.n == S.cap) {
		int cap = S.cap ? 2 * S.cap : 64;
		struct pending *q = realloc(S.q, (size_t)cap * sizeof *q);
		if (!q)
			return -ENOMEM;
		S.q = q;
		struct labmodel_req *qr = realloc(S.qr, (size_t)cap * sizeof *qr);
		if (!qr)
			return -ENOMEM;
		S.qr = qr;
		S.cap = cap;
	}
	S.q[S.n] = *p;
	S.qr[S.n] = p->r;
	S.n++;
	return 0;
}

/* A read or write arrives: done on the image now, answered when the model
 * has served it (one of anything but the file: EISDIR). */
static void arrive(fuse_req_t req, fuse_ino_t ino, int write, const char *wbuf, size_t size,
		   off_t off)
{
	if (ino != INO_FILE) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	struct pending p = { .req = req };
	uint64_t t = now_ns();
	if (off < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	uint64_t o = (uint64_t)off;
	if (o >= S.size || (write && size > S.size - o)) {
		if (write)
			fuse_reply_err(req, ENOSPC);
		else
			fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > S.size - o)
		size = (size_t)(S.size - o);
	p.r = (struct labmodel_req){ .off = o, .len = size, .write = write, .arrival_ns = t };
	int rc;
	if (write) {
		rc = image_write(wbuf, size, off);
	} else {
		p.buf = malloc(size ? size : 1);
		rc = p.buf ? image_read(p.buf, size, off) : -ENOMEM;
	}
	if (rc) {
		free(p.buf);
		fuse_reply_err(req, -rc);
		return;
	}
	uint64_t outstanding = (uint64_t)S.n + (uint64_t)S.busy + 1;
	count_arrival(&S.all, outstanding);
	count_arrival(&S.win, outstanding);
	if (unmodelled || enqueue(&p))
		answer(&p);
}

static void ll_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	if (ino == INO_STATS) {
		read_stats(req, size, off, fi);
		return;
	}
	arrive(req, ino, 0, NULL, size, off);
}

static void ll_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	(void)fi;
	arrive(req, ino, 1, buf, size, off);
}

/* Answer what the model has finished; start the next service while the
 * head is free and requests wait.  Returns when the head is busy with a
 * request not yet done, or the queue is empty. */
static void dispatch(void)
{
	for (;;) {
		uint64_t now = now_ns();
		if (S.busy && (unmodelled || now >= S.cur_done)) {
			answer(&S.cur);
			S.busy = 0;
		}
		if (S.busy || S.n == 0)
			return;
		if (unmodelled) {
			for (int i = 0; i < S.n; i++)
				answer(&S.q[i]);
			S.n = 0;
			return;
		}
		int oldest = 0;
		for (int i = 1; i < S.n; i++)
			if (S.qr[i].arrival_ns < S.qr[oldest].arrival_ns)
				oldest = i;
		/* The head starts when it is free or the first request came. */
		uint64_t start = S.head.done_ns > S.qr[oldest].arrival_ns ? S.head.done_ns
			: S.qr[oldest].arrival_ns;
		if (now > start + LATE_SLACK_NS) {
			S.st.late++;
			S.st.late_ns += now - start;
			start = now;
		}
		int aged;
		int i = labmodel_pick(S.m, &S.head, S.size, S.qr, S.n, start, &aged);
		count_pick(&S.all, S.n, i != oldest, aged);
		count_pick(&S.win, S.n, i != oldest, aged);
		S.cur = S.q[i];
		S.q[i] = S.q[S.n - 1];
		S.qr[i] = S.qr[S.n - 1];
		S.n--;
		uint64_t svc = labmodel_service_ns(S.m, &S.head, S.size, S.cur.r.write,
						   S.cur.r.off, S.cur.r.len, start, NULL);
		S.cur.svc = svc;
		S.cur_done = start + svc;
		S.busy = 1;
		S.busy_ns += svc;
	}
}

static void stats_tick(uint64_t now)
{
	if (now - S.win_start < STATS_EVERY_NS)
		return;
	log_counts("last 10 s", &S.win);
	memset(&S.win, 0, sizeof S.win);
	S.win_start = now;
}

/* The event loop: receive requests whenever the kernel has some, answer
 * each when the model is done with it. */
static int serve_loop(struct fuse_session *se)
{
	struct fuse_buf fbuf = { .mem = NULL };
	struct pollfd pf = { .fd = fuse_session_fd(se), .events = POLLIN };
	int rc = 0;

	S.win_start = now_ns();
	while (!fuse_session_exited(se)) {
		dispatch();
		uint64_t now = now_ns();
		stats_tick(now);
		uint64_t wake = S.win_start + STATS_EVERY_NS;
		if (S.busy && S.cur_done < wake)
			wake = S.cur_done;
		uint64_t d = wake > now ? wake - now : 0;
		struct timespec ts = { .tv_sec = (time_t)(d / 1000000000u),
				       .tv_nsec = (long)(d % 1000000000u) };
		int r = ppoll(&pf, 1, &ts, NULL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			break;
		}
		if (r == 0)
			continue;
		if (!(pf.revents & POLLIN))
			break; /* the connection went away */
		int n = fuse_session_receive_buf(se, &fbuf);
		if (n == -EINTR || n == -EAGAIN)
			continue;
		if (n <= 0) {
			if (n < 0 && n != -ENODEV)
				rc = n;
			break; /* -ENODEV, 0: unmounted */
		}
		fuse_session_process_buf(se, &fbuf);
	}
	/* Stopping: whatever is held is answered now. */
	unmodelled = 1;
	dispatch();
	free(fbuf.mem);
	return rc;
}

static const struct fuse_lowlevel_ops ops = {
	.init = ll_init,
	.lookup = ll_lookup,
	.getattr = ll_getattr,
	.setattr = ll_setattr,
	.open = ll_open,
	.read = ll_read,
	.write = ll_write,
	.flush = ll_ok,
	.release = ll_release,
	.fsync = ll_fsync,
	.readdir = ll_readdir,
	.fallocate = ll_fallocate,
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
	struct fuse_session *se = fuse_session_new(&args, &ops, sizeof ops, NULL);
	if (!se) {
		fprintf(stderr, "labfs: fuse_session_new failed\n");
		rc = -EINVAL;
		goto out;
	}
	if (fuse_session_mount(se, mountpoint) != 0) {
		fprintf(stderr, "labfs: cannot mount FUSE at %s\n", mountpoint);
		rc = -EIO;
		goto out_destroy;
	}
	if (fuse_set_signal_handlers(se) != 0) {
		rc = -EIO;
		goto out_unmount;
	}
	struct sigaction sa = { .sa_handler = on_usr };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	if (ready_fd >= 0) {
		ssize_t w = write(ready_fd, "1", 1);
		(void)w;
		close(ready_fd);
		ready_fd = -1;
	}
	fprintf(stderr, "labfs: serving %s (%" PRIu64 " bytes) at %s as model %s, queue depth "
		"%d, aging bound %.0f ms\n", image, S.size, mountpoint, m->name, m->queue_depth,
		m->queue_age_ms);
	rc = serve_loop(se);
	if (!S.async_dio && S.all.reqs)
		fprintf(stderr, "labfs: the kernel has no async direct I/O for FUSE: requests "
			"came one at a time\n");
	log_counts("in all", &S.all);
	fprintf(stderr, "labfs: stopped after %" PRIu64 " reads, %" PRIu64
		" writes, %.3f s modelled busy time; %" PRIu64 " services started late by %.3f s "
		"in all (the image's own disk or the host was slower than the model)\n", S.st.rd.n,
		S.st.wr.n, (double)S.busy_ns / 1e9, S.st.late, (double)S.st.late_ns / 1e9);
	fuse_remove_signal_handlers(se);
out_unmount:
	fuse_session_unmount(se);
out_destroy:
	fuse_session_destroy(se);
out:
	fuse_opt_free_args(&args);
	free(S.q);
	free(S.qr);
	close(S.fd);
	if (ready_fd >= 0)
		close(ready_fd);
	return rc;
}
