/* fleet_read — one `brisk run --json` or `brisk compare --json` result,
 * read as untrusted input.  Contract in fleet.h. */
#include "fleet.h"
#include "fleet_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>

#include "action.h"
#include "msg.h"
#include "profile.h"

/* A parse: the result being filled and the first error. */
struct rd {
	struct fleet_result *r;
	char *err;
	size_t errlen;
};

static int bad(struct rd *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct rd *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (d->errlen)
		vsnprintf(d->err, d->errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static struct json_object *field(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;
	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static int is(struct json_object *v, enum json_type t)
{
	return v && json_object_get_type(v) == t;
}

static int is_number(struct json_object *v)
{
	return is(v, json_type_int) || is(v, json_type_double);
}

/* Copy an untrusted string into buf (cut at a whole UTF-8 character when
 * it is longer).  0, or -EINVAL when it holds a NUL byte. */
static int copy_str(struct rd *d, const char *where, struct json_object *v, char *buf,
		    size_t len)
{
	buf[0] = '\0';
	if (!v)
		return 0;
	if (!is(v, json_type_string))
		return bad(d, "%s: expected a string", where);
	const char *s = json_object_get_string(v);
	size_t n = (size_t)json_object_get_string_len(v);
	if (memchr(s, '\0', n))
		return bad(d, "%s: holds a NUL byte", where);
	if (n >= len) {
		n = len - 1;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

/* A number in [lo, hi] (finite); null is NaN when null_ok. */
static int get_num(struct rd *d, const char *where, struct json_object *v, double lo, double hi,
		   int null_ok, double *out)
{
	*out = NAN;
	if (!v && null_ok)
		return 0;
	if (!is_number(v))
		return bad(d, "%s: expected a number", where);
	double x = json_object_get_double(v);
	if (!isfinite(x) || x < lo || x > hi)
		return bad(d, "%s: %g is out of range [%g, %g]", where, x, lo, hi);
	*out = x;
	return 0;
}

/* A whole number in [lo, hi]. */
static int get_int(struct rd *d, const char *where, struct json_object *v, int64_t lo,
		   int64_t hi, int64_t *out)
{
	*out = 0;
	if (!is(v, json_type_int))
		return bad(d, "%s: expected a whole number", where);
	int64_t x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return bad(d, "%s: %lld is out of range [%lld, %lld]", where, (long long)x,
			   (long long)lo, (long long)hi);
	*out = x;
	return 0;
}

static int get_bool(struct rd *d, const char *where, struct json_object *v, int *out)
{
	*out = 0;
	if (!is(v, json_type_boolean))
		return bad(d, "%s: expected true or false", where);
	*out = json_object_get_boolean(v);
	return 0;
}

static int action_of(const char *name)
{
	for (int k = 0; k < ACTION_KIND_COUNT; k++)
		if (strcmp(name, action_kind_name((enum action_kind)k)) == 0)
			return k;
	return -1;
}

static int add_sample(struct rd *d, size_t cap, double ms, unsigned arm, int action,
		      enum fleet_phase ph)
{
	struct fleet_result *r = d->r;
	if (r->n_samples == cap)
		return bad(d, "more than %u samples", FLEET_MAX_SAMPLES);
	r->samples[r->n_samples++] = (struct fleet_sample){ ms, (uint16_t)arm, (uint8_t)action,
							    (uint8_t)ph };
	return 0;
}

/* The samples array: allocated for its length. */
static int samples_array(struct rd *d, struct json_object *root, struct json_object **arr,
			 size_t *n)
{
	*arr = field(root, "samples");
	if (!is(*arr, json_type_array))
		return bad(d, "samples: expected an array");
	*n = json_object_array_length(*arr);
	if (*n > FLEET_MAX_SAMPLES)
		return bad(d, "samples: %zu samples, more than %u", *n, FLEET_MAX_SAMPLES);
	d->r->samples = *n ? calloc(*n, sizeof(*d->r->samples)) : NULL;
	if (*n && !d->r->samples)
		return -ENOMEM;
	return 0;
}

/* One sample's common fields: action, cold, the error flag, ms (checked
 * only when the sample counts).  *use: it counts. */
static int sample_common(struct rd *d, struct json_object *o, size_t i, const char *errkey,
			 int *action, double *ms, int *use)
{
	char w[64];
	*use = 0;
	if (!is(o, json_type_object))
		return bad(d, "samples[%zu]: expected an object", i);
	snprintf(w, sizeof(w), "samples[%zu].action", i);
	char an[32];
	int rc = copy_str(d, w, field(o, "action"), an, sizeof(an));
	if (rc < 0)
		return rc;
	if ((*action = action_of(an)) < 0)
		return bad(d, "%s: not an action brisk knows", w);
	int cold, timeout;
	int64_t e;
	snprintf(w, sizeof(w), "samples[%zu].cold", i);
	if ((rc = get_bool(d, w, field(o, "cold"), &cold)) < 0)
		return rc;
	snprintf(w, sizeof(w), "samples[%zu].timeout", i);
	if ((rc = get_bool(d, w, field(o, "timeout"), &timeout)) < 0)
		return rc;
	snprintf(w, sizeof(w), "samples[%zu].%s", i, errkey);
	if ((rc = get_int(d, w, field(o, errkey), INT32_MIN, INT32_MAX, &e)) < 0)
		return rc;
	if (e != 0) {
		d->r->failed++;
		return 0;
	}
	if (!cold) {
		d->r->warm++;
		return 0;
	}
	snprintf(w, sizeof(w), "samples[%zu].ms", i);
	struct json_object *m = field(o, "ms");
	if (!is_number(m))
		return bad(d, "%s: expected a number", w);
	double x = json_object_get_double(m);
	if (!isfinite(x) || !(x > 0) || x > FLEET_MAX_MS)
		return bad(d, "%s: %g is out of range (0, %g]", w, x, FLEET_MAX_MS);
	*ms = x;
	*use = 1;
	return 0;
}

/* The fields of a sample past the common ones (a run's phase and epoch,
 * a comparison's arm): into s; *use cleared when it does not count. */
typedef int (*sample_fn)(struct rd *d, struct json_object *o, size_t i,
			 struct fleet_sample *s, int *use);

/* The samples array of root, each sample checked (sample_common with
 * errkey, then more) and the ones that count added. */
static int read_samples(struct rd *d, struct json_object *root, const char *errkey,
			sample_fn more)
{
	struct json_object *arr;
	size_t n = 0;
	int rc = samples_array(d, root, &arr, &n);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);
		int action = 0, use;
		double ms = NAN;
		if ((rc = sample_common(d, o, i, errkey, &action, &ms, &use)) < 0)
			return rc;
		struct fleet_sample s = { ms, 0, 0, FLEET_LOADED };
		if ((rc = more(d, o, i, &s, &use)) < 0)
			return rc;
		if (use && (rc = add_sample(d, n, ms, s.arm, action, (enum fleet_phase)s.phase)) < 0)
			return rc;
	}
	return 0;
}

/* A run's sample: its phase, and epoch 0 (a later one is an --at change:
 * counted apart). */
static int run_sample(struct rd *d, struct json_object *o, size_t i, struct fleet_sample *s,
		      int *use)
{
	char w[64], ph[16];
	snprintf(w, sizeof(w), "samples[%zu].phase", i);
	int rc = copy_str(d, w, field(o, "phase"), ph, sizeof(ph));
	if (rc < 0)
		return rc;
	if (strcmp(ph, "loaded") == 0)
		s->phase = FLEET_LOADED;
	else if (strcmp(ph, "idle") == 0)
		s->phase = FLEET_IDLE;
	else
		return bad(d, "%s: expected idle or loaded", w);
	int64_t ep;
	snprintf(w, sizeof(w), "samples[%zu].epoch", i);
	if ((rc = get_int(d, w, field(o, "epoch"), 0, UINT32_MAX, &ep)) < 0)
		return rc;
	if (*use && ep != 0) {
		d->r->other_epochs++;
		*use = 0;
	}
	return 0;
}

/* A comparison's sample: its arm, one of the file's. */
static int compare_sample(struct rd *d, struct json_object *o, size_t i, struct fleet_sample *s,
			  int *use)
{
	(void)use;
	int64_t arm;
	char w[64];
	snprintf(w, sizeof(w), "samples[%zu].arm", i);
	int rc = get_int(d, w, field(o, "arm"), 0, (int64_t)d->r->n_arms - 1, &arm);
	if (rc < 0)
		return rc;
	s->arm = (uint16_t)arm;
	return 0;
}

/* ---- the machine object ---- */

static int read_machine(struct rd *d, struct json_object *m)
{
	struct fleet_machine *fm = &d->r->m;
	if (!m)
		return 0;
	if (!is(m, json_type_object))
		return bad(d, "machine: expected an object");
	fm->known = 1;
	int rc;
	if ((rc = copy_str(d, "machine.hostname", field(m, "hostname"), fm->hostname,
			   sizeof(fm->hostname))) < 0 ||
	    (rc = copy_str(d, "machine.kernel", field(m, "kernel"), fm->kernel,
			   sizeof(fm->kernel))) < 0 ||
	    (rc = copy_str(d, "machine.machine_id", field(m, "machine_id"), fm->machine_id,
			   sizeof(fm->machine_id))) < 0)
		return rc;
	if (fm->machine_id[0]) {
		size_t n = strlen(fm->machine_id);
		if (n != 32 || strspn(fm->machine_id, "0123456789abcdef") != 32)
			return bad(d, "machine.machine_id: expected 32 lower-case hex digits");
	}
	struct json_object *disks = field(m, "disks");
	if (!disks)
		return 0;
	if (!is(disks, json_type_array))
		return bad(d, "machine.disks: expected an array");
	size_t n = json_object_array_length(disks);
	if (n > FLEET_MAX_DISKS)
		return bad(d, "machine.disks: %zu disks, more than %d", n, FLEET_MAX_DISKS);
	static const char *const classes[] = { "rotational", "ssd", "nvme",
					       "mmc", "usb", "virtual" };
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(disks, i);
		struct fleet_disk *k = &fm->disks[fm->n_disks++];
		char w[64];
		k->rotational = -1;
		if (!is(o, json_type_object))
			return bad(d, "machine.disks[%zu]: expected an object", i);
		static const struct {
			const char *key;
			size_t off, len;
		} s[] = {
			{ "name", offsetof(struct fleet_disk, name), sizeof(k->name) },
			{ "class", offsetof(struct fleet_disk, cls), sizeof(k->cls) },
			{ "model", offsetof(struct fleet_disk, model), sizeof(k->model) },
			{ "firmware", offsetof(struct fleet_disk, firmware), sizeof(k->firmware) },
			{ "transport", offsetof(struct fleet_disk, transport), sizeof(k->transport) },
			{ "scheduler", offsetof(struct fleet_disk, scheduler), sizeof(k->scheduler) },
		};
		for (size_t j = 0; j < sizeof(s) / sizeof(s[0]); j++) {
			snprintf(w, sizeof(w), "machine.disks[%zu].%s", i, s[j].key);
			struct json_object *v = field(o, s[j].key);
			if (v && is(v, json_type_null))
				v = NULL;
			if ((rc = copy_str(d, w, v, (char *)k + s[j].off, s[j].len)) < 0)
				return rc;
		}
		if (strspn(k->scheduler, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(k->scheduler))
			return bad(d, "machine.disks[%zu].scheduler: not a scheduler's name", i);
		int known = 0;
		for (size_t j = 0; j < sizeof(classes) / sizeof(classes[0]); j++)
			known |= strcmp(k->cls, classes[j]) == 0;
		if (!known)
			k->cls[0] = '\0';
		struct json_object *rot = field(o, "rotational");
		if (rot && !is(rot, json_type_null)) {
			int b;
			snprintf(w, sizeof(w), "machine.disks[%zu].rotational", i);
			if ((rc = get_bool(d, w, rot, &b)) < 0)
				return rc;
			k->rotational = b;
		}
	}
	return 0;
}

/* The scheduler every disk of the machine had: "" when unknown or when
 * they differ (then *mixed). */
static const char *machine_scheduler(const struct fleet_machine *m, int *mixed)
{
	*mixed = 0;
	const char *s = NULL;
	for (size_t i = 0; i < m->n_disks; i++) {
		if (!m->disks[i].scheduler[0])
			continue;
		if (s && strcmp(s, m->disks[i].scheduler) != 0)
			*mixed = 1;
		if (!s)
			s = m->disks[i].scheduler;
	}
	return s && !*mixed ? s : "";
}

/* An arm from its settings words: the scheduler first, then the others
 * sorted, one space between; the label is the scheduler alone when that
 * is all it sets.  "" settings: the machine's scheduler ("current"). */
static int make_arm(struct rd *d, const char *where, const char *settings, struct fleet_arm *a)
{
	char words[16][FLEET_KEY_LEN];
	size_t n = 0;
	char buf[FLEET_KEY_LEN];
	snprintf(buf, sizeof(buf), "%s", settings);
	char *save = NULL;
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (n == 16)
			return bad(d, "%s: more than 16 settings", where);
		/* a setting brisk knows, with a value of its form (as a profile
		 * would hold it): nothing else may become an arm, nor a profile */
		char key[64], norm[64], why[256];
		const char *eq = strchr(w, '=');
		if (!eq || eq == w || (size_t)(eq - w) >= sizeof(key))
			return bad(d, "%s: '%.40s' is not KEY=VALUE", where, w);
		memcpy(key, w, (size_t)(eq - w));
		key[eq - w] = '\0';
		if (profile_setting_info(key, NULL, NULL) < 0 ||
		    profile_setting_check(key, eq + 1, norm, sizeof(norm), why, sizeof(why)) < 0)
			return bad(d, "%s: '%.40s' is not a setting brisk knows", where, w);
		snprintf(words[n++], sizeof(words[0]), "%s", w);
	}
	if (!n) {
		int mixed;
		const char *s = machine_scheduler(&d->r->m, &mixed);
		if (s[0]) {
			snprintf(a->key, sizeof(a->key), "scheduler=%s", s);
			snprintf(a->label, sizeof(a->label), "%s", s);
		} else {
			snprintf(a->key, sizeof(a->key), "%s", mixed ? "current (schedulers differ)"
				 : "current");
			snprintf(a->label, sizeof(a->label), "%.63s", a->key);
		}
		return 0;
	}
	/* the scheduler first, the rest in byte order */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			int si = strncmp(words[i], "scheduler=", 10) == 0;
			int sj = strncmp(words[j], "scheduler=", 10) == 0;
			if (sj > si || (sj == si && strcmp(words[j], words[i]) < 0)) {
				char t[FLEET_KEY_LEN];
				memcpy(t, words[i], sizeof(t));
				memcpy(words[i], words[j], sizeof(t));
				memcpy(words[j], t, sizeof(t));
			}
		}
	size_t l = 0;
	a->key[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t wl = strlen(words[i]);
		if (l + wl + 2 > sizeof(a->key))
			return bad(d, "%s: settings too long", where);
		if (l)
			a->key[l++] = ' ';
		memcpy(a->key + l, words[i], wl + 1);
		l += wl;
	}
	if (n == 1 && strncmp(a->key, "scheduler=", 10) == 0)
		snprintf(a->label, sizeof(a->label), "%.63s", a->key + 10);
	else if (strlen(a->key) < sizeof(a->label))
		snprintf(a->label, sizeof(a->label), "%s", a->key);
	else   /* cut, and saying so: where it matters the key is shown whole */
		snprintf(a->label, sizeof(a->label), "%.*s...", (int)sizeof(a->label) - 4, a->key);
	return 0;
}

/* ---- a run ---- */

/* arms[i].NAME.est of a compare result: NaN when absent or null. */
static int interval_est(struct rd *d, struct json_object *arm, const char *name, size_t i,
			double *out)
{
	char w[64];
	struct json_object *iv = field(arm, name);
	*out = NAN;
	if (!iv || is(iv, json_type_null))
		return 0;
	if (!is(iv, json_type_object))
		return bad(d, "arms[%zu].%s: expected an object", i, name);
	struct json_object *est = field(iv, "est");
	snprintf(w, sizeof(w), "arms[%zu].%s.est", i, name);
	if (est && is(est, json_type_null))
		est = NULL;
	return get_num(d, w, est, 0, FLEET_MAX_MIBPS, 1, out);
}

/* Does a run's loads array show more than one epoch? */
static int multi_epoch(struct json_object *loads)
{
	size_t n = json_object_array_length(loads);
	for (size_t i = 0; i < n; i++) {
		struct json_object *be = field(json_object_array_get_idx(loads, i), "by_epoch");
		if (be && is(be, json_type_array) && json_object_array_length(be) > 1)
			return 1;
	}
	return 0;
}

static int read_run(struct rd *d, struct json_object *root)
{
	struct fleet_result *r = d->r;
	struct json_object *cfg = field(root, "config");
	if (!is(cfg, json_type_object))
		return bad(d, "config: expected an object");
	struct json_object *loads = field(cfg, "loads");
	if (loads && !is(loads, json_type_array))
		return bad(d, "config.loads: expected an array");
	size_t nl = loads ? json_object_array_length(loads) : 0;
	size_t wl = 0;
	for (size_t i = 0; i < nl && i < 16; i++) {
		char w[48], spec[160];
		snprintf(w, sizeof(w), "config.loads[%zu]", i);
		int rc = copy_str(d, w, json_object_array_get_idx(loads, i), spec, sizeof(spec));
		if (rc < 0)
			return rc;
		wl += (size_t)snprintf(r->workload + wl, wl < sizeof(r->workload) ?
				       sizeof(r->workload) - wl : 0, "%s%s", wl ? " " : "", spec);
		if (wl >= sizeof(r->workload))
			wl = sizeof(r->workload) - 1;
	}
	if (!nl)
		snprintf(r->workload, sizeof(r->workload), "no load");
	/* the one arm: its scheduler as measured, and the other settings a
	 * profile put in place (profile_settings; results written before brisk
	 * recorded it say only the scheduler) */
	char ps[FLEET_KEY_LEN], set[2 * FLEET_KEY_LEN];
	struct json_object *pso = field(root, "profile_settings");
	if (is(pso, json_type_string) && (size_t)json_object_get_string_len(pso) >= sizeof(ps))
		return bad(d, "profile_settings: longer than %zu bytes", sizeof(ps) - 1);
	int rc = copy_str(d, "profile_settings", pso, ps, sizeof(ps));
	if (rc < 0)
		return rc;
	r->set_by_profile = ps[0] != '\0';
	int mixed;
	const char *sched = machine_scheduler(&d->r->m, &mixed);
	int has_sched = strncmp(ps, "scheduler=", 10) == 0 || strstr(ps, " scheduler=");
	if (ps[0] && !has_sched && sched[0])
		snprintf(set, sizeof(set), "scheduler=%s %s", sched, ps);
	else
		snprintf(set, sizeof(set), "%s", ps);
	if (strlen(set) >= FLEET_KEY_LEN)
		return bad(d, "profile_settings: with the scheduler, longer than %d bytes",
			   FLEET_KEY_LEN - 1);
	r->n_arms = 1;
	rc = make_arm(d, ps[0] ? "profile_settings" : "machine.disks", set, &r->arms[0]);
	if (rc < 0)
		return rc;
	/* load: all loads' MiB/s in epoch 0 */
	struct json_object *ld = field(root, "loads");
	double sum = NAN;
	if (ld && !is(ld, json_type_array))
		return bad(d, "loads: expected an array");
	size_t n = ld ? json_object_array_length(ld) : 0;
	if (n > 1024)
		return bad(d, "loads: more than 1024 loads");
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(ld, i), *v = NULL;
		char w[64];
		if (!is(o, json_type_object))
			return bad(d, "loads[%zu]: expected an object", i);
		struct json_object *be = field(o, "by_epoch");
		if (be && is(be, json_type_array) && json_object_array_length(be) > 0) {
			struct json_object *e0 = json_object_array_get_idx(be, 0);
			if (is(e0, json_type_object) && is(field(e0, "epoch"), json_type_int) &&
			    json_object_get_int64(field(e0, "epoch")) == 0) {
				v = field(e0, "mib_s");
				snprintf(w, sizeof(w), "loads[%zu].by_epoch[0].mib_s", i);
			}
		}
		if (!v) {
			v = field(o, "mib_s");
			snprintf(w, sizeof(w), "loads[%zu].mib_s", i);
		}
		double x;
		if (v && is(v, json_type_null))
			v = NULL;
		if ((rc = get_num(d, w, v, 0, FLEET_MAX_MIBPS, 1, &x)) < 0)
			return rc;
		if (!isnan(x))
			sum = isnan(sum) ? x : sum + x;
	}
	r->arms[0].load_mibps = sum;
	/* what reached the disk in the loaded phase, when the run measured it
	 * and has one epoch (by_epoch[0] is the setting the file is about) */
	struct json_object *lw = field(root, "load_window");
	if (lw && is(lw, json_type_object) && n && !multi_epoch(ld)) {
		double x;
		struct json_object *dm = field(lw, "disk_mibps");
		if (dm && is(dm, json_type_null))
			dm = NULL;
		if ((rc = get_num(d, "load_window.disk_mibps", dm, 0, FLEET_MAX_MIBPS, 1, &x)) < 0)
			return rc;
		if (!isnan(x)) {
			r->arms[0].load_mibps = x;
			r->load_by_disk = 1;
		}
	}
	return read_samples(d, root, "error", run_sample);
}

