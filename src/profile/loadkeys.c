/* loadkeys — fio-style keys -> loads and actions.  See loadkeys.h. */
#include "loadkeys.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "loaddist.h"
#include "loadthink.h"
#include "parse.h"
#include "str.h"

#define MiB (1024ull * 1024ull)

#define FAIL(k, line, ...) msg_first_at((k)->fail, (line), __VA_ARGS__)

static const char *const key_names[LK_COUNT] = {
	[LK_RW] = "rw", [LK_BS] = "bs", [LK_BSRANGE] = "bsrange", [LK_SIZE] = "size",
	[LK_FILESIZE] = "filesize", [LK_IOSIZE] = "io_size", [LK_NUMJOBS] = "numjobs",
	[LK_RATE] = "rate", [LK_FSYNC] = "fsync", [LK_DIRECT] = "direct",
	[LK_BUFFERED] = "buffered", [LK_PRIO] = "prio", [LK_PRIOCLASS] = "prioclass",
	[LK_LOOPS] = "loops", [LK_TIMEBASED] = "time_based", [LK_NRFILES] = "nrfiles",
	[LK_STARTDELAY] = "startdelay", [LK_IOENGINE] = "ioengine", [LK_IODEPTH] = "iodepth",
	[LK_BSSPLIT] = "bssplit", [LK_RWMIXREAD] = "rwmixread", [LK_RWMIXWRITE] = "rwmixwrite",
	[LK_DIST] = "random_distribution", [LK_RATEIOPS] = "rate_iops",
	[LK_POISSON] = "rate_poisson", [LK_FLOW] = "flow", [LK_FLOWID] = "flow_id",
	[LK_FLOWSLEEP] = "flow_sleep", [LK_THINKTIME] = "thinktime",
	[LK_THINKSPIN] = "thinktime_spin", [LK_THINKBLOCKS] = "thinktime_blocks",
	[LK_THINKTYPE] = "thinktime_blocks_type",
	[LK_DIRECTORY] = "directory",
};

static const char *const rw_names[LOAD_KIND_COUNT] = {
	[LOAD_SEQ_WRITE] = "write", [LOAD_SEQ_READ] = "read",
	[LOAD_RAND_READ] = "randread", [LOAD_RAND_WRITE] = "randwrite",
	[LOAD_FSYNC_WRITE] = "write", [LOAD_MIXED] = "rw", [LOAD_RAND_MIXED] = "randrw",
	[LOAD_COPY] = "copy",   /* brisk's own: fio has none */
};

static const char *const type_names[ACTION_KIND_COUNT] = {
	[ACTION_EXEC] = "exec", [ACTION_LS] = "ls", [ACTION_SSH] = "ssh-like",
	[ACTION_SAVE] = "save",
};

void loadkeys_set(struct loadkeys *k, enum loadkeys_key key, const char *value, int line)
{
	k->k[key].v = value;
	k->k[key].line = line;
}

const char *loadkeys_rw_name(enum load_kind kind)
{
	return (unsigned)kind < LOAD_KIND_COUNT ? rw_names[kind] : "?";
}

const char *loadkeys_type_name(enum action_kind kind)
{
	return (unsigned)kind < ACTION_KIND_COUNT ? type_names[kind] : "?";
}

int loadkeys_type_parse(const char *s)
{
	int kind = -1;
	for (int i = 0; i < ACTION_KIND_COUNT; i++)
		if (strcmp(s, type_names[i]) == 0)
			kind = i;
	if (strcmp(s, "ssh") == 0)
		kind = ACTION_SSH;
	return kind;
}

int loadkeys_engine(const char *value, int fio, enum load_engine *out)
{
	static const char *const sync_names[] = { "sync", "psync", "vsync", "pvsync", "pvsync2" };
	static const char *const async_names[] = { "io_uring", "libaio", "posixaio" };
	for (size_t i = 0; i < (fio ? 5u : 2u); i++)
		if (strcmp(value, sync_names[i]) == 0) {
			*out = LOAD_ENGINE_SYNC;
			return 0;
		}
	for (size_t i = 0; i < (fio ? 3u : 1u); i++)
		if (strcmp(value, async_names[i]) == 0) {
			*out = LOAD_ENGINE_IO_URING;
			return 0;
		}
	return -1;
}

static const struct loadkeys_val *get(const struct loadkeys *k, enum loadkeys_key key)
{
	return k->k[key].line ? &k->k[key] : NULL;
}

