/* labstate — what brisk knows about its lab disks: the state files
 * RUNTIME/lab/NAME.state (key=value lines; lab.h says what they record),
 * the checked runtime directories they live in, and RUNTIME/lab/lock,
 * which serialises lab up/down.
 *
 * Contract:
 *  - RUNTIME and RUNTIME/lab are opened as checked directories (rundir.h)
 *    and every file in them is reached from that descriptor with
 *    O_NOFOLLOW; a state file must be root's (when root) and not writable
 *    by others, and its paths must have the shape lab_up gives them.
 *  - Changing functions run between labstate_lock and labstate_unlock;
 *    labstate_dfd() is the locked lab directory then (-1 otherwise).
 *  - lab_load, lab_list, lab_list_err, lab_runtime_dir, lab_models_path and
 *    lab_name_valid (lab.h) live here too.  Nothing prints; 0 or -errno,
 *    with a message in err where there is one.
 */
#ifndef BRISK_LABSTATE_H
#define BRISK_LABSTATE_H

#include <stddef.h>

#include "lab.h"

/* Take the lab lock (making RUNTIME/lab): the lock's fd, or -errno. */
int labstate_lock(char *err, size_t errlen);
/* Release it; RUNTIME/lab goes when no lab is left. */
void labstate_unlock(int fd);
/* The locked lab directory, -1 when not locked. */
int labstate_dfd(void);
/* Write S to NAME.state (through NAME.state.tmp and a rename); locked. */
int labstate_save(const struct lab_state *s);
/* Remove NAME's log, an interrupted save and its state file; locked. */
int labstate_remove(const char *name, char *err, size_t errlen);
/* Remove NAME.state.tmp files that have no NAME.state (a first save cut
 * short by a kill); locked. */
void labstate_remove_orphans(void);

#endif
