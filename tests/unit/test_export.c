/* Unit tests for export.c: golden files per format, class and device
 * (tests/fixtures/export/NAME.golden; BRISK_UPDATE_GOLDEN=1 rewrites them —
 * review the diff before committing), udev rules checked token by token,
 * tuned and sysctl outputs parsed back.  Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <regex.h>
#include <fnmatch.h>
#include <ini.h>
#include <cmocka.h>

#include "export.h"
#include "devclass.h"
#include "profile.h"

static struct profile *load(const char *name)
{
	static struct profile *slots[4];
	static int next;
	struct profile **p = &slots[next++ % 4];
	if (!*p)
		*p = malloc(sizeof(**p));
	char path[256], err[PROFILE_ERR_LEN];
	snprintf(path, sizeof(path), "tests/fixtures/profiles/good/%s.profile", name);
	if (profile_parse_file(path, NULL, *p, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	return *p;
}

static char *render(const struct profile *p, enum export_format fmt,
		    const struct export_device *dev)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = export_write(f, p, fmt, dev, err, sizeof(err));
	fclose(f);
	if (rc < 0)
		fail_msg("export %s: %s", export_format_name(fmt), err);
	return buf;
}

static const struct export_device sda = {
	.name = "sda", .cls = PROFILE_CLASS_ROTATIONAL, .model = "ST31000340AS",
	.serial = "9QJ1ABCD", .wwn = "0x5000c5000abcdef0", .serial_udev = 1, .wwn_udev = 1,
};
static const struct export_device nvme = {
	.name = "nvme0n1", .cls = PROFILE_CLASS_NVME, .model = "Samsung SSD 970 EVO 500GB",
	.serial = "S466NX0K123456A", .wwn = "", .serial_udev = 1,
};

static void golden(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "tests/fixtures/export/%s.golden", name);
	const char *upd = getenv("BRISK_UPDATE_GOLDEN");
	if (upd && *upd == '1') {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
		return;
	}
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("%s missing (BRISK_UPDATE_GOLDEN=1 creates it)", path);
	static char want[65536];
	size_t n = fread(want, 1, sizeof(want) - 1, f);
	want[n] = '\0';
	fclose(f);
	if (strcmp(want, text) != 0)
		fail_msg("%s differs; got:\n%s", path, text);
}

/* Every udev rule: joined continuation lines, then tokens KEY OP "VALUE";
 * the guards first, matches (==) before assignments (=), the scheduler
 * before any iosched attribute; only known keys. */
static void check_udev(const char *text, size_t want_rules)
{
	regex_t tok;
	assert_int_equal(regcomp(&tok, "^(ACTION|SUBSYSTEM|KERNEL|ENV\\{[A-Z_]+\\}|ATTRS\\{(serial|wwid)\\}|"
				 "ATTR\\{(queue|device|bdi)/[a-z_/]+\\})(==|=)\"[^\"\\\\]*\"$",
				 REG_EXTENDED | REG_NOSUB), 0);
	char *copy = strdup(text), *save = NULL, rule[4096];
	size_t rules = 0;
	rule[0] = '\0';
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || (!rule[0] && !line[0]))
			continue;
		while (*line == ' ')
			line++;
		strncat(rule, line, sizeof(rule) - strlen(rule) - 1);
		size_t l = strlen(rule);
		if (l && rule[l - 1] == '\\') {
			rule[l - 1] = '\0';
			continue;
		}
		/* a complete rule */
		rules++;
		int assigning = 0, sched_at = -1, iosched_at = -1, i = 0;
		char *tsave = NULL;
		assert_non_null(strstr(rule, "ACTION==\"add|change\", SUBSYSTEM==\"block\", "
				       "ENV{DEVTYPE}==\"disk\", "));
		for (char *t = strtok_r(rule, ",", &tsave); t; t = strtok_r(NULL, ",", &tsave), i++) {
			while (*t == ' ')
				t++;
			size_t tl = strlen(t);
			while (tl && t[tl - 1] == ' ')
				t[--tl] = '\0';
			if (regexec(&tok, t, 0, NULL, 0) != 0)
				fail_msg("bad udev token '%s'", t);
			int is_assign = strstr(t, "==") == NULL;
			if (!is_assign && assigning)
				fail_msg("match '%s' after an assignment", t);
			assigning |= is_assign;
			if (strncmp(t, "ATTR{queue/scheduler}=", 22) == 0)
				sched_at = i;
			if (strncmp(t, "ATTR{queue/iosched/", 19) == 0 && iosched_at < 0)
				iosched_at = i;
		}
		if (iosched_at >= 0 && sched_at > iosched_at)
			fail_msg("iosched attribute before the scheduler");
		assert_true(assigning);
		rule[0] = '\0';
	}
	assert_string_equal(rule, "");
	assert_int_equal(rules, want_rules);
	free(copy);
	regfree(&tok);
}