/* A size of at least min (a fio job file: at least 1). */
static int get_size(const struct loadkeys *k, enum loadkeys_key key, uint64_t min, uint64_t *out)
{
	const struct loadkeys_val *v = &k->k[key];
	uint64_t b;
	if (k->fio) {
		if (parse_size(v->v, &b) < 0 || b == 0) {
			FAIL(k, v->line, "bad value '%s' for fio key %s, expected a size such as 4k, "
			     "30m or 10240m", v->v, key_names[key]);
			return -1;
		}
	} else if (parse_size(v->v, &b) < 0 || b < min) {
		FAIL(k, v->line, "bad value '%s' for %s, expected a size such as 4k, 30m or "
		     "10g%s", v->v, key_names[key], min ? " (not 0)" : "");
		return -1;
	}
	*out = b;
	return 0;
}

static int get_int(const struct loadkeys *k, enum loadkeys_key key, int64_t min, int64_t max,
		   int64_t *out)
{
	const struct loadkeys_val *v = &k->k[key];
	if (parse_int(v->v, min, max, out) < 0) {
		FAIL(k, v->line, "bad value '%s' for %s%s, expected an integer from %" PRId64
		     " to %" PRId64, v->v, k->fio ? "fio key " : "", key_names[key], min, max);
		return -1;
	}
	return 0;
}

/* fio's offset modifier after rw's ':' (read:-8k): *skip for a
 * sequential kind; refused for a random one.  0 or -1. */
static int read_rw_modifier(const struct loadkeys *k, const struct loadkeys_val *v,
			    const char *rw, const char *mod, int64_t *skip)
{
	uint64_t b;
	int neg = mod[0] == '-';
	if (strncmp(rw, "rand", 4) == 0) {
		FAIL(k, v->line, "fio key 'rw=%s' cannot be honoured: ':%s' asks for %s calls in a "
		     "row at each random offset; brisk draws a new offset for every call (use "
		     "rw=%s)", v->v, mod, mod, rw);
		return -1;
	}
	if (parse_size(mod + neg, &b) < 0 || b > LOAD_SIZE_MAX) {
		FAIL(k, v->line, "%s'rw=%s'%s, expected an offset modifier such as read:-8k or "
		     "write:4k (bytes added to the offset after each call)", k->fio ? "fio key " :
		     "bad value ", v->v, k->fio ? " cannot be honoured" : "");
		return -1;
	}
	*skip = neg ? -(int64_t)b : (int64_t)b;
	return 0;
}

/* rw -> kind; a profile must say, a fio job reads by default. */
static int read_kind(const struct loadkeys *k, enum load_kind *kind, int64_t *skip)
{
	const struct loadkeys_val *v = get(k, LK_RW);
	if (!v && !k->fio) {
		FAIL(k, k->line, "%s has no rw, expected rw = write, read, randread, randwrite, "
		     "rw, randrw or copy", k->what);
		return -1;
	}
	char rw[64];
	str_copy(rw, sizeof(rw), v ? v->v : "read");
	char *mod = strchr(rw, ':');
	if (mod) {
		*mod++ = '\0';
		if (read_rw_modifier(k, v, rw, mod, skip) < 0)
			return -1;
	}
	if (strcmp(rw, "rw") == 0 || strcmp(rw, "readwrite") == 0)
		*kind = LOAD_MIXED;
	else if (strcmp(rw, "randrw") == 0)
		*kind = LOAD_RAND_MIXED;
	else if (strcmp(rw, "write") == 0)
		*kind = !k->fio && get(k, LK_FSYNC) ? LOAD_FSYNC_WRITE : LOAD_SEQ_WRITE;
	else if (strcmp(rw, "read") == 0)
		*kind = LOAD_SEQ_READ;
	else if (strcmp(rw, "randread") == 0)
		*kind = LOAD_RAND_READ;
	else if (strcmp(rw, "randwrite") == 0)
		*kind = LOAD_RAND_WRITE;
	else if (strcmp(rw, "copy") == 0 && !k->fio)
		*kind = LOAD_COPY;
	else if (k->fio) {
		FAIL(k, v->line, "fio key 'rw=%s' cannot be honoured: brisk runs write, read, "
		     "randread, randwrite, rw (readwrite) and randrw jobs (trim is not file I/O "
		     "brisk does)", v->v);
		return -1;
	} else {
		FAIL(k, v->line, "bad value '%s' for rw, expected write, read, randread, "
		     "randwrite, rw, randrw or copy", v->v);
		return -1;
	}
	return 0;
}

