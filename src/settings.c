#include "settings.h"
#include "msg.h"
#include "str.h"

#include <errno.h>
#include <string.h>


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

int settings_original(const struct settings *st, const struct tunable_key *key,
		      char *out, size_t len)
{
	if (!st->journal)
		return 0;
	const struct journal_file *f = journal_contents(st->journal);
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
	return 0;
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

int settings_apply(struct settings *st, const char *keytext, const char *value,
		   char *msg, size_t msglen, char *label, size_t labellen)
{
	struct tunable_key key;
	char why[TUNABLE_WHY_LEN] = "";
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
	int rc = tunable_parse_key(keytext, &key, why, sizeof(why));
	if (rc < 0) {
		msg_set(msg, msglen, "%s", why);
		return rc;
	}
	size_t n = tunable_is_sysctl(&key) ? 1 : st->n_devs;
	char canon[TUNABLE_VALUE_LEN] = "";
	for (size_t i = 0; i < n; i++) {
		char c[TUNABLE_VALUE_LEN];
		rc = tunable_check(st->devs[i], &key, value, NULL, c, sizeof(c), why, sizeof(why));
		if (rc < 0) {
			if (tunable_is_sysctl(&key))
				msg_set(msg, msglen, "%s=%s refused: %s", key.name, value, why);
			else
				msg_set(msg, msglen, "%s=%s refused on %s: %s (nothing changed)",
				    key.name, value, st->devs[i], why);
			return rc;
		}
		if (i == 0)
			snprintf(canon, sizeof(canon), "%s", c);
	}
	if (!st->journal) {
		rc = journal_open(st->kind, st->what, &st->journal);
		if (rc < 0) {
			st->journal = NULL;
			msg_set(msg, msglen, "cannot open the restore journal (%s): nothing changed",
			    journal_error());
			return rc;
		}
	}
	size_t o = 0, adjusted = 0;
	char done[160] = "";
	for (size_t i = 0; i < n; i++) {
		struct tunable_result res;
		pid_t holder = 0;
		memset(&res, 0, sizeof(res));
		rc = journal_set(st->journal, st->devs[i], &key, canon, &res, &holder);
		if (rc < 0 && o)
			msg_set(label, labellen, "%s=%s (partly)", key.name, canon);
		if (rc == -EBUSY) {
			msg_set(msg, msglen, "%s is being changed by another brisk (pid %d)%s%s",
			    tunable_is_sysctl(&key) ? "vm.*" : st->devs[i], (int)holder,
			    o ? "; already changed: " : "; nothing changed", done);
			return rc;
		}
		if (rc < 0) {
			msg_set(msg, msglen, "%s=%s on %s: the kernel refused: %s%s%s", key.name, canon,
			    st->devs[i], strerror(-rc), o ? "; already changed: " : "", done);
			return rc;
		}
		adjusted += res.adjusted != 0;
		if (o < sizeof(done)) {
			int w = snprintf(done + o, sizeof(done) - o, "%s%s", o ? ", " : "",
					 tunable_is_sysctl(&key) ? "system-wide" : st->devs[i]);
			o += w > 0 ? (size_t)w : 0;
		}
		if (i == n - 1 && adjusted)
			snprintf(canon, sizeof(canon), "%s", res.readback);
	}
	st->changes++;
	if (adjusted)
		msg_set(msg, msglen, "%s %s on %s (the kernel stored %s: read back)", key.name, value,
		    done, canon);
	else
		msg_set(msg, msglen, "%s %s on %s (read back)", key.name, canon, done);
	msg_set(label, labellen, "%s=%s", key.name, canon);
	return 0;
}

int settings_restore(struct settings *st, FILE *report)
{
	if (!st->journal)
		return 0;
	int rc = journal_restore(st->journal, report ? journal_report_print : NULL, report);
	journal_close(st->journal);
	st->journal = NULL;
	return rc;
}

int settings_apply_one(struct settings *st, const char *dev, const struct tunable_key *key,
		       const char *value, char *msg, size_t msglen)
{
	if (!st->root) {
		msg_set(msg, msglen, "changing settings needs root");
		return -EPERM;
	}
	int rc;
	if (!st->journal && (rc = journal_open(st->kind, st->what, &st->journal)) < 0) {
		st->journal = NULL;
		msg_set(msg, msglen, "cannot open the restore journal (%s): nothing changed",
		    journal_error());
		return rc;
	}
	const char *target = tunable_is_sysctl(key) ? NULL : dev;
	char was[TUNABLE_VALUE_LEN] = "?";
	tunable_read(target ? target : "-", key, was, sizeof(was));
	struct tunable_result res;
	pid_t holder = 0;
	memset(&res, 0, sizeof(res));
	rc = journal_set(st->journal, target, key, value, &res, &holder);
	if (rc == -EBUSY)
		msg_set(msg, msglen, "%s is being changed by another brisk (pid %d)",
		    target ? target : "vm.*", (int)holder);
	else if (rc < 0)
		msg_set(msg, msglen, "%s%s%s=%s: the kernel refused: %s", target ? target : "",
		    target ? " " : "", key->name, value, strerror(-rc));
	else
		msg_set(msg, msglen, "%s%s%s=%s (was %s)", target ? target : "", target ? " " : "",
		    key->name, res.readback[0] ? res.readback : value, was);
	if (rc == 0)
		st->changes++;
	return rc;
}
