/* child — fork a worker (a load instance, an action sample) with a pipe
 * that carries its results to the engine.
 *
 * child_fork(pid, rfd, dirfd) returns 1 in the parent (*pid set, *rfd = the pipe's read
 * end, close-on-exec), 0 in the child, -errno when pipe or fork failed.
 * In the child: it dies with the parent (PR_SET_PDEATHSIG SIGKILL; it
 * exits at once if the parent is already gone), leads its own process
 * group (the watchdog kills the group; the terminal's ^C is for the
 * parent), the pipe's write end is fd 3 (close-on-exec); dirfd (the work
 * directory's descriptor, or -1) becomes fd 4 (close-on-exec): the child
 * reaches its files relative to it, never by path; every other descriptor
 * above 2 is closed.  A program the child starts must die with it too
 * (fork, PR_SET_PDEATHSIG, exec: see action.c).  Signal dispositions and the signal mask
 * are left as they were: the child sets its handlers, then calls
 * child_unblock_signals().
 */
#ifndef BRISK_CHILD_H
#define BRISK_CHILD_H

#include <sys/types.h>

#define CHILD_RESULT_FD 3
#define CHILD_DIR_FD 4

int child_fork(pid_t *pid, int *rfd, int dirfd);
void child_unblock_signals(void);

/* child_output(path, argv, envp, buf, cap, n, status): run a helper
 * program (posix_spawn; stdin and stderr /dev/null, stdout a pipe) and
 * read its output into buf, at most cap - 1 bytes, NUL-terminated; *n is
 * the length (n == cap - 1 may mean more was cut: the pipe is closed
 * then, and the program gets EPIPE).  Waits for it; *status is its wait
 * status.  0, or -errno when it could not be started (nothing to wait
 * for).  cap >= 1. */
int child_output(const char *path, char *const argv[], char *const envp[], char *buf,
		 size_t cap, size_t *n, int *status);

#endif
