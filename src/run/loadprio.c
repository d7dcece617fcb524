#include "loadprio.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"
#include "mountinfo.h"
#include "msg.h"
#include "parse.h"
#include "sysfs.h"

static const char *const key_names[LOADPRIO_KEY_COUNT] = {
	[LOADPRIO_IONICE] = "load.ionice",
	[LOADPRIO_IO_WEIGHT] = "load.io.weight",
	[LOADPRIO_IO_MAX] = "load.io.max",
};

int loadprio_is_key(const char *key)
{
	return strncmp(key, "load.", 5) == 0;
}

const char *loadprio_key_name(enum loadprio_key k)
{
	return (unsigned)k < LOADPRIO_KEY_COUNT ? key_names[k] : "?";
}

/* Is word a whitespace-separated word of list?  1/0. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t') &&
		    (!p[n] || p[n] == ' ' || p[n] == '\n' || p[n] == '\t'))
			return 1;
	return 0;
}

/* The hierarchy id of a v1 controller in /proc/cgroups' text: > 0 bound
 * to a v1 hierarchy, 0 free for v2 (or unused), -1 not listed. */
static long v1_hierarchy(const char *proc_cgroups, const char *name)
{
	size_t n = strlen(name);
	for (const char *l = proc_cgroups; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, name, n) && (l[n] == '\t' || l[n] == ' '))
			return strtol(l + n, NULL, 10);
	return -1;
}

int loadprio_cgroup_judge(const char *key, const char *proc_cgroups,
			  const char *v2_controllers, const char *cgpath, char *why, size_t len)
{
	long blkio = proc_cgroups ? v1_hierarchy(proc_cgroups, "blkio") : -1;
	if (v2_controllers && has_word(v2_controllers, "io"))
		return msg_fail(-ENOTSUP, why, len, "%s: the cgroup v2 io controller is there (cgroup "
				"%s), but this brisk does not start loads in a cgroup of their own: "
				"unavailable", key, cgpath);
	if (blkio > 0)
		return msg_fail(-ENOTSUP, why, len, "%s needs the cgroup v2 io controller; here io is "
				"bound to cgroup v1 blkio: unavailable", key);
	if (!v2_controllers)
		return msg_fail(-ENOTSUP, why, len, "%s needs the cgroup v2 io controller; here no "
				"cgroup v2 hierarchy holds brisk: unavailable", key);
	return msg_fail(-ENOTSUP, why, len, "%s needs the cgroup v2 io controller; it is not "
			"enabled for brisk's cgroup %s (its controllers: %s): unavailable", key,
			cgpath, v2_controllers[0] ? v2_controllers : "none");
}

int loadprio_cgroup_io(const char *key, char *why, size_t len)
{
	char *groups = NULL, *self = NULL, ctl[512], cgpath[1024] = "";
	const char *controllers = NULL;
	sysfs_read_alloc("/proc/cgroups", &groups, NULL);
	if (sysfs_read_alloc("/proc/self/cgroup", &self, NULL) == 0) {
		char *l = strstr(self, "0::");
		if (l && (l == self || l[-1] == '\n')) {
			size_t n = strcspn(l + 3, "\n");
			if (n < sizeof(cgpath))
				snprintf(cgpath, sizeof(cgpath), "%.*s", (int)n, l + 3);
		}
	}
	struct mountinfo mi;
	if (cgpath[0] && mountinfo_read(&mi) == 0) {
		for (size_t i = 0; i < mi.n && !controllers; i++) {
			if (strcmp(mi.v[i].fstype, "cgroup2") != 0)
				continue;
			if (sysfs_readf(ctl, sizeof(ctl), "%s%s/cgroup.controllers", mi.v[i].target,
					strcmp(cgpath, "/") ? cgpath : "") == 0)
				controllers = ctl;
		}
		mountinfo_free(&mi);
	}
	int rc = loadprio_cgroup_judge(key, groups, controllers, cgpath[0] ? cgpath : "?", why,
				       len);
	free(groups);
	free(self);
	return rc;
}

/* load.io.max's value: rbps|wbps|riops|wiops=N|max, '/' between them. */
static int check_io_max(const char *v)
{
	static const char *const keys[] = { "rbps", "wbps", "riops", "wiops" };
	char buf[LOADPRIO_VALUE_LEN], *save = NULL;
	size_t len = strlen(v);
	if (!len || len >= sizeof(buf) || v[0] == '/' || v[len - 1] == '/' || strstr(v, "//"))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", v);
	int n = 0;
	for (char *t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save), n++) {
		char *eq = strchr(t, '=');
		uint64_t x;
		if (!eq)
			return -EINVAL;
		*eq = '\0';
		int known = 0;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			known |= !strcmp(t, keys[i]);
		if (!known || (strcmp(eq + 1, "max") && (parse_size(eq + 1, &x) < 0 || !x)))
			return -EINVAL;
	}
	return n ? 0 : -EINVAL;
}

int loadprio_parse(const char *key, const char *value, struct loadprio *out, char *err,
		   size_t errlen)
{
	memset(out, 0, sizeof(*out));
	int k = -1;
	for (int i = 0; i < LOADPRIO_KEY_COUNT; i++)
		if (!strcmp(key, key_names[i]))
			k = i;
	if (k < 0)
		return msg_fail(-EINVAL, err, errlen, "unknown load setting '%s' (load.ionice, "
				"load.io.weight, load.io.max)", key);
	out->key = (enum loadprio_key)k;
	if (strlen(value) >= sizeof(out->value))
		return msg_fail(-EINVAL, err, errlen, "%s: value too long", key);
	if (k == LOADPRIO_IONICE) {
		if (load_ionice_parse(value, &out->cls, &out->level) < 0)
			return msg_fail(-EINVAL, err, errlen, "%s=%s: expected none, idle, be[/0-7] or "
					"rt[/0-7]", key, value);
		if (out->cls == 1 && geteuid() != 0)
			return msg_fail(-EPERM, err, errlen, "%s=%s: the real-time class needs root",
					key, value);
		load_ionice_format(out->cls, out->level, out->value, sizeof(out->value));
		return 0;
	}
	int64_t w;
	if (k == LOADPRIO_IO_WEIGHT && parse_int(value, 1, 10000, &w) < 0)
		return msg_fail(-EINVAL, err, errlen, "%s=%s: expected a weight 1..10000 (cgroup "
				"v2 io.weight)", key, value);
	if (k == LOADPRIO_IO_MAX && check_io_max(value) < 0)
		return msg_fail(-EINVAL, err, errlen, "%s=%s: expected rbps|wbps|riops|wiops=N|max, "
				"'/' between them (cgroup v2 io.max), e.g. wbps=20m", key, value);
	snprintf(out->value, sizeof(out->value), "%s", value);
	return loadprio_cgroup_io(key, err, errlen);
}

void loadprio_format(const struct loadprio *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s=%s", loadprio_key_name(p->key), p->value);
}
