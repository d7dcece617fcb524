/* kstat — live kernel I/O statistics: block device counters, I/O pressure
 * (PSI), dirty page cache, and the vm.dirty_* writeback settings.
 *
 * Contract:
 *  - Every read goes through sysfs.h; 0 or -errno; nothing prints.
 *  - kstat_disk_read() takes a kernel name ("vda", "sda1", "dm-0") and reads
 *    /sys/class/block/NAME/stat (cumulative counters since boot).
 *  - kstat_disk_rates() turns two snapshots taken dt_ns apart into rates;
 *    a counter that went backwards (device re-created) gives zero rates.
 *  - kstat_psi_read(): -ENOENT when the kernel has no PSI (CONFIG_PSI=n or
 *    psi=0), -EOPNOTSUPP when the file exists but is disabled.
 *  - kstat_self_read_bytes(): the bytes this process has caused to be read
 *    from storage (/proc/self/io read_bytes: every read bio it submitted,
 *    file data and file system metadata alike, whatever the device);
 *    -ENOENT without task I/O accounting.
 *  - Sizes in bytes, times in nanoseconds (PSI totals are microseconds in
 *    the kernel; they are converted).
 */
#ifndef BRISK_KSTAT_H
#define BRISK_KSTAT_H

#include <stdint.h>

struct kstat_disk {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks_ms;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks_ms;
	uint64_t in_flight, io_ticks_ms, time_in_queue_ms;
};

struct kstat_rates {
	double rd_iops, wr_iops;
	double rd_mbps, wr_mbps;   /* MiB/s (2^20 bytes per second) */
	double util_pct;           /* io_ticks share of wall time, 0..100 */
	double avg_queue;          /* time_in_queue / wall time (aqu-sz) */
};

struct kstat_psi_line {
	double avg10, avg60, avg300;  /* % */
	uint64_t total_ns;
};

struct kstat_psi {
	struct kstat_psi_line some, full;
};

struct kstat_mem {
	uint64_t dirty, writeback;     /* bytes */
};

struct kstat_vm_dirty {
	/* -1 when the sysctl is missing */
	int64_t ratio, background_ratio;
	int64_t bytes, background_bytes;
	int64_t expire_centisecs, writeback_centisecs;
};

int kstat_disk_read(const char *name, struct kstat_disk *out);
void kstat_disk_rates(const struct kstat_disk *a, const struct kstat_disk *b,
		      uint64_t dt_ns, struct kstat_rates *out);
int kstat_psi_read(struct kstat_psi *out);
int kstat_mem_read(struct kstat_mem *out);
int kstat_vm_dirty_read(struct kstat_vm_dirty *out);
int kstat_self_read_bytes(uint64_t *out);

/* Parsers, exposed for unit tests. */
int kstat_parse_disk(const char *text, struct kstat_disk *out);
int kstat_parse_psi(const char *text, struct kstat_psi *out);
int kstat_parse_meminfo(const char *text, struct kstat_mem *out);
int kstat_parse_io(const char *text, uint64_t *read_bytes);

#endif
