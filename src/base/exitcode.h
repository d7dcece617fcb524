/* exitcode — brisk's exit statuses: one meaning each, the same for every
 * command (brisk(1) EXIT STATUS; tests/cli/exit_status.sh produces each).
 * Constants only. */
#ifndef BRISK_EXITCODE_H
#define BRISK_EXITCODE_H

/* Done; also "nothing to do" and a comparison without a winner. */
#define EXIT_OK 0
/* A runtime failure: the kernel refused a write, a device was busy, a load
 * or action failed, an output was not written, a setting not restored. */
#define EXIT_FAILED 1
/* Bad usage or input (options, values, profiles, DIR): nothing changed. */
#define EXIT_USAGE 2
/* A partial result: brisk report made a report but left files out. */
#define EXIT_PARTIAL 3
/* Needs privileges: the command would have to change what only root may
 * change, and changed nothing.  (The kernel refusing root is EXIT_FAILED.) */
#define EXIT_PRIVILEGE 4
/* A dry run found something it would do (values to restore or change);
 * EXIT_OK when there is nothing. */
#define EXIT_PENDING 5
/* EXIT_SIGNAL + N: signal N ended a run, a comparison or the dashboard. */
#define EXIT_SIGNAL 128

#endif
