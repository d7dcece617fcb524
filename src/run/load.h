/* load — background I/O loads: each instance a child process of its own
 * (its own I/O context, as a real dd or database), from a spec
 * "KIND[:key=value,...]" such as "rand-write:bs=4k-44k,size=512m,direct".
 * Kinds, keys, engines (sync, io_uring), the free-space floor and how a
 * load ends are in brisk-run(1); profiles and fio jobs build specs too
 * (brisk-profile(5)).  An instance's one file, load-KIND-N, is made in
 * the work directory the caller passes and reached only relative to it
 * (O_NOFOLLOW); the child reports bytes, its worst call and why it ended
 * over a pipe every LOAD_REPORT_NS, and dies with its parent.  Times are
 * CLOCK_MONOTONIC ns.  Spec text: load_spec.c; the rest: load.c.
 */
#ifndef BRISK_LOAD_H
#define BRISK_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define LOAD_REPORT_NS 100000000ull   /* 100 ms */
#define LOAD_SIZE_MAX (1ull << 50)      /* 1 PiB: a bigger size is a typo */
#define LOAD_DIR_MAX 256                /* dir=: bytes of the path, its NUL included */

enum load_kind {
	LOAD_SEQ_WRITE,
	LOAD_SEQ_READ,
	LOAD_RAND_READ,
	LOAD_RAND_WRITE,
	LOAD_FSYNC_WRITE,
	LOAD_MIXED,                 /* sequential reads and writes, mix_read % reads */
	LOAD_RAND_MIXED,            /* random reads and writes, mix_read % reads */
	LOAD_COPY,                  /* reads its source file (in the actions' work
				     * area) and writes it to its own, as cp does */
	LOAD_KIND_COUNT
};

enum load_engine {
	LOAD_ENGINE_SYNC,           /* pread()/pwrite(), one call in flight */
	LOAD_ENGINE_IO_URING,       /* io_uring: iodepth requests in flight */
	LOAD_ENGINE_COUNT
};

/* Where a random load's offsets fall (loaddist.h draws them). */
enum load_dist {
	LOAD_DIST_RANDOM,           /* uniform */
	LOAD_DIST_ZIPF,             /* zipf:THETA (dist_a), hot blocks scattered */
	LOAD_DIST_PARETO,           /* pareto:H (dist_a), hot blocks scattered */
	LOAD_DIST_NORMAL,           /* normal:DEV[:CENTER]: dist_a % of the file, dist_b in [0,1] */
	LOAD_DIST_ZONED,            /* zoned:ACCESS%/SIZE%:...: zones[] */
};

#define LOAD_ZONES_MAX 16

struct load_zone {
	unsigned access_pct;        /* share of the calls, 1..100 */
	unsigned size_pct;          /* share of the file, 1..100; the zones sum to 100 */
};

#define LOAD_BSSPLIT_MAX 16
#define LOAD_IODEPTH_MAX 1024

struct load_bssplit {
	uint64_t bs;                /* bytes */
	unsigned pct;               /* weight, 1..100; the entries sum to 100 */
};

struct load_spec {
	enum load_kind kind;
	unsigned count;             /* instances */
	uint64_t bs_lo, bs_hi;      /* bytes per call */
	uint64_t size;              /* file/region size; writers wrap at it; 0 = grow */
	uint64_t total;             /* stop after this many bytes; 0 = until stopped */
	uint64_t rate;              /* bytes per second per instance; 0 = unlimited */
	uint64_t fsync_every;       /* bytes between fsync(); 0 = never */
	int direct;                 /* O_DIRECT */
	int ioprio_class;           /* -1 = inherit; 0 none, 1 rt, 2 be, 3 idle */
	int ioprio_level;           /* 0..7 */
	enum load_engine engine;    /* sync (default) or io_uring */
	unsigned iodepth;           /* requests in flight (io_uring); 0 or 1 = one */
	unsigned n_bssplit;         /* 0 = sizes from bs_lo..bs_hi */
	struct load_bssplit bssplit[LOAD_BSSPLIT_MAX];   /* bs_lo/bs_hi = its min/max */
	/* additions of issue 29: */
	unsigned mix_read;          /* mixed kinds: % of calls that read, 0..100 (default 50) */
	enum load_dist dist;        /* random kinds: where offsets fall */
	double dist_a, dist_b;      /* the distribution's parameters (see enum load_dist) */
	unsigned n_zones;           /* LOAD_DIST_ZONED */
	struct load_zone zones[LOAD_ZONES_MAX];
	int64_t skip;               /* sequential kinds: bytes added to the offset after
				     * each call (fio's rw=read:-8k; negative: backwards) */
	int poisson;                /* with rate: calls arrive as a Poisson process (the
				     * same mean rate, exponential gaps), fio's rate_poisson */
	unsigned flow_weight;       /* fio's flow: 0 = none; loads of one flow_id advance
				     * in the ratio of their weights (loadflow.h) */
	unsigned flow_id;           /* 0..15 */
	unsigned flow_sleep_us;     /* a held load's sleep, microseconds */
	/* when it pauses (loadthink.h): fio's thinktime and startdelay */
	uint64_t think_ns;          /* a pause after every think_blocks calls; 0 = none */
	uint64_t think_spin_ns;     /* of it, busy on the CPU (<= think_ns) */
	unsigned think_blocks;      /* calls between pauses; 0 or 1 = after each */
	int think_issue;            /* count calls as issued (1) or completed (0) */
	uint64_t delay_lo_ns, delay_hi_ns;   /* each instance waits a time in this
					      * range before its first call */
	char dir[LOAD_DIR_MAX];     /* dir=: the directory its work area is made in,
				     * absolute; "" = the run's DIR (session.h) */
};

