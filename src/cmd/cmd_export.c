#include "cmd_export.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockdev.h"
#include "devclass.h"
#include "export.h"
#include "optab.h"
#include "text.h"
#include "journal.h"
#include "profile.h"
#include "settings.h"
#include "stack.h"
#include "tunable.h"

/* The command line. */
struct export_args {
	const char *format, *match, *device, *out;
	int force, apply, dry_run;
};

#define EXPORT_(name, key, arg, help, field, fn) \
	{ name, key, arg, help, fn, offsetof(struct export_args, field), NULL }

static const struct optab export_options[] = {
	EXPORT_("format", 'F', "F",
		"udev      rules matching device classes (rotational\n"
		"          and non-rotational sd*/vd*/xvd* disks,\n"
		"          NVMe, MMC) or one device\n"
		"tuned     a tuned.conf ([disk], [sysfs], [sysctl])\n"
		"sysctl    a sysctl.d file (vm.* settings)\n"
		"sysfs.conf  sysfsutils lines for one device\n"
		"tmpfiles  tmpfiles.d 'w' lines for one device", format, optab_text),
	EXPORT_("match", 'm', "M",
		"class (default) or this-device (udev: by the WWN or\n"
		"serial number of --device)", match, optab_text),
	EXPORT_("device", 'd', "DEV",
		"the device for this-device, sysfs.conf, tmpfiles and\n"
		"tuned (default: the profile's one [target] device, or\n"
		"the one disk behind its [target] directory)", device, optab_text),
	EXPORT_("output", 'o', "FILE", "write FILE (default: standard output)", out, optab_text),
	EXPORT_("force", 'f', NULL, "replace FILE if it exists", force, optab_flag),
	EXPORT_("apply", 'a', NULL,
		"set the profile's settings now (root), each disk by\n"
		"its class: --device DEV, else the profile's [target]\n"
		"disks, else every disk; journaled like 'brisk set':\n"
		"'brisk restore' puts the original values back", apply, optab_flag),
	EXPORT_("dry-run", 'n', NULL, "with --apply: print what would change, change nothing",
		dry_run, optab_flag),
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text usage_text = {
	"usage: brisk export NAME|FILE --format FORMAT [--match class|this-device]\n"
	"                    [--device DEV] [-o FILE] [--force]\n"
	"       brisk export NAME|FILE --apply [--device DEV] [--dry-run]\n"
	"\n"
	"Write a profile's settings as a distribution default, or apply them\n"
	"for this boot.\n"
	"\n",
	21,
	"\n"
	"Rules for a class of disks (udev, tuned) leave out the hardware-bound\n"
	"values (nr_requests, max_sectors_kb, queue_depth, async_depth) and say\n"
	"so on stderr; a rule for one device keeps them.\n"
	"\n"
	"See brisk-export(1).\n"
};

#define APPLY_MAX_DEVS 64

/* The disks under the profile's directory (at most max) into names: how
 * many, or -1 after saying why.  one: exactly one disk is wanted. */
static int dir_disks(const struct profile *p, char names[][BLOCKDEV_NAME_LEN], size_t max,
		     int one)
{
	struct stack *st = NULL;
	int rc = stack_resolve_path(p->directory, &st);
	const struct blockdev *leaves[APPLY_MAX_DEVS];
	size_t k = rc == 0 ? stack_leaves(st, leaves, APPLY_MAX_DEVS) : 0;
	if (rc < 0 || !k || (one && k != 1)) {
		fprintf(stderr, "brisk export: the profile's directory %s %s; give "
			"--device DEV\n", text_show(p->directory),
			rc < 0 ? "cannot be resolved" : one ? "is not on exactly one disk" :
			"has no disk under it");
		stack_free(st);
		return -1;
	}
	for (size_t i = 0; i < k && i < max; i++)
		snprintf(names[i], sizeof(names[0]), "%s", leaves[i]->name);
	stack_free(st);
	return (int)(k < max ? k : max);
}

/* The device a fixed-device export is about. 0, or exit status. */
static int pick_device(const struct profile *p, const char *arg, struct export_device *out)
{
	char name[BLOCKDEV_NAME_LEN];
	struct blockdev *d = calloc(1, sizeof(*d));
	if (!d)
		return EXIT_FAILED;
	int rc;
	if (arg) {
		rc = blockdev_resolve_name(arg, name, sizeof(name));
		if (rc < 0) {
			fprintf(stderr, "brisk export: --device %s: not a block device\n", text_show(arg));
			free(d);
			return EXIT_USAGE;
		}
	} else if (p->n_devices == 1) {
		snprintf(name, sizeof(name), "%s", p->devices[0]);
	} else if (p->directory[0]) {
		char found[4][BLOCKDEV_NAME_LEN];
		if (dir_disks(p, found, 4, 1) < 0) {
			free(d);
			return EXIT_USAGE;
		}
		snprintf(name, sizeof(name), "%s", found[0]);
	} else {
		fprintf(stderr, "brisk export: this format needs a device: give --device DEV\n");
		free(d);
		return EXIT_USAGE;
	}
	rc = blockdev_probe(name, d);
	if (rc < 0) {
		fprintf(stderr, "brisk export: %s: %s\n", text_show(name), strerror(-rc));
		free(d);
		return rc == -ENODEV ? EXIT_USAGE : EXIT_FAILED;
	}
	if (d->kind != BLOCKDEV_DISK && d->kind != BLOCKDEV_LOOP) {
		fprintf(stderr, "brisk export: %s is a %s, expected a whole disk (its queue "
			"settings are those of the disks under it)\n", text_show(name),
			blockdev_kind_name(d->kind));
		free(d);
		return EXIT_USAGE;
	}
	export_device_from_blockdev(d, out);
	free(d);
	return 0;
}

static int write_out(const char *buf, size_t len, const char *path, int force)
{
	if (!path || strcmp(path, "-") == 0) {
		fwrite(buf, 1, len, stdout);
		return fflush(stdout) == 0 ? 0 : EXIT_FAILED;
	}
	if (!force && access(path, F_OK) == 0) {
		fprintf(stderr, "brisk export: %s exists; use --force to replace it\n", path);
		return EXIT_USAGE;
	}
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >= (int)sizeof(tmp))
		return EXIT_USAGE;
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "brisk export: cannot write %s: %s\n", path, strerror(errno));
		return EXIT_FAILED;
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
		return EXIT_FAILED;
	}
	return 0;
}

