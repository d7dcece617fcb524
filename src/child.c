#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>

int child_fork(pid_t *pid, int *rfd, int dirfd)
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
		/* a copy above both targets first: dirfd may be 3 or 4 itself */
		int dd = dirfd >= 0 ? fcntl(dirfd, F_DUPFD_CLOEXEC, CHILD_DIR_FD + 1) : -1;
		if ((dirfd >= 0 && dd < 0) || dup2(p[1], CHILD_RESULT_FD) < 0 ||
		    fcntl(CHILD_RESULT_FD, F_SETFD, FD_CLOEXEC) < 0)
			_exit(1);
		if (dd >= 0 && (dup2(dd, CHILD_DIR_FD) < 0 ||
				fcntl(CHILD_DIR_FD, F_SETFD, FD_CLOEXEC) < 0))
			_exit(1);
		close_range(dirfd >= 0 ? CHILD_DIR_FD + 1 : CHILD_RESULT_FD + 1, ~0u, 0);
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

void child_unblock_signals(void)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}
