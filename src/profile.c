/* profile — INI profiles: model, loader (libinih), writer, name resolution.
 * See profile.h for the contract and brisk-profile(5) for the format. */
#include "profile.h"
#include "msg.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"
#include "fiojob.h"
#include "parse.h"
#include "text.h"
#include "session.h"
#include "tunable.h"
#include "fileio.h"
#include "str.h"

#define KiB 1024ull
#define MiB (1024ull * 1024ull)

/* ---------- settings: the keys `brisk set` takes ---------- */

/* The one settings table is tunable's (tunable_defs, in application
 * order: the scheduler first, its tunables next, then the queue, the
 * device and the system-wide vm knobs); a profile key is its key. */
#define setting_defs tunable_defs
#define N_SETTING_DEFS tunable_n_defs

static enum profile_scope setting_scope(const struct tunable_def *d)
{
	switch (d->kind) {
	case TUNABLE_IOSCHED:
		return PROFILE_SCOPE_IOSCHED;
	case TUNABLE_DEVICE:
		return PROFILE_SCOPE_DEVICE;
	case TUNABLE_SYSCTL:
		return PROFILE_SCOPE_VM;
	case TUNABLE_SCHEDULER:
	case TUNABLE_QUEUE:
		break;
	}
	return PROFILE_SCOPE_QUEUE;
}

static const char *const schedulers[] = { "none", "mq-deadline", "bfq", "kyber" };

static const char *const class_names[PROFILE_CLASS_COUNT] = {
	[PROFILE_CLASS_ALL] = "all",
	[PROFILE_CLASS_ROTATIONAL] = "rotational",
	[PROFILE_CLASS_SSD] = "ssd",
	[PROFILE_CLASS_NVME] = "nvme",
	[PROFILE_CLASS_MMC] = "mmc",
};


const char *profile_class_name(enum profile_class c)
{
	return (unsigned)c < PROFILE_CLASS_COUNT ? class_names[c] : "?";
}

int profile_class_parse(const char *s, enum profile_class *out)
{
	for (int i = PROFILE_CLASS_ROTATIONAL; i < PROFILE_CLASS_COUNT; i++)
		if (strcmp(s, class_names[i]) == 0) {
			*out = (enum profile_class)i;
			return 0;
		}
	return -EINVAL;
}

static size_t setting_rank(const char *key)
{
	const struct tunable_def *d = tunable_def_find(key);
	return d ? (size_t)(d - setting_defs) : N_SETTING_DEFS;
}

int profile_setting_info(const char *key, enum profile_scope *scope, const char **sched)
{
	const struct tunable_def *d = tunable_def_find(key);
	if (!d)
		return -ENOENT;
	if (scope)
		*scope = setting_scope(d);
	if (sched)
		*sched = d->sched;
	return 0;
}

int profile_setting_check(const char *key, const char *value, char *norm, size_t normlen,
			  char *err, size_t errlen)
{
	const struct tunable_def *d = tunable_def_find(key);
	if (!d)
		return msg_fail(-EINVAL, err, errlen, "unknown setting '%s', expected a key `brisk set` takes "
			    "(scheduler, nr_requests, read_ahead_kb, low_latency, vm.dirty_ratio, ...)",
			    key);
	int64_t n;
	uint64_t b;
	switch (d->type) {
	case TUNABLE_TYPE_SCHED:
		for (size_t i = 0; i < sizeof(schedulers) / sizeof(schedulers[0]); i++)
			if (strcmp(value, schedulers[i]) == 0) {
				str_copy(norm, normlen, value);
				return 0;
			}
		return msg_fail(-EINVAL, err, errlen, "bad value '%s' for scheduler, expected none, mq-deadline, "
			    "bfq or kyber", value);
	case TUNABLE_TYPE_INT:
		if (parse_int(value, d->min, d->max, &n) < 0)
			return msg_fail(-EINVAL, err, errlen, "bad value '%s' for %s, expected an integer from "
				    "%" PRId64 " to %" PRId64, value, key, d->min, d->max);
		snprintf(norm, normlen, "%" PRId64, n);
		break;
	case TUNABLE_TYPE_BYTES:
		if (parse_size(value, &b) < 0)
			return msg_fail(-EINVAL, err, errlen, "bad value '%s' for %s, expected a size in bytes "
				    "(e.g. 67108864 or 64m)", value, key);
		if (b < (uint64_t)d->min || b > (uint64_t)d->max)
			return msg_fail(-EINVAL, err, errlen, "bad value '%s' for %s, expected a size from "
				    "%" PRId64 " to %" PRId64 " bytes", value, key, d->min, d->max);
		snprintf(norm, normlen, "%" PRIu64, b);
		break;
	}
	return 0;
}

void profile_init(struct profile *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	if (name)
		str_copy(p->name, sizeof(p->name), name);
}

static struct profile_setting *setting_slot(struct profile *p, enum profile_class cls,
					    const char *key)
{
	for (size_t i = 0; i < p->n_settings; i++)
		if (p->settings[i].cls == cls && strcmp(p->settings[i].key, key) == 0)
			return &p->settings[i];
	return NULL;
}

int profile_set(struct profile *p, enum profile_class cls, const char *key, const char *value,
		char *err, size_t errlen)
{
	char norm[PROFILE_VALUE_LEN];
	int rc = profile_setting_check(key, value, norm, sizeof(norm), err, errlen);
	if (rc < 0)
		return rc;
	enum profile_scope scope = PROFILE_SCOPE_QUEUE;
	profile_setting_info(key, &scope, NULL);
	if (scope == PROFILE_SCOPE_VM && cls != PROFILE_CLASS_ALL)
		return msg_fail(-EINVAL, err, errlen, "%s is system-wide, it cannot be set for one device "
			    "class; put it in [settings]", key);
	struct profile_setting *s = setting_slot(p, cls, key);
	if (!s) {
		if (p->n_settings >= PROFILE_MAX_SETTINGS)
			return -ENOSPC;
		s = &p->settings[p->n_settings++];
		s->cls = cls;
		str_copy(s->key, sizeof(s->key), key);
	}
	str_copy(s->value, sizeof(s->value), norm);
	s->line = 0;
	return 0;
}

size_t profile_effective(const struct profile *p, enum profile_class cls,
			 const struct profile_setting **out, size_t max)
{
	size_t n = 0;
	for (size_t r = 0; r < N_SETTING_DEFS; r++) {
		const struct profile_setting *hit = NULL;
		for (size_t i = 0; i < p->n_settings; i++) {
			const struct profile_setting *s = &p->settings[i];
			if (strcmp(s->key, setting_defs[r].key) != 0)
				continue;
			if (s->cls == cls && cls != PROFILE_CLASS_ALL)
				hit = s;
			else if (s->cls == PROFILE_CLASS_ALL && (!hit || hit->cls == PROFILE_CLASS_ALL))
				hit = s;
		}
		if (hit && setting_defs[r].kind == TUNABLE_IOSCHED && n > 0 &&
		    strcmp(out[0]->key, "scheduler") == 0 &&
		    strcmp(out[0]->value, setting_defs[r].sched) != 0)
			hit = NULL;   /* a tunable of another scheduler: not for this class */
		if (hit) {
			if (n < max)
				out[n] = hit;
			n++;
		}
	}
	return n;
}

int profile_class_has_own(const struct profile *p, enum profile_class cls)
{
	for (size_t i = 0; i < p->n_settings; i++)
		if (p->settings[i].cls == cls)
			return 1;
	return 0;
}

void profile_action_config(const struct profile_action *a, struct action_config *out)
{
	*out = a->cfg;
	out->exec_cmd = a->cmd[0] ? a->cmd : NULL;
}

void profile_default_workload(struct profile *p)
{
	char err[128];
	p->n_loads = 0;
	p->n_actions = 0;
	struct profile_load *l = &p->loads[p->n_loads++];
	memset(l, 0, sizeof(*l));
	str_copy(l->name, sizeof(l->name), "writer");
	load_spec_parse("seq-write", &l->spec, err, sizeof(err));
	static const struct { const char *name; enum action_kind kind; } acts[] = {
		{ "start", ACTION_EXEC }, { "list", ACTION_LS },
		{ "ssh", ACTION_SSH }, { "save", ACTION_SAVE },
	};
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		struct profile_action *a = &p->actions[p->n_actions++];
		memset(a, 0, sizeof(*a));
		str_copy(a->name, sizeof(a->name), acts[i].name);
		a->kind = acts[i].kind;
		action_config_default(&a->cfg);
		a->cfg.exec_cmd = NULL;
	}
}

/* ---------- the loader ---------- */

