/* tunable_bdi — the kernel's rules for the per-device dirty limits; see
 * tunable_bdi.h.
 *
 * From mm/page-writeback.c and mm/backing-dev.c (Linux 6.2 on; read back
 * on a loop device of 6.18): BDI_RATIO_SCALE is 10000, so a ratio is kept
 * in millionths of the dirty limit (max_ratio_fine 0..1000000).
 * __bdi_set_min_ratio() refuses above 100 %, above the disk's max_ratio,
 * and when the min ratios of all disks would reach 100 %;
 * __bdi_set_max_ratio() refuses above 100 % and below the disk's
 * min_ratio.  bdi_set_max_bytes()/bdi_set_min_bytes() turn bytes into
 * pages * 1000000 / dirty_thresh (rounded down) and set that ratio, so
 * bytes above the dirty limit are refused too; max_bytes/min_bytes read
 * back as dirty_thresh * ratio, the limit of now.  strict_limit takes 0
 * or 1 (bdi_set_strict_limit()).  Defaults of a block device: min 0,
 * max 100 % (max_bytes = the dirty limit), strict_limit 0; FUSE sets its
 * own (max_ratio 1, strict_limit 1), and brisk lab sets its disks'. */
#include "tunable_bdi.h"
#include "msg.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "sysfs.h"

#define FINE_MAX 1000000   /* 100 % in millionths */

const char *tunable_bdi_carrier(const char *name)
{
	if (!name)
		return NULL;
	if (strcmp(name, "bdi.max_ratio") == 0 || strcmp(name, "bdi.max_bytes") == 0)
		return "bdi.max_ratio_fine";
	if (strcmp(name, "bdi.min_ratio") == 0 || strcmp(name, "bdi.min_bytes") == 0)
		return "bdi.min_ratio_fine";
	return NULL;
}

int tunable_bdi_dirty_limit(uint64_t *bytes)
{
	char *buf;
	int rc = sysfs_read_alloc("/proc/vmstat", &buf, NULL);
	if (rc < 0)
		return rc;
	rc = -ENOENT;
	const char *p = strstr(buf, "\nnr_dirty_threshold ");
	long page = sysconf(_SC_PAGESIZE);
	if (p && page > 0) {
		char *end;
		errno = 0;
		unsigned long long pages = strtoull(p + 20, &end, 10);
		if (!errno && end != p + 20 && pages <= UINT64_MAX / (uint64_t)page) {
			*bytes = pages * (uint64_t)page;
			rc = 0;
		}
	}
	free(buf);
	return rc;
}

/* DEV's bdi/NAME as a number. */
static int read_bdi(const char *dev, const char *name, int64_t *v)
{
	char path[128];
	snprintf(path, sizeof(path), "/sys/block/%s/bdi/%s", dev, name);
	return sysfs_read_s64(path, v);
}

/* The sum of min_ratio_fine over every bdi but DEV's own; -errno. */
static int64_t other_mins(const char *dev)
{
	char **names;
	size_t n;
	char self[64] = "";
	char link[128], to[256];
	snprintf(link, sizeof(link), "/sys/block/%s/bdi", dev);
	if (sysfs_link(link, to, sizeof(to)) == 0 && strrchr(to, '/'))
		snprintf(self, sizeof(self), "%s", strrchr(to, '/') + 1);
	int rc = sysfs_list("/sys/class/bdi", &names, &n);
	if (rc < 0)
		return rc;
	int64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		char path[300];
		int64_t v;
		snprintf(path, sizeof(path), "/sys/class/bdi/%s/min_ratio_fine", names[i]);
		if (strcmp(names[i], self) != 0 && sysfs_read_s64(path, &v) == 0 && v > 0)
			sum += v;
	}
	sysfs_list_free(names, n);
	return sum;
}

/* VALUE of a *_bytes file as millionths of the dirty limit LIMIT, as
 * the kernel computes them (whole pages, rounded down). */
static int64_t fine_of_bytes(uint64_t value, uint64_t limit)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages = value / (uint64_t)(page > 0 ? page : 4096);
	uint64_t lpages = limit / (uint64_t)(page > 0 ? page : 4096);
	if (!lpages)
		return FINE_MAX + 1;
	/* pages <= lpages here: no overflow below 2^44 pages */
	return (int64_t)(pages * FINE_MAX / lpages);
}

int tunable_bdi_check(const char *dev, const char *attr, const char *value,
		      char *why, size_t whylen)
{
	int64_t v, fine;
	if (parse_int(value, 0, INT64_MAX, &v) < 0)
		return 0;   /* tunable_check_value's to refuse */
	int bytes = strcmp(attr, "max_bytes") == 0 || strcmp(attr, "min_bytes") == 0;
	if (bytes) {
		uint64_t limit;
		if (tunable_bdi_dirty_limit(&limit) < 0)
			return 0;
		if ((uint64_t)v > limit) {
			msg_set(why, whylen, "bdi.%s=%s: above the system's dirty limit "
			    "(%" PRIu64 " bytes now, from vm.dirty_ratio or vm.dirty_bytes): "
			    "the kernel refuses it; set at most that, or raise the "
			    "system's limit", attr, value, limit);
			return -ERANGE;
		}
		fine = fine_of_bytes((uint64_t)v, limit);
	} else if (strstr(attr, "_fine")) {
		fine = v;
	} else if (strstr(attr, "_ratio")) {
		fine = v * 10000;
	} else {
		return 0;   /* strict_limit: the range says it */
	}
	int64_t other;
	if (strncmp(attr, "min_", 4) == 0) {
		if (read_bdi(dev, "max_ratio_fine", &other) == 0 && fine > other) {
			msg_set(why, whylen, "bdi.%s=%s: above this disk's max share "
			    "(bdi.max_ratio_fine %" PRId64 " millionths, bdi.max_ratio %"
			    PRId64 " %%): the kernel refuses a min above the max; raise "
			    "bdi.max_ratio first", attr, value, other, other / 10000);
			return -ERANGE;
		}
		int64_t sum = other_mins(dev);
		if (sum >= 0 && fine > 0 && sum + fine >= FINE_MAX) {
			msg_set(why, whylen, "bdi.%s=%s: the min shares of all disks would "
			    "add up to 100 %% or more (the others hold %" PRId64
			    " millionths): the kernel refuses it", attr, value, sum);
			return -ERANGE;
		}
	} else if (read_bdi(dev, "min_ratio_fine", &other) == 0 && fine < other) {
		msg_set(why, whylen, "bdi.%s=%s: below this disk's min share "
		    "(bdi.min_ratio_fine %" PRId64 " millionths): the kernel refuses "
		    "a max below the min; lower bdi.min_ratio first", attr, value, other);
		return -ERANGE;
	}
	return 0;
}
