#include "tunable.h"
#include "msg.h"
#include "tunable_bdi.h"

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

#define Q TUNABLE_QUEUE
#define IO TUNABLE_IOSCHED
#define T_INT TUNABLE_TYPE_INT

/* The one settings table.  Ranges are what the kernel accepts; outside
 * them it refuses or clamps silently, so brisk refuses instead:
 *  - block/blk-sysfs.c: queue_var_store() refuses above UINT_MAX
 *    (read_ahead_kb, max_sectors_kb: 0 means the default); nr_requests
 *    below BLKDEV_MIN_RQ (4) is raised to 4, above MAX_SCHED_RQ (2048)
 *    refused with a scheduler (with "none" the tag depth caps it lower);
 *    rq_affinity and nomerges ignore anything but 0..2; wbt_lat_usec is an
 *    s64 of which -1 means the default and which is multiplied by 1000.
 *  - mq-deadline.c, bfq-iosched.c: STORE_FUNCTION clamps to [MIN, MAX]
 *    (bfq's fifo_expire_* and timeout_sync from 1, back_seek_penalty from
 *    1, slice_idle_us to UINT_MAX; mq-deadline's writes_starved is any
 *    int); kyber-iosched.c takes any u64 nanoseconds.
 *  - scsi_sysfs.c: queue_depth 1..can_queue.
 *  - mm/page-writeback.c: ratios 0..100; dirty_bytes at least 2 pages
 *    (8192 with 4 KiB pages), dirty_background_bytes at least 1;
 *    centisecs non-negative ints.
 *
 * Each key's kernel default (dflt) decides what `brisk profile save` keeps
 * and what export's class rules may carry (tunable_default_verdict()):
 *
 *   dflt     the default                   a profile save     class rules
 *   CHOICE   none: the scheduler is chosen  keeps it           carry it
 *   FIXED    dflt_value, a constant         drops it if equal  carry it
 *   HZ       dflt_value ms at HZ=1000, a    drops it if equal  carry it
 *            jiffies constant (HZ/8: 125 ms at CONFIG_HZ 100,
 *            at 1000, 124 at 250/300)       250, 300 or 1000
 *   DEVICE   the kernel's, from the disk    see the verdict    carry it
 *            (wbt_lat_usec, read_ahead_kb)
 *   HW       the driver's, from the         drops it           never (.bound
 *            hardware: unknown              (hardware-bound)   says why)
 *
 * The defaults, from the kernel's sources (brisk-profile(1) lists them;
 * test_tunable holds the page to the table), read back on a fresh loop
 * device of Linux 6.18 (HZ=250) after each scheduler switch:
 *  - block/bfq-iosched.c: bfq_fifo_expire[] = { NSEC_PER_SEC / 4,
 *    NSEC_PER_SEC / 8 } (fifo_expire_async 250, fifo_expire_sync 125 ms),
 *    bfq_back_max = 16 * 1024, bfq_back_penalty = 2, bfq_slice_idle =
 *    NSEC_PER_SEC / 125 (8 ms, 8000 us), bfq_timeout = HZ / 8 (jiffies:
 *    124 ms at HZ=250), low_latency on, strict_guarantees off, max_budget
 *    0 (bfq_user_max_budget: automatic).
 *  - block/mq-deadline.c: read_expire = HZ / 2, write_expire = 5 * HZ,
 *    prio_aging_expire = 10 * HZ (jiffies, shown in ms), writes_starved =
 *    2, fifo_batch = 16, front_merges = 1; async_depth is set to
 *    q->nr_requests by dd_depth_updated() (3/4 of it in older kernels), so it
 *    follows the tag depth: hardware-bound.
 *  - block/kyber-iosched.c: kyber_latency_targets[] = { [KYBER_READ] =
 *    2 ms, [KYBER_WRITE] = 10 ms } in ns.
 *  - include/linux/blkdev.h: QUEUE_FLAG_MQ_DEFAULT has SAME_COMP
 *    (rq_affinity 1) and no NOMERGES (nomerges 0).  nr_requests is the tag
 *    depth with none and 2 x min(tags, BLKDEV_DEFAULT_RQ) with a
 *    scheduler; max_sectors_kb is the driver's choice under its
 *    max_hw_sectors_kb; queue_depth the SCSI host's: hardware-bound.
 *  - wbt_lat_usec, read_ahead_kb: see tunable_default_verdict().
 *  - mm/page-writeback.c: vm_dirty_ratio = 20, dirty_background_ratio =
 *    10, vm_dirty_bytes and dirty_background_bytes 0 (off),
 *    dirty_expire_interval = 30 * 100, dirty_writeback_interval = 5 * 100
 *    centiseconds.
 * Not in the table, so never saved: add_random (the driver's), iostats. */