enum sec_kind { SEC_NONE, SEC_PROFILE, SEC_TARGET, SEC_SETTINGS, SEC_LOAD, SEC_ACTION };

#define MAX_SEC_KEYS 32

struct kv {
	char key[PROFILE_KEY_LEN];
	char value[PROFILE_MAX_LINE + 2];
	int line;
};

struct ctx {
	struct msg_first fail;   /* the file's name and the first error */
	struct profile *p;
	/* reader state */
	const char *data;
	size_t len, pos;
	int lineno;
	/* current section */
	enum sec_kind sec;
	enum profile_class sec_class;
	char sec_arg[PROFILE_SECTION_LEN];
	char sec_text[PROFILE_MAX_LINE + 2];
	int sec_line;
	size_t n_kv;
	struct kv kv[MAX_SEC_KEYS];
	/* sections seen */
	int line_profile, line_target;
	int line_settings[PROFILE_CLASS_COUNT];
};

/* Report an error at a line of the file; only the first is kept. */
#define ctx_fail(c, line, ...) msg_first_at(&(c)->fail, (line), __VA_ARGS__)

static int valid_name(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n == 0 || n >= max)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return 0;
	return s[0] != '.' && s[0] != '-';
}

static const struct kv *kv_get(const struct ctx *c, const char *key)
{
	for (size_t i = 0; i < c->n_kv; i++)
		if (strcmp(c->kv[i].key, key) == 0)
			return &c->kv[i];
	return NULL;
}

/* A duration with millisecond resolution. */
static int get_duration(struct ctx *c, const struct kv *v, uint64_t *out)
{
	uint64_t ns;
	if (parse_duration(v->value, &ns) < 0 || ns % 1000000ull) {
		ctx_fail(c, v->line, "bad value '%s' for %s, expected a duration such as 4, 4s, "
			 "500ms or 2m (millisecond resolution)", v->value, v->key);
		return -1;
	}
	*out = ns;
	return 0;
}

static int get_size(struct ctx *c, const struct kv *v, uint64_t min, uint64_t *out)
{
	uint64_t b;
	if (parse_size(v->value, &b) < 0 || b < min) {
		ctx_fail(c, v->line, "bad value '%s' for %s, expected a size such as 4k, 30m or "
			 "10g%s", v->value, v->key, min ? " (not 0)" : "");
		return -1;
	}
	*out = b;
	return 0;
}

static int get_int(struct ctx *c, const struct kv *v, int64_t min, int64_t max, int64_t *out)
{
	if (parse_int(v->value, min, max, out) < 0) {
		ctx_fail(c, v->line, "bad value '%s' for %s, expected an integer from %" PRId64
			 " to %" PRId64, v->value, v->key, min, max);
		return -1;
	}
	return 0;
}

/* Keys a section accepts; anything else is named in the error. */
static int check_keys(struct ctx *c, const char *const *allowed, const char *what)
{
	for (size_t i = 0; i < c->n_kv; i++) {
		int ok = 0;
		for (const char *const *a = allowed; *a; a++)
			if (strcmp(c->kv[i].key, *a) == 0)
				ok = 1;
		if (!ok) {
			char list[256] = "";
			size_t o = 0;
			for (const char *const *a = allowed; *a && o < sizeof(list); a++)
				o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s",
						      a == allowed ? "" : ", ", *a);
			ctx_fail(c, c->kv[i].line, "unknown key '%s' in %s, expected one of: %s",
				 c->kv[i].key, what, list);
			return -1;
		}
	}
	return 0;
}

/* fio keys brisk accepts because they describe what it does anyway. */
static int check_fio_engine(struct ctx *c)
{
	const struct kv *v = kv_get(c, "ioengine");
	if (v && strcmp(v->value, "sync") != 0 && strcmp(v->value, "psync") != 0) {
		ctx_fail(c, v->line, "ioengine=%s cannot be honoured, brisk does synchronous "
			 "read()/write() calls: use ioengine=sync or psync (or leave it out)",
			 v->value);
		return -1;
	}
	v = kv_get(c, "invalidate");
	if (v && strcmp(v->value, "1") != 0) {
		ctx_fail(c, v->line, "invalidate=%s cannot be honoured, brisk always evicts the "
			 "cache before it reads: use invalidate=1 (or leave it out)", v->value);
		return -1;
	}
	return 0;
}

static void end_profile(struct ctx *c)
{
	static const char *const keys[] = { "name", "description", "runtime", "ramp_time", NULL };
	if (check_keys(c, keys, "[profile]") < 0)
		return;
	struct profile *p = c->p;
	const struct kv *v;
	if ((v = kv_get(c, "name"))) {
		if (!valid_name(v->value, sizeof(p->name))) {
			ctx_fail(c, v->line, "bad profile name '%s', expected up to %zu letters, "
				 "digits, '-', '_' or '.'", v->value, sizeof(p->name) - 1);
			return;
		}
		str_copy(p->name, sizeof(p->name), v->value);
	}
	if ((v = kv_get(c, "description"))) {
		if (strlen(v->value) >= sizeof(p->description)) {
			ctx_fail(c, v->line, "description is too long, expected at most %zu characters",
				 sizeof(p->description) - 1);
			return;
		}
		str_copy(p->description, sizeof(p->description), v->value);
	}
	if ((v = kv_get(c, "runtime")) && get_duration(c, v, &p->runtime_ns) < 0)
		return;
	if ((v = kv_get(c, "ramp_time")))
		get_duration(c, v, &p->ramp_time_ns);
}

static void end_target(struct ctx *c)
{
	static const char *const keys[] = { "directory", "devices", NULL };
	if (check_keys(c, keys, "[target]") < 0)
		return;
	struct profile *p = c->p;
	const struct kv *dir = kv_get(c, "directory"), *dev = kv_get(c, "devices");
	if (dir && dev) {
		ctx_fail(c, dev->line, "[target] takes directory or devices, not both");
		return;
	}
	if (dir) {
		if (strlen(dir->value) >= sizeof(p->directory)) {
			ctx_fail(c, dir->line, "directory is too long, expected at most %zu characters",
				 sizeof(p->directory) - 1);
			return;
		}
		str_copy(p->directory, sizeof(p->directory), dir->value);
	}
	if (dev) {
		char buf[PROFILE_MAX_LINE + 2];
		str_copy(buf, sizeof(buf), dev->value);
		char *save = NULL;
		for (char *t = strtok_r(buf, " ,\t", &save); t; t = strtok_r(NULL, " ,\t", &save)) {
			const char *name = strncmp(t, "/dev/", 5) == 0 ? t + 5 : t;
			if (!valid_name(name, sizeof(p->devices[0])) || strchr(name, '/')) {
				ctx_fail(c, dev->line, "bad device '%s', expected kernel names such as "
					 "sda or nvme0n1 (or /dev/sda)", t);
				return;
			}
			for (size_t i = 0; i < p->n_devices; i++)
				if (strcmp(p->devices[i], name) == 0) {
					ctx_fail(c, dev->line, "device '%s' is listed twice", name);
					return;
				}
			if (p->n_devices >= PROFILE_MAX_DEVICES) {
				ctx_fail(c, dev->line, "too many devices, expected at most %d",
					 PROFILE_MAX_DEVICES);
				return;
			}
			str_copy(p->devices[p->n_devices++], sizeof(p->devices[0]), name);
		}
		if (!p->n_devices)
			ctx_fail(c, dev->line, "devices is empty, expected kernel names such as sda");
	}
}

