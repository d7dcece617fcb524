/* cmd_report — `brisk report FILE... [options]`: results of many machines
 * (brisk run --json, brisk compare --json) read, grouped and pooled
 * (fleet.h), as text, --json, --csv, --plot, and --save-profile NAME.
 * Files that cannot be read are named on stderr and skipped; the others
 * are reported.  Exit status: 0 every file read; 3 a report was made but
 * some files were skipped; 1 an output or the profile could not be
 * written (wins over 3; no winner to save is 0); 2 bad usage, or no file
 * could be read.  Needs
 * no root.  See brisk-report(1). */
#ifndef BRISK_CMD_REPORT_H
#define BRISK_CMD_REPORT_H

int cmd_report_main(int argc, char **argv);

#endif
