#include "blockdev.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <libudev.h>

#include "pcidb.h"
#include "sysfs.h"

static void copy(char *dst, size_t len, const char *src)
{
	if (!len)
		return;
	if (!src)
		src = "";
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	sysfs_trim(dst);
}

/* Read syspath/rel into dst (trimmed); leaves "" when absent. */
static void attr(const struct blockdev *d, const char *rel, char *dst, size_t len)
{
	int rc = sysfs_readf(dst, len, "%s/%s", d->syspath, rel);
	if (rc < 0 && rc != -EOVERFLOW)
		dst[0] = '\0';
}

static int64_t attr_num(const struct blockdev *d, const char *rel)
{
	char path[512];
	int64_t v;
	snprintf(path, sizeof(path), "%s/%s", d->syspath, rel);
	return sysfs_read_s64(path, &v) == 0 ? v : -1;
}

static int attr_bool(const struct blockdev *d, const char *rel)
{
	int64_t v = attr_num(d, rel);
	return v < 0 ? -1 : v != 0;
}

/* First non-empty of a udev property and sysfs attributes. */
static void fill(struct udev_device *u, const struct blockdev *d, const char *prop,
		 const char *const *rels, char *dst, size_t len)
{
	dst[0] = '\0';
	if (prop)
		copy(dst, len, udev_device_get_property_value(u, prop));
	for (; !dst[0] && rels && *rels; rels++)
		attr(d, *rels, dst, len);
}

static enum blockdev_kind kind_of(struct udev_device *u, const struct blockdev *d)
{
	const char *devtype = udev_device_get_devtype(u);
	if (devtype && strcmp(devtype, "partition") == 0)
		return BLOCKDEV_PARTITION;
	if (strncmp(d->name, "dm-", 3) == 0)
		return BLOCKDEV_DM;
	if (strncmp(d->name, "md", 2) == 0 && d->major == 9)
		return BLOCKDEV_MD;
	if (strncmp(d->name, "md", 2) == 0) {
		char p[512];
		snprintf(p, sizeof(p), "%s/md", d->syspath);
		if (sysfs_exists(p) == 0)
			return BLOCKDEV_MD;
	}
	if (strncmp(d->name, "loop", 4) == 0)
		return BLOCKDEV_LOOP;
	if (strncmp(d->name, "zram", 4) == 0)
		return BLOCKDEV_ZRAM;
	return BLOCKDEV_DISK;
}

/* Transport from the parent chain (subsystems and path), then udev's ID_BUS,
 * then the kernel name. */
static void detect_transport(struct udev_device *u, struct blockdev *d)
{
	const char *t = "";
	int ata = 0, sas = 0, scsi = 0;
	for (struct udev_device *p = udev_device_get_parent(u); p; p = udev_device_get_parent(p)) {
		const char *ss = udev_device_get_subsystem(p);
		const char *sn = udev_device_get_sysname(p);
		if (!ss)
			ss = "";
		if (!sn)
			sn = "";
		if (!strcmp(ss, "usb")) {
			t = "usb";
			break;
		}
		if (!strcmp(ss, "nvme") || !strcmp(ss, "nvme-subsystem")) {
			t = "nvme";
			break;
		}
		if (!strcmp(ss, "mmc") || !strcmp(ss, "mmc_host")) {
			t = "mmc";
			break;
		}
		if (!strcmp(ss, "virtio")) {
			t = "virtio";
			break;
		}
		if (!strcmp(ss, "scsi"))
			scsi = 1;
		if (!strncmp(sn, "ata", 3) && isdigit((unsigned char)sn[3]))
			ata = 1;
		if (!strncmp(sn, "end_device-", 11) || !strncmp(ss, "sas_", 4))
			sas = 1;
		if (!strcmp(ss, "pci"))
			break;
	}
	if (!*t) {
		const char *bus = udev_device_get_property_value(u, "ID_BUS");
		if (ata || (bus && !strcmp(bus, "ata"))) {
			const char *sata = udev_device_get_property_value(u, "ID_ATA_SATA");
			const char *path = udev_device_get_property_value(u, "ID_PATH");
			/* PATA only when udev says the link is not SATA */
			t = (sata && !strcmp(sata, "0") && path && strstr(path, "-ata-")) ? "ata" : "sata";
		} else if (sas)
			t = "sas";
		else if (bus && !strcmp(bus, "usb"))
			t = "usb";
		else if (scsi || (bus && !strcmp(bus, "scsi")))
			t = "scsi";
		else if (!strncmp(d->name, "nvme", 4))
			t = "nvme";
		else if (!strncmp(d->name, "mmcblk", 6))
			t = "mmc";
		else if (!strncmp(d->name, "vd", 2))
			t = "virtio";
	}
	copy(d->transport, sizeof(d->transport), t);
}