static void end_settings(struct ctx *c)
{
	struct profile *p = c->p;
	for (size_t i = 0; i < c->n_kv && !c->fail.failed; i++) {
		const struct kv *v = &c->kv[i];
		enum profile_class cls = c->sec_class;
		const char *key = v->key;
		const char *dot = strchr(key, '.');
		char prefix[16];
		if (dot && (size_t)(dot - key) < sizeof(prefix)) {
			memcpy(prefix, key, (size_t)(dot - key));
			prefix[dot - key] = '\0';
			enum profile_class pc;
			if (profile_class_parse(prefix, &pc) == 0) {
				if (cls != PROFILE_CLASS_ALL) {
					ctx_fail(c, v->line, "class prefix '%s.' inside [settings %s], "
						 "expected the bare key (%s)", prefix,
						 profile_class_name(cls), dot + 1);
					return;
				}
				cls = pc;
				key = dot + 1;
			}
		}
		char msg[256], norm[PROFILE_VALUE_LEN];
		if (profile_setting_check(key, v->value, norm, sizeof(norm), msg, sizeof(msg)) < 0) {
			ctx_fail(c, v->line, "%s", msg);
			return;
		}
		enum profile_scope scope = PROFILE_SCOPE_QUEUE;
		profile_setting_info(key, &scope, NULL);
		if (scope == PROFILE_SCOPE_VM && cls != PROFILE_CLASS_ALL) {
			ctx_fail(c, v->line, "%s is system-wide, not per device class; put it in "
				 "[settings]", key);
			return;
		}
		struct profile_setting *old = setting_slot(p, cls, key);
		if (old) {
			ctx_fail(c, v->line, "duplicate setting %s%s%s (first set at line %d), "
				 "expected each setting once per class",
				 cls == PROFILE_CLASS_ALL ? "" : profile_class_name(cls),
				 cls == PROFILE_CLASS_ALL ? "" : ".", key, old->line);
			return;
		}
		if (p->n_settings >= PROFILE_MAX_SETTINGS) {
			ctx_fail(c, v->line, "too many settings, expected at most %d",
				 PROFILE_MAX_SETTINGS);
			return;
		}
		struct profile_setting *s = &p->settings[p->n_settings++];
		s->cls = cls;
		str_copy(s->key, sizeof(s->key), key);
		str_copy(s->value, sizeof(s->value), norm);
		s->line = v->line;
	}
}

static const char *const rw_names[] = {
	[LOAD_SEQ_WRITE] = "write", [LOAD_SEQ_READ] = "read",
	[LOAD_RAND_READ] = "randread", [LOAD_RAND_WRITE] = "randwrite",
	[LOAD_FSYNC_WRITE] = "write",
};

static void end_load(struct ctx *c)
{
	static const char *const keys[] = {
		"rw", "bs", "bsrange", "size", "io_size", "numjobs", "rate", "fsync", "direct",
		"prio", "prioclass", "ioengine", "invalidate", NULL };
	char what[64];
	snprintf(what, sizeof(what), "[load %s]", c->sec_arg);
	if (check_keys(c, keys, what) < 0 || check_fio_engine(c) < 0)
		return;
	struct profile *p = c->p;
	if (p->n_loads >= PROFILE_MAX_LOADS) {
		ctx_fail(c, c->sec_line, "too many loads, expected at most %d", PROFILE_MAX_LOADS);
		return;
	}
	const struct kv *v = kv_get(c, "rw");
	if (!v) {
		ctx_fail(c, c->sec_line, "%s has no rw, expected rw = write, read, randread or "
			 "randwrite", what);
		return;
	}
	enum load_kind kind;
	if (strcmp(v->value, "write") == 0)
		kind = kv_get(c, "fsync") ? LOAD_FSYNC_WRITE : LOAD_SEQ_WRITE;
	else if (strcmp(v->value, "read") == 0)
		kind = LOAD_SEQ_READ;
	else if (strcmp(v->value, "randread") == 0)
		kind = LOAD_RAND_READ;
	else if (strcmp(v->value, "randwrite") == 0)
		kind = LOAD_RAND_WRITE;
	else {
		ctx_fail(c, v->line, "bad value '%s' for rw, expected write, read, randread or "
			 "randwrite (mixed rw/randrw cannot be honoured: use two loads)", v->value);
		return;
	}
	char e[256];
	struct load_spec s;
	load_spec_parse(load_kind_name(kind), &s, e, sizeof(e));
	const struct kv *bs = kv_get(c, "bs"), *bsr = kv_get(c, "bsrange");
	if (bs && bsr) {
		ctx_fail(c, bsr->line, "bs and bsrange both given, expected one of them");
		return;
	}
	if (bs || bsr) {
		const struct kv *b = bs ? bs : bsr;
		if (parse_size_range(b->value, &s.bs_lo, &s.bs_hi) < 0 || s.bs_lo == 0) {
			ctx_fail(c, b->line, "bad value '%s' for %s, expected a size such as 4k or a "
				 "range such as 4k-44k", b->value, b->key);
			return;
		}
	}
	int64_t n;
	if ((v = kv_get(c, "size")) && get_size(c, v, 0, &s.size) < 0)
		return;
	if ((v = kv_get(c, "io_size")) && get_size(c, v, 1, &s.total) < 0)
		return;
	if ((v = kv_get(c, "numjobs"))) {
		if (get_int(c, v, 1, 256, &n) < 0)
			return;
		s.count = (unsigned)n;
	}
	if ((v = kv_get(c, "rate")) && get_size(c, v, 1, &s.rate) < 0)
		return;
	if ((v = kv_get(c, "direct"))) {
		if (get_int(c, v, 0, 1, &n) < 0)
			return;
		s.direct = (int)n;
	}
	if ((v = kv_get(c, "fsync"))) {
		if (get_int(c, v, 1, 1 << 20, &n) < 0)
			return;
		if (kind == LOAD_SEQ_READ || kind == LOAD_RAND_READ) {
			ctx_fail(c, v->line, "fsync applies to writers, not to rw=%s", rw_names[kind]);
			return;
		}
		s.fsync_every = (uint64_t)n * s.bs_hi;
	}
	const struct kv *pc = kv_get(c, "prioclass"), *pr = kv_get(c, "prio");
	if (pc || pr) {
		int64_t cls = 2, lvl = 4;
		if (pc && get_int(c, pc, 1, 3, &cls) < 0)
			return;
		if (pr && get_int(c, pr, 0, 7, &lvl) < 0)
			return;
		if (cls == 3 && pr) {
			ctx_fail(c, pr->line, "prio does not apply to prioclass=3 (idle), expected no prio");
			return;
		}
		s.ioprio_class = (int)cls;
		s.ioprio_level = cls == 3 ? 0 : (int)lvl;
	}
	/* the engine's own checks */
	if (load_spec_check(&s, e, sizeof(e)) < 0) {
		ctx_fail(c, c->sec_line, "%s is not a load brisk can run: %s", what, e);
		return;
	}
	for (size_t i = 0; i < p->n_loads; i++)
		if (strcmp(p->loads[i].name, c->sec_arg) == 0) {
			ctx_fail(c, c->sec_line, "duplicate section [load %s] (first at line %d), "
				 "expected a distinct name", c->sec_arg, p->loads[i].line);
			return;
		}
	struct profile_load *l = &p->loads[p->n_loads++];
	memset(l, 0, sizeof(*l));
	str_copy(l->name, sizeof(l->name), c->sec_arg);
	l->spec = s;
	l->line = c->sec_line;
}

static const char *const type_names[ACTION_KIND_COUNT] = {
	[ACTION_EXEC] = "exec", [ACTION_LS] = "ls", [ACTION_SSH] = "ssh-like",
	[ACTION_SAVE] = "save",
};

