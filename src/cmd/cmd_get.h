/* cmd_get — show tunables from the command line.
 *
 *   brisk get [-d DEV]... [--json] (DIR|DEVICE) [KEY...]
 *
 * Targets as for brisk set (cmd_set.h); one 'DEVICE KEY=VALUE' line per
 * value ('vm.NAME=VALUE' for sysctls), device strings escaped.  --json:
 * one object { brisk, query, devices: [{ name, schedulers (offered, or
 * null), settings: { KEY: VALUE } }], sysctl: { vm.NAME: VALUE } } with the
 * same keys, numbers as numbers, the scheduler as a string, a value that
 * could not be read as null (and said on stderr, as in text).  Works
 * without root.  Exit 2 for an unknown key or target.  See brisk-set(1).
 */
#ifndef BRISK_CMD_GET_H
#define BRISK_CMD_GET_H

int cmd_get_main(int argc, char **argv);

#endif
