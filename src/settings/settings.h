/* settings — changing settings on every leaf disk of a stack at once, as
 * one journaled transaction: plan -> lock all -> journal -> apply -> verify
 * -> roll back what this call changed on any failure.  `brisk set`, `brisk
 * export --apply`, a run's profile [settings], `run --at` and the dashboard
 * all change settings through settings_transaction(); the dashboard and
 * --at through struct settings (its devices, its journal, opened on the
 * first change only).  Nothing here touches sysfs itself: values are read
 * with tunable.h and written with journal_set() (original journaled and
 * fsync'ed first, read back after).  vm.* sysctls are global, written once
 * (journal target "-").  Messages are one line, for the dashboard.  What
 * users see of it: brisk-set(1), THE RESTORE JOURNAL.
 */
#ifndef BRISK_SETTINGS_H
#define BRISK_SETTINGS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "journal.h"
#include "tunable.h"

#define SETTINGS_MAX_DEVS 8

/* A session's settings: its disks and its journal. */
struct settings {
	char devs[SETTINGS_MAX_DEVS][32];   /* leaf disks with a scheduler */
	size_t n_devs;
	int root;                           /* may write */
	char what[256];                     /* command line, for the journal */
	enum journal_kind kind;             /* JOURNAL_TUI or JOURNAL_RUN */
	struct journal *journal;            /* NULL until the first change */
	unsigned changes;                   /* successful settings_apply() calls */
	struct settings *load;              /* the load directories' disks (load:
					     * keys), NULL: the loads are on these */
	struct settings *owner;             /* a load set: whose journal it uses */
};

#define SETTINGS_LOAD_PREFIX "load:"        /* a key of the load's disks */

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

/* Told of each lock, step and rollback of a transaction. */
typedef void (*settings_event_fn)(const struct settings_event *ev, void *arg);

/* Apply PLAN[0..n) through journal J, all or nothing: every device locked
 * first (-EBUSY, nothing written), each step journaled, written, verified;
 * on a failure what this call changed is put back (lines on REPORT, may be
 * NULL).  0 or the first -errno; *applied (may be NULL): steps that stay. */
int settings_transaction(struct journal *j, const struct settings_step *plan, size_t n,
			 settings_event_fn fn, void *arg, FILE *report, size_t *applied);

/* A session's settings on the stack's leaf disks devs (those without a
 * queue/scheduler are left out, with a note in note[] when not NULL). */
void settings_init(struct settings *st, enum journal_kind kind,
		   const char *const *devs, size_t n, int root,
		   const char *what, char *note, size_t notelen);
/* Make LOAD (settings_init'ed on the load directories' leaf disks) the
 * set that "load:KEY" changes: through st's journal, restored with st. */
void settings_attach_load(struct settings *st, struct settings *load);
/* The set a key text names: st->load for "load:KEY" (NULL when no load
 * directory has disks of its own), else st; *key skips the prefix. */
struct settings *settings_scope(struct settings *st, const char **key);
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
 * not attempted: the first journaled device wins); 0 when unchanged.  A
 * bdi view of a journaled share (tunable_bdi.h) gives the share's: the %
 * for a ratio, "fine N" for bytes. */
int settings_original(const struct settings *st, const struct tunable_key *key,
		      char *out, size_t len);
/* Keys the editor offers: those of the first device (scheduler excluded),
 * then the vm.* sysctls.  Returns the count (<= max). */
size_t settings_keys(const struct settings *st, struct tunable_key *out, size_t max);
/* Check KEY=VALUE on every device, then apply it as one transaction
 * (load:KEY: on st->load's, -ENODEV without one; a vm.* key refused).  0,
 * -EPERM (not root), -EINVAL/-ERANGE/-ENOENT (refused, nothing written),
 * -EBUSY, or the kernel's -errno (rolled back); msg says what was done.
 * label: "KEY=VALUE" for an epoch, "... (partly)" after a partial rollback,
 * "" when nothing changed. */
int settings_apply(struct settings *st, const char *key, const char *value,
		   char *msg, size_t msglen, char *label, size_t labellen);
/* Apply a checked plan that differs per device (a profile's per-class
 * settings) as settings_transaction() through the session's journal.
 * -EPERM without root, -errno with msg when the journal cannot be opened. */
int settings_apply_plan(struct settings *st, const struct settings_step *plan, size_t n,
			settings_event_fn fn, void *arg, FILE *report, char *msg, size_t msglen);
/* Restore everything journaled and close the journal; one line per
 * event goes to report (may be NULL).  Returns entries not restored. */
int settings_restore(struct settings *st, FILE *report);

#endif
