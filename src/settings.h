/* settings — what a session (the dashboard, brisk run --at) changes, on
 * every leaf disk of the stack at once, through the tunables module and the
 * restore journal.
 *
 * Contract:
 *  - Nothing here touches sysfs or files itself: values are read with
 *    tunable_read()/tunable_schedulers() and changed with journal_set(),
 *    which journals the original (fsync'ed) before the write and reads
 *    back afterwards.
 *  - A change is all or nothing at the validation step: the key and value
 *    are checked on every device first (tunable_check); only when all
 *    accept is anything written.  A write the kernel refuses part-way is
 *    reported with the device and errno; what was written stays journaled
 *    and is restored at exit like everything else.
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
/* Validate and apply KEY=VALUE on every device.  0 with msg = what was
 * done ("scheduler bfq on vda, vdb"); -EPERM (not root), -EINVAL/-ERANGE/
 * -ENOENT (refused; msg says why, nothing written), -EBUSY (another brisk
 * holds a device), or the kernel's -errno.  label gets a short epoch label
 * ("scheduler=bfq", "read_ahead_kb=512") whenever anything was written —
 * also on a failure part-way, then marked "(partly)" — and is "" when
 * nothing was. */
int settings_apply(struct settings *st, const char *key, const char *value,
		   char *msg, size_t msglen, char *label, size_t labellen);
/* Apply KEY=VALUE (already checked with tunable_check) on one device, or
 * system-wide for a vm.* key (dev ignored), through the same journal: for
 * settings that differ per device, such as a profile's per-class ones.
 * 0 with msg "DEV KEY=VALUE (was OLD)", or -errno with msg saying why. */
int settings_apply_one(struct settings *st, const char *dev, const struct tunable_key *key,
		       const char *value, char *msg, size_t msglen);
/* Restore everything journaled and close the journal; one line per
 * event goes to report (may be NULL).  Returns entries not restored. */
int settings_restore(struct settings *st, FILE *report);

#endif