static void test_udev_class(void **state)
{
	(void)state;
	char *t = render(load("desktop"), EXPORT_UDEV, NULL);
	golden("udev-class-desktop", t);
	check_udev(t, 4);
	assert_non_null(strstr(t, "KERNEL==\"sd[a-z]*|vd[a-z]*|xvd[a-z]*\", "
			       "ATTR{queue/rotational}==\"1\""));
	assert_non_null(strstr(t, "KERNEL==\"sd[a-z]*|vd[a-z]*|xvd[a-z]*\", "
			       "ATTR{queue/rotational}==\"0\""));
	assert_non_null(strstr(t, "KERNEL==\"nvme[0-9]*n[0-9]*\""));
	assert_non_null(strstr(t, "KERNEL==\"mmcblk[0-9]*\""));
	/* hardware-bound: not in rules for a class, named in a comment */
	assert_null(strstr(t, "ATTR{device/queue_depth}"));
	assert_null(strstr(t, "ATTR{queue/nr_requests}"));
	assert_non_null(strstr(t, "\n# Hardware-bound, so not in the class rules (see "
			       "brisk-export(1)): queue_depth=1 nr_requests=256\n"));
	free(t);
	t = render(load("server"), EXPORT_UDEV, NULL);
	golden("udev-class-server", t);
	check_udev(t, 4);
	assert_null(strstr(t, "ATTR{queue/nr_requests}"));
	free(t);
	/* only the classes that have settings of their own */
	t = render(load("prefixed"), EXPORT_UDEV, NULL);
	golden("udev-class-prefixed", t);
	check_udev(t, 4);
	free(t);
	t = render(load("spacing"), EXPORT_UDEV, NULL);
	check_udev(t, 1);
	assert_null(strstr(t, "nvme"));
	free(t);
}

static void test_udev_device(void **state)
{
	(void)state;
	char *t = render(load("server"), EXPORT_UDEV, &sda);
	golden("udev-device-sda", t);
	check_udev(t, 1);
	assert_non_null(strstr(t, "ENV{ID_WWN}==\"0x5000c5000abcdef0\""));
	/* one device: its hardware-bound values stay */
	assert_non_null(strstr(t, "ATTR{queue/nr_requests}=\"128\""));
	assert_null(strstr(t, "Hardware-bound"));
	free(t);
	t = render(load("desktop"), EXPORT_UDEV, &nvme);
	golden("udev-device-nvme", t);
	check_udev(t, 1);
	assert_non_null(strstr(t, "ENV{ID_SERIAL_SHORT}==\"S466NX0K123456A\""));
	assert_null(strstr(t, "low_latency"));   /* bfq tunable, nvme runs none */
	free(t);
	/* values read from sysfs, not udev: matched as the attributes they are
	 * (udev has no ID_SERIAL_SHORT for virtio; a SCSI wwid is not ID_WWN) */
	struct export_device scsi = sda;
	snprintf(scsi.wwn, sizeof(scsi.wwn), "naa.5000c5000abcdef0");
	scsi.wwn_udev = 0;
	t = render(load("server"), EXPORT_UDEV, &scsi);
	check_udev(t, 1);
	assert_non_null(strstr(t, "ATTRS{wwid}==\"naa.5000c5000abcdef0\""));
	assert_null(strstr(t, "ENV{ID_WWN}"));
	free(t);
	const struct export_device vda = {
		.name = "vda", .cls = PROFILE_CLASS_ROTATIONAL, .serial = "overlayblk",
	};
	t = render(load("server"), EXPORT_UDEV, &vda);
	check_udev(t, 1);
	assert_non_null(strstr(t, "ATTRS{serial}==\"overlayblk\""));
	assert_null(strstr(t, "ENV{ID_SERIAL_SHORT}"));
	free(t);
}

