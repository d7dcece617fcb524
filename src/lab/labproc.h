/* labproc — the lab's processes (the `lab up` that makes a lab, its FUSE
 * server) told apart from a later process with the same pid by their
 * start time (/proc/PID/stat field 22, clock ticks since boot).
 *
 * Contract: nothing prints; 0 or -errno.  labproc_alive also reaps PID
 * when it is our child, so a dead child is not mistaken for alive.
 */
#ifndef BRISK_LABPROC_H
#define BRISK_LABPROC_H

#include <sys/types.h>

/* Sleep MS milliseconds. */
void labproc_nap_ms(long ms);
/* Start time and state letter of PID. */
int labproc_start(pid_t pid, unsigned long long *start, char *state);
/* Is PID alive (not a zombie) and the process that started at START? */
int labproc_alive(pid_t pid, unsigned long long start);
/* This process's start time (0 if unreadable). */
unsigned long long labproc_self_start(void);
/* Wait up to MS for PID (START) to be gone: 1 gone, 0 still there. */
int labproc_wait_gone(pid_t pid, unsigned long long start, long ms);

#endif