/* The last two numbers of each entry: the range a distribution default
 * may carry (brisk report --save-profile refuses a winner outside it
 * without --force): within the kernel's, narrowed where the kernel takes
 * values no fleet should ship.  From the kernel's documentation
 * (Documentation/block/bfq-iosched.rst, deadline-iosched.rst,
 * kyber-iosched.rst, queue-sysfs.rst, admin-guide/sysctl/vm.rst) and
 * brisk's own limits of a usable desktop (grade.h: 10 s is the limit of
 * attention):
 *  - bfq: slice_idle 0..100 ms (0 turns idling off, as the doc advises
 *    for fast devices; the default 8 ms; idling 100 ms per queue switch
 *    already costs a seeking disk most of its throughput), slice_idle_us
 *    the same; back_seek_max up to 1 GiB (default 16 MiB);
 *    back_seek_penalty 1..100 (default 2: a backward seek costs twice);
 *    fifo_expire_* up to 10 s; timeout_sync up to 1 s (default 125 ms);
 *    max_budget up to 1 Mi sectors (0 = automatic).
 *  - mq-deadline: read_expire up to 10 s, write_expire and
 *    prio_aging_expire up to 60 s (defaults 0.5, 5 and 10 s; 0 expires
 *    every request at once); writes_starved 1..64 (any int is taken, a
 *    negative one is nonsense); fifo_batch 1..256 (default 16).
 *  - kyber: latency targets 10 us .. 1 s (defaults 2 and 10 ms).
 *  - queue: read_ahead_kb up to 16 MiB (default 128 KiB); wbt_lat_usec up
 *    to 1 s (defaults 2 or 75 ms; -1 the default, 0 off).
 *  - vm: dirty ratios 1..80 and 1..50 % (0 blocks every writer or starts
 *    writeback at once), the byte forms 1 MiB .. 64 GiB,
 *    dirty_expire_centisecs 1 s .. 10 min (default 30 s),
 *    dirty_writeback_centisecs 0.1 .. 60 s (0 turns periodic writeback
 *    off).
 *  - keys of two or three values, and hardware-bound ones (never in a
 *    class rule: export drops them), keep the kernel's range. */
