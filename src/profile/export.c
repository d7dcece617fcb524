/* export — profiles as udev rules, tuned profiles, sysctl.d, sysfs.conf and
 * tmpfiles.d files.  See export.h. */
#include "export.h"
#include "devclass.h"
#include "msg.h"
#include "text.h"
#include "tunable.h"
#include "str.h"

#include <errno.h>
#include <string.h>

static const char *const format_names[EXPORT_FORMAT_COUNT] = {
	[EXPORT_UDEV] = "udev", [EXPORT_TUNED] = "tuned", [EXPORT_SYSCTL] = "sysctl",
	[EXPORT_SYSFS_CONF] = "sysfs.conf", [EXPORT_TMPFILES] = "tmpfiles",
};


int export_format_parse(const char *s, enum export_format *out)
{
	for (int i = 0; i < EXPORT_FORMAT_COUNT; i++)
		if (strcmp(s, format_names[i]) == 0) {
			*out = (enum export_format)i;
			return 0;
		}
	if (strcmp(s, "sysctl.d") == 0 || strcmp(s, "tmpfiles.d") == 0 ||
	    strcmp(s, "sysfs") == 0) {
		*out = s[1] == 'y' ? (s[3] == 'c' ? EXPORT_SYSCTL : EXPORT_SYSFS_CONF) :
		       EXPORT_TMPFILES;
		return 0;
	}
	return -EINVAL;
}

const char *export_format_name(enum export_format f)
{
	return (unsigned)f < EXPORT_FORMAT_COUNT ? format_names[f] : "?";
}

void export_device_from_blockdev(const struct blockdev *d, struct export_device *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", d->name);
	out->cls = devclass_of(d);
	snprintf(out->model, sizeof(out->model), "%s", d->model);
	snprintf(out->serial, sizeof(out->serial), "%s", d->serial);
	snprintf(out->wwn, sizeof(out->wwn), "%s", d->wwn);
	out->serial_udev = d->serial_udev;
	out->wwn_udev = d->wwn_udev;
}

/* ---------- helpers ---------- */

static enum profile_scope scope_of(const char *key)
{
	enum profile_scope s = PROFILE_SCOPE_QUEUE;
	profile_setting_info(key, &s, NULL);
	return s;
}

/* What a list of device settings is for. */
enum dev_use {
	USE_CLASS,   /* rules for a class of disks: no hardware-bound values, no
		      * queue_depth where there is no SCSI device (nvme, mmc) */
	USE_FIXED,   /* one known device: everything */
	USE_APPLY,   /* --apply on this machine's disks, each checked on its
		      * own: hardware-bound values kept, queue_depth as USE_CLASS */
};

/* Device settings (not vm.*) that apply to class cls, in order, for use. */
static size_t device_settings(const struct profile *p, enum profile_class cls, enum dev_use use,
			      const struct profile_setting **out, size_t max)
{
	const struct profile_setting *all[PROFILE_MAX_SETTINGS];
	size_t n = profile_effective(p, cls, all, PROFILE_MAX_SETTINGS), k = 0;
	if (n > PROFILE_MAX_SETTINGS)
		n = PROFILE_MAX_SETTINGS;
	for (size_t i = 0; i < n; i++) {
		enum profile_scope s = scope_of(all[i]->key);
		if (s == PROFILE_SCOPE_VM)
			continue;
		if (s == PROFILE_SCOPE_DEVICE && use != USE_FIXED &&
		    (cls == PROFILE_CLASS_NVME || cls == PROFILE_CLASS_MMC))
			continue;
		if (use == USE_CLASS && tunable_hw_bound(all[i]->key))
			continue;
		if (k < max)
			out[k++] = all[i];
	}
	return k;
}

