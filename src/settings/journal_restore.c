/* journal_restore — putting a journal's entries back: decide each entry's
 * outcome, then apply it; see journal_restore.h. */
#include "journal_restore.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "devlock.h"
#include "parse.h"
#include "sysfs.h"
#include "trace.h"
#include "tunable_bdi.h"

/* The scheduler a device has by the time an entry is reached: set when a
 * scheduler entry was restored (really, or in a dry run, decided to be). */
struct sched_view {
	size_t n;
	struct {
		char dev[32];
		char sched[TUNABLE_SCHED_LEN];
	} v[JOURNAL_MAX_LOCKS];
};

/* One entry's outcome. */
struct step {
	enum journal_outcome outcome;
	int err;
	pid_t holder;
	int attr;                        /* a lab attribute (journal_attr_key) */
	int after_switch;                /* RESTORED once a switch it would make
					  * is made (dry run): nothing to write now */
	struct tunable_key key;          /* when not attr */
	char cur[TUNABLE_VALUE_LEN];     /* value before ("" unknown) */
	char readback[TUNABLE_VALUE_LEN];
	char note[TUNABLE_WHY_LEN];
};

static const char *const outcome_names[] = {
	"restored", "unchanged", "skipped", "vanished", "failed", "busy",
	"live", "old_boot", "corrupt", "refused", "leftover",
};

const char *journal_outcome_name(enum journal_outcome o)
{
	return (size_t)o < sizeof(outcome_names) / sizeof(outcome_names[0]) ? outcome_names[o]
									     : "?";
}

static const char *view_get(const struct sched_view *sv, const char *dev)
{
	for (size_t i = 0; dev && i < sv->n; i++)
		if (strcmp(sv->v[i].dev, dev) == 0)
			return sv->v[i].sched;
	return NULL;
}

static void view_set(struct sched_view *sv, const char *dev, const char *sched)
{
	size_t i = 0;
	while (i < sv->n && strcmp(sv->v[i].dev, dev) != 0)
		i++;
	if (i == JOURNAL_MAX_LOCKS)
		return;
	if (i == sv->n)
		sv->n++;
	snprintf(sv->v[i].dev, sizeof(sv->v[i].dev), "%s", dev);
	snprintf(sv->v[i].sched, sizeof(sv->v[i].sched), "%.31s", sched);
}

static const struct journal_entry *find_key(const struct journal_file *f,
					    const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->e[i].key, key) == 0)
			return &f->e[i];
	return NULL;
}

/* The entry of KEY on TARGET, or NULL. */
static const struct journal_entry *find_entry(const struct journal_file *f,
					      const char *target, const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->e[i].key, key) == 0 && strcmp(f->e[i].target, target) == 0)
			return &f->e[i];
	return NULL;
}

static int outcome(struct step *st, enum journal_outcome o, int err, const char *note)
{
	st->outcome = o;
	st->err = err;
	if (note)
		snprintf(st->note, sizeof(st->note), "%s", note);
	return 0;
}

/* The device lock: taken for a real restore, asked about in a dry run. */
static int lock_entry(int dfd, const char *target, int dry_run, struct journal_locks *lt,
		      pid_t *holder)
{
	if (!dry_run)
		return journal_locks_get(lt, dfd, target, holder);
	char name[48];
	journal_lock_name(target, name, sizeof(name));
	*holder = devlock_holder(dfd, name);
	return *holder && *holder != getpid() ? -EBUSY : 0;
}

static int read_value(const char *dev, const struct step *st, const char *key,
		      char *buf, size_t len)
{
	if (st->attr)
		return sysfs_readf(buf, len, "/sys/block/%s/%s", dev, key);
	return tunable_read(dev, &st->key, buf, len);
}