#define FIX TUNABLE_DFLT_FIXED
#define HZD TUNABLE_DFLT_HZ
#define DEV TUNABLE_DFLT_DEVICE
#define HW TUNABLE_DFLT_HW
const struct tunable_def tunable_defs[] = {
	{ "scheduler", TUNABLE_SCHEDULER, NULL, TUNABLE_TYPE_SCHED, 0, 0,
	  "I/O scheduler, one the device offers", TUNABLE_DFLT_CHOICE, 0, NULL, 0, 0 },
	/* bfq */
	{ "low_latency", IO, "bfq", T_INT, 0, 1, "favour interactive and soft real-time tasks",
	  FIX, 1, NULL, 0, 1 },
	{ "slice_idle", IO, "bfq", T_INT, 0, INT32_MAX, "idle wait for a queue's next request, ms",
	  FIX, 8, NULL, 0, 100 },
	{ "slice_idle_us", IO, "bfq", T_INT, 0, UINT32_MAX, "the same in microseconds",
	  FIX, 8000, NULL, 0, 100000 },
	{ "strict_guarantees", IO, "bfq", T_INT, 0, 1, "strict service guarantees at a throughput cost",
	  FIX, 0, NULL, 0, 1 },
	{ "back_seek_max", IO, "bfq", T_INT, 0, INT32_MAX, "longest backward seek, KiB",
	  FIX, 16384, NULL, 0, 1048576 },
	{ "back_seek_penalty", IO, "bfq", T_INT, 1, INT32_MAX, "cost factor of a backward seek",
	  FIX, 2, NULL, 1, 100 },
	{ "fifo_expire_async", IO, "bfq", T_INT, 1, INT32_MAX, "deadline of an async request, ms",
	  FIX, 250, NULL, 1, 10000 },
	{ "fifo_expire_sync", IO, "bfq", T_INT, 1, INT32_MAX, "deadline of a sync request, ms",
	  FIX, 125, NULL, 1, 10000 },
	{ "max_budget", IO, "bfq", T_INT, 0, INT32_MAX, "most sectors a queue is served in a row (0 = auto)",
	  FIX, 0, NULL, 0, 1048576 },
	{ "timeout_sync", IO, "bfq", T_INT, 1, INT32_MAX, "longest service of a sync queue, ms",
	  HZD, 125, NULL, 1, 1000 },
	/* mq-deadline */
	{ "read_expire", IO, "mq-deadline", T_INT, 0, INT32_MAX, "deadline of a read, ms",
	  HZD, 500, NULL, 1, 10000 },
	{ "write_expire", IO, "mq-deadline", T_INT, 0, INT32_MAX, "deadline of a write, ms",
	  HZD, 5000, NULL, 1, 60000 },
	{ "writes_starved", IO, "mq-deadline", T_INT, INT32_MIN, INT32_MAX, "read batches before writes must go",
	  FIX, 2, NULL, 1, 64 },
	{ "front_merges", IO, "mq-deadline", T_INT, 0, 1, "try front merges",
	  FIX, 1, NULL, 0, 1 },
	{ "fifo_batch", IO, "mq-deadline", T_INT, 0, INT32_MAX, "requests dispatched in a batch",
	  FIX, 16, NULL, 1, 256 },
	{ "async_depth", IO, "mq-deadline", T_INT, 1, INT32_MAX, "tags async requests may hold",
	  HW, 0, "set to each disk's nr_requests, which its tag depth bounds",
	  1, INT32_MAX },
	{ "prio_aging_expire", IO, "mq-deadline", T_INT, 0, INT32_MAX, "lower priority's longest wait, ms",
	  HZD, 10000, NULL, 1, 60000 },
	/* kyber */
	{ "read_lat_nsec", IO, "kyber", T_INT, 0, INT64_MAX, "target read latency, ns",
	  FIX, 2000000, NULL, 10000, 1000000000 },
	{ "write_lat_nsec", IO, "kyber", T_INT, 0, INT64_MAX, "target write latency, ns",
	  FIX, 10000000, NULL, 10000, 1000000000 },
	/* queue */
	{ "nr_requests", Q, NULL, T_INT, 4, 2048, "requests the queue holds",
	  HW, 0, "bounded by each disk's tag depth",
	  4, 2048 },
	{ "read_ahead_kb", Q, NULL, T_INT, 0, UINT32_MAX, "read-ahead, KiB",
	  DEV, 128, NULL, 0, 16384 },
	{ "wbt_lat_usec", Q, NULL, T_INT, -1, INT64_MAX / 1000, "writeback throttling target, us (0 off, -1 default)",
	  DEV, 0, NULL, -1, 1000000 },
	{ "max_sectors_kb", Q, NULL, T_INT, 0, UINT32_MAX, "largest request, KiB (up to max_hw_sectors_kb; 0 default)",
	  HW, 0, "bounded by each disk's max_hw_sectors_kb",
	  0, UINT32_MAX },
	{ "rq_affinity", Q, NULL, T_INT, 0, 2, "complete on the submitting CPU (1 group, 2 same)",
	  FIX, 1, NULL, 0, 2 },
	{ "nomerges", Q, NULL, T_INT, 0, 2, "merging off (1 simple merges only, 2 none)",
	  FIX, 0, NULL, 0, 2 },
	/* device */
	{ "queue_depth", TUNABLE_DEVICE, NULL, T_INT, 1, 65535, "SCSI queue depth (device/queue_depth)",
	  HW, 0, "bounded by each SCSI device's and host's queue depth",
	  1, 65535 },
	/* bdi: the disk's dirty limits, in application order (a max before a
	 * min: a min above the max is refused); rules: tunable_bdi.c.  Fleet
	 * ranges: a max of 1 MiB .. 64 GiB as vm.dirty_bytes, at least 1 %;
	 * min shares add up over all disks, so a class rule keeps them small. */
	{ "bdi.strict_limit", TUNABLE_BDI, NULL, T_INT, 0, 1, "hold the disk to its share even below the system's limits",
	  FIX, 0, NULL, 0, 1 },
	{ "bdi.max_ratio", TUNABLE_BDI, NULL, T_INT, 0, 100, "largest share of the system's dirty limit, %",
	  FIX, 100, NULL, 1, 100 },
	{ "bdi.max_ratio_fine", TUNABLE_BDI, NULL, T_INT, 0, 1000000, "the same in millionths",
	  FIX, 1000000, NULL, 10000, 1000000 },
	{ "bdi.max_bytes", TUNABLE_BDI, NULL, TUNABLE_TYPE_BYTES, 0, INT64_MAX, "the same as bytes (kept as a share: reads back near)",
	  DEV, 0, NULL, 1048576, INT64_C(68719476736) },
	{ "bdi.min_ratio", TUNABLE_BDI, NULL, T_INT, 0, 100, "share of the dirty limit kept for the disk, %",
	  FIX, 0, NULL, 0, 10 },
	{ "bdi.min_ratio_fine", TUNABLE_BDI, NULL, T_INT, 0, 1000000, "the same in millionths",
	  FIX, 0, NULL, 0, 100000 },
	{ "bdi.min_bytes", TUNABLE_BDI, NULL, TUNABLE_TYPE_BYTES, 0, INT64_MAX, "the same as bytes",
	  FIX, 0, NULL, 0, INT64_C(1073741824) },
	/* vm, system-wide */
	{ "vm.dirty_ratio", TUNABLE_SYSCTL, NULL, T_INT, 0, 100, "dirty memory where writers block, %",
	  FIX, 20, NULL, 1, 80 },
	{ "vm.dirty_background_ratio", TUNABLE_SYSCTL, NULL, T_INT, 0, 100, "dirty memory where writeback starts, %",
	  FIX, 10, NULL, 1, 50 },
	{ "vm.dirty_bytes", TUNABLE_SYSCTL, NULL, TUNABLE_TYPE_BYTES, 8192, INT64_MAX, "the same as bytes (at least 2 pages)",
	  FIX, 0, NULL, 1048576, INT64_C(68719476736) },
	{ "vm.dirty_background_bytes", TUNABLE_SYSCTL, NULL, TUNABLE_TYPE_BYTES, 1, INT64_MAX, "the same as bytes",
	  FIX, 0, NULL, 1048576, INT64_C(68719476736) },
	{ "vm.dirty_expire_centisecs", TUNABLE_SYSCTL, NULL, T_INT, 0, INT32_MAX, "age at which dirty data is written, 1/100 s",
	  FIX, 3000, NULL, 100, 60000 },
	{ "vm.dirty_writeback_centisecs", TUNABLE_SYSCTL, NULL, T_INT, 0, INT32_MAX, "flusher wake-up period, 1/100 s",
	  FIX, 500, NULL, 10, 6000 },
};
const size_t tunable_n_defs = sizeof(tunable_defs) / sizeof(tunable_defs[0]);

