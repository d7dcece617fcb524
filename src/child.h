/* child — fork a worker (a load instance, an action sample) with a pipe
 * that carries its results to the engine.
 *
 * child_fork() returns 1 in the parent (*pid set, *rfd = the pipe's read
 * end, close-on-exec), 0 in the child, -errno when pipe or fork failed.
 * In the child: it dies with the parent (PR_SET_PDEATHSIG SIGKILL; it
 * exits at once if the parent is already gone), leads its own process
 * group (the watchdog kills the group; the terminal's ^C is for the
 * parent), the pipe's write end is fd 3 (close-on-exec) and every other
 * descriptor above 2 is closed.  Signal dispositions and the signal mask
 * are left as they were: the child sets its handlers, then calls
 * child_unblock_signals().
 */
#ifndef BRISK_CHILD_H
#define BRISK_CHILD_H

#include <sys/types.h>

#define CHILD_RESULT_FD 3

int child_fork(pid_t *pid, int *rfd);
void child_unblock_signals(void);

#endif