/* ---------- --apply ---------- */


/* The disks to apply to.  0 or an exit status. */
static int apply_devices(const struct profile *p, const char *arg,
			 char names[][BLOCKDEV_NAME_LEN], enum profile_class *cls, size_t *n)
{
	*n = 0;
	struct blockdev *d = calloc(1, sizeof(*d));
	if (!d)
		return EXIT_FAILED;
	char list[APPLY_MAX_DEVS][BLOCKDEV_NAME_LEN];
	size_t nl = 0;
	if (arg) {
		if (blockdev_resolve_name(arg, list[0], sizeof(list[0])) < 0) {
			fprintf(stderr, "brisk export: --device %s: not a block device\n", text_show(arg));
			free(d);
			return EXIT_USAGE;
		}
		nl = 1;
	} else if (p->n_devices) {
		for (size_t i = 0; i < p->n_devices && nl < APPLY_MAX_DEVS; i++)
			snprintf(list[nl++], sizeof(list[0]), "%s", p->devices[i]);
	} else if (p->directory[0]) {
		int k = dir_disks(p, list, APPLY_MAX_DEVS, 0);
		if (k < 0) {
			free(d);
			return EXIT_USAGE;
		}
		nl = (size_t)k;
	} else {
		struct blockdev *all = NULL;
		size_t na = 0;
		if (blockdev_list(&all, &na) < 0) {
			fprintf(stderr, "brisk export: cannot list block devices\n");
			free(d);
			return EXIT_FAILED;
		}
		for (size_t i = 0; i < na && nl < APPLY_MAX_DEVS; i++)
			if (all[i].kind == BLOCKDEV_DISK && all[i].queue.scheduler[0])
				snprintf(list[nl++], sizeof(list[0]), "%s", all[i].name);
		free(all);
	}
	for (size_t i = 0; i < nl; i++) {
		int rc = blockdev_probe(list[i], d);
		if (rc < 0) {
			fprintf(stderr, "brisk export: %s: %s\n", text_show(list[i]), strerror(-rc));
			free(d);
			return rc == -ENODEV ? EXIT_USAGE : EXIT_FAILED;
		}
		if (d->kind != BLOCKDEV_DISK && d->kind != BLOCKDEV_LOOP) {
			fprintf(stderr, "brisk export: %s is a %s, expected a whole disk\n", text_show(list[i]),
				blockdev_kind_name(d->kind));
			free(d);
			return EXIT_USAGE;
		}
		snprintf(names[*n], BLOCKDEV_NAME_LEN, "%s", d->name);
		cls[*n] = devclass_of(d);
		(*n)++;
	}
	free(d);
	return 0;
}