/* Gone, or its name now another device's?  Fills the step when so. */
static int vanished(const struct journal_entry *e, struct step *st)
{
	char p[300], seq[32];
	snprintf(p, sizeof(p), "/sys/block/%s", e->target);
	if (sysfs_exists(p) < 0)
		return outcome(st, JOURNAL_VANISHED, 0, "the device is gone"), 1;
	if (strcmp(e->diskseq, "-") != 0 &&
	    sysfs_readf(seq, sizeof(seq), "/sys/block/%s/diskseq", e->target) == 0 &&
	    strcmp(seq, e->diskseq) != 0) {
		snprintf(st->note, sizeof(st->note), "the name now belongs to another "
			 "device (diskseq %s, was %s)", seq, e->diskseq);
		return outcome(st, JOURNAL_VANISHED, 0, NULL), 1;
	}
	return 0;
}

/* Nothing to write for an iosched entry of another scheduler, or a zero
 * of a sysctl pair whose partner sets it?  Fills the step when so. */
static int nothing_to_write(const struct journal_entry *e, const struct journal_file *f,
			    const struct sched_view *sv, const char *dev, struct step *st)
{
	if (!st->attr && st->key.kind == TUNABLE_IOSCHED) {
		char active[TUNABLE_SCHED_LEN] = "", offered[256];
		tunable_schedulers(dev, active, sizeof(active), offered, sizeof(offered));
		const char *would = view_get(sv, dev);
		if (would && strcmp(would, active) != 0) {
			/* dry run, after a scheduler switch it would make */
			if (strcmp(would, e->sched) == 0) {
				snprintf(st->note, sizeof(st->note), "after the switch to %s", would);
				st->after_switch = 1;
				return outcome(st, JOURNAL_RESTORED, 0, NULL), 1;
			}
			snprintf(st->note, sizeof(st->note), "it went with scheduler %s "
				 "(%s by then)", e->sched, would);
			return outcome(st, JOURNAL_SKIPPED, 0, NULL), 1;
		}
		if (strcmp(active, e->sched) != 0) {
			snprintf(st->note, sizeof(st->note), "it went with scheduler %s "
				 "(now %s)", e->sched, *active ? active : "none");
			return outcome(st, JOURNAL_SKIPPED, 0, NULL), 1;
		}
	}
	if (!st->attr && st->key.kind == TUNABLE_BDI && tunable_bdi_carrier(e->key)) {
		const struct journal_entry *ce = find_entry(f, e->target, tunable_bdi_carrier(e->key));
		if (ce) {
			snprintf(st->note, sizeof(st->note), "restoring %s=%s sets it",
				 ce->key, ce->value);
			return outcome(st, JOURNAL_SKIPPED, 0, NULL), 1;
		}
	}
	if (!st->attr && st->key.kind == TUNABLE_SYSCTL && strcmp(e->value, "0") == 0) {
		const char *partner = tunable_sysctl_partner(e->key);
		const struct journal_entry *pe = partner ? find_key(f, partner) : NULL;
		if (pe && strcmp(pe->value, "0") != 0) {
			snprintf(st->note, sizeof(st->note), "restoring %s=%s sets it",
				 pe->key, pe->value);
			return outcome(st, JOURNAL_SKIPPED, 0, NULL), 1;
		}
	}
	return 0;
}

/* Step 1: what restoring entry E will do, from the device as it is now and
 * the schedulers in SV.  Changes nothing but the device lock. */