/* bs or bsrange: at most max bytes (an action's reads: 64m); *lo and *hi
 * are left alone when neither is given. */
static int read_bs(const struct loadkeys *k, uint64_t max, uint64_t *lo, uint64_t *hi)
{
	const struct loadkeys_val *bs = get(k, LK_BS), *bsr = get(k, LK_BSRANGE);
	const struct loadkeys_val *split = get(k, LK_BSSPLIT);
	if (split) {
		struct load_spec t;
		memset(&t, 0, sizeof(t));
		if (!k->fio && (bs || bsr)) {
			FAIL(k, split->line, "bssplit and %s both given, expected one of them",
			     bs ? "bs" : "bsrange");
			return -1;
		}
		if (load_bssplit_parse(split->v, &t) < 0 || t.bs_hi > max) {
			FAIL(k, split->line, "%sbssplit=%s%s cannot be honoured: expected SIZE/PERCENT "
			     "entries joined by ':' such as 4k/60:64k/40, percentages summing to "
			     "100, at most 16 entries, sizes up to 64m", k->fio ? "fio key '" : "",
			     split->v, k->fio ? "'" : "");
			return -1;
		}
		*lo = t.bs_lo;
		*hi = t.bs_hi;
		return 0;
	}
	if (bs && bsr) {
		if (k->fio)
			FAIL(k, bs->line > bsr->line ? bs->line : bsr->line, "fio keys bs and "
			     "bsrange both apply to job [%s], expected one of them", k->what);
		else
			FAIL(k, bsr->line, "bs and bsrange both given, expected one of them");
		return -1;
	}
	const struct loadkeys_val *b = bsr ? bsr : bs;
	if (!b)
		return 0;
	uint64_t l, h;
	if (k->fio) {
		if (strchr(b->v, ',') || parse_size_range(b->v, &l, &h) < 0 || l == 0 ||
		    h > 64 * MiB) {
			FAIL(k, b->line, "fio key '%s=%s' cannot be honoured: expected one size such "
			     "as 1024k or a range such as 4k-44k, at most 64m (separate read,write "
			     "sizes are not supported)", b == bs ? "bs" : "bsrange", b->v);
			return -1;
		}
	} else if (parse_size_range(b->v, &l, &h) < 0 || l == 0 || h > max) {
		FAIL(k, b->line, "bad value '%s' for %s, expected a size such as 4k or a range "
		     "such as 4k-44k%s", b->v, b == bs ? "bs" : "bsrange",
		     max < UINT64_MAX ? " (at most 64m)" : "");
		return -1;
	}
	*lo = l;
	*hi = h;
	return 0;
}

/* fio: size, filesize, io_size (at least one of the first two), each
 * defaulting from the others as in fio. */
static int read_fio_sizes(const struct loadkeys *k, struct loadkeys_io *io)
{
	if (get(k, LK_SIZE) && get_size(k, LK_SIZE, 1, &io->size) < 0)
		return -1;
	if (get(k, LK_FILESIZE) && get_size(k, LK_FILESIZE, 1, &io->filesize) < 0)
		return -1;
	if (get(k, LK_IOSIZE) && get_size(k, LK_IOSIZE, 1, &io->iosize) < 0)
		return -1;
	if (!io->size && !io->filesize) {
		FAIL(k, k->line, "fio job [%s] has no size (fio would take an existing file's; "
		     "brisk makes its own), expected size= (or filesize=)", k->what);
		return -1;
	}
	if (!io->size)
		io->size = io->filesize;
	if (!io->filesize)
		io->filesize = io->size;
	if (!io->iosize)
		io->iosize = io->size;
	return 0;
}

/* fio: direct= and buffered= (each other's opposite), time_based. */
static int read_fio_direct(const struct loadkeys *k, struct loadkeys_io *io)
{
	int64_t d = 0, b = 1, t = 0;
	const struct loadkeys_val *dv = get(k, LK_DIRECT), *bv = get(k, LK_BUFFERED);
	if (dv && get_int(k, LK_DIRECT, 0, 1, &d) < 0)
		return -1;
	if (bv && get_int(k, LK_BUFFERED, 0, 1, &b) < 0)
		return -1;
	if (bv && !dv) {
		d = !b;
	} else if (bv && d == b) {
		FAIL(k, bv->line, "fio keys direct=%d and buffered=%d contradict each other, "
		     "expected one of them", (int)d, (int)b);
		return -1;
	}
	if (get(k, LK_TIMEBASED) && get_int(k, LK_TIMEBASED, 0, 1, &t) < 0)
		return -1;
	io->direct = (int)d;
	io->time_based = (int)t;
	return 0;
}