static void end_action(struct ctx *c)
{
	static const char *const keys[] = {
		"type", "startdelay", "interval", "loops", "cmd", "nrfiles", "rw", "bs",
		"bsrange", "size", "filesize", "fsync", "direct", "ioengine", "invalidate", NULL };
	/* Which keys each type takes (beyond the common ones). */
	static const char *const own[ACTION_KIND_COUNT][6] = {
		[ACTION_EXEC] = { "cmd" },
		[ACTION_LS] = { "nrfiles" },
		[ACTION_SSH] = { "rw", "bs", "bsrange", "size", "filesize" },
		[ACTION_SAVE] = { "rw", "size", "fsync" },
	};
	char what[64];
	snprintf(what, sizeof(what), "[action %s]", c->sec_arg);
	if (check_keys(c, keys, what) < 0 || check_fio_engine(c) < 0)
		return;
	struct profile *p = c->p;
	if (p->n_actions >= PROFILE_MAX_ACTIONS) {
		ctx_fail(c, c->sec_line, "too many actions, expected at most %d", PROFILE_MAX_ACTIONS);
		return;
	}
	const struct kv *v = kv_get(c, "type");
	if (!v) {
		ctx_fail(c, c->sec_line, "%s has no type, expected type = exec, ls, ssh-like or save",
			 what);
		return;
	}
	int kind = -1;
	for (int i = 0; i < ACTION_KIND_COUNT; i++)
		if (strcmp(v->value, type_names[i]) == 0)
			kind = i;
	if (strcmp(v->value, "ssh") == 0)
		kind = ACTION_SSH;
	if (kind < 0) {
		ctx_fail(c, v->line, "bad value '%s' for type, expected exec, ls, ssh-like or save",
			 v->value);
		return;
	}
	static const char *const common[] = { "type", "startdelay", "interval", "loops", "direct",
					      "ioengine", "invalidate" };
	for (size_t i = 0; i < c->n_kv; i++) {
		int ok = 0;
		for (size_t j = 0; j < sizeof(common) / sizeof(common[0]); j++)
			ok |= strcmp(c->kv[i].key, common[j]) == 0;
		for (size_t j = 0; j < 6 && own[kind][j]; j++)
			ok |= strcmp(c->kv[i].key, own[kind][j]) == 0;
		if (!ok) {
			ctx_fail(c, c->kv[i].line, "key '%s' does not apply to an action of type %s",
				 c->kv[i].key, type_names[kind]);
			return;
		}
	}
	struct profile_action a;
	memset(&a, 0, sizeof(a));
	a.kind = (enum action_kind)kind;
	action_config_default(&a.cfg);
	a.cfg.exec_cmd = NULL;
	int64_t n;
	if ((v = kv_get(c, "startdelay")) && get_duration(c, v, &a.startdelay_ns) < 0)
		return;
	if ((v = kv_get(c, "interval")) && get_duration(c, v, &a.interval_ns) < 0)
		return;
	if ((v = kv_get(c, "loops"))) {
		if (get_int(c, v, 0, 1000000, &n) < 0)
			return;
		a.loops = (unsigned)n;
	}
	if ((v = kv_get(c, "direct")) && strcmp(v->value, "0") != 0) {
		ctx_fail(c, v->line, "direct=%s cannot be honoured for an action, it times "
			 "buffered I/O as programs do: use direct=0 (or leave it out)", v->value);
		return;
	}
	if ((v = kv_get(c, "cmd"))) {
		if (!v->value[0] || strlen(v->value) >= sizeof(a.cmd)) {
			ctx_fail(c, v->line, "bad cmd, expected a program and its arguments (at most "
				 "%zu characters)", sizeof(a.cmd) - 1);
			return;
		}
		str_copy(a.cmd, sizeof(a.cmd), v->value);
	}
	if ((v = kv_get(c, "nrfiles"))) {
		if (get_int(c, v, 1, 1000000, &n) < 0)
			return;
		a.cfg.ls_files = (unsigned)n;
	}
	if ((v = kv_get(c, "rw"))) {
		const char *want = kind == ACTION_SSH ? "randread" : "write";
		if (strcmp(v->value, want) != 0) {
			ctx_fail(c, v->line, "bad value '%s' for rw, an action of type %s does "
				 "rw=%s", v->value, type_names[kind], want);
			return;
		}
	}
	const struct kv *bs = kv_get(c, "bs"), *bsr = kv_get(c, "bsrange");
	if (bs && bsr) {
		ctx_fail(c, bsr->line, "bs and bsrange both given, expected one of them");
		return;
	}
	if (kind == ACTION_SSH) {
		const struct kv *b = bs ? bs : bsr;
		if (b && (parse_size_range(b->value, &a.cfg.ssh_bs_lo, &a.cfg.ssh_bs_hi) < 0 ||
			  a.cfg.ssh_bs_lo == 0 || a.cfg.ssh_bs_hi > 64 * MiB)) {
			ctx_fail(c, b->line, "bad value '%s' for %s, expected a size such as 4k or a "
				 "range such as 4k-44k (at most 64m)", b->value, b->key);
			return;
		}
		if ((v = kv_get(c, "size")) && get_size(c, v, 1, &a.cfg.ssh_region) < 0)
			return;
		if ((v = kv_get(c, "filesize")) && get_size(c, v, 1, &a.cfg.ssh_file) < 0)
			return;
		if (a.cfg.ssh_region > a.cfg.ssh_file) {
			ctx_fail(c, c->sec_line, "%s reads size=%" PRIu64 " bytes of a %" PRIu64
				 "-byte file, expected size <= filesize", what, a.cfg.ssh_region,
				 a.cfg.ssh_file);
			return;
		}
		if (a.cfg.ssh_bs_hi > a.cfg.ssh_region) {
			ctx_fail(c, c->sec_line, "%s: the largest block (%" PRIu64 ") exceeds "
				 "size (%" PRIu64 "), expected size >= bs", what, a.cfg.ssh_bs_hi,
				 a.cfg.ssh_region);
			return;
		}
	}
	if (kind == ACTION_SAVE) {
		if ((v = kv_get(c, "size")) && get_size(c, v, 1, &a.cfg.save_size) < 0)
			return;
		if (a.cfg.save_size > 64 * MiB) {
			ctx_fail(c, c->sec_line, "%s saves %" PRIu64 " bytes, expected at most 64m",
				 what, a.cfg.save_size);
			return;
		}
		if ((v = kv_get(c, "fsync")) && strcmp(v->value, "1") != 0) {
			ctx_fail(c, v->line, "bad value '%s' for fsync, a save action fsyncs once: "
				 "expected fsync=1", v->value);
			return;
		}
	}
	for (size_t i = 0; i < p->n_actions; i++)
		if (strcmp(p->actions[i].name, c->sec_arg) == 0) {
			ctx_fail(c, c->sec_line, "duplicate section [action %s] (first at line %d), "
				 "expected a distinct name", c->sec_arg, p->actions[i].line);
			return;
		}
	str_copy(a.name, sizeof(a.name), c->sec_arg);
	a.line = c->sec_line;
	p->actions[p->n_actions++] = a;
}

static void end_section(struct ctx *c)
{
	if (c->fail.failed)
		return;
	switch (c->sec) {
	case SEC_NONE: break;
	case SEC_PROFILE: end_profile(c); break;
	case SEC_TARGET: end_target(c); break;
	case SEC_SETTINGS: end_settings(c); break;
	case SEC_LOAD: end_load(c); break;
	case SEC_ACTION: end_action(c); break;
	}
	c->n_kv = 0;
}

/* A header line "[word arg]" (inih has checked nothing yet). */
static void begin_section(struct ctx *c, const char *line)
{
	end_section(c);
	if (c->fail.failed)
		return;
	const char *close = strchr(line, ']');
	if (!close) {
		ctx_fail(c, c->lineno, "section header without ']', expected [NAME]");
		return;
	}
	for (const char *t = close + 1; *t; t++) {
		if (*t == ';' || *t == '#')
			break;
		if (!isspace((unsigned char)*t)) {
			ctx_fail(c, c->lineno, "text after the section header, expected nothing "
				 "or a comment after ']'");
			return;
		}
	}
	char text[PROFILE_MAX_LINE + 2];
	size_t n = (size_t)(close - line - 1);
	memcpy(text, line + 1, n);
	text[n] = '\0';
	str_copy(c->sec_text, sizeof(c->sec_text), text);
	char *word = text;
	while (isspace((unsigned char)*word))
		word++;
	char *end = word + strlen(word);
	while (end > word && isspace((unsigned char)end[-1]))
		*--end = '\0';
	char *arg = word;
	while (*arg && !isspace((unsigned char)*arg))
		arg++;
	if (*arg) {
		*arg++ = '\0';
		while (isspace((unsigned char)*arg))
			arg++;
	}
	c->sec_line = c->lineno;
	c->sec_arg[0] = '\0';
	c->sec_class = PROFILE_CLASS_ALL;
	int *first = NULL;
	if (strcmp(word, "profile") == 0 && !*arg) {
		c->sec = SEC_PROFILE;
		first = &c->line_profile;
	} else if (strcmp(word, "target") == 0 && !*arg) {
		c->sec = SEC_TARGET;
		first = &c->line_target;
	} else if (strcmp(word, "settings") == 0) {
		if (*arg && profile_class_parse(arg, &c->sec_class) < 0) {
			ctx_fail(c, c->lineno, "unknown device class '%s' in [settings %s], expected "
				 "rotational, ssd, nvme or mmc", arg, arg);
			return;
		}
		c->sec = SEC_SETTINGS;
		first = &c->line_settings[c->sec_class];
	} else if ((strcmp(word, "load") == 0 || strcmp(word, "action") == 0)) {
		if (!valid_name(arg, sizeof(c->sec_arg))) {
			ctx_fail(c, c->lineno, "bad or missing name in [%s%s%s], expected [%s NAME] "
				 "with NAME made of up to %zu letters, digits, '-', '_' or '.'", word,
				 *arg ? " " : "", arg, word, sizeof(c->sec_arg) - 1);
			return;
		}
		c->sec = word[0] == 'l' ? SEC_LOAD : SEC_ACTION;
		str_copy(c->sec_arg, sizeof(c->sec_arg), arg);
	} else {
		ctx_fail(c, c->lineno, "unknown section [%s], expected [profile], [target], "
			 "[settings], [settings CLASS], [load NAME] or [action NAME]", c->sec_text);
		return;
	}
	if (first) {
		if (*first) {
			ctx_fail(c, c->lineno, "duplicate section [%s] (first at line %d), expected "
				 "each section once", c->sec_text, *first);
			return;
		}
		*first = c->lineno;
	}
}

