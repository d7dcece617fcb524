#include "kstat.h"
#include "sysfs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kstat_parse_disk(const char *text, struct kstat_disk *d)
{
	/* Documentation/block/stat.rst: 11 fields since 2.6, 15 with discards
	 * (4.18), 17 with flushes (5.5); the first 11 are what we need. */
	unsigned long long f[11];
	int n = sscanf(text, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		       &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7],
		       &f[8], &f[9], &f[10]);
	if (n != 11)
		return -EINVAL;
	*d = (struct kstat_disk){
		.rd_ios = f[0], .rd_merges = f[1], .rd_sectors = f[2], .rd_ticks_ms = f[3],
		.wr_ios = f[4], .wr_merges = f[5], .wr_sectors = f[6], .wr_ticks_ms = f[7],
		.in_flight = f[8], .io_ticks_ms = f[9], .time_in_queue_ms = f[10],
	};
	return 0;
}

int kstat_disk_read(const char *name, struct kstat_disk *out)
{
	char buf[512];
	int rc = sysfs_readf(buf, sizeof(buf), "/sys/class/block/%s/stat", name);
	if (rc < 0)
		return rc;
	return kstat_parse_disk(buf, out);
}

static double delta(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : 0.0;
}

void kstat_disk_rates(const struct kstat_disk *a, const struct kstat_disk *b,
		      uint64_t dt_ns, struct kstat_rates *out)
{
	*out = (struct kstat_rates){ 0 };
	if (dt_ns == 0)
		return;
	double s = (double)dt_ns / 1e9, ms = (double)dt_ns / 1e6;
	out->rd_iops = delta(a->rd_ios, b->rd_ios) / s;
	out->wr_iops = delta(a->wr_ios, b->wr_ios) / s;
	/* sectors in the stat file are always 512 bytes */
	out->rd_mbps = delta(a->rd_sectors, b->rd_sectors) * 512.0 / 1048576.0 / s;
	out->wr_mbps = delta(a->wr_sectors, b->wr_sectors) * 512.0 / 1048576.0 / s;
	out->util_pct = delta(a->io_ticks_ms, b->io_ticks_ms) / ms * 100.0;
	if (out->util_pct > 100.0)
		out->util_pct = 100.0;
	out->avg_queue = delta(a->time_in_queue_ms, b->time_in_queue_ms) / ms;
}

/* line points just past "some" or "full" */
static int parse_psi_line(const char *line, struct kstat_psi_line *out)
{
	unsigned long long total;
	if (sscanf(line, " avg10=%lf avg60=%lf avg300=%lf total=%llu",
		   &out->avg10, &out->avg60, &out->avg300, &total) != 4)
		return -EINVAL;
	out->total_ns = (uint64_t)total * 1000;
	return 0;
}

int kstat_parse_psi(const char *text, struct kstat_psi *out)
{
	memset(out, 0, sizeof(*out));
	const char *some = strstr(text, "some ");
	if (!some || parse_psi_line(some + 4, &out->some) < 0)
		return -EINVAL;
	const char *full = strstr(text, "full ");
	/* "full" exists for io since 5.2; its absence is not an error. */
	if (full && parse_psi_line(full + 4, &out->full) < 0)
		return -EINVAL;
	return 0;
}

int kstat_psi_read(struct kstat_psi *out)
{
	char buf[512];
	int rc = sysfs_read_raw("/proc/pressure/io", buf, sizeof(buf), NULL);
	if (rc < 0)
		return rc;
	return kstat_parse_psi(buf, out);
}

/* "KEY: N" on a line of its own, N times unit into *out. */
static int field(const char *text, const char *key, uint64_t unit, uint64_t *out)
{
	size_t kl = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, kl) == 0 && p[kl] == ':') {
			unsigned long long v;
			if (sscanf(p + kl + 1, "%llu", &v) != 1 ||
			    __builtin_mul_overflow((uint64_t)v, unit, out))
				return -EINVAL;
			return 0;
		}
	}
	return -ENOENT;
}

int kstat_parse_meminfo(const char *text, struct kstat_mem *out)
{
	int rc = field(text, "Dirty", 1024, &out->dirty);
	if (rc == 0)
		rc = field(text, "Writeback", 1024, &out->writeback);
	return rc;
}

int kstat_parse_io(const char *text, uint64_t *read_bytes)
{
	return field(text, "read_bytes", 1, read_bytes);
}

int kstat_self_read_bytes(uint64_t *out)
{
	char buf[512];
	int rc = sysfs_read_raw("/proc/self/io", buf, sizeof(buf), NULL);
	if (rc < 0)
		return rc;
	return kstat_parse_io(buf, out);
}

int kstat_mem_read(struct kstat_mem *out)
{
	char buf[8192];
	int rc = sysfs_read_raw("/proc/meminfo", buf, sizeof(buf), NULL);
	if (rc < 0 && rc != -EOVERFLOW)
		return rc;
	return kstat_parse_meminfo(buf, out);
}

static int64_t vm_value(const char *name)
{
	char path[96];
	int64_t v;
	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	return sysfs_read_s64(path, &v) == 0 ? v : -1;
}

int kstat_vm_dirty_read(struct kstat_vm_dirty *out)
{
	out->ratio = vm_value("dirty_ratio");
	out->background_ratio = vm_value("dirty_background_ratio");
	out->bytes = vm_value("dirty_bytes");
	out->background_bytes = vm_value("dirty_background_bytes");
	out->expire_centisecs = vm_value("dirty_expire_centisecs");
	out->writeback_centisecs = vm_value("dirty_writeback_centisecs");
	return out->ratio < 0 && out->bytes < 0 ? -ENOENT : 0;
}