static size_t vm_settings(const struct profile *p, const struct profile_setting **out, size_t max)
{
	const struct profile_setting *all[PROFILE_MAX_SETTINGS];
	size_t n = profile_effective(p, PROFILE_CLASS_ALL, all, PROFILE_MAX_SETTINGS), k = 0;
	if (n > PROFILE_MAX_SETTINGS)
		n = PROFILE_MAX_SETTINGS;
	for (size_t i = 0; i < n; i++)
		if (scope_of(all[i]->key) == PROFILE_SCOPE_VM && k < max)
			out[k++] = all[i];
	return k;
}

/* sysfs path of a setting below the device directory. */
static void attr_path(const struct profile_setting *s, char *buf, size_t len)
{
	switch (scope_of(s->key)) {
	case PROFILE_SCOPE_IOSCHED:
		snprintf(buf, len, "queue/iosched/%s", s->key);
		break;
	case PROFILE_SCOPE_DEVICE:
		snprintf(buf, len, "device/%s", s->key);
		break;
	case PROFILE_SCOPE_BDI:
		/* the disk's bdi link: /sys/block/DEV/bdi -> its MAJ:MIN */
		snprintf(buf, len, "bdi/%s", s->key + 4);
		break;
	case PROFILE_SCOPE_QUEUE:
	case PROFILE_SCOPE_VM:
		snprintf(buf, len, "queue/%s", s->key);
		break;
	}
}

/* /proc/sys path of a vm.* key. */
static void proc_path(const char *key, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/sys/%s", key);
	for (char *c = buf + 10; *c; c++)
		if (*c == '.')
			*c = '/';
}

/* The classes a by-class export covers: all four when [settings] has device
 * settings, else those with settings of their own. */
static int class_covered(const struct profile *p, enum profile_class cls)
{
	const struct profile_setting *s[PROFILE_MAX_SETTINGS];
	if (device_settings(p, PROFILE_CLASS_ALL, USE_CLASS, s, PROFILE_MAX_SETTINGS))
		return 1;
	return profile_class_has_own(p, cls);
}

static const char *const class_label[PROFILE_CLASS_COUNT] = {
	[PROFILE_CLASS_ALL] = "all disks",
	[PROFILE_CLASS_ROTATIONAL] = "rotational SATA/SAS, virtio and Xen disks",
	[PROFILE_CLASS_SSD] = "non-rotational SATA/SAS (SSDs), virtio and Xen disks",
	[PROFILE_CLASS_NVME] = "NVMe namespaces",
	[PROFILE_CLASS_MMC] = "MMC/SD cards and eMMC",
};

/* The class matches (export.h, brisk-export(1)): SCSI/SATA disks, virtio
 * (vd*) and Xen (xvd*) disks split by their rotational flag, so that a
 * desktop VM's disk gets a rule too.  udev(7): "|" separates alternative
 * patterns. */
#define KERNEL_DISKS "KERNEL==\"sd[a-z]*|vd[a-z]*|xvd[a-z]*\""
static const char *const udev_match[PROFILE_CLASS_COUNT] = {
	[PROFILE_CLASS_ALL] = "",
	[PROFILE_CLASS_ROTATIONAL] = KERNEL_DISKS ", ATTR{queue/rotational}==\"1\"",
	[PROFILE_CLASS_SSD] = KERNEL_DISKS ", ATTR{queue/rotational}==\"0\"",
	[PROFILE_CLASS_NVME] = "KERNEL==\"nvme[0-9]*n[0-9]*\"",
	[PROFILE_CLASS_MMC] = "KERNEL==\"mmcblk[0-9]*\"",
};
#undef KERNEL_DISKS

/* Comment text from data: escaped (text.h), so no CR, LF or other control
 * byte can end the comment and start a line of config. */
static void header(FILE *f, const struct profile *p, const char *fmt,
		   const struct export_device *dev, const char *install, const char *comment)
{
	fprintf(f, "%s Generated by brisk from profile \"", comment);
	text_fputs(p->name, f);
	fprintf(f, "\"%s", p->description[0] ? ": " : "");
	text_fputs(p->description, f);
	fprintf(f, "\n%s brisk export ", comment);
	text_fputs(p->name, f);
	fprintf(f, " --format %s%s", fmt, dev ? " --device " : "");
	text_fputs(dev ? dev->name : "", f);
	fputc('\n', f);
	if (install) {
		/* install holds one %s: the profile's name */
		fprintf(f, "%s ", comment);
		for (const char *c = install; *c; c++) {
			if (c[0] == '%' && c[1] == 's') {
				text_fputs(p->name, f);
				c++;
			} else {
				fputc(*c, f);
			}
		}
		fputc('\n', f);
	}
}

