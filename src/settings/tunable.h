/* tunable — the one settings table (tunable_defs: every key brisk may
 * change, its scope, type, the range the kernel accepts and a line of
 * help), and how each key maps to a file.
 *
 *   KEY                      FILE
 *   scheduler                /sys/block/DEV/queue/scheduler
 *   nr_requests read_ahead_kb wbt_lat_usec max_sectors_kb rq_affinity nomerges
 *                            /sys/block/DEV/queue/KEY
 *   iosched/NAME or NAME     /sys/block/DEV/queue/iosched/NAME (active scheduler)
 *   queue_depth              /sys/block/DEV/device/queue_depth (SCSI)
 *   vm.dirty_ratio vm.dirty_background_ratio vm.dirty_bytes
 *   vm.dirty_background_bytes vm.dirty_expire_centisecs
 *   vm.dirty_writeback_centisecs
 *                            /proc/sys/vm/NAME (DEV is ignored)
 *
 * Contract:
 *  - Nothing prints.  Functions return 0 or a negative errno; those that
 *    can refuse user input also fill a one-line reason (no trailing newline,
 *    without the device name) in why[] for the caller to show.
 *  - A key never yields a path outside those above: names are checked
 *    character by character ([a-z0-9_]), device names must be plain kernel
 *    names (no '/', not "." or ".."), so "../" and absolute paths are refused.
 *  - Values are validated before anything is written: a scheduler must be in
 *    the device's offered list, numbers must be decimal integers inside the
 *    range the kernel accepts for that attribute (the kernel would otherwise
 *    clamp silently or refuse); the value written is the canonical decimal.
 *  - tunable_apply() writes once, reads back and verifies (as fio's
 *    set_ioscheduler does): a scheduler must then be the active one; a number
 *    the kernel stored differently (ms→jiffies rounding, -1 = default) is
 *    reported through res->adjusted, not as an error.  A refused write
 *    returns the kernel's errno.
 *  - The iosched set is never cached: every call reads the directory of the
 *    scheduler active at that moment, so a scheduler change reloads it.
 */
#ifndef BRISK_TUNABLE_H
#define BRISK_TUNABLE_H

#include <stddef.h>
#include <stdint.h>

#define TUNABLE_NAME_LEN 48
#define TUNABLE_VALUE_LEN 64
#define TUNABLE_SCHED_LEN 32
#define TUNABLE_WHY_LEN 256

enum tunable_kind {
	TUNABLE_SCHEDULER,   /* queue/scheduler */
	TUNABLE_QUEUE,       /* queue/ATTR */
	TUNABLE_IOSCHED,     /* queue/iosched/ATTR */
	TUNABLE_DEVICE,      /* device/queue_depth */
	TUNABLE_SYSCTL,      /* /proc/sys/vm/ATTR */
};

/* ---- the settings table: every key brisk may change, in application
 * order (the scheduler, its tunables, the queue, the device, vm.*).  The
 * profile loader, brisk set/get, run --at, the dashboard's editor, export
 * and `brisk set --list-keys` (which the man pages' key table is tested
 * against) all read this one table.  It also holds the kernel's default
 * of each key, so that `brisk profile save` records only what differs
 * from it and export knows which values belong to one disk's hardware:
 *
 *   dflt                 the default        a profile save    class rules
 *   TUNABLE_DFLT_CHOICE  none (scheduler:   records it        carry it
 *                        it is the choice)
 *   TUNABLE_DFLT_FIXED   .dflt_value, a     leaves it out     carry it
 *                        kernel constant    when equal
 *   TUNABLE_DFLT_HZ      .dflt_value ms at  leaves it out     carry it
 *                        HZ=1000: a jiffies when equal at
 *                        constant shown in  any of CONFIG_HZ
 *                        ms (HZ/8 = 125 ms  100, 250, 300,
 *                        at 1000, 124 at    1000
 *                        250 and 300, 120
 *                        at 100)
 *   TUNABLE_DFLT_DEVICE  computed by the    see tunable_      carry it
 *                        kernel from the    default_verdict()
 *                        disk (wbt_lat_usec,
 *                        read_ahead_kb)
 *   TUNABLE_DFLT_HW      set by the driver  leaves it out     never (.bound
 *                        from the hardware  (hardware-bound)  says why) but
 *                        (tag depth, largest                  for one fixed
 *                        transfer): unknown                   device
 *
 * Each value is cited to the kernel source it comes from beside the table
 * in tunable.c, and brisk-profile(1) lists them (test_tunable holds the
 * page to the table). ---- */

