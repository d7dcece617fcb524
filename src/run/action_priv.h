/* action_priv — what action.c (kinds, files, ls/ssh/save, the sample
 * process) and action_exec.c (preparing the exec action: the copied
 * program or --exec in place, its libraries and devices) share and
 * nothing else includes.  The contract is action.h's. */
#ifndef BRISK_ACTION_PRIV_H
#define BRISK_ACTION_PRIV_H

#include "action.h"

/* Drop a file of the action (name in dirfd, or absolute) from the page
 * cache: 0 or -errno. */
int action_evict_file(int dirfd, const char *path);
/* Add path to a->files (once; not pinned): 0 or -ENOMEM. */
int action_add_file(struct action *a, const char *path);
/* Free a NULL-terminated array of strings and the strings. */
void action_free_strv(char **v);
/* The exec action's program, files and devices (action_prepare). */
int action_prepare_exec(struct action *a, int dirfd, char *err, size_t errlen);

#endif
