/* profile_run — the glue to the engine: a profile (or a fio job fiojob
 * made one) as a session_config (profile_to_session_config()), and its
 * [settings] as a plan (profile_plan_settings()).  Contract in profile.h.
 * Reading the command line (--profile, --fio, --scale) is src/cmd's
 * (cliopt_profile()). */
#include "profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockdev.h"
#include "devclass.h"
#include "msg.h"
#include "session.h"
#include "settings.h"
#include "str.h"

/* What the actions ask for, per type. */
struct schedule {
	const struct profile_action *first[ACTION_KIND_COUNT];
	unsigned count[ACTION_KIND_COUNT], samples[ACTION_KIND_COUNT];
	uint64_t dmin[ACTION_KIND_COUNT], dmax[ACTION_KIND_COUNT];
	uint64_t interval;
	int any_delay, any_loops, intervals_differ;
};

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

/* One configuration per action type; counts, loops, delays, intervals. */
static int scan_actions(const struct profile *p, const char *display, struct schedule *sc,
			char *err, size_t errlen)
{
	memset(sc, 0, sizeof(*sc));
	for (size_t i = 0; i < p->n_actions; i++) {
		const struct profile_action *a = &p->actions[i];
		if ((unsigned)a->kind >= ACTION_KIND_COUNT)
			return msg_fail(-EINVAL, err, errlen, "%s:%d: bad action type", display, a->line);
		if (!sc->first[a->kind]) {
			sc->first[a->kind] = a;
			sc->dmin[a->kind] = sc->dmax[a->kind] = a->startdelay_ns;
		} else if (!same_action_cfg(sc->first[a->kind], a)) {
			return msg_fail(-EINVAL, err, errlen, "%s:%d: [action %s] is configured unlike [action %s] "
				    "(line %d); brisk run takes one configuration per action type, "
				    "expected the same cmd, nrfiles or sizes", display, a->line,
				    a->name, sc->first[a->kind]->name, sc->first[a->kind]->line);
		}
		sc->count[a->kind]++;
		sc->samples[a->kind] += a->loops;
		sc->any_loops |= a->loops != 0;
		sc->any_delay |= a->startdelay_ns != 0;
		if (a->startdelay_ns < sc->dmin[a->kind])
			sc->dmin[a->kind] = a->startdelay_ns;
		if (a->startdelay_ns > sc->dmax[a->kind])
			sc->dmax[a->kind] = a->startdelay_ns;
		if (a->interval_ns) {
			if (sc->interval && a->interval_ns != sc->interval)
				sc->intervals_differ = 1;
			if (!sc->interval || a->interval_ns < sc->interval)
				sc->interval = a->interval_ns;
		}
	}
	return 0;
}

/* Loads, the action mask and the one action_config. */
static void apply_workload(const struct profile *p, const struct schedule *sc,
			   struct session_config *c)
{
	if (p->n_loads || p->n_actions) {
		c->n_loads = p->n_loads;
		for (size_t i = 0; i < p->n_loads; i++)
			c->loads[i] = p->loads[i].spec;
	}
	if (!p->n_actions)
		return;
	c->actions = 0;
	action_config_default(&c->action);
	for (int k = 0; k < ACTION_KIND_COUNT; k++) {
		const struct profile_action *a = sc->first[k];
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

/* Start delays: the type with the most actions sets the pace, its samples
 * spread evenly over the span of its delays.  Returns 1 when that made a
 * schedule; notes go to note at *o. */
static int spread_delays(const struct schedule *sc, struct session_config *c, char *note,
			 size_t notelen, size_t *o)
{
	int k = 0;
	for (int i = 1; i < ACTION_KIND_COUNT; i++)
		if (sc->count[i] > sc->count[k])
			k = i;
	unsigned n = sc->samples[k] ? sc->samples[k] : sc->count[k];
	uint64_t span = sc->dmax[k] - sc->dmin[k];
	if (n > 1 && span) {
		c->interval_ns = span / (n - 1);
		c->jitter_pct = 0;
		if (c->loaded_max_ns && c->loaded_max_ns < sc->dmax[k] + c->interval_ns)
			c->loaded_max_ns = 0;   /* the samples decide when it ends */
		if (note && *o < notelen)
			*o += (size_t)snprintf(note + *o, notelen - *o, "startdelay schedule "
					       "approximated: %u %s samples every %.3gs, "
					       "one at a time (concurrency = N in [profile] "
					       "gives each its own start time). ",
					       n, action_kind_name((enum action_kind)k),
					       (double)c->interval_ns / 1e9);
		return 1;
	}
	if (note && *o < notelen)
		*o += (size_t)snprintf(note + *o, notelen - *o, "startdelay ignored: sampling "
				       "starts with the loaded phase. ");
	return 0;
}

/* Concurrent samples: every action's own start time (its startdelay after
 * the loaded phase begins), its further loops chained one after another,
 * up to the cap in flight.  0, or -EINVAL (too many samples). */
static int concurrent_schedule(const struct profile *p, const char *display,
			       struct session_config *c, char *err, size_t errlen)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n_actions; i++) {
		const struct profile_action *a = &p->actions[i];
		unsigned loops = a->loops ? a->loops : 1;
		for (unsigned k = 0; k < loops; k++) {
			if (n == SESSION_MAX_STARTS)
				return msg_fail(-EINVAL, err, errlen, "%s:%d: more than %d samples in the "
						"schedule (actions times loops), expected fewer", display,
						a->line, SESSION_MAX_STARTS);
			c->starts[n] = (struct session_start){
				.t_ns = a->startdelay_ns, .gap_ns = k ? a->interval_ns : 0,
				.after = (int16_t)(k ? (int)n - 1 : -1), .action = (uint8_t)a->kind,
			};
			n++;
		}
	}
	c->n_starts = n;
	c->concurrency = p->concurrency;
	c->jitter_pct = 0;
	c->loaded_max_ns = p->runtime_ns;   /* the schedule decides, or runtime */
	return 0;
}