/* inih's reader: hands out one line at a time so that we know its number,
 * and sees section headers and indentation before inih does. */
static char *reader(char *str, int num, void *stream)
{
	struct ctx *c = stream;
	if (c->fail.failed || c->pos >= c->len)
		return NULL;
	size_t start = c->pos, end = start;
	while (end < c->len && c->data[end] != '\n')
		end++;
	size_t n = end - start;     /* pre-scan guarantees n <= PROFILE_MAX_LINE */
	if (n + 2 > (size_t)num)
		n = (size_t)num - 2;
	memcpy(str, c->data + start, n);
	if (n && str[n - 1] == '\r')
		n--;
	str[n] = '\n';
	str[n + 1] = '\0';
	c->pos = end < c->len ? end + 1 : end;
	c->lineno++;
	/* What kind of line is this? */
	const char *s = str;
	if (c->lineno == 1 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
	    (unsigned char)s[2] == 0xBF)
		s += 3;
	const char *t = s;
	while (*t == ' ' || *t == '\t')
		t++;
	if (*t == '\n' || *t == ';' || *t == '#')
		return str;
	if (t != s) {
		ctx_fail(c, c->lineno, "indented line, expected keys and sections to start in "
			 "the first column (continuation lines are not supported)");
		return NULL;
	}
	if (*t == '[') {
		begin_section(c, t);
		if (c->fail.failed)
			return NULL;
		return str;
	}
	if (c->sec == SEC_NONE) {
		ctx_fail(c, c->lineno, "key outside any section, expected a [section] header "
			 "first");
		return NULL;
	}
	if (!strpbrk(t, "=:")) {
		ctx_fail(c, c->lineno, "expected 'key = value'");
		return NULL;
	}
	return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct ctx *c = user;
	(void)section;
	if (c->fail.failed)
		return 1;
	if (!name[0]) {
		ctx_fail(c, c->lineno, "empty key, expected 'key = value'");
		return 1;
	}
	if (strlen(name) >= PROFILE_KEY_LEN) {
		ctx_fail(c, c->lineno, "key '%.40s...' is too long, expected a known key", name);
		return 1;
	}
	if (!value[0]) {
		ctx_fail(c, c->lineno, "empty value for '%s', expected 'key = value'", name);
		return 1;
	}
	for (size_t i = 0; i < c->n_kv; i++)
		if (strcmp(c->kv[i].key, name) == 0) {
			ctx_fail(c, c->lineno, "duplicate key '%s' (first at line %d), expected each "
				 "key once per section", name, c->kv[i].line);
			return 1;
		}
	if (c->n_kv >= MAX_SEC_KEYS) {
		ctx_fail(c, c->lineno, "too many keys in one section, expected at most %d",
			 MAX_SEC_KEYS);
		return 1;
	}
	struct kv *kv = &c->kv[c->n_kv++];
	str_copy(kv->key, sizeof(kv->key), name);
	str_copy(kv->value, sizeof(kv->value), value);
	kv->line = c->lineno;
	return 1;
}

static void check_whole(struct ctx *c)
{
	struct profile *p = c->p;
	if (!c->line_profile && !p->n_loads && !p->n_actions && !p->n_settings &&
	    !c->line_target) {
		ctx_fail(c, c->lineno ? c->lineno : 1, "empty profile, expected at least a "
			 "[profile], [settings], [load NAME] or [action NAME] section");
		return;
	}
	/* vm.dirty_ratio and vm.dirty_bytes exclude each other (writing one
	 * zeroes the other), so do the background pair. */
	static const char *const pairs[][2] = {
		{ "vm.dirty_ratio", "vm.dirty_bytes" },
		{ "vm.dirty_background_ratio", "vm.dirty_background_bytes" },
	};
	for (size_t i = 0; i < 2; i++) {
		struct profile_setting *a = setting_slot(p, PROFILE_CLASS_ALL, pairs[i][0]);
		struct profile_setting *b = setting_slot(p, PROFILE_CLASS_ALL, pairs[i][1]);
		if (a && b) {
			struct profile_setting *later = a->line > b->line ? a : b;
			ctx_fail(c, later->line, "%s and %s both set, expected one of them (the "
				 "kernel zeroes one when the other is written)", pairs[i][0],
				 pairs[i][1]);
			return;
		}
	}
	/* An iosched tunable must belong to the scheduler the profile sets for
	 * that class. */
	for (size_t i = 0; i < p->n_settings; i++) {
		const struct profile_setting *s = &p->settings[i];
		const char *owner = "";
		enum profile_scope scope = PROFILE_SCOPE_QUEUE;
		profile_setting_info(s->key, &scope, &owner);
		if (scope != PROFILE_SCOPE_IOSCHED)
			continue;
		const struct profile_setting *sch = setting_slot(p, s->cls, "scheduler");
		if (!sch)
			sch = setting_slot(p, PROFILE_CLASS_ALL, "scheduler");
		if (sch && strcmp(sch->value, owner) != 0) {
			ctx_fail(c, s->line, "%s is a %s tunable but the scheduler for %s disks is "
				 "%s, expected scheduler = %s or no %s", s->key, owner,
				 profile_class_name(s->cls), sch->value, owner, s->key);
			return;
		}
	}
}

/* The first byte text_char_len() refused, named without printing it. */
static void bad_byte(struct ctx *c, int line, const char *s, size_t n, size_t col)
{
	unsigned char b = (unsigned char)s[0];
	const char *what = b < 0x20 || b == 0x7F || (b == 0xC2 && n > 1 &&
		(unsigned char)s[1] >= 0x80 && (unsigned char)s[1] < 0xA0) ?
		"control character" : "invalid UTF-8";
	char hex[12];
	if (b == 0xC2 && what[0] == 'c')
		snprintf(hex, sizeof(hex), "\\x%02x\\x%02x", b, (unsigned char)s[1]);
	else
		snprintf(hex, sizeof(hex), "\\x%02x", b);
	ctx_fail(c, line, "%s %s at byte %zu, expected UTF-8 text without control characters "
		 "(TAB is allowed)", what, hex, col);
}

int profile_parse_buffer(const char *data, size_t len, const char *display,
			 struct profile *out, char *err, size_t errlen)
{
	struct ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->fail.file = display ? display : "(profile)";
	c->p = out;
	c->fail.buf = err;
	c->fail.len = errlen;
	c->data = data;
	c->len = len;
	if (err && errlen)
		err[0] = '\0';
	profile_init(out, NULL);
	/* Pre-scan: what inih cannot hold or would misread. */
	int line = 1;
	size_t col = 0;
	if (len > PROFILE_MAX_FILE)
		ctx_fail(c, 1, "file is larger than %d bytes, expected a profile", PROFILE_MAX_FILE);
	for (size_t i = 0; i < len && !c->fail.failed; i++) {
		if (data[i] == '\n') {
			line++;
			col = 0;
			continue;
		}
		if (data[i] == '\0') {
			ctx_fail(c, line, "NUL byte, expected text");
			break;
		}
		if (data[i] == '\r' && (i + 1 == len || data[i + 1] == '\n'))
			continue;
		size_t k = text_char_len(data + i, len - i);
		if (!k) {
			bad_byte(c, line, data + i, len - i, col + 1);
			break;
		}
		i += k - 1;
		col += k - 1;
		if (++col > PROFILE_MAX_LINE) {
			size_t n = col;
			while (i + 1 < len && data[i + 1] != '\n') {
				i++;
				n++;
			}
			ctx_fail(c, line, "line is %zu bytes long, expected at most %d",
				 n, PROFILE_MAX_LINE);
		}
	}
	int rc = 0;
	if (!c->fail.failed) {
		rc = ini_parse_stream(reader, c, handler, c);
		if (!c->fail.failed && rc > 0)
			ctx_fail(c, rc, "expected 'key = value', a [section] or a comment");
		else if (!c->fail.failed && rc < 0)
			ctx_fail(c, c->lineno, "cannot parse (%s)", rc == -2 ? "out of memory" : "error");
		end_section(c);
		if (!c->fail.failed)
			check_whole(c);
	}
	int failed = c->fail.failed;
	free(c);
	return failed ? -EINVAL : 0;
}

