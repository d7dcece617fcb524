/* journal_disk — the journal's files and locks in the checked runtime
 * directory (internal to journal*.c; the public API is journal.h).
 *
 * Contract:
 *  - Every file is reached from the directory descriptor DFD with *at()
 *    calls and O_NOFOLLOW; nothing prints; 0 or -errno.
 *  - journal_disk_replace writes a whole journal to a new, locked
 *    .tmp-PID.journal, fsyncs it and renames it over NAME: a journal is
 *    only ever seen complete.
 *  - Device locks (devlock.h) are named "dev-DEV", or "sysctl-vm" for the
 *    target "-"; a session's are collected in a struct journal_locks and
 *    released together.
 */
#ifndef BRISK_JOURNAL_DISK_H
#define BRISK_JOURNAL_DISK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "journal_file.h"

#define JOURNAL_MAX_LOCKS 64

struct journal_locks {
	size_t n;
	int dfd;                   /* where the lock files are (borrowed) */
	char name[JOURNAL_MAX_LOCKS][48];
	int fd[JOURNAL_MAX_LOCKS];
};

/* fsync a directory, best effort (the entries themselves were fsync'ed). */
void journal_disk_sync_dir(int dfd);
/* The kernel's boot_id, "-" when unreadable. */
void journal_disk_boot_id(char *buf, size_t len);
/* CLOCK_BOOTTIME in ns. */
uint64_t journal_disk_boottime(void);

/* The lock file name of TARGET (a device, or "-"). */
void journal_lock_name(const char *target, char *buf, size_t len);
/* Take TARGET's lock into LT (0 if LT has it already).  -EBUSY with
 * *holder (may be NULL) the holding pid; -ENOSPC when LT is full. */
int journal_locks_get(struct journal_locks *lt, int dfd, const char *target,
		      pid_t *holder);
void journal_locks_release(struct journal_locks *lt);

/* Holder of the write lock on an open journal: 0 when none. */
pid_t journal_disk_holder(int fd);
/* Write-lock an open journal (fcntl, not waiting): 0 or -errno. */
int journal_disk_lock(int fd);
/* Write F to a locked temporary file and rename it over NAME in DFD.
 * *fd_out (when non-NULL) gets the new file, still locked, O_APPEND. */
int journal_disk_replace(int dfd, const char *name, const struct journal_file *f,
			 int *fd_out);

#endif
