/* settings — what a session (the dashboard, brisk run --at) changes, on
 * every leaf disk of the stack at once, through the tunables module and the
 * restore journal.
 *
 * Contract:
 *  - Nothing here touches sysfs or files itself: values are read with
 *    tunable_read()/tunable_schedulers() and changed with journal_set(),
 *    which journals the original (fsync'ed) before the write and reads
 *    back afterwards.
 *  - A change is all or nothing: the key and value are checked on every
 *    device first (tunable_check); only when all accept is anything
 *    written, through settings_transaction(), which rolls back what the
 *    change wrote when the kernel refuses part-way.
 *  - vm.* sysctls are global: written once (journal target "-").
 *  - Without root nothing is attempted: settings_apply() returns -EPERM
 *    with a message saying so.  The journal is opened on the first change
 *    only, so a session that changes nothing leaves no journal.
 *  - settings_restore() puts every journaled original back (newest first)
 *    and closes the journal; the report of what it did goes to a FILE.
 *  - Messages are one line, for the dashboard's message line.
 */
#ifndef BRISK_SETTINGS_H
#define BRISK_SETTINGS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "journal.h"
#include "tunable.h"

#define SETTINGS_MAX_DEVS 8

struct settings {
	char devs[SETTINGS_MAX_DEVS][32];   /* leaf disks with a scheduler */
	size_t n_devs;
	int root;                           /* may write */
	char what[256];                     /* command line, for the journal */
	enum journal_kind kind;             /* JOURNAL_TUI or JOURNAL_RUN */
	struct journal *journal;            /* NULL until the first change */
	unsigned changes;                   /* successful settings_apply() calls */
};

/* ---- one journaled transaction: plan -> lock all -> journal -> apply ->
 * verify -> roll back what this call changed on any failure.  `brisk set`,
 * `brisk export --apply`, a run's profile settings, `run --at` and the
 * dashboard all change settings through settings_transaction(). ---- */

/* One change of a plan, already checked (tunable_check) and canonical. */
struct settings_step {
	const char *dev;                 /* NULL: a vm.* sysctl */
	struct tunable_key key;
	char value[TUNABLE_VALUE_LEN];
};

enum settings_event_kind {
	SETTINGS_EV_LOCKED_OUT,   /* dev ("-" vm) cannot be locked: err (-EBUSY:
				   * holder is the brisk that holds it);
				   * nothing was changed */
	SETTINGS_EV_APPLIED,      /* step done: res (before, written, readback) */
	SETTINGS_EV_FAILED,       /* step refused: err (-EIO: the scheduler did
				   * not become active), res as far as known */
	SETTINGS_EV_ROLLBACK,     /* about to put back what this call changed */
	SETTINGS_EV_ROLLED_BACK,  /* done; left values could not be put back */
};

struct settings_event {
	enum settings_event_kind kind;
	const struct settings_step *step;   /* APPLIED, FAILED */
	const char *dev;                    /* LOCKED_OUT */
	const struct tunable_result *res;   /* APPLIED, FAILED */
	int err;
	pid_t holder;
	int left;                           /* ROLLED_BACK */
};

typedef void (*settings_event_fn)(const struct settings_event *ev, void *arg);

/* Apply PLAN[0..n) through journal J, all or nothing:
 *  - every device of the plan (and "-" when it has a vm.* step) is locked
 *    first; one held by another brisk: LOCKED_OUT, -EBUSY, nothing written;
 *  - each step: original journaled (fsync'ed), written, read back and
 *    verified (journal_set); APPLIED, or FAILED and the rollback:
 *  - rollback: when J held nothing before this call, journal_restore()
 *    puts back every value the call disturbed (a scheduler switch's reset
 *    ones too), one line each on REPORT (NULL: none); otherwise the steps
 *    this call applied are written back to the value each read before it,
 *    newest first (the journal keeps the session's originals for its
 *    final restore).
 * Returns 0, or the first -errno.  *applied (may be NULL): steps that
 * stay applied (0 after a rollback). */
int settings_transaction(struct journal *j, const struct settings_step *plan, size_t n,
			 settings_event_fn fn, void *arg, FILE *report, size_t *applied);

/* devs: the stack's leaf disks (those without a queue/scheduler are left
 * out, with a note in note[] when not NULL). */
void settings_init(struct settings *st, enum journal_kind kind,
		   const char *const *devs, size_t n, int root,
		   const char *what, char *note, size_t notelen);
/* Active scheduler of every device: "bfq", or "mixed" when they differ,
 * or "" when none has one.  Also fills detail ("vda bfq, vdb none"). */
void settings_scheduler(const struct settings *st, char *active, size_t alen,
			char *detail, size_t dlen);
/* Schedulers every device offers (the intersection, in the first one's
 * order), space-separated. */
void settings_schedulers(const struct settings *st, char *out, size_t len);
/* Current value of KEY: the common value, or "(differs)" ; "" when no
 * device has it.  Returns 0 or -errno from the key. */
int settings_current(const struct settings *st, const struct tunable_key *key,
		     char *out, size_t len);
/* Original (journaled) value of KEY when this session changed it: 1 and
 * the value (the first device's that differs in a "(differs)" case is
 * not attempted: the first journaled device wins); 0 when unchanged. */
int settings_original(const struct settings *st, const struct tunable_key *key,
		      char *out, size_t len);
/* Keys the editor offers: those of the first device (scheduler excluded),
 * then the vm.* sysctls.  Returns the count (<= max). */
size_t settings_keys(const struct settings *st, struct tunable_key *out, size_t max);
/* Validate and apply KEY=VALUE on every device, as one transaction.  0
 * with msg = what was done ("scheduler bfq on vda, vdb (read back)");
 * -EPERM (not root), -EINVAL/-ERANGE/-ENOENT (refused; msg says why,
 * nothing written), -EBUSY (another brisk holds a device), or the
 * kernel's -errno (what was written part-way is put back; msg says so).
 * label gets a short epoch label ("scheduler=bfq", "read_ahead_kb=512")
 * when the change was made, "KEY=VALUE (partly)" when a rollback left
 * something changed, and is "" otherwise. */
int settings_apply(struct settings *st, const char *key, const char *value,
		   char *msg, size_t msglen, char *label, size_t labellen);
/* Apply a plan of settings that differ per device (a profile's per-class
 * ones), checked already, as one transaction through the session's
 * journal (opened on first use): see settings_transaction.  -EPERM
 * without root, -errno with msg when the journal cannot be opened. */
int settings_apply_plan(struct settings *st, const struct settings_step *plan, size_t n,
			settings_event_fn fn, void *arg, FILE *report, char *msg, size_t msglen);
/* Restore everything journaled and close the journal; one line per
 * event goes to report (may be NULL).  Returns entries not restored. */
int settings_restore(struct settings *st, FILE *report);

#endif
