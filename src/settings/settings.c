#include "settings.h"
#include "msg.h"
#include "str.h"
#include "tunable_bdi.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ the one transaction */

static void emit(settings_event_fn fn, void *arg, const struct settings_event *ev)
{
	if (fn)
		fn(ev, arg);
}

/* Lock every device of the plan, then "-" when it has a vm.* step. */
static int lock_plan(struct journal *j, const struct settings_step *plan, size_t n,
		     settings_event_fn fn, void *arg)
{
	int need_vm = 0;
	for (size_t i = 0; i <= n; i++) {
		const char *dev = i < n ? plan[i].dev : "-";
		if (i < n && !dev) {
			need_vm = 1;
			continue;
		}
		if (i == n && !need_vm)
			break;
		pid_t holder = 0;
		int rc = journal_lock(j, dev, &holder);
		if (rc < 0) {
			struct settings_event ev = { .kind = SETTINGS_EV_LOCKED_OUT, .dev = dev,
						     .err = rc, .holder = holder };
			emit(fn, arg, &ev);
			return rc;
		}
	}
	return 0;
}

/* What one applied step read before writing, for a rollback that does
 * not go through the journal. */
struct undo {
	char before[TUNABLE_VALUE_LEN];
	char partner[TUNABLE_VALUE_LEN];   /* vm ratio/bytes twin's value */
};

/* Write back the values steps [0, k) read before they wrote, newest
 * first.  A "0" of a ratio/bytes sysctl is put back by writing its twin
 * (the kernel refuses 0 for *_bytes and zeroes one when the other is
 * written).  Returns how many could not be put back. */
static int undo_steps(const struct settings_step *plan, const struct undo *u, size_t k)
{
	int left = 0;
	while (k-- > 0) {
		const struct settings_step *st = &plan[k];
		const char *twin = tunable_is_sysctl(&st->key) ?
				   tunable_sysctl_partner(st->key.name) : NULL;
		struct tunable_key key = st->key;
		const char *value = u[k].before;
		char why[TUNABLE_WHY_LEN];
		if (twin && strcmp(value, "0") == 0 && u[k].partner[0] &&
		    tunable_parse_key(twin, &key, why, sizeof(why)) == 0)
			value = u[k].partner;
		if (!value[0] || tunable_apply(st->dev, &key, value, NULL) < 0)
			left++;
	}
	return left;
}

/* A locked-out device: LOCKED_OUT, nothing written.  Each step APPLIED or
 * FAILED.  The rollback: when J held nothing before this call,
 * journal_restore() puts back every value the call disturbed (a scheduler
 * switch's reset ones too); otherwise the steps this call applied are
 * written back to what each read before it, newest first, and the journal
 * keeps the session's originals for its final restore. */
