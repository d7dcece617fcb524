/* journal_disk — the journal's files and locks in the runtime directory;
 * see journal_disk.h. */
#include "journal_disk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "devlock.h"
#include "fileio.h"
#include "sysfs.h"

void journal_disk_sync_dir(int dfd)
{
	if (fsync(dfd) < 0) {
		/* best effort: the entries themselves were fsync'ed */
	}
}

void journal_disk_boot_id(char *buf, size_t len)
{
	if (sysfs_read("/proc/sys/kernel/random/boot_id", buf, len) < 0)
		snprintf(buf, len, "-");
}

uint64_t journal_disk_boottime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void journal_lock_name(const char *target, char *buf, size_t len)
{
	if (strcmp(target, "-") == 0)
		snprintf(buf, len, "sysctl-vm");
	else
		snprintf(buf, len, "dev-%.32s", target);
}

int journal_locks_get(struct journal_locks *lt, int dfd, const char *target,
		       pid_t *holder)
{
	char name[48];
	journal_lock_name(target, name, sizeof(name));
	for (size_t i = 0; i < lt->n; i++)
		if (strcmp(lt->name[i], name) == 0)
			return 0;
	if (lt->n == JOURNAL_MAX_LOCKS)
		return -ENOSPC;
	int fd;
	int rc = devlock_acquire(dfd, name, &fd, holder);
	if (rc < 0)
		return rc;
	lt->dfd = dfd;
	snprintf(lt->name[lt->n], sizeof(lt->name[0]), "%s", name);
	lt->fd[lt->n++] = fd;
	return 0;
}

void journal_locks_release(struct journal_locks *lt)
{
	for (size_t i = 0; i < lt->n; i++)
		devlock_release(lt->dfd, lt->name[i], lt->fd[i]);
	lt->n = 0;
}

/* Holder of the write lock on an open journal: 0 when none. */
pid_t journal_disk_holder(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(fd, F_GETLK, &fl) < 0 || fl.l_type == F_UNLCK)
		return 0;
	return fl.l_pid;
}

int journal_disk_lock(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	return fcntl(fd, F_SETLK, &fl) < 0 ? -errno : 0;
}

/* Write F to a locked temporary file (.tmp-PID.journal) and rename it over
 * NAME in DFD.  *fd_out (when non-NULL) gets the new file, still locked,
 * opened O_APPEND. */
int journal_disk_replace(int dfd, const char *name, const struct journal_file *f,
			int *fd_out)
{
	char tmp[64], *text;
	snprintf(tmp, sizeof(tmp), ".tmp-%ld.journal", (long)getpid());
	int rc = journal_format(f, &text);
	if (rc < 0)
		return rc;
	unlinkat(dfd, tmp, 0);
	int fd = openat(dfd, tmp, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0644);
	if (fd < 0) {
		rc = -errno;
		free(text);
		return rc;
	}
	rc = journal_disk_lock(fd);
	if (rc == 0)
		rc = fileio_write_all(fd, text, strlen(text));
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (rc == 0 && renameat(dfd, tmp, dfd, name) < 0)
		rc = -errno;
	free(text);
	if (rc < 0) {
		unlinkat(dfd, tmp, 0);
		close(fd);
		return rc;
	}
	journal_disk_sync_dir(dfd);
	if (fd_out)
		*fd_out = fd;
	else
		close(fd);
	return 0;
}
