/* fiojob — fio job files -> profiles.  See fiojob.h. */
#include "fiojob.h"

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

#include "fiojob_priv.h"


#define MAX_FILES 64
#define LINE_STRIDE (1 << 20)   /* id of a line = file index * LINE_STRIDE + line */

struct fval {
	char v[256];
	int line;     /* the line's id (see LINE_STRIDE); 0 = unset */
};

struct job {
	struct fval k[K_COUNT];
};

struct conv {
	struct msg_first fail;   /* file "": ":ID: message", rewritten at the end */
	const struct fiojob_opts *o;
	double scale;
	struct profile *p;       /* where jobs go: out, or scratch for other groups */
	struct profile *out, *scratch;
	struct fiojob_report *rep;
	struct job global, cur;
	enum { NONE, GLOBAL, JOB } sec;
	char section[128];
	int sec_line;
	unsigned jobs, group, want;
	char *files[MAX_FILES];
	size_t n_files;
	dev_t dev[FIOJOB_INCLUDE_DEPTH + 1];
	ino_t ino[FIOJOB_INCLUDE_DEPTH + 1];
	char noted[FIOJOB_MAX_NOTES][32];
	size_t n_noted;
	uint64_t unscaled_size[PROFILE_MAX_LOADS];   /* out's loads' regions at scale 1 */
};

#define FAIL(c, line, ...) msg_first_at(&(c)->fail, (line), __VA_ARGS__)

static const char *id_file(const struct conv *c, int id)
{
	size_t fi = (size_t)(id / LINE_STRIDE);
	return fi < c->n_files ? c->files[fi] : "?";
}

static int id_line(int id)
{
	return id % LINE_STRIDE;
}

