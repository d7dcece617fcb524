/* cmd_profile — `brisk profile list | show NAME | check FILE... |
 * save NAME [DIR] | import JOBFILE`: list, print, validate and capture
 * profiles, and convert fio job files (brisk-profile(1), brisk-profile(5)).
 * Works without root (save only reads sysfs).
 * Exit: 0, 1 (runtime failure: cannot read the stack, cannot write),
 * 2 (bad usage, a malformed profile or job file: FILE:LINE message). */
#ifndef BRISK_CMD_PROFILE_H
#define BRISK_CMD_PROFILE_H

int cmd_profile_main(int argc, char **argv);

#endif