#undef Q
#undef IO
#undef T_INT
#undef FIX
#undef HZD
#undef DEV
#undef HW

/* An iosched tunable of a scheduler brisk does not know: a plain int. */
static const struct tunable_def iosched_generic = {
	NULL, TUNABLE_IOSCHED, NULL, TUNABLE_TYPE_INT, 0, INT32_MAX, NULL,
	TUNABLE_DFLT_CHOICE, 0, NULL, 0, INT32_MAX
};

const char *const tunable_sched_dependent[] = {
	"nr_requests", "wbt_lat_usec", NULL
};

#define N(a) (sizeof(a) / sizeof((a)[0]))


/* The file name of an entry: "slice_idle", "dirty_ratio", "max_bytes". */
static const char *def_attr(const struct tunable_def *d)
{
	return d->kind == TUNABLE_SYSCTL ? d->key + 3 : d->kind == TUNABLE_BDI ? d->key + 4 : d->key;
}

/* The entry of KIND whose file is ATTR (iosched: of scheduler SCHED). */
static const struct tunable_def *find_def(enum tunable_kind kind, const char *sched,
					  const char *attr)
{
	for (size_t i = 0; i < tunable_n_defs; i++) {
		const struct tunable_def *d = &tunable_defs[i];
		if (d->kind == kind && strcmp(def_attr(d), attr) == 0 &&
		    (kind != TUNABLE_IOSCHED || (sched && strcmp(d->sched, sched) == 0)))
			return d;
	}
	return NULL;
}

const struct tunable_def *tunable_def_find(const char *key)
{
	for (size_t i = 0; i < tunable_n_defs; i++)
		if (strcmp(tunable_defs[i].key, key) == 0)
			return &tunable_defs[i];
	return NULL;
}