/* ---- a comparison ---- */

static int read_compare(struct rd *d, struct json_object *root)
{
	struct fleet_result *r = d->r;
	int rc = copy_str(d, "workload", field(root, "workload"), r->workload, sizeof(r->workload));
	if (rc < 0)
		return rc;
	/* the words before "; actions" say the load */
	char *cut = strstr(r->workload, "; ");
	if (cut)
		*cut = '\0';
	if (strncmp(r->workload, "load ", 5) == 0)
		memmove(r->workload, r->workload + 5, strlen(r->workload + 5) + 1);
	struct json_object *arms = field(root, "arms");
	if (!is(arms, json_type_array))
		return bad(d, "arms: expected an array");
	size_t na = json_object_array_length(arms);
	if (na < 1 || na > FLEET_MAX_ARMS)
		return bad(d, "arms: %zu arms (1 to %d)", na, FLEET_MAX_ARMS);
	double disk[FLEET_MAX_ARMS];
	int by_disk = 1, any_disk = 0;
	for (size_t i = 0; i < na; i++) {
		struct json_object *o = json_object_array_get_idx(arms, i);
		char w[64], settings[FLEET_KEY_LEN];
		if (!is(o, json_type_object))
			return bad(d, "arms[%zu]: expected an object", i);
		int64_t idx;
		snprintf(w, sizeof(w), "arms[%zu].index", i);
		if ((rc = get_int(d, w, field(o, "index"), (int64_t)i, (int64_t)i, &idx)) < 0)
			return rc;
		snprintf(w, sizeof(w), "arms[%zu].settings", i);
		struct json_object *sv = field(o, "settings");
		if (!sv)
			return bad(d, "%s: missing", w);
		if ((rc = copy_str(d, w, sv, settings, sizeof(settings))) < 0)
			return rc;
		if ((rc = make_arm(d, w, settings, &r->arms[i])) < 0)
			return rc;
		if ((rc = interval_est(d, o, "load_mibps", i, &r->arms[i].load_mibps)) < 0 ||
		    (rc = interval_est(d, o, "disk_mibps", i, &disk[i])) < 0)
			return rc;
		if (!isnan(r->arms[i].load_mibps) && isnan(disk[i]))
			by_disk = 0;
		any_disk |= !isnan(disk[i]);
	}
	/* the figure the load rule goes by: what reached the disk when every
	 * arm with a load figure has it (a brisk that measured it), else the
	 * loads' own rate, the same kind for every arm of the file */
	if (by_disk && any_disk) {
		for (size_t i = 0; i < na; i++)
			r->arms[i].load_mibps = disk[i];
		r->load_by_disk = 1;
	}
	r->n_arms = na;
	return read_samples(d, root, "err", compare_sample);
}