/* A value udev compares literally inside "...": printable ASCII (space too) without
 * the quote, the backslash (an escape in newer udev) and the glob
 * characters *?[]| (a serial "*" would match every disk).  Anything else is
 * not written into a match; the rule is refused instead. */
static int safe_udev_value(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7E || strchr("\"\\*?[]|", *s))
			return 0;
	return 1;
}

/* A word written unquoted into config (device names, setting keys and
 * values, the profile's name): letters, digits and . _ - : + ! only, so
 * that no format's parser can read a separator, quote, escape, specifier
 * (tmpfiles '%') or line break into it. */
static int safe_token(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!str_is_alnum((unsigned char)*s) && !strchr("._-:+!", *s))
			return 0;
	return 1;
}

/* Everything export_write() writes unquoted, checked before any output. */
static int check_tokens(const struct profile *p, const struct export_device *dev,
			char *err, size_t errlen)
{
	if (!safe_token(p->name) || p->name[0] == '.' || p->name[0] == '-')
		return msg_fail(-EINVAL, err, errlen, "the profile's name '%s' cannot name a config "
				"file, expected letters, digits, '-', '_' or '.' (give name = NAME)",
				text_show(p->name));
	for (size_t i = 0; i < p->n_settings; i++) {
		const struct profile_setting *s = &p->settings[i];
		if (!safe_token(s->key) || !safe_token(s->value))
			return msg_fail(-EINVAL, err, errlen, "setting %s = '%s' cannot be written "
					"into config, expected a known key and a number or name",
					text_show(s->key), text_show(s->value));
	}
	if (dev && !safe_token(dev->name))
		return msg_fail(-EINVAL, err, errlen, "device name '%s' cannot be written into "
				"config, expected letters, digits and . _ - : + !",
				text_show(dev->name));
	return 0;
}

size_t export_device_settings(const struct profile *p, enum profile_class cls, int fixed,
			      const struct profile_setting **out, size_t max)
{
	return device_settings(p, cls, fixed ? USE_FIXED : USE_APPLY, out, max);
}

size_t export_vm_settings(const struct profile *p, const struct profile_setting **out,
			  size_t max)
{
	return vm_settings(p, out, max);
}

size_t export_dropped(const struct profile *p, enum export_format fmt,
		      const struct export_device *dev, const struct profile_setting **out,
		      size_t max)
{
	if (dev || (fmt != EXPORT_UDEV && fmt != EXPORT_TUNED))
		return 0;
	size_t k = 0;
	for (int c = PROFILE_CLASS_ROTATIONAL; c < PROFILE_CLASS_COUNT; c++) {
		const struct profile_setting *s[PROFILE_MAX_SETTINGS];
		size_t n = device_settings(p, (enum profile_class)c, USE_APPLY, s,
					   PROFILE_MAX_SETTINGS);
		for (size_t i = 0; i < n; i++) {
			if (!tunable_hw_bound(s[i]->key))
				continue;
			size_t j = 0;
			while (j < k && out[j] != s[i])
				j++;
			if (j == k && k < max)
				out[k++] = s[i];
		}
	}
	return k;
}

/* The hardware-bound values a class export left out, in a comment. */
static void dropped_note(FILE *f, const struct profile *p, enum export_format fmt)
{
	const struct profile_setting *d[PROFILE_MAX_SETTINGS];
	size_t n = export_dropped(p, fmt, NULL, d, PROFILE_MAX_SETTINGS);
	if (!n)
		return;
	fprintf(f, "\n# Hardware-bound, so not in the class rules (see brisk-export(1)):");
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s=%s", d[i]->key, d[i]->value);
	fprintf(f, "\n");
}