static void decide(int dfd, const struct journal_file *f, const struct journal_entry *e,
		   const struct sched_view *sv, int dry_run, struct journal_locks *lt,
		   struct step *st)
{
	const char *dev = strcmp(e->target, "-") == 0 ? NULL : e->target;
	int rc = lock_entry(dfd, e->target, dry_run, lt, &st->holder);
	if (rc == -EBUSY) {
		outcome(st, JOURNAL_BUSY, 0, NULL);
		return;
	}
	if (rc < 0) {
		outcome(st, JOURNAL_FAILED, rc, "cannot take the device lock");
		return;
	}
	if ((dev && vanished(e, st)) || nothing_to_write(e, f, sv, dev, st))
		return;
	rc = read_value(dev, st, e->key, st->cur, sizeof(st->cur));
	if (rc < 0) {
		outcome(st, JOURNAL_FAILED, rc, "cannot read the current value");
		return;
	}
	if (strcmp(st->cur, e->value) == 0) {
		outcome(st, JOURNAL_UNCHANGED, 0, NULL);
		return;
	}
	/* The value came from the kernel: check its form, not brisk's
	 * ranges; a scheduler must still be offered. */
	int64_t num;
	char canon[TUNABLE_VALUE_LEN];
	if (!st->attr && st->key.kind == TUNABLE_SCHEDULER)
		rc = tunable_check(dev, &st->key, e->value, NULL, canon, sizeof(canon),
				   st->note, sizeof(st->note));
	else if ((rc = parse_int(e->value, INT64_MIN, INT64_MAX, &num)) < 0)
		snprintf(st->note, sizeof(st->note), "'%s' is not a number", e->value);
	if (rc == 0)
		st->note[0] = '\0';
	outcome(st, rc < 0 ? JOURNAL_FAILED : JOURNAL_RESTORED, rc, NULL);
}

/* Step 2: write what decide() found must be written; read back. */
static void apply(const struct journal_entry *e, struct step *st)
{
	const char *dev = strcmp(e->target, "-") == 0 ? NULL : e->target;
	int rc;
	if (st->attr) {
		char path[300];
		snprintf(path, sizeof(path), "/sys/block/%s/%s", dev, e->key);
		rc = sysfs_write(path, e->value);
		if (rc == 0)
			rc = sysfs_read(path, st->readback, sizeof(st->readback));
	} else {
		struct tunable_result res;
		rc = tunable_apply(dev, &st->key, e->value, &res);
		if (rc == 0)
			snprintf(st->readback, sizeof(st->readback), "%s", res.readback);
	}
	if (rc < 0)
		outcome(st, JOURNAL_FAILED, rc,
			rc == -EIO && !st->attr ? "the scheduler did not become active" : NULL);
}

int journal_restore_entries(int dfd, const char *path, const struct journal_file *f,
			    int dry_run, struct journal_locks *lt, unsigned char *keep,
			    journal_report_fn fn, void *arg)
{
	int failed = 0;
	struct sched_view sv = { 0 };
	for (size_t i = f->n; i-- > 0;) {
		const struct journal_entry *e = &f->e[i];
		struct step st = { .attr = journal_attr_key(e->key) };
		keep[i] = 0;
		if (!st.attr && tunable_parse_key(e->key, &st.key, NULL, 0) < 0) {
			keep[i] = 1;   /* validated on load: cannot happen */
			failed++;
			continue;
		}
		decide(dfd, f, e, &sv, dry_run, lt, &st);
		int write = st.outcome == JOURNAL_RESTORED && !st.after_switch;
		if (write && !dry_run)
			apply(e, &st);
		if (st.outcome == JOURNAL_RESTORED && !st.attr &&
		    st.key.kind == TUNABLE_SCHEDULER)
			view_set(&sv, e->target, e->value);
		if (st.outcome == JOURNAL_FAILED || st.outcome == JOURNAL_BUSY) {
			keep[i] = 1;
			failed++;
		}
		trace(TRACE_JOURNAL, "%s %s %s %s=%s: %s%s%s%s%s", dry_run ? "dry run" : "restore",
		      path, e->target, e->key, e->value, journal_outcome_name(st.outcome),
		      st.cur[0] ? ", was " : "", st.cur, st.note[0] ? ": " : "", st.note);
		struct journal_event ev = {
			.path = path, .file = f, .entry = e, .outcome = st.outcome,
			.current = st.cur, .readback = write && !dry_run &&
			st.outcome == JOURNAL_RESTORED ? st.readback : NULL,
			.err = st.err, .holder = st.outcome == JOURNAL_BUSY ? st.holder : 0,
			.dry_run = dry_run, .note = st.note[0] ? st.note : NULL,
		};
		if (fn)
			fn(&ev, arg);
	}
	return failed;
}
