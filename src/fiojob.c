/* fiojob — fio job files -> profiles.  See fiojob.h. */
#include "fiojob.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "parse.h"
#include "text.h"
#include "fileio.h"
#include "str.h"

enum fk {
	K_RW, K_BS, K_BSRANGE, K_SIZE, K_FILESIZE, K_IOSIZE, K_NUMJOBS, K_STARTDELAY,
	K_DIRECT, K_BUFFERED, K_RATE, K_FSYNC, K_PRIO, K_PRIOCLASS, K_LOOPS, K_RUNTIME,
	K_RAMP, K_DIRECTORY, K_IOENGINE, K_INVALIDATE, K_TIMEBASED, K_IODEPTH, K_NRFILES,
	K_COUNT
};

static const struct {
	const char *name;
	enum fk k;
	int boolean;     /* may appear bare, meaning 1 */
} fio_keys[] = {
	{ "rw", K_RW, 0 }, { "readwrite", K_RW, 0 },
	{ "bs", K_BS, 0 }, { "blocksize", K_BS, 0 },
	{ "bsrange", K_BSRANGE, 0 }, { "blocksize_range", K_BSRANGE, 0 },
	{ "size", K_SIZE, 0 }, { "filesize", K_FILESIZE, 0 },
	{ "io_size", K_IOSIZE, 0 }, { "io_limit", K_IOSIZE, 0 },
	{ "numjobs", K_NUMJOBS, 0 }, { "startdelay", K_STARTDELAY, 0 },
	{ "direct", K_DIRECT, 1 }, { "buffered", K_BUFFERED, 1 },
	{ "rate", K_RATE, 0 }, { "fsync", K_FSYNC, 0 },
	{ "prio", K_PRIO, 0 }, { "prioclass", K_PRIOCLASS, 0 },
	{ "loops", K_LOOPS, 0 }, { "runtime", K_RUNTIME, 0 }, { "timeout", K_RUNTIME, 0 },
	{ "ramp_time", K_RAMP, 0 }, { "directory", K_DIRECTORY, 0 },
	{ "ioengine", K_IOENGINE, 0 }, { "invalidate", K_INVALIDATE, 1 },
	{ "time_based", K_TIMEBASED, 1 }, { "iodepth", K_IODEPTH, 0 },
	{ "nrfiles", K_NRFILES, 0 },
};

/* Keys that only change fio's naming or reporting. */
static const char *const fio_ignored[] = {
	"name", "description", "group_reporting", "thread", "new_group", "per_job_logs",
	"write_bw_log", "write_lat_log", "write_iops_log", "log_avg_msec", "eta", NULL,
};

/* Keys with a known reason they cannot be honoured. */
static const struct { const char *name, *why; } fio_refused[] = {
	{ "filename", "brisk creates its own files in the test directory: remove filename= "
		      "and use directory= or brisk's --dir" },
	{ "include", "include files are not read: paste the included options in" },
	{ "rwmixread", "mixed read/write jobs are not a brisk load: use a reader and a writer" },
	{ "rwmixwrite", "mixed read/write jobs are not a brisk load: use a reader and a writer" },
	{ "stonewall", "brisk starts all loads together and times actions on its own schedule" },
	{ "wait_for", "brisk starts all loads together and times actions on its own schedule" },
	{ "verify", "brisk does not verify data" },
	{ "offset", "brisk loads start at the beginning of their own file" },
	{ "thinktime", "a load runs flat out (or at rate=); actions are timed one by one" },
	{ "fallocate", "brisk lays out its own files" },
	{ "exec_prerun", "brisk runs no commands around jobs" },
	{ "exec_postrun", "brisk runs no commands around jobs" },
};

struct fval {
	char v[256];
	int line;     /* 0 = unset */
};

struct job {
	struct fval k[K_COUNT];
};

struct conv {
	struct msg_first fail;   /* the file's name and the first error */
	double scale;
	struct profile *p;
	struct job global;
	int have_global;
	char runtime_from[8];
};

#define FAIL(c, line, ...) msg_first_at(&(c)->fail, (line), __VA_ARGS__)