/* ---------- formats ---------- */

static void udev_rule(FILE *f, const char *match, const struct profile_setting **s, size_t n)
{
	fprintf(f, "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", %s",
		match);
	for (size_t i = 0; i < n; i++) {
		char path[96];
		attr_path(s[i], path, sizeof(path));
		fprintf(f, ", \\\n  ATTR{%s}=\"%s\"", path, s[i]->value);
	}
	fprintf(f, "\n");
}

static void vm_note(FILE *f, const struct profile *p, const char *comment)
{
	const struct profile_setting *vm[16];
	size_t n = vm_settings(p, vm, 16);
	if (!n)
		return;
	fprintf(f, "\n%s Not device settings (use --format sysctl):", comment);
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s=%s", vm[i]->key, vm[i]->value);
	fprintf(f, "\n");
}

static int write_udev(FILE *f, const struct profile *p, const struct export_device *dev,
		      char *err, size_t errlen)
{
	const struct profile_setting *s[PROFILE_MAX_SETTINGS];
	if (dev) {
		size_t n = device_settings(p, dev->cls, USE_FIXED, s, PROFILE_MAX_SETTINGS);
		if (!n)
			return msg_fail(-EINVAL, err, errlen, "profile %s has no settings for %s (a %s disk): "
				    "nothing to write as udev rules", p->name, dev->name,
				    profile_class_name(dev->cls));
		/* udev's own property when the value came from udev; otherwise
		 * the sysfs attribute it was read from, which ATTRS finds on the
		 * disk or its parent (udev sets no ID_SERIAL_SHORT for virtio,
		 * and ID_WWN is "0x..." where a SCSI wwid says "naa....") */
		char match[192];
		if (dev->wwn[0] && safe_udev_value(dev->wwn))
			snprintf(match, sizeof(match), dev->wwn_udev ? "ENV{ID_WWN}==\"%s\"" :
				 "ATTRS{wwid}==\"%s\"", dev->wwn);
		else if (dev->serial[0] && safe_udev_value(dev->serial))
			snprintf(match, sizeof(match), dev->serial_udev ?
				 "ENV{ID_SERIAL_SHORT}==\"%s\"" : "ATTRS{serial}==\"%s\"",
				 dev->serial);
		else if (dev->wwn[0] || dev->serial[0])
			return msg_fail(-EINVAL, err, errlen, "%s's %s '%s' holds characters a udev "
					"match cannot take literally (control bytes, quotes, "
					"backslashes, non-ASCII or *?[]|), so a rule cannot "
					"match it: use --match class, or --format sysfs.conf/tmpfiles "
					"for this device", text_show(dev->name),
					dev->serial[0] ? "serial number" : "WWN",
					text_show(dev->serial[0] ? dev->serial : dev->wwn));
		else
			return msg_fail(-EINVAL, err, errlen, "%s has neither a WWN nor a serial number, "
				    "so a rule cannot match it: use --match class, or "
				    "--format sysfs.conf/tmpfiles for this device", text_show(dev->name));
		header(f, p, "udev --match this-device", dev,
		       "Install as /etc/udev/rules.d/60-brisk-%s.rules, then: udevadm control --reload "
		       "&& udevadm trigger --subsystem-match=block --action=change", "#");
		fprintf(f, "\n# %s%s%s (%s, %s now)\n", text_show(dev->model),
			dev->model[0] ? " " : "", text_show(dev->wwn[0] ? dev->wwn : dev->serial),
			profile_class_name(dev->cls), text_show(dev->name));
		udev_rule(f, match, s, n);
		vm_note(f, p, "#");
		return 0;
	}
	int any = 0;
	for (int c = PROFILE_CLASS_ROTATIONAL; c < PROFILE_CLASS_COUNT; c++)
		if (class_covered(p, (enum profile_class)c) &&
		    device_settings(p, (enum profile_class)c, USE_CLASS, s, PROFILE_MAX_SETTINGS))
			any = 1;
	if (!any)
		return msg_fail(-EINVAL, err, errlen, "profile %s has no device settings: nothing to write as "
			    "udev rules", p->name);
	header(f, p, "udev", NULL,
	       "Install as /etc/udev/rules.d/60-brisk-%s.rules, then: udevadm control --reload "
	       "&& udevadm trigger --subsystem-match=block --action=change", "#");
	for (int c = PROFILE_CLASS_ROTATIONAL; c < PROFILE_CLASS_COUNT; c++) {
		if (!class_covered(p, (enum profile_class)c))
			continue;
		size_t n = device_settings(p, (enum profile_class)c, USE_CLASS, s, PROFILE_MAX_SETTINGS);
		if (!n)
			continue;
		fprintf(f, "\n# %s\n", class_label[c]);
		udev_rule(f, udev_match[c], s, n);
	}
	dropped_note(f, p, EXPORT_UDEV);
	vm_note(f, p, "#");
	return 0;
}