const char *tunable_kind_name(enum tunable_kind kind)
{
	switch (kind) {
	case TUNABLE_IOSCHED:
		return "iosched";
	case TUNABLE_DEVICE:
		return "device";
	case TUNABLE_SYSCTL:
		return "vm";
	case TUNABLE_BDI:
		return "bdi";
	case TUNABLE_SCHEDULER:
	case TUNABLE_QUEUE:
		break;
	}
	return "queue";
}

/* The file names of KIND's entries (iosched: of scheduler SCHED), joined
 * with SEP; cut to fit. */
static void def_names(enum tunable_kind kind, const char *sched, const char *sep,
		      char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < tunable_n_defs; i++) {
		const struct tunable_def *d = &tunable_defs[i];
		if (d->kind != kind || (kind == TUNABLE_IOSCHED && strcmp(d->sched, sched) != 0))
			continue;
		int w = snprintf(buf + off, len - off, "%s%s", off ? sep : "", d->key);
		if (w < 0 || (size_t)w >= len - off)
			break;
		off += (size_t)w;
	}
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
	if (find_def(TUNABLE_QUEUE, NULL, text)) {
		set_key(key, TUNABLE_QUEUE, text, text);
		return 0;
	}
	if (strcmp(text, "queue_depth") == 0) {
		set_key(key, TUNABLE_DEVICE, "queue_depth", "queue_depth");
		return 0;
	}
	if (strncmp(text, "vm.", 3) == 0) {
		const char *a = text + 3;
		if (find_def(TUNABLE_SYSCTL, NULL, a)) {
			set_key(key, TUNABLE_SYSCTL, text, a);
			return 0;
		}
		char names[256];
		def_names(TUNABLE_SYSCTL, NULL, ", ", names, sizeof(names));
		msg_set(why, whylen, "unknown sysctl '%.64s' (brisk changes only %s)", text, names);
		return -EINVAL;
	}
	if (strncmp(text, "bdi.", 4) == 0) {
		if (find_def(TUNABLE_BDI, NULL, text + 4)) {
			set_key(key, TUNABLE_BDI, text, text + 4);
			return 0;
		}
		char names[256];
		def_names(TUNABLE_BDI, NULL, ", ", names, sizeof(names));
		msg_set(why, whylen, "unknown dirty limit '%.64s' (brisk changes only %s)", text, names);
		return -EINVAL;
	}
	if (strncmp(text, "load.", 5) == 0) {
		msg_set(why, whylen, "'%.64s' is a setting of brisk's own load, not of a "
		    "disk: use it in a compare arm or with brisk run --at", text);
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
				  key->kind == TUNABLE_DEVICE ? "device" :
				  key->kind == TUNABLE_BDI ? "bdi" : "queue";
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

const struct tunable_def *tunable_key_def(const struct tunable_key *key, const char *sched)
{
	return find_def(key->kind, sched, key->attr);
}

static const struct tunable_def *range_of(const struct tunable_key *key, const char *sched)
{
	const struct tunable_def *d = find_def(key->kind, sched, key->attr);
	if (!d && key->kind == TUNABLE_IOSCHED)
		return &iosched_generic;
	return d;
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
	const struct tunable_def *r = range_of(key, sched);
	if (!r) {
		msg_set(why, whylen, "no range known for %s", key->name);
		return -EINVAL;
	}
	int64_t v;
	int rc;
	uint64_t b;
	if (r->type == TUNABLE_TYPE_BYTES && value && *value &&
	    strspn(value, "0123456789") != strlen(value) && value[0] >= '0' &&
	    value[0] <= '9' && parse_size(value, &b) == 0) {
		/* a size such as 64m: the same as its decimal bytes */
		if (b > (uint64_t)r->max) {
			msg_set(why, whylen, "%s=%.64s: out of range, the kernel accepts "
			    "%" PRId64 "..%" PRId64, key->name, value, r->min, r->max);
			return -ERANGE;
		}
		char dec[24];
		snprintf(dec, sizeof(dec), "%" PRIu64, b);
		return tunable_check_value(key, sched, dec, canon, clen, why, whylen);
	}
	rc = parse_int(value, r->min, r->max, &v);
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
	return find_def(TUNABLE_IOSCHED, sched, name) != NULL;
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
				def_names(TUNABLE_IOSCHED, sched, " ", names, sizeof(names));
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
	if (key->kind == TUNABLE_BDI)
		return tunable_bdi_check(dev, key->attr, canon, why, whylen);
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
		for (size_t i = 0; i < tunable_n_defs; i++) {
			char path[512];
			if (tunable_defs[i].kind != TUNABLE_QUEUE)
				continue;
			set_key(&k, TUNABLE_QUEUE, tunable_defs[i].key, tunable_defs[i].key);
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
		for (size_t i = 0; i < tunable_n_defs; i++) {
			if (tunable_defs[i].kind != TUNABLE_BDI)
				continue;
			set_key(&k, TUNABLE_BDI, tunable_defs[i].key, def_attr(&tunable_defs[i]));
			if (tunable_path(dev, &k, path, sizeof(path)) == 0 &&
			    sysfs_exists(path) == 0)
				PUT(k);
		}
	}
	if (with_sysctl)
		for (size_t i = 0; i < tunable_n_defs; i++) {
			if (tunable_defs[i].kind != TUNABLE_SYSCTL)
				continue;
			set_key(&k, TUNABLE_SYSCTL, tunable_defs[i].key, def_attr(&tunable_defs[i]));
			PUT(k);
		}
#undef PUT
	return n;
}

/* ---------- defaults ---------- */

int tunable_facts_read(const char *dev, struct tunable_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->rotational = -1;
	f->io_opt_kb = -1;
	f->max_sectors_kb = -1;
	f->bdi_max_fine = -1;
	if (!tunable_valid_devname(dev))
		return -EINVAL;
	char offered[256];
	if (tunable_schedulers(dev, f->sched, sizeof(f->sched), offered, sizeof(offered)) < 0)
		f->sched[0] = '\0';
	uint64_t v;
	char path[512];
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/queue/rotational", dev);
	if (sysfs_read_u64(path, &v) == 0 && v <= 1)
		f->rotational = (int)v;
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/queue/optimal_io_size", dev);
	if (sysfs_read_u64(path, &v) == 0 && v / 1024 <= INT64_MAX)
		f->io_opt_kb = (int64_t)(v / 1024);
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/queue/max_sectors_kb", dev);
	if (sysfs_read_u64(path, &v) == 0 && v <= INT64_MAX)
		f->max_sectors_kb = (int64_t)v;
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/loop", dev);
	f->loop = sysfs_exists(path) == 0;
	snprintf(path, sizeof(path), SYSFS_BLOCK "/%s/bdi/max_ratio_fine", dev);
	if (sysfs_read_u64(path, &v) == 0 && v <= 1000000)
		f->bdi_max_fine = (int64_t)v;
	return 0;
}

/* A jiffies default of MS milliseconds at HZ=1000 as a kernel of CONFIG_HZ
 * hz shows it: the jiffies it holds (HZ / 8 for 125 ms: integer), back
 * in ms rounded up, as jiffies_to_msecs() does. */
static int64_t hz_shown(int64_t ms, int64_t hz)
{
	int64_t jiffies = hz * ms / 1000;
	return (jiffies * 1000 + hz - 1) / hz;
}

/* bfq_init_queue() turns the kernel's own wbt off (a value set by hand
 * stays on): 0 is the default under bfq. */
static enum tunable_verdict wbt_verdict(const struct tunable_facts *f, int64_t v)
{
	if (f && strcmp(f->sched, "bfq") == 0)
		return v == 0 ? TUNABLE_VERDICT_DEFAULT : TUNABLE_VERDICT_CHANGED;
	/* blk-wbt.c wbt_default_latency_nsec(): 75 ms rotational, 2 ms not,
	 * chosen at registration; loop sets rotational only when a backing
	 * file is attached, after that */
	int rot = f ? (f->loop ? 0 : f->rotational) : -1;
	if (rot == 1)
		return v == 75000 ? TUNABLE_VERDICT_DEFAULT : TUNABLE_VERDICT_CHANGED;
	if (rot == 0)
		return v == 2000 ? TUNABLE_VERDICT_DEFAULT : TUNABLE_VERDICT_CHANGED;
	return v == 75000 || v == 2000 ? TUNABLE_VERDICT_DEFAULT : TUNABLE_VERDICT_CHANGED;
}

static enum tunable_verdict read_ahead_verdict(const struct tunable_facts *f, int64_t v)
{
	if (v == 128)   /* VM_READAHEAD_PAGES: 128 KiB whatever the page size */
		return TUNABLE_VERDICT_DEFAULT;
	if (!f)
		return TUNABLE_VERDICT_CHANGED;
	/* blk_apply_bdi_limits(): at least twice the optimal I/O size, or on a
	 * rotational disk that reports none twice the largest request (below
	 * 64 KiB either gives the 128 above) */
	if (f->io_opt_kb > 64 && v == 2 * f->io_opt_kb)
		return TUNABLE_VERDICT_HW;
	if (f->io_opt_kb == 0 && f->rotational == 1 && f->max_sectors_kb > 64 &&
	    v == 2 * f->max_sectors_kb)
		return TUNABLE_VERDICT_HW;
	return TUNABLE_VERDICT_CHANGED;
}

enum tunable_verdict tunable_default_verdict(const struct tunable_def *d,
					     const struct tunable_facts *f,
					     const char *value)
{
	if (!d || d->dflt == TUNABLE_DFLT_CHOICE)
		return TUNABLE_VERDICT_CHOICE;
	if (d->dflt == TUNABLE_DFLT_HW)
		return TUNABLE_VERDICT_HW;
	int64_t v;
	if (!value || parse_int(value, INT64_MIN, INT64_MAX, &v) < 0)
		return TUNABLE_VERDICT_CHANGED;
	switch (d->dflt) {
	case TUNABLE_DFLT_FIXED:
		return v == d->dflt_value ? TUNABLE_VERDICT_DEFAULT : TUNABLE_VERDICT_CHANGED;
	case TUNABLE_DFLT_HZ: {
		static const int64_t hzs[] = { 100, 250, 300, 1000 };
		for (size_t i = 0; i < N(hzs); i++)
			if (v == hz_shown(d->dflt_value, hzs[i]))
				return TUNABLE_VERDICT_DEFAULT;
		return TUNABLE_VERDICT_CHANGED;
	}
	case TUNABLE_DFLT_DEVICE:
		if (strcmp(d->key, "wbt_lat_usec") == 0)
			return wbt_verdict(f, v);
		if (strcmp(d->key, "read_ahead_kb") == 0)
			return read_ahead_verdict(f, v);
		/* the system's dirty limit times a max share of 100 % */
		if (strcmp(d->key, "bdi.max_bytes") == 0 && f && f->bdi_max_fine == 1000000)
			return TUNABLE_VERDICT_DEFAULT;
		return TUNABLE_VERDICT_CHANGED;
	case TUNABLE_DFLT_CHOICE:
	case TUNABLE_DFLT_HW:
		break;
	}
	return TUNABLE_VERDICT_CHANGED;
}

int tunable_capture_keeps(const struct tunable_def *d, const struct tunable_facts *f, size_t nf,
			  const char *value, int *hw)
{
	*hw = 0;
	if (d && d->kind == TUNABLE_SYSCTL)
		return tunable_default_verdict(d, NULL, value) != TUNABLE_VERDICT_DEFAULT;
	if (!d)
		return 1;
	/* a changed share is kept once, as bdi.max_bytes / bdi.min_bytes:
	 * the ratio files are views of the same number */
	if (d->kind == TUNABLE_BDI && strstr(d->key, "_ratio"))
		return 0;
	for (size_t i = 0; i < nf; i++) {
		enum tunable_verdict r = tunable_default_verdict(d, &f[i], value);
		if (r == TUNABLE_VERDICT_CHANGED || r == TUNABLE_VERDICT_CHOICE)
			return 1;
		*hw |= r == TUNABLE_VERDICT_HW;
	}
	return 0;
}

const char *tunable_hw_bound(const char *key)
{
	const struct tunable_def *d = key ? tunable_def_find(key) : NULL;
	return d && d->dflt == TUNABLE_DFLT_HW ? d->bound : NULL;
}

int tunable_fleet_range(const char *key, const char *value, int64_t *lo, int64_t *hi)
{
	const struct tunable_def *d = key ? tunable_def_find(key) : NULL;
	if (!d || d->type == TUNABLE_TYPE_SCHED)
		return 1;
	*lo = d->fleet_min;
	*hi = d->fleet_max;
	int64_t v;
	uint64_t u;
	if (parse_int(value, INT64_MIN, INT64_MAX, &v) < 0) {
		if (d->type != TUNABLE_TYPE_BYTES || parse_size(value, &u) < 0 || u > INT64_MAX)
			return 1;   /* not a number: tunable_check_value's to refuse */
		v = (int64_t)u;
	}
	return v >= d->fleet_min && v <= d->fleet_max;
}
