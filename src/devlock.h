/* devlock — one brisk at a time changes a device.
 *
 * A lock is a POSIX record lock (fcntl F_SETLK) on DIR/NAME.lock, e.g.
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
 *  - NAME is a plain file name ([A-Za-z0-9_.:+-]); the file is opened with
 *    O_NOFOLLOW.
 *  - Closing any descriptor of a lock file drops the process's lock on it:
 *    open each lock once per process (the journal does).
 */
#ifndef BRISK_DEVLOCK_H
#define BRISK_DEVLOCK_H

#include <sys/types.h>

int devlock_acquire(const char *dir, const char *name, int *fd, pid_t *holder);
/* Who holds the lock now: 0 none (or no lock file), else the pid. */
pid_t devlock_holder(const char *dir, const char *name);
void devlock_release(int fd);

#endif
