/* tunable — the one settings table (tunable_defs: every key brisk may
 * change, its scope, type, the range the kernel accepts, its kernel default
 * and a line of help) and each key's one file: queue/scheduler,
 * queue/KEY, queue/iosched/NAME of the active scheduler, device/queue_depth
 * (SCSI), bdi/NAME (the disk's dirty limits: tunable_bdi.h) under
 * /sys/block/DEV, or /proc/sys/vm/NAME.  Keys are whitelisted
 * names ([a-z0-9_], plain device names), never paths.  Values are checked
 * against the table and the device before any write; tunable_apply() writes
 * once, reads back and verifies.  The iosched set is never cached.  Nothing
 * prints: 0 or -errno, and a one-line reason in why[] where user input can
 * be refused.  Keys and ranges: brisk-set(1); defaults: brisk-profile(1).
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
	TUNABLE_BDI,         /* bdi/ATTR: key "bdi.ATTR" (tunable_bdi.h) */
};

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

/* One key of the table. */
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

/* The table, in application order (the scheduler, its tunables, the queue,
 * the device, vm.*); profiles, set/get, run --at, the dashboard, export and
 * `brisk set --list-keys` all read it.  How each dflt is used: tunable.c. */
extern const struct tunable_def tunable_defs[];
extern const size_t tunable_n_defs;

/* The entry of KEY as written in a profile or on the command line
 * ("slice_idle", not "iosched/slice_idle"), or NULL. */
const struct tunable_def *tunable_def_find(const char *key);

/* The entry of a parsed KEY (iosched: of scheduler SCHED), or NULL for an
 * iosched tunable of a scheduler the table does not know. */
const struct tunable_def *tunable_key_def(const struct tunable_key *key, const char *sched);

/* "queue", "iosched", "device", "vm", "bdi" (the scheduler's is "queue"). */
const char *tunable_kind_name(enum tunable_kind kind);

/* A parsed key: its scope, canonical name and file name. */
struct tunable_key {
	enum tunable_kind kind;
	char name[TUNABLE_NAME_LEN];  /* canonical: "scheduler", "nr_requests",
				       * "iosched/slice_idle", "queue_depth",
				       * "vm.dirty_ratio", "bdi.max_bytes" */
	char attr[TUNABLE_NAME_LEN];  /* file name: "slice_idle", "dirty_ratio",
				       * "max_bytes" */
};

/* What tunable_apply() read and wrote. */
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
	int64_t bdi_max_fine;           /* bdi/max_ratio_fine; -1 unknown */
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
 * nothing known; a vm.* key needs none)?  Pure: reads nothing; the rules
 * per dflt kind are beside it in tunable.c. */
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
