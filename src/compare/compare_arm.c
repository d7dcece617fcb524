#include "compare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadprio.h"
#include "msg.h"
#include "profile.h"
#include "text.h"

#define ARM_MAX_KEYS 16
#define ARM_MAX_STEPS (SETTINGS_MAX_DEVS * PROFILE_MAX_SETTINGS)

void compare_arm_free(struct compare_arm *a)
{
	free(a->steps);
	a->steps = NULL;
	a->n_steps = 0;
}

/* Append one checked step; the words of `settings` say what the arm sets
 * (once per key of a scope, whatever the number of disks; the scope's
 * steps begin at `from`, its words with `prefix`, "load:" for the load's
 * disks).  -EINVAL when dev has the key already (the same disk behind
 * DIR and a load directory), -E2BIG. */
static int add_step(struct compare_arm *a, size_t from, const char *dev,
		    const struct tunable_key *key, const char *canon, const char *prefix)
{
	for (size_t i = 0; dev && i < a->n_steps; i++)
		if (a->steps[i].dev && !strcmp(a->steps[i].dev, dev) &&
		    !strcmp(a->steps[i].key.name, key->name))
			return -EINVAL;
	if (a->n_steps == ARM_MAX_STEPS)
		return -E2BIG;
	struct settings_step *sp = &a->steps[a->n_steps++];
	sp->dev = dev;
	sp->key = *key;
	snprintf(sp->value, sizeof(sp->value), "%s", canon);
	for (size_t i = from; i + 1 < a->n_steps; i++)
		if (!strcmp(a->steps[i].key.name, key->name) && !strcmp(a->steps[i].value, canon))
			return 0;   /* said already (another disk) */
	size_t l = strlen(a->settings);
	snprintf(a->settings + l, sizeof(a->settings) - l, "%s%s%s=%s", l ? " " : "", prefix,
		 key->name, canon);
	return 0;
}

void compare_arm_session(const struct compare_arm *a, struct session_config *sc)
{
	for (size_t i = 0; a->load_ionice && i < sc->n_loads; i++) {
		sc->loads[i].ioprio_class = a->ioprio_class;
		sc->loads[i].ioprio_level = a->ioprio_level;
	}
}

/* A load.* key of an arm (loadprio): load.ionice is kept for the arm-runs'
 * loads; the io controller's keys are refused with why. */
static int parse_load_key(const char *text, const char *key, const char *val,
			  struct compare_arm *a, char *err, size_t errlen)
{
	struct loadprio lp;
	char why[400];
	int rc = loadprio_parse(key, val, &lp, why, sizeof(why));
	if (rc < 0)
		return msg_fail(rc, err, errlen, "arm '%s': %s", text, why);
	if (a->load_ionice)
		return msg_fail(-EINVAL, err, errlen, "arm '%s': %s is given twice", text, key);
	a->load_ionice = 1;
	a->ioprio_class = lp.cls;
	a->ioprio_level = lp.level;
	return 0;
}

/* The words of the arm's load.* keys, after its device settings. */
static void say_load_keys(struct compare_arm *a)
{
	if (!a->load_ionice)
		return;
	char v[16];
	load_ionice_format(a->ioprio_class, a->ioprio_level, v, sizeof(v));
	size_t l = strlen(a->settings);
	snprintf(a->settings + l, sizeof(a->settings) - l, "%sload.ionice=%s", l ? " " : "", v);
}

/* The keys of one scope (scope[i] == sc) on every disk of its set: the
 * scheduler first, a vm.* key once. */
static int plan_scope(const char *text, const struct settings *set, int sc,
		      const struct tunable_key *k, char *const *keys, char *const *vals,
		      const int *scope, size_t n, struct compare_arm *a, char *err, size_t errlen)
{
	const char *sched = NULL;
	size_t order[ARM_MAX_KEYS], no = 0, from = a->n_steps;
	for (size_t i = 0; i < n; i++)
		if (scope[i] == sc && k[i].kind == TUNABLE_SCHEDULER) {
			sched = vals[i];
			order[no++] = i;
		}
	for (size_t i = 0; i < n; i++)
		if (scope[i] == sc && k[i].kind != TUNABLE_SCHEDULER)
			order[no++] = i;
	if (no && !set->n_devs)
		return msg_fail(-EINVAL, err, errlen, "arm '%s': no disk with an I/O scheduler "
				"behind the load's directory", text);
	int vm_done = 0;
	for (size_t d = 0; no && d < set->n_devs; d++) {
		const char *dev = set->devs[d];
		for (size_t o = 0; o < no; o++) {
			size_t i = order[o];
			int sys = tunable_is_sysctl(&k[i]);
			if (sys && vm_done)
				continue;
			char canon[TUNABLE_VALUE_LEN], why[TUNABLE_WHY_LEN];
			int rc = tunable_check(sys ? NULL : dev, &k[i], vals[i],
					       k[i].kind == TUNABLE_SCHEDULER ? NULL : sched, canon,
					       sizeof(canon), why, sizeof(why));
			if (rc < 0)
				return msg_fail(rc, err, errlen, "arm '%s': %s=%s refused on %s: %s",
						text, keys[i], vals[i], sys ? "vm" : dev, why);
			rc = add_step(a, from, sys ? NULL : dev, &k[i], canon, sc ? "load:" : "");
			if (rc == -EINVAL)
				return msg_fail(rc, err, errlen, "arm '%s': %s is set on %s twice (the "
						"actions' and the load's disk)", text, k[i].name, dev);
			if (rc < 0)
				return msg_fail(rc, err, errlen, "arm '%s': too many settings", text);
		}
		vm_done = 1;
	}
	return 0;
}