int loadkeys_read(const struct loadkeys *k, struct loadkeys_io *io)
{
	memset(io, 0, sizeof(*io));
	io->numjobs = io->loops = 1;
	if (read_kind(k, &io->kind, &io->skip) < 0)
		return -1;
	if (k->fio)
		io->bs_lo = io->bs_hi = 4096;   /* fio's default bs */
	if (read_bs(k, UINT64_MAX, &io->bs_lo, &io->bs_hi) < 0)
		return -1;
	int64_t n;
	const struct loadkeys_val *sd = get(k, LK_STARTDELAY);
	if (k->fio) {
		if (read_fio_sizes(k, io) < 0)
			return -1;
		if (sd && loadthink_parse_range(sd->v, 1000000000ull, &io->delay_ns,
						&io->delay_hi_ns) < 0) {
			FAIL(k, sd->line, "fio key 'startdelay=%s' cannot be honoured: expected a "
			     "time such as 4 (seconds), 4s or 500ms, or a range such as 1s-3s, at "
			     "most 1h", sd->v);
			return -1;
		}
	} else {
		if (get(k, LK_SIZE) && get_size(k, LK_SIZE, 0, &io->size) < 0)
			return -1;
		if (get(k, LK_IOSIZE) && get_size(k, LK_IOSIZE, 1, &io->iosize) < 0)
			return -1;
	}
	if (get(k, LK_NUMJOBS)) {
		if (get_int(k, LK_NUMJOBS, 1, 256, &n) < 0)
			return -1;
		io->numjobs = (unsigned)n;
	}
	io->iodepth = 1;
	const struct loadkeys_val *ev = get(k, LK_IOENGINE);
	if (ev && loadkeys_engine(ev->v, k->fio, &io->engine) < 0) {
		FAIL(k, ev->line, k->fio ? "fio key 'ioengine=%s' cannot be honoured: brisk does file "
		     "I/O with sync, psync, vsync, pvsync, pvsync2, libaio, io_uring or posixaio" :
		     "ioengine=%s cannot be honoured, brisk's engines are sync (or psync) and "
		     "io_uring: use one of them (or leave it out)", ev->v);
		return -1;
	}
	if (get(k, LK_IODEPTH)) {
		if (get_int(k, LK_IODEPTH, 1, LOAD_IODEPTH_MAX, &n) < 0)
			return -1;
		if (io->engine == LOAD_ENGINE_IO_URING)
			io->iodepth = (unsigned)n;
		else if (!k->fio && n > 1) {
			FAIL(k, k->k[LK_IODEPTH].line, "iodepth=%d needs ioengine = io_uring, a "
			     "synchronous load has one call in flight", (int)n);
			return -1;
		}
	}
	if (!k->fio)
		return 0;
	if (get(k, LK_LOOPS)) {
		if (get_int(k, LK_LOOPS, 1, 1000000, &n) < 0)
			return -1;
		io->loops = (unsigned)n;
	}
	return read_fio_direct(k, io);
}

/* fio: a load's size times the scale, rounded up to a whole number of
 * blocks (of `align` bytes, at least 4 KiB). */
static uint64_t scale_size(const struct loadkeys *k, uint64_t v, uint64_t align)
{
	if (!(k->scale > 0 && k->scale < 1.0))
		return v;
	if (align < 4096)
		align = 4096;
	double d = ceil((double)v * k->scale / (double)align) * (double)align;
	return d < (double)align ? align : (uint64_t)d;
}

