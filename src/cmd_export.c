#include "cmd_export.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockdev.h"
#include "export.h"
#include "profile.h"
#include "stack.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: brisk export NAME|FILE --format FORMAT [--match class|this-device]\n"
		"                    [--device DEV] [-o FILE] [--force]\n"
		"\n"
		"Write a profile's settings as a distribution default.\n"
		"\n"
		"  -F, --format F     udev      rules matching device classes (rotational\n"
		"                               SATA/SAS, SSD, NVMe, MMC) or one device\n"
		"                     tuned     a tuned.conf ([disk], [sysfs], [sysctl])\n"
		"                     sysctl    a sysctl.d file (vm.* settings)\n"
		"                     sysfs.conf  sysfsutils lines for one device\n"
		"                     tmpfiles  tmpfiles.d 'w' lines for one device\n"
		"  -m, --match M      class (default) or this-device (udev: by ID_WWN or\n"
		"                     ID_SERIAL_SHORT of --device)\n"
		"  -d, --device DEV   the device for this-device, sysfs.conf, tmpfiles and\n"
		"                     tuned (default: the profile's one [target] device, or\n"
		"                     the one disk behind its [target] directory)\n"
		"  -o, --output FILE  write FILE (default: standard output)\n"
		"  -f, --force        replace FILE if it exists\n"
		"\n"
		"See brisk-export(1).\n");
}

/* The device a fixed-device export is about. 0, or exit status. */
static int pick_device(const struct profile *p, const char *arg, struct export_device *out)
{
	char name[BLOCKDEV_NAME_LEN];
	struct blockdev *d = calloc(1, sizeof(*d));
	if (!d)
		return 1;
	int rc;
	if (arg) {
		rc = blockdev_resolve_name(arg, name, sizeof(name));
		if (rc < 0) {
			fprintf(stderr, "brisk export: --device %s: not a block device\n", arg);
			free(d);
			return 2;
		}
	} else if (p->n_devices == 1) {
		snprintf(name, sizeof(name), "%s", p->devices[0]);
	} else if (p->directory[0]) {
		struct stack *st = NULL;
		rc = stack_resolve_path(p->directory, &st);
		const struct blockdev *leaves[4];
		size_t n = rc == 0 ? stack_leaves(st, leaves, 4) : 0;
		if (n != 1) {
			fprintf(stderr, "brisk export: the profile's directory %s %s; give "
				"--device DEV\n", p->directory,
				rc < 0 ? "cannot be resolved" : "is not on exactly one disk");
			stack_free(st);
			free(d);
			return 2;
		}
		snprintf(name, sizeof(name), "%s", leaves[0]->name);
		stack_free(st);
	} else {
		fprintf(stderr, "brisk export: this format needs a device: give --device DEV\n");
		free(d);
		return 2;
	}
	rc = blockdev_probe(name, d);
	if (rc < 0) {
		fprintf(stderr, "brisk export: %s: %s\n", name, strerror(-rc));
		free(d);
		return rc == -ENODEV ? 2 : 1;
	}
	if (d->kind != BLOCKDEV_DISK && d->kind != BLOCKDEV_LOOP) {
		fprintf(stderr, "brisk export: %s is a %s, expected a whole disk (its queue "
			"settings are those of the disks under it)\n", name,
			blockdev_kind_name(d->kind));
		free(d);
		return 2;
	}
	export_device_from_blockdev(d, out);
	free(d);
	return 0;
}

static int write_out(const char *buf, size_t len, const char *path, int force)
{
	if (!path || strcmp(path, "-") == 0) {
		fwrite(buf, 1, len, stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (!force && access(path, F_OK) == 0) {
		fprintf(stderr, "brisk export: %s exists; use --force to replace it\n", path);
		return 2;
	}
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >= (int)sizeof(tmp))
		return 2;
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "brisk export: cannot write %s: %s\n", path, strerror(errno));
		return 1;
	}
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	int ok = off == len && fchmod(fd, 0644) == 0 && fsync(fd) == 0;
	if (close(fd) != 0)
		ok = 0;
	if (!ok || rename(tmp, path) < 0) {
		fprintf(stderr, "brisk export: cannot write %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return 1;
	}
	return 0;
}

int cmd_export_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "match", required_argument, NULL, 'm' },
		{ "device", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *fmt_arg = NULL, *match = "class", *device = NULL, *out = NULL;
	int force = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "F:m:d:o:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'F': fmt_arg = optarg; break;
		case 'm': match = optarg; break;
		case 'd': device = optarg; break;
		case 'o': out = optarg; break;
		case 'f': force = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "brisk export: expected one profile NAME or FILE (see --help)\n");
		return 2;
	}
	enum export_format fmt;
	if (!fmt_arg || export_format_parse(fmt_arg, &fmt) < 0) {
		fprintf(stderr, "brisk export: %s%s%s, expected --format udev, tuned, sysctl, "
			"sysfs.conf or tmpfiles\n", fmt_arg ? "unknown format '" : "no --format",
			fmt_arg ? fmt_arg : "", fmt_arg ? "'" : "");
		return 2;
	}
	int this_device;
	if (strcmp(match, "class") == 0)
		this_device = 0;
	else if (strcmp(match, "this-device") == 0)
		this_device = 1;
	else {
		fprintf(stderr, "brisk export: unknown --match '%s', expected class or "
			"this-device\n", match);
		return 2;
	}
	if (this_device && fmt != EXPORT_UDEV) {
		fprintf(stderr, "brisk export: --match applies to --format udev; the other "
			"formats take --device\n");
		return 2;
	}
	if (device && fmt == EXPORT_SYSCTL) {
		fprintf(stderr, "brisk export: --device does not apply to --format sysctl "
			"(vm.* settings are system-wide)\n");
		return 2;
	}
	if (device && fmt == EXPORT_UDEV && !this_device) {
		fprintf(stderr, "brisk export: --device with --format udev needs --match "
			"this-device\n");
		return 2;
	}
	struct profile *p = malloc(sizeof(*p));
	if (!p)
		return 1;
	char path[PATH_MAX], err[PROFILE_ERR_LEN];
	int rc = profile_load_named(argv[optind], p, path, sizeof(path), err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk export: %s\n", err);
		free(p);
		return rc == -EINVAL || rc == -ENOENT ? 2 : 1;
	}
	struct export_device dev;
	int need_dev = this_device || fmt == EXPORT_SYSFS_CONF || fmt == EXPORT_TMPFILES ||
		       (fmt == EXPORT_TUNED && device);
	if (need_dev && (rc = pick_device(p, device, &dev)) != 0) {
		free(p);
		return rc;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m) {
		free(p);
		return 1;
	}
	rc = export_write(m, p, fmt, need_dev ? &dev : NULL, err, sizeof(err));
	fclose(m);
	free(p);
	if (rc < 0) {
		fprintf(stderr, "brisk export: %s\n", err);
		free(buf);
		return 2;
	}
	rc = write_out(buf, len, out, force);
	free(buf);
	return rc;
}