int fiojob_parse_scale(const char *text, double *out)
{
	char *end;
	double v;
	const char *slash = strchr(text, '/');
	errno = 0;
	if (slash) {
		double a = strtod(text, &end);
		if (end != slash)
			return -EINVAL;
		double b = strtod(slash + 1, &end);
		if (*end || b == 0)
			return -EINVAL;
		v = a / b;
	} else {
		v = strtod(text, &end);
		if (end == text)
			return -EINVAL;
		if (strcmp(end, "%") == 0)
			v /= 100.0;
		else if (*end)
			return -EINVAL;
	}
	if (errno || !(v > 0) || v > 1 || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

/* A load's size times the scale, rounded up to a whole number of blocks
 * (of `align` bytes, at least 4 KiB). */
static uint64_t scale_size(const struct conv *c, uint64_t v, uint64_t align)
{
	if (c->scale >= 1.0)
		return v;
	if (align < 4096)
		align = 4096;
	double d = ceil((double)v * c->scale / (double)align) * (double)align;
	return d < (double)align ? align : (uint64_t)d;
}

static int get_size(struct conv *c, const struct fval *f, const char *key, uint64_t *out)
{
	if (parse_size(f->v, out) < 0 || *out == 0) {
		FAIL(c, f->line, "bad value '%s' for fio key %s, expected a size such as 4k, "
		     "30m or 10240m", f->v, key);
		return -1;
	}
	return 0;
}

static int get_int(struct conv *c, const struct fval *f, const char *key, int64_t min,
		   int64_t max, int64_t *out)
{
	if (parse_int(f->v, min, max, out) < 0) {
		FAIL(c, f->line, "bad value '%s' for fio key %s, expected an integer from %"
		     PRId64 " to %" PRId64, f->v, key, min, max);
		return -1;
	}
	return 0;
}

static int get_bool(struct conv *c, const struct fval *f, const char *key, int *out)
{
	int64_t n;
	if (get_int(c, f, key, 0, 1, &n) < 0)
		return -1;
	*out = (int)n;
	return 0;
}

static void unique_name(char *out, size_t len, const char *section, const struct profile *p,
			int is_load)
{
	char base[PROFILE_SECTION_LEN];
	size_t n = 0;
	for (const char *s = section; *s && n + 1 < sizeof(base) - 4; s++)
		base[n++] = (isalnum((unsigned char)*s) || *s == '_' || *s == '.' || *s == '-') ?
			    *s : '-';
	base[n] = '\0';
	if (!n || base[0] == '.' || base[0] == '-') {
		memmove(base + 1, base, n + 1);
		base[0] = 'j';
	}
	str_copy(out, len, base);
	for (unsigned i = 2; i < 1000; i++) {
		int clash = 0;
		if (is_load) {
			for (size_t j = 0; j < p->n_loads; j++)
				clash |= strcmp(p->loads[j].name, out) == 0;
		} else {
			for (size_t j = 0; j < p->n_actions; j++)
				clash |= strcmp(p->actions[j].name, out) == 0;
		}
		if (!clash)
			return;
		char num[8];
		snprintf(num, sizeof(num), "-%u", i % 1000u);
		base[sizeof(base) - 5 < strlen(base) ? sizeof(base) - 5 : strlen(base)] = '\0';
		str_copy(out, len, base);
		strncat(out, num, len - strlen(out) - 1);
	}
}

/* Checks shared by loads and actions. */
static int common_checks(struct conv *c, const struct job *j)
{
	const struct fval *f = &j->k[K_IOENGINE];
	if (f->line && strcmp(f->v, "sync") && strcmp(f->v, "psync")) {
		FAIL(c, f->line, "fio key 'ioengine=%s' cannot be honoured: brisk does synchronous "
		     "read()/write() calls, use ioengine=sync or psync", f->v);
		return -1;
	}
	f = &j->k[K_INVALIDATE];
	if (f->line && strcmp(f->v, "1")) {
		FAIL(c, f->line, "fio key 'invalidate=%s' cannot be honoured: brisk always evicts "
		     "the cache before reading, use invalidate=1", f->v);
		return -1;
	}
	f = &j->k[K_IODEPTH];
	if (f->line && strcmp(f->v, "1")) {
		FAIL(c, f->line, "fio key 'iodepth=%s' cannot be honoured: synchronous I/O has "
		     "one request in flight per process, use numjobs= for more", f->v);
		return -1;
	}
	f = &j->k[K_NRFILES];
	if (f->line && strcmp(f->v, "1")) {
		FAIL(c, f->line, "fio key 'nrfiles=%s' cannot be honoured: each brisk load or "
		     "action works on one file, use numjobs= for more", f->v);
		return -1;
	}
	return 0;
}

static void take_global(struct conv *c, const struct job *g, int in_job, const char *section);

static void finish_job(struct conv *c, const char *section, int sec_line, const struct job *j)
{
	struct profile *p = c->p;
	take_global(c, j, 1, section);
	if (c->fail.failed || common_checks(c, j) < 0)
		return;
	const char *rw = j->k[K_RW].line ? j->k[K_RW].v : "read";
	int rw_line = j->k[K_RW].line ? j->k[K_RW].line : sec_line;
	enum load_kind kind;
	if (strcmp(rw, "write") == 0)
		kind = LOAD_SEQ_WRITE;
	else if (strcmp(rw, "read") == 0)
		kind = LOAD_SEQ_READ;
	else if (strcmp(rw, "randread") == 0)
		kind = LOAD_RAND_READ;
	else if (strcmp(rw, "randwrite") == 0)
		kind = LOAD_RAND_WRITE;
	else {
		FAIL(c, rw_line, "fio key 'rw=%s' cannot be honoured: brisk runs write, read, "
		     "randread and randwrite jobs (mixed rw/randrw/trim and offset modifiers are "
		     "not loads it has)", rw);
		return;
	}
	uint64_t bs_lo = 4096, bs_hi = 4096;   /* fio's default bs */
	if (j->k[K_BS].line && j->k[K_BSRANGE].line) {
		/* fio: bsrange wins; say which one we take rather than guess. */
		int l = j->k[K_BS].line > j->k[K_BSRANGE].line ? j->k[K_BS].line :
			j->k[K_BSRANGE].line;
		FAIL(c, l, "fio keys bs and bsrange both apply to job [%s], expected one of them",
		     section);
		return;
	}
	const struct fval *bf = j->k[K_BSRANGE].line ? &j->k[K_BSRANGE] :
				j->k[K_BS].line ? &j->k[K_BS] : NULL;
	if (bf && (strchr(bf->v, ',') || parse_size_range(bf->v, &bs_lo, &bs_hi) < 0 ||
		   bs_lo == 0 || bs_hi > 64ull << 20)) {
		FAIL(c, bf->line, "fio key '%s=%s' cannot be honoured: expected one size such as "
		     "1024k or a range such as 4k-44k, at most 64m (separate read,write sizes are "
		     "not supported)", bf == &j->k[K_BS] ? "bs" : "bsrange", bf->v);
		return;
	}
	uint64_t size = 0, filesize = 0, iosize = 0;
	if (j->k[K_SIZE].line && get_size(c, &j->k[K_SIZE], "size", &size) < 0)
		return;
	if (j->k[K_FILESIZE].line && get_size(c, &j->k[K_FILESIZE], "filesize", &filesize) < 0)
		return;
	if (j->k[K_IOSIZE].line && get_size(c, &j->k[K_IOSIZE], "io_size", &iosize) < 0)
		return;
	if (!size && !filesize) {
		FAIL(c, sec_line, "fio job [%s] has no size, expected size= (or filesize=)", section);
		return;
	}
	if (!size)
		size = filesize;
	if (!filesize)
		filesize = size;
	if (!iosize)
		iosize = size;
	uint64_t delay_ns = 0;
	const struct fval *sd = &j->k[K_STARTDELAY];
	if (sd->line) {
		if (strchr(sd->v, '-') || parse_duration(sd->v, &delay_ns) < 0) {
			FAIL(c, sd->line, "fio key 'startdelay=%s' cannot be honoured: expected one "
			     "duration such as 4 (seconds), 4s or 500ms (random ranges are not "
			     "supported)", sd->v);
			return;
		}
	}
	int64_t numjobs = 1, loops = 1, n;
	if (j->k[K_NUMJOBS].line && get_int(c, &j->k[K_NUMJOBS], "numjobs", 1, 256, &numjobs) < 0)
		return;
	if (j->k[K_LOOPS].line && get_int(c, &j->k[K_LOOPS], "loops", 1, 1000000, &loops) < 0)
		return;
	int direct = 0, buffered = 1, time_based = 0;
	if (j->k[K_DIRECT].line && get_bool(c, &j->k[K_DIRECT], "direct", &direct) < 0)
		return;
	if (j->k[K_BUFFERED].line && get_bool(c, &j->k[K_BUFFERED], "buffered", &buffered) < 0)
		return;
	if (j->k[K_BUFFERED].line && !j->k[K_DIRECT].line)
		direct = !buffered;
	else if (j->k[K_BUFFERED].line && direct == buffered) {
		FAIL(c, j->k[K_BUFFERED].line, "fio keys direct=%d and buffered=%d contradict each "
		     "other, expected one of them", direct, buffered);
		return;
	}
	if (j->k[K_TIMEBASED].line && get_bool(c, &j->k[K_TIMEBASED], "time_based", &time_based) < 0)
		return;
	int small_reader = kind == LOAD_RAND_READ && iosize <= FIOJOB_SMALL_READ &&
			   numjobs == 1 && !time_based;
	if (small_reader) {
		/* An interactive program's reads: a timed ssh-like action. */
		static const enum fk not_here[] = { K_RATE, K_FSYNC, K_PRIO, K_PRIOCLASS };
		static const char *const names[] = { "rate", "fsync", "prio", "prioclass" };
		for (size_t i = 0; i < 4; i++)
			if (j->k[not_here[i]].line) {
				FAIL(c, j->k[not_here[i]].line, "fio key '%s=%s' cannot be honoured "
				     "for job [%s], a small random reader brisk times as an ssh-like "
				     "action: remove it", names[i], j->k[not_here[i]].v, section);
				return;
			}
		if (direct) {
			FAIL(c, j->k[K_DIRECT].line ? j->k[K_DIRECT].line : j->k[K_BUFFERED].line,
			     "fio key 'direct=1' cannot be honoured for job [%s], a small random "
			     "reader brisk times as an ssh-like action with buffered reads, as "
			     "programs do: use direct=0", section);
			return;
		}
		if (p->n_actions >= PROFILE_MAX_ACTIONS) {
			FAIL(c, sec_line, "too many small random readers, brisk takes at most %d",
			     PROFILE_MAX_ACTIONS);
			return;
		}
		struct profile_action *a = &p->actions[p->n_actions];
		memset(a, 0, sizeof(*a));
		unique_name(a->name, sizeof(a->name), section, p, 0);
		a->kind = ACTION_SSH;
		action_config_default(&a->cfg);
		a->cfg.exec_cmd = NULL;
		a->cfg.ssh_bs_lo = bs_lo;
		a->cfg.ssh_bs_hi = bs_hi;
		/* The reads are the interactive workload being measured: their
		 * sizes are not scaled, only when they start. */
		a->cfg.ssh_region = iosize;
		a->cfg.ssh_file = filesize;
		if (a->cfg.ssh_bs_hi > a->cfg.ssh_region) {
			FAIL(c, sec_line, "fio job [%s] reads %" PRIu64 " bytes, less than its "
			     "largest block (%" PRIu64 "), expected size >= bs", section,
			     a->cfg.ssh_region, a->cfg.ssh_bs_hi);
			return;
		}
		if (a->cfg.ssh_region > a->cfg.ssh_file) {
			FAIL(c, sec_line, "fio job [%s] reads %" PRIu64 " bytes of a %" PRIu64
			     "-byte file, expected size <= filesize", section, a->cfg.ssh_region,
			     a->cfg.ssh_file);
			return;
		}
		a->startdelay_ns = (uint64_t)llround((double)delay_ns * c->scale / 1e6) * 1000000ull;
		a->loops = (unsigned)loops;
		a->line = sec_line;
		p->n_actions++;
		return;
	}
	if (delay_ns) {
		FAIL(c, sd->line, "fio key 'startdelay=%s' cannot be honoured for job [%s], which "
		     "brisk runs as a background load: loads start together (only small random "
		     "readers, timed as actions, may start late)", sd->v, section);
		return;
	}
	if (p->n_loads >= PROFILE_MAX_LOADS) {
		FAIL(c, sec_line, "too many loads, brisk takes at most %d", PROFILE_MAX_LOADS);
		return;
	}
	char e[256];
	struct load_spec s;
	int fs_line = j->k[K_FSYNC].line;
	if (fs_line && kind == LOAD_SEQ_WRITE)
		kind = LOAD_FSYNC_WRITE;
	load_spec_parse(load_kind_name(kind), &s, e, sizeof(e));
	s.bs_lo = bs_lo;
	s.bs_hi = bs_hi;
	uint64_t align = bs_lo == bs_hi ? bs_hi : 4096;
	s.size = scale_size(c, filesize, align);
	if (s.size < bs_hi)
		s.size = bs_hi;
	s.total = time_based ? 0 : scale_size(c, iosize, align) * (uint64_t)loops;
	s.count = (unsigned)numjobs;
	s.direct = direct;
	s.fsync_every = 0;
	if (j->k[K_RATE].line) {
		if (strchr(j->k[K_RATE].v, ',') || parse_size(j->k[K_RATE].v, &s.rate) < 0 ||
		    !s.rate) {
			FAIL(c, j->k[K_RATE].line, "fio key 'rate=%s' cannot be honoured: expected one "
			     "rate in bytes per second such as 20m (separate read,write rates are "
			     "not supported)", j->k[K_RATE].v);
			return;
		}
	}
	if (fs_line) {
		if (kind == LOAD_SEQ_READ || kind == LOAD_RAND_READ) {
			FAIL(c, fs_line, "fio key 'fsync=%s' cannot be honoured for a reader, "
			     "expected it on writers only", j->k[K_FSYNC].v);
			return;
		}
		if (get_int(c, &j->k[K_FSYNC], "fsync", 1, 1 << 20, &n) < 0)
			return;
		s.fsync_every = (uint64_t)n * bs_hi;
	}
	if (j->k[K_PRIOCLASS].line || j->k[K_PRIO].line) {
		int64_t cls = 2, lvl = 4;
		if (j->k[K_PRIOCLASS].line &&
		    get_int(c, &j->k[K_PRIOCLASS], "prioclass", 1, 3, &cls) < 0)
			return;
		if (j->k[K_PRIO].line && get_int(c, &j->k[K_PRIO], "prio", 0, 7, &lvl) < 0)
			return;
		s.ioprio_class = (int)cls;
		s.ioprio_level = cls == 3 ? 0 : (int)lvl;
	}
	if (load_spec_check(&s, e, sizeof(e)) < 0) {
		FAIL(c, sec_line, "fio job [%s] is not a load brisk can run: %s", section, e);
		return;
	}
	struct profile_load *l = &p->loads[p->n_loads];
	memset(l, 0, sizeof(*l));
	unique_name(l->name, sizeof(l->name), section, p, 1);
	l->spec = s;
	l->line = sec_line;
	p->n_loads++;
}

/* [global]-only keys: runtime, ramp_time, directory. */
static void take_global(struct conv *c, const struct job *g, int in_job, const char *section)
{
	static const enum fk ks[] = { K_RUNTIME, K_RAMP, K_DIRECTORY };
	static const char *const names[] = { "runtime", "ramp_time", "directory" };
	for (size_t i = 0; i < 3 && !c->fail.failed; i++) {
		const struct fval *f = &g->k[ks[i]];
		if (!f->line)
			continue;
		if (in_job) {
			FAIL(c, f->line, "fio key '%s' in job [%s] cannot be honoured: brisk has one "
			     "%s for the whole run, put it in [global]", names[i], section, names[i]);
			return;
		}
		uint64_t ns;
		if (ks[i] == K_DIRECTORY) {
			int odd = 0;
			for (const char *q = f->v; *q; q++)
				odd |= (unsigned char)*q < 0x20 || *q == ';';
			if (strlen(f->v) >= sizeof(c->p->directory) || strchr(f->v, ':') || odd) {
				FAIL(c, f->line, "fio key 'directory=%s' cannot be honoured: expected "
				     "one directory of at most %zu characters, without ':', ';' or control "
				     "characters", f->v,
				     sizeof(c->p->directory) - 1);
				return;
			}
			str_copy(c->p->directory, sizeof(c->p->directory), f->v);
		} else if (parse_duration(f->v, &ns) < 0) {
			FAIL(c, f->line, "bad value '%s' for fio key %s, expected a duration such as "
			     "60 (seconds) or 2m", f->v, names[i]);
			return;
		} else {
			ns = ns / 1000000ull * 1000000ull;
			if (ks[i] == K_RUNTIME)
				c->p->runtime_ns = ns;
			else
				c->p->ramp_time_ns = ns;
		}
	}
}

static int set_key(struct conv *c, struct job *j, const char *key, const char *val, int bare,
		   int line)
{
	for (size_t i = 0; i < sizeof(fio_keys) / sizeof(fio_keys[0]); i++) {
		if (strcmp(fio_keys[i].name, key) != 0)
			continue;
		if (bare && !fio_keys[i].boolean) {
			FAIL(c, line, "fio key '%s' needs a value, expected %s=VALUE", key, key);
			return -1;
		}
		struct fval *f = &j->k[fio_keys[i].k];
		if (strlen(val) >= sizeof(f->v)) {
			FAIL(c, line, "value of fio key '%s' is too long", key);
			return -1;
		}
		str_copy(f->v, sizeof(f->v), bare ? "1" : val);
		f->line = line;
		return 0;
	}
	for (const char *const *ig = fio_ignored; *ig; ig++)
		if (strcmp(*ig, key) == 0)
			return 0;
	for (size_t i = 0; i < sizeof(fio_refused) / sizeof(fio_refused[0]); i++)
		if (strcmp(fio_refused[i].name, key) == 0) {
			FAIL(c, line, "fio key '%s' cannot be honoured: %s", key, fio_refused[i].why);
			return -1;
		}
	FAIL(c, line, "fio key '%s' is not supported by brisk, expected rw, bs, bsrange, size, "
	     "filesize, io_size, numjobs, startdelay, direct, buffered, rate, fsync, prio, "
	     "prioclass, loops, runtime, ramp_time, directory, ioengine, invalidate, time_based, "
	     "iodepth=1 or nrfiles=1", key);
	return -1;
}

int fiojob_parse_buffer(const char *data, size_t len, const char *display, double scale,
			struct profile *out, char *err, size_t errlen)
{
	struct conv *c = calloc(1, sizeof(*c) + sizeof(struct job));
	if (!c)
		return -ENOMEM;
	struct job *cur = (struct job *)(c + 1);
	c->fail.file = display ? display : "(fio job)";
	c->scale = scale > 0 && scale <= 1 ? scale : 1;
	c->p = out;
	c->fail.buf = err;
	c->fail.len = errlen;
	profile_init(out, NULL);
	enum { NONE, GLOBAL, JOB } sec = NONE;
	char section[128] = "";
	int sec_line = 0, line = 0, jobs = 0;
	size_t pos = 0;
	char buf[4096];
	while (pos < len && !c->fail.failed) {
		size_t end = pos;
		while (end < len && data[end] != '\n')
			end++;
		line++;
		size_t n = end - pos;
		if (memchr(data + pos, '\0', n)) {
			FAIL(c, line, "NUL byte, expected a text job file");
			break;
		}
		size_t bad, clean = n && data[pos + n - 1] == '\r' ? n - 1 : n;
		if (text_check_n(data + pos, clean, &bad) < 0) {
			unsigned char b = (unsigned char)data[pos + bad];
			FAIL(c, line, "%s \\x%02x at byte %zu, expected UTF-8 text without control "
			     "characters (TAB is allowed)", b < 0x20 || b == 0x7F ||
			     (b == 0xC2 && bad + 1 < clean && (unsigned char)data[pos + bad + 1] >= 0x80 &&
			      (unsigned char)data[pos + bad + 1] < 0xA0) ?
			     "control character" : "invalid UTF-8", b, bad + 1);
			break;
		}
		if (n >= sizeof(buf)) {
			FAIL(c, line, "line is %zu bytes long, expected at most %zu", n, sizeof(buf) - 1);
			break;
		}
		memcpy(buf, data + pos, n);
		buf[n] = '\0';
		pos = end < len ? end + 1 : end;
		char *s = str_trim(buf);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			if (!close || *str_trim(close + 1)) {
				FAIL(c, line, "bad section header, expected [NAME]");
				break;
			}
			if (sec == JOB)
				finish_job(c, section, sec_line, cur);
			else if (sec == GLOBAL)
				take_global(c, &c->global, 0, "global");
			*close = '\0';
			str_copy(section, sizeof(section), str_trim(s + 1));
			if (!section[0]) {
				FAIL(c, line, "empty section name, expected [global] or [JOBNAME]");
				break;
			}
			sec_line = line;
			if (strcmp(section, "global") == 0) {
				sec = GLOBAL;
			} else {
				sec = JOB;
				jobs++;
				*cur = c->global;   /* globals so far apply, as in fio */
				for (int k = K_RUNTIME; k <= K_DIRECTORY; k++)
					cur->k[k].line = 0;
			}
			continue;
		}
		if (sec == NONE) {
			FAIL(c, line, "option outside any section, expected [global] or [JOBNAME] "
			     "first");
			break;
		}
		if (strchr(s, '$')) {
			FAIL(c, line, "environment variables ($VAR) cannot be honoured, expected "
			     "literal values");
			break;
		}
		char *eq = strchr(s, '=');
		const char *val = "";
		if (eq) {
			*eq = '\0';
			val = str_trim(eq + 1);
		}
		char *key = str_trim(s);
		if (!*key || (eq && !*val)) {
			FAIL(c, line, "expected key=value");
			break;
		}
		set_key(c, sec == GLOBAL ? &c->global : cur, key, val, !eq, line);
	}
	if (!c->fail.failed) {
		if (sec == JOB)
			finish_job(c, section, sec_line, cur);
		else if (sec == GLOBAL)
			take_global(c, &c->global, 0, "global");
	}
	if (!c->fail.failed && !jobs)
		FAIL(c, line ? line : 1, "no job sections, expected at least one [JOBNAME]");
	if (!c->fail.failed) {
		/* Name and description from the file name. */
		const char *b = strrchr(c->fail.file, '/');
		b = b ? b + 1 : c->fail.file;
		char name[PROFILE_NAME_LEN];
		size_t k = 0;
		for (; b[k] && b[k] != '.' && k + 1 < sizeof(name); k++)
			name[k] = isalnum((unsigned char)b[k]) || b[k] == '-' || b[k] == '_' ? b[k] : '-';
		name[k] = '\0';
		str_copy(out->name, sizeof(out->name), k && name[0] != '-' ? name : "fio-job");
		if (c->scale < 1)
			snprintf(out->description, sizeof(out->description), "fio job %.100s, "
				 "loads and start delays scaled by %g", b, c->scale);
		else
			snprintf(out->description, sizeof(out->description), "fio job %.100s", b);
	}
	int failed = c->fail.failed;
	free(c);
	return failed ? -EINVAL : 0;
}

int fiojob_parse_file(const char *path, double scale, struct profile *out, char *err,
		      size_t errlen)
{
	char *buf;
	size_t n;
	int rc = fileio_read_file(path, PROFILE_MAX_FILE, &buf, &n);
	if (rc == -EINVAL || rc == -EFBIG)
		return msg_fail(-EINVAL, err, errlen, "%s: not a regular file of at most %d bytes, "
				"expected a fio job file", path, PROFILE_MAX_FILE);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "%s: cannot open: %s", path, strerror(-rc));
	rc = fiojob_parse_buffer(buf, n, path, scale, out, err, errlen);
	free(buf);
	return rc;
}
