/* fleet_profile — `brisk report --save-profile NAME`: the winner of each
 * disk class as one profile.  Contract in fleet.h. */
#include "fleet.h"
#include "fleet_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msg.h"
#include "profile.h"
#include "text.h"

#define COMMENT_COLS 100

/* A comment paragraph: "; " + text escaped (clean: the loader refuses a
 * control byte even in a comment), wrapped under COMMENT_COLS. */
static void comment(FILE *f, const char *text)
{
	char e[4 * 1024];
	text_escape(e, sizeof(e), text);
	text_wrap(f, "; ", ";   ", e, COMMENT_COLS);
}

struct save_head {
	const struct fleet_report *rep;
	const char *name;
	int force;
};

/* The saved profile's comment: when and from what, each group's
 * recommendation, how to install it. */
static void save_comment(FILE *f, const void *ctx)
{
	const struct save_head *h = ctx;
	const struct fleet_report *rep = h->rep;
	char b[2048], d[32];
	time_t now = time(NULL);
	struct tm tm;
	if (!gmtime_r(&now, &tm) || !strftime(d, sizeof(d), "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(d, sizeof(d), "?");
	snprintf(b, sizeof(b), "saved by brisk %s report --save-profile %s on %s from %zu "
		 "results of %zu machines (by class, seed %llu)", BRISK_VERSION, h->name, d,
		 rep->n_results, rep->n_machines, (unsigned long long)rep->opt.seed);
	comment(f, b);
	for (size_t i = 0; i < rep->n_groups; i++) {
		const struct fleet_group *g = &rep->groups[i];
		char rec[FLEET_REC_TEXT];
		fleet_recommendation_text(rec, sizeof(rec), g);
		snprintf(b, sizeof(b), "%s: %s", g->key, rec);
		comment(f, b);
		if (h->force && g->best >= 0 && g->arms[g->best].outside[0]) {
			snprintf(b, sizeof(b), "%s: saved with --force, outside the range a default may "
				 "carry: %s", g->key, g->arms[g->best].outside);
			comment(f, b);
		}
	}
	snprintf(b, sizeof(b), "to install: brisk export %s --format udev", h->name);
	comment(f, b);
}

/* The settings words of a winning arm into class cls of p. */
static int arm_settings(struct profile *p, enum profile_class cls, const struct fleet_group *g,
			const struct fleet_garm *a, char *err, size_t errlen)
{
	char buf[FLEET_KEY_LEN], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", a->key);
	size_t n = 0;
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		char e[PROFILE_ERR_LEN];
		if (!eq || eq == w || !eq[1])
			return msg_fail(-EINVAL, err, errlen, "%s: the winner %s is not a setting a "
					"profile can hold", text_show(g->key), text_show(a->key));
		*eq = '\0';
		if (profile_setting_get(p, cls, w))
			return msg_fail(-EINVAL, err, errlen, "%s: the winner %s sets %s twice (its "
					"disks differ): a profile holds one value per class",
					text_show(g->key), text_show(a->key), text_show(w));
		if (profile_set(p, cls, w, eq + 1, e, sizeof(e)) < 0)
			return msg_fail(-EINVAL, err, errlen, "%s: %s=%s cannot go into a profile: %s",
					text_show(g->key), text_show(w), text_show(eq + 1), e);
		n++;
	}
	if (!n)
		return msg_fail(-EINVAL, err, errlen, "%s: the winner %s sets nothing",
				text_show(g->key), text_show(a->key));
	return 0;
}

int fleet_save_profile(const struct fleet_report *rep, const char *name, int force,
		       char *path, size_t pathlen, char *note, size_t notelen, char *err,
		       size_t errlen)
{
	if (notelen)
		note[0] = '\0';
	if (pathlen)
		path[0] = '\0';
	if (rep->opt.by != FLEET_BY_CLASS)
		return msg_fail(-EINVAL, err, errlen, "needs the report grouped by class");
	if (!profile_name_ok(name, PROFILE_NAME_LEN))
		return msg_fail(-EINVAL, err, errlen, "bad profile name '%s': expected 1 to %d "
				"letters, digits, '-', '_' or '.', not starting with '.' or '-'",
				text_show(name), PROFILE_NAME_LEN - 1);
	struct profile *p = calloc(1, sizeof(*p));
	if (!p)
		return msg_fail(-ENOMEM, err, errlen, "out of memory");
	profile_init(p, name);
	size_t winners = 0, machines = 0;
	int rc = 0;
	struct profile *scratch = calloc(1, sizeof(*scratch));
	if (!scratch)
		rc = msg_fail(-ENOMEM, err, errlen, "out of memory");
	for (size_t i = 0; rc == 0 && i < rep->n_groups; i++) {
		const struct fleet_group *g = &rep->groups[i];
		enum profile_class cls;
		if (profile_class_parse(g->key, &cls) < 0 || cls == PROFILE_CLASS_ALL) {
			fleet_appendf(note, notelen, "%s%s: no profile class (profiles have "
				"rotational, ssd, nvme and mmc; %s)", note[0] ? "; " : "", g->key,
				strcmp(g->key, "usb") == 0 ? "a USB disk matches the rotational or ssd "
				"rules by its queue/rotational" :
				strcmp(g->key, "virtual") == 0 ? "a virtual disk matches the rotational "
				"or ssd rules by the queue/rotational its hypervisor gives it" :
				"left out");
			continue;
		}
		if (g->best < 0) {
			fleet_appendf(note, notelen, "%s%s: no recommendation, left out",
				note[0] ? "; " : "", g->key);
			continue;
		}
		const struct fleet_garm *a = &g->arms[g->best];
		if (a->outside[0] && !force) {
			fleet_appendf(note, notelen, "%s%s: %s has %s, outside the range a "
				"distribution default may carry (within the kernel's, absurd for a fleet): "
				"not saved; --force saves it anyway", note[0] ? "; " : "", g->key,
				a->key, a->outside);
			continue;
		}
		/* into a scratch profile first: a class whose winner a class rule
		 * cannot hold is left out, the others saved */
		char why[512];
		profile_init(scratch, name);
		if (arm_settings(scratch, cls, g, a, why, sizeof(why)) < 0) {
			fleet_appendf(note, notelen, "%s%s (not saved)", note[0] ? "; " : "", why);
			continue;
		}
		rc = arm_settings(p, cls, g, a, err, errlen);
		winners++;
		machines += g->n_machines;
	}
	free(scratch);
	if (rc == 0 && !winners)
		rc = msg_fail(-ENODATA, err, errlen, "nothing to save as %s: no disk class has a "
			      "recommended setting a class rule can hold", name);
	if (rc == 0)
		rc = profile_user_path(name, force, path, pathlen, err, errlen);
	if (rc == 0) {
		snprintf(p->description, sizeof(p->description),
			 "the winners per disk class of brisk report (%zu machines)", machines);
		struct save_head h = { rep, name, force };
		rc = profile_save_checked(p, path, force, save_comment, &h, err, errlen);
	}
	free(p);
	return rc;
}