enum tunable_type {
	TUNABLE_TYPE_SCHED,  /* a scheduler name */
	TUNABLE_TYPE_INT,    /* a decimal integer */
	TUNABLE_TYPE_BYTES,  /* a size: decimal bytes, or 64k, 64m (parse_size) */
};

enum tunable_dflt {
	TUNABLE_DFLT_CHOICE,  /* no default to leave out: the scheduler */
	TUNABLE_DFLT_FIXED,   /* a constant: dflt_value */
	TUNABLE_DFLT_HZ,      /* jiffies shown in ms: dflt_value at HZ=1000 */
	TUNABLE_DFLT_DEVICE,  /* computed from the disk (tunable_default_verdict) */
	TUNABLE_DFLT_HW,      /* the driver's, from the hardware: hardware-bound */
};

struct tunable_def {
	const char *key;          /* "scheduler", "nr_requests", "slice_idle",
				   * "queue_depth", "vm.dirty_ratio" */
	enum tunable_kind kind;   /* the scope: where the file is */
	const char *sched;        /* TUNABLE_IOSCHED: the scheduler that has it */
	enum tunable_type type;
	int64_t min, max;         /* what the kernel accepts (not SCHED) */
	const char *help;         /* one line */
	enum tunable_dflt dflt;   /* how its kernel default is known */
	int64_t dflt_value;       /* FIXED, HZ: the default */
	const char *bound;        /* HW: what bounds it on each disk, for the
				   * message of a class export that drops it
				   * ("bounded by each disk's max_hw_sectors_kb");
				   * NULL for every other key */
	int64_t fleet_min, fleet_max;   /* the range a distribution default
					 * may carry (not SCHED): within
					 * min..max, sources in tunable.c */
};

struct tunable_key;
extern const struct tunable_def tunable_defs[];
extern const size_t tunable_n_defs;

/* The entry of KEY as written in a profile or on the command line
 * ("slice_idle", not "iosched/slice_idle"), or NULL. */
const struct tunable_def *tunable_def_find(const char *key);

/* The entry of a parsed KEY (iosched: of scheduler SCHED), or NULL for an
 * iosched tunable of a scheduler the table does not know. */
const struct tunable_def *tunable_key_def(const struct tunable_key *key, const char *sched);

/* "queue", "iosched", "device", "vm" (the scheduler's is "queue"). */
const char *tunable_kind_name(enum tunable_kind kind);

struct tunable_key {
	enum tunable_kind kind;
	char name[TUNABLE_NAME_LEN];  /* canonical: "scheduler", "nr_requests",
				       * "iosched/slice_idle", "queue_depth",
				       * "vm.dirty_ratio" */
	char attr[TUNABLE_NAME_LEN];  /* file name: "slice_idle", "dirty_ratio" */
};

struct tunable_result {
	char before[TUNABLE_VALUE_LEN];   /* value read before the write */
	char written[TUNABLE_VALUE_LEN];  /* canonical value written */
	char readback[TUNABLE_VALUE_LEN]; /* value read after the write */
	int adjusted;                     /* number stored differently */
};

/* Parse KEY text into *key (syntax and whitelist only; whether an iosched
 * tunable exists depends on the device).  -EINVAL: not a key brisk knows
 * (unknown sysctl, bad characters, a path); why says which. */
