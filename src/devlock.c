#include "devlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tunable.h"

static int lock_path(const char *dir, const char *name, char *path, size_t len)
{
	if (!tunable_valid_devname(name) && !(strncmp(name, "dev-", 4) == 0 &&
					      tunable_valid_devname(name + 4)))
		return -EINVAL;
	int n = snprintf(path, len, "%s/%s.lock", dir, name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

static pid_t who(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(fd, F_GETLK, &fl) < 0 || fl.l_type == F_UNLCK)
		return 0;
	return fl.l_pid;
}

int devlock_acquire(const char *dir, const char *name, int *fd, pid_t *holder)
{
	char path[4096];
	int rc = lock_path(dir, name, path, sizeof(path));
	if (rc < 0)
		return rc;
	if (holder)
		*holder = 0;
	int f = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (f < 0)
		return -errno;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(f, F_SETLK, &fl) < 0) {
		rc = -errno;
		if (rc == -EAGAIN || rc == -EACCES) {
			rc = -EBUSY;
			if (holder)
				*holder = who(f);
		}
		close(f);
		return rc;
	}
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(f, 0) == 0 && pwrite(f, buf, (size_t)n, 0) != n) {
		/* the pid in the file is for people; the lock itself holds */
	}
	*fd = f;
	return 0;
}

pid_t devlock_holder(const char *dir, const char *name)
{
	char path[4096];
	if (lock_path(dir, name, path, sizeof(path)) < 0)
		return 0;
	int f = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (f < 0)
		return 0;
	pid_t p = who(f);
	close(f);
	return p;
}

void devlock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