struct kv {
	char sec[64], key[128], val[128];
};
struct kvs {
	struct kv v[128];
	size_t n;
};

static int collect(void *user, const char *sec, const char *key, const char *val)
{
	struct kvs *k = user;
	if (k->n >= 128)
		return 0;
	snprintf(k->v[k->n].sec, sizeof(k->v[0].sec), "%s", sec);
	snprintf(k->v[k->n].key, sizeof(k->v[0].key), "%s", key);
	snprintf(k->v[k->n].val, sizeof(k->v[0].val), "%s", val);
	k->n++;
	return 1;
}

static const char *get(const struct kvs *k, const char *sec, const char *key)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].sec, sec) && !strcmp(k->v[i].key, key))
			return k->v[i].val;
	return NULL;
}

static void test_tuned(void **state)
{
	(void)state;
	struct profile *p = load("server");
	char *t = render(p, EXPORT_TUNED, NULL);
	golden("tuned-class-server", t);
	struct kvs *k = calloc(1, sizeof(*k));
	assert_int_equal(ini_parse_string(t, collect, k), 0);
	assert_string_equal(get(k, "main", "summary"),
			    "brisk profile server: mq-deadline everywhere, none on NVMe");
	assert_string_equal(get(k, "disk_sd_vd_xvd", "type"), "disk");
	assert_string_equal(get(k, "disk_sd_vd_xvd", "devices"), "sd* vd* xvd*");
	assert_string_equal(get(k, "disk_sd_vd_xvd", "elevator"), "mq-deadline");
	assert_string_equal(get(k, "disk_nvme", "elevator"), "none");
	assert_string_equal(get(k, "sysfs", "/sys/block/sd*/queue/iosched/read_expire"), "250");
	assert_string_equal(get(k, "sysfs", "/sys/block/vd*/queue/iosched/read_expire"), "250");
	assert_string_equal(get(k, "sysfs", "/sys/block/xvd*/queue/iosched/read_expire"), "250");
	assert_string_equal(get(k, "sysfs", "/sys/block/xvd*/queue/wbt_lat_usec"), "2000");
	assert_string_equal(get(k, "sysfs", "/sys/block/nvme*n*/queue/wbt_lat_usec"), "2000");
	assert_null(get(k, "sysfs", "/sys/block/nvme*n*/queue/iosched/read_expire"));
	/* hardware-bound: in no class's [sysfs] */
	for (size_t i = 0; i < k->n; i++)
		if (strstr(k->v[i].key, "nr_requests"))
			fail_msg("tuned by class carries %s", k->v[i].key);
	assert_non_null(strstr(t, "\n# Hardware-bound, so not in the class rules (see "
			       "brisk-export(1)): nr_requests=128\n"));
	/* every vm.* setting of the profile, and nothing else, in [sysctl] */
	size_t nsys = 0;
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].sec, "sysctl"))
			nsys++;
	assert_int_equal(nsys, 3);
	for (size_t i = 0; i < p->n_settings; i++)
		if (!strncmp(p->settings[i].key, "vm.", 3))
			assert_string_equal(get(k, "sysctl", p->settings[i].key), p->settings[i].value);
	free(t);

	/* one fixed device: readahead in KiB, the class's own settings */
	memset(k, 0, sizeof(*k));
	t = render(load("desktop"), EXPORT_TUNED, &sda);
	golden("tuned-device-sda", t);
	assert_int_equal(ini_parse_string(t, collect, k), 0);
	assert_string_equal(get(k, "disk_sda", "devices"), "sda");
	assert_string_equal(get(k, "disk_sda", "elevator"), "bfq");
	assert_string_equal(get(k, "disk_sda", "readahead"), "512");
	assert_string_equal(get(k, "sysfs", "/sys/block/sda/queue/iosched/slice_idle"), "8");
	assert_string_equal(get(k, "sysfs", "/sys/block/sda/device/queue_depth"), "1");
	assert_string_equal(get(k, "sysctl", "vm.dirty_bytes"), "67108864");
	free(t);
	free(k);
}

