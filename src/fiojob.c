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
#include "loadkeys.h"
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
	uint64_t unscaled_size[PROFILE_MAX_LOADS];   /* each load's region at scale 1 */
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

/* The job's keys as loadkeys reads them. */
static void job_keys(struct conv *c, const char *section, int sec_line, const struct job *j,
		     struct loadkeys *k)
{
	static const struct { enum fk f; enum loadkeys_key k; } map[] = {
		{ K_RW, LK_RW }, { K_BS, LK_BS }, { K_BSRANGE, LK_BSRANGE }, { K_SIZE, LK_SIZE },
		{ K_FILESIZE, LK_FILESIZE }, { K_IOSIZE, LK_IOSIZE }, { K_NUMJOBS, LK_NUMJOBS },
		{ K_RATE, LK_RATE }, { K_FSYNC, LK_FSYNC }, { K_DIRECT, LK_DIRECT },
		{ K_BUFFERED, LK_BUFFERED }, { K_PRIO, LK_PRIO }, { K_PRIOCLASS, LK_PRIOCLASS },
		{ K_LOOPS, LK_LOOPS }, { K_TIMEBASED, LK_TIMEBASED }, { K_STARTDELAY, LK_STARTDELAY },
	};
	memset(k, 0, sizeof(*k));
	k->fio = 1;
	k->fail = &c->fail;
	k->what = section;
	k->line = sec_line;
	k->scale = c->scale;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (j->k[map[i].f].line)
			loadkeys_set(k, map[i].k, j->k[map[i].f].v, j->k[map[i].f].line);
}

/* An interactive program's reads: a timed ssh-like action. */
static void add_reader(struct conv *c, const struct job *j, const struct loadkeys *k,
		       const struct loadkeys_io *io)
{
	static const enum fk not_here[] = { K_RATE, K_FSYNC, K_PRIO, K_PRIOCLASS };
	static const char *const names[] = { "rate", "fsync", "prio", "prioclass" };
	struct profile *p = c->p;
	for (size_t i = 0; i < 4; i++)
		if (j->k[not_here[i]].line) {
			FAIL(c, j->k[not_here[i]].line, "fio key '%s=%s' cannot be honoured "
			     "for job [%s], a small random reader brisk times as an ssh-like "
			     "action: remove it", names[i], j->k[not_here[i]].v, k->what);
			return;
		}
	if (io->direct) {
		FAIL(c, j->k[K_DIRECT].line ? j->k[K_DIRECT].line : j->k[K_BUFFERED].line,
		     "fio key 'direct=1' cannot be honoured for job [%s], a small random "
		     "reader brisk times as an ssh-like action with buffered reads, as "
		     "programs do: use direct=0", k->what);
		return;
	}
	if (p->n_actions >= PROFILE_MAX_ACTIONS) {
		FAIL(c, k->line, "too many small random readers, brisk takes at most %d",
		     PROFILE_MAX_ACTIONS);
		return;
	}
	struct action_config cfg;
	if (loadkeys_action(k, ACTION_SSH, &cfg) < 0)
		return;
	struct profile_action *a = &p->actions[p->n_actions];
	memset(a, 0, sizeof(*a));
	unique_name(a->name, sizeof(a->name), k->what, p, 0);
	a->kind = ACTION_SSH;
	a->cfg = cfg;
	a->startdelay_ns = (uint64_t)llround((double)io->delay_ns * c->scale / 1e6) * 1000000ull;
	a->loops = io->loops;
	a->line = k->line;
	p->n_actions++;
}