int profile_parse_file(const char *path, const char *display, struct profile *out,
		       char *err, size_t errlen)
{
	if (!display)
		display = path;
	char *buf;
	size_t n;
	int rc = fileio_read_file(path, PROFILE_MAX_FILE, &buf, &n);
	if (rc == -EINVAL)
		return msg_fail(rc, err, errlen, "%s: not a regular file, expected a profile",
				display);
	if (rc == -EFBIG)
		return msg_fail(-EINVAL, err, errlen, "%s:1: file is larger than %d bytes, "
				"expected a profile", display, PROFILE_MAX_FILE);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "%s: cannot open: %s", display, strerror(-rc));
	rc = profile_parse_buffer(buf, n, display, out, err, errlen);
	free(buf);
	if (rc == 0 && !out->name[0]) {
		/* No name: the file's base name without .profile. */
		const char *b = strrchr(path, '/');
		b = b ? b + 1 : path;
		char name[PROFILE_NAME_LEN];
		str_copy(name, sizeof(name), b);
		size_t l = strlen(name);
		if (l > 8 && strcmp(name + l - 8, ".profile") == 0)
			name[l - 8] = '\0';
		if (!valid_name(name, sizeof(name)))
			return msg_fail(-EINVAL, err, errlen, "%s: no name = in [profile] and the file "
					"name '%s' gives no profile name, expected name = NAME or a "
					"file named NAME.profile (letters, digits, '-', '_' or '.', "
					"not first '.' or '-')", display, b);
		str_copy(out->name, sizeof(out->name), name);
	}
	return rc;
}

/* ---------- resolution ---------- */

int profile_user_dir(char *out, size_t len)
{
	const char *x = getenv("XDG_CONFIG_HOME");
	if (x && x[0] == '/') {
		snprintf(out, len, "%s/brisk/profiles", x);
		return 0;
	}
	const char *h = getenv("HOME");
	if (!h || !*h)
		return -ENOENT;
	snprintf(out, len, "%s/.config/brisk/profiles", h);
	return 0;
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int profile_resolve(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	size_t nl = strlen(name);
	if (strchr(name, '/') || (nl > 8 && strcmp(name + nl - 8, ".profile") == 0 &&
				  is_file(name))) {
		if (strlen(name) >= len)
			return msg_fail(-EINVAL, err, errlen, "%s: path too long", name);
		str_copy(path, len, name);
		if (!is_file(name)) {
			snprintf(err, errlen, "%s: no such profile file", name);
			return -ENOENT;
		}
		return 0;
	}
	if (!valid_name(name, PROFILE_NAME_LEN))
		return msg_fail(-EINVAL, err, errlen, "bad profile name '%s', expected letters, digits, '-', '_' "
			    "or '.' (or a path with a '/')", name);
	char dirs[3][PATH_MAX];
	int nd = 0;
	if (profile_user_dir(dirs[nd], sizeof(dirs[nd])) == 0)
		nd++;
	str_copy(dirs[nd++], sizeof(dirs[0]), PROFILE_SYSTEM_DIR);
	datadir_profiles(dirs[nd++], sizeof(dirs[0]));
	for (int i = 0; i < nd; i++) {
		char p[PATH_MAX];
		if (strlen(dirs[i]) + strlen(name) + 10 > sizeof(p))
			continue;
		strcpy(p, dirs[i]);
		strcat(p, "/");
		strcat(p, name);
		strcat(p, ".profile");
		if (is_file(p)) {
			if (strlen(p) >= len)
				return msg_fail(-EINVAL, err, errlen, "%s: path too long", p);
			str_copy(path, len, p);
			return 0;
		}
	}
	snprintf(err, errlen, "no profile '%s' (looked in %s%s%s, %s)", name,
		 nd == 3 ? dirs[0] : "", nd == 3 ? ", " : "", dirs[nd - 2], dirs[nd - 1]);
	return -ENOENT;
}

int profile_load_named(const char *name, struct profile *out, char *path, size_t pathlen,
		       char *err, size_t errlen)
{
	int rc = profile_resolve(name, path, pathlen, err, errlen);
	if (rc < 0)
		return rc;
	return profile_parse_file(path, path, out, err, errlen);
}

/* ---------- the writer ---------- */


static int fmt_duration(char *b, size_t n, uint64_t ns)
{
	if (ns % 1000000ull)
		return -EINVAL;
	if (ns % 1000000000ull == 0)
		snprintf(b, n, "%" PRIu64 "s", (uint64_t)(ns / 1000000000ull));
	else
		snprintf(b, n, "%" PRIu64 "ms", (uint64_t)(ns / 1000000ull));
	return 0;
}

/* A value inih gives back unchanged and the loader accepts: no
 * leading/trailing space, no inline comment, clean text (text.h: no line
 * break or other control character, valid UTF-8), short enough. */
static int writable(const char *v, size_t room)
{
	size_t n = strlen(v);
	if (n == 0 || n > room || isspace((unsigned char)v[0]) || isspace((unsigned char)v[n - 1]) ||
	    v[0] == ';' || text_check(v, NULL) < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == '\n' || v[i] == '\r' || v[i] == '\0')
			return 0;
		if (v[i] == ';' && i > 0 && isspace((unsigned char)v[i - 1]))
			return 0;
	}
	return 1;
}

#define PUT_CHECK(key, val)                                                              \
	do {                                                                             \
		if (!writable((val), PROFILE_MAX_LINE - strlen(key) - 3))                \
			return msg_fail(-EINVAL, err, errlen, "cannot write %s = '%s': empty, too " \
				    "long, has an inline comment, a control character or " \
				    "invalid UTF-8", text_show(key), text_show(val));    \
		fprintf(f, "%s = %s\n", (key), (val));                                   \
	} while (0)

