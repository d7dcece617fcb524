#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define NOBODY_ID 65534

/* In the child: fd at target (close-on-exec) from a copy above every
 * target.  0 or -1. */
static int child_place(int copy, int target)
{
	return copy < 0 || dup2(copy, target) < 0 || fcntl(target, F_SETFD, FD_CLOEXEC) < 0 ? -1 : 0;
}

int child_fork2(pid_t *pid, int *rfd, int dirfd, int dir2fd)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid_t parent = getpid();
	pid_t c = fork();
	if (c < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (c == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		setpgid(0, 0);
		/* copies above every target first: dirfd may be 3, 4 or 5 itself */
		int dd = dirfd >= 0 ? fcntl(dirfd, F_DUPFD_CLOEXEC, CHILD_DIR2_FD + 1) : -1;
		int d2 = dir2fd >= 0 ? fcntl(dir2fd, F_DUPFD_CLOEXEC, CHILD_DIR2_FD + 1) : -1;
		int pw = fcntl(p[1], F_DUPFD_CLOEXEC, CHILD_DIR2_FD + 1);
		if ((dirfd >= 0 && dd < 0) || (dir2fd >= 0 && d2 < 0) ||
		    child_place(pw, CHILD_RESULT_FD) < 0 ||
		    (dd >= 0 && child_place(dd, CHILD_DIR_FD) < 0) ||
		    (d2 >= 0 && child_place(d2, CHILD_DIR2_FD) < 0))
			_exit(1);
		close_range(d2 >= 0 ? CHILD_DIR2_FD + 1 : dd >= 0 ? CHILD_DIR_FD + 1 :
			    CHILD_RESULT_FD + 1, ~0u, 0);
		return 0;
	}
	/* Also from the parent, so kill(-pid) works even before the child ran
	 * setpgid (EACCES once it has exec'ed is harmless). */
	setpgid(c, c);
	close(p[1]);
	*pid = c;
	*rfd = p[0];
	return 1;
}

int child_fork(pid_t *pid, int *rfd, int dirfd)
{
	return child_fork2(pid, rfd, dirfd, -1);
}

void child_unblock_signals(void)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

long child_env_id(const char *name)
{
	const char *v = getenv(name);
	char *end;
	if (!v || *v < '0' || *v > '9')
		return -1;
	errno = 0;
	unsigned long u = strtoul(v, &end, 10);
	return errno || *end || u >= (uid_t)-1 || u > (unsigned long)INT32_MAX ? -1 : (long)u;
}

void child_cred_resolve(struct child_cred *c)
{
	*c = (struct child_cred){ .uid = geteuid(), .gid = getegid() };
	if (c->uid == 0) {
		long u = child_env_id("SUDO_UID"), g = child_env_id("SUDO_GID");
		c->drop = 1;
		if (u > 0 && g > 0) {
			c->uid = (uid_t)u;
			c->gid = (gid_t)g;
		} else {
			const struct passwd *pw = getpwnam("nobody");
			int ok = pw && pw->pw_uid != 0 && pw->pw_gid != 0;
			c->uid = ok ? pw->pw_uid : NOBODY_ID;
			c->gid = ok ? pw->pw_gid : NOBODY_ID;
		}
	}
	const struct passwd *pw = getpwuid(c->uid);
	if (pw && pw->pw_name)
		snprintf(c->user, sizeof(c->user), "%s", pw->pw_name);
}

/* No capability in any set: the ambient ones cleared, the rest set empty
 * (always allowed) and read back.  0 or -errno. */
static int caps_none(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = { { 0, 0, 0 } };
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return -errno;
	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (d[i].effective || d[i].permitted || d[i].inheritable) {
			struct __user_cap_data_struct z[_LINUX_CAPABILITY_U32S_3] = { { 0, 0, 0 } };
			if (syscall(SYS_capset, &h, z) < 0 || syscall(SYS_capget, &h, d) < 0)
				return -errno;
			break;
		}
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (d[i].effective || d[i].permitted || d[i].inheritable)
			return -EPERM;
	return 0;
}

int child_drop(const struct child_cred *c)
{
	pid_t parent = getppid();
	if (c->drop) {
		if (c->uid == 0 || c->gid == 0)
			return -EINVAL;
		if (setgroups(0, NULL) < 0 || setresgid(c->gid, c->gid, c->gid) < 0 ||
		    setresuid(c->uid, c->uid, c->uid) < 0)
			return -errno;
		/* root must be out of reach now, whatever securebits said */
		if (setresuid(0, 0, 0) == 0 || setresgid(0, 0, 0) == 0 || setgroups(0, NULL) == 0)
			return -EPERM;
	}
	uid_t r, e, s;
	gid_t rg, eg, sg;
	if (getresuid(&r, &e, &s) < 0 || getresgid(&rg, &eg, &sg) < 0)
		return -errno;
	if (c->drop && (r != c->uid || e != c->uid || s != c->uid || rg != c->gid ||
			eg != c->gid || sg != c->gid || getgroups(0, NULL) != 0))
		return -EPERM;
	int rc = caps_none();
	if (rc < 0)
		return rc;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	/* a credential change cleared it: the child must still die with brisk */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return -errno;
	return getppid() == parent ? 0 : -ESRCH;
}

int child_output(const char *path, char *const argv[], char *const envp[],
		 const struct child_cred *as, int cwdfd, char *buf, size_t cap, size_t *n,
		 int *status)
{
	*n = 0;
	buf[0] = '\0';
	int p[2], ep[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(ep, O_CLOEXEC) < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return -e;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		/* why it could not start goes back over ep (closed by the exec) */
		int e = 0, null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			e = ESRCH;
		else if (null < 0 || dup2(null, 0) < 0 || dup2(p[1], 1) < 0 || dup2(null, 2) < 0 ||
			 (cwdfd >= 0 && fchdir(cwdfd) < 0))
			e = errno;
		else if (as)
			e = -child_drop(as);
		if (!e) {
			execve(path, argv, envp);
			e = errno;
		}
		ssize_t w = write(ep[1], &e, sizeof(e));
		(void)w;
		_exit(127);
	}
	int rc = pid < 0 ? -errno : 0;
	close(p[1]);
	close(ep[1]);
	if (rc == 0) {
		int e;
		ssize_t r;
		while ((r = read(ep[0], &e, sizeof(e))) < 0 && errno == EINTR)
			;
		if (r == (ssize_t)sizeof(e)) {
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			rc = -e;
		}
	}
	close(ep[0]);
	if (rc) {
		close(p[0]);
		return rc;
	}
	size_t got = 0;
	ssize_t r;
	while (got + 1 < cap && ((r = read(p[0], buf + got, cap - 1 - got)) > 0 ||
				 (r < 0 && errno == EINTR)))
		got += r > 0 ? (size_t)r : 0;
	buf[got] = '\0';
	close(p[0]);   /* before the wait: a program with more to say gets EPIPE */
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	*n = got;
	return 0;
}
