#include "blockdev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <libudev.h>

#include "pcidb.h"
#include "sysfs.h"
#include "str.h"

/* One device being probed: its attributes are read relative to its sysfs
 * directory, opened once (a path walk of one or two components each). */
struct probe {
	struct blockdev *d;
	int dfd;    /* -1 if the directory could not be opened */
};

/* Read rel into dst (trimmed); leaves "" when absent. */
static void attr(const struct probe *p, const char *rel, char *dst, size_t len)
{
	int rc = sysfs_read_at(p->dfd, rel, dst, len);
	if (rc < 0 && rc != -EOVERFLOW)
		dst[0] = '\0';
}

static int64_t attr_num(const struct probe *p, const char *rel)
{
	int64_t v;
	return sysfs_read_s64_at(p->dfd, rel, &v) == 0 ? v : -1;
}

static int attr_bool(const struct probe *p, const char *rel)
{
	int64_t v = attr_num(p, rel);
	return v < 0 ? -1 : v != 0;
}

/* The udev properties brisk reads, in prop_keys order. */
enum { P_BUS, P_ATA_SATA, P_MODEL_ENC, P_MODEL, P_VENDOR, P_SERIAL_SHORT, P_REVISION,
       P_WWN, P_N };
static const char *const prop_keys[P_N] = {
	"ID_BUS", "ID_ATA_SATA", "ID_MODEL_ENC", "ID_MODEL", "ID_VENDOR",
	"ID_SERIAL_SHORT", "ID_REVISION", "ID_WWN",
};

/* What udev says about one device: the kernel's uevent keys and udev's
 * properties (NULL when absent).  probe_udev() asks libudev; blockdev_list
 * reads the same two files libudev reads (props_from_files).  The strings
 * belong to their source and live as long as it does. */
struct props {
	const char *sysname, *devname, *devtype;
	dev_t devnum;
	const char *id[P_N];
};

/* First non-empty of a udev property value and sysfs attributes; 1 when
 * the value is udev's. */
static int fill(const char *prop, const struct probe *p, const char *const *rels,
		char *dst, size_t len)
{
	str_copy(dst, len, prop);
	if (dst[0])
		return 1;
	for (; !dst[0] && rels && *rels; rels++)
		attr(p, *rels, dst, len);
	return 0;
}

