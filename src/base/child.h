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
 *
 * Who the children run as (issue 24: nothing runs as root that does not
 * need it).  child_cred_resolve(), in the parent at prepare time (the
 * user database is read there, never after a fork): brisk as root drops
 * to SUDO_UID/SUDO_GID when both are valid non-zero ids (root's
 * environment is trusted), else to the user nobody and its group
 * (65534:65534 when there is none); brisk as another user stays that
 * user.  child_drop(), in the child: setgroups(0), setresgid, setresuid
 * (capabilities go with the uid: no keep-caps), then checks that root
 * cannot be regained and that no capability is left (a brisk that is
 * not root drops any it holds), sets PR_SET_NO_NEW_PRIVS, and sets
 * PR_SET_PDEATHSIG again (a credential change clears it).  0, or -errno:
 * the caller must not run anything then (-ESRCH: the parent is gone).
 */
#ifndef BRISK_CHILD_H
#define BRISK_CHILD_H

#include <sys/types.h>

#define CHILD_RESULT_FD 3
#define CHILD_DIR_FD 4
#define CHILD_DIR2_FD 5     /* child_fork2's second directory */

struct child_cred {
	uid_t uid;
	gid_t gid;
	char user[64];      /* uid's name ("" when it has none) */
	int drop;           /* brisk is root: children change to uid/gid */
};

int child_fork(pid_t *pid, int *rfd, int dirfd);
/* The same with a second directory, dir2fd (>= 0), as fd 5 in the child
 * (close-on-exec): a copy load reads in one work area, writes in another. */
int child_fork2(pid_t *pid, int *rfd, int dirfd, int dir2fd);
void child_unblock_signals(void);
void child_cred_resolve(struct child_cred *c);
int child_drop(const struct child_cred *c);
/* A non-negative decimal id in environment variable name, or -1. */
long child_env_id(const char *name);

/* child_output(path, argv, envp, as, cwdfd, buf, cap, n, status): run a
 * helper program (stdin and stderr /dev/null, stdout a pipe; in the
 * directory cwdfd unless it is -1; as the user as says after
 * child_drop(), or as brisk when as is NULL; it dies with brisk) and
 * read its output into buf, at most cap - 1 bytes, NUL-terminated; *n is
 * the length (n == cap - 1 may mean more was cut: the pipe is closed
 * then, and the program gets EPIPE).  Waits for it; *status is its wait
 * status.  0, or -errno when it could not be started (nothing to wait
 * for).  cap >= 1. */
int child_output(const char *path, char *const argv[], char *const envp[],
		 const struct child_cred *as, int cwdfd, char *buf, size_t cap, size_t *n,
		 int *status);

#endif
