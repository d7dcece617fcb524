/* journal_restore — putting a journal's entries back (internal to
 * journal*.c; journal_restore, journal_restore_all in journal.h).
 *
 * Contract: restoring is two steps per entry, newest first.
 *  1. decide: from the entry, the journal and the device as it is now (and
 *     what the entries before it will have done: a scheduler switched back
 *     changes which iosched entries apply), the outcome -- BUSY, FAILED,
 *     VANISHED, SKIPPED, UNCHANGED or RESTORED ("to be written").  A dry
 *     run and a real restore decide with the same code; the only difference
 *     in how they get there is that the real one takes the device lock
 *     where the dry run asks who holds it.
 *  2. apply: only for RESTORED and not in a dry run: write, read back; a
 *     write the kernel refuses turns it into FAILED.
 *  Each outcome is reported once, after both steps.  What a dry run cannot
 *  know is what the kernel will accept and the values of a scheduler it
 *  would switch back to (its iosched entries are reported RESTORED "after
 *  the switch to X", or SKIPPED when they belong to yet another one).
 */
#ifndef BRISK_JOURNAL_RESTORE_H
#define BRISK_JOURNAL_RESTORE_H

#include "journal.h"
#include "journal_disk.h"

/* Restore F's entries newest first (dry_run: decide and report only).
 * Locks taken go into LT (the caller releases them).  keep[i] is set for
 * the entries that must stay in the journal (FAILED, BUSY).  Returns how
 * many could not be restored. */
int journal_restore_entries(int dfd, const char *path, const struct journal_file *f,
			    int dry_run, struct journal_locks *lt, unsigned char *keep,
			    journal_report_fn fn, void *arg);

#endif