/* ---- the bound on what one file adds ---- */

static int cmp_cell(const void *x, const void *y)
{
	const struct fleet_sample *a = x, *b = y;
	if (a->phase != b->phase)
		return (a->phase > b->phase) - (a->phase < b->phase);
	if (a->action != b->action)
		return (a->action > b->action) - (a->action < b->action);
	if (a->arm != b->arm)
		return (a->arm > b->arm) - (a->arm < b->arm);
	return (a->ms > b->ms) - (a->ms < b->ms);
}

/* Keep at most FLEET_MAX_CELL samples of each phase, action and arm,
 * chosen evenly by rank (the smallest, the largest and the ones between
 * at equal steps of rank), so that a cell's quantiles stay within
 * 1 / FLEET_MAX_CELL of rank of what the file holds.  The samples end up
 * sorted by cell and ms. */
static void bound_cells(struct fleet_result *r)
{
	struct fleet_sample *s = r->samples;
	size_t n = r->n_samples, k = 0;
	if (n <= FLEET_MAX_CELL)
		return;
	qsort(s, n, sizeof(*s), cmp_cell);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && s[j].phase == s[i].phase && s[j].action == s[i].action &&
		       s[j].arm == s[i].arm)
			j++;
		size_t m = j - i, keep = m < FLEET_MAX_CELL ? m : FLEET_MAX_CELL;
		for (size_t x = 0; x < keep; x++) {
			/* rank round(x (m - 1) / (keep - 1)); keep is m or at least 2 */
			size_t at = keep == m ? x : (x * (m - 1) + (keep - 1) / 2) / (keep - 1);
			s[k++] = s[i + at];
		}
		if (m > keep) {
			r->cut += m - keep;
			if (m > r->cut_largest)
				r->cut_largest = m;
		}
		i = j;
	}
	r->n_samples = k;
}