int settings_transaction(struct journal *j, const struct settings_step *plan, size_t n,
			 settings_event_fn fn, void *arg, FILE *report, size_t *applied)
{
	size_t done = 0;
	if (applied)
		*applied = 0;
	int rc = lock_plan(j, plan, n, fn, arg);
	if (rc < 0)
		return rc;
	int fresh = journal_contents(j)->n == 0;
	struct undo *u = calloc(n ? n : 1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	for (; done < n; done++) {
		const struct settings_step *st = &plan[done];
		const char *twin = tunable_is_sysctl(&st->key) ?
				   tunable_sysctl_partner(st->key.name) : NULL;
		struct tunable_key tk;
		char why[TUNABLE_WHY_LEN];
		if (twin && tunable_parse_key(twin, &tk, why, sizeof(why)) == 0)
			tunable_read(NULL, &tk, u[done].partner, sizeof(u[done].partner));
		struct tunable_result res;
		pid_t holder = 0;
		memset(&res, 0, sizeof(res));
		rc = journal_set(j, st->dev, &st->key, st->value, &res, &holder);
		snprintf(u[done].before, sizeof(u[done].before), "%s", res.before);
		struct settings_event ev = { .kind = rc ? SETTINGS_EV_FAILED : SETTINGS_EV_APPLIED,
					     .step = st, .res = &res, .err = rc, .holder = holder };
		emit(fn, arg, &ev);
		if (rc < 0)
			break;
	}
	if (rc == 0) {
		if (applied)
			*applied = done;
		free(u);
		return 0;
	}
	/* The failed step may have written (a scheduler that did not become
	 * active): it is put back too. */
	size_t undo_n = done + (rc == -EIO);
	if ((fresh && journal_contents(j)->n) || (!fresh && undo_n)) {
		struct settings_event ev = { .kind = SETTINGS_EV_ROLLBACK };
		emit(fn, arg, &ev);
		ev.kind = SETTINGS_EV_ROLLED_BACK;
		ev.left = fresh ? journal_restore(j, report ? journal_report_print : NULL, report)
			       : undo_steps(plan, u, undo_n);
		emit(fn, arg, &ev);
	}
	free(u);
	return rc;
}

void settings_init(struct settings *st, enum journal_kind kind,
		   const char *const *devs, size_t n, int root,
		   const char *what, char *note, size_t notelen)
{
	memset(st, 0, sizeof(*st));
	st->root = root;
	st->kind = kind;
	snprintf(st->what, sizeof(st->what), "%s", what ? what : "brisk");
	if (note && notelen)
		note[0] = '\0';
	for (size_t i = 0; i < n && st->n_devs < SETTINGS_MAX_DEVS; i++) {
		char active[TUNABLE_SCHED_LEN], offered[256];
		if (!tunable_valid_devname(devs[i]) ||
		    tunable_schedulers(devs[i], active, sizeof(active), offered,
				       sizeof(offered)) < 0) {
			if (note && notelen && !note[0])
				msg_set(note, notelen, "%s has no I/O scheduler of its own: left alone",
				    devs[i]);
			continue;
		}
		snprintf(st->devs[st->n_devs++], sizeof(st->devs[0]), "%s", devs[i]);
	}
	if (n > SETTINGS_MAX_DEVS && note && notelen && !note[0])
		msg_set(note, notelen, "%zu disks in the stack: settings apply to the first %d",
		    n, SETTINGS_MAX_DEVS);
}

void settings_attach_load(struct settings *st, struct settings *load)
{
	st->load = load;
	load->owner = st;
	load->kind = st->kind;
}

struct settings *settings_scope(struct settings *st, const char **key)
{
	size_t n = strlen(SETTINGS_LOAD_PREFIX);
	if (strncmp(*key, SETTINGS_LOAD_PREFIX, n) != 0)
		return st;
	*key += n;
	return st->load;
}

/* The journal a set writes through: its owner's for a load set. */
static struct journal **journal_ref(struct settings *st)
{
	return st->owner ? &st->owner->journal : &st->journal;
}

void settings_scheduler(const struct settings *st, char *active, size_t alen,
			char *detail, size_t dlen)
{
	size_t o = 0;
	active[0] = '\0';
	if (detail && dlen)
		detail[0] = '\0';
	for (size_t i = 0; i < st->n_devs; i++) {
		char a[TUNABLE_SCHED_LEN] = "", offered[256];
		if (tunable_schedulers(st->devs[i], a, sizeof(a), offered, sizeof(offered)) < 0)
			snprintf(a, sizeof(a), "?");
		if (i == 0)
			snprintf(active, alen, "%s", a);
		else if (strcmp(active, a) != 0)
			snprintf(active, alen, "mixed");
		if (detail && dlen && o < dlen) {
			int w = snprintf(detail + o, dlen - o, "%s%s %s", i ? ", " : "",
					 st->devs[i], a);
			o += w > 0 ? (size_t)w : 0;
		}
	}
}

void settings_schedulers(const struct settings *st, char *out, size_t len)
{
	char lists[SETTINGS_MAX_DEVS][256];
	size_t o = 0;
	out[0] = '\0';
	for (size_t i = 0; i < st->n_devs; i++) {
		char a[TUNABLE_SCHED_LEN];
		if (tunable_schedulers(st->devs[i], a, sizeof(a), lists[i], sizeof(lists[i])) < 0)
			lists[i][0] = '\0';
	}
	if (!st->n_devs)
		return;
	for (const char *p = lists[0]; *p;) {
		while (*p == ' ')
			p++;
		size_t l = strcspn(p, " ");
		if (!l)
			break;
		char w[TUNABLE_SCHED_LEN];
		snprintf(w, sizeof(w), "%.*s", (int)l, p);
		p += l;
		int all = 1;
		for (size_t i = 1; i < st->n_devs && all; i++)
			all = str_in_list(lists[i], w);
		if (all && o + l + 2 < len)
			o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", w);
	}
}

int settings_current(const struct settings *st, const struct tunable_key *key,
		     char *out, size_t len)
{
	int have = 0;
	out[0] = '\0';
	size_t n = tunable_is_sysctl(key) ? (st->n_devs ? 1 : 0) : st->n_devs;
	for (size_t i = 0; i < n; i++) {
		char v[TUNABLE_VALUE_LEN];
		if (tunable_read(st->devs[i], key, v, sizeof(v)) < 0)
			continue;
		if (!have)
			snprintf(out, len, "%s", v);
		else if (strcmp(out, v) != 0) {
			snprintf(out, len, "(differs)");
			break;
		}
		have = 1;
	}
	return 0;
}

/* A bdi view (bdi.max_ratio, bdi.max_bytes, ...) unjournaled while the
 * share that carries it is: the original as the share gives it, the %
 * exactly, the bytes as "fine N" (the limit they were of is gone). */
static int bdi_view_original(const struct settings *st, const struct tunable_key *key,
			     char *out, size_t len)
{
	const char *carrier = key->kind == TUNABLE_BDI ? tunable_bdi_carrier(key->name) : NULL;
	struct tunable_key ck;
	char v[TUNABLE_VALUE_LEN];
	if (!carrier || tunable_parse_key(carrier, &ck, NULL, 0) < 0 ||
	    !settings_original(st, &ck, v, sizeof(v)))
		return 0;
	if (strstr(key->name, "_ratio"))
		snprintf(out, len, "%lld", strtoll(v, NULL, 10) / 10000);
	else
		snprintf(out, len, "fine %s", v);
	return 1;
}

int settings_original(const struct settings *st, const struct tunable_key *key,
		      char *out, size_t len)
{
	const struct journal *j = st->owner ? st->owner->journal : st->journal;
	if (!j)
		return 0;
	const struct journal_file *f = journal_contents(j);
	const char *target = NULL;
	for (size_t i = 0; i < f->n; i++) {
		const struct journal_entry *e = &f->e[i];
		if (strcmp(e->key, key->name) != 0)
			continue;
		if (!tunable_is_sysctl(key)) {
			int ours = 0;
			for (size_t d = 0; d < st->n_devs && !ours; d++)
				ours = strcmp(st->devs[d], e->target) == 0;
			if (!ours || (target && strcmp(target, e->target) != 0))
				continue;
			target = e->target;
		}
		snprintf(out, len, "%s", e->value);
		return 1;
	}
	return bdi_view_original(st, key, out, len);
}

size_t settings_keys(const struct settings *st, struct tunable_key *out, size_t max)
{
	if (!st->n_devs)
		return 0;
	struct tunable_key all[128];
	size_t n = tunable_list(st->devs[0], 1, all, 128), k = 0;
	if (n > 128)
		n = 128;
	for (size_t i = 0; i < n && k < max; i++)
		if (all[i].kind != TUNABLE_SCHEDULER)
			out[k++] = all[i];
	return k;
}

/* What settings_apply() learns from its transaction. */
struct apply_log {
	const struct settings *st;
	char *msg;
	size_t msglen;
	char done[160];       /* "vda, vdb" or "system-wide" */
	size_t o;
	size_t adjusted;
	char stored[TUNABLE_VALUE_LEN];   /* last read-back */
	int rolled_back, left;
};

static void apply_event(const struct settings_event *ev, void *arg)
{
	struct apply_log *l = arg;
	const struct settings_step *sp = ev->step;
	switch (ev->kind) {
	case SETTINGS_EV_APPLIED:
		l->adjusted += ev->res->adjusted != 0;
		snprintf(l->stored, sizeof(l->stored), "%s", ev->res->readback);
		if (l->o < sizeof(l->done)) {
			int w = snprintf(l->done + l->o, sizeof(l->done) - l->o, "%s%s",
					 l->o ? ", " : "", sp->dev ? sp->dev : "system-wide");
			l->o += w > 0 ? (size_t)w : 0;
		}
		break;
	case SETTINGS_EV_LOCKED_OUT:
		if (ev->err == -EBUSY)
			msg_set(l->msg, l->msglen, "%s is being changed by another brisk (pid %d); "
			    "nothing changed", strcmp(ev->dev, "-") ? ev->dev : "vm.*",
			    (int)ev->holder);
		else
			msg_set(l->msg, l->msglen, "cannot lock %s: %s; nothing changed", ev->dev,
			    strerror(-ev->err));
		break;
	case SETTINGS_EV_FAILED:
		if (ev->err == -EBUSY)
			msg_set(l->msg, l->msglen, "%s is being changed by another brisk (pid %d)",
			    sp->dev ? sp->dev : "vm.*", (int)ev->holder);
		else
			msg_set(l->msg, l->msglen, "%s=%s on %s: the kernel refused: %s", sp->key.name,
			    sp->value, sp->dev ? sp->dev : "vm", strerror(-ev->err));
		break;
	case SETTINGS_EV_ROLLBACK:
		break;
	case SETTINGS_EV_ROLLED_BACK:
		l->rolled_back = 1;
		l->left = ev->left;
		break;
	}
}

/* Open the session's journal on its first change.  0 or -errno (msg). */
static int settings_journal(struct settings *st, char *msg, size_t msglen)
{
	struct journal **j = journal_ref(st);
	if (*j)
		return 0;
	int rc = journal_open(st->kind, st->owner ? st->owner->what : st->what, j);
	if (rc < 0) {
		*j = NULL;
		msg_set(msg, msglen, "cannot open the restore journal (%s): nothing changed",
		    journal_error());
	}
	return rc;
}

int settings_apply(struct settings *st, const char *keytext, const char *value,
		   char *msg, size_t msglen, char *label, size_t labellen)
{
	struct settings_step plan[SETTINGS_MAX_DEVS];
	char why[TUNABLE_WHY_LEN] = "";
	const char *scoped = keytext;
	struct settings *in = settings_scope(st, &scoped);
	if (in != st || !in) {   /* load:KEY: the load directories' disks */
		if (!in) {
			msg_set(msg, msglen, "%s: no load works on disks of its own (a load's dir= "
				"on another disk): drop the load: prefix", keytext);
			return -ENODEV;
		}
		if (!strncmp(scoped, "vm.", 3)) {
			msg_set(msg, msglen, "%s: vm.* settings are system-wide: drop the load: "
				"prefix", keytext);
			return -EINVAL;
		}
		int rc = settings_apply(in, scoped, value, msg, msglen, label, labellen);
		if (label && labellen && label[0]) {
			char l[96];
			snprintf(l, sizeof(l), "%s%s", SETTINGS_LOAD_PREFIX, label);
			msg_set(label, labellen, "%s", l);
		}
		return rc;
	}
	if (!st->root) {
		msg_set(msg, msglen, "changing settings needs root: this dashboard is read-only");
		return -EPERM;
	}
	if (!st->n_devs) {
		msg_set(msg, msglen, "no disk with an I/O scheduler behind this directory");
		return -ENODEV;
	}
	if (label && labellen)
		label[0] = '\0';
	int rc = tunable_parse_key(keytext, &plan[0].key, why, sizeof(why));
	if (rc < 0) {
		msg_set(msg, msglen, "%s", why);
		return rc;
	}
	const struct tunable_key key = plan[0].key;
	size_t n = tunable_is_sysctl(&key) ? 1 : st->n_devs;
	for (size_t i = 0; i < n; i++) {
		struct settings_step *sp = &plan[i];
		sp->key = key;
		sp->dev = tunable_is_sysctl(&key) ? NULL : st->devs[i];
		rc = tunable_check(st->devs[i], &key, value, NULL, sp->value, sizeof(sp->value),
				   why, sizeof(why));
		if (rc < 0) {
			if (tunable_is_sysctl(&key))
				msg_set(msg, msglen, "%s=%s refused: %s", key.name, value, why);
			else
				msg_set(msg, msglen, "%s=%s refused on %s: %s (nothing changed)",
				    key.name, value, st->devs[i], why);
			return rc;
		}
	}
	if ((rc = settings_journal(st, msg, msglen)) < 0)
		return rc;
	struct apply_log log = { .st = st, .msg = msg, .msglen = msglen };
	rc = settings_transaction(*journal_ref(st), plan, n, apply_event, &log, NULL, NULL);
	if (rc < 0) {
		size_t l = strlen(msg);
		if (log.rolled_back && log.left && l < msglen)
			snprintf(msg + l, msglen - l, "; %d value(s) not put back (restored at exit)",
				 log.left);
		else if (log.rolled_back && l < msglen)
			snprintf(msg + l, msglen - l, "; put back: %s", log.done);
		if (log.rolled_back && log.left)
			msg_set(label, labellen, "%s=%s (partly)", key.name, plan[0].value);
		return rc;
	}
	st->changes++;
	if (log.adjusted)
		msg_set(msg, msglen, "%s %s on %s (the kernel stored %s: read back)", key.name, value,
		    log.done, log.stored);
	else
		msg_set(msg, msglen, "%s %s on %s (read back)", key.name, plan[0].value, log.done);
	msg_set(label, labellen, "%s=%s", key.name, log.adjusted ? log.stored : plan[0].value);
	return 0;
}

int settings_apply_plan(struct settings *st, const struct settings_step *plan, size_t n,
			settings_event_fn fn, void *arg, FILE *report, char *msg, size_t msglen)
{
	if (!st->root) {
		msg_set(msg, msglen, "changing settings needs root");
		return -EPERM;
	}
	int rc = settings_journal(st, msg, msglen);
	if (rc < 0)
		return rc;
	rc = settings_transaction(*journal_ref(st), plan, n, fn, arg, report, NULL);
	if (rc == 0)
		st->changes++;
	return rc;
}

int settings_restore(struct settings *st, FILE *report)
{
	if (st->owner)
		return settings_restore(st->owner, report);
	if (!st->journal)
		return 0;
	int rc = journal_restore(st->journal, report ? journal_report_print : NULL, report);
	journal_close(st->journal);
	st->journal = NULL;
	return rc;
}
