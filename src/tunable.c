#include "tunable.h"
#include "msg.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "sysfs.h"
#include "str.h"

#define SYSFS_BLOCK "/sys/block"
#define PROC_VM "/proc/sys/vm"

struct range {
	const char *sched;   /* iosched: owning scheduler; NULL otherwise */
	const char *name;    /* attribute file name */
	int64_t min, max;
};

/* Queue attributes brisk may change, in display order.  Ranges are those
 * the kernel accepts (block/blk-sysfs.c): queue_var_store() refuses above
 * UINT_MAX; nr_requests is BLKDEV_MIN_RQ..MAX_SCHED_RQ (with scheduler
 * "none" the tag depth caps it lower and the kernel refuses); rq_affinity
 * and nomerges ignore anything but 0..2; wbt_lat_usec takes -1 (default). */
static const struct range queue_ranges[] = {
	{ NULL, "nr_requests", 4, 2048 },
	{ NULL, "read_ahead_kb", 0, UINT32_MAX },
	{ NULL, "wbt_lat_usec", -1, INT64_MAX / 1000 },
	{ NULL, "max_sectors_kb", 0, UINT32_MAX },
	{ NULL, "rq_affinity", 0, 2 },
	{ NULL, "nomerges", 0, 2 },
};

/* iosched tunables of the schedulers in mainline (mq-deadline.c,
 * bfq-iosched.c, kyber-iosched.c): outside these the kernel clamps
 * silently, so brisk refuses instead. */
static const struct range iosched_ranges[] = {
	{ "mq-deadline", "async_depth", 1, INT32_MAX },
	{ "mq-deadline", "fifo_batch", 0, INT32_MAX },
	{ "mq-deadline", "front_merges", 0, 1 },
	{ "mq-deadline", "prio_aging_expire", 0, INT32_MAX },
	{ "mq-deadline", "read_expire", 0, INT32_MAX },
	{ "mq-deadline", "write_expire", 0, INT32_MAX },
	{ "mq-deadline", "writes_starved", INT32_MIN, INT32_MAX },
	{ "bfq", "back_seek_max", 0, INT32_MAX },
	{ "bfq", "back_seek_penalty", 1, INT32_MAX },
	{ "bfq", "fifo_expire_async", 1, INT32_MAX },
	{ "bfq", "fifo_expire_sync", 1, INT32_MAX },
	{ "bfq", "low_latency", 0, 1 },
	{ "bfq", "max_budget", 0, INT32_MAX },
	{ "bfq", "slice_idle", 0, INT32_MAX },
	{ "bfq", "slice_idle_us", 0, UINT32_MAX },
	{ "bfq", "strict_guarantees", 0, 1 },
	{ "bfq", "timeout_sync", 1, INT32_MAX },
	{ "kyber", "read_lat_nsec", 0, INT64_MAX },
	{ "kyber", "write_lat_nsec", 0, INT64_MAX },
};

/* An iosched tunable of a scheduler brisk does not know: a plain int. */
static const struct range iosched_generic = { NULL, NULL, 0, INT32_MAX };

static const struct range device_ranges[] = {
	{ NULL, "queue_depth", 1, 65535 },
};

/* mm/page-writeback.c: ratios 0..100; dirty_bytes at least 2 pages;
 * dirty_background_bytes at least 1; centisecs non-negative ints. */
static const struct range sysctl_ranges[] = {
	{ NULL, "dirty_ratio", 0, 100 },
	{ NULL, "dirty_background_ratio", 0, 100 },
	{ NULL, "dirty_bytes", 8192, INT64_MAX },
	{ NULL, "dirty_background_bytes", 1, INT64_MAX },
	{ NULL, "dirty_expire_centisecs", 0, INT32_MAX },
	{ NULL, "dirty_writeback_centisecs", 0, INT32_MAX },
};

const char *const tunable_sched_dependent[] = {
	"nr_requests", "wbt_lat_usec", NULL
};

#define N(a) (sizeof(a) / sizeof((a)[0]))