/* Every other job: a background load. */
static void add_load(struct conv *c, const struct job *j, const struct loadkeys *k,
		     uint64_t delay_ns)
{
	struct profile *p = c->p;
	if (delay_ns) {
		FAIL(c, j->k[K_STARTDELAY].line, "fio key 'startdelay=%s' cannot be honoured for "
		     "job [%s], which brisk runs as a background load: loads start together (only "
		     "small random readers, timed as actions, may start late)",
		     j->k[K_STARTDELAY].v, k->what);
		return;
	}
	if (p->n_loads >= PROFILE_MAX_LOADS) {
		FAIL(c, k->line, "too many loads, brisk takes at most %d", PROFILE_MAX_LOADS);
		return;
	}
	struct load_spec s;
	if (loadkeys_load(k, &s) < 0)
		return;
	struct profile_load *l = &p->loads[p->n_loads];
	memset(l, 0, sizeof(*l));
	unique_name(l->name, sizeof(l->name), k->what, p, 1);
	l->spec = s;
	c->unscaled_size[p->n_loads] = s.size;
	if (c->scale < 1) {   /* the region at scale 1, for schedule_readers();
			       * an error there is not the job's (it was scaled) */
		char scratch[64];
		struct msg_first quiet = { c->fail.file, scratch, sizeof(scratch), 0 };
		struct loadkeys k1 = *k;
		struct load_spec s1;
		k1.scale = 1;
		k1.fail = &quiet;
		if (loadkeys_load(&k1, &s1) == 0)
			c->unscaled_size[p->n_loads] = s1.size;
	}
	l->line = k->line;
	p->n_loads++;
}

static void finish_job(struct conv *c, const char *section, int sec_line, const struct job *j)
{
	take_global(c, j, 1, section);
	if (c->fail.failed || common_checks(c, j) < 0)
		return;
	struct loadkeys k;
	struct loadkeys_io io;
	job_keys(c, section, sec_line, j, &k);
	if (loadkeys_read(&k, &io) < 0)
		return;
	if (io.kind == LOAD_RAND_READ && io.iosize <= FIOJOB_SMALL_READ && io.numjobs == 1 &&
	    !io.time_based)
		add_reader(c, j, &k, &io);
	else
		add_load(c, j, &k, io.delay_ns);
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

/* The profile's name and description, from the job file's name. */
static void name_from_file(const struct conv *c, struct profile *out)
{
	const char *b = strrchr(c->fail.file, '/');
	b = b ? b + 1 : c->fail.file;
	char name[PROFILE_NAME_LEN];
	size_t k = 0;
	for (; b[k] && b[k] != '.' && k + 1 < sizeof(name); k++)
		name[k] = isalnum((unsigned char)b[k]) || b[k] == '-' || b[k] == '_' ? b[k] : '-';
	name[k] = '\0';
	str_copy(out->name, sizeof(out->name), k && name[0] != '-' ? name : "fio-job");
	if (c->scale < 1)
		snprintf(out->description, sizeof(out->description), "fio job %.60s, %s "
			 "scaled by %g", b, out->concurrency > 1 ?
			 "start delays (writers loop to the last reader)" :
			 "loads and start delays", c->scale);
	else
		snprintf(out->description, sizeof(out->description), "fio job %.100s", b);
}

/* fio runs every job at once and starts each at its own startdelay: the
 * readers (ssh-like actions) get their own start times, all of them in
 * flight at once if need be (the profile's concurrency).  Scaled, the
 * delays shrink but the readers do not, so a writer shrunk with them
 * would end long before the last reader: writers that would end (a size
 * or io_size) instead write until the session stops them — sequential
 * ones looping over their unscaled region (wrapping early at the
 * free-space floor), random ones in their scaled file. */
static void schedule_readers(struct conv *c)
{
	struct profile *p = c->p;
	if (p->n_actions < 2)
		return;
	p->concurrency = p->n_actions < PROFILE_MAX_CONCURRENCY ? (unsigned)p->n_actions :
			 PROFILE_MAX_CONCURRENCY;
	if (!(c->scale < 1))
		return;
	for (size_t i = 0; i < p->n_loads; i++) {
		struct load_spec *s = &p->loads[i].spec;
		if ((s->kind == LOAD_SEQ_WRITE || s->kind == LOAD_RAND_WRITE ||
		     s->kind == LOAD_FSYNC_WRITE) && s->total) {
			s->total = 0;
			/* a random writer's file is laid out whole before the run:
			 * it keeps its scaled size (random writes loop in it anyway) */
			if (s->kind != LOAD_RAND_WRITE && c->unscaled_size[i])
				s->size = c->unscaled_size[i];
		}
	}
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
		schedule_readers(c);
		name_from_file(c, out);
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