/* KEY=VALUE[,KEY=VALUE...] on every disk of st (load:KEY on st->load's):
 * load.* keys (loadprio) go to the loads instead. */
static int parse_pairs(const char *text, const struct settings *st, struct compare_arm *a,
		       char *err, size_t errlen)
{
	char buf[sizeof(a->name)], *save = NULL;
	char *keys[ARM_MAX_KEYS], *vals[ARM_MAX_KEYS];
	size_t n = 0;
	snprintf(buf, sizeof(buf), "%s", text);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1])
			return msg_fail(-EINVAL, err, errlen, "arm '%s': '%s' is not KEY=VALUE "
					"(e.g. scheduler=bfq,iosched/low_latency=1)", text, tok);
		if (n == ARM_MAX_KEYS)
			return msg_fail(-EINVAL, err, errlen, "arm '%s': at most %d settings", text,
					ARM_MAX_KEYS);
		*eq = '\0';
		keys[n] = tok;
		vals[n++] = eq + 1;
	}
	if (!n)
		return msg_fail(-EINVAL, err, errlen, "arm '%s': no setting", text);
	struct tunable_key k[ARM_MAX_KEYS];
	int scope[ARM_MAX_KEYS] = { 0 };   /* 0 DIR's disks, 1 the load's, -1 a load.* key */
	for (size_t i = 0; i < n; i++) {
		char why[TUNABLE_WHY_LEN];
		if (loadprio_is_key(keys[i])) {
			int rc = parse_load_key(text, keys[i], vals[i], a, err, errlen);
			if (rc < 0)
				return rc;
			scope[i] = -1;
			continue;
		}
		const char *kt = keys[i];
		size_t pl = strlen(SETTINGS_LOAD_PREFIX);
		scope[i] = !strncmp(kt, SETTINGS_LOAD_PREFIX, pl);
		kt += scope[i] ? pl : 0;
		if (scope[i] && !st->load)
			return msg_fail(-EINVAL, err, errlen, "arm '%s': %s: no load works in a "
					"directory of its own (a load's dir=): load: names the disks "
					"of such a load", text, keys[i]);
		if (tunable_parse_key(kt, &k[i], why, sizeof(why)) < 0)
			return msg_fail(-EINVAL, err, errlen, "arm '%s': %s", text, why);
		if (scope[i] && tunable_is_sysctl(&k[i]))
			return msg_fail(-EINVAL, err, errlen, "arm '%s': %s: vm.* settings are "
					"system-wide: drop the load: prefix", text, keys[i]);
		for (size_t j = 0; j < i; j++)
			if (scope[j] == scope[i] && !strcmp(k[j].name, k[i].name))
				return msg_fail(-EINVAL, err, errlen, "arm '%s': %s is given twice",
						text, keys[i]);
	}
	for (int sc = 0; sc < 2; sc++) {
		int rc = plan_scope(text, sc ? st->load : st, sc, k, keys, vals, scope, n, a, err,
				    errlen);
		if (rc < 0)
			return rc;
	}
	say_load_keys(a);
	return 0;
}

static int parse_profile(const char *text, const struct settings *st, struct compare_arm *a,
			 char *err, size_t errlen)
{
	struct profile *p = calloc(1, sizeof(*p));
	struct settings_step *tmp = calloc(ARM_MAX_STEPS, sizeof(*tmp));
	char path[4096], e[400], note[200];
	size_t n = 0;
	int rc = p && tmp ? 0 : -ENOMEM;
	if (rc == 0 && (rc = profile_load_named(text, p, path, sizeof(path), e, sizeof(e))) < 0)
		msg_fail(rc, err, errlen, "arm '%s' is neither 'current', KEY=VALUE,... nor a "
			 "profile: %s", text, e);
	else if (rc == 0 && (rc = profile_plan_settings(p, st, tmp, ARM_MAX_STEPS, &n, note,
						       sizeof(note), e, sizeof(e))) < 0)
		msg_fail(rc, err, errlen, "arm '%s' (%s): %s", text, path, e);
	else if (rc == 0 && !n)
		rc = msg_fail(-EINVAL, err, errlen, "arm '%s' (%s): the profile sets nothing on "
			      "these disks", text, path);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = add_step(a, 0, tmp[i].dev, &tmp[i].key, tmp[i].value, "");
	if (rc == 0)
		snprintf(a->label, sizeof(a->label), "%.47s", p->name[0] ? p->name : text);
	free(tmp);
	free(p);
	return rc;
}