struct tgroup {
	const char *name;       /* section suffix */
	const char *devices;    /* tuned devices=: names, blank-separated (a comma
				 * only splits them in newer tuned) */
	const char *globs[4];   /* /sys/block/GLOB for [sysfs], NULL-terminated */
	enum profile_class cls;
};

static int same_settings(const struct profile_setting **a, size_t na,
			 const struct profile_setting **b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i]->key, b[i]->key) || strcmp(a[i]->value, b[i]->value))
			return 0;
	return 1;
}

static int write_tuned(FILE *f, const struct profile *p, const struct export_device *dev,
		       char *err, size_t errlen)
{
	struct tgroup groups[4];
	size_t ng = 0;
	const struct profile_setting *s[PROFILE_MAX_SETTINGS], *t[PROFILE_MAX_SETTINGS];
	if (dev) {
		groups[ng++] = (struct tgroup){ dev->name, dev->name, { dev->name, NULL }, dev->cls };
	} else {
		int rot = class_covered(p, PROFILE_CLASS_ROTATIONAL);
		int ssd = class_covered(p, PROFILE_CLASS_SSD);
		size_t nr = rot ? device_settings(p, PROFILE_CLASS_ROTATIONAL, USE_CLASS, s, PROFILE_MAX_SETTINGS) : 0;
		size_t ns = ssd ? device_settings(p, PROFILE_CLASS_SSD, USE_CLASS, t, PROFILE_MAX_SETTINGS) : 0;
		/* one [disk] group for sd*, vd*, xvd*: only when both classes get
		 * the same settings (a profile for rotational disks alone would
		 * reach the SSDs too) */
		if (nr && ns && !same_settings(s, nr, t, ns))
			return msg_fail(-EINVAL, err, errlen, "tuned cannot tell rotational from non-rotational "
				    "disks apart (it matches sd*, vd* and xvd* by name only), and "
				    "profile %s sets them differently: use --format udev, or "
				    "--device DEV", p->name);
		if (!nr != !ns)
			return msg_fail(-EINVAL, err, errlen, "profile %s sets %s disks only, and tuned "
				    "cannot leave the %s ones out (it matches sd*, vd* and xvd* by "
				    "name only): use --format udev (it matches queue/rotational), "
				    "--device DEV, or give [settings %s] too", p->name,
				    nr ? "rotational" : "non-rotational (ssd)",
				    nr ? "non-rotational" : "rotational", nr ? "ssd" : "rotational");
		if (nr || ns)
			groups[ng++] = (struct tgroup){ "sd_vd_xvd", "sd* vd* xvd*",
				{ "sd*", "vd*", "xvd*", NULL },
				nr ? PROFILE_CLASS_ROTATIONAL : PROFILE_CLASS_SSD };
		if (class_covered(p, PROFILE_CLASS_NVME))
			groups[ng++] = (struct tgroup){ "nvme", "nvme*", { "nvme*n*", NULL },
				PROFILE_CLASS_NVME };
		if (class_covered(p, PROFILE_CLASS_MMC))
			groups[ng++] = (struct tgroup){ "mmc", "mmcblk*", { "mmcblk*", NULL },
				PROFILE_CLASS_MMC };
	}
	const struct profile_setting *vm[16];
	size_t nvm = vm_settings(p, vm, 16);
	size_t total = nvm;
	for (size_t g = 0; g < ng; g++)
		total += device_settings(p, groups[g].cls, dev ? USE_FIXED : USE_CLASS, s, PROFILE_MAX_SETTINGS);
	if (!total)
		return msg_fail(-EINVAL, err, errlen, "profile %s has no settings: nothing to write as a tuned "
			    "profile", p->name);
	header(f, p, "tuned", dev,
	       "Install as /etc/tuned/brisk-%s/tuned.conf, then: tuned-adm profile brisk-%s",
	       "#");
	fprintf(f, "\n[main]\nsummary=brisk profile %s%s", p->name, p->description[0] ? ": " : "");
	text_fputs(p->description, f);
	fputc('\n', f);
	int sysfs_lines = 0;
	for (size_t g = 0; g < ng; g++) {
		size_t n = device_settings(p, groups[g].cls, dev ? USE_FIXED : USE_CLASS, s, PROFILE_MAX_SETTINGS);
		int disk_keys = 0;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(s[i]->key, "scheduler") || !strcmp(s[i]->key, "read_ahead_kb"))
				disk_keys++;
		sysfs_lines += (int)n - disk_keys;
		if (!disk_keys)
			continue;
		fprintf(f, "\n[disk_%s]\ntype=disk\ndevices=%s\n", groups[g].name, groups[g].devices);
		for (size_t i = 0; i < n; i++) {
			if (!strcmp(s[i]->key, "scheduler"))
				fprintf(f, "elevator=%s\n", s[i]->value);
			else if (!strcmp(s[i]->key, "read_ahead_kb"))
				fprintf(f, "readahead=%s\n", s[i]->value);   /* KiB, tuned's default unit */
		}
	}
	if (sysfs_lines) {
		fprintf(f, "\n[sysfs]\n");
		for (size_t g = 0; g < ng; g++) {
			size_t n = device_settings(p, groups[g].cls, dev ? USE_FIXED : USE_CLASS, s, PROFILE_MAX_SETTINGS);
			for (size_t i = 0; i < n; i++) {
				if (!strcmp(s[i]->key, "scheduler") || !strcmp(s[i]->key, "read_ahead_kb"))
					continue;
				char path[96];
				attr_path(s[i], path, sizeof(path));
				for (size_t k = 0; groups[g].globs[k]; k++)
					fprintf(f, "/sys/block/%s/%s=%s\n", groups[g].globs[k], path,
						s[i]->value);
			}
		}
	}
	if (!dev)
		dropped_note(f, p, EXPORT_TUNED);
	if (nvm) {
		fprintf(f, "\n[sysctl]\n");
		for (size_t i = 0; i < nvm; i++)
			fprintf(f, "%s=%s\n", vm[i]->key, vm[i]->value);
	}
	return 0;
}

