/* cmd_set — change, show and restore tunables from the command line.
 *
 *   brisk set [--persist] [-d DEV]... (DIR|DEVICE) KEY=VALUE...
 *   brisk get [-d DEV]... (DIR|DEVICE) [KEY...]
 *   brisk restore [--dry-run]
 *
 * DIR means every leaf disk of the stack behind DIR (all RAID/dm members at
 * once); DEVICE is a kernel name or a node (sda, /dev/sda, loop3; md0 means
 * its members).  -d limits the targets to named leaves of that stack.
 * set: everything is validated on every target before anything is written
 * (bad input: exit 2, nothing changed, nothing journaled); without root it
 * says what needs root and writes nothing (exit 1); each change is journaled
 * (kind "set") and waits for `brisk restore`, unless --persist; if the
 * kernel refuses a write, what this command changed is rolled back (exit 1).
 * get works without root.  restore puts back every journaled original of
 * dead sessions (exit 1 if some could not be).  See brisk-set(1).
 */
#ifndef BRISK_CMD_SET_H
#define BRISK_CMD_SET_H

int cmd_set_main(int argc, char **argv);
int cmd_get_main(int argc, char **argv);
int cmd_restore_main(int argc, char **argv);

#endif