/* ---- the file ---- */

/* What the root says it is (0 run, 1 compare) and its version. */
static int identify(struct rd *d, struct json_object *root)
{
	struct json_object *kind = field(root, "kind");
	int k = -1;
	if (kind) {
		char s[32];
		int rc = copy_str(d, "kind", kind, s, sizeof(s));
		if (rc < 0)
			return rc;
		if (strcmp(s, "run") == 0)
			k = FLEET_RUN;
		else if (strcmp(s, "compare") == 0)
			k = FLEET_COMPARE;
		else
			return bad(d, "kind \"%s\" is not a result brisk report reads (run or compare)",
				   s);
	}
	struct json_object *fv = field(root, "format_version");
	if (fv) {
		if (!is(fv, json_type_int))
			return bad(d, "format_version: expected a whole number");
		int64_t v = json_object_get_int64(fv);
		if (v > FLEET_FORMAT_VERSION) {
			if (d->errlen)
				snprintf(d->err, d->errlen, "format_version %lld is newer than this brisk "
					 "reads (%d)", (long long)v, FLEET_FORMAT_VERSION);
			return -EPROTONOSUPPORT;
		}
		if (v < 1)
			return bad(d, "format_version %lld: expected 1 or more", (long long)v);
		d->r->version_given = 1;
	}
	/* the shape of a version-1 result */
	int run_shape = is(field(root, "brisk"), json_type_string) &&
			is(field(root, "config"), json_type_object) &&
			is(field(root, "epochs"), json_type_array) &&
			is(field(root, "samples"), json_type_array);
	int cmp_shape = (k == FLEET_COMPARE || is(field(root, "brisk_version"), json_type_string)) &&
			is(field(root, "arms"), json_type_array) &&
			is(field(root, "samples"), json_type_array);
	if (k < 0)
		k = run_shape ? FLEET_RUN : cmp_shape ? FLEET_COMPARE : -1;
	if (k < 0 || (k == FLEET_RUN && !run_shape) || (k == FLEET_COMPARE && !cmp_shape))
		return bad(d, "not a brisk run or compare result (%s)", kind ?
			   "its kind says so, but its fields do not" :
			   "no kind, and not the shape of one");
	d->r->kind = (enum fleet_kind)k;
	return 0;
}