static const struct range *find_range(const struct range *t, size_t n,
				      const char *sched, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0 &&
		    (!t[i].sched || (sched && strcmp(t[i].sched, sched) == 0)))
			return &t[i];
	return NULL;
}

static int is_ident(const char *s, size_t max)
{
	size_t n = 0;
	for (; s[n]; n++) {
		char c = s[n];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return n > 0 && n < max;
}

int tunable_valid_devname(const char *dev)
{
	if (!dev || !*dev || strlen(dev) >= 32)
		return 0;
	if (strcmp(dev, ".") == 0 || strcmp(dev, "..") == 0)
		return 0;
	for (const char *p = dev; *p; p++) {
		char c = *p;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == ':' || c == '+' || c == '-'))
			return 0;
	}
	return 1;
}

const char *tunable_sysctl_partner(const char *name)
{
	static const char *const pairs[][2] = {
		{ "vm.dirty_ratio", "vm.dirty_bytes" },
		{ "vm.dirty_background_ratio", "vm.dirty_background_bytes" },
	};
	for (size_t i = 0; i < N(pairs); i++) {
		if (strcmp(name, pairs[i][0]) == 0)
			return pairs[i][1];
		if (strcmp(name, pairs[i][1]) == 0)
			return pairs[i][0];
	}
	return NULL;
}

static void set_key(struct tunable_key *key, enum tunable_kind kind,
		    const char *name, const char *attr)
{
	key->kind = kind;
	snprintf(key->name, sizeof(key->name), "%.47s", name);
	snprintf(key->attr, sizeof(key->attr), "%.47s", attr);
}

int tunable_parse_key(const char *text, struct tunable_key *key,
		      char *why, size_t whylen)
{
	if (!text || !*text) {
		msg_set(why, whylen, "empty key");
		return -EINVAL;
	}
	if (strcmp(text, "scheduler") == 0) {
		set_key(key, TUNABLE_SCHEDULER, "scheduler", "scheduler");
		return 0;
	}
	for (size_t i = 0; i < N(queue_ranges); i++)
		if (strcmp(text, queue_ranges[i].name) == 0) {
			set_key(key, TUNABLE_QUEUE, text, text);
			return 0;
		}
	if (strcmp(text, "queue_depth") == 0) {
		set_key(key, TUNABLE_DEVICE, "queue_depth", "queue_depth");
		return 0;
	}
	if (strncmp(text, "vm.", 3) == 0) {
		const char *a = text + 3;
		for (size_t i = 0; i < N(sysctl_ranges); i++)
			if (strcmp(a, sysctl_ranges[i].name) == 0) {
				set_key(key, TUNABLE_SYSCTL, text, a);
				return 0;
			}
		msg_set(why, whylen, "unknown sysctl '%.64s' (brisk changes only "
		    "vm.dirty_ratio, vm.dirty_background_ratio, vm.dirty_bytes, "
		    "vm.dirty_background_bytes, vm.dirty_expire_centisecs, "
		    "vm.dirty_writeback_centisecs)", text);
		return -EINVAL;
	}
	const char *a = text;
	if (strncmp(text, "iosched/", 8) == 0)
		a = text + 8;
	if (!is_ident(a, sizeof(key->attr) - 8)) {
		msg_set(why, whylen, "invalid key '%.64s': a key is a name such as "
		    "scheduler, read_ahead_kb, slice_idle or vm.dirty_ratio, "
		    "never a path", text);
		return -EINVAL;
	}
	char name[TUNABLE_NAME_LEN];
	snprintf(name, sizeof(name), "iosched/%.39s", a);
	set_key(key, TUNABLE_IOSCHED, name, a);
	return 0;
}

