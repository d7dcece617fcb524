/* cmd_lab — `brisk lab`: emulated slow disks (up, down, status, models).
 * Exit status (exitcode.h): 0 success, 1 runtime failure, 2 bad usage,
 * 4 up/down without root. */
#ifndef BRISK_CMD_LAB_H
#define BRISK_CMD_LAB_H

int cmd_lab_main(int argc, char **argv);

#endif