static void test_sysctl(void **state)
{
	(void)state;
	struct profile *p = load("desktop");
	char *t = render(p, EXPORT_SYSCTL, NULL);
	golden("sysctl-desktop", t);
	/* parse back: every non-comment line is "key = value" of a vm setting */
	char *copy = strdup(t), *save = NULL;
	size_t n = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (l[0] == '#')
			continue;
		char key[64], val[64];
		assert_int_equal(sscanf(l, "%63s = %63s", key, val), 2);
		const struct profile_setting *s[64];
		size_t m = profile_effective(p, PROFILE_CLASS_ALL, s, 64);
		int found = 0;
		for (size_t i = 0; i < m; i++)
			if (!strcmp(s[i]->key, key) && !strcmp(s[i]->value, val))
				found = 1;
		if (!found)
			fail_msg("sysctl line '%s' is not a setting of the profile", l);
		n++;
	}
	assert_int_equal(n, 2);
	free(copy);
	free(t);
	t = render(load("server"), EXPORT_SYSCTL, NULL);
	golden("sysctl-server", t);
	free(t);
}

static void test_fixed_device(void **state)
{
	(void)state;
	char *t = render(load("desktop"), EXPORT_SYSFS_CONF, &sda);
	golden("sysfs.conf-sda", t);
	assert_non_null(strstr(t, "\nblock/sda/queue/scheduler = bfq\n"
			       "block/sda/queue/iosched/low_latency = 1\n"));
	free(t);
	t = render(load("desktop"), EXPORT_TMPFILES, &nvme);
	golden("tmpfiles-nvme", t);
	assert_non_null(strstr(t, "\nw /sys/block/nvme0n1/queue/scheduler - - - - none\n"));
	assert_non_null(strstr(t, "\nw /proc/sys/vm/dirty_background_bytes - - - - 16777216\n"));
	free(t);
}

static void test_refusals(void **state)
{
	(void)state;
	char err[512];
	FILE *f = fopen("/dev/null", "w");
	/* desktop sets rotational and ssd SATA disks differently: tuned cannot */
	assert_int_equal(export_write(f, load("desktop"), EXPORT_TUNED, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "tuned cannot tell rotational from non-rotational"));
	/* rotational disks only: tuned's sd* vd* xvd* would reach the SSDs too */
	assert_int_equal(export_write(f, load("hdd"), EXPORT_TUNED, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "profile hdd sets rotational disks only"));
	assert_non_null(strstr(err, "--format udev"));
	assert_int_equal(export_write(f, load("hdd"), EXPORT_UDEV, NULL, err, sizeof(err)), 0);
	assert_int_equal(export_write(f, load("server"), EXPORT_SYSFS_CONF, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "give --device DEV"));
	assert_int_equal(export_write(f, load("prefixed"), EXPORT_SYSCTL, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "no vm.* settings"));
	assert_int_equal(export_write(f, load("crlf"), EXPORT_UDEV, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "no device settings"));
	struct export_device anon = { .name = "vda", .cls = PROFILE_CLASS_ROTATIONAL };
	assert_int_equal(export_write(f, load("server"), EXPORT_UDEV, &anon, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "neither a WWN nor a serial"));
	struct export_device quote = sda;
	snprintf(quote.wwn, sizeof(quote.wwn), "evil\"");
	snprintf(quote.serial, sizeof(quote.serial), "a\\b");
	assert_int_equal(export_write(f, load("server"), EXPORT_UDEV, &quote, err, sizeof(err)),
			 -EINVAL);
	fclose(f);
	enum export_format fmt;
	assert_int_equal(export_format_parse("sysfs.conf", &fmt), 0);
	assert_int_equal(fmt, EXPORT_SYSFS_CONF);
	assert_int_equal(export_format_parse("sysctl.d", &fmt), 0);
	assert_int_equal(fmt, EXPORT_SYSCTL);
	assert_int_equal(export_format_parse("tmpfiles.d", &fmt), 0);
	assert_int_equal(fmt, EXPORT_TMPFILES);
	assert_int_equal(export_format_parse("systemd", &fmt), -EINVAL);
}

