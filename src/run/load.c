#include "load_priv.h"
#include "loaddist.h"
#include "loadflow.h"
#include "loadthink.h"
#include "child.h"
#include "stats.h"
#include "now.h"
#include "fileio.h"
#include "sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>



/* include/uapi/linux/ioprio.h */
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_WHO_PROCESS 1


int load_avail(int fd, uint64_t *out)
{
	struct statvfs v;
	if (fstatvfs(fd, &v) < 0)
		return -errno;
	if (__builtin_mul_overflow((uint64_t)v.f_bavail, (uint64_t)v.f_frsize, out))
		*out = UINT64_MAX;
	return 0;
}

int load_floor(int fd, double pct, uint64_t min_bytes, uint64_t *out)
{
	struct statvfs v;
	if (fstatvfs(fd, &v) < 0)
		return -errno;
	double size = (double)v.f_blocks * (double)v.f_frsize;
	uint64_t p = (uint64_t)(size * pct / 100.0);
	*out = p > min_bytes ? p : min_bytes;
	return 0;
}

static void fill_pattern(unsigned char *buf, size_t n, uint64_t seed)
{
	/* Incompressible data, so compressing or deduplicating storage
	 * cannot make the load cheaper than it looks. */
	uint64_t st = seed;
	for (size_t i = 0; i + 8 <= n; i += 8) {
		uint64_t r = stats_rand_next(&st);
		memcpy(buf + i, &r, 8);
	}
}

int load_prepare(struct load *l, const struct load_spec *spec, unsigned index, int dirfd)
{
	return load_prepare_from(l, spec, index, dirfd, dirfd);
}