/* The disk's dirty limits (bdi.*) of any class, "KEY=VALUE" joined with
 * blanks into buf (cut to fit); how many. */
static size_t bdi_list(const struct profile *p, char *buf, size_t len)
{
	size_t n = 0, o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < p->n_settings; i++) {
		const struct profile_setting *s = &p->settings[i];
		if (scope_of(s->key) != PROFILE_SCOPE_BDI)
			continue;
		n++;
		int w = snprintf(buf + o, len - o, "%s%s%s%s=%s", o ? " " : "",
				 s->cls == PROFILE_CLASS_ALL ? "" : profile_class_name(s->cls),
				 s->cls == PROFILE_CLASS_ALL ? "" : ".", s->key, s->value);
		if (w > 0 && (size_t)w < len - o)
			o += (size_t)w;
	}
	return n;
}

static int write_sysctl(FILE *f, const struct profile *p, char *err, size_t errlen)
{
	const struct profile_setting *vm[16];
	size_t n = vm_settings(p, vm, 16);
	char bdi[512];
	size_t nb = bdi_list(p, bdi, sizeof(bdi));
	if (!n)
		return msg_fail(-EINVAL, err, errlen, "profile %s has no vm.* settings: nothing to write as a "
			    "sysctl.d file%s%s%s", p->name, nb ? " (sysctl.d cannot carry the disk's "
			    "dirty limits, " : "", nb ? bdi : "", nb ? ": they are per device, in "
			    "/sys/block/DEV/bdi/; use --format udev or tuned)" : "");
	header(f, p, "sysctl", NULL, "Install as /etc/sysctl.d/60-brisk-%s.conf, then: sysctl --system",
	       "#");
	fprintf(f, "\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s = %s\n", vm[i]->key, vm[i]->value);
	if (nb)
		fprintf(f, "\n# Not carried: sysctl.d cannot set the disk's dirty limits (per "
			"device,\n# /sys/block/DEV/bdi/): %s\n# Use --format udev or tuned for "
			"them.\n", bdi);
	return 0;
}