int tunable_parse_key(const char *text, struct tunable_key *key,
		      char *why, size_t whylen);

/* Is DEV a plain kernel device name ([A-Za-z0-9_.:+-], not "." or "..")? */
int tunable_valid_devname(const char *dev);

/* Is this key a sysctl (global, not per device)? */
static inline int tunable_is_sysctl(const struct tunable_key *k)
{
	return k->kind == TUNABLE_SYSCTL;
}

/* File of KEY on DEV.  -EINVAL bad device name, -ENAMETOOLONG. */
int tunable_path(const char *dev, const struct tunable_key *key,
		 char *path, size_t len);

/* Active scheduler of a scheduler file's text: the [bracketed] name, or the
 * only name when there is exactly one and none is bracketed (bio-based
 * queues print a bare "none"); "" otherwise. */
void tunable_active_scheduler(const char *raw, char *out, size_t len);

/* Read the scheduler file of DEV: active name and offered list
 * (space-separated).  -ENOENT when the device has no queue/scheduler. */
int tunable_schedulers(const char *dev, char *active, size_t alen,
		       char *offered, size_t olen);

/* Current value of KEY on DEV (scheduler: the active name). -ENOENT when the
 * attribute does not exist there (no such iosched tunable, no SCSI
 * queue_depth). */
int tunable_read(const char *dev, const struct tunable_key *key,
		 char *val, size_t len);

/* Check VALUE for KEY without a device, against the settings table: the
 * range of a number (iosched ranges are those of scheduler SCHED; NULL or
 * unknown: a generic 0..INT_MAX; a TUNABLE_TYPE_BYTES key also takes a
 * size such as 64m), the syntax of a scheduler name.  Canonical form (a
 * decimal number) goes to canon.  -EINVAL (not a number / not a name), -ERANGE. */
int tunable_check_value(const struct tunable_key *key, const char *sched,
			const char *value, char *canon, size_t clen,
			char *why, size_t whylen);

/* Full check of KEY=VALUE on DEV: the attribute exists (an iosched tunable
 * in the directory of the active scheduler, or — when SCHED_AFTER names the
 * scheduler this command switches to first — in that scheduler's known
 * set), a scheduler is offered by DEV, a number is in range (max_sectors_kb
 * also at most max_hw_sectors_kb).  -ENOENT unknown key on this device,
 * -EINVAL/-ERANGE bad value. */
int tunable_check(const char *dev, const struct tunable_key *key,
		  const char *value, const char *sched_after,
		  char *canon, size_t clen, char *why, size_t whylen);

/* Write VALUE (already checked and canonical), read back, verify.
 * 0 (res->adjusted tells a number stored differently); the kernel's
 * -errno when it refuses the write; -EIO when a scheduler did not become
 * active.  res may be NULL. */
int tunable_apply(const char *dev, const struct tunable_key *key,
		  const char *value, struct tunable_result *res);

/* Every key that exists on DEV now, in display order: scheduler, queue
 * attributes, iosched/ of the active scheduler (sorted), queue_depth when
 * present; sysctls when with_sysctl.  Returns how many (may exceed max). */
size_t tunable_list(const char *dev, int with_sysctl,
		    struct tunable_key *out, size_t max);

/* Queue attributes a scheduler switch resets (nr_requests, wbt_lat_usec):
 * the journal records them before a switch.  NULL-terminated names. */
extern const char *const tunable_sched_dependent[];

/* ---- defaults: is a value the kernel's own? ---- */

/* What the kernel's default of a key depends on, read off one disk. */
struct tunable_facts {
	char sched[TUNABLE_SCHED_LEN];  /* the active scheduler; "" unknown */
	int rotational;                 /* queue/rotational: 1, 0; -1 unknown */
	int loop;                       /* a loop device (1) */
	int64_t io_opt_kb;              /* queue/optimal_io_size in KiB; -1 unknown */
	int64_t max_sectors_kb;         /* queue/max_sectors_kb; -1 unknown */
};

