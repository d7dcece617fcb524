/* journal_restore — putting a journal's entries back; see journal_restore.h. */
#include "journal_restore.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "devlock.h"
#include "parse.h"
#include "sysfs.h"

static void report(journal_report_fn fn, void *arg, const struct journal_event *ev)
{
	if (fn)
		fn(ev, arg);
}

static const struct journal_entry *find_key(const struct journal_file *f,
					    const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->e[i].key, key) == 0)
			return &f->e[i];
	return NULL;
}

/* An entry that could not be restored (busy device or failure): reported,
 * and kept in the journal for a later try. */
static void keep_failed(struct journal_event *ev, enum journal_outcome outcome, int err,
			const char *note, unsigned char *keep, int *failed,
			journal_report_fn fn, void *arg)
{
	ev->outcome = outcome;
	ev->err = err;
	ev->note = note;
	*keep = 1;
	(*failed)++;
	report(fn, arg, ev);
}

/* Restore F's entries newest first.  keep[i] = 1 for those that must stay
 * in the journal.  Returns how many could not be restored. */
int journal_restore_entries(int dfd, const char *path, const struct journal_file *f,
			   int dry_run, struct journal_locks *lt, unsigned char *keep,
			   journal_report_fn fn, void *arg)
{
	int failed = 0;
	/* dry run: the scheduler each device would have by now */
	struct { char dev[32]; char sched[TUNABLE_SCHED_LEN]; } virt[JOURNAL_MAX_LOCKS];
	size_t nvirt = 0;
	for (size_t i = f->n; i-- > 0;) {
		const struct journal_entry *e = &f->e[i];
		struct journal_event ev = { .path = path, .file = f, .entry = e,
					    .dry_run = dry_run, .current = "" };
		char cur[TUNABLE_VALUE_LEN] = "", rb[TUNABLE_VALUE_LEN] = "";
		char note[TUNABLE_WHY_LEN] = "";
		struct tunable_key key;
		const char *dev = strcmp(e->target, "-") == 0 ? NULL : e->target;
		keep[i] = 0;
		if (tunable_parse_key(e->key, &key, NULL, 0) < 0) {  /* validated on load */
			keep[i] = 1;
			failed++;
			continue;
		}
		pid_t holder = 0;
		int rc = 0;
		if (dry_run) {
			char name[48];
			journal_lock_name(e->target, name, sizeof(name));
			holder = devlock_holder(dfd, name);
			if (holder && holder != getpid())
				rc = -EBUSY;
		} else {
			rc = journal_locks_get(lt, dfd, e->target, &holder);
		}
		if (rc == -EBUSY) {
			ev.holder = holder;
			keep_failed(&ev, JOURNAL_BUSY, 0, NULL, &keep[i], &failed, fn, arg);
			continue;
		}
		if (rc < 0) {
			keep_failed(&ev, JOURNAL_FAILED, rc, "cannot take the device lock", &keep[i],
				    &failed, fn, arg);
			continue;
		}
		if (dev) {
			char p[300], seq[32];
			snprintf(p, sizeof(p), "/sys/block/%s", dev);
			if (sysfs_exists(p) < 0) {
				ev.outcome = JOURNAL_VANISHED;
				ev.note = "the device is gone";
				report(fn, arg, &ev);
				continue;
			}
			if (strcmp(e->diskseq, "-") != 0 &&
			    sysfs_readf(seq, sizeof(seq), "/sys/block/%s/diskseq", dev) == 0 &&
			    strcmp(seq, e->diskseq) != 0) {
				snprintf(note, sizeof(note), "the name now belongs to another "
					 "device (diskseq %s, was %s)", seq, e->diskseq);
				ev.outcome = JOURNAL_VANISHED;
				ev.note = note;
				report(fn, arg, &ev);
				continue;
			}
		}
		if (key.kind == TUNABLE_IOSCHED) {
			char active[TUNABLE_SCHED_LEN] = "", offered[256];
			tunable_schedulers(dev, active, sizeof(active), offered, sizeof(offered));
			const char *would = NULL;
			for (size_t v = 0; v < nvirt; v++)
				if (strcmp(virt[v].dev, dev) == 0)
					would = virt[v].sched;
			if (would && strcmp(would, active) != 0) {
				/* dry run, after a scheduler switch it would make */
				if (strcmp(would, e->sched) == 0) {
					snprintf(note, sizeof(note), "after the switch to %s", would);
					ev.outcome = JOURNAL_RESTORED;
				} else {
					snprintf(note, sizeof(note), "it went with scheduler %s "
						 "(%s by then)", e->sched, would);
					ev.outcome = JOURNAL_SKIPPED;
				}
				ev.note = note;
				keep[i] = 1;
				report(fn, arg, &ev);
				continue;
			}
			if (strcmp(active, e->sched) != 0) {
				snprintf(note, sizeof(note), "it went with scheduler %s "
					 "(now %s)", e->sched, *active ? active : "none");
				ev.outcome = JOURNAL_SKIPPED;
				ev.note = note;
				report(fn, arg, &ev);
				continue;
			}
		}
		if (key.kind == TUNABLE_SYSCTL && strcmp(e->value, "0") == 0) {
			const char *partner = tunable_sysctl_partner(e->key);
			const struct journal_entry *pe = partner ? find_key(f, partner) : NULL;
			if (pe && strcmp(pe->value, "0") != 0) {
				snprintf(note, sizeof(note), "restoring %s=%s sets it",
					 pe->key, pe->value);
				ev.outcome = JOURNAL_SKIPPED;
				ev.note = note;
				report(fn, arg, &ev);
				continue;
			}
		}
		rc = tunable_read(dev, &key, cur, sizeof(cur));
		ev.current = cur;
		if (rc < 0) {
			keep_failed(&ev, JOURNAL_FAILED, rc, "cannot read the current value", &keep[i],
				    &failed, fn, arg);
			continue;
		}
		if (strcmp(cur, e->value) == 0) {
			ev.outcome = JOURNAL_UNCHANGED;
			report(fn, arg, &ev);
			continue;
		}
		/* The value came from the kernel: check its form, not brisk's
		 * ranges; a scheduler must still be offered. */
		int64_t num;
		char canon[TUNABLE_VALUE_LEN];
		if (key.kind == TUNABLE_SCHEDULER)
			rc = tunable_check(dev, &key, e->value, NULL, canon, sizeof(canon),
					   note, sizeof(note));
		else if ((rc = parse_int(e->value, INT64_MIN, INT64_MAX, &num)) < 0)
			snprintf(note, sizeof(note), "'%s' is not a number", e->value);
		if (rc < 0) {
			keep_failed(&ev, JOURNAL_FAILED, rc, note, &keep[i], &failed, fn, arg);
			continue;
		}
		if (dry_run) {
			if (key.kind == TUNABLE_SCHEDULER && nvirt < JOURNAL_MAX_LOCKS) {
				snprintf(virt[nvirt].dev, sizeof(virt[0].dev), "%s", dev);
				snprintf(virt[nvirt].sched, sizeof(virt[0].sched), "%.31s", e->value);
				nvirt++;
			}
			ev.outcome = JOURNAL_RESTORED;
			keep[i] = 1;
			report(fn, arg, &ev);
			continue;
		}
		struct tunable_result res;
		rc = tunable_apply(dev, &key, e->value, &res);
		if (rc < 0) {
			keep_failed(&ev, JOURNAL_FAILED, rc,
				    rc == -EIO ? "the scheduler did not become active" : NULL,
				    &keep[i], &failed, fn, arg);
			continue;
		}
		snprintf(rb, sizeof(rb), "%s", res.readback);
		ev.outcome = JOURNAL_RESTORED;
		ev.readback = rb;
		report(fn, arg, &ev);
	}
	return failed;
}