static int write_fixed(FILE *f, const struct profile *p, enum export_format fmt,
		       const struct export_device *dev, char *err, size_t errlen)
{
	if (!dev)
		return msg_fail(-EINVAL, err, errlen, "--format %s writes lines for one fixed device: give "
			    "--device DEV (or use --format udev to match by class)",
			    export_format_name(fmt));
	const struct profile_setting *s[PROFILE_MAX_SETTINGS], *vm[16];
	size_t n = device_settings(p, dev->cls, USE_FIXED, s, PROFILE_MAX_SETTINGS);
	size_t nvm = vm_settings(p, vm, 16);
	if (!n && (fmt == EXPORT_SYSFS_CONF || !nvm))
		return msg_fail(-EINVAL, err, errlen, "profile %s has no settings for %s (a %s disk): nothing "
			    "to write as %s", p->name, dev->name, profile_class_name(dev->cls),
			    export_format_name(fmt));
	if (fmt == EXPORT_SYSFS_CONF)
		header(f, p, "sysfs.conf", dev, "Append to /etc/sysfs.conf (sysfsutils); the "
		       "kernel name may change between boots", "#");
	else
		header(f, p, "tmpfiles", dev, "Install as /etc/tmpfiles.d/brisk-%s.conf; the "
		       "kernel name may change between boots", "#");
	fprintf(f, "\n");
	for (size_t i = 0; i < n; i++) {
		char path[96];
		attr_path(s[i], path, sizeof(path));
		if (fmt == EXPORT_SYSFS_CONF)
			fprintf(f, "block/%s/%s = %s\n", dev->name, path, s[i]->value);
		else
			fprintf(f, "w /sys/block/%s/%s - - - - %s\n", dev->name, path, s[i]->value);
	}
	if (fmt == EXPORT_SYSFS_CONF) {
		vm_note(f, p, "#");
	} else {
		for (size_t i = 0; i < nvm; i++) {
			char path[96];
			proc_path(vm[i]->key, path, sizeof(path));
			fprintf(f, "w %s - - - - %s\n", path, vm[i]->value);
		}
	}
	return 0;
}

int export_write(FILE *f, const struct profile *p, enum export_format fmt,
		 const struct export_device *dev, char *err, size_t errlen)
{
	int rc = check_tokens(p, dev, err, errlen);
	if (rc < 0)
		return rc;
	switch (fmt) {
	case EXPORT_UDEV: return write_udev(f, p, dev, err, errlen);
	case EXPORT_TUNED: return write_tuned(f, p, dev, err, errlen);
	case EXPORT_SYSCTL: return write_sysctl(f, p, err, errlen);
	case EXPORT_SYSFS_CONF:
	case EXPORT_TMPFILES: return write_fixed(f, p, fmt, dev, err, errlen);
	case EXPORT_FORMAT_COUNT: break;
	}
	return msg_fail(-EINVAL, err, errlen, "unknown format");
}
