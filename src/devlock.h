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
 *    opened the removed file notices and retries on the new one.  (A
 *    SIGKILLed holder leaves its file: harmless, it is reused.)
 */
#ifndef BRISK_DEVLOCK_H
#define BRISK_DEVLOCK_H

#include <sys/types.h>

int devlock_acquire(int dfd, const char *name, int *fd, pid_t *holder);
/* Who holds the lock now: 0 none (or no lock file), else the pid. */
pid_t devlock_holder(int dfd, const char *name);
void devlock_release(int dfd, const char *name, int fd);

#endif