static enum blockdev_kind kind_of(const char *devtype, const struct blockdev *d)
{
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

/* The device path names every layer between the PCI bus and the disk, e.g.
 * /sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda
 * Reading it as a string is exact and costs no further sysfs lookups (a
 * libudev parent walk opens a dozen files per layer, per disk). */
static int comp_is(const char *c, size_t n, const char *prefix, int digit)
{
	size_t pl = strlen(prefix);
	if (n < pl || strncmp(c, prefix, pl))
		return 0;
	return !digit || (n > pl && str_is_digit((unsigned char)c[pl]));
}

static int is_pci_addr(const char *c, size_t n)
{
	/* DDDD:BB:DD.F */
	if (n != 12 || c[4] != ':' || c[7] != ':' || c[10] != '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (i != 4 && i != 7 && i != 10 && !str_is_xdigit((unsigned char)c[i]))
			return 0;
	return 1;
}

enum { T_NONE, T_SCSI, T_SAS, T_ATA, T_VIRTIO, T_MMC, T_NVME, T_USB };

/* Transport (highest-precedence layer seen: a USB-SATA bridge is usb) and
 * the nearest PCI function's path. */
static int scan_path(const char *syspath, char *pci, size_t pcilen)
{
	int t = T_NONE;
	pci[0] = '\0';
	const char *p = syspath;
	size_t n;
	for (const char *c; (c = sysfs_path_next(&p, &n));) {
		int k = T_NONE;
		if (comp_is(c, n, "usb", 1))
			k = T_USB;
		else if ((n == 4 && !strncmp(c, "nvme", 4)) || comp_is(c, n, "nvme-subsystem", 0))
			k = T_NVME;
		else if (comp_is(c, n, "mmc_host", 0))
			k = T_MMC;
		else if (comp_is(c, n, "virtio", 1))
			k = T_VIRTIO;
		else if (comp_is(c, n, "ata", 1))
			k = T_ATA;
		else if (comp_is(c, n, "end_device-", 0))
			k = T_SAS;
		else if (comp_is(c, n, "host", 1))
			k = T_SCSI;
		else if (is_pci_addr(c, n) && (size_t)(p - syspath) < pcilen) {
			memcpy(pci, syspath, (size_t)(p - syspath));
			pci[p - syspath] = '\0';
		}
		if (k > t)
			t = k;
	}
	return t;
}

static void detect_transport(const struct props *pr, struct blockdev *d, int t)
{
	const char *s = "";
	const char *bus = pr->id[P_BUS];
	switch (t) {
	case T_USB: s = "usb"; break;
	case T_NVME: s = "nvme"; break;
	case T_MMC: s = "mmc"; break;
	case T_VIRTIO: s = "virtio"; break;
	case T_SAS: s = "sas"; break;
	case T_ATA: {
		/* PATA only when udev says the link is not SATA */
		const char *sata = pr->id[P_ATA_SATA];
		s = sata && !strcmp(sata, "0") ? "ata" : "sata";
		break;
	}
	case T_SCSI:
		s = bus && !strcmp(bus, "ata") ? "sata" : "scsi";
		break;
	default:
		if (bus && !strcmp(bus, "usb"))
			s = "usb";
		else if (bus && !strcmp(bus, "ata"))
			s = "sata";
		else if (!strncmp(d->name, "nvme", 4))
			s = "nvme";
		else if (!strncmp(d->name, "mmcblk", 6))
			s = "mmc";
		else if (!strncmp(d->name, "vd", 2))
			s = "virtio";
		break;
	}
	str_copy(d->transport, sizeof(d->transport), s);
}

/* The last controller read: disks come in runs behind one controller,
 * so this saves two reads per disk. */
static struct {
	char path[256];
	unsigned vendor, device;
} pci_last;

static void detect_controller(struct blockdev *d, const char *pci)
{
	if (!pci[0])
		return;
	const char *slash = strrchr(pci, '/');
	str_copy(d->pci_slot, sizeof(d->pci_slot), slash ? slash + 1 : pci);
	if (strcmp(pci_last.path, pci)) {
		char buf[32];
		pci_last.vendor = pci_last.device = 0;
		if (sysfs_readf(buf, sizeof(buf), "%s/vendor", pci) == 0)
			pci_last.vendor = (unsigned)strtoul(buf, NULL, 16);
		if (sysfs_readf(buf, sizeof(buf), "%s/device", pci) == 0)
			pci_last.device = (unsigned)strtoul(buf, NULL, 16);
		str_copy(pci_last.path, sizeof(pci_last.path), pci);
	}
	d->pci_vendor = pci_last.vendor;
	d->pci_device = pci_last.device;
}

/* The last name looked up, for the same reason. */
static struct {
	unsigned vendor, device;
	char name[192];
} name_last;

const char *blockdev_controller(const struct blockdev *d)
{
	if (!d->pci_vendor)
		return "";
	if (name_last.vendor != d->pci_vendor || name_last.device != d->pci_device) {
		name_last.vendor = d->pci_vendor;
		name_last.device = d->pci_device;
		if (pcidb_name(d->pci_vendor, d->pci_device, name_last.name,
			       sizeof(name_last.name)) < 0)
			snprintf(name_last.name, sizeof(name_last.name), "PCI device %04x:%04x",
				 d->pci_vendor, d->pci_device);
	}
	return name_last.name;
}

/* udev's ID_MODEL_ENC keeps the real spaces as \x20 (ID_MODEL has '_');
 * sysfs device/model is cut to 16 characters for ATA disks. */
static void decode_enc(char *dst, size_t len, const char *src)
{
	size_t o = 0;
	for (; src && *src && o + 1 < len; src++) {
		unsigned v;
		if (src[0] == '\\' && src[1] == 'x' && str_is_xdigit((unsigned char)src[2]) &&
		    str_is_xdigit((unsigned char)src[3]) && sscanf(src + 2, "%2x", &v) == 1) {
			dst[o++] = (char)v;
			src += 3;
		} else {
			dst[o++] = *src;
		}
	}
	dst[o] = '\0';
	sysfs_trim(dst);
}

static void read_queue(const struct probe *p)
{
	struct blockdev *d = p->d;
	struct blockdev_queue *q = &d->queue;
	char raw[256];
	attr(p, "queue/scheduler", raw, sizeof(raw));
	sysfs_parse_choice(raw, q->scheduler, sizeof(q->scheduler),
			   q->schedulers, sizeof(q->schedulers));
	/* "none" alone (md, dm, some virtual disks) means no elevator to pick */
	q->nr_requests = attr_num(p, "queue/nr_requests");
	q->read_ahead_kb = attr_num(p, "queue/read_ahead_kb");
	q->wbt_lat_usec = attr_num(p, "queue/wbt_lat_usec");
	q->max_sectors_kb = attr_num(p, "queue/max_sectors_kb");
	q->rq_affinity = attr_num(p, "queue/rq_affinity");
	q->nomerges = attr_num(p, "queue/nomerges");
	q->queue_depth = attr_num(p, "device/queue_depth");
	q->n_iosched = 0;
	char **names;
	size_t n;
	if (sysfs_list_at(p->dfd, "queue/iosched", &names, &n) < 0)
		return;
	for (size_t i = 0; i < n && q->n_iosched < BLOCKDEV_MAX_IOSCHED; i++) {
		struct blockdev_tunable *t = &q->iosched[q->n_iosched];
		if (strlen(names[i]) >= sizeof(t->name))
			continue;
		str_copy(t->name, sizeof(t->name), names[i]);
		char rel[96];
		snprintf(rel, sizeof(rel), "queue/iosched/%s", names[i]);
		attr(p, rel, t->value, sizeof(t->value));
		q->n_iosched++;
	}
	sysfs_list_free(names, n);
}

static void read_slaves(const struct probe *p)
{
	struct blockdev *d = p->d;
	char **names;
	size_t n;
	d->n_slaves = 0;
	if (sysfs_list_at(p->dfd, "slaves", &names, &n) < 0)
		return;
	for (size_t i = 0; i < n && d->n_slaves < BLOCKDEV_MAX_SLAVES; i++)
		if (strlen(names[i]) < BLOCKDEV_NAME_LEN)
			str_copy(d->slaves[d->n_slaves++], BLOCKDEV_NAME_LEN, names[i]);
	sysfs_list_free(names, n);
}

static void read_md(const struct probe *p)
{
	struct blockdev *d = p->d;
	attr(p, "md/level", d->md_level, sizeof(d->md_level));
	attr(p, "md/array_state", d->md_state, sizeof(d->md_state));
	d->md_raid_disks = (int)attr_num(p, "md/raid_disks");
	d->md_degraded = (int)attr_num(p, "md/degraded");
	for (size_t i = 0; i < d->n_slaves; i++) {
		char rel[96];
		snprintf(rel, sizeof(rel), "md/dev-%s/state", d->slaves[i]);
		attr(p, rel, d->md_member_state[i], sizeof(d->md_member_state[i]));
	}
}

static void read_dm(const struct probe *p)
{
	struct blockdev *d = p->d;
	attr(p, "dm/name", d->dm_name, sizeof(d->dm_name));
	attr(p, "dm/uuid", d->dm_uuid, sizeof(d->dm_uuid));
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
	str_copy(d->dm_target, sizeof(d->dm_target), t);
}

static int probe_attrs(const struct props *pr, const struct probe *p);

/* Fill d from udev's view of the device and its sysfs directory (dfd, or
 * -1 when it could not be opened: the attributes then stay unknown). */
static int probe_dev(const struct props *pr, const char *syspath, int dfd, struct blockdev *d)
{
	memset(d, 0, sizeof(*d));
	str_copy(d->name, sizeof(d->name), pr->sysname);
	str_copy(d->syspath, sizeof(d->syspath), syspath);
	/* DEVNAME is relative to /dev in uevent files, absolute from libudev */
	if (pr->devname && *pr->devname)
		snprintf(d->devnode, sizeof(d->devnode), "%s%s",
			 strncmp(pr->devname, "/dev/", 5) ? "/dev/" : "", pr->devname);
	d->major = major(pr->devnum);
	d->minor = minor(pr->devnum);
	d->kind = kind_of(pr->devtype, d);
	d->rotational = d->removable = d->readonly = -1;
	d->md_raid_disks = d->md_degraded = d->loop_dio = -1;
	struct probe p = { d, dfd };
	return probe_attrs(pr, &p);
}

static int probe_udev(struct udev_device *u, struct blockdev *d)
{
	struct props pr = {
		.sysname = udev_device_get_sysname(u),
		.devname = udev_device_get_devnode(u),
		.devtype = udev_device_get_devtype(u),
		.devnum = udev_device_get_devnum(u),
	};
	for (size_t i = 0; i < P_N; i++)
		pr.id[i] = udev_device_get_property_value(u, prop_keys[i]);
	const char *syspath = udev_device_get_syspath(u);
	int dfd = sysfs_dir_open(syspath);
	int rc = probe_dev(&pr, syspath, dfd, d);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

static int probe_attrs(const struct props *pr, const struct probe *p)
{
	struct blockdev *d = p->d;
	int64_t sectors = attr_num(p, "size");
	d->size_bytes = sectors > 0 ? (uint64_t)sectors * 512u : 0;
	d->readonly = attr_bool(p, "ro");
	read_slaves(p);

	if (d->kind == BLOCKDEV_PARTITION) {
		/* a partition's directory sits inside its disk's */
		char up[sizeof(d->syspath)];
		str_copy(up, sizeof(up), d->syspath);
		char *slash = strrchr(up, '/');
		if (slash) {
			*slash = '\0';
			slash = strrchr(up, '/');
			str_copy(d->parent, sizeof(d->parent), slash ? slash + 1 : "");
		}
		d->partition = (int)attr_num(p, "partition");
		return 0;
	}
	d->removable = attr_bool(p, "removable");
	d->rotational = attr_bool(p, "queue/rotational");
	read_queue(p);

	switch (d->kind) {
	case BLOCKDEV_MD:
		read_md(p);
		return 0;
	case BLOCKDEV_DM:
		read_dm(p);
		return 0;
	case BLOCKDEV_LOOP:
		attr(p, "loop/backing_file", d->backing_file, sizeof(d->backing_file));
		d->loop_dio = attr_bool(p, "loop/dio");
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
	static const char *const nvme_wwn_rel[] = { "wwid", NULL };
	static const char *const scsi_wwn_rel[] = { "device/wwid", NULL };
	char pci[sizeof(d->syspath)];
	detect_transport(pr, d, scan_path(d->syspath, pci, sizeof(pci)));
	detect_controller(d, pci);
	/* device/ is the SCSI device, the NVMe controller, or (virtio, mmc) a
	 * bus device whose vendor/model attributes are numeric IDs, not names. */
	int named = strcmp(d->transport, "virtio") && strcmp(d->transport, "mmc");
	decode_enc(d->model, sizeof(d->model), pr->id[P_MODEL_ENC]);
	if (!d->model[0])
		fill(NULL, p, named ? model_rel : NULL, d->model, sizeof(d->model));
	if (!d->model[0])
		fill(pr->id[P_MODEL], p, NULL, d->model, sizeof(d->model));
	if (!d->model[0] && !strcmp(d->transport, "mmc"))
		attr(p, "device/name", d->model, sizeof(d->model));
	fill(pr->id[P_VENDOR], p, named ? vendor_rel : NULL, d->vendor, sizeof(d->vendor));
	d->serial_udev = fill(pr->id[P_SERIAL_SHORT], p, serial_rel, d->serial, sizeof(d->serial));
	fill(pr->id[P_REVISION], p, named ? fw_rel : NULL, d->firmware, sizeof(d->firmware));
	if (!d->firmware[0] && !strcmp(d->transport, "mmc"))
		attr(p, "device/fwrev", d->firmware, sizeof(d->firmware));
	d->wwn_udev = fill(pr->id[P_WWN], p, !strcmp(d->transport, "nvme") ? nvme_wwn_rel :
				    named ? scsi_wwn_rel : NULL, d->wwn, sizeof(d->wwn));
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

/* One device as blockdev_list reads it: its uevent file and its udev
 * database entry, which is what libudev reads too, and the props pointing
 * into them. */
struct rawdev {
	char sysname[BLOCKDEV_NAME_LEN];
	char uevent[8192];
	char *db;
	struct props pr;
};

/* Take "KEY=VALUE" lines (each after prefix, "" for uevent, "E:" for the
 * database) from buf, splitting it in place; a later source overrides an
 * earlier one, as in libudev. */
static void props_parse(char *buf, const char *prefix, struct props *pr)
{
	size_t pl = strlen(prefix);
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, prefix, pl))
			continue;
		char *key = line + pl, *eq = strchr(key, '=');
		if (!eq)
			continue;
		*eq = '\0';
		const char *val = eq + 1;
		if (!strcmp(key, "DEVNAME"))
			pr->devname = val;
		else if (!strcmp(key, "DEVTYPE"))
			pr->devtype = val;
		else if (!strcmp(key, "MAJOR"))
			pr->devnum = makedev((unsigned)strtoul(val, NULL, 10), minor(pr->devnum));
		else if (!strcmp(key, "MINOR"))
			pr->devnum = makedev(major(pr->devnum), (unsigned)strtoul(val, NULL, 10));
		else if (!strncmp(key, "ID_", 3))
			for (size_t i = 0; i < P_N; i++)
				if (!strcmp(key, prop_keys[i])) {
					pr->id[i] = val;
					break;
				}
	}
}

/* udev's view of the device in directory dfd named name, as libudev builds
 * it: the uevent file's keys, then the E: lines of the udev database entry
 * /run/udev/data/bMAJOR:MINOR when udev has processed the device. */
static int props_from_files(int dfd, const char *name, struct rawdev *r)
{
	memset(&r->pr, 0, sizeof(r->pr));
	r->db = NULL;
	str_copy(r->sysname, sizeof(r->sysname), name);
	for (char *c = r->sysname; *c; c++)
		if (*c == '!')
			*c = '/';   /* cciss!c0d0 is cciss/c0d0, as libudev names it */
	r->pr.sysname = r->sysname;
	int rc = sysfs_read_at(dfd, "uevent", r->uevent, sizeof(r->uevent));
	if (rc == -EOVERFLOW) {
		/* never a real kernel's (a page at most); drop the cut line */
		char *nl = strrchr(r->uevent, '\n');
		*(nl ? nl : r->uevent) = '\0';
	} else if (rc < 0) {
		return rc;
	}
	props_parse(r->uevent, "", &r->pr);
	char path[64];
	snprintf(path, sizeof(path), "/run/udev/data/b%u:%u",
		 major(r->pr.devnum), minor(r->pr.devnum));
	if (sysfs_read_alloc(path, &r->db, NULL) == 0)
		props_parse(r->db, "E:", &r->pr);
	return 0;
}

/* Enumeration lists /sys/class/block, resolves each link with one
 * readlink, and reads what udev knows of the device from the two files
 * libudev itself reads (uevent and the udev database entry).  Creating a
 * libudev device costs a chase of every component of its path with several
 * syscalls each, and libudev's enumerator walks them all again: for 1,000
 * disks the enumerator alone took 280 ms and per-device libudev objects
 * 35 % of the run.  Single devices (blockdev_probe*) still go through
 * libudev, and the tests check that both give the same result. */
int blockdev_list(struct blockdev **out, size_t *n)
{
	char **names;
	size_t nn;
	int rc = sysfs_list("/sys/class/block", &names, &nn);
	if (rc < 0)
		return rc;
	struct blockdev *v = nn ? calloc(nn, sizeof(*v)) : NULL;
	struct rawdev *r = malloc(sizeof(*r));
	if ((nn && !v) || !r) {
		free(v);
		free(r);
		sysfs_list_free(names, nn);
		return -ENOMEM;
	}
	size_t cnt = 0;
	for (size_t i = 0; i < nn; i++) {
		char link[512], syspath[512];
		snprintf(link, sizeof(link), "/sys/class/block/%s", names[i]);
		if (sysfs_link(link, syspath, sizeof(syspath)) < 0)
			continue;
		int dfd = sysfs_dir_open(syspath);
		if (dfd < 0)
			continue;   /* vanished meanwhile */
		if (props_from_files(dfd, names[i], r) == 0 &&
		    probe_dev(&r->pr, syspath, dfd, &v[cnt]) == 0)
			cnt++;
		free(r->db);
		close(dfd);
	}
	free(r);
	sysfs_list_free(names, nn);
	*out = v;
	*n = cnt;   /* names were sorted, so the devices are too */
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
