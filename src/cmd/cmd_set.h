/* cmd_set — change tunables from the command line.
 *
 *   brisk set [--persist] [-d DEV]... (DIR|DEVICE) KEY=VALUE...
 *   brisk set --list-keys
 *
 * DIR means every leaf disk of the stack behind DIR (all RAID/dm members at
 * once); DEVICE is a kernel name or a node (sda, /dev/sda, loop3; md0 means
 * its members).  -d limits the targets to named leaves of that stack.
 * Everything is validated on every target before anything is written (bad
 * input: exit 2, nothing changed, nothing journaled); without root it says
 * what needs root and writes nothing (exit 4); each change is journaled
 * (kind "set") and waits for `brisk restore`, unless --persist; if the
 * kernel refuses a write, what this command changed is rolled back (exit 1).
 * --list-keys prints the settings table (tunable_defs), one key a line.
 * See brisk-set(1).  get and restore: cmd_get.h, cmd_restore.h.
 */
#ifndef BRISK_CMD_SET_H
#define BRISK_CMD_SET_H

#include <stddef.h>

#include "blockdev.h"

#define CMD_SET_MAX_TARGETS BLOCKDEV_MAX_SLAVES
#define CMD_SET_MAX_ONLY 16

/* The leaf disks a set or get command works on. */
struct cmd_targets {
	size_t n;
	char name[CMD_SET_MAX_TARGETS][BLOCKDEV_NAME_LEN];
};

/* -d DEV, repeatable (set and get): the leaves a command is limited to. */
struct cmd_set_only {
	const char *dev[CMD_SET_MAX_ONLY];
	size_t n;
};

/* -d's entry (option table, optab.h) and handler: one more DEV into the
 * struct cmd_set_only at ctx + off; 2 past CMD_SET_MAX_ONLY. */
struct optab;
int cmd_set_only(const char *cmd, const struct optab *o, void *ctx, const char *arg);
#define CMD_SET_DEVICE(off) \
	{ "device", 'd', "DEV", "only this disk of the stack (repeatable)", cmd_set_only, off, NULL }

int cmd_set_main(int argc, char **argv);

/* Resolve ARG (DIR or DEVICE) to the leaf disks behind it, limited to ONLY
 * (-d) when it names any; messages start "brisk CMD: ".  0, or 2 after
 * printing why (bad input), or 1 (runtime failure). */
int cmd_set_targets(const char *cmd, const char *arg, const struct cmd_set_only *only,
		    struct cmd_targets *t);

#endif