int tunable_path(const char *dev, const struct tunable_key *key,
		 char *path, size_t len)
{
	int n;
	if (key->kind == TUNABLE_SYSCTL) {
		n = snprintf(path, len, PROC_VM "/%s", key->attr);
	} else {
		if (!tunable_valid_devname(dev))
			return -EINVAL;
		const char *dir = key->kind == TUNABLE_IOSCHED ? "queue/iosched" :
				  key->kind == TUNABLE_DEVICE ? "device" : "queue";
		n = snprintf(path, len, SYSFS_BLOCK "/%s/%s/%s", dev, dir, key->attr);
	}
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

void tunable_active_scheduler(const char *raw, char *out, size_t len)
{
	char list[256];
	sysfs_parse_choice(raw, out, len, list, sizeof(list));
	if (len && out[0] == '\0' && list[0] && !strchr(list, ' '))
		snprintf(out, len, "%s", list);
}

int tunable_schedulers(const char *dev, char *active, size_t alen,
		       char *offered, size_t olen)
{
	if (!tunable_valid_devname(dev))
		return -EINVAL;
	char raw[256];
	int rc = sysfs_readf(raw, sizeof(raw), SYSFS_BLOCK "/%s/queue/scheduler", dev);
	if (rc < 0)
		return rc;
	char a[TUNABLE_SCHED_LEN];
	sysfs_parse_choice(raw, a, sizeof(a), offered, olen);
	tunable_active_scheduler(raw, active, alen);
	return 0;
}

int tunable_read(const char *dev, const struct tunable_key *key,
		 char *val, size_t len)
{
	if (key->kind == TUNABLE_SCHEDULER) {
		char offered[256];
		return tunable_schedulers(dev, val, len, offered, sizeof(offered));
	}
	char path[512];
	int rc = tunable_path(dev, key, path, sizeof(path));
	if (rc < 0)
		return rc;
	return sysfs_read(path, val, len);
}

static const struct range *range_of(const struct tunable_key *key, const char *sched)
{
	switch (key->kind) {
	case TUNABLE_QUEUE:
		return find_range(queue_ranges, N(queue_ranges), NULL, key->attr);
	case TUNABLE_IOSCHED: {
		const struct range *r = sched ? find_range(iosched_ranges,
				N(iosched_ranges), sched, key->attr) : NULL;
		return r ? r : &iosched_generic;
	}
	case TUNABLE_DEVICE:
		return find_range(device_ranges, N(device_ranges), NULL, key->attr);
	case TUNABLE_SYSCTL:
		return find_range(sysctl_ranges, N(sysctl_ranges), NULL, key->attr);
	case TUNABLE_SCHEDULER:
		break;
	}
	return NULL;
}

int tunable_check_value(const struct tunable_key *key, const char *sched,
			const char *value, char *canon, size_t clen,
			char *why, size_t whylen)
{
	if (key->kind == TUNABLE_SCHEDULER) {
		if (!value || !*value || strlen(value) >= TUNABLE_SCHED_LEN ||
		    strspn(value, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(value)) {
			msg_set(why, whylen, "'%.64s' is not a scheduler name", value ? value : "");
			return -EINVAL;
		}
		snprintf(canon, clen, "%s", value);
		return 0;
	}
	const struct range *r = range_of(key, sched);
	if (!r) {
		msg_set(why, whylen, "no range known for %s", key->name);
		return -EINVAL;
	}
	int64_t v;
	int rc = parse_int(value, r->min, r->max, &v);
	if (rc == -EINVAL || !value ||
	    !(value[0] == '-' || value[0] == '+' || (value[0] >= '0' && value[0] <= '9'))) {
		msg_set(why, whylen, "%s=%.64s: not a decimal integer", key->name, value);
		return -EINVAL;
	}
	if (rc == -ERANGE) {
		msg_set(why, whylen, "%s=%.64s: out of range, the kernel accepts "
		    "%" PRId64 "..%" PRId64, key->name, value, r->min, r->max);
		return -ERANGE;
	}
	if (rc < 0)
		return rc;
	snprintf(canon, clen, "%" PRId64, v);
	return 0;
}

static int known_iosched(const char *sched, const char *name)
{
	for (size_t i = 0; i < N(iosched_ranges); i++)
		if (strcmp(iosched_ranges[i].sched, sched) == 0 &&
		    strcmp(iosched_ranges[i].name, name) == 0)
			return 1;
	return 0;
}

/* Names of the iosched tunables on DEV now, space-separated. */
static void iosched_names(const char *dev, char *buf, size_t len)
{
	struct tunable_key keys[64];
	size_t n = tunable_list(dev, 0, keys, N(keys));
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && i < N(keys); i++) {
		if (keys[i].kind != TUNABLE_IOSCHED)
			continue;
		int w = snprintf(buf + off, len - off, "%s%s", off ? " " : "", keys[i].attr);
		if (w < 0 || (size_t)w >= len - off)
			break;
		off += (size_t)w;
	}
}

int tunable_check(const char *dev, const struct tunable_key *key,
		  const char *value, const char *sched_after,
		  char *canon, size_t clen, char *why, size_t whylen)
{
	if (key->kind != TUNABLE_SYSCTL && !tunable_valid_devname(dev)) {
		msg_set(why, whylen, "'%.64s' is not a device name", dev ? dev : "");
		return -EINVAL;
	}
	char cur[TUNABLE_VALUE_LEN];
	if (key->kind == TUNABLE_SCHEDULER) {
		char active[TUNABLE_SCHED_LEN], offered[256];
		int rc = tunable_schedulers(dev, active, sizeof(active), offered, sizeof(offered));
		if (rc < 0) {
			msg_set(why, whylen, "has no I/O scheduler to set (queue/scheduler: %s)",
			    strerror(-rc));
			return -ENOENT;
		}
		rc = tunable_check_value(key, NULL, value, canon, clen, why, whylen);
		if (rc < 0)
			return rc;
		if (!str_in_list(offered, value)) {
			msg_set(why, whylen, "scheduler '%.32s' is not offered (choose from: %s)",
			    value, offered);
			return -EINVAL;
		}
		return 0;
	}
	char active[TUNABLE_SCHED_LEN] = "";
	if (key->kind == TUNABLE_IOSCHED) {
		char offered[256];
		if (tunable_schedulers(dev, active, sizeof(active), offered, sizeof(offered)) < 0)
			active[0] = '\0';
		const char *sched = sched_after && *sched_after ? sched_after : active;
		int exists;
		if (strcmp(sched, active) != 0)
			exists = known_iosched(sched, key->attr);
		else
			exists = tunable_read(dev, key, cur, sizeof(cur)) >= 0;
		if (!exists) {
			char names[512] = "";
			if (strcmp(sched, active) == 0)
				iosched_names(dev, names, sizeof(names));
			else
				for (size_t i = 0, off = 0; i < N(iosched_ranges); i++)
					if (strcmp(iosched_ranges[i].sched, sched) == 0) {
						int w = snprintf(names + off, sizeof(names) - off, "%s%s",
								 off ? " " : "", iosched_ranges[i].name);
						if (w > 0 && (size_t)w < sizeof(names) - off)
							off += (size_t)w;
					}
			msg_set(why, whylen, "unknown key '%s': not a queue attribute brisk "
			    "changes, and scheduler %s has no tunable '%s' (%s%s%s)",
			    key->attr, *sched ? sched : "(none)", key->attr,
			    *names ? "it has: " : "it has none", names,
			    strcmp(sched, active) ? "" : "; see 'brisk get'");
			return -ENOENT;
		}
		return tunable_check_value(key, sched, value, canon, clen, why, whylen);
	}
	int rc = tunable_read(dev, key, cur, sizeof(cur));
	if (rc < 0) {
		msg_set(why, whylen, "%s is not available here (%s)", key->name,
		    rc == -ENOENT ? "no such attribute" : strerror(-rc));
		return -ENOENT;
	}
	rc = tunable_check_value(key, NULL, value, canon, clen, why, whylen);
	if (rc < 0)
		return rc;
	if (key->kind == TUNABLE_QUEUE && strcmp(key->attr, "max_sectors_kb") == 0) {
		int64_t v = strtoll(canon, NULL, 10);
		long page_kb = sysconf(_SC_PAGESIZE) / 1024;
		uint64_t hw;
		char path[512];
		snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/queue/max_hw_sectors_kb", dev);
		if (v != 0 && page_kb > 0 && v < page_kb) {
			msg_set(why, whylen, "max_sectors_kb=%s: below the page size "
			    "(%ld); 0 means the default", canon, page_kb);
			return -ERANGE;
		}
		if (sysfs_read_u64(path, &hw) == 0 && (uint64_t)v > hw) {
			msg_set(why, whylen, "max_sectors_kb=%s: above this device's "
			    "max_hw_sectors_kb (%" PRIu64 ")", canon, hw);
			return -ERANGE;
		}
	}
	return 0;
}

int tunable_apply(const char *dev, const struct tunable_key *key,
		  const char *value, struct tunable_result *res)
{
	struct tunable_result local;
	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	char path[512];
	int rc = tunable_path(dev, key, path, sizeof(path));
	if (rc < 0)
		return rc;
	snprintf(res->written, sizeof(res->written), "%s", value);
	rc = tunable_read(dev, key, res->before, sizeof(res->before));
	if (rc < 0)
		return rc;
	rc = sysfs_write(path, value);
	if (rc < 0)
		return rc;
	rc = tunable_read(dev, key, res->readback, sizeof(res->readback));
	if (rc < 0)
		return rc;
	if (strcmp(res->readback, value) != 0) {
		if (key->kind == TUNABLE_SCHEDULER)
			return -EIO;
		res->adjusted = 1;
	}
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct tunable_key *)a)->name,
		      ((const struct tunable_key *)b)->name);
}

