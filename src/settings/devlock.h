/* devlock — one brisk at a time changes a device.
 *
 * A lock is a POSIX record lock (fcntl F_SETLK) on RUNTIME/NAME.lock, e.g.
 * /run/brisk/dev-sda.lock or /run/brisk/sysctl-vm.lock.  Record locks
 * belong to the process: the kernel drops them when it dies (SIGKILL
 * included), and unlike flock() they are not inherited by forked children,
 * so a load process that outlives a killed engine does not keep the
 * device locked.  The holder also writes its pid into the file; the pid
 * reported to a refused caller comes from the kernel (F_GETLK).
 *
 * Contract:
 *  - devlock_acquire(): 0 and *fd (keep it open to hold the lock);
 *    -EBUSY when another process holds it, *holder = its pid (0 if it
 *    could not be learned); other -errno from open/fcntl.  Nothing prints.
 *  - DFD is the checked runtime directory (rundir.h); NAME is a plain
 *    file name ([A-Za-z0-9_.:+-]); the file is opened from DFD with
 *    O_NOFOLLOW and must be a regular file of the effective uid, one link,
 *    not group/other-writable (else -EPERM, nothing locked).
 *  - Closing any descriptor of a lock file drops the process's lock on it:
 *    open each lock once per process (the journal does).
 *  - devlock_release() removes the file while still holding the lock, so
 *    no lock file outlives its holder's clean exit; an acquirer that
 *    opened the removed file notices and retries on the new one.  A
 *    SIGKILLed holder leaves its file (it would be reused):
 *    devlock_remove_stale() removes it at the next start.
 *  - devlock_remove_stale(): FILE ("dev-sda.lock", "sysctl-vm.lock": a
 *    lock NAME.lock of the rules above, else 0 and nothing done) in the
 *    checked runtime directory DFD (DIR, for messages) is a leftover when
 *    nobody holds a lock on it (a live session holds its devices' locks
 *    for as long as it lives).  It must pass the runtime dir's rules before
 *    it is opened (rundir_check_entry: else -EPERM, why says so, nothing
 *    touched), is locked, checked again (rundir_check_file, still the file
 *    at that name) and unlinked from DFD while locked.  1 removed (dry_run:
 *    would be), *last = the pid the holder wrote (0 unknown); 0 held,
 *    gone or not a lock file; -errno.  Call it only while this process
 *    holds no device lock (closing a lock file drops the process's lock):
 *    at start, and in `brisk restore`.
 */
#ifndef BRISK_DEVLOCK_H
#define BRISK_DEVLOCK_H

#include <stddef.h>
#include <sys/types.h>

int devlock_acquire(int dfd, const char *name, int *fd, pid_t *holder);
/* Who holds the lock now: 0 none (or no lock file), else the pid. */
pid_t devlock_holder(int dfd, const char *name);
void devlock_release(int dfd, const char *name, int fd);
int devlock_remove_stale(int dfd, const char *dir, const char *file, int dry_run,
			 pid_t *last, char *why, size_t whylen);

#endif