int profile_write(FILE *f, const struct profile *p, char *err, size_t errlen)
{
	char b[64], b2[64];
	fprintf(f, "; brisk profile (see brisk-profile(5))\n[profile]\n");
	if (p->name[0])
		PUT_CHECK("name", p->name);
	if (p->description[0])
		PUT_CHECK("description", p->description);
	if (p->runtime_ns) {
		if (fmt_duration(b, sizeof(b), p->runtime_ns) < 0)
			return msg_fail(-EINVAL, err, errlen, "runtime has sub-millisecond precision");
		PUT_CHECK("runtime", b);
	}
	if (p->ramp_time_ns) {
		if (fmt_duration(b, sizeof(b), p->ramp_time_ns) < 0)
			return msg_fail(-EINVAL, err, errlen, "ramp_time has sub-millisecond precision");
		PUT_CHECK("ramp_time", b);
	}
	if (p->directory[0] || p->n_devices) {
		fprintf(f, "\n[target]\n");
		if (p->directory[0])
			PUT_CHECK("directory", p->directory);
		if (p->n_devices) {
			char list[PROFILE_MAX_LINE + 2] = "";
			size_t o = 0;
			for (size_t i = 0; i < p->n_devices && o < sizeof(list); i++)
				o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? " " : "",
						      p->devices[i]);
			PUT_CHECK("devices", list);
		}
	}
	for (int cls = 0; cls < PROFILE_CLASS_COUNT; cls++) {
		const struct profile_setting *eff[PROFILE_MAX_SETTINGS];
		size_t n = 0;
		for (size_t r = 0; r <= N_SETTING_DEFS; r++)
			for (size_t i = 0; i < p->n_settings; i++)
				if ((int)p->settings[i].cls == cls &&
				    setting_rank(p->settings[i].key) == r && n < PROFILE_MAX_SETTINGS)
					eff[n++] = &p->settings[i];
		if (!n)
			continue;
		if (cls == PROFILE_CLASS_ALL)
			fprintf(f, "\n[settings]\n");
		else
			fprintf(f, "\n[settings %s]\n", class_names[cls]);
		for (size_t i = 0; i < n; i++)
			PUT_CHECK(eff[i]->key, eff[i]->value);
	}
	for (size_t i = 0; i < p->n_loads; i++) {
		const struct profile_load *l = &p->loads[i];
		const struct load_spec *s = &l->spec;
		struct load_spec def;
		char e[128];
		if ((unsigned)s->kind >= LOAD_KIND_COUNT || !valid_name(l->name, sizeof(l->name)))
			return msg_fail(-EINVAL, err, errlen, "load %zu: bad kind or name", i + 1);
		fprintf(f, "\n[load %s]\n", l->name);
		PUT_CHECK("rw", rw_names[s->kind]);
		int fsync_kind = s->kind == LOAD_FSYNC_WRITE || s->fsync_every;
		load_spec_parse(load_kind_name(s->kind == LOAD_SEQ_WRITE && fsync_kind ?
					       LOAD_FSYNC_WRITE : s->kind), &def, e, sizeof(e));
		parse_format_size(b, sizeof(b), s->bs_lo);
		if (s->bs_lo != s->bs_hi) {
			parse_format_size(b2, sizeof(b2), s->bs_hi);
			char r[140];
			snprintf(r, sizeof(r), "%s-%s", b, b2);
			PUT_CHECK("bsrange", r);
		} else {
			PUT_CHECK("bs", b);
		}
		if (s->size || def.size) {
			parse_format_size(b, sizeof(b), s->size);
			PUT_CHECK("size", b);
		}
		if (s->total) {
			parse_format_size(b, sizeof(b), s->total);
			PUT_CHECK("io_size", b);
		}
		if (s->count != 1) {
			snprintf(b, sizeof(b), "%u", s->count);
			PUT_CHECK("numjobs", b);
		}
		if (s->rate) {
			parse_format_size(b, sizeof(b), s->rate);
			PUT_CHECK("rate", b);
		}
		if (s->kind == LOAD_FSYNC_WRITE && !s->fsync_every)
			return msg_fail(-EINVAL, err, errlen, "load %s: fsync-heavy without fsync", l->name);
		if (s->fsync_every) {
			if (!s->bs_hi || s->fsync_every % s->bs_hi)
				return msg_fail(-EINVAL, err, errlen, "load %s: fsync every %" PRIu64 " bytes is not "
					    "a whole number of %" PRIu64 "-byte writes", l->name,
					    s->fsync_every, s->bs_hi);
			snprintf(b, sizeof(b), "%" PRIu64, s->fsync_every / s->bs_hi);
			PUT_CHECK("fsync", b);
		}
		if (s->direct)
			PUT_CHECK("direct", "1");
		if (s->ioprio_class > 0) {
			snprintf(b, sizeof(b), "%d", s->ioprio_class);
			PUT_CHECK("prioclass", b);
			if (s->ioprio_class != 3) {
				snprintf(b, sizeof(b), "%d", s->ioprio_level);
				PUT_CHECK("prio", b);
			}
		}
	}
	for (size_t i = 0; i < p->n_actions; i++) {
		const struct profile_action *a = &p->actions[i];
		if ((unsigned)a->kind >= ACTION_KIND_COUNT || !valid_name(a->name, sizeof(a->name)))
			return msg_fail(-EINVAL, err, errlen, "action %zu: bad kind or name", i + 1);
		fprintf(f, "\n[action %s]\n", a->name);
		PUT_CHECK("type", type_names[a->kind]);
		if (a->startdelay_ns) {
			if (fmt_duration(b, sizeof(b), a->startdelay_ns) < 0)
				return msg_fail(-EINVAL, err, errlen, "action %s: startdelay has sub-millisecond "
					    "precision", a->name);
			PUT_CHECK("startdelay", b);
		}
		if (a->interval_ns) {
			if (fmt_duration(b, sizeof(b), a->interval_ns) < 0)
				return msg_fail(-EINVAL, err, errlen, "action %s: interval has sub-millisecond "
					    "precision", a->name);
			PUT_CHECK("interval", b);
		}
		if (a->loops) {
			snprintf(b, sizeof(b), "%u", a->loops);
			PUT_CHECK("loops", b);
		}
		switch (a->kind) {
		case ACTION_EXEC:
			if (a->cmd[0])
				PUT_CHECK("cmd", a->cmd);
			break;
		case ACTION_LS:
			snprintf(b, sizeof(b), "%u", a->cfg.ls_files);
			PUT_CHECK("nrfiles", b);
			break;
		case ACTION_SSH:
			parse_format_size(b, sizeof(b), a->cfg.ssh_bs_lo);
			parse_format_size(b2, sizeof(b2), a->cfg.ssh_bs_hi);
			if (a->cfg.ssh_bs_lo == a->cfg.ssh_bs_hi) {
				PUT_CHECK("bs", b);
			} else {
				char r[140];
				snprintf(r, sizeof(r), "%s-%s", b, b2);
				PUT_CHECK("bsrange", r);
			}
			parse_format_size(b, sizeof(b), a->cfg.ssh_region);
			PUT_CHECK("size", b);
			parse_format_size(b, sizeof(b), a->cfg.ssh_file);
			PUT_CHECK("filesize", b);
			break;
		case ACTION_SAVE:
			parse_format_size(b, sizeof(b), a->cfg.save_size);
			PUT_CHECK("size", b);
			break;
		case ACTION_KIND_COUNT:
			break;
		}
	}
	if (ferror(f))
		return msg_fail(-EINVAL, err, errlen, "write error");
	return 0;
}

static int norm_kind(const struct load_spec *s)
{
	return s->kind == LOAD_SEQ_WRITE && s->fsync_every ? LOAD_FSYNC_WRITE : (int)s->kind;
}

#define DIFF(...) do { if (why) snprintf(why, whylen, __VA_ARGS__); return 0; } while (0)

int profile_equal(const struct profile *a, const struct profile *b, char *why, size_t whylen)
{
	if (strcmp(a->name, b->name))
		DIFF("name %s vs %s", a->name, b->name);
	if (strcmp(a->description, b->description))
		DIFF("description differs");
	if (a->runtime_ns != b->runtime_ns || a->ramp_time_ns != b->ramp_time_ns)
		DIFF("runtime or ramp_time differs");
	if (strcmp(a->directory, b->directory))
		DIFF("directory %s vs %s", a->directory, b->directory);
	if (a->n_devices != b->n_devices)
		DIFF("%zu vs %zu devices", a->n_devices, b->n_devices);
	for (size_t i = 0; i < a->n_devices; i++)
		if (strcmp(a->devices[i], b->devices[i]))
			DIFF("device %s vs %s", a->devices[i], b->devices[i]);
	if (a->n_settings != b->n_settings)
		DIFF("%zu vs %zu settings", a->n_settings, b->n_settings);
	for (size_t i = 0; i < a->n_settings; i++) {
		const struct profile_setting *s = &a->settings[i];
		const struct profile_setting *t = NULL;
		for (size_t j = 0; j < b->n_settings; j++)
			if (b->settings[j].cls == s->cls && !strcmp(b->settings[j].key, s->key))
				t = &b->settings[j];
		if (!t)
			DIFF("setting %s.%s missing", profile_class_name(s->cls), s->key);
		if (strcmp(s->value, t->value))
			DIFF("setting %s.%s: %s vs %s", profile_class_name(s->cls), s->key,
			     s->value, t->value);
	}
	if (a->n_loads != b->n_loads)
		DIFF("%zu vs %zu loads", a->n_loads, b->n_loads);
	for (size_t i = 0; i < a->n_loads; i++) {
		const struct load_spec *x = &a->loads[i].spec, *y = &b->loads[i].spec;
		int ca = x->ioprio_class > 0 ? x->ioprio_class : -1;
		int cb = y->ioprio_class > 0 ? y->ioprio_class : -1;
		if (strcmp(a->loads[i].name, b->loads[i].name) || norm_kind(x) != norm_kind(y) ||
		    x->count != y->count || x->bs_lo != y->bs_lo || x->bs_hi != y->bs_hi ||
		    x->size != y->size || x->total != y->total || x->rate != y->rate ||
		    x->fsync_every != y->fsync_every || x->direct != y->direct || ca != cb ||
		    (ca > 0 && ca != 3 && x->ioprio_level != y->ioprio_level))
			DIFF("load %s differs", a->loads[i].name);
	}
	if (a->n_actions != b->n_actions)
		DIFF("%zu vs %zu actions", a->n_actions, b->n_actions);
	for (size_t i = 0; i < a->n_actions; i++) {
		const struct profile_action *x = &a->actions[i], *y = &b->actions[i];
		if (strcmp(x->name, y->name) || x->kind != y->kind || strcmp(x->cmd, y->cmd) ||
		    x->startdelay_ns != y->startdelay_ns || x->interval_ns != y->interval_ns ||
		    x->loops != y->loops)
			DIFF("action %s differs", x->name);
		int same = 1;
		switch (x->kind) {
		case ACTION_LS: same = x->cfg.ls_files == y->cfg.ls_files; break;
		case ACTION_SSH:
			same = x->cfg.ssh_file == y->cfg.ssh_file &&
			       x->cfg.ssh_region == y->cfg.ssh_region &&
			       x->cfg.ssh_bs_lo == y->cfg.ssh_bs_lo &&
			       x->cfg.ssh_bs_hi == y->cfg.ssh_bs_hi;
			break;
		case ACTION_SAVE: same = x->cfg.save_size == y->cfg.save_size; break;
		case ACTION_EXEC:
		case ACTION_KIND_COUNT: break;
		}
		if (!same)
			DIFF("action %s differs", x->name);
	}
	return 1;
}

/* ---------- glue to the engine ---------- */

