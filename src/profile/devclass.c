/* devclass — classes of disks.  Contract in devclass.h. */
#include "devclass.h"

#include <string.h>

#include "blockdev.h"

enum profile_class devclass_of(const struct blockdev *d)
{
	if (strncmp(d->name, "nvme", 4) == 0 || strcmp(d->transport, "nvme") == 0)
		return PROFILE_CLASS_NVME;
	if (strncmp(d->name, "mmcblk", 6) == 0 || strcmp(d->transport, "mmc") == 0)
		return PROFILE_CLASS_MMC;
	return d->rotational == 1 ? PROFILE_CLASS_ROTATIONAL : PROFILE_CLASS_SSD;
}

const char *devclass_name(const struct blockdev *d)
{
	if (strcmp(d->transport, "usb") == 0)
		return "usb";
	if (strcmp(d->transport, "virtio") == 0 || strncmp(d->name, "xvd", 3) == 0)
		return "virtual";
	return profile_class_name(devclass_of(d));
}

const char *devclass_phrase(const struct blockdev *d)
{
	if (!d)
		return NULL;
	if (strcmp(d->transport, "usb") == 0)
		return "a USB disk";
	switch (devclass_of(d)) {
	case PROFILE_CLASS_NVME:
		return "an NVMe disk";
	case PROFILE_CLASS_MMC:
		return "an SD/MMC card";
	case PROFILE_CLASS_ROTATIONAL:
		return "a rotational disk";
	default:
		return d->rotational == 0 ? "an SSD" : NULL;
	}
}