size_t tunable_list(const char *dev, int with_sysctl,
		    struct tunable_key *out, size_t max)
{
	size_t n = 0;
	char val[TUNABLE_VALUE_LEN];
	struct tunable_key k;
#define PUT(key) do { if (n < max) out[n] = (key); n++; } while (0)
	if (dev && tunable_valid_devname(dev)) {
		set_key(&k, TUNABLE_SCHEDULER, "scheduler", "scheduler");
		if (tunable_read(dev, &k, val, sizeof(val)) >= 0)
			PUT(k);
		for (size_t i = 0; i < N(queue_ranges); i++) {
			char path[512];
			set_key(&k, TUNABLE_QUEUE, queue_ranges[i].name, queue_ranges[i].name);
			if (tunable_path(dev, &k, path, sizeof(path)) == 0 &&
			    sysfs_exists(path) == 0)
				PUT(k);
		}
		char dir[512];
		snprintf(dir, sizeof(dir), SYSFS_BLOCK "/%s/queue/iosched", dev);
		DIR *d = opendir(dir);
		if (d) {
			size_t first = n;
			struct dirent *e;
			while ((e = readdir(d))) {
				if (!is_ident(e->d_name, sizeof(k.attr) - 8))
					continue;
				char name[TUNABLE_NAME_LEN];
				snprintf(name, sizeof(name), "iosched/%.39s", e->d_name);
				set_key(&k, TUNABLE_IOSCHED, name, e->d_name);
				PUT(k);
			}
			closedir(d);
			if (n > first && first < max)
				qsort(out + first, (n < max ? n : max) - first,
				      sizeof(*out), cmp_key);
		}
		set_key(&k, TUNABLE_DEVICE, "queue_depth", "queue_depth");
		char path[512];
		if (tunable_path(dev, &k, path, sizeof(path)) == 0 &&
		    sysfs_exists(path) == 0)
			PUT(k);
	}
	if (with_sysctl)
		for (size_t i = 0; i < N(sysctl_ranges); i++) {
			char name[TUNABLE_NAME_LEN];
			snprintf(name, sizeof(name), "vm.%s", sysctl_ranges[i].name);
			set_key(&k, TUNABLE_SYSCTL, name, sysctl_ranges[i].name);
			PUT(k);
		}
#undef PUT
	return n;
}