/* What the transaction did, in brisk export's words. */
static void apply_event(const struct settings_event *ev, void *arg)
{
	struct journal *j = arg;
	const struct settings_step *sp = ev->step;
	const char *dev = sp && sp->dev ? sp->dev : "";
	switch (ev->kind) {
	case SETTINGS_EV_LOCKED_OUT:
		fprintf(stderr, "brisk export: %s is being changed by another brisk (pid %ld)"
			"; nothing was changed\n", strcmp(ev->dev, "-") ? text_show(ev->dev) :
			"vm.dirty_*", (long)ev->holder);
		break;
	case SETTINGS_EV_APPLIED:
		printf("%s%s%s: %s -> %s%s\n", text_show(dev), *dev ? " " : "", sp->key.name,
		       text_show(ev->res->before), text_show(ev->res->readback),
		       ev->res->adjusted ? " (adjusted by the kernel)" : "");
		break;
	case SETTINGS_EV_FAILED:
		fprintf(stderr, "brisk export: %s%s%s=%s: %s\n", text_show(dev), *dev ? ": " : "",
			sp->key.name, sp->value, ev->err == -EIO ? "the scheduler did not become "
			"active" : strerror(-ev->err));
		break;
	case SETTINGS_EV_ROLLBACK:
		fprintf(stderr, "brisk export: putting back what this command changed:\n");
		break;
	case SETTINGS_EV_ROLLED_BACK:
		if (ev->left)
			fprintf(stderr, "brisk export: %d value(s) could not be put back; they "
				"stay in %s for 'brisk restore'\n", ev->left, journal_path(j));
		break;
	}
}

/* The plan: each disk's settings by its class, checked as the scheduler
 * will be at each point, then the vm ones.  Steps into plan; 1 when
 * something is refused (all of it printed). */
static int apply_plan(const struct profile *p, const char *path,
		      char names[][BLOCKDEV_NAME_LEN], const enum profile_class *cls, size_t nd,
		      struct settings_step *plan, size_t *n)
{
	int bad = 0;
	for (size_t d = 0; d < nd; d++) {
		const struct profile_setting *s[PROFILE_MAX_SETTINGS];
		size_t k = export_device_settings(p, cls[d], 0, s, PROFILE_MAX_SETTINGS);
		char after[TUNABLE_SCHED_LEN] = "";
		for (size_t i = 0; i < k; i++) {
			char why[TUNABLE_WHY_LEN];
			struct settings_step *a = &plan[*n];
			a->dev = names[d];
			if (tunable_parse_key(s[i]->key, &a->key, why, sizeof(why)) < 0) {
				fprintf(stderr, "%s:%d: %s: %s\n", text_show(path), s[i]->line, text_show(names[d]),
					text_show(why));
				bad = 1;
				continue;
			}
			int e = tunable_check(names[d], &a->key, s[i]->value, after[0] ? after : NULL,
					      a->value, sizeof(a->value), why, sizeof(why));
			if (e == -ENOENT && a->key.kind != TUNABLE_SCHEDULER) {
				printf("%s: %s: not on this device, skipped\n", text_show(names[d]), s[i]->key);
				continue;
			}
			if (e < 0) {
				fprintf(stderr, "%s:%d: %s (a %s disk): %s\n", text_show(path), s[i]->line,
					text_show(names[d]), profile_class_name(cls[d]), text_show(why));
				bad = 1;
				continue;
			}
			if (a->key.kind == TUNABLE_SCHEDULER)
				snprintf(after, sizeof(after), "%.31s", a->value);
			(*n)++;
		}
	}
	const struct profile_setting *vm[16];
	size_t nvm = export_vm_settings(p, vm, 16);
	for (size_t i = 0; i < nvm; i++) {
		char why[TUNABLE_WHY_LEN];
		struct settings_step *a = &plan[*n];
		a->dev = NULL;
		if (tunable_parse_key(vm[i]->key, &a->key, why, sizeof(why)) < 0 ||
		    tunable_check(NULL, &a->key, vm[i]->value, NULL, a->value, sizeof(a->value),
				  why, sizeof(why)) < 0) {
			fprintf(stderr, "%s:%d: %s\n", text_show(path), vm[i]->line, text_show(why));
			bad = 1;
			continue;
		}
		(*n)++;
	}
	return bad;
}