void fleet_result_free(struct fleet_result *r)
{
	if (!r)
		return;
	free(r->samples);
	r->samples = NULL;
	r->n_samples = 0;
}

int fleet_parse(const char *data, size_t len, const char *display, struct fleet_result *out,
		char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s", display ? display : "");
	if (errlen)
		err[0] = '\0';
	struct rd d = { out, err, errlen };
	if (len > FLEET_MAX_FILE_BYTES) {
		msg_set(err, errlen, "larger than %u MiB", FLEET_MAX_FILE_BYTES >> 20);
		return -EFBIG;
	}
	size_t lead = 0;
	while (lead < len && strchr(" \t\r\n", data[lead]))
		lead++;
	if (lead == len)
		return bad(&d, "empty: no JSON in it");
	int strict = fleet_strict_json(data, len, err, errlen);
	if (strict == -ENOMEM)
		msg_set(err, errlen, "out of memory");
	if (strict < 0)
		return strict;
	struct json_tokener *tok = json_tokener_new_ex(FLEET_JSON_DEPTH);
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS |
				    JSON_TOKENER_VALIDATE_UTF8);
	struct json_object *root = json_tokener_parse_ex(tok, data, (int)len);
	enum json_tokener_error je = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	int rc = 0;
	if (!root && je == json_tokener_continue)
		rc = bad(&d, "truncated: the JSON ends early, after %zu bytes", len);
	else if (!root)
		rc = bad(&d, "not JSON: %s at byte %zu", json_tokener_error_desc(je), end);
	else {
		size_t t = end;
		while (t < len && strchr(" \t\r\n", data[t]))
			t++;
		if (t < len)
			rc = bad(&d, "not one JSON document: more after byte %zu", end);
		else if (!is(root, json_type_object))
			rc = bad(&d, "not a brisk run or compare result (not a JSON object)");
	}
	if (rc == 0)
		rc = identify(&d, root);
	if (rc == 0)
		rc = read_machine(&d, field(root, "machine"));
	if (rc == 0)
		rc = out->kind == FLEET_RUN ? read_run(&d, root) : read_compare(&d, root);
	json_object_put(root);
	if (rc == 0)
		bound_cells(out);
	if (rc == -ENOMEM)
		msg_set(err, errlen, "out of memory");
	return rc;
}

