/* loadkeys — fio-style keys (rw, bs, bsrange, size, filesize, io_size,
 * numjobs, rate, fsync, direct, prio, prioclass, ...) turned into a brisk
 * load (struct load_spec) or a timed action's configuration: the one place
 * that reads them, for profile [load NAME] / [action NAME] sections and
 * for fio job files alike.
 *
 * Contract:
 *  - The caller collects one section's keys into a struct loadkeys (value
 *    text and line, line 0 = not given) and says which dialect it is:
 *    a profile (strict: every key explicit, the engine's defaults
 *    otherwise) or a fio job file (fio's defaults: rw=read, bs=4k; size
 *    or filesize required; buffered=; scale and loops applied to sizes).
 *    The dialect decides the wording of the messages, which stay the ones
 *    each format has always given.
 *  - Errors go to k->fail ("FILE:LINE: ..." via msg_first_at()); the
 *    functions return 0 or -1 and never print.  Nothing here knows the
 *    profile struct: the callers own names, sections and limits.
 *  - ioengine/iodepth: a profile names brisk's engines (sync, psync, or
 *    io_uring for an asynchronous load with iodepth requests in flight); a
 *    fio job may also say libaio or posixaio, which run on brisk's
 *    io_uring engine at the same depth (the value is the caller's to
 *    check against fio's non-file engines).  iodepth with a synchronous
 *    engine changes nothing, as in fio.  bssplit (load_bssplit_parse()
 *    form) takes the place of bs/bsrange; in a fio job it wins over them,
 *    as in fio, in a profile both are an error.
 *  - rw=rw / readwrite / randrw are the mixed kinds, with rwmixread= (or
 *    rwmixwrite=, 100 - it; default 50 as in fio); random_distribution=
 *    (loaddist.h's forms) applies to the random kinds; a sequential rw
 *    may carry fio's offset modifier (read:-8k, write:4k: bytes added to
 *    the offset after each call); a random rw's ":N" (N calls in a row
 *    before a new random offset) is refused.  rate_iops=N (fio only) is
 *    N times the block size per second when the block size is one size;
 *    rate_poisson=1 spaces a rate-limited load's calls as a Poisson
 *    process (exponential gaps, the same mean rate).  flow=W, flow_id=N,
 *    flow_sleep=US: fio's weight-based flow control (loadflow.h); a
 *    negative fio flow (older fio's counter direction) is read as its
 *    magnitude, which keeps the 1:1 of equal and opposite weights.
 *  - A load's pauses (loadthink.h): thinktime= (bare: microseconds),
 *    thinktime_spin=, thinktime_blocks=, thinktime_blocks_type=
 *    (complete, issue), startdelay= (bare: seconds; A-B picks per
 *    instance).  A fio job's startdelay is scaled as its sizes are; its
 *    thinktime_spin above thinktime is cut to it and the other thinktime
 *    keys without thinktime change nothing, as in fio; a profile gets
 *    an error for either.  A timed action starts at one time: a range
 *    is refused for it.
 *    directory=PATH: the load's own directory (load spec dir=, an absolute
 *    path load_dir_check() takes; fio's several directories a:b refused).
 *  - loadkeys_read() reads what both a load and fio's choice between load
 *    and action need; loadkeys_load() builds the load (it calls
 *    loadkeys_read()); loadkeys_action() builds an action's config.
 */
#ifndef BRISK_LOADKEYS_H
#define BRISK_LOADKEYS_H

#include <stdint.h>

#include "action.h"
#include "load.h"
#include "msg.h"

enum loadkeys_key {
	LK_RW, LK_BS, LK_BSRANGE, LK_SIZE, LK_FILESIZE, LK_IOSIZE, LK_NUMJOBS, LK_RATE,
	LK_FSYNC, LK_DIRECT, LK_BUFFERED, LK_PRIO, LK_PRIOCLASS, LK_LOOPS, LK_TIMEBASED,
	LK_NRFILES, LK_STARTDELAY, LK_IOENGINE, LK_IODEPTH, LK_BSSPLIT,
	LK_RWMIXREAD, LK_RWMIXWRITE, LK_DIST, LK_RATEIOPS, LK_POISSON, LK_FLOW, LK_FLOWID,
	LK_FLOWSLEEP, LK_THINKTIME, LK_THINKSPIN, LK_THINKBLOCKS, LK_THINKTYPE, LK_DIRECTORY,
	LK_COUNT
};

struct loadkeys_val {
	const char *v;              /* the value as written */
	int line;                   /* 0 = not given */
};

struct loadkeys {
	int fio;                    /* 1: a fio job file; 0: a profile section */
	struct msg_first *fail;     /* where errors go */
	const char *what;           /* profile: "[load NAME]"; fio: the job's section name */
	int line;                   /* the section header's line */
	double scale;               /* fio: sizes times this (0 < scale <= 1) */
	struct loadkeys_val k[LK_COUNT];
};

/* What the keys say, before it becomes a load or an action. */
struct loadkeys_io {
	enum load_kind kind;        /* from rw (LOAD_SEQ_WRITE also for fsync writers) */
	uint64_t bs_lo, bs_hi;      /* 0 = not given (profile) */
	uint64_t size, filesize, iosize;   /* 0 = not given (fio: defaulted from each other) */
	unsigned numjobs, loops;    /* fio: numjobs, loops (1 when not given) */
	int direct, time_based;     /* fio: direct/buffered resolved, time_based */
	enum load_engine engine;    /* sync, or io_uring for libaio/io_uring/posixaio */
	unsigned iodepth;           /* 1 unless an asynchronous engine says more */
	uint64_t delay_ns;          /* fio: startdelay (unscaled; a range's least) */
	uint64_t delay_hi_ns;       /* fio: a startdelay range's greatest, else delay_ns */
	int64_t skip;               /* rw=read:-8k: bytes added after each call */
};

/* Set a key (line 0 leaves it unset). */
void loadkeys_set(struct loadkeys *k, enum loadkeys_key key, const char *value, int line);
/* The profile key name of a load kind ("write", "randread", ...) and of an
 * action kind ("exec", "ls", "ssh-like", "save"). */
const char *loadkeys_rw_name(enum load_kind kind);
const char *loadkeys_type_name(enum action_kind kind);
/* fio's or a profile's ioengine value -> brisk's engine: sync, psync,
 * vsync, pvsync, pvsync2 -> sync; io_uring, libaio, posixaio -> io_uring
 * (fio = 0 takes only sync, psync and io_uring).  0, or -1 for an engine
 * that is not file I/O brisk can do. */
int loadkeys_engine(const char *value, int fio, enum load_engine *out);
/* "exec", "ls", "ssh-like" (or "ssh"), "save" -> kind; -1 otherwise. */
int loadkeys_type_parse(const char *s);

/* rw, bs/bsrange, sizes, numjobs; fio also startdelay, loops,
 * direct/buffered, time_based.  0 or -1 (error in k->fail). */
int loadkeys_read(const struct loadkeys *k, struct loadkeys_io *io);
/* A load from the keys, checked by the engine (load_spec_check()). */
int loadkeys_load(const struct loadkeys *k, struct load_spec *out);
/* An action's config for kind (defaults from action_config_default(),
 * exec_cmd NULL): nrfiles, rw, bs/bsrange, size, filesize, fsync, direct.
 * Schedule keys (startdelay, interval, loops) and cmd stay the caller's. */
int loadkeys_action(const struct loadkeys *k, enum action_kind kind, struct action_config *out);

#endif