static unsigned hex_attr(struct udev_device *p, const char *name)
{
	const char *v = udev_device_get_sysattr_value(p, name);
	return v ? (unsigned)strtoul(v, NULL, 16) : 0;
}

static void detect_controller(struct udev_device *u, struct blockdev *d)
{
	for (struct udev_device *p = udev_device_get_parent(u); p; p = udev_device_get_parent(p)) {
		const char *ss = udev_device_get_subsystem(p);
		if (!ss || strcmp(ss, "pci"))
			continue;
		copy(d->pci_slot, sizeof(d->pci_slot), udev_device_get_sysname(p));
		unsigned ven = hex_attr(p, "vendor"), dev = hex_attr(p, "device");
		if (!ven || pcidb_name(ven, dev, d->controller, sizeof(d->controller)) < 0) {
			/* not in pci.ids: udev's hwdb names, then the raw IDs */
			const char *v = udev_device_get_property_value(p, "ID_VENDOR_FROM_DATABASE");
			const char *m = udev_device_get_property_value(p, "ID_MODEL_FROM_DATABASE");
			if (v && m)
				snprintf(d->controller, sizeof(d->controller), "%s %s", v, m);
			else if (ven)
				snprintf(d->controller, sizeof(d->controller),
					 "PCI device %04x:%04x", ven, dev);
		}
		return;
	}
}

static void read_queue(struct blockdev *d)
{
	struct blockdev_queue *q = &d->queue;
	char raw[256];
	attr(d, "queue/scheduler", raw, sizeof(raw));
	sysfs_parse_choice(raw, q->scheduler, sizeof(q->scheduler),
			   q->schedulers, sizeof(q->schedulers));
	/* "none" alone (md, dm, some virtual disks) means no elevator to pick */
	q->nr_requests = attr_num(d, "queue/nr_requests");
	q->read_ahead_kb = attr_num(d, "queue/read_ahead_kb");
	q->wbt_lat_usec = attr_num(d, "queue/wbt_lat_usec");
	q->max_sectors_kb = attr_num(d, "queue/max_sectors_kb");
	q->rq_affinity = attr_num(d, "queue/rq_affinity");
	q->nomerges = attr_num(d, "queue/nomerges");
	q->queue_depth = attr_num(d, "device/queue_depth");
	q->n_iosched = 0;
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/queue/iosched", d->syspath);
	char **names;
	size_t n;
	if (sysfs_list(dir, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n && q->n_iosched < BLOCKDEV_MAX_IOSCHED; i++) {
		struct blockdev_tunable *t = &q->iosched[q->n_iosched];
		if (strlen(names[i]) >= sizeof(t->name))
			continue;
		copy(t->name, sizeof(t->name), names[i]);
		char rel[96];
		snprintf(rel, sizeof(rel), "queue/iosched/%s", names[i]);
		attr(d, rel, t->value, sizeof(t->value));
		q->n_iosched++;
	}
	sysfs_list_free(names, n);
}

static void read_slaves(struct blockdev *d)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/slaves", d->syspath);
	char **names;
	size_t n;
	d->n_slaves = 0;
	if (sysfs_list(dir, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n && d->n_slaves < BLOCKDEV_MAX_SLAVES; i++)
		if (strlen(names[i]) < BLOCKDEV_NAME_LEN)
			copy(d->slaves[d->n_slaves++], BLOCKDEV_NAME_LEN, names[i]);
	sysfs_list_free(names, n);
}

static void read_md(struct blockdev *d)
{
	attr(d, "md/level", d->md_level, sizeof(d->md_level));
	attr(d, "md/array_state", d->md_state, sizeof(d->md_state));
	d->md_raid_disks = (int)attr_num(d, "md/raid_disks");
	d->md_degraded = (int)attr_num(d, "md/degraded");
	for (size_t i = 0; i < d->n_slaves; i++) {
		char rel[96];
		snprintf(rel, sizeof(rel), "md/dev-%s/state", d->slaves[i]);
		attr(d, rel, d->md_member_state[i], sizeof(d->md_member_state[i]));
	}
}

static void read_dm(struct blockdev *d)
{
	attr(d, "dm/name", d->dm_name, sizeof(d->dm_name));
	attr(d, "dm/uuid", d->dm_uuid, sizeof(d->dm_uuid));
	static const struct { const char *prefix, *target; } map[] = {
		{ "CRYPT-", "crypt" }, { "LVM-", "lvm" }, { "mpath-", "mpath" },
		{ "DMRAID-", "raid" }, { "part", "partition" },
	};
	const char *t = "other";
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(d->dm_uuid, map[i].prefix, strlen(map[i].prefix))) {
			t = map[i].target;
			break;
		}
	copy(d->dm_target, sizeof(d->dm_target), t);
}

