#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

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

int child_output(const char *path, char *const argv[], char *const envp[], char *buf,
		 size_t cap, size_t *n, int *status)
{
	*n = 0;
	buf[0] = '\0';
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	pid_t pid;
	int rc = -posix_spawn(&pid, path, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
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