int load_prepare_from(struct load *l, const struct load_spec *spec, unsigned index, int dirfd,
		      int src_dirfd)
{
	memset(l, 0, sizeof(*l));
	l->spec = *spec;
	l->index = index;
	l->fd = -1;
	l->dirfd = dirfd;
	l->src_dirfd = -1;
	l->delay_ns = spec->delay_lo_ns;
	snprintf(l->name, sizeof(l->name), "load-%s-%u", load_kind_name(spec->kind), index);
	/* Every instance's file is made here, new (O_EXCL) and never through a
	 * link; the child only opens what is there. */
	int fd = openat(dirfd, l->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (spec->kind == LOAD_COPY) {   /* the copy starts empty; its source is laid out */
		close(fd);
		l->src_dirfd = src_dirfd;
		snprintf(l->src_name, sizeof(l->src_name), "%s.src", l->name);
		fd = openat(src_dirfd, l->src_name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
	}
	if (!load_kind_needs_file(spec->kind)) {
		close(fd);
		return 0;
	}
	size_t chunk = MiB;
	unsigned char *buf = malloc(chunk);
	int rc = buf ? 0 : -ENOMEM;
	if (buf)
		fill_pattern(buf, chunk, index * 7919u + (unsigned)spec->kind);
	for (uint64_t off = 0; rc == 0 && off < spec->size; off += chunk) {
		size_t len = spec->size - off < chunk ? (size_t)(spec->size - off) : chunk;
		rc = fileio_pwrite_all(fd, buf, len, (off_t)off);
	}
	free(buf);
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (rc == 0)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return rc;
}

/* ---- child ---- */

volatile sig_atomic_t load_child_stop;

static void on_stop(int sig)
{
	(void)sig;
	load_child_stop = 1;
}

void load_send_msg(int fd, const struct load_msg *m)
{
	ssize_t w;
	do
		w = write(fd, m, sizeof(*m));
	while (w < 0 && errno == EINTR);
}

enum load_end load_errno_end(int e)
{
	return e == ENOSPC ? LOAD_END_ENOSPC : e == EDQUOT ? LOAD_END_EDQUOT : LOAD_END_ERROR;
}

void load_rate_wait(const struct load_spec *s, uint64_t t0, uint64_t bytes)
{
	if (!s->rate)
		return;
	uint64_t due = t0 + (uint64_t)((double)bytes / (double)s->rate * 1e9);
	struct timespec ts = { (time_t)(due / 1000000000ull), (long)(due % 1000000000ull) };
	while (!load_child_stop && now_ns() < due &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

uint64_t load_pick_len(const struct load_spec *s, uint64_t *rng)
{
	if (s->n_bssplit) {
		uint64_t r = stats_rand_range(rng, 0, 99);
		for (unsigned i = 0; i < s->n_bssplit; i++) {
			if (r < s->bssplit[i].pct)
				return s->bssplit[i].bs;
			r -= s->bssplit[i].pct;
		}
		return s->bssplit[s->n_bssplit - 1].bs;
	}
	if (s->bs_lo == s->bs_hi)
		return s->bs_lo;
	uint64_t g = s->bs_lo % 4096 == 0 ? 4096 : s->bs_lo % 512 == 0 ? 512 : 1;
	return s->bs_lo + stats_rand_range(rng, 0, (s->bs_hi - s->bs_lo) / g) * g;
}

/* A regular file load_prepare() made, opened in the directory dfd (never
 * through a link).  The fd, or -1 with m->end and m->err set. */
static int child_open_at(const struct load_spec *s, int dfd, const char *name, int flags,
			 struct load_msg *m)
{
	flags |= O_CLOEXEC | O_NOFOLLOW | (s->direct ? O_DIRECT : 0);
	int fd = openat(dfd, name, flags);
	struct stat fst;
	if (fd >= 0 && (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode))) {
		close(fd);
		fd = -1;
		errno = EINVAL;
	}
	if (fd < 0) {
		m->end = LOAD_END_ERROR;
		m->err = errno;
	}
	return fd;
}

/* The child's I/O priority and its file, the one load_prepare() made,
 * reached from the work directory's descriptor (never a path that could
 * have been swapped).  The fd, or -1 with m->end and m->err set. */
static int child_open(const struct load_spec *s, const char *name, int writer, int random,
		      struct load_msg *m)
{
	if (s->ioprio_class >= 0 &&
	    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		    (s->ioprio_class << IOPRIO_CLASS_SHIFT) | s->ioprio_level) < 0) {
		m->end = LOAD_END_ERROR;
		m->err = errno;
		return -1;
	}
	/* No O_TRUNC: the file is new and empty (load_prepare) or emptied by
	 * the instance before (it truncates as it ends).  On ext4 a truncate
	 * to 0 at open makes the last close write out every dirty page of the
	 * file (auto_da_alloc): a killed writer's exit would then push
	 * gigabytes to a slow disk before its file could go; without it the
	 * parent's unlink drops them. */
	int flags;
	if (load_kind_mixed(s->kind))
		flags = O_RDWR;    /* reads and writes its laid-out file */
	else if (writer)
		flags = O_WRONLY;
	else
		flags = O_RDONLY;
	int fd = child_open_at(s, CHILD_DIR_FD, name, flags, m);
	if (fd >= 0 && !s->direct)
		posix_fadvise(fd, 0, 0, random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
	return fd;
}

/* A call that took from a to b: the worst one so far? */
void load_note_call(struct load_msg *m, uint64_t a, uint64_t b)
{
	if (b - a > m->worst_ns) {
		m->worst_ns = b - a;
		m->worst_at_ns = a;
	}
}

/* Where the next call goes, and how long it is (a random slot, or on from
 * *off, wrapping at the size). */
static uint64_t next_call(const struct load_spec *s, int random, uint64_t bytes, uint64_t *off,
			  uint64_t *rng)
{
	uint64_t len = load_pick_len(s, rng);
	if (s->total && s->total - bytes < len && !s->direct)
		len = s->total - bytes;
	if (random) {
		uint64_t slots = (s->size - len) / 4096;
		*off = loaddist_slot(s, slots + 1, rng) * 4096;
	} else if (s->size && *off + len > s->size) {
		*off = 0;
	}
	return len;
}

/* The load's loop: calls until stopped, done, at the floor or an error
 * (m->end says which); reports every LOAD_REPORT_NS.  Bytes moved. */
static uint64_t child_loop(const struct load_spec *s, int fd, void *buf, int wfd,
			   uint64_t floor, uint64_t *rng, struct load_msg *m)
{
	int writer = load_kind_writes(s->kind), mixed = load_kind_mixed(s->kind);
	int random = load_kind_random(s->kind);
	uint64_t t0 = now_ns(), last_report = t0, bytes = 0, off = 0;
	uint64_t since_sync = 0, since_evict = 0, since_floor = UINT64_MAX;
	uint64_t calls = 0, last_think = 0;
	double paced = 0;   /* the bytes the rate counts (loaddist_paced()) */
	/* A writer that loops over its region until stopped (size set, no
	 * total) wraps early when the region does not fit above the floor:
	 * it goes on overwriting the part written so far (wrap_at), which
	 * takes no more space — unless the file system allocates on
	 * overwrite (copy-on-write) and space keeps falling: then it ends. */
	uint64_t wrap_at = 0, avail_at_wrap = 0;
	int loops = writer && !random && s->size && !s->total;
	m->t_ns = t0;
	load_send_msg(wfd, m);   /* a first point at time zero */
	while (!load_child_stop) {
		if (s->total && bytes >= s->total) {
			m->end = LOAD_END_DONE;
			break;
		}
		if (!loadflow_go(s))
			continue;
		uint64_t len = next_call(s, random, bytes, &off, rng);
		if (wrap_at && off + len > wrap_at)
			off = 0;
		if (writer && floor && since_floor >= LOAD_FLOOR_CHECK) {
			/* Between two checks at most LOAD_FLOOR_CHECK + one call more
			 * is written: stop while that still fits above the floor. */
			uint64_t avail;
			since_floor = 0;
			if (load_avail(fd, &avail) == 0 && avail < floor + LOAD_FLOOR_CHECK + s->bs_hi) {
				if (loops && !wrap_at && off >= s->bs_hi) {
					wrap_at = off;
					avail_at_wrap = avail;
					off = 0;
				} else if (!wrap_at || avail + 2 * LOAD_FLOOR_CHECK < avail_at_wrap) {
					m->end = LOAD_END_FLOOR;
					break;
				}
			}
		}
		int w = mixed ? !loaddist_reads(s, rng) : writer;
		uint64_t a = now_ns();
		ssize_t r = w ? pwrite(fd, buf, len, (off_t)off) : pread(fd, buf, len, (off_t)off);
		uint64_t b = now_ns();
		if (r < 0) {
			if (errno == EINTR)
				continue;
			m->end = load_errno_end(errno);
			m->err = errno;
			break;
		}
		if (r == 0 && !w) {     /* EOF: the file was shorter */
			off = 0;
			continue;
		}
		load_note_call(m, a, b);
		bytes += (uint64_t)r;
		since_sync += (uint64_t)r;
		since_evict += (uint64_t)r;
		since_floor += (uint64_t)r;
		m->bytes_read += w ? 0 : (uint64_t)r;
		off = s->skip && !random ? loaddist_seq_next(s, off, (uint64_t)r, s->bs_hi) :
		      off + (uint64_t)r;
		if (s->fsync_every && since_sync >= s->fsync_every) {
			since_sync = 0;
			a = now_ns();
			if (fsync(fd) < 0 && errno != EINTR) {
				m->end = load_errno_end(errno);
				m->err = errno;
				break;
			}
			load_note_call(m, a, now_ns());
		}
		if (!writer && !s->direct && since_evict >= s->size) {
			since_evict = 0;
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		}
		paced += loaddist_paced(s, (uint64_t)r, rng);
		if (loadthink_due(s, ++calls, &last_think))
			loadthink_pause(s, &load_child_stop);
		load_rate_wait(s, t0, (uint64_t)paced);
		if (b - last_report >= LOAD_REPORT_NS) {
			m->t_ns = last_report = now_ns();
			m->bytes = bytes;
			load_send_msg(wfd, m);
			m->worst_ns = 0;
		}
	}
	return bytes;
}

/* ---- the io_uring engine ---- */

struct uring_state {
	const struct load_spec *s;
	struct io_uring ring;
	int fd, wfd, writer, random;
	void *buf;                  /* one buffer for every request: the data is not checked */
	uint64_t *t0;               /* per slot: submission time, 0 = free */
	uint64_t *len;              /* per slot: bytes asked */
	unsigned char *rd;          /* per slot: 1 = a read (a mixed load's) */
	unsigned depth, inflight;
	uint64_t start, last_report, submitted, done, off;
	uint64_t since_sync, since_evict, since_floor;
	double paced;               /* submitted, as the rate counts it (loaddist_paced()) */
	uint64_t issued, completed, last_think;   /* calls, for thinktime (loadthink.h) */
	int stop, sync_due, think_due;
};

/* Queue requests until the depth is reached or something says wait:
 * the total (done), the floor, the rate, a due fsync. */
static void uring_fill(struct uring_state *u, uint64_t floor, uint64_t *rng, struct load_msg *m)
{
	const struct load_spec *s = u->s;
	while (!u->stop && !load_child_stop && !u->sync_due && !u->think_due && u->inflight < u->depth) {
		if (s->total && u->submitted >= s->total) {
			m->end = LOAD_END_DONE;
			u->stop = 1;
			break;
		}
		if (u->writer && floor && u->since_floor >= LOAD_FLOOR_CHECK) {
			uint64_t avail = UINT64_MAX;
			u->since_floor = 0;
			if (load_avail(u->fd, &avail) == 0 &&
			    avail < floor + LOAD_FLOOR_CHECK + (uint64_t)u->depth * s->bs_hi) {
				m->end = LOAD_END_FLOOR;
				u->stop = 1;
				break;
			}
		}
		if (s->rate && now_ns() < u->start +
		    (uint64_t)(u->paced / (double)s->rate * 1e9))
			break;
		if (!loadflow_go(s))
			break;
		struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
		if (!sqe)
			break;
		unsigned i = 0;
		while (u->t0[i])
			i++;
		uint64_t len = next_call(s, u->random, u->submitted, &u->off, rng);
		u->rd[i] = load_kind_mixed(s->kind) ? (unsigned char)loaddist_reads(s, rng) :
			   !u->writer;
		if (!u->rd[i])
			io_uring_prep_write(sqe, u->fd, u->buf, (unsigned)len, u->off);
		else
			io_uring_prep_read(sqe, u->fd, u->buf, (unsigned)len, u->off);
		io_uring_sqe_set_data64(sqe, i);
		u->t0[i] = now_ns();
		u->len[i] = len;
		u->inflight++;
		u->submitted += len;
		u->paced += loaddist_paced(s, len, rng);
		u->off = s->skip && !u->random ? loaddist_seq_next(s, u->off, len, s->bs_hi) :
			 u->off + len;
		u->since_floor += len;
		if (s->think_issue && loadthink_due(s, ++u->issued, &u->last_think))
			u->think_due = 1;   /* drain, then pause */
	}
	if (load_child_stop)
		u->stop = 1;
}

/* One completion (or a timeout): account it, report every LOAD_REPORT_NS. */
static void uring_reap(struct uring_state *u, struct load_msg *m)
{
	const struct load_spec *s = u->s;
	uint64_t wait = LOAD_REPORT_NS;
	if (s->rate && !u->stop) {
		uint64_t due = u->start + (uint64_t)(u->paced / (double)s->rate * 1e9);
		uint64_t now = now_ns();
		if (due > now && due - now < wait)
			wait = due - now;
	}
	struct __kernel_timespec ts = { (long long)(wait / 1000000000ull),
					(long long)(wait % 1000000000ull) };
	struct io_uring_cqe *cqe;
	int rc = io_uring_submit_and_wait_timeout(&u->ring, &cqe, 1, &ts, NULL);
	if (rc < 0 && rc != -ETIME && rc != -EINTR) {
		m->end = LOAD_END_ERROR;
		m->err = -rc;
		u->stop = 1;
		u->inflight = 0;    /* io_uring_queue_exit() cancels what is left */
		return;
	}
	unsigned head, seen = 0;
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		uint64_t b = now_ns();
		unsigned i = (unsigned)io_uring_cqe_get_data64(cqe);
		int res = cqe->res;
		seen++;
		if (i >= u->depth || !u->t0[i])
			continue;
		load_note_call(m, u->t0[i], b);
		u->t0[i] = 0;
		u->inflight--;
		if (res < 0 || (res == 0 && u->rd[i])) {
			u->submitted -= u->len[i];
			if (res == 0) {
				u->off = 0;         /* EOF: the file was shorter */
			} else if (res != -EINTR && res != -EAGAIN && !u->stop) {
				m->end = load_errno_end(-res);
				m->err = -res;
				u->stop = 1;
			}
			continue;
		}
		u->submitted -= u->len[i] - (uint64_t)res;
		u->done += (uint64_t)res;
		m->bytes_read += u->rd[i] ? (uint64_t)res : 0;
		u->since_sync += (uint64_t)res;
		u->since_evict += (uint64_t)res;
		if (!s->think_issue && loadthink_due(s, ++u->completed, &u->last_think))
			u->think_due = 1;
		if (s->fsync_every && u->since_sync >= s->fsync_every)
			u->sync_due = 1;
	}
	io_uring_cq_advance(&u->ring, seen);
	if (!u->writer && !s->direct && u->since_evict >= s->size) {
		u->since_evict = 0;
		posix_fadvise(u->fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	uint64_t now = now_ns();
	if (now - u->last_report >= LOAD_REPORT_NS) {
		m->t_ns = u->last_report = now;
		m->bytes = u->done;
		load_send_msg(u->wfd, m);
		m->worst_ns = 0;
	}
}

/* The io_uring load: up to iodepth requests in flight; each one's time is
 * from submission to completion; fsync= waits for the queue to drain.
 * Ends as child_loop() does.  Bytes completed. */
static uint64_t child_loop_uring(const struct load_spec *s, int fd, void *buf, int wfd,
				 uint64_t floor, uint64_t *rng, struct load_msg *m)
{
	struct uring_state u = { .s = s, .fd = fd, .wfd = wfd, .buf = buf,
				 .writer = load_kind_writes(s->kind),
				 .random = load_kind_random(s->kind),
				 .depth = s->iodepth ? s->iodepth : 1, .since_floor = UINT64_MAX };
	int rc = io_uring_queue_init(u.depth, &u.ring, 0);
	if (rc < 0) {
		m->end = LOAD_END_ERROR;
		m->err = -rc;
		return 0;
	}
	u.t0 = calloc(u.depth, sizeof(*u.t0));
	u.len = calloc(u.depth, sizeof(*u.len));
	u.rd = calloc(u.depth, sizeof(*u.rd));
	if (!u.t0 || !u.len || !u.rd) {
		m->end = LOAD_END_ERROR;
		m->err = ENOMEM;
		u.stop = 1;
	}
	u.start = u.last_report = now_ns();
	m->t_ns = u.start;
	load_send_msg(wfd, m);
	while (!u.stop || u.inflight) {
		uring_fill(&u, floor, rng, m);
		if (u.inflight) {
			uring_reap(&u, m);
		} else if (u.sync_due) {
			uint64_t a = now_ns();
			u.sync_due = 0;
			u.since_sync = 0;
			if (fsync(fd) < 0 && errno != EINTR) {
				m->end = load_errno_end(errno);
				m->err = errno;
				u.stop = 1;
			}
			load_note_call(m, a, now_ns());
		} else if (u.think_due) {
			u.think_due = 0;
			loadthink_pause(s, &load_child_stop);
		} else if (!u.stop) {
			load_rate_wait(s, u.start, (uint64_t)u.paced);
		}
	}
	io_uring_queue_exit(&u.ring);
	free(u.t0);
	free(u.len);
	free(u.rd);
	return u.done;
}

static void __attribute__((noreturn)) child_main(struct load *l, int wfd, uint64_t floor,
						 uint64_t parent)
{
	const struct load_spec *s = &l->spec;
	struct load_msg m = { 0 };
	int writer = load_kind_writes(s->kind);
	int random = load_kind_random(s->kind);
	uint64_t rng = now_ns() ^ ((uint64_t)getpid() << 32) ^ parent;
	void *buf = NULL;
	int src = -1;
	if (s->kind == LOAD_COPY)
		src = child_open_at(s, CHILD_DIR2_FD, l->src_name, O_RDONLY, &m);
	int fd = s->kind == LOAD_COPY && src < 0 ? -1 : child_open(s, l->name, writer, random, &m);
	if (fd >= 0 && posix_memalign(&buf, 4096, s->bs_hi)) {
		m.end = LOAD_END_ERROR;
		m.err = ENOMEM;
	}
	if (fd < 0 || !buf) {
		m.t_ns = now_ns();
		load_send_msg(wfd, &m);
		_exit(0);
	}
	fill_pattern(buf, s->bs_hi, rng);
	loadthink_wait(l->delay_ns, &load_child_stop);   /* its first report comes after */
	loadflow_join(s);
	m.bytes = load_child_stop ? 0 :   /* stopped while it waited: no call, no rate */
		  s->kind == LOAD_COPY ? load_copy_loop(s, src, fd, buf, wfd, floor, &rng, &m) :
		  s->engine == LOAD_ENGINE_IO_URING ?
		  child_loop_uring(s, fd, buf, wfd, floor, &rng, &m) :
		  child_loop(s, fd, buf, wfd, floor, &rng, &m);
	loadflow_leave(s);
	if (m.end == LOAD_RUNNING)
		m.end = LOAD_END_STOPPED;
	m.t_ns = now_ns();
	load_send_msg(wfd, &m);
	/* Drop what was written here, not in the parent's cleanup: freeing
	 * gigabytes of dirty page cache is the load's cost. */
	if (writer && ftruncate(fd, 0) < 0) { /* best effort: the parent removes the file */ }
	_exit(0);
}

int load_start(struct load *l, uint64_t floor_bytes)
{
	pid_t parent = getpid(), pid;
	int fd;
	int rc = l->spec.flow_weight ? loadflow_setup() : 0;
	if (rc == 0)
		rc = l->src_dirfd >= 0 ? child_fork2(&pid, &fd, l->dirfd, l->src_dirfd) :
					 child_fork(&pid, &fd, l->dirfd);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		struct sigaction sa = { .sa_handler = on_stop };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
		signal(SIGHUP, SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		child_unblock_signals();
		child_main(l, CHILD_RESULT_FD, floor_bytes, (uint64_t)parent);
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	l->pid = pid;
	l->fd = fd;
	l->end = LOAD_RUNNING;
	return 0;
}

static int timeline_add(struct load *l, uint64_t at, uint64_t bytes, uint64_t worst)
{
	if (l->n_timeline == l->cap_timeline) {
		size_t cap = l->cap_timeline ? l->cap_timeline * 2 : 64;
		struct load_point *t = realloc(l->timeline, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		l->timeline = t;
		l->cap_timeline = cap;
	}
	l->timeline[l->n_timeline++] = (struct load_point){ at, bytes, worst };
	return 0;
}

int load_read(struct load *l)
{
	if (l->fd < 0)
		return 1;
	for (;;) {
		struct load_msg m;
		ssize_t r = read(l->fd, &m, sizeof(m));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? 0 : -errno;
		}
		if (r == 0) {
			close(l->fd);
			l->fd = -1;
			/* the last report closes the timeline, so that its
			 * intervals cover the load's running time and no more:
			 * ticks after it (before the pipe closed) go */
			uint64_t worst = l->tick_worst_ns;
			while (l->n_timeline > 1 && l->timeline[l->n_timeline - 1].t_ns > l->t_last) {
				l->n_timeline--;
				if (l->timeline[l->n_timeline].worst_ns > worst)
					worst = l->timeline[l->n_timeline].worst_ns;
			}
			if (l->t_start && l->timeline[l->n_timeline - 1].t_ns < l->t_last)
				timeline_add(l, l->t_last, l->bytes, worst);
			l->tick_worst_ns = 0;
			return 1;
		}
		if ((size_t)r != sizeof(m))
			return -EPROTO;
		/* the first report (time zero, no bytes) opens the timeline: a
		 * burst before the first tick is in its first interval */
		if (!l->t_start && timeline_add(l, m.t_ns, m.bytes, 0) < 0)
			return -ENOMEM;
		if (!l->t_start)
			l->t_start = m.t_ns;
		l->t_last = m.t_ns;
		l->bytes = m.bytes;
		l->bytes_read = m.bytes_read;
		if (m.worst_ns > l->worst_ns) {
			l->worst_ns = m.worst_ns;
			l->worst_at_ns = m.worst_at_ns;
		}
		if (m.worst_ns > l->tick_worst_ns)
			l->tick_worst_ns = m.worst_ns;
		if (m.end != LOAD_RUNNING) {
			l->end = (enum load_end)m.end;
			l->err = m.err;
		}
	}
}

int load_sample(struct load *l, uint64_t now)
{
	/* its first report opens the timeline (after a start delay), its
	 * last one closes it */
	if (l->fd < 0 || !l->t_start)
		return 0;
	int rc = timeline_add(l, now, l->bytes, l->tick_worst_ns);
	if (rc == 0)
		l->tick_worst_ns = 0;
	return rc;
}

int load_set_ioprio(struct load *l, int cls, int level)
{
	if (cls < 0 || cls > 3 || level < 0 || level > 7)
		return -EINVAL;
	l->spec.ioprio_class = cls;
	l->spec.ioprio_level = cls == 0 || cls == 3 ? 0 : level;
	if (l->pid <= 0 || l->end != LOAD_RUNNING)
		return 0;
	/* ioprio_set(IOPRIO_WHO_PROCESS) sets one task: each of the child's
	 * threads (io_uring's workers too) in turn */
	char dir[64], **tids = NULL;
	size_t n = 0;
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)l->pid);
	int rc = sysfs_list(dir, &tids, &n);
	if (rc < 0)
		return rc == -ENOENT ? 0 : rc;   /* gone meanwhile */
	int prio = (cls << IOPRIO_CLASS_SHIFT) | l->spec.ioprio_level;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *end;
		long tid = strtol(tids[i], &end, 10);
		if (*end || tid <= 0)
			continue;
		if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, (int)tid, prio) < 0 && errno != ESRCH)
			rc = -errno;
	}
	sysfs_list_free(tids, n);
	return rc;
}