static int probe_udev(struct udev_device *u, struct blockdev *d)
{
	memset(d, 0, sizeof(*d));
	copy(d->name, sizeof(d->name), udev_device_get_sysname(u));
	copy(d->syspath, sizeof(d->syspath), udev_device_get_syspath(u));
	copy(d->devnode, sizeof(d->devnode), udev_device_get_devnode(u));
	dev_t num = udev_device_get_devnum(u);
	d->major = major(num);
	d->minor = minor(num);
	d->kind = kind_of(u, d);
	d->rotational = d->removable = d->readonly = -1;
	d->md_raid_disks = d->md_degraded = d->loop_dio = -1;

	int64_t sectors = attr_num(d, "size");
	d->size_bytes = sectors > 0 ? (uint64_t)sectors * 512u : 0;
	d->readonly = attr_bool(d, "ro");
	read_slaves(d);

	if (d->kind == BLOCKDEV_PARTITION) {
		struct udev_device *p = udev_device_get_parent_with_subsystem_devtype(u, "block", "disk");
		if (p)
			copy(d->parent, sizeof(d->parent), udev_device_get_sysname(p));
		d->partition = (int)attr_num(d, "partition");
		return 0;
	}
	d->removable = attr_bool(d, "removable");
	d->rotational = attr_bool(d, "queue/rotational");
	read_queue(d);

	switch (d->kind) {
	case BLOCKDEV_MD:
		read_md(d);
		return 0;
	case BLOCKDEV_DM:
		read_dm(d);
		return 0;
	case BLOCKDEV_LOOP:
		attr(d, "loop/backing_file", d->backing_file, sizeof(d->backing_file));
		d->loop_dio = attr_bool(d, "loop/dio");
		return 0;
	case BLOCKDEV_ZRAM:
		return 0;
	case BLOCKDEV_DISK:
	case BLOCKDEV_PARTITION:
		break;
	}
	static const char *const vendor_rel[] = { "device/vendor", NULL };
	static const char *const model_rel[] = { "device/model", NULL };
	static const char *const serial_rel[] = { "device/serial", "serial", NULL };
	static const char *const fw_rel[] = { "device/firmware_rev", "device/rev", NULL };
	static const char *const wwn_rel[] = { "wwid", "device/wwid", NULL };
	detect_transport(u, d);
	detect_controller(u, d);
	/* device/ is the SCSI device, the NVMe controller, or (virtio, mmc) a
	 * bus device whose vendor/model attributes are numeric IDs, not names. */
	int named = strcmp(d->transport, "virtio") && strcmp(d->transport, "mmc");
	/* sysfs model first: udev's ID_MODEL has its spaces replaced by '_' */
	fill(u, d, NULL, named ? model_rel : NULL, d->model, sizeof(d->model));
	if (!d->model[0])
		fill(u, d, "ID_MODEL", NULL, d->model, sizeof(d->model));
	if (!d->model[0] && !strcmp(d->transport, "mmc"))
		attr(d, "device/name", d->model, sizeof(d->model));
	fill(u, d, "ID_VENDOR", named ? vendor_rel : NULL, d->vendor, sizeof(d->vendor));
	fill(u, d, "ID_SERIAL_SHORT", serial_rel, d->serial, sizeof(d->serial));
	fill(u, d, "ID_REVISION", named ? fw_rel : NULL, d->firmware, sizeof(d->firmware));
	if (!d->firmware[0] && !strcmp(d->transport, "mmc"))
		attr(d, "device/fwrev", d->firmware, sizeof(d->firmware));
	fill(u, d, "ID_WWN", wwn_rel, d->wwn, sizeof(d->wwn));
	return 0;
}