static void test_device_class(void **state)
{
	(void)state;
	struct blockdev *d = calloc(1, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "sdb");
	d->rotational = 1;
	assert_int_equal(devclass_of(d), PROFILE_CLASS_ROTATIONAL);
	d->rotational = 0;
	assert_int_equal(devclass_of(d), PROFILE_CLASS_SSD);
	snprintf(d->name, sizeof(d->name), "nvme1n1");
	assert_int_equal(devclass_of(d), PROFILE_CLASS_NVME);
	snprintf(d->name, sizeof(d->name), "mmcblk0");
	d->rotational = 1;
	assert_int_equal(devclass_of(d), PROFILE_CLASS_MMC);
	/* virtio and Xen disks: by the rotational flag their kernel reports
	 * (a virtio disk reads 1 on this VM's Linux 6.18, 0 on others) */
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "vda");
	snprintf(d->transport, sizeof(d->transport), "virtio");
	d->rotational = 1;
	assert_int_equal(devclass_of(d), PROFILE_CLASS_ROTATIONAL);
	d->rotational = 0;
	assert_int_equal(devclass_of(d), PROFILE_CLASS_SSD);
	snprintf(d->name, sizeof(d->name), "xvda");
	d->transport[0] = '\0';
	d->rotational = 1;
	assert_int_equal(devclass_of(d), PROFILE_CLASS_ROTATIONAL);
	free(d);
}

/* Does NAME match a udev KERNEL=="..." value, as udev matches it: shell
 * globs, "|" between alternatives (udev(7)). */
static int udev_kernel_match(const char *pattern, const char *name)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", pattern);
	char *save = NULL;
	for (char *alt = strtok_r(buf, "|", &save); alt; alt = strtok_r(NULL, "|", &save))
		if (fnmatch(alt, name, 0) == 0)
			return 1;
	return 0;
}

/* The KERNEL=="..." value of the rule after the comment LABEL. */
static void kernel_of(const char *text, const char *label, char *out, size_t len)
{
	const char *c = strstr(text, label);
	assert_non_null(c);
	const char *k = strstr(c, "KERNEL==\"");
	assert_non_null(k);
	k += 9;
	size_t n = strcspn(k, "\"");
	assert_true(n < len);
	memcpy(out, k, n);
	out[n] = '\0';
}

/* The class rules cover the disks of desktop VMs: virtio (vd*) and Xen
 * (xvd*) disks, rotational or not, as well as sd*; nothing else. */
static void test_udev_class_names(void **state)
{
	(void)state;
	char *t = render(load("desktop"), EXPORT_UDEV, NULL);
	static const char *const labels[] = { "# rotational SATA/SAS, virtio and Xen disks\n",
					      "# non-rotational SATA/SAS (SSDs), virtio and Xen disks\n" };
	for (size_t l = 0; l < 2; l++) {
		char pat[128];
		kernel_of(t, labels[l], pat, sizeof(pat));
		static const char *const yes[] = { "sda", "sdb", "sdaa", "vda", "vdb", "vdz",
						   "xvda", "xvdb" };
		static const char *const no[] = { "nvme0n1", "mmcblk0", "loop0", "dm-0", "md0",
						  "zram0", "sr0", "vd", "xvd", "hda" };
		for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
			if (!udev_kernel_match(pat, yes[i]))
				fail_msg("KERNEL==\"%s\" does not match %s", pat, yes[i]);
		for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
			if (udev_kernel_match(pat, no[i]))
				fail_msg("KERNEL==\"%s\" matches %s", pat, no[i]);
	}
	char pat[128];
	kernel_of(t, "# NVMe namespaces\n", pat, sizeof(pat));
	assert_false(udev_kernel_match(pat, "vda"));
	free(t);
}

/* Hardware-bound values (nr_requests, max_sectors_kb, queue_depth,
 * async_depth) never go into rules for a class of disks, in any format
 * that matches by class; one fixed device keeps them; export_dropped()
 * names each once. */