/* A short label: the scheduler alone ("bfq", "load:bfq" on the load's
 * disks), the load's priority alone
 * ("io=idle", "bfq io=idle" with a scheduler: the tables give a label ten
 * columns), else the settings. */
static void make_label(struct compare_arm *a)
{
	if (a->label[0])
		return;
	const char *ld = strstr(a->settings, "load.ionice=");
	const char *sp = strchr(a->settings, ' ');
	if (ld && ld == a->settings)
		snprintf(a->label, sizeof(a->label), "io=%.40s", ld + 12);
	else if (ld && sp == ld - 1 && !strncmp(a->settings, "scheduler=", 10))
		snprintf(a->label, sizeof(a->label), "%.*s io=%.20s",
			 (int)(sp - a->settings - 10 > 20 ? 20 : sp - a->settings - 10),
			 a->settings + 10, ld + 12);
	else if (a->n_steps && !strchr(a->settings, ' ') && !strncmp(a->settings, "scheduler=", 10))
		snprintf(a->label, sizeof(a->label), "%.47s", a->settings + 10);
	else if (a->n_steps && !strchr(a->settings, ' ') &&
		 !strncmp(a->settings, "load:scheduler=", 15))
		snprintf(a->label, sizeof(a->label), "load:%.42s", a->settings + 15);
	else
		snprintf(a->label, sizeof(a->label), "%.47s", a->settings);
}

static int label_clash(const struct compare_arm *arms, size_t n, size_t i)
{
	for (size_t j = 0; j < n; j++)
		if (j != i && !strncmp(arms[i].label, arms[j].label, COMPARE_LABEL_COLS))
			return 1;
	return 0;
}

void compare_arms_label_unique(struct compare_arm *arms, size_t n)
{
	unsigned char clash[COMPARE_MAX_ARMS] = { 0 };
	for (size_t i = 0; i < n && i < COMPARE_MAX_ARMS; i++)
		clash[i] = (unsigned char)label_clash(arms, n, i);
	for (size_t i = 0; i < n && i < COMPARE_MAX_ARMS; i++) {
		if (!clash[i])
			continue;
		char old[sizeof(arms[i].label)];
		memcpy(old, arms[i].label, sizeof(old));
		snprintf(arms[i].label, sizeof(arms[i].label), "%zu:%.44s", i, old);
	}
}

int compare_arm_parse(const char *text, const struct settings *st, struct compare_arm *out,
		      char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	size_t len = strlen(text);
	if (!len || len >= sizeof(out->name))
		return msg_fail(-EINVAL, err, errlen, "arm '%.60s': empty or longer than %zu bytes",
				text, sizeof(out->name) - 1);
	if (text_check(text, NULL) < 0)
		return msg_fail(-EINVAL, err, errlen, "an arm holds control bytes or invalid UTF-8");
	snprintf(out->name, sizeof(out->name), "%s", text);
	if (!strcmp(text, "current")) {
		snprintf(out->label, sizeof(out->label), "current");
		return 0;
	}
	out->steps = calloc(ARM_MAX_STEPS, sizeof(*out->steps));
	if (!out->steps)
		return -ENOMEM;
	int rc = strchr(text, '=') ? parse_pairs(text, st, out, err, errlen)
				   : parse_profile(text, st, out, err, errlen);
	if (rc < 0) {
		compare_arm_free(out);
		return rc;
	}
	make_label(out);
	return 0;
}

size_t compare_arms_schedulers(const struct settings *st, struct compare_arm *out, size_t max,
			       char *err, size_t errlen)
{
	char offered[256], active[64], detail[256];
	if (errlen)
		err[0] = '\0';
	settings_schedulers(st, offered, sizeof(offered));
	settings_scheduler(st, active, sizeof(active), detail, sizeof(detail));
	size_t n = 0;
	if (max && compare_arm_parse("current", st, &out[n], err, errlen) == 0)
		n++;
	char *save = NULL;
	for (char *w = strtok_r(offered, " ", &save); w && n < max; w = strtok_r(NULL, " ", &save)) {
		if (!strcmp(w, active))
			continue;
		char text[96];
		snprintf(text, sizeof(text), "scheduler=%s", w);
		if (compare_arm_parse(text, st, &out[n], err, errlen) == 0)
			n++;
		else
			break;
	}
	if (n == 1 && max > 1 && !err[0])
		snprintf(err, errlen, "the disks offer no scheduler but %s", active);
	return n;
}