/* loops, interval, startdelays, runtime and ramp_time; 1 when any is given. */
static int apply_schedule(const struct profile *p, const struct schedule *sc,
			  struct session_config *c, char *note, size_t notelen, size_t *o)
{
	int scheduled = 0;
	if (sc->any_loops) {
		unsigned most = 0;
		for (int k = 0; k < ACTION_KIND_COUNT; k++)
			if (sc->samples[k] > most)
				most = sc->samples[k];
		c->loaded_samples = most;
		scheduled = 1;
	}
	if (sc->interval) {
		c->interval_ns = sc->interval;
		scheduled = 1;
		if (sc->intervals_differ && note && *o < notelen)
			*o += (size_t)snprintf(note + *o, notelen - *o, "actions have different "
					       "intervals; all use the smallest, %.3gs. ",
					       (double)sc->interval / 1e9);
	}
	if (sc->any_delay && spread_delays(sc, c, note, notelen, o))
		scheduled = 1;
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
	return scheduled;
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
	struct schedule sc;
	int rc = scan_actions(p, display, &sc, err, errlen);
	if (rc < 0)
		return rc;
	apply_workload(p, &sc, c);
	size_t o = 0;
	c->load_finite = p->finite_load;
	if (p->concurrency > 1 && p->n_actions) {
		if ((rc = concurrent_schedule(p, display, c, err, errlen)) < 0)
			return rc;
		if (p->ramp_time_ns) {
			c->warmup_max_ns = p->ramp_time_ns;
			if (c->warmup_min_ns > c->warmup_max_ns)
				c->warmup_min_ns = c->warmup_max_ns;
		}
		c->max_time_ns = 0;
	} else if (apply_schedule(p, &sc, c, note, notelen, &o)) {
		c->max_time_ns = 0;
	}
	if (p->directory[0]) {
		if (strlen(p->directory) >= sizeof(c->dir))
			return msg_fail(-EINVAL, err, errlen, "%s: directory too long", display);
		str_copy(c->dir, sizeof(c->dir), p->directory);
	}
	if (note && o > 0 && o < notelen && note[o - 1] == ' ')
		note[o - 1] = '\0';
	return 0;
}

int profile_plan_settings(const struct profile *p, const struct settings *st,
			 struct settings_step *out, size_t max, size_t *n,
			 char *note, size_t notelen, char *err, size_t errlen)
{
	struct blockdev *bd = calloc(1, sizeof(*bd));
	if (!bd)
		return -ENOMEM;
	int vm_done = 0, rc = 0;
	*n = 0;
	if (note && notelen)
		note[0] = '\0';
	for (size_t d = 0; d < st->n_devs && rc == 0; d++) {
		const char *dev = st->devs[d];
		if (blockdev_probe(dev, bd) < 0)
			continue;
		const struct profile_setting *s[PROFILE_MAX_SETTINGS];
		size_t k = profile_effective(p, devclass_of(bd), s, PROFILE_MAX_SETTINGS);
		char after[TUNABLE_SCHED_LEN] = "";
		for (size_t i = 0; i < k && i < PROFILE_MAX_SETTINGS && rc == 0; i++) {
			struct tunable_key key;
			char why[TUNABLE_WHY_LEN], canon[TUNABLE_VALUE_LEN];
			if (tunable_parse_key(s[i]->key, &key, why, sizeof(why)) < 0) {
				rc = msg_fail(-EINVAL, err, errlen, "line %d: %s", s[i]->line, why);
				break;
			}
			int sys = tunable_is_sysctl(&key);
			if (sys && vm_done)
				continue;
			int e = tunable_check(sys ? NULL : dev, &key, s[i]->value,
					      after[0] ? after : NULL, canon, sizeof(canon), why,
					      sizeof(why));
			if (e == -ENOENT && key.kind != TUNABLE_SCHEDULER) {
				if (note && notelen)
					snprintf(note, notelen, "setting %s is not on %s: skipped",
						 s[i]->key, dev);
				continue;
			}
			if (e < 0) {
				rc = msg_fail(e, err, errlen, "line %d: %s=%s refused on %s: %s",
					      s[i]->line, s[i]->key, s[i]->value, sys ? "vm" : dev, why);
				break;
			}
			if (*n == max) {
				rc = msg_fail(-E2BIG, err, errlen, "more than %zu settings", max);
				break;
			}
			if (key.kind == TUNABLE_SCHEDULER)
				snprintf(after, sizeof(after), "%.31s", canon);
			out[*n].dev = sys ? NULL : dev;
			out[*n].key = key;
			snprintf(out[*n].value, sizeof(out[*n].value), "%s", canon);
			(*n)++;
		}
		vm_done = 1;
	}
	free(bd);
	return rc;
}