static struct udev_device *open_name(struct udev *udev, const char *name)
{
	struct udev_device *u = udev_device_new_from_subsystem_sysname(udev, "block", name);
	if (!u)
		return NULL;
	const char *ss = udev_device_get_subsystem(u);
	if (!ss || strcmp(ss, "block")) {
		udev_device_unref(u);
		return NULL;
	}
	return u;
}

int blockdev_probe(const char *name, struct blockdev *out)
{
	if (!name || !*name || strchr(name, '/'))
		return -ENODEV;
	struct udev *udev = udev_new();
	if (!udev)
		return -ENOMEM;
	struct udev_device *u = open_name(udev, name);
	int rc = u ? probe_udev(u, out) : -ENODEV;
	if (u)
		udev_device_unref(u);
	udev_unref(udev);
	return rc;
}

int blockdev_probe_devnum(dev_t devnum, struct blockdev *out)
{
	struct udev *udev = udev_new();
	if (!udev)
		return -ENOMEM;
	struct udev_device *u = udev_device_new_from_devnum(udev, 'b', devnum);
	int rc = u ? probe_udev(u, out) : -ENODEV;
	if (u)
		udev_device_unref(u);
	udev_unref(udev);
	return rc;
}

static int cmp_dev(const void *a, const void *b)
{
	const struct blockdev *x = a, *y = b;
	return strcmp(x->name, y->name);
}

int blockdev_list(struct blockdev **out, size_t *n)
{
	struct udev *udev = udev_new();
	if (!udev)
		return -ENOMEM;
	struct udev_enumerate *e = udev_enumerate_new(udev);
	if (!e) {
		udev_unref(udev);
		return -ENOMEM;
	}
	udev_enumerate_add_match_subsystem(e, "block");
	int rc = udev_enumerate_scan_devices(e);
	struct blockdev *v = NULL;
	size_t cnt = 0, cap = 0;
	struct udev_list_entry *ent;
	for (ent = rc < 0 ? NULL : udev_enumerate_get_list_entry(e); ent;
	     ent = udev_list_entry_get_next(ent)) {
		struct udev_device *u = udev_device_new_from_syspath(udev, udev_list_entry_get_name(ent));
		if (!u)
			continue;
		if (cnt == cap) {
			size_t nc = cap ? cap * 2 : 32;
			struct blockdev *nv = realloc(v, nc * sizeof(*nv));
			if (!nv) {
				udev_device_unref(u);
				rc = -ENOMEM;
				break;
			}
			v = nv;
			cap = nc;
		}
		if (probe_udev(u, &v[cnt]) == 0)
			cnt++;
		udev_device_unref(u);
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	if (rc < 0) {
		free(v);
		return rc;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_dev);
	*out = v;
	*n = cnt;
	return 0;
}

int blockdev_resolve_name(const char *arg, char *name, size_t len)
{
	if (!arg || !*arg)
		return -ENODEV;
	struct udev *udev = udev_new();
	if (!udev)
		return -ENOMEM;
	struct udev_device *u = NULL;
	if (strchr(arg, '/')) {
		struct stat st;
		if (stat(arg, &st) == 0 && S_ISBLK(st.st_mode))
			u = udev_device_new_from_devnum(udev, 'b', st.st_rdev);
		else if (!strncmp(arg, "/dev/", 5) && !strchr(arg + 5, '/'))
			u = open_name(udev, arg + 5);   /* node not there: the name */
	} else {
		u = open_name(udev, arg);
	}
	int rc = -ENODEV;
	if (u) {
		const char *sn = udev_device_get_sysname(u);
		if (sn && strlen(sn) < len) {
			memcpy(name, sn, strlen(sn) + 1);
			rc = 0;
		} else if (sn) {
			rc = -ENAMETOOLONG;
		}
		udev_device_unref(u);
	}
	udev_unref(udev);
	return rc;
}

const char *blockdev_kind_name(enum blockdev_kind kind)
{
	switch (kind) {
	case BLOCKDEV_DISK: return "disk";
	case BLOCKDEV_PARTITION: return "partition";
	case BLOCKDEV_MD: return "md";
	case BLOCKDEV_DM: return "dm";
	case BLOCKDEV_LOOP: return "loop";
	case BLOCKDEV_ZRAM: return "zram";
	}
	return "unknown";
}

const char *blockdev_iosched(const struct blockdev *d, const char *name)
{
	for (size_t i = 0; i < d->queue.n_iosched; i++)
		if (!strcmp(d->queue.iosched[i].name, name))
			return d->queue.iosched[i].value;
	return NULL;
}