/* The sizes, rate and direct flag of a load. */
static int load_amounts(const struct loadkeys *k, const struct loadkeys_io *io,
			struct load_spec *s)
{
	if (k->fio) {
		uint64_t align = s->bs_lo == s->bs_hi ? s->bs_hi : 4096;
		s->size = scale_size(k, io->filesize, align);
		if (s->size < s->bs_hi)
			s->size = s->bs_hi;
		s->total = io->time_based ? 0 : scale_size(k, io->iosize, align) * io->loops;
		s->count = io->numjobs;
		s->direct = io->direct;
		s->fsync_every = 0;
	} else {
		if (get(k, LK_SIZE))
			s->size = io->size;
		if (get(k, LK_IOSIZE))
			s->total = io->iosize;
		if (get(k, LK_NUMJOBS))
			s->count = io->numjobs;
	}
	const struct loadkeys_val *r = get(k, LK_RATE);
	if (r && k->fio) {
		if (strchr(r->v, ',') || parse_size(r->v, &s->rate) < 0 || !s->rate) {
			FAIL(k, r->line, "fio key 'rate=%s' cannot be honoured: expected one rate in "
			     "bytes per second such as 20m (separate read,write rates are not "
			     "supported)", r->v);
			return -1;
		}
	} else if (r && get_size(k, LK_RATE, 1, &s->rate) < 0) {
		return -1;
	}
	int64_t n;
	if (!k->fio && get(k, LK_DIRECT)) {
		if (get_int(k, LK_DIRECT, 0, 1, &n) < 0)
			return -1;
		s->direct = (int)n;
	}
	return 0;
}

/* fsync= (every N writes) and the I/O priority. */
static int load_fsync_prio(const struct loadkeys *k, struct load_spec *s)
{
	const struct loadkeys_val *f = get(k, LK_FSYNC);
	int reader = s->kind == LOAD_SEQ_READ || s->kind == LOAD_RAND_READ;
	int64_t n;
	if (f) {
		if (k->fio && reader) {
			FAIL(k, f->line, "fio key 'fsync=%s' cannot be honoured for a reader, "
			     "expected it on writers only", f->v);
			return -1;
		}
		if (get_int(k, LK_FSYNC, 1, 1 << 20, &n) < 0)
			return -1;
		if (reader) {
			FAIL(k, f->line, "fsync applies to writers, not to rw=%s", rw_names[s->kind]);
			return -1;
		}
		s->fsync_every = (uint64_t)n * s->bs_hi;
	}
	const struct loadkeys_val *pc = get(k, LK_PRIOCLASS), *pr = get(k, LK_PRIO);
	if (pc || pr) {
		int64_t cls = 2, lvl = 4;
		if (pc && get_int(k, LK_PRIOCLASS, 1, 3, &cls) < 0)
			return -1;
		if (pr && get_int(k, LK_PRIO, 0, 7, &lvl) < 0)
			return -1;
		if (!k->fio && cls == 3 && pr) {
			FAIL(k, pr->line, "prio does not apply to prioclass=3 (idle), expected no prio");
			return -1;
		}
		s->ioprio_class = (int)cls;
		s->ioprio_level = cls == 3 ? 0 : (int)lvl;
	}
	return 0;
}

/* flow, flow_id, flow_sleep (fio's weight-based flow control). */
static int load_flow(const struct loadkeys *k, struct load_spec *s)
{
	const struct loadkeys_val *f = get(k, LK_FLOW);
	int64_t n;
	if (f) {
		if (get_int(k, LK_FLOW, k->fio ? -1000000 : 1, 1000000, &n) < 0)
			return -1;
		s->flow_weight = (unsigned)(n < 0 ? -n : n);   /* 0: no flow control */
	}
	if (get(k, LK_FLOWID)) {
		if (get_int(k, LK_FLOWID, 0, 15, &n) < 0)
			return -1;
		s->flow_id = (unsigned)n;
	}
	if (get(k, LK_FLOWSLEEP)) {
		if (get_int(k, LK_FLOWSLEEP, 0, 10000000, &n) < 0)
			return -1;
		s->flow_sleep_us = (unsigned)n;
	}
	return 0;
}

/* A time key: 0 or -1; unit_ns for a bare number. */
static int get_time(const struct loadkeys *k, enum loadkeys_key key, uint64_t unit_ns,
		    uint64_t *out)
{
	const struct loadkeys_val *v = &k->k[key];
	if (loadthink_parse_time(v->v, unit_ns, out) < 0) {
		FAIL(k, v->line, "bad value '%s' for %s%s, expected a time such as 500 (%s), "
		     "10ms or 2s, at most 1h", v->v, k->fio ? "fio key " : "", key_names[key],
		     unit_ns == 1000 ? "microseconds" : "seconds");
		return -1;
	}
	return 0;
}

/* When the load pauses (loadthink.h): startdelay, thinktime and its
 * shaping keys. */