static int do_apply(const struct profile *p, const char *path, const char *device, int dry_run,
		    int argc, char **argv)
{
	static char names[APPLY_MAX_DEVS][BLOCKDEV_NAME_LEN];
	enum profile_class cls[APPLY_MAX_DEVS];
	size_t nd;
	int rc = apply_devices(p, device, names, cls, &nd);
	if (rc)
		return rc;
	size_t cap = (nd + 1) * PROFILE_MAX_SETTINGS, n = 0;
	struct settings_step *plan = calloc(cap, sizeof(*plan));
	if (!plan)
		return EXIT_FAILED;
	if (apply_plan(p, path, names, cls, nd, plan, &n)) {
		fprintf(stderr, "brisk export: nothing was changed\n");
		free(plan);
		return EXIT_USAGE;
	}
	if (!n) {
		fprintf(stderr, "brisk export: profile %s has no settings for %s\n", p->name,
			nd ? "these disks" : "this machine");
		free(plan);
		return EXIT_USAGE;
	}
	if (dry_run) {   /* EXIT_PENDING when a value would change */
		size_t change = 0;
		for (size_t i = 0; i < n; i++) {
			char cur[TUNABLE_VALUE_LEN] = "?";
			tunable_read(plan[i].dev ? plan[i].dev : "-", &plan[i].key, cur, sizeof(cur));
			int same = strcmp(cur, plan[i].value) == 0;
			change += !same;
			printf("%s%s%s: %s -> %s%s\n", text_show(plan[i].dev), plan[i].dev ? " " : "",
			       plan[i].key.name, text_show(cur), plan[i].value,
			       same ? " (already)" : "");
		}
		free(plan);
		return change ? EXIT_PENDING : EXIT_OK;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "brisk export: --apply writes sysfs and needs root; nothing was "
			"changed (--dry-run shows what would change)\n");
		free(plan);
		return EXIT_PRIVILEGE;
	}
	char what[256];   /* (main already restored dead sessions' journals) */
	journal_what(what, sizeof(what), argc, argv);
	struct journal *j = NULL;
	if (journal_open(JOURNAL_SET, what, &j) < 0) {
		fprintf(stderr, "brisk export: cannot create the restore journal: %s; nothing "
			"was changed\n", journal_error());
		free(plan);
		return EXIT_FAILED;
	}
	rc = settings_transaction(j, plan, n, apply_event, j, stderr, NULL) < 0 ? EXIT_FAILED : 0;
	if (rc == 0)
		printf("journaled in %s; 'brisk restore' puts the original values back\n",
		       journal_path(j));
	journal_close(j);
	free(plan);
	return rc;
}

/* NAME or FILE into a malloc'ed profile: 0, or the exit status (message
 * printed: 2 for a bad or missing profile, 1 otherwise). */
