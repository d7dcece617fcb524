/* blockdev — what one block device is, read through libudev and sysfs.
 *
 * Contract:
 *  - udev's view of a device (uevent keys and ID_* properties) comes from
 *    libudev for blockdev_probe*() and blockdev_resolve_name(); blockdev_list
 *    reads the same two sources libudev reads (the uevent file, then the E:
 *    lines of /run/udev/data/bMAJ:MIN), because a libudev device per entry
 *    costs a third of a 1,000-disk listing.  Both give identical structs
 *    (tests/cli/devices_udevdb.sh).
 *  - blockdev_probe*() fill a caller-owned struct; 0 or -errno (-ENODEV when
 *    there is no such block device). Nothing prints.
 *  - A missing attribute is an empty string, or -1 for numbers: not an error.
 *  - Strings are trimmed (models are space-padded in sysfs).
 *  - Firmware: udev ID_REVISION first, then NVMe device/firmware_rev, then
 *    SCSI/ATA device/rev.
 *  - Queue values are those of this device; md/dm devices have no scheduler
 *    (queue.scheduler is ""): the settings that matter live on their members.
 */
#ifndef BRISK_BLOCKDEV_H
#define BRISK_BLOCKDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BLOCKDEV_NAME_LEN 32    /* the kernel's DISK_NAME_LEN */
#define BLOCKDEV_MAX_SLAVES 32
#define BLOCKDEV_MAX_IOSCHED 32

enum blockdev_kind {
	BLOCKDEV_DISK,       /* whole disk: sd, nvme namespace, vd, mmcblk, ... */
	BLOCKDEV_PARTITION,
	BLOCKDEV_MD,
	BLOCKDEV_DM,
	BLOCKDEV_LOOP,
	BLOCKDEV_ZRAM,
};

struct blockdev_tunable {
	char name[40];
	char value[48];
};

struct blockdev_queue {
	char scheduler[32];    /* active one; "" when the device has none */
	char schedulers[160];  /* offered ones, space-separated */
	int64_t nr_requests, read_ahead_kb, wbt_lat_usec, max_sectors_kb;
	int64_t rq_affinity, nomerges;
	int64_t queue_depth;   /* SCSI device/queue_depth; -1 when absent */
	size_t n_iosched;      /* files under queue/iosched/, sorted by name */
	struct blockdev_tunable iosched[BLOCKDEV_MAX_IOSCHED];
};

struct blockdev {
	char name[BLOCKDEV_NAME_LEN];  /* kernel name: sda, nvme0n1p2, dm-0 */
	char devnode[64];              /* /dev/sda; "" when udev has none */
	char syspath[256];
	unsigned major, minor;
	enum blockdev_kind kind;
	char transport[16];   /* sata sas scsi ata nvme usb mmc virtio "" */
	char vendor[64];
	char model[96];
	char serial[96];
	char firmware[48];
	char wwn[48];
	/* 1 when serial / wwn are udev's ID_SERIAL_SHORT / ID_WWN; 0 when they
	 * are sysfs attributes (serial, device/serial; wwid, device/wwid) */
	int serial_udev, wwn_udev;
	uint64_t size_bytes;
	int rotational, removable, readonly;   /* 0/1, -1 unknown */
	unsigned pci_vendor, pci_device;  /* the PCI controller's IDs; 0 unknown */
	char pci_slot[16];     /* e.g. 0000:00:05.0 */
	char parent[BLOCKDEV_NAME_LEN];  /* partition: its whole disk */
	int partition;                   /* partition number, 0 if none */
	size_t n_slaves;                 /* what this is built on (slaves/) */
	char slaves[BLOCKDEV_MAX_SLAVES][BLOCKDEV_NAME_LEN];
	struct blockdev_queue queue;
	/* md RAID */
	char md_level[16];    /* raid1 ... */
	char md_state[32];    /* md/array_state */
	int md_raid_disks, md_degraded;      /* -1 unknown */
	char md_member_state[BLOCKDEV_MAX_SLAVES][32]; /* per slave, same order */
	/* device mapper */
	char dm_name[96];
	char dm_uuid[160];
	char dm_target[16];   /* crypt, lvm, mpath, raid, other */
	/* loop */
	char backing_file[1024];
	int loop_dio;         /* loop/dio, -1 unknown */
};

/* Probe one device by kernel name ("sda", "dm-0"). */
int blockdev_probe(const char *name, struct blockdev *out);
/* Probe one device by device number. */
int blockdev_probe_devnum(dev_t devnum, struct blockdev *out);
/* Every block device, sorted by kernel name; *out is malloc'ed (free()).
 * A device that vanishes while listed is left out. */
int blockdev_list(struct blockdev **out, size_t *n);
/* "sda", "/dev/sda", "/dev/mapper/root", "/dev/disk/by-id/..." -> "sda".
 * -ENODEV when it names no block device. */
int blockdev_resolve_name(const char *arg, char *name, size_t len);
const char *blockdev_kind_name(enum blockdev_kind kind);
/* The PCI controller's name, "Vendor Device" from pci.ids through libpci,
 * "PCI device VVVV:DDDD" when it is not listed, "" when d has none; in
 * storage valid until the next call.  Looked up only where it is shown:
 * libpci holds all of pci.ids (2 MiB) once it has looked up one name. */
const char *blockdev_controller(const struct blockdev *d);
/* Value of an iosched tunable, or NULL. */
const char *blockdev_iosched(const struct blockdev *d, const char *name);

#endif