/* DEV's facts from sysfs; what cannot be read stays unknown (-1, "").
 * 0, or -EINVAL for a name that is not a plain kernel name. */
int tunable_facts_read(const char *dev, struct tunable_facts *f);

enum tunable_verdict {
	TUNABLE_VERDICT_CHANGED,  /* differs from the kernel's default */
	TUNABLE_VERDICT_DEFAULT,  /* the kernel's own default */
	TUNABLE_VERDICT_HW,       /* the driver's value, or one the kernel
				   * derived from the hardware's sizes
				   * (read_ahead_kb = 2 x optimal_io_size, or
				   * 2 x max_sectors_kb on a rotational disk
				   * that reports none): hardware-bound */
	TUNABLE_VERDICT_CHOICE,   /* no default to compare with (scheduler) */
};

/* Is VALUE of key D the kernel's default on a disk with facts F (NULL:
 * nothing known; a vm.* key needs none)?  Pure: reads nothing.
 *  - FIXED: equal to dflt_value; HZ: equal to dflt_value as a kernel of
 *    CONFIG_HZ 100, 250, 300 or 1000 shows it (DIV_ROUND_UP of the
 *    jiffies, as jiffies_to_msecs());
 *  - wbt_lat_usec: 0 under bfq (bfq_init_queue() turns the kernel's wbt
 *    off; a value set by hand stays on), else wbt_default_latency_nsec():
 *    75000 on a rotational disk, 2000 on others, chosen once when the
 *    disk is registered: a loop device is not yet rotational then, so
 *    2000; with the rotational flag unknown either is the default;
 *  - read_ahead_kb: 128 (VM_READAHEAD_PAGES) is the default; 2 x
 *    optimal_io_size, or on a rotational disk without one 2 x
 *    max_sectors_kb (blk_apply_bdi_limits() of recent kernels; 6.18
 *    does it), is derived from the hardware: HW;
 *  - HW keys (nr_requests, max_sectors_kb, async_depth, queue_depth): HW
 *    whatever the value, since only the driver knows its default;
 *  - a value that is not a decimal integer: CHANGED. */
enum tunable_verdict tunable_default_verdict(const struct tunable_def *d,
					     const struct tunable_facts *f,
					     const char *value);

/* Does a capture of settings (brisk profile save, the dashboard's p) keep
 * VALUE of key D, read off nf disks with facts f: when it is a choice (the
 * scheduler) or differs from the kernel's default on any of them (a
 * sysctl's default needs no facts: f and nf are not read)?  1 or 0; when
 * 0, *hw is 1 when a disk called it hardware-bound.  D may be NULL (an
 * unknown key: kept, a choice as tunable_default_verdict says). */
int tunable_capture_keeps(const struct tunable_def *d, const struct tunable_facts *f, size_t nf,
			  const char *value, int *hw);

/* Is KEY (as a profile writes it) hardware-bound: a value that belongs to
 * one disk's hardware and must not go into rules for a class of disks?
 * Its def's bound text, or NULL. */
const char *tunable_hw_bound(const char *key);

/* Is VALUE of KEY (as a profile writes it) within the range a
 * distribution default may carry (fleet_min..fleet_max, *lo and *hi)?
 * 1 yes, also for the scheduler, an unknown key or a value that is not
 * a number (tunable_check_value refuses those); 0 no. */
int tunable_fleet_range(const char *key, const char *value, int64_t *lo, int64_t *hi);

/* The other half of a sysctl pair that the kernel keeps mutually exclusive
 * (vm.dirty_ratio <-> vm.dirty_bytes, vm.dirty_background_ratio <->
 * vm.dirty_background_bytes), or NULL. */
const char *tunable_sysctl_partner(const char *name);

#endif
