/* loadprio — the load's own settings, which compare arms and brisk run's
 * --at change like device settings: "load.ionice" (the I/O priority of
 * every load process, as ionice(1) sets it: none, rt[/N], be[/N], idle)
 * and the cgroup v2 io controller's "load.io.weight" / "load.io.max".
 * They touch no sysfs file, so nothing is journaled: an I/O priority ends
 * with its process.  The io controller's keys are checked and refused
 * with why (no cgroup v2 hierarchy, io bound to cgroup v1 blkio, io not
 * enabled for brisk's cgroup, or not built: loads do not run in a cgroup
 * of their own yet).  brisk-compare(1) ARMS and brisk-run(1) --at say it
 * for users.
 */
#ifndef BRISK_LOADPRIO_H
#define BRISK_LOADPRIO_H

#include <stddef.h>

#define LOADPRIO_VALUE_LEN 64

enum loadprio_key {
	LOADPRIO_IONICE,        /* load.ionice=idle */
	LOADPRIO_IO_WEIGHT,     /* load.io.weight=N, 1..10000 */
	LOADPRIO_IO_MAX,        /* load.io.max=wbps=20m[/rbps=..][/riops=N][/wiops=N] */
	LOADPRIO_KEY_COUNT
};

struct loadprio {
	enum loadprio_key key;
	int cls, level;                    /* load.ionice: class 0-3, level 0-7 */
	char value[LOADPRIO_VALUE_LEN];    /* canonical: "idle", "be/7" */
};

/* Is KEY one of the load's own ("load." and anything after)?  1/0. */
int loadprio_is_key(const char *key);
/* "load.ionice", ... */
const char *loadprio_key_name(enum loadprio_key k);
/* Check KEY=VALUE.  0; -EINVAL (an unknown load.* key, a bad value),
 * -EPERM (rt without root), -ENOTSUP (the io controller's keys: why in
 * err) with a message in err naming the key. */
int loadprio_parse(const char *key, const char *value, struct loadprio *out, char *err,
		   size_t errlen);
/* "load.ionice=idle". */
void loadprio_format(const struct loadprio *p, char *buf, size_t len);

/* Can key (an io controller key) be used here?  Reads /proc/self/cgroup,
 * the cgroup2 mount and /proc/cgroups.  -ENOTSUP with why in a sentence. */
int loadprio_cgroup_io(const char *key, char *why, size_t len);
/* The verdict from its parts (tests): proc_cgroups is /proc/cgroups'
 * text; v2_controllers the cgroup.controllers of brisk's own cgroup2
 * cgroup (NULL: no cgroup2 hierarchy or not readable); cgpath that
 * cgroup's path ("/").  0 when io is there (then: not built), else the
 * same -ENOTSUP and why as loadprio_cgroup_io. */
int loadprio_cgroup_judge(const char *key, const char *proc_cgroups,
			  const char *v2_controllers, const char *cgpath, char *why, size_t len);

#endif