static int load_profile(const char *name, struct profile **out, char *path, size_t len)
{
	struct profile *p = malloc(sizeof(*p));
	if (!p)
		return EXIT_FAILED;
	char err[PROFILE_ERR_LEN];
	int rc = profile_load_named(name, p, path, len, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk export: %s\n", err);
		free(p);
		return rc == -EINVAL || rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	*out = p;
	return 0;
}

/* The options of writing a file (not --apply): the format, --match and
 * --device that go together.  0, or 2 after saying why. */
static int write_opts(const char *fmt_arg, const char *match, const char *device,
		      enum export_format *fmt, int *this_device)
{
	if (!match)
		match = "class";
	if (!fmt_arg || export_format_parse(fmt_arg, fmt) < 0) {
		fprintf(stderr, "brisk export: %s%s%s, expected --format udev, tuned, sysctl, "
			"sysfs.conf or tmpfiles\n", fmt_arg ? "unknown format '" : "no --format",
			fmt_arg ? fmt_arg : "", fmt_arg ? "'" : "");
		return EXIT_USAGE;
	}
	if (strcmp(match, "class") == 0)
		*this_device = 0;
	else if (strcmp(match, "this-device") == 0)
		*this_device = 1;
	else {
		fprintf(stderr, "brisk export: unknown --match '%s', expected class or "
			"this-device\n", match);
		return EXIT_USAGE;
	}
	if (*this_device && *fmt != EXPORT_UDEV) {
		fprintf(stderr, "brisk export: --match applies to --format udev; the other "
			"formats take --device\n");
		return EXIT_USAGE;
	}
	if (device && *fmt == EXPORT_SYSCTL) {
		fprintf(stderr, "brisk export: --device does not apply to --format sysctl "
			"(vm.* settings are system-wide)\n");
		return EXIT_USAGE;
	}
	if (device && *fmt == EXPORT_UDEV && !*this_device) {
		fprintf(stderr, "brisk export: --device with --format udev needs --match "
			"this-device\n");
		return EXIT_USAGE;
	}
	return 0;
}

/* On stderr: each hardware-bound value a class export left out, why, and
 * how to keep it. */
static void say_dropped(const struct profile *p, enum export_format fmt,
			const struct export_device *dev)
{
	const struct profile_setting *d[PROFILE_MAX_SETTINGS];
	size_t n = export_dropped(p, fmt, dev, d, PROFILE_MAX_SETTINGS);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "brisk export: dropped %s=%s from the class rules: %s; use %s to "
			"keep it\n", d[i]->key, text_show(d[i]->value), tunable_hw_bound(d[i]->key),
			fmt == EXPORT_UDEV ? "--match this-device" : "--device DEV");
}

/* Write profile p as fmt to out (stdout when NULL). */
static int write_export(const struct profile *p, enum export_format fmt, int this_device,
			const char *device, const char *out, int force)
{
	struct export_device dev;
	int rc;
	int need_dev = this_device || fmt == EXPORT_SYSFS_CONF || fmt == EXPORT_TMPFILES ||
		       (fmt == EXPORT_TUNED && device);
	if (need_dev && (rc = pick_device(p, device, &dev)) != 0)
		return rc;
	char *buf = NULL, err[PROFILE_ERR_LEN];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return EXIT_FAILED;
	rc = export_write(m, p, fmt, need_dev ? &dev : NULL, err, sizeof(err));
	fclose(m);
	say_dropped(p, fmt, need_dev ? &dev : NULL);
	if (rc < 0) {
		fprintf(stderr, "brisk export: %s\n", err);
		free(buf);
		return EXIT_USAGE;
	}
	rc = write_out(buf, len, out, force);
	free(buf);
	return rc;
}

int cmd_export_main(int argc, char **argv)
{
	struct export_args a = { 0 };
	const struct optab_cmd cmd = { "export", export_options, NULL, &a, &usage_text };
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc == OPTAB_DONE ? 0 : rc;
	if (argc - optind < 1)
		return optab_usage_error("export", "expected one profile NAME or FILE");
	if (argc - optind > 1)
		return optab_usage_error("export", "one profile only ('%s' is extra)",
					 argv[optind + 1]);
	enum export_format fmt = EXPORT_UDEV;
	int this_device = 0;
	if (a.apply || a.dry_run) {
		if (!a.apply || a.format || a.match || a.out || a.force)
			return optab_usage_error("export", "%s", a.apply ? "--apply takes only "
						 "--device and --dry-run" : "--dry-run goes with --apply");
	} else if ((rc = write_opts(a.format, a.match, a.device, &fmt, &this_device)) != 0) {
		return rc;
	}
	char path[PATH_MAX];
	struct profile *p;
	if ((rc = load_profile(argv[optind], &p, path, sizeof(path))) != 0)
		return rc;
	if (a.apply)
		rc = do_apply(p, path, a.device, a.dry_run, argc, argv);
	else
		rc = write_export(p, fmt, this_device, a.device, a.out, a.force);
	free(p);
	return rc;
}