/* The file open at fd (closed here), named path in the result. */
static int read_fd(int fd, const char *path, struct fleet_result *out, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return msg_fail(-e, err, errlen, "%s", strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return msg_fail(-EINVAL, err, errlen, "not a regular file");
	}
	if ((uint64_t)st.st_size > FLEET_MAX_FILE_BYTES) {
		close(fd);
		return msg_fail(-EFBIG, err, errlen, "larger than %u MiB", FLEET_MAX_FILE_BYTES >> 20);
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *buf = malloc(cap);
	if (!buf) {
		close(fd);
		return msg_fail(-ENOMEM, err, errlen, "out of memory");
	}
	/* read to the end (the file may have grown), at most the limit */
	for (;;) {
		if (n == cap) {
			if (cap > FLEET_MAX_FILE_BYTES) {
				free(buf);
				close(fd);
				return msg_fail(-EFBIG, err, errlen, "larger than %u MiB",
						FLEET_MAX_FILE_BYTES >> 20);
			}
			size_t nc = cap * 2 > FLEET_MAX_FILE_BYTES + 1 ? FLEET_MAX_FILE_BYTES + 1 : cap * 2;
			char *b = realloc(buf, nc);
			if (!b) {
				free(buf);
				close(fd);
				return msg_fail(-ENOMEM, err, errlen, "out of memory");
			}
			buf = b;
			cap = nc;
		}
		ssize_t k = read(fd, buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;
			free(buf);
			close(fd);
			return msg_fail(-e, err, errlen, "%s", strerror(e));
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	int rc = fleet_parse(buf, n, path, out, err, errlen);
	free(buf);
	return rc;
}

int fleet_read(const char *path, struct fleet_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return msg_fail(-errno, err, errlen, "%s", strerror(errno));
	return read_fd(fd, path, out, err, errlen);
}

int fleet_readat(int dirfd, const char *name, const char *display, struct fleet_result *out,
		 char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0 && errno == ELOOP)
		return msg_fail(-ELOOP, err, errlen, "a symbolic link: not followed");
	if (fd < 0)
		return msg_fail(-errno, err, errlen, "%s", strerror(errno));
	return read_fd(fd, display, out, err, errlen);
}