static int load_pause(const struct loadkeys *k, const struct loadkeys_io *io,
		      struct load_spec *s)
{
	const struct loadkeys_val *sd = get(k, LK_STARTDELAY), *ty = get(k, LK_THINKTYPE);
	int64_t n;
	if (sd && k->fio) {   /* read by loadkeys_read(); shrinks with the sizes */
		double f = k->scale > 0 && k->scale < 1 ? k->scale : 1;
		s->delay_lo_ns = (uint64_t)llround((double)io->delay_ns * f / 1e3) * 1000;
		s->delay_hi_ns = (uint64_t)llround((double)io->delay_hi_ns * f / 1e3) * 1000;
	} else if (sd && loadthink_parse_range(sd->v, 1000000000ull, &s->delay_lo_ns,
					       &s->delay_hi_ns) < 0) {
		FAIL(k, sd->line, "bad value '%s' for startdelay, expected a time such as 4 "
		     "(seconds), 4s or 500ms, or a range such as 1s-3s, at most 1h", sd->v);
		return -1;
	}
	if (get(k, LK_THINKTIME) && get_time(k, LK_THINKTIME, 1000, &s->think_ns) < 0)
		return -1;
	if (k->fio && !s->think_ns)
		return 0;     /* fio: the others are only valid with thinktime */
	if (get(k, LK_THINKSPIN) && get_time(k, LK_THINKSPIN, 1000, &s->think_spin_ns) < 0)
		return -1;
	if (k->fio && s->think_spin_ns > s->think_ns)
		s->think_spin_ns = s->think_ns;    /* as fio does */
	if (get(k, LK_THINKBLOCKS)) {
		if (get_int(k, LK_THINKBLOCKS, k->fio ? 0 : 1, 1000000, &n) < 0)
			return -1;
		s->think_blocks = (unsigned)n;
	}
	if (ty && strcmp(ty->v, "complete") && strcmp(ty->v, "issue")) {
		FAIL(k, ty->line, "bad value '%s' for %sthinktime_blocks_type, expected complete "
		     "or issue", ty->v, k->fio ? "fio key " : "");
		return -1;
	}
	s->think_issue = ty && strcmp(ty->v, "issue") == 0;
	return 0;
}

/* directory: the load's work area in that directory (dir=). */
static int load_directory(const struct loadkeys *k, struct load_spec *s)
{
	const struct loadkeys_val *d = get(k, LK_DIRECTORY);
	char why[96];
	if (!d)
		return 0;
	if (k->fio && strchr(d->v, ':')) {
		FAIL(k, d->line, "fio key 'directory=%s' cannot be honoured: several directories "
		     "(':', fio spreads the job's files over them) are not one brisk load's "
		     "work area, expected one directory", d->v);
		return -1;
	}
	if (load_dir_check(d->v, why, sizeof(why)) < 0) {
		FAIL(k, d->line, "%s'directory=%s' cannot be honoured: %s", k->fio ? "fio key " : "",
		     d->v, why);
		return -1;
	}
	str_copy(s->dir, sizeof(s->dir), d->v);
	return 0;
}

/* rwmixread / rwmixwrite (mixed kinds), random_distribution (random
 * kinds), rate_iops (one block size). */
