/* rundir — the runtime directory, opened once and checked, so that root
 * never trusts a directory or file someone else can write.
 *
 * Where: $BRISK_RUNTIME_DIR when set (tests), else /run/brisk (root), else
 * $XDG_RUNTIME_DIR/brisk (rundir_path).  The lab keeps its state under
 * $BRISK_RUNTIME_DIR or /run/brisk also without root (rundir_system_path).
 *
 * Trust rules (DESIGN.md "Trust"):
 *  - The path is walked one component at a time with openat(O_NOFOLLOW):
 *    a symbolic link anywhere in it is refused.  The last component is
 *    opened O_DIRECTORY|O_NOFOLLOW and checked with fstat on that
 *    descriptor: a directory, owned by the effective uid, no group or
 *    other write bit (sticky or not).  Readable by others is allowed:
 *    /run/brisk is made 0755 so that `brisk restore` without root can list
 *    root's journals; other runtime dirs are made 0700.
 *  - RUNDIR_READ (reading only, without root): the owner may also be root.
 *  - Everything under it is then reached from that descriptor with the
 *    openat family, O_NOFOLLOW, new files O_EXCL; never by path again.
 *    Parents are not checked further: once the descriptor is open, renaming
 *    or replacing the path cannot redirect what is done through it.
 *  - A file is trusted (rundir_check_file) when it is a regular file with
 *    one link, owned like the directory (effective uid; RUNDIR_READ: or
 *    root) and not writable by group or others.
 *
 * Functions return 0 or -errno: -ENOENT (absent, and not asked to create
 * it), -EPERM (refused: why gets "PATH: what is wrong"), other -errno from
 * the system (why gets "PATH: strerror").  Nothing prints.
 */
#ifndef BRISK_RUNDIR_H
#define BRISK_RUNDIR_H

#include <stddef.h>

#define RUNDIR_SYSTEM "/run/brisk"

enum {
	RUNDIR_CREATE = 1,  /* mkdir the last component when absent */
	RUNDIR_READ = 2,    /* only reading, without root: root's is fine too */
};

/* The runtime directory's path into buf.  -ENOENT when not root and
 * neither BRISK_RUNTIME_DIR nor XDG_RUNTIME_DIR is set. */
int rundir_path(char *buf, size_t len);
/* $BRISK_RUNTIME_DIR, else /run/brisk, whoever runs. */
int rundir_system_path(char *buf, size_t len);

/* Open PATH as a checked runtime directory: *fd (O_DIRECTORY, close it).
 * RUNDIR_CREATE makes it when absent: /run/brisk 0755, anything else 0700
 * (its parents must exist). */
int rundir_open_at(const char *path, int flags, int *fd, char *why, size_t whylen);
/* rundir_path() opened with rundir_open_at(); the path into path. */
int rundir_open(int flags, int *fd, char *path, size_t pathlen, char *why, size_t whylen);

/* The subdirectory NAME of the checked directory DFD (whose path, for
 * messages, is DIRPATH), checked the same way; RUNDIR_CREATE makes it 0755. */
int rundir_subdir(int dfd, const char *dirpath, const char *name, int flags, int *fd,
		  char *why, size_t whylen);

/* Is the open file FD (shown as PATH) one to trust?  0; -EPERM with the
 * reason in why; -ENOENT when it has no link left (removed meanwhile). */
int rundir_check_file(int fd, const char *path, int flags, char *why, size_t whylen);
/* The same for the entry NAME of DFD, without opening it (no symlink
 * followed): to refuse before open() could do anything. */
int rundir_check_entry(int dfd, const char *dirpath, const char *name, int flags,
		       char *why, size_t whylen);

#endif