enum load_end {
	LOAD_RUNNING,
	LOAD_END_STOPPED,    /* asked to stop */
	LOAD_END_DONE,       /* reached `total` */
	LOAD_END_FLOOR,      /* free-space floor */
	LOAD_END_ENOSPC,
	LOAD_END_EDQUOT,
	LOAD_END_ERROR,      /* I/O error: err holds errno */
	LOAD_END_DIED,       /* exited without saying why (signal, crash) */
};

struct load_point {
	uint64_t t_ns;       /* monotonic */
	uint64_t bytes;      /* cumulative */
	uint64_t worst_ns;   /* worst call since the previous point */
};

struct load {
	struct load_spec spec;
	unsigned index;             /* 1..spec.count */
	char name[64];              /* its file, relative to dirfd */
	int dirfd;                  /* the work directory (not owned) */
	char src_name[72];          /* a copy's source, relative to src_dirfd */
	int src_dirfd;              /* the source's work directory (not owned) */
	pid_t pid;                  /* 0 when not running */
	int fd;                     /* pipe from the child, -1 when closed */
	uint64_t t_start, t_last;   /* first and latest report times */
	uint64_t bytes;             /* cumulative, latest report */
	uint64_t bytes_read;        /* of them read (a mixed load; a reader: all) */
	uint64_t worst_ns, worst_at_ns;
	uint64_t tick_worst_ns;     /* worst since the last load_sample() */
	enum load_end end;
	int err;                    /* errno for LOAD_END_ERROR / DIED status */
	struct load_point *timeline;
	size_t n_timeline, cap_timeline;
	uint64_t delay_ns;          /* this instance's start delay: load_prepare() sets
				     * the spec's least, the caller may pick another
				     * (loadthink_pick_delay()); 0 = none */
};

/* "seq-write", ..., "?" out of range. */
const char *load_kind_name(enum load_kind k);
/* Does a load of kind k write (seq-write, rand-write, fsync-heavy, and
 * the mixed kinds)?  1/0. */
int load_kind_writes(enum load_kind k);
/* Does it mix reads and writes (mixed, rand-mixed)?  1/0. */
int load_kind_mixed(enum load_kind k);
/* Does it both read and write, its figures shown apart (the mixed kinds,
 * copy)?  1/0. */
int load_kind_splits(enum load_kind k);
/* Are its offsets random (rand-read, rand-write, rand-mixed)?  1/0. */
int load_kind_random(enum load_kind k);
const char *load_engine_name(enum load_engine e);   /* "sync", "io_uring" */
/* "64k/40:1m/60" -> entries (sorted as given), bs_lo/bs_hi set to their
 * min/max.  0, or -EINVAL when the form is wrong or the weights do not sum
 * to 100 (a last entry without a weight takes what is left, as in fio). */
int load_bssplit_parse(const char *text, struct load_spec *s);
/* The inverse: "64k/40:1m/60". */
void load_bssplit_format(const struct load_spec *s, char *buf, size_t len);
/* "running", "stopped", "done", "free-space floor", ... */
const char *load_end_name(enum load_end e);
/* An I/O priority as ionice names it: "none", "rt[/N]", "be[/N]", "idle"
 * or the class number 0-3 (N 0..7, default 4; none and idle take none):
 * class 0-3 and level.  0 or -EINVAL. */
