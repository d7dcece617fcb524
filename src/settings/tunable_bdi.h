/* tunable_bdi — the per-device dirty limits of the settings table: keys
 * bdi.max_bytes, bdi.max_ratio, bdi.max_ratio_fine, bdi.min_bytes,
 * bdi.min_ratio, bdi.min_ratio_fine, bdi.strict_limit, the files of the
 * disk's backing device (/sys/block/DEV/bdi -> /sys/class/bdi/MAJ:MIN,
 * Linux 6.2 and later).  The kernel keeps two numbers per disk, its min
 * and max share of the system's dirty limit in millionths (the *_fine
 * files); the % and byte files are views of them: writing max_bytes sets
 * max_ratio, and max_bytes reads back as that share of the dirty limit
 * *now*, which moves with free memory.  So the journal records the *_fine
 * file that carries a change (tunable_bdi_carrier) and restores that.
 * The kernel refuses with a bare EINVAL what breaks its rules; this module
 * checks them first so that the refusal says why.  Ranges, defaults and
 * what the user sees: brisk-set(1), PER-DEVICE DIRTY LIMITS.
 */
#ifndef BRISK_TUNABLE_BDI_H
#define BRISK_TUNABLE_BDI_H

#include <stddef.h>
#include <stdint.h>

/* The key whose file carries the state of bdi key NAME exactly:
 * "bdi.max_ratio_fine" for bdi.max_ratio and bdi.max_bytes,
 * "bdi.min_ratio_fine" for bdi.min_ratio and bdi.min_bytes; NULL for
 * every other key (the *_fine ones carry themselves). */
const char *tunable_bdi_carrier(const char *name);

/* The system's dirty limit now, in bytes: /proc/vmstat's
 * nr_dirty_threshold pages (vm.dirty_ratio of the available memory, or
 * vm.dirty_bytes), the 100 % that every bdi ratio is a share of.
 * 0 or -errno. */
int tunable_bdi_dirty_limit(uint64_t *bytes);

/* What the kernel would refuse of ATTR=VALUE ("max_bytes", a canonical
 * decimal) on DEV as things are now: a min above the disk's max, a max
 * below its min, bytes above the system's dirty limit, the min shares of
 * all disks adding up to 100 % or more.  0, or -ERANGE with a one-line
 * why.  A figure that cannot be read is not checked (the kernel still
 * refuses). */
int tunable_bdi_check(const char *dev, const char *attr, const char *value,
		      char *why, size_t whylen);

#endif
