/* cmd_devices — `brisk devices [DIR|DEVICE] [--all] [--json]`: the storage
 * stack behind a directory (or a device), or every block device, as a text
 * tree or as the JSON document described in brisk-devices(1).
 * Works without root.  Exit: 0, 1 (probe failure), 2 (bad argument). */
#ifndef BRISK_CMD_DEVICES_H
#define BRISK_CMD_DEVICES_H

int cmd_devices_main(int argc, char **argv);

#endif
