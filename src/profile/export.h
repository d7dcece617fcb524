/* export — a profile's settings as a distribution default.
 *
 * Formats:
 *  udev        a rules file.  Every rule is guarded by ACTION=="add|change",
 *              SUBSYSTEM=="block", ENV{DEVTYPE}=="disk" and matches either a
 *              device class (dev == NULL):
 *                rotational  KERNEL=="sd[a-z]*|vd[a-z]*|xvd[a-z]*",
 *                            ATTR{queue/rotational}=="1"
 *                ssd         the same KERNEL, ATTR{queue/rotational}=="0"
 *                nvme        KERNEL=="nvme[0-9]*n[0-9]*"
 *                mmc         KERNEL=="mmcblk[0-9]*"
 *              (SCSI/SATA/SAS/USB disks, virtio and Xen disks: a VM's disk
 *              gets the rule of the rotational flag its kernel reports),
 *              or one device (dev != NULL) by ENV{ID_WWN}, else
 *              ENV{ID_SERIAL_SHORT}.  ATTR{queue/scheduler} comes first, the
 *              scheduler's ATTR{queue/iosched/...} right after it, then the
 *              queue attributes and ATTR{device/queue_depth}.
 *  tuned       [main] summary=; one [disk_GROUP] (type=disk, devices=,
 *              elevator=, readahead= in KiB) per device group (sd_vd_xvd:
 *              devices=sd* vd* xvd*; nvme; mmc); [sysfs] with
 *              /sys/block/GLOB/... lines for the other attributes, one per
 *              glob; [sysctl].
 *  sysctl      a sysctl.d file with the vm.* settings.
 *  sysfs.conf  sysfsutils lines (relative to /sys) for one fixed device.
 *  tmpfiles    tmpfiles.d `w` lines for one fixed device (and vm.*).
 *
 * Hardware-bound values (tunable_hw_bound(): nr_requests, max_sectors_kb,
 * queue_depth, mq-deadline's async_depth, which follows nr_requests) are
 * bounded by each disk's own hardware, so rules for a class of disks never
 * carry them: udev and tuned by class leave them out and name them in a
 * comment (export_dropped() lists them for the caller to say so); a fixed
 * device (--match this-device, --device, sysfs.conf, tmpfiles) keeps them.
 *
 * Classes: [settings] applies to every class; [settings CLASS] overrides it
 * for that class (profile_effective()).  A format that cannot express the
 * profile (tuned with different rotational and ssd settings: both are sd*;
 * sysfs.conf without a device; nothing to write) is an error: -EINVAL and a
 * message in err, nothing written.
 *
 * Untrusted text (text.h) never starts a line or a key:
 *  - what is written unquoted (the profile's name, setting keys and values,
 *    the device's kernel name) must be a plain word (letters, digits and
 *    . _ - : + !), else -EINVAL before anything is written; so an unnamed
 *    profile is refused, not written as 60-brisk-.rules;
 *  - comment text and tuned's summary= (description, model, serial, WWN)
 *    is escaped: control bytes and invalid UTF-8 as \xHH, '\' as \\;
 *  - a udev match value (ID_WWN/wwid, else ID_SERIAL_SHORT/serial) is used
 *    only when it is printable ASCII (space included) without '"', '\'
 *    or the glob characters *?[]| (a WWN that is not falls back to the
 *    serial); when neither is usable the rule is refused (-EINVAL naming
 *    the value, escaped), never escaped into a pattern udev might read
 *    differently.
 */
#ifndef BRISK_EXPORT_H
#define BRISK_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "blockdev.h"
#include "profile.h"

enum export_format {
	EXPORT_UDEV,
	EXPORT_TUNED,
	EXPORT_SYSCTL,
	EXPORT_SYSFS_CONF,
	EXPORT_TMPFILES,
	EXPORT_FORMAT_COUNT
};

struct export_device {
	char name[BLOCKDEV_NAME_LEN];   /* kernel name: sda, nvme0n1 */
	enum profile_class cls;         /* its class (devclass_of()) */
	char model[96];                 /* for the comment */
	char serial[96];                /* udev ID_SERIAL_SHORT, else sysfs serial */
	char wwn[48];                   /* udev ID_WWN, else sysfs wwid */
	int serial_udev, wwn_udev;      /* 1: the value is udev's (blockdev.h) */
};

int export_format_parse(const char *s, enum export_format *out);
const char *export_format_name(enum export_format f);
void export_device_from_blockdev(const struct blockdev *d, struct export_device *out);
/* The device settings (no vm.*) for class cls, in application order, as
 * --apply and the fixed-device formats use them (hardware-bound values
 * included: each disk is checked on its own); queue_depth only where a
 * SCSI device is possible (not nvme/mmc) unless fixed.  Returns how many
 * (<= max). */
size_t export_device_settings(const struct profile *p, enum profile_class cls, int fixed,
			      const struct profile_setting **out, size_t max);
/* The hardware-bound settings a by-class export of p in fmt leaves out
 * (udev and tuned with dev == NULL; none otherwise), each once, in
 * application order.  Returns how many (<= max). */
size_t export_dropped(const struct profile *p, enum export_format fmt,
		      const struct export_device *dev, const struct profile_setting **out,
		      size_t max);
/* The vm.* settings.  Returns how many (<= max). */
size_t export_vm_settings(const struct profile *p, const struct profile_setting **out,
			  size_t max);
/* Write the profile in a format; dev NULL = match by class. */
int export_write(FILE *f, const struct profile *p, enum export_format fmt,
		 const struct export_device *dev, char *err, size_t errlen);

#endif