int load_ionice_parse(const char *text, int *cls, int *level);
/* The inverse: "idle", "be/7", "none"; "-" for a class out of range. */
void load_ionice_format(int cls, int level, char *buf, size_t len);
/* A dir= path: absolute, shorter than LOAD_DIR_MAX, without ',' '=' or
 * control characters (a spec could not carry it back), valid UTF-8
 * without bidi marks (text.h).  0, or -EINVAL with why (a phrase). */
int load_dir_check(const char *path, char *why, size_t whylen);
/* Parse a spec; on failure returns -EINVAL and writes a message naming the
 * bad part into err. */
int load_spec_parse(const char *text, struct load_spec *out, char *err, size_t errlen);
/* The spec in the form load_spec_parse() reads back. */
void load_spec_format(const struct load_spec *s, char *buf, size_t len);
/* The checks load_spec_parse() makes, on a spec built some other way (a
 * profile or fio job): 0, or -EINVAL with the message in err. */
int load_spec_check(const struct load_spec *s, char *err, size_t errlen);
/* Bytes load_prepare() will write for one instance of the spec. */
uint64_t load_spec_prepare_bytes(const struct load_spec *s);
/* ... for all spec.count instances: 0, or -EOVERFLOW. */
int load_spec_need(const struct load_spec *s, uint64_t *out);

/* Free-space floor for the file system of an open file or directory: the
 * larger of pct % of its size and min_bytes.  0 or -errno. */
int load_floor(int fd, double pct, uint64_t min_bytes, uint64_t *out);
/* Available bytes for an unprivileged writer (fstatvfs f_bavail). */
int load_avail(int fd, uint64_t *out);

/* Set up one instance: create its file in the directory dirfd (kept, not
 * owned: it must stay open while the load runs); readers and rand-write get
 * their file written, synced and evicted now.  0 or -errno (-EEXIST when
 * the name is taken, a link included). */
int load_prepare(struct load *l, const struct load_spec *spec, unsigned index, int dirfd);
/* The same, a copy's source (load-copy-N.src, written, synced, evicted)
 * made in src_dirfd (kept open as dirfd is) and its target, empty, in
 * dirfd; any other kind as load_prepare(). */
int load_prepare_from(struct load *l, const struct load_spec *spec, unsigned index, int dirfd,
		      int src_dirfd);
/* Fork the child; floor_bytes 0 = no floor.  0 or -errno. */
int load_start(struct load *l, uint64_t floor_bytes);
/* Drain the pipe (non-blocking).  Returns 1 when the pipe is closed
 * (child finished or died), 0 otherwise, -errno on error. */
int load_read(struct load *l);
/* Append a timeline point (call at each sampling tick while it runs).  The
 * timeline also holds the load's first report (time zero: after its start
 * delay, if it has one) and, once the pipe closes, its last one, so its
 * intervals cover the whole run; no point is added before the first
 * report or after the pipe closed. */
int load_sample(struct load *l, uint64_t now_ns);
/* Give the load the I/O priority cls/level (load_ionice_parse) from now
 * on: every thread of its running child (ioprio_set), and the instances
 * that start later from l->spec.  0, or -errno from ioprio_set (-EPERM:
 * rt needs root); a child that already exited is no error. */
int load_set_ioprio(struct load *l, int cls, int level);
/* Ask the child to stop (SIGTERM); load_kill() for SIGKILL.  A writer
 * truncates its file as it ends: freeing the page cache is its cost. */
void load_stop(struct load *l);
void load_kill(struct load *l);
/* The child was reaped with this wait status. */
void load_reaped(struct load *l, int status);
/* Mean MiB/s between first and last report (NaN before two reports): over
 * the timeline's span when it has two points, so it lies between the
 * slowest and the fastest of its intervals. */
double load_mibps(const struct load *l);
/* Bytes moved in [from_ns, to_ns] (monotonic), from the timeline's
 * cumulative counts, linear between its points; nothing before its first
 * point or after its last (a load that ended counts what it did). */
double load_window_bytes(const struct load *l, uint64_t from_ns, uint64_t to_ns);
/* A mixed load's reads and writes: mean MiB/s of each over the same span
 * as load_mibps() (NaN before two reports). */
void load_mibps_split(const struct load *l, double *read_mibps, double *write_mibps);
/* Close the pipe and free the timeline. */
void load_free(struct load *l);

#endif