static int load_mix_dist(const struct loadkeys *k, struct load_spec *s)
{
	const struct loadkeys_val *mr = get(k, LK_RWMIXREAD), *mw = get(k, LK_RWMIXWRITE);
	const struct loadkeys_val *d = get(k, LK_DIST), *ri = get(k, LK_RATEIOPS);
	int64_t n;
	const char *pre = k->fio ? "fio key " : "";
	if (mr || mw) {
		const struct loadkeys_val *m = mr ? mr : mw;
		if (!load_kind_mixed(s->kind)) {
			FAIL(k, m->line, "%s'%s' applies to mixed jobs (rw=rw or randrw), not to "
			     "rw=%s: remove it", pre, mr ? "rwmixread" : "rwmixwrite",
			     rw_names[s->kind]);
			return -1;
		}
		if (mr && get_int(k, LK_RWMIXREAD, 0, 100, &n) < 0)
			return -1;
		int64_t w;
		if (mw && get_int(k, LK_RWMIXWRITE, 0, 100, &w) < 0)
			return -1;
		if (mr && mw && n + w != 100) {
			FAIL(k, mw->line, "%srwmixread=%d and rwmixwrite=%d do not add up to 100, "
			     "expected one of them", k->fio ? "fio keys " : "", (int)n, (int)w);
			return -1;
		}
		s->mix_read = (unsigned)(mr ? n : 100 - w);
	}
	if (d) {
		if (!load_kind_random(s->kind)) {
			FAIL(k, d->line, "%s'random_distribution=%s' applies to random jobs "
			     "(randread, randwrite, randrw), not to rw=%s: remove it", pre, d->v,
			     rw_names[s->kind]);
			return -1;
		}
		if (loaddist_parse(d->v, s) < 0) {
			FAIL(k, d->line, "%s'random_distribution=%s' cannot be honoured: expected "
			     "random, zipf:THETA (THETA > 0, not 1), pareto:H (0 < H < 1), "
			     "normal:DEV[:CENTER] (DEV %% of the file, CENTER 0-1) or "
			     "zoned:ACCESS/SIZE:... (percentages; zoned_abs and separate read,write "
			     "parts are not supported)", pre, d->v);
			return -1;
		}
	}
	if (ri && k->fio) {
		if (get(k, LK_RATE)) {
			FAIL(k, ri->line, "fio keys rate and rate_iops both apply to job [%s], "
			     "expected one of them", k->what);
			return -1;
		}
		if (strchr(ri->v, ',') || parse_int(ri->v, 1, 10000000, &n) < 0 ||
		    s->bs_lo != s->bs_hi || s->n_bssplit) {
			FAIL(k, ri->line, "fio key 'rate_iops=%s' cannot be honoured: brisk limits "
			     "bytes per second, which is calls per second only with one block size "
			     "(expected one number of calls and one bs; or use rate=)", ri->v);
			return -1;
		}
		s->rate = (uint64_t)n * s->bs_hi;
	}
	const struct loadkeys_val *po = get(k, LK_POISSON);
	if (po) {
		if (get_int(k, LK_POISSON, 0, 1, &n) < 0)
			return -1;
		if (n && !s->rate) {
			FAIL(k, po->line, "%s'rate_poisson=%s' applies to a rate-limited job, "
			     "expected rate=%s too", pre, po->v, k->fio ? " or rate_iops=" : "");
			return -1;
		}
		s->poisson = (int)n;
	}
	return load_flow(k, s);
}

int loadkeys_load(const struct loadkeys *k, struct load_spec *out)
{
	struct loadkeys_io io;
	if (loadkeys_read(k, &io) < 0)
		return -1;
	enum load_kind kind = io.kind;
	if (kind == LOAD_SEQ_WRITE && get(k, LK_FSYNC))
		kind = LOAD_FSYNC_WRITE;
	char e[256];
	struct load_spec s;
	load_spec_parse(load_kind_name(kind), &s, e, sizeof(e));
	if (io.bs_hi) {
		s.bs_lo = io.bs_lo;
		s.bs_hi = io.bs_hi;
	}
	if (get(k, LK_BSSPLIT))
		load_bssplit_parse(k->k[LK_BSSPLIT].v, &s);   /* checked by loadkeys_read() */
	s.engine = io.engine;
	s.iodepth = io.engine == LOAD_ENGINE_IO_URING && io.iodepth > 1 ? io.iodepth : 0;
	s.skip = io.skip;
	if (load_amounts(k, &io, &s) < 0 || load_fsync_prio(k, &s) < 0 ||
	    load_mix_dist(k, &s) < 0 || load_pause(k, &io, &s) < 0 ||
	    load_directory(k, &s) < 0)
		return -1;
	if (load_spec_check(&s, e, sizeof(e)) < 0) {
		FAIL(k, k->line, "%s%s%s is not a load brisk can run: %s", k->fio ? "fio job [" : "",
		     k->what, k->fio ? "]" : "", e);
		return -1;
	}
	*out = s;
	return 0;
}