void load_stop(struct load *l)
{
	if (l->pid > 0)
		kill(l->pid, SIGTERM);
}

void load_kill(struct load *l)
{
	if (l->pid > 0)
		kill(l->pid, SIGKILL);
}

void load_reaped(struct load *l, int status)
{
	l->pid = 0;
	load_read(l);   /* whatever is still in the pipe */
	if (l->end == LOAD_RUNNING) {
		l->end = LOAD_END_DIED;
		l->err = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
	}
}

double load_mibps(const struct load *l)
{
	/* over the timeline's span: the time-weighted mean of its intervals,
	 * never above the fastest nor below the slowest */
	if (l->n_timeline >= 2) {
		const struct load_point *a = &l->timeline[0], *b = &l->timeline[l->n_timeline - 1];
		if (b->t_ns > a->t_ns && b->bytes >= a->bytes)
			return (double)(b->bytes - a->bytes) / MiB / ((double)(b->t_ns - a->t_ns) / 1e9);
	}
	if (!l->t_start || l->t_last <= l->t_start)
		return NAN;
	return (double)l->bytes / MiB / ((double)(l->t_last - l->t_start) / 1e9);
}

void load_mibps_split(const struct load *l, double *read_mibps, double *write_mibps)
{
	/* the mean over the load's span, split as its bytes are: the split
	 * is cumulative, the rate load_mibps()'s */
	double all = load_mibps(l);
	double f = l->bytes ? (double)l->bytes_read / (double)l->bytes : NAN;
	*read_mibps = all * f;
	*write_mibps = all * (1 - f);
}

/* The cumulative count at t: linear between the timeline's points, its
 * first before it, its last after it. */
static double bytes_at(const struct load *l, uint64_t t)
{
	const struct load_point *p = l->timeline;
	size_t n = l->n_timeline;
	if (t <= p[0].t_ns)
		return (double)p[0].bytes;
	if (t >= p[n - 1].t_ns)
		return (double)p[n - 1].bytes;
	size_t lo = 0, hi = n - 1;   /* p[lo].t_ns < t < p[hi].t_ns */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid].t_ns <= t)
			lo = mid;
		else
			hi = mid;
	}
	double f = (double)(t - p[lo].t_ns) / (double)(p[hi].t_ns - p[lo].t_ns);
	return (double)p[lo].bytes + f * ((double)p[hi].bytes - (double)p[lo].bytes);
}

double load_window_bytes(const struct load *l, uint64_t from_ns, uint64_t to_ns)
{
	if (!l->n_timeline || to_ns <= from_ns)
		return 0;
	double b = bytes_at(l, to_ns) - bytes_at(l, from_ns);
	return b > 0 ? b : 0;
}

void load_free(struct load *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->timeline);
	l->timeline = NULL;
	l->n_timeline = l->cap_timeline = 0;
}