static void unique_name(char *out, size_t len, const char *section, const struct profile *p,
			int is_load)
{
	char base[PROFILE_SECTION_LEN];
	size_t n = 0;
	for (const char *s = section; *s && n + 1 < sizeof(base) - 4; s++)
		base[n++] = (str_is_alnum((unsigned char)*s) || *s == '_' || *s == '.' || *s == '-') ?
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

/* Checks of a job fiojob makes itself (loadkeys reads the rest). */
static int common_checks(struct conv *c, const struct job *j)
{
	const struct fval *f = &j->k[K_INVALIDATE];
	if (f->line && strcmp(f->v, "1")) {
		FAIL(c, f->line, "fio key 'invalidate=%s' cannot be honoured: brisk always evicts "
		     "the cache before reading, use invalidate=1", f->v);
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

/* Does the job write?  (rw as given, fio's default is read.) */
static int job_writes(const struct job *j)
{
	const char *rw = j->k[K_RW].line ? j->k[K_RW].v : "read";
	return strstr(rw, "write") != NULL || strcmp(rw, "w") == 0;
}

/* fio's READ,WRITE[,TRIM] values: the part for the job's direction (a
 * writer takes the second, or the first when there is none).  NULL when
 * that part is empty (the key does not apply). */
static const char *rw_part(const char *v, int writer, char *buf, size_t len)
{
	const char *comma = strchr(v, ',');
	if (!comma)
		return v;
	const char *a = v, *e = comma;
	if (writer) {
		const char *w = comma + 1, *w_end = strchr(w, ',');
		if (!w_end)
			w_end = w + strlen(w);
		if (w_end > w) {
			a = w;
			e = w_end;
		}
	}
	size_t n = (size_t)(e - a);
	if (!n)
		return NULL;
	if (n >= len)
		n = len - 1;
	memcpy(buf, a, n);
	buf[n] = '\0';
	return buf;
}

/* The job's keys as loadkeys reads them; parts and sizes go into bufs.
 * 0, or -1 after an error. */
static int job_keys(struct conv *c, const char *section, int sec_line, const struct job *j,
		    struct loadkeys *k, char bufs[][256])
{
	static const struct { enum fk f; enum loadkeys_key k; int part; } map[] = {
		{ K_RW, LK_RW, 0 }, { K_BS, LK_BS, 1 }, { K_BSRANGE, LK_BSRANGE, 1 },
		{ K_BSSPLIT, LK_BSSPLIT, 1 }, { K_SIZE, LK_SIZE, 0 },
		{ K_FILESIZE, LK_FILESIZE, 0 }, { K_IOSIZE, LK_IOSIZE, 0 },
		{ K_NUMJOBS, LK_NUMJOBS, 0 }, { K_RATE, LK_RATE, 1 }, { K_FSYNC, LK_FSYNC, 0 },
		{ K_DIRECT, LK_DIRECT, 0 }, { K_BUFFERED, LK_BUFFERED, 0 }, { K_PRIO, LK_PRIO, 0 },
		{ K_PRIOCLASS, LK_PRIOCLASS, 0 }, { K_LOOPS, LK_LOOPS, 0 },
		{ K_TIMEBASED, LK_TIMEBASED, 0 }, { K_STARTDELAY, LK_STARTDELAY, 0 },
		{ K_IOENGINE, LK_IOENGINE, 0 }, { K_IODEPTH, LK_IODEPTH, 0 },
		{ K_RWMIXREAD, LK_RWMIXREAD, 0 }, { K_RWMIXWRITE, LK_RWMIXWRITE, 0 },
		{ K_DIST, LK_DIST, 1 }, { K_RATEIOPS, LK_RATEIOPS, 1 }, { K_POISSON, LK_POISSON, 0 },
		{ K_FLOW, LK_FLOW, 0 }, { K_FLOWID, LK_FLOWID, 0 }, { K_FLOWSLEEP, LK_FLOWSLEEP, 0 },
		{ K_THINKTIME, LK_THINKTIME, 0 }, { K_THINKSPIN, LK_THINKSPIN, 0 },
		{ K_THINKBLOCKS, LK_THINKBLOCKS, 0 }, { K_THINKTYPE, LK_THINKTYPE, 0 },
		{ K_DIRECTORY, LK_DIRECTORY, 0 },
	};
	memset(k, 0, sizeof(*k));
	k->fio = 1;
	k->fail = &c->fail;
	k->what = section;
	k->line = sec_line;
	k->scale = c->scale;
	int writer = job_writes(j);
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		const struct fval *f = &j->k[map[i].f];
		if (!f->line)
			continue;
		const char *v = map[i].part ? rw_part(f->v, writer, bufs[i], 256) : f->v;
		if (!v)
			continue;
		if (map[i].f == K_SIZE && v[0] && v[strlen(v) - 1] == '%') {
			/* size=N%: of the file (fio: of the file or device) */
			char num[32];
			int64_t pct;
			uint64_t fs;
			size_t n = strlen(v) - 1;
			str_copy(num, sizeof(num), v);
			num[n < sizeof(num) ? n : sizeof(num) - 1] = '\0';
			if (parse_int(num, 1, 100, &pct) < 0 || !j->k[K_FILESIZE].line ||
			    parse_size(j->k[K_FILESIZE].v, &fs) < 0 || !fs) {
				FAIL(c, f->line, "fio key 'size=%s' cannot be honoured: a percentage "
				     "(1%%-100%%) needs filesize= to be a percentage of (brisk has no "
				     "device to take it of)", f->v);
				return -1;
			}
			snprintf(bufs[i], 256, "%" PRIu64, fs / 100 * (uint64_t)pct +
				 fs % 100 * (uint64_t)pct / 100);
			v = bufs[i];
		}
		loadkeys_set(k, map[i].k, v, f->line);
	}
	return 0;
}

/* An interactive program's reads: a timed ssh-like action. */
static void add_reader(struct conv *c, const struct job *j, const struct loadkeys *k,
		       const struct loadkeys_io *io)
{
	static const enum fk not_here[] = { K_RATE, K_FSYNC, K_PRIO, K_PRIOCLASS, K_DIRECTORY };
	static const char *const names[] = { "rate", "fsync", "prio", "prioclass", "directory" };
	struct profile *p = c->p;
	for (size_t i = 0; i < 5; i++)
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

/* Every other job: a background load (startdelay and thinktime are its
 * own, loadkeys.h). */
static void add_load(struct conv *c, const struct loadkeys *k)
{
	struct profile *p = c->p;
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
	if (p == c->out) {
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
	}
	l->line = k->line;
	p->n_loads++;
}

static void take_global(struct conv *c, const struct job *g, int in_job, const char *section);
static void note(struct conv *c, int id, const char *key, const char *value, int harmless,
		 const char *text);

static void finish_job(struct conv *c)
{
	const struct job *j = &c->cur;
	const char *section = c->section;
	int sec_line = c->sec_line;
	take_global(c, j, 1, section);
	if (c->fail.failed || common_checks(c, j) < 0)
		return;
	const struct fval *sw = &j->k[K_STONEWALL];
	if (sw->line && strcmp(sw->v, "0") && strcmp(sw->v, "1")) {
		FAIL(c, sw->line, "bad value '%s' for fio key stonewall, expected 0 or 1", sw->v);
		return;
	}
	if (c->jobs > 1 && sw->line && strcmp(sw->v, "1") == 0)
		c->group++;
	c->p = c->group == c->want ? c->out : c->scratch;
	struct loadkeys k;
	struct loadkeys_io io;
	char bufs[24][256];
	if (job_keys(c, section, sec_line, j, &k, bufs) < 0 || loadkeys_read(&k, &io) < 0)
		return;
	const struct fval *e = &j->k[K_IOENGINE], *d = &j->k[K_IODEPTH];
	if (e->line && (strcmp(e->v, "libaio") == 0 || strcmp(e->v, "posixaio") == 0))
		note(c, e->line, "ioengine", e->v, 0, "brisk runs it on its io_uring engine with the "
		     "same iodepth (a buffered libaio job blocks in submission; brisk's io_uring "
		     "load does not)");
	const struct fval *fl = &j->k[K_FLOW];
	if (fl->line && fl->v[0] == '-')
		note(c, fl->line, "flow", fl->v, 0, "as the weight of its magnitude (fio before 3.23 "
		     "read the sign as a direction on one counter; equal and opposite weights give "
		     "1:1 either way)");
	if (d->line && strcmp(d->v, "1") && io.engine == LOAD_ENGINE_SYNC)
		note(c, d->line, "iodepth", d->v, 0, "a synchronous engine has one call in flight, "
		     "as in fio");
	/* a skewed random_distribution is not the action's uniform reads:
	 * such a reader stays a load, which honours it */
	const struct fval *dist = &j->k[K_DIST];
	int skewed = dist->line && strcmp(dist->v, "random") != 0;
	if (io.kind == LOAD_RAND_READ && io.iosize <= FIOJOB_SMALL_READ && io.numjobs == 1 &&
	    !io.time_based && io.engine == LOAD_ENGINE_SYNC && !skewed)
		add_reader(c, j, &k, &io);
	else
		add_load(c, &k);
}

/* A one-line note for a harmless key, once per key. */
static void note(struct conv *c, int id, const char *key, const char *value, int harmless,
		 const char *text)
{
	for (size_t i = 0; i < c->n_noted; i++)
		if (strcmp(c->noted[i], key) == 0)
			return;
	if (!c->rep || c->rep->n_notes >= FIOJOB_MAX_NOTES || c->n_noted >= FIOJOB_MAX_NOTES)
		return;
	str_copy(c->noted[c->n_noted++], sizeof(c->noted[0]), key);
	char v[96] = "";
	if (*value)
		snprintf(v, sizeof(v), "=%.80s", value);
	msg_set(c->rep->notes[c->rep->n_notes++], FIOJOB_NOTE_LEN, "%s:%d: note: fio key '%s%s' %s: %s", id_file(c, id), id_line(id), key, v,
		harmless ? "accepted, changes nothing" : "honoured", text);
}

/* $VAR and ${VAR} from the environment (--env), into out.  0 or -1. */
static int expand_env(struct conv *c, int id, const char *in, char *out, size_t len)
{
	if (!c->o->env) {
		FAIL(c, id, "environment variables ($VAR) are not read without --env, expected "
		     "literal values (or brisk profile import --env)");
		return -1;
	}
	size_t o = 0;
	for (const char *p = in; *p; ) {
		if (*p != '$') {
			if (o + 1 >= len)
				goto long_;
			out[o++] = *p++;
			continue;
		}
		int brace = p[1] == '{';
		const char *n = p + 1 + brace, *e = n;
		while (str_is_alnum((unsigned char)*e) || *e == '_')
			e++;
		if (e == n || (brace && *e != '}')) {
			FAIL(c, id, "bad variable at '%.20s', expected $NAME or ${NAME}", p);
			return -1;
		}
		char name[64];
		size_t nl = (size_t)(e - n);
		if (nl >= sizeof(name)) {
			FAIL(c, id, "variable name too long, expected at most %zu characters",
			     sizeof(name) - 1);
			return -1;
		}
		memcpy(name, n, nl);
		name[nl] = '\0';
		const char *val = getenv(name);
		size_t bad;
		if (!val) {
			FAIL(c, id, "$%s is not set in the environment (brisk reads only the "
			     "environment, not fio's own $pagesize, $mb_memory or $ncpus)", name);
			return -1;
		}
		if (text_check(val, &bad) < 0 || strchr(val, '$')) {
			FAIL(c, id, "$%s holds a control character, invalid UTF-8 or a '$', "
			     "expected plain text", name);
			return -1;
		}
		size_t vl = strlen(val);
		if (o + vl >= len)
			goto long_;
		memcpy(out + o, val, vl);
		o += vl;
		p = e + brace;
	}
	out[o] = '\0';
	return 0;
long_:
	FAIL(c, id, "line too long after its variables are replaced, expected at most %zu "
	     "characters", len - 1);
	return -1;
}

/* A filename= value that names a device node (brisk never writes one). */
static int names_device(const char *v)
{
	struct stat st;
	return strncmp(v, "/dev/", 5) == 0 ||
	       (stat(v, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)));
}

/* filename=: harmless for a file, refused for a device or several files. */
static int check_filename(struct conv *c, int id, const char *v)
{
	if (names_device(v)) {
		FAIL(c, id, "fio key 'filename=%s' cannot be honoured: it names a device node and "
		     "brisk never writes devices (it uses its own file in its work area on the "
		     "file system under test: remove filename=)", v);
		return -1;
	}
	for (const char *p = v; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == ':') {
			FAIL(c, id, "fio key 'filename=%s' cannot be honoured: several files "
			     "(':') are not one brisk load, use numjobs= for more", v);
			return -1;
		}
	}
	return 0;
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
		if (in_job && ks[i] == K_DIRECTORY)
			continue;   /* a job's own: its load's dir= (job_keys) */
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
		   int id)
{
	const struct fiojob_key *fk = fiojob_key_find(key);
	if (!fk) {
		FAIL(c, id, "fio key '%s' cannot be honoured: brisk does not know it (see the "
		     "table in brisk-profile(5) or brisk profile import --list-keys)", key);
		return -1;
	}
	if (fk->group == FIOJOB_REFUSED) {
		FAIL(c, id, "fio key '%s' cannot be honoured: %s", key, fk->text);
		return -1;
	}
	if (bare && !fk->boolean) {
		FAIL(c, id, "fio key '%s' needs a value, expected %s=VALUE", key, key);
		return -1;
	}
	char exp[1024];
	if (strchr(val, '$') && (fk->group == FIOJOB_HONOURED || strcmp(key, "filename") == 0)) {
		if (expand_env(c, id, val, exp, sizeof(exp)) < 0)
			return -1;
		val = exp;
	}
	if (fk->group == FIOJOB_HARMLESS) {
		if (strcmp(key, "filename") == 0 && check_filename(c, id, val) < 0)
			return -1;
		if (c->o->strict) {
			FAIL(c, id, "fio key '%s' cannot be honoured with --strict: %s", key,
			     fk->text);
			return -1;
		}
		note(c, id, key, bare ? "" : val, 1, fk->text);
		return 0;
	}
	if (fk->fk == K_IOENGINE) {
		enum load_engine e;
		if (loadkeys_engine(val, 1, &e) < 0) {
			FAIL(c, id, "fio key 'ioengine=%s' cannot be honoured: %s", val,
			     strcmp(val, "mmap") == 0 ? "brisk's loads do read()/write() calls or "
			     "io_uring requests, not page faults through a mapping" :
			     "it is not file I/O brisk can do (brisk: sync, psync, vsync, pvsync, "
			     "pvsync2, libaio, io_uring, posixaio)");
			return -1;
		}
	}
	struct fval *f = &j->k[fk->fk];
	if (strlen(val) >= sizeof(f->v)) {
		FAIL(c, id, "value of fio key '%s' is too long", key);
		return -1;
	}
	str_copy(f->v, sizeof(f->v), bare ? "1" : val);
	f->line = id;
	return 0;
}

static void end_section(struct conv *c)
{
	if (c->sec == JOB)
		finish_job(c);
	else if (c->sec == GLOBAL)
		take_global(c, &c->global, 0, "global");
}

static int read_text(struct conv *c, const char *data, size_t len, size_t fi, int depth);

/* include FILE: relative to the including file, not deeper than
 * FIOJOB_INCLUDE_DEPTH, never a file already being read. */
static void include_file(struct conv *c, int id, size_t fi, const char *arg, int depth)
{
	char path[4096];
	if (depth >= FIOJOB_INCLUDE_DEPTH) {
		FAIL(c, id, "include nested more than %d deep, expected at most %d",
		     FIOJOB_INCLUDE_DEPTH, FIOJOB_INCLUDE_DEPTH);
		return;
	}
	if (!*arg) {
		FAIL(c, id, "include without a file name, expected include FILE");
		return;
	}
	const char *from = c->files[fi], *slash = strrchr(from, '/');
	if (arg[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", arg);
	else
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - from), from, arg);
	struct stat st;
	if (stat(path, &st) < 0) {
		FAIL(c, id, "include %s: cannot open %s: %s", arg, path, strerror(errno));
		return;
	}
	for (int d = 0; d <= depth; d++)
		if (c->dev[d] == st.st_dev && c->ino[d] == st.st_ino) {
			FAIL(c, id, "include %s: %s is already being read (an include loop)", arg, path);
			return;
		}
	if (c->n_files >= MAX_FILES) {
		FAIL(c, id, "include %s: more than %d files, expected fewer includes", arg, MAX_FILES);
		return;
	}
	char *buf;
	size_t n;
	int rc = fileio_read_file(path, PROFILE_MAX_FILE, &buf, &n);
	if (rc < 0) {
		FAIL(c, id, "include %s: %s: %s", arg, path, rc == -EINVAL || rc == -EFBIG ?
		     "not a regular file of at most 1 MiB" : strerror(-rc));
		return;
	}
	c->files[c->n_files] = strdup(path);
	if (!c->files[c->n_files]) {
		free(buf);
		FAIL(c, id, "out of memory");
		return;
	}
	c->dev[depth + 1] = st.st_dev;
	c->ino[depth + 1] = st.st_ino;
	read_text(c, buf, n, c->n_files++, depth + 1);
	c->dev[depth + 1] = 0;
	c->ino[depth + 1] = 0;
	free(buf);
}

/* Cut an inline comment: ';' or '#' after white space. */
static void cut_comment(char *s)
{
	for (char *p = s + 1; *p; p++)
		if ((*p == ';' || *p == '#') && (p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			return;
		}
}

/* One line: a section header, include, or key[=value]. */
static void read_line(struct conv *c, char *s, int id, size_t fi, int depth)
{
	if (!*s || *s == '#' || *s == ';')
		return;
	cut_comment(s);
	s = str_trim(s);
	if (strncmp(s, "include", 7) == 0 && (s[7] == ' ' || s[7] == '\t')) {
		char exp[1024];
		const char *arg = str_trim(s + 8);
		if (strchr(arg, '$')) {
			if (expand_env(c, id, arg, exp, sizeof(exp)) < 0)
				return;
			arg = exp;
		}
		include_file(c, id, fi, arg, depth);
		return;
	}
	if (*s == '[') {
		char *close = strchr(s, ']');
		if (!close || *str_trim(close + 1)) {
			FAIL(c, id, "bad section header, expected [NAME]");
			return;
		}
		end_section(c);
		if (c->fail.failed)
			return;
		*close = '\0';
		str_copy(c->section, sizeof(c->section), str_trim(s + 1));
		if (!c->section[0]) {
			FAIL(c, id, "empty section name, expected [global] or [JOBNAME]");
			return;
		}
		c->sec_line = id;
		if (strcmp(c->section, "global") == 0) {
			c->sec = GLOBAL;
		} else {
			c->sec = JOB;
			c->jobs++;
			c->cur = c->global;   /* globals so far apply, as in fio */
			for (int k = K_RUNTIME; k <= K_DIRECTORY; k++)
				c->cur.k[k].line = 0;
		}
		return;
	}
	if (c->sec == NONE) {
		FAIL(c, id, "option outside any section, expected [global] or [JOBNAME] first");
		return;
	}
	char *eq = strchr(s, '=');
	const char *val = "";
	if (eq) {
		*eq = '\0';
		val = str_trim(eq + 1);
	}
	char *key = str_trim(s);
	if (!*key || (eq && !*val)) {
		FAIL(c, id, "expected key=value");
		return;
	}
	set_key(c, c->sec == GLOBAL ? &c->global : &c->cur, key, val, !eq, id);
}

/* The lines of one file (the job file or an include), checked as text. */
static int read_text(struct conv *c, const char *data, size_t len, size_t fi, int depth)
{
	size_t pos = 0;
	int line = 0;
	char buf[4096];
	while (pos < len && !c->fail.failed) {
		size_t end = pos;
		while (end < len && data[end] != '\n')
			end++;
		line++;
		int id = (int)fi * LINE_STRIDE + line;
		if (line >= LINE_STRIDE) {
			FAIL(c, id - 1, "more than %d lines, expected a shorter job file", LINE_STRIDE - 1);
			break;
		}
		size_t n = end - pos;
		if (memchr(data + pos, '\0', n)) {
			FAIL(c, id, "NUL byte, expected a text job file");
			break;
		}
		size_t bad, clean = n && data[pos + n - 1] == '\r' ? n - 1 : n;
		if (text_check_n(data + pos, clean, &bad) < 0) {
			char what[80];
			FAIL(c, id, "%s at byte %zu, expected UTF-8 text without control or "
			     "invisible format characters (TAB is allowed)",
			     text_bad_name(data + pos + bad, clean - bad, what, sizeof(what)), bad + 1);
			break;
		}
		if (n >= sizeof(buf)) {
			FAIL(c, id, "line is %zu bytes long, expected at most %zu", n, sizeof(buf) - 1);
			break;
		}
		memcpy(buf, data + pos, n);
		buf[n] = '\0';
		pos = end < len ? end + 1 : end;
		read_line(c, str_trim(buf), id, fi, depth);
	}
	return line;
}

/* The profile's name and description, from the job file's name. */
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
	struct profile *p = c->out;
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

static void name_from_file(const struct conv *c, struct profile *out)
{
	const char *b = strrchr(c->files[0], '/');
	b = b ? b + 1 : c->files[0];
	char name[PROFILE_NAME_LEN];
	size_t k = 0;
	for (; b[k] && b[k] != '.' && k + 1 < sizeof(name); k++)
		name[k] = str_is_alnum((unsigned char)b[k]) || b[k] == '-' || b[k] == '_' ? b[k] : '-';
	name[k] = '\0';
	str_copy(out->name, sizeof(out->name), k && name[0] != '-' ? name : "fio-job");
	char grp[64] = "";
	if (c->group > 1)
		snprintf(grp, sizeof(grp), ", stonewall group %u of %u", c->want, c->group);
	if (c->scale < 1)
		snprintf(out->description, sizeof(out->description), "fio job %.60s%s, %s "
			 "scaled by %g", b, grp, out->concurrency > 1 ?
			 "start delays (writers loop to the last reader)" :
			 "loads and start delays", c->scale);
	else
		snprintf(out->description, sizeof(out->description), "fio job %.100s%s", b, grp);
}

/* ":ID: message" -> "FILE:LINE: message". */
static void fix_location(const struct conv *c, char *err, size_t errlen)
{
	if (!err || !errlen || err[0] != ':')
		return;
	char *end;
	long id = strtol(err + 1, &end, 10);
	if (end == err + 1 || *end != ':')
		return;
	char *rest = strdup(end + 1);
	if (!rest)
		return;
	msg_set(err, errlen, "%s:%d:%s", id_file(c, (int)id), id_line((int)id), rest);
	free(rest);
}

static int import(const char *data, size_t len, const char *display, dev_t dev, ino_t ino,
		  const struct fiojob_opts *o, struct profile *out, struct fiojob_report *rep,
		  char *err, size_t errlen)
{
	struct conv *c = calloc(1, sizeof(*c));
	struct profile *scratch = malloc(sizeof(*scratch));
	char *name = strdup(display ? display : "(fio job)");
	if (!c || !scratch || !name) {
		free(c);
		free(scratch);
		free(name);
		return -ENOMEM;
	}
	c->fail.file = "";
	c->fail.buf = err;
	c->fail.len = errlen;
	c->o = o;
	c->scale = o->scale > 0 && o->scale <= 1 ? o->scale : 1;
	c->out = c->p = out;
	c->scratch = scratch;
	c->rep = rep;
	c->want = o->group ? o->group : 1;
	c->group = 1;
	c->files[0] = name;
	c->n_files = 1;
	c->dev[0] = dev;
	c->ino[0] = ino;
	if (rep)
		memset(rep, 0, sizeof(*rep));
	profile_init(out, NULL);
	profile_init(scratch, NULL);
	int lines = read_text(c, data, len, 0, 0);
	if (!c->fail.failed)
		end_section(c);
	if (!c->fail.failed && !c->jobs)
		FAIL(c, lines ? lines : 1, "no job sections, expected at least one [JOBNAME]");
	if (!c->fail.failed && c->want > c->group)
		FAIL(c, lines ? lines : 1, "the job file has %u stonewall group%s, expected "
		     "--group 1 to %u", c->group, c->group == 1 ? "" : "s", c->group);
	if (!c->fail.failed) {
		schedule_readers(c);
		name_from_file(c, out);
	}
	if (rep) {
		rep->jobs = c->jobs;
		rep->groups = c->group;
	}
	int failed = c->fail.failed;
	if (failed)
		fix_location(c, err, errlen);
	for (size_t i = 0; i < c->n_files; i++)
		free(c->files[i]);
	free(scratch);
	free(c);
	return failed ? -EINVAL : 0;
}

int fiojob_import_buffer(const char *data, size_t len, const char *display,
			 const struct fiojob_opts *o, struct profile *out,
			 struct fiojob_report *rep, char *err, size_t errlen)
{
	return import(data, len, display, 0, 0, o, out, rep, err, errlen);
}

int fiojob_import(const char *path, const struct fiojob_opts *o, struct profile *out,
		  struct fiojob_report *rep, char *err, size_t errlen)
{
	char *buf;
	size_t n;
	struct stat st;
	int rc = fileio_read_file(path, PROFILE_MAX_FILE, &buf, &n);
	if (rc == -EINVAL || rc == -EFBIG)
		return msg_fail(-EINVAL, err, errlen, "%s: not a regular file of at most %d bytes, "
				"expected a fio job file", path, PROFILE_MAX_FILE);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "%s: cannot open: %s", path, strerror(-rc));
	if (stat(path, &st) < 0)
		memset(&st, 0, sizeof(st));
	rc = import(buf, n, path, st.st_dev, st.st_ino, o, out, rep, err, errlen);
	free(buf);
	return rc;
}

int fiojob_parse_buffer(const char *data, size_t len, const char *display, double scale,
			struct profile *out, char *err, size_t errlen)
{
	struct fiojob_opts o = { .scale = scale };
	return fiojob_import_buffer(data, len, display, &o, out, NULL, err, errlen);
}

int fiojob_parse_file(const char *path, double scale, struct profile *out, char *err,
		      size_t errlen)
{
	struct fiojob_opts o = { .scale = scale };
	return fiojob_import(path, &o, out, NULL, err, errlen);
}
