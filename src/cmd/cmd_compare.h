/* cmd_compare — `brisk compare`: settings side by side (compare.h), the
 * text report, --json, --csv, --plot and --save.  See brisk-compare(1). */
#ifndef BRISK_CMD_COMPARE_H
#define BRISK_CMD_COMPARE_H

int cmd_compare_main(int argc, char **argv);

#endif