static int same_action_cfg(const struct profile_action *a, const struct profile_action *b)
{
	switch (a->kind) {
	case ACTION_EXEC: return strcmp(a->cmd, b->cmd) == 0;
	case ACTION_LS: return a->cfg.ls_files == b->cfg.ls_files;
	case ACTION_SSH:
		return a->cfg.ssh_file == b->cfg.ssh_file && a->cfg.ssh_region == b->cfg.ssh_region &&
		       a->cfg.ssh_bs_lo == b->cfg.ssh_bs_lo && a->cfg.ssh_bs_hi == b->cfg.ssh_bs_hi;
	case ACTION_SAVE: return a->cfg.save_size == b->cfg.save_size;
	case ACTION_KIND_COUNT: break;
	}
	return 1;
}

int profile_to_session_config(const struct profile *p, const char *display,
			      struct session_config *c, char *note, size_t notelen,
			      char *err, size_t errlen)
{
	if (!display)
		display = p->name;
	if (note && notelen)
		note[0] = '\0';
	if (p->n_loads > SESSION_MAX_LOAD_SPECS)
		return msg_fail(-EINVAL, err, errlen, "%s:%d: %zu loads, brisk run takes at most %d", display,
			    p->loads[SESSION_MAX_LOAD_SPECS].line, p->n_loads,
			    SESSION_MAX_LOAD_SPECS);
	const struct profile_action *first[ACTION_KIND_COUNT] = { NULL };
	unsigned count[ACTION_KIND_COUNT] = { 0 }, samples[ACTION_KIND_COUNT] = { 0 };
	uint64_t dmin[ACTION_KIND_COUNT] = { 0 }, dmax[ACTION_KIND_COUNT] = { 0 };
	uint64_t interval = 0;
	int any_delay = 0, any_loops = 0, intervals_differ = 0;
	for (size_t i = 0; i < p->n_actions; i++) {
		const struct profile_action *a = &p->actions[i];
		if ((unsigned)a->kind >= ACTION_KIND_COUNT)
			return msg_fail(-EINVAL, err, errlen, "%s:%d: bad action type", display, a->line);
		if (!first[a->kind]) {
			first[a->kind] = a;
			dmin[a->kind] = dmax[a->kind] = a->startdelay_ns;
		} else if (!same_action_cfg(first[a->kind], a)) {
			return msg_fail(-EINVAL, err, errlen, "%s:%d: [action %s] is configured unlike [action %s] "
				    "(line %d); brisk run takes one configuration per action type, "
				    "expected the same cmd, nrfiles or sizes", display, a->line,
				    a->name, first[a->kind]->name, first[a->kind]->line);
		}
		count[a->kind]++;
		samples[a->kind] += a->loops;
		any_loops |= a->loops != 0;
		any_delay |= a->startdelay_ns != 0;
		if (a->startdelay_ns < dmin[a->kind])
			dmin[a->kind] = a->startdelay_ns;
		if (a->startdelay_ns > dmax[a->kind])
			dmax[a->kind] = a->startdelay_ns;
		if (a->interval_ns) {
			if (interval && a->interval_ns != interval)
				intervals_differ = 1;
			if (!interval || a->interval_ns < interval)
				interval = a->interval_ns;
		}
	}
	if (p->n_loads || p->n_actions) {
		c->n_loads = p->n_loads;
		for (size_t i = 0; i < p->n_loads; i++)
			c->loads[i] = p->loads[i].spec;
	}
	if (p->n_actions) {
		c->actions = 0;
		action_config_default(&c->action);
		for (int k = 0; k < ACTION_KIND_COUNT; k++) {
			const struct profile_action *a = first[k];
			if (!a)
				continue;
			c->actions |= 1u << k;
			switch (a->kind) {
			case ACTION_EXEC: c->action.exec_cmd = a->cmd[0] ? a->cmd : NULL; break;
			case ACTION_LS: c->action.ls_files = a->cfg.ls_files; break;
			case ACTION_SSH:
				c->action.ssh_file = a->cfg.ssh_file;
				c->action.ssh_region = a->cfg.ssh_region;
				c->action.ssh_bs_lo = a->cfg.ssh_bs_lo;
				c->action.ssh_bs_hi = a->cfg.ssh_bs_hi;
				break;
			case ACTION_SAVE: c->action.save_size = a->cfg.save_size; break;
			case ACTION_KIND_COUNT: break;
			}
		}
	}
	size_t o = 0;
	int scheduled = 0;
	if (any_loops) {
		unsigned most = 0;
		for (int k = 0; k < ACTION_KIND_COUNT; k++)
			if (samples[k] > most)
				most = samples[k];
		c->loaded_samples = most;
		scheduled = 1;
	}
	if (interval) {
		c->interval_ns = interval;
		scheduled = 1;
		if (intervals_differ && note && o < notelen)
			o += (size_t)snprintf(note + o, notelen - o, "actions have different "
					      "intervals; all use the smallest, %.3gs. ",
					      (double)interval / 1e9);
	}
	if (any_delay) {
		/* The type with the most actions sets the pace: its samples are
		 * spread evenly over the span of its start delays. */
		int k = 0;
		for (int i = 1; i < ACTION_KIND_COUNT; i++)
			if (count[i] > count[k])
				k = i;
		unsigned n = samples[k] ? samples[k] : count[k];
		uint64_t span = dmax[k] - dmin[k];
		if (n > 1 && span) {
			c->interval_ns = span / (n - 1);
			c->jitter_pct = 0;
			if (c->loaded_max_ns && c->loaded_max_ns < dmax[k] + c->interval_ns)
				c->loaded_max_ns = 0;   /* the samples decide when it ends */
			scheduled = 1;
			if (note && o < notelen)
				o += (size_t)snprintf(note + o, notelen - o, "startdelay schedule "
						      "approximated: %u %s samples every %.3gs "
						      "(the engine has no per-sample start times). ",
						      n, action_kind_name((enum action_kind)k),
						      (double)c->interval_ns / 1e9);
		} else if (note && o < notelen) {
			o += (size_t)snprintf(note + o, notelen - o, "startdelay ignored: sampling "
					      "starts with the loaded phase. ");
		}
	}
	if (p->runtime_ns) {
		c->loaded_max_ns = p->runtime_ns;
		scheduled = 1;
	}
	if (p->ramp_time_ns) {
		c->warmup_max_ns = p->ramp_time_ns;
		if (c->warmup_min_ns > c->warmup_max_ns)
			c->warmup_min_ns = c->warmup_max_ns;
		scheduled = 1;
	}
	if (scheduled)
		c->max_time_ns = 0;
	if (p->directory[0]) {
		if (strlen(p->directory) >= sizeof(c->dir))
			return msg_fail(-EINVAL, err, errlen, "%s: directory too long", display);
		str_copy(c->dir, sizeof(c->dir), p->directory);
	}
	if (note && o > 0 && o < notelen && note[o - 1] == ' ')
		note[o - 1] = '\0';
	return 0;
}

/* "--opt VALUE" / "--opt=VALUE" at argv[*i]: the value, advancing *i. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);
	if (strncmp(argv[*i], opt, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

int profile_run_args(int argc, char **argv, struct profile *p, struct session_config *c,
		     char *note, size_t notelen, char *err, size_t errlen)
{
	const char *prof = NULL, *fio = NULL, *scale_arg = NULL;
	if (note && notelen)
		note[0] = '\0';
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		const char *v;
		if ((v = opt_value(argc, argv, &i, "--profile"))) {
			if (prof || fio)
				return msg_fail(-EINVAL, err, errlen, "one --profile or --fio only");
			prof = v;
		} else if ((v = opt_value(argc, argv, &i, "--fio"))) {
			if (prof || fio)
				return msg_fail(-EINVAL, err, errlen, "one --profile or --fio only");
			fio = v;
		} else if ((v = opt_value(argc, argv, &i, "--scale"))) {
			scale_arg = v;
		}
	}
	double scale = 1;
	if (scale_arg && (!fio || fiojob_parse_scale(scale_arg, &scale) < 0))
		return msg_fail(-EINVAL, err, errlen, fio ? "--scale '%s': expected a factor in (0, 1] such as "
			    "0.01, 1/100 or 1%%" : "--scale%s%s goes with --fio", fio ? scale_arg : "",
			    "");
	if (!prof && !fio)
		return 0;
	char path[PATH_MAX];
	int rc = prof ? profile_load_named(prof, p, path, sizeof(path), err, errlen) :
			fiojob_parse_file(fio, scale, p, err, errlen);
	if (rc < 0)
		return rc;
	rc = profile_to_session_config(p, prof ? path : fio, c, note, notelen, err, errlen);
	return rc < 0 ? rc : 1;
}
