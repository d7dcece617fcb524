/* journal_stale — journals left behind by sessions that are gone: the
 * public functions are journal_restore_all, journal_recover_stale and
 * journal_forget in journal.h (their contracts are there).
 *
 * Contract of this internal header: what journal_stale.c needs from the
 * session side (journal.c).
 */
#ifndef BRISK_JOURNAL_STALE_H
#define BRISK_JOURNAL_STALE_H

/* Is NAME in the directory DFD the journal of a session this process has
 * open?  (Those are never handled as left behind.) */
int journal_is_own(int dfd, const char *name);

#endif
