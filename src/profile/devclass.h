/* devclass — what kind of disk a probed block device is, the one rule that
 * exported rules, profiles, reports and result files all class disks by. */
#ifndef BRISK_DEVCLASS_H
#define BRISK_DEVCLASS_H

#include "profile.h"

struct blockdev;

/* The class of d: nvme*, mmcblk* (or that transport) by name, any other
 * disk (sd*, virtio, xvd) by its queue/rotational flag. */
enum profile_class devclass_of(const struct blockdev *d);
/* The class name a result file carries: "usb" for a USB transport,
 * "virtual" for virtio or xvd* (the hypervisor's guess of rotational),
 * else profile_class_name(devclass_of(d)). */
const char *devclass_name(const struct blockdev *d);
/* "a rotational disk", "an SD/MMC card", "a USB disk", "an SSD", "an NVMe
 * disk" for the quick check's verdict; NULL when d is NULL or unknown. */
const char *devclass_phrase(const struct blockdev *d);

#endif