static void test_hw_bound_dropped(void **state)
{
	(void)state;
	struct profile *p = malloc(sizeof(*p));
	char err[256];
	profile_init(p, "hw");
	static const char *const kv[][2] = {
		{ "scheduler", "mq-deadline" }, { "async_depth", "256" }, { "read_expire", "250" },
		{ "nr_requests", "256" }, { "read_ahead_kb", "8192" }, { "max_sectors_kb", "4096" },
		{ "queue_depth", "31" },
	};
	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		assert_int_equal(profile_set(p, PROFILE_CLASS_ALL, kv[i][0], kv[i][1], err,
					     sizeof(err)), 0);
	const struct profile_setting *d[16];
	size_t n = export_dropped(p, EXPORT_UDEV, NULL, d, 16);
	assert_int_equal(n, 4);
	assert_string_equal(d[0]->key, "async_depth");
	assert_string_equal(d[1]->key, "nr_requests");
	assert_string_equal(d[2]->key, "max_sectors_kb");
	assert_string_equal(d[3]->key, "queue_depth");
	assert_int_equal(export_dropped(p, EXPORT_TUNED, NULL, d, 16), 4);
	assert_int_equal(export_dropped(p, EXPORT_UDEV, &sda, d, 16), 0);
	assert_int_equal(export_dropped(p, EXPORT_TUNED, &sda, d, 16), 0);
	assert_int_equal(export_dropped(p, EXPORT_SYSCTL, NULL, d, 16), 0);
	assert_int_equal(export_dropped(p, EXPORT_SYSFS_CONF, &sda, d, 16), 0);
	assert_int_equal(export_dropped(p, EXPORT_UDEV, NULL, d, 2), 2);
	static const char *const hw[] = { "async_depth", "nr_requests", "max_sectors_kb",
					  "queue_depth" };
	char *t = render(p, EXPORT_UDEV, NULL);
	check_udev(t, 4);
	for (size_t i = 0; i < 4; i++) {
		char attr[64];
		snprintf(attr, sizeof(attr), "/%s}=", hw[i]);
		if (strstr(t, attr))
			fail_msg("udev class rules carry %s:\n%s", hw[i], t);
	}
	assert_non_null(strstr(t, "ATTR{queue/iosched/read_expire}=\"250\""));
	assert_non_null(strstr(t, "ATTR{queue/read_ahead_kb}=\"8192\""));
	assert_non_null(strstr(t, "# Hardware-bound, so not in the class rules (see brisk-export(1)): "
			       "async_depth=256 nr_requests=256 max_sectors_kb=4096 queue_depth=31\n"));
	free(t);
	t = render(p, EXPORT_TUNED, NULL);
	for (size_t i = 0; i < 4; i++) {
		char attr[64];
		snprintf(attr, sizeof(attr), "/%s=", hw[i]);
		if (strstr(t, attr))
			fail_msg("tuned by class carries %s:\n%s", hw[i], t);
	}
	free(t);
	/* one device, in each format that names one: all kept */
	static const enum export_format fixed[] = { EXPORT_UDEV, EXPORT_TUNED, EXPORT_SYSFS_CONF,
						    EXPORT_TMPFILES };
	for (size_t f = 0; f < 4; f++) {
		t = render(p, fixed[f], &sda);
		for (size_t i = 0; i < 4; i++)
			if (!strstr(t, hw[i]))
				fail_msg("%s for sda lacks %s:\n%s", export_format_name(fixed[f]),
					 hw[i], t);
		assert_null(strstr(t, "Hardware-bound"));
		free(t);
	}
	/* --apply (this machine's disks, each checked): kept too */
	assert_int_equal(export_device_settings(p, PROFILE_CLASS_ROTATIONAL, 0, d, 16), 7);
	/* nothing but hardware-bound values: nothing for a class rule */
	profile_init(p, "hwonly");
	assert_int_equal(profile_set(p, PROFILE_CLASS_ALL, "nr_requests", "64", err, sizeof(err)), 0);
	FILE *f = fopen("/dev/null", "w");
	assert_int_equal(export_write(f, p, EXPORT_UDEV, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no device settings"));
	assert_int_equal(export_dropped(p, EXPORT_UDEV, NULL, d, 16), 1);
	fclose(f);
	free(p);
}

/* The disk's dirty limits: ATTR{bdi/NAME} through the disk's bdi link in
 * udev rules, /sys/block/DEV/bdi/NAME elsewhere (never /sys/class/bdi/
 * MAJ:MIN, a number that changes between boots), and sysctl.d saying
 * plainly that it cannot carry them. */
static void test_bdi(void **state)
{
	(void)state;
	struct profile *p = malloc(sizeof(*p));
	char err[512];
	profile_init(p, "dirty");
	assert_int_equal(profile_set(p, PROFILE_CLASS_ALL, "bdi.strict_limit", "1", err, sizeof(err)), 0);
	assert_int_equal(profile_set(p, PROFILE_CLASS_ALL, "bdi.max_bytes", "64m", err, sizeof(err)), 0);
	assert_int_equal(profile_set(p, PROFILE_CLASS_MMC, "bdi.max_bytes", "16m", err, sizeof(err)), 0);
	char *t = render(p, EXPORT_UDEV, NULL);
	check_udev(t, 4);
	assert_non_null(strstr(t, "ATTR{queue/rotational}==\"1\", \\\n"
			       "  ATTR{bdi/strict_limit}=\"1\", \\\n"
			       "  ATTR{bdi/max_bytes}=\"67108864\"\n"));
	assert_non_null(strstr(t, "KERNEL==\"mmcblk[0-9]*\", \\\n"
			       "  ATTR{bdi/strict_limit}=\"1\", \\\n"
			       "  ATTR{bdi/max_bytes}=\"16777216\"\n"));
	assert_null(strstr(t, "MAJ"));
	assert_null(strstr(t, "/sys/class/bdi"));
	free(t);
	t = render(p, EXPORT_UDEV, &sda);
	assert_non_null(strstr(t, "ATTR{bdi/max_bytes}=\"67108864\""));
	free(t);
	t = render(p, EXPORT_TUNED, &sda);
	assert_non_null(strstr(t, "\n[sysfs]\n/sys/block/sda/bdi/strict_limit=1\n"
			       "/sys/block/sda/bdi/max_bytes=67108864\n"));
	free(t);
	t = render(p, EXPORT_TMPFILES, &sda);
	assert_non_null(strstr(t, "\nw /sys/block/sda/bdi/strict_limit - - - - 1\n"
			       "w /sys/block/sda/bdi/max_bytes - - - - 67108864\n"));
	assert_non_null(strstr(t, "the kernel name may change between boots"));
	free(t);
	t = render(p, EXPORT_SYSFS_CONF, &sda);
	assert_non_null(strstr(t, "\nblock/sda/bdi/max_bytes = 67108864\n"));
	free(t);
	/* sysctl.d: refused when there is nothing else, saying why */
	FILE *f = fopen("/dev/null", "w");
	assert_int_equal(export_write(f, p, EXPORT_SYSCTL, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "sysctl.d cannot carry the disk's dirty limits, "
			       "bdi.strict_limit=1 bdi.max_bytes=67108864 mmc.bdi.max_bytes=16777216: "
			       "they are per device"));
	assert_non_null(strstr(err, "--format udev"));
	fclose(f);
	/* and said in the file when there is */
	assert_int_equal(profile_set(p, PROFILE_CLASS_ALL, "vm.dirty_bytes", "256m", err, sizeof(err)), 0);
	t = render(p, EXPORT_SYSCTL, NULL);
	assert_non_null(strstr(t, "\nvm.dirty_bytes = 268435456\n"));
	assert_non_null(strstr(t, "# Not carried: sysctl.d cannot set the disk's dirty limits"));
	assert_non_null(strstr(t, "bdi.max_bytes=67108864"));
	free(t);
	free(p);
}

/* Defence in depth: a profile struct that never went through the loader
 * (bad bytes in the description, a poisoned device) is still written
 * without a control byte, and nothing from data starts a line. */
static int has_raw_control(const char *s)
{
	for (const unsigned char *u = (const unsigned char *)s; *u; u++)
		if ((*u < 0x20 && *u != '\n' && *u != '\t') || *u == 0x7F ||
		    (u[0] == 0xC2 && u[1] >= 0x80 && u[1] < 0xA0) || *u == 0xFF)
			return 1;
	return 0;
}

static void test_untrusted_text(void **state)
{
	(void)state;
	struct profile *p = malloc(sizeof(*p));
	memcpy(p, load("server"), sizeof(*p));
	snprintf(p->description, sizeof(p->description),
		 "x\rf /INJECTED 0644 root root - x\n[sysctl]\nkernel.core_pattern=|/tmp/evil"
		 "\x1b]0;T\x07\xc2\x85\xff\\");
	struct export_device dev = sda;
	snprintf(dev.model, sizeof(dev.model), "U\rRUN+=\"/x\"\x1b]0;T\x07");
	static const enum export_format fmts[] = { EXPORT_UDEV, EXPORT_TUNED, EXPORT_SYSCTL,
						   EXPORT_SYSFS_CONF, EXPORT_TMPFILES };
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		for (int withdev = 0; withdev < 2; withdev++) {
			if (!withdev && (fmts[i] == EXPORT_SYSFS_CONF || fmts[i] == EXPORT_TMPFILES))
				continue;
			if (withdev && fmts[i] == EXPORT_SYSCTL)
				continue;
			char *out = render(p, fmts[i], withdev ? &dev : NULL);
			if (has_raw_control(out))
				fail_msg("%s%s: raw control byte in:\n%s", export_format_name(fmts[i]),
					 withdev ? " --device" : "", out);
			assert_null(strstr(out, "\nkernel.core_pattern"));
			assert_null(strstr(out, "\n[sysctl]\nkernel"));
			assert_null(strstr(out, "\nf /INJECTED"));
			assert_non_null(strstr(out, "x\\x0df /INJECTED 0644 root root - x\\x0a[sysctl]"
						    "\\x0akernel.core_pattern=|/tmp/evil\\x1b]0;T\\x07"
						    "\\xc2\\x85\\xff\\\\"));
			if (withdev && fmts[i] == EXPORT_UDEV)
				assert_non_null(strstr(out, "\n# U\\x0dRUN+=\"/x\"\\x1b]0;T\\x07 "));
			free(out);
		}
	/* what is written unquoted must be a plain word */
	char err[512];
	FILE *f = fopen("/dev/null", "w");
	struct profile *q = malloc(sizeof(*q));
	memcpy(q, load("server"), sizeof(*q));
	q->name[0] = '\0';                          /* 60-brisk-.rules */
	assert_int_equal(export_write(f, q, EXPORT_UDEV, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cannot name a config file"));
	snprintf(q->name, sizeof(q->name), "a\nb");
	assert_int_equal(export_write(f, q, EXPORT_SYSCTL, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'a\\x0ab'"));
	memcpy(q, load("server"), sizeof(*q));
	snprintf(q->settings[0].value, sizeof(q->settings[0].value), "1\nw /x");
	assert_int_equal(export_write(f, q, EXPORT_TMPFILES, &sda, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cannot be written into config"));
	struct export_device badname = sda;
	snprintf(badname.name, sizeof(badname.name), "sd a");
	assert_int_equal(export_write(f, load("server"), EXPORT_TMPFILES, &badname, err,
				      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "device name 'sd a'"));
	/* match values: glob and control bytes refused, the value escaped */
	struct export_device glob = sda;
	glob.wwn[0] = '\0';
	snprintf(glob.serial, sizeof(glob.serial), "*");
	assert_int_equal(export_write(f, load("server"), EXPORT_UDEV, &glob, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "serial number '*'"));
	snprintf(glob.serial, sizeof(glob.serial), "S\x1b]0;T\x07");
	assert_int_equal(export_write(f, load("server"), EXPORT_UDEV, &glob, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "'S\\x1b]0;T\\x07'"));
	/* a WWN udev cannot match falls back to a good serial */
	struct export_device fb = sda;
	snprintf(fb.wwn, sizeof(fb.wwn), "t10.ATA\x01");
	char *out = render(load("server"), EXPORT_UDEV, &fb);
	assert_non_null(strstr(out, "ENV{ID_SERIAL_SHORT}==\"9QJ1ABCD\""));
	assert_int_equal(has_raw_control(out), 0);
	free(out);
	fclose(f);
	free(q);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udev_class),
		cmocka_unit_test(test_udev_device),
		cmocka_unit_test(test_tuned),
		cmocka_unit_test(test_sysctl),
		cmocka_unit_test(test_fixed_device),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_device_class),
		cmocka_unit_test(test_udev_class_names),
		cmocka_unit_test(test_hw_bound_dropped),
		cmocka_unit_test(test_untrusted_text),
		cmocka_unit_test(test_bdi),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
