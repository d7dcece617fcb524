/* profile — the model: settings (the keys `brisk set` takes, by class),
 * loads and actions, the default workload, comparison.  The module's
 * other files, one job each, share profile.h: profile_load.c (the INI
 * loader), profile_write.c (the writer), profile_file.c (where profiles
 * live: names, paths, saving), profile_run.c (the glue to session_config).
 * See profile.h for the contract and brisk-profile(5) for the format. */
#include "profile.h"
#include "msg.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "tunable.h"
#include "str.h"

#define KiB 1024ull
#define MiB (1024ull * 1024ull)

/* ---------- settings: the keys `brisk set` takes ---------- */

/* The one settings table is tunable's (tunable_defs, in application
 * order: the scheduler first, its tunables next, then the queue, the
 * device and the system-wide vm knobs); a profile key is its key. */
static enum profile_scope setting_scope(const struct tunable_def *d)
{
	switch (d->kind) {
	case TUNABLE_IOSCHED:
		return PROFILE_SCOPE_IOSCHED;
	case TUNABLE_DEVICE:
		return PROFILE_SCOPE_DEVICE;
	case TUNABLE_SYSCTL:
		return PROFILE_SCOPE_VM;
	case TUNABLE_BDI:
		return PROFILE_SCOPE_BDI;
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
	return d ? (size_t)(d - tunable_defs) : tunable_n_defs;
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
	for (size_t r = 0; r < tunable_n_defs; r++) {
		const struct profile_setting *hit = NULL;
		for (size_t i = 0; i < p->n_settings; i++) {
			const struct profile_setting *s = &p->settings[i];
			if (strcmp(s->key, tunable_defs[r].key) != 0)
				continue;
			if (s->cls == cls && cls != PROFILE_CLASS_ALL)
				hit = s;
			else if (s->cls == PROFILE_CLASS_ALL && (!hit || hit->cls == PROFILE_CLASS_ALL))
				hit = s;
		}
		if (hit && tunable_defs[r].kind == TUNABLE_IOSCHED && n > 0 &&
		    strcmp(out[0]->key, "scheduler") == 0 &&
		    strcmp(out[0]->value, tunable_defs[r].sched) != 0)
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
	if ((a->concurrency > 1 ? a->concurrency : 1) != (b->concurrency > 1 ? b->concurrency : 1))
		DIFF("concurrency differs");
	if (a->finite_load != b->finite_load)
		DIFF("finite_load differs");
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
		    (ca > 0 && ca != 3 && x->ioprio_level != y->ioprio_level) ||
		    x->engine != y->engine || (x->iodepth > 1 ? x->iodepth : 1) !=
		    (y->iodepth > 1 ? y->iodepth : 1) || x->n_bssplit != y->n_bssplit ||
		    memcmp(x->bssplit, y->bssplit, x->n_bssplit * sizeof(x->bssplit[0])) ||
		    x->think_ns != y->think_ns || x->think_spin_ns != y->think_spin_ns ||
		    x->think_blocks != y->think_blocks || x->think_issue != y->think_issue ||
		    x->delay_lo_ns != y->delay_lo_ns || x->delay_hi_ns != y->delay_hi_ns)
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

/* ---------- shared by the module's files ---------- */

int profile_name_ok(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n == 0 || n >= max)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!str_is_alnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return 0;
	return s[0] != '.' && s[0] != '-';
}

const struct profile_setting *profile_setting_get(const struct profile *p,
						  enum profile_class cls, const char *key)
{
	return setting_slot((struct profile *)p, cls, key);
}

size_t profile_class_settings(const struct profile *p, enum profile_class cls,
			      const struct profile_setting **out, size_t max)
{
	size_t n = 0;
	for (size_t r = 0; r <= tunable_n_defs; r++)
		for (size_t i = 0; i < p->n_settings; i++)
			if (p->settings[i].cls == cls && setting_rank(p->settings[i].key) == r &&
			    n < max)
				out[n++] = &p->settings[i];
	return n;
}

int profile_unset(struct profile *p, enum profile_class cls, const char *key)
{
	struct profile_setting *s = setting_slot(p, cls, key);
	if (!s)
		return -ENOENT;
	size_t i = (size_t)(s - p->settings);
	memmove(&p->settings[i], &p->settings[i + 1],
		(p->n_settings - i - 1) * sizeof(p->settings[0]));
	p->n_settings--;
	return 0;
}

int profile_capture(struct profile *p, enum profile_class cls, const char *key,
		    const char *value, char *err, size_t errlen)
{
	if (profile_setting_info(key, NULL, NULL) < 0)
		return msg_fail(-ENOENT, err, errlen, "unknown setting '%s'", key);
	const struct profile_setting *s = profile_setting_get(p, cls, key);
	if (s) {
		if (strcmp(s->value, value) == 0)
			return 1;
		return msg_fail(-EEXIST, err, errlen, "%s", s->value);
	}
	return profile_set(p, cls, key, value, err, errlen);
}
