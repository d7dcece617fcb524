/* profile_load — the INI loader: libinih fed one line at a time by our
 * own reader (so that every error has its line and nothing inih would
 * misread gets through), one section at a time into a struct profile.
 *
 * Contract: profile_parse_buffer() and profile_parse_file() as profile.h
 * says; [load] and [action] keys are read by loadkeys (shared with fio
 * job files), [settings] values checked by profile_setting_check().
 */
#include "profile.h"

#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "loadkeys.h"
#include "msg.h"
#include "parse.h"
#include "str.h"
#include "text.h"

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
static int check_fio_engine(struct ctx *c, int load)
{
	const struct kv *v = kv_get(c, "ioengine");
	if (v && !load && strcmp(v->value, "sync") != 0 && strcmp(v->value, "psync") != 0) {
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
	static const char *const keys[] = { "name", "description", "runtime", "ramp_time",
					    "concurrency", "finite_load", NULL };
	if (check_keys(c, keys, "[profile]") < 0)
		return;
	struct profile *p = c->p;
	const struct kv *v;
	if ((v = kv_get(c, "name"))) {
		if (!profile_name_ok(v->value, sizeof(p->name))) {
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
	if ((v = kv_get(c, "ramp_time")) && get_duration(c, v, &p->ramp_time_ns) < 0)
		return;
	int64_t n;
	if ((v = kv_get(c, "concurrency"))) {
		if (get_int(c, v, 1, PROFILE_MAX_CONCURRENCY, &n) < 0)
			return;
		p->concurrency = (unsigned)n;
	}
	if ((v = kv_get(c, "finite_load"))) {
		if (get_int(c, v, 0, 1, &n) < 0)
			return;
		p->finite_load = (int)n;
	}
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
			if (!profile_name_ok(name, sizeof(p->devices[0])) || strchr(name, '/')) {
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
		const struct profile_setting *old = profile_setting_get(p, cls, key);
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

/* One section's keys as loadkeys reads them. */
static void section_keys(const struct ctx *c, const char *what, struct loadkeys *k)
{
	static const struct { const char *name; enum loadkeys_key key; } map[] = {
		{ "rw", LK_RW }, { "bs", LK_BS }, { "bsrange", LK_BSRANGE }, { "size", LK_SIZE },
		{ "filesize", LK_FILESIZE }, { "io_size", LK_IOSIZE }, { "numjobs", LK_NUMJOBS },
		{ "rate", LK_RATE }, { "fsync", LK_FSYNC }, { "direct", LK_DIRECT },
		{ "prio", LK_PRIO }, { "prioclass", LK_PRIOCLASS }, { "nrfiles", LK_NRFILES },
		{ "ioengine", LK_IOENGINE }, { "iodepth", LK_IODEPTH }, { "bssplit", LK_BSSPLIT },
		{ "rwmixread", LK_RWMIXREAD }, { "rwmixwrite", LK_RWMIXWRITE },
		{ "random_distribution", LK_DIST }, { "rate_poisson", LK_POISSON },
		{ "flow", LK_FLOW }, { "flow_id", LK_FLOWID }, { "flow_sleep", LK_FLOWSLEEP },
		{ "thinktime", LK_THINKTIME }, { "thinktime_spin", LK_THINKSPIN },
		{ "thinktime_blocks", LK_THINKBLOCKS }, { "thinktime_blocks_type", LK_THINKTYPE },
		{ "startdelay", LK_STARTDELAY },
		{ "directory", LK_DIRECTORY },
	};
	memset(k, 0, sizeof(*k));
	k->fail = (struct msg_first *)&c->fail;
	k->what = what;
	k->line = c->sec_line;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		const struct kv *v = kv_get(c, map[i].name);
		if (v)
			loadkeys_set(k, map[i].key, v->value, v->line);
	}
}

static void end_load(struct ctx *c)
{
	static const char *const keys[] = {
		"rw", "bs", "bsrange", "size", "io_size", "numjobs", "rate", "fsync", "direct",
		"prio", "prioclass", "ioengine", "invalidate", "iodepth", "bssplit", "rwmixread",
		"rwmixwrite", "random_distribution", "rate_poisson", "flow", "flow_id", "flow_sleep",
		"thinktime", "thinktime_spin", "thinktime_blocks", "thinktime_blocks_type",
		"startdelay", "directory", NULL };
	char what[64];
	snprintf(what, sizeof(what), "[load %s]", c->sec_arg);
	if (check_keys(c, keys, what) < 0 || check_fio_engine(c, 1) < 0)
		return;
	struct profile *p = c->p;
	if (p->n_loads >= PROFILE_MAX_LOADS) {
		ctx_fail(c, c->sec_line, "too many loads, expected at most %d", PROFILE_MAX_LOADS);
		return;
	}
	struct loadkeys k;
	struct load_spec s;
	section_keys(c, what, &k);
	if (loadkeys_load(&k, &s) < 0)
		return;
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

/* The action's type, and only keys that apply to it: -1 or the kind. */
static int action_kind_of(struct ctx *c, const char *what)
{
	/* Which keys each type takes (beyond the common ones). */
	static const char *const own[ACTION_KIND_COUNT][6] = {
		[ACTION_EXEC] = { "cmd" },
		[ACTION_LS] = { "nrfiles" },
		[ACTION_SSH] = { "rw", "bs", "bsrange", "size", "filesize" },
		[ACTION_SAVE] = { "rw", "size", "fsync" },
	};
	static const char *const common[] = { "type", "startdelay", "interval", "loops", "direct",
					      "ioengine", "invalidate" };
	const struct kv *v = kv_get(c, "type");
	if (!v) {
		ctx_fail(c, c->sec_line, "%s has no type, expected type = exec, ls, ssh-like or save",
			 what);
		return -1;
	}
	int kind = loadkeys_type_parse(v->value);
	if (kind < 0) {
		ctx_fail(c, v->line, "bad value '%s' for type, expected exec, ls, ssh-like or save",
			 v->value);
		return -1;
	}
	for (size_t i = 0; i < c->n_kv; i++) {
		int ok = 0;
		for (size_t j = 0; j < sizeof(common) / sizeof(common[0]); j++)
			ok |= strcmp(c->kv[i].key, common[j]) == 0;
		for (size_t j = 0; j < 6 && own[kind][j]; j++)
			ok |= strcmp(c->kv[i].key, own[kind][j]) == 0;
		if (!ok) {
			ctx_fail(c, c->kv[i].line, "key '%s' does not apply to an action of type %s",
				 c->kv[i].key, loadkeys_type_name((enum action_kind)kind));
			return -1;
		}
	}
	return kind;
}

static void end_action(struct ctx *c)
{
	static const char *const keys[] = {
		"type", "startdelay", "interval", "loops", "cmd", "nrfiles", "rw", "bs",
		"bsrange", "size", "filesize", "fsync", "direct", "ioengine", "invalidate", NULL };
	char what[64];
	snprintf(what, sizeof(what), "[action %s]", c->sec_arg);
	if (check_keys(c, keys, what) < 0 || check_fio_engine(c, 0) < 0)
		return;
	struct profile *p = c->p;
	if (p->n_actions >= PROFILE_MAX_ACTIONS) {
		ctx_fail(c, c->sec_line, "too many actions, expected at most %d", PROFILE_MAX_ACTIONS);
		return;
	}
	int kind = action_kind_of(c, what);
	if (kind < 0)
		return;
	struct profile_action a;
	memset(&a, 0, sizeof(a));
	a.kind = (enum action_kind)kind;
	const struct kv *v;
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
	struct loadkeys k;
	section_keys(c, what, &k);
	if (loadkeys_action(&k, a.kind, &a.cfg) < 0)
		return;
	if ((v = kv_get(c, "cmd"))) {
		if (!v->value[0] || strlen(v->value) >= sizeof(a.cmd)) {
			ctx_fail(c, v->line, "bad cmd, expected a program and its arguments (at most "
				 "%zu characters)", sizeof(a.cmd) - 1);
			return;
		}
		str_copy(a.cmd, sizeof(a.cmd), v->value);
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
		if (!str_is_space((unsigned char)*t)) {
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
	while (str_is_space((unsigned char)*word))
		word++;
	char *end = word + strlen(word);
	while (end > word && str_is_space((unsigned char)end[-1]))
		*--end = '\0';
	char *arg = word;
	while (*arg && !str_is_space((unsigned char)*arg))
		arg++;
	if (*arg) {
		*arg++ = '\0';
		while (str_is_space((unsigned char)*arg))
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
		if (!profile_name_ok(arg, sizeof(c->sec_arg))) {
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
		const struct profile_setting *a = profile_setting_get(p, PROFILE_CLASS_ALL, pairs[i][0]);
		const struct profile_setting *b = profile_setting_get(p, PROFILE_CLASS_ALL, pairs[i][1]);
		if (a && b) {
			const struct profile_setting *later = a->line > b->line ? a : b;
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
		const struct profile_setting *sch = profile_setting_get(p, s->cls, "scheduler");
		if (!sch)
			sch = profile_setting_get(p, PROFILE_CLASS_ALL, "scheduler");
		if (sch && strcmp(sch->value, owner) != 0) {
			ctx_fail(c, s->line, "%s is a %s tunable but the scheduler for %s disks is "
				 "%s, expected scheduler = %s or no %s", s->key, owner,
				 profile_class_name(s->cls), sch->value, owner, s->key);
			return;
		}
	}
}

/* The first character text_char_len() refused, named without printing it. */
static void bad_byte(struct ctx *c, int line, const char *s, size_t n, size_t col)
{
	char what[80];
	ctx_fail(c, line, "%s at byte %zu, expected UTF-8 text without control or invisible "
		 "format characters (TAB is allowed)", text_bad_name(s, n, what, sizeof(what)),
		 col);
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
	/* a UTF-8 BOM first is no text (inih skips it too); anywhere else it
	 * is an invisible character like any other */
	size_t col = len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	if (len > PROFILE_MAX_FILE)
		ctx_fail(c, 1, "file is larger than %d bytes, expected a profile", PROFILE_MAX_FILE);
	for (size_t i = col; i < len && !c->fail.failed; i++) {
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
		if (!profile_name_ok(name, sizeof(name)))
			return msg_fail(-EINVAL, err, errlen, "%s: no name = in [profile] and the file "
					"name '%s' gives no profile name, expected name = NAME or a "
					"file named NAME.profile (letters, digits, '-', '_' or '.', "
					"not first '.' or '-')", display, b);
		str_copy(out->name, sizeof(out->name), name);
	}
	return rc;
}

