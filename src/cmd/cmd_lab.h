/* cmd_lab — `brisk lab`: emulated slow disks (up, down, status, models).
 * Exit status: 0 success, 1 runtime failure or not root, 2 bad usage. */
#ifndef BRISK_CMD_LAB_H
#define BRISK_CMD_LAB_H

int cmd_lab_main(int argc, char **argv);

#endif
