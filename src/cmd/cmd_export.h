/* cmd_export — `brisk export NAME|FILE --format udev|tuned|sysctl|sysfs.conf|tmpfiles
 * [--match class|this-device] [--device DEV] [-o FILE]`: a profile's settings
 * as a distribution default (brisk-export(1)).  Works without root; writes
 * only the output file.  Exit: 0, 1 (cannot probe the device or write the
 * file), 2 (bad usage, a malformed profile, a profile the format cannot
 * express). */
#ifndef BRISK_CMD_EXPORT_H
#define BRISK_CMD_EXPORT_H

int cmd_export_main(int argc, char **argv);

#endif