/* An ssh-like action's reads: block sizes, region and file. */
static int action_ssh(const struct loadkeys *k, struct action_config *a)
{
	if (k->fio) {
		struct loadkeys_io io;
		if (loadkeys_read(k, &io) < 0)
			return -1;
		if (io.delay_hi_ns != io.delay_ns) {
			FAIL(k, k->k[LK_STARTDELAY].line, "fio key 'startdelay=%s' cannot be honoured "
			     "for job [%s], a small random reader brisk times as an ssh-like action: "
			     "it starts at one time (a range picks a time per load instance)",
			     k->k[LK_STARTDELAY].v, k->what);
			return -1;
		}
		/* The reads are the interactive workload being measured: their
		 * sizes are not scaled, only when they start. */
		a->ssh_bs_lo = io.bs_lo;
		a->ssh_bs_hi = io.bs_hi;
		a->ssh_region = io.iosize;
		a->ssh_file = io.filesize;
		if (a->ssh_bs_hi > a->ssh_region) {
			FAIL(k, k->line, "fio job [%s] reads %" PRIu64 " bytes, less than its "
			     "largest block (%" PRIu64 "), expected size >= bs", k->what,
			     a->ssh_region, a->ssh_bs_hi);
			return -1;
		}
		if (a->ssh_region > a->ssh_file) {
			FAIL(k, k->line, "fio job [%s] reads %" PRIu64 " bytes of a %" PRIu64
			     "-byte file, expected size <= filesize", k->what, a->ssh_region,
			     a->ssh_file);
			return -1;
		}
		return 0;
	}
	if (read_bs(k, 64 * MiB, &a->ssh_bs_lo, &a->ssh_bs_hi) < 0)
		return -1;
	if (get(k, LK_SIZE) && get_size(k, LK_SIZE, 1, &a->ssh_region) < 0)
		return -1;
	if (get(k, LK_FILESIZE) && get_size(k, LK_FILESIZE, 1, &a->ssh_file) < 0)
		return -1;
	if (a->ssh_region > a->ssh_file) {
		FAIL(k, k->line, "%s reads size=%" PRIu64 " bytes of a %" PRIu64 "-byte file, "
		     "expected size <= filesize", k->what, a->ssh_region, a->ssh_file);
		return -1;
	}
	if (a->ssh_bs_hi > a->ssh_region) {
		FAIL(k, k->line, "%s: the largest block (%" PRIu64 ") exceeds size (%" PRIu64
		     "), expected size >= bs", k->what, a->ssh_bs_hi, a->ssh_region);
		return -1;
	}
	return 0;
}

/* A save action: how much it writes, and that it fsyncs once. */
static int action_save(const struct loadkeys *k, struct action_config *a)
{
	const struct loadkeys_val *v;
	if (get(k, LK_SIZE) && get_size(k, LK_SIZE, 1, &a->save_size) < 0)
		return -1;
	if (a->save_size > 64 * MiB) {
		FAIL(k, k->line, "%s saves %" PRIu64 " bytes, expected at most 64m", k->what,
		     a->save_size);
		return -1;
	}
	if ((v = get(k, LK_FSYNC)) && strcmp(v->v, "1") != 0) {
		FAIL(k, v->line, "bad value '%s' for fsync, a save action fsyncs once: expected "
		     "fsync=1", v->v);
		return -1;
	}
	return 0;
}

int loadkeys_action(const struct loadkeys *k, enum action_kind kind, struct action_config *out)
{
	struct action_config a;
	action_config_default(&a);
	a.exec_cmd = NULL;
	const struct loadkeys_val *v;
	int64_t n;
	/* fio jobs resolve direct/buffered in loadkeys_read(); the caller
	 * refuses direct I/O for them with its own words. */
	if (!k->fio && (v = get(k, LK_DIRECT)) && strcmp(v->v, "0") != 0) {
		FAIL(k, v->line, "direct=%s cannot be honoured for an action, it times buffered "
		     "I/O as programs do: use direct=0 (or leave it out)", v->v);
		return -1;
	}
	if (!k->fio && get(k, LK_NRFILES)) {
		if (get_int(k, LK_NRFILES, 1, 1000000, &n) < 0)
			return -1;
		a.ls_files = (unsigned)n;
	}
	if (!k->fio && (v = get(k, LK_RW))) {
		const char *want = kind == ACTION_SSH ? "randread" : "write";
		if (strcmp(v->v, want) != 0) {
			FAIL(k, v->line, "bad value '%s' for rw, an action of type %s does rw=%s",
			     v->v, type_names[kind], want);
			return -1;
		}
	}
	if (!k->fio && get(k, LK_BS) && get(k, LK_BSRANGE)) {
		FAIL(k, k->k[LK_BSRANGE].line, "bs and bsrange both given, expected one of them");
		return -1;
	}
	if (kind == ACTION_SSH && action_ssh(k, &a) < 0)
		return -1;
	if (kind == ACTION_SAVE && action_save(k, &a) < 0)
		return -1;
	*out = a;
	return 0;
}
