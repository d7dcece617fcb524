/* iowhy_acct — where one sample's wall time went: the accounting shared by
 * the BPF collector (iowhy.bpf.c, which runs it in the kernel) and user
 * space (its last step at the window's end; the unit tests).  A sample's
 * tasks and its own block requests are counted by state; before each change
 * the time since the last one is charged to the part the counts name, in
 * precedence cpu, runq, device, queued, admit, throttled, blocked, sleep,
 * clipped to the sample's timed window [from, to).  So the parts add up to
 * the window exactly, and overlapping requests count once (device and
 * queued are unions of intervals).  Plain arithmetic: no helpers, no locks
 * (the kernel side holds the sample's spin lock around every call).
 * The BPF side brings __u32/__u64 from its core header (iowhy_core.h).
 */
#ifndef BRISK_IOWHY_ACCT_H
#define BRISK_IOWHY_ACCT_H

#ifndef __bpf__
#include <linux/types.h>
#endif

/* The parts, in precedence order.  A task's state is one of the task parts
 * (cpu, runq, admit, throttled, blocked, sleep), a request's one of
 * device and queued; IOWHY_NONE: not counted (new, gone). */
enum iowhy_part {
	IOWHY_CPU,         /* a task of it on a CPU */
	IOWHY_RUNQ,        /* runnable, waiting for a CPU */
	IOWHY_DEVICE,      /* a request of it issued to the device */
	IOWHY_QUEUED,      /* a request of it in the block layer, not yet issued
			    * (the I/O scheduler's queue, a plug, a requeue) */
	IOWHY_ADMIT,       /* asleep making a request of a bio (tags, wbt) */
	IOWHY_THROTTLED,   /* asleep in balance_dirty_pages() */
	IOWHY_BLOCKED,     /* other uninterruptible sleep (page locks, journal) */
	IOWHY_SLEEP,       /* any other sleep, or no task left */
	IOWHY_NPARTS,
	IOWHY_NONE = IOWHY_NPARTS,
};

#define IOWHY_SLOTS 64        /* samples in flight at once, at most */
#define IOWHY_MAKERS 4        /* issuers of the requests ahead, named */
#define IOWHY_COMM 16

/* flags */
#define IOWHY_F_DROPPED   0x1u   /* a task or request could not be tracked
				  * (a map was full): the parts are not whole */
#define IOWHY_F_MERGED    0x2u   /* a request of it was merged into another's:
				  * that one's time counts as blocked */
#define IOWHY_F_NOWINDOW  0x4u   /* the timed part never began */
#define IOWHY_F_MISSED    0x8u   /* the kernel skipped a run of the collector
				  * while it ran (recursion): not whole */

struct iowhy_maker {
	__u32 tgid;                  /* 0: slot free */
	__u32 n;                     /* requests completed ahead */
	__u64 bytes;
	char comm[IOWHY_COMM];       /* as the kernel had it: untrusted text */
};

struct iowhy_acct {
	__u64 last;                      /* ns, when the counts last changed */
	__u32 n[IOWHY_NPARTS];           /* tasks or requests in each state */
	__u32 gen;                       /* which sample of the slot */
	__u64 part_ns[IOWHY_NPARTS];
	__u64 device_union_ns;           /* >= 1 request on the device, any part */
	__u64 queued_union_ns;           /* >= 1 request queued, any part */
	__u32 rq[2];                     /* its own requests ended: read, write */
	__u64 rq_bytes[2];
	__u32 ahead[2];                  /* others' requests the same disk completed
					  * while one of its own was in flight */
	__u64 ahead_bytes[2];
	struct iowhy_maker makers[IOWHY_MAKERS];
	__u32 ahead_unnamed;             /* ... whose issuer is not among them */
	__u32 flags;
	__u32 tasks;                     /* tasks tracked, alive */
	__u32 pad;
};

/* A sample's timed part, written by the sample itself as it begins and
 * ends (CLOCK_MONOTONIC ns, the clock of bpf_ktime_get_ns); 0: not yet. */
struct iowhy_window {
	__u64 from, to;
};

static inline int iowhy_acct_part(const struct iowhy_acct *a)
{
	for (int p = 0; p < IOWHY_SLEEP; p++)
		if (a->n[p])
			return p;
	return IOWHY_SLEEP;
}

/* Is ns inside the window? from 0: not begun; to 0: not ended. */
static inline int iowhy_acct_inside(__u64 ns, __u64 from, __u64 to)
{
	return from && ns >= from && (!to || ns < to);
}

/* Charge [last, now) (clipped to the window) to the current part. */
static inline void iowhy_acct_advance(struct iowhy_acct *a, __u64 now, __u64 from, __u64 to)
{
	if (now <= a->last)
		return;
	__u64 lo = a->last > from ? a->last : from;
	__u64 hi = to && now > to ? to : now;
	a->last = now;
	if (!from || hi <= lo)
		return;
	int p = iowhy_acct_part(a);
	if (p >= 0 && p < IOWHY_NPARTS)
		a->part_ns[p] += hi - lo;
	if (a->n[IOWHY_DEVICE])
		a->device_union_ns += hi - lo;
	if (a->n[IOWHY_QUEUED])
		a->queued_union_ns += hi - lo;
}

/* A task or request goes from state old to new (either IOWHY_NONE). */
static inline void iowhy_acct_move(struct iowhy_acct *a, __u64 now, __u64 from, __u64 to,
				   unsigned old, unsigned new)
{
	iowhy_acct_advance(a, now, from, to);
	if (old < IOWHY_NPARTS && a->n[old])
		a->n[old]--;
	if (new < IOWHY_NPARTS)
		a->n[new]++;
}

/* One of its own requests ended (op 0 read, 1 write), inside the window. */
static inline void iowhy_acct_own(struct iowhy_acct *a, __u64 now, __u64 from, __u64 to,
				  unsigned op, __u64 bytes)
{
	if (!iowhy_acct_inside(now, from, to) || op > 1)
		return;
	a->rq[op]++;
	a->rq_bytes[op] += bytes;
}

/* Another's request completed ahead of its own: count it, and its issuer
 * (tgid 0: unknown) in a free or matching maker slot. */
static inline void iowhy_acct_ahead(struct iowhy_acct *a, __u64 now, __u64 from, __u64 to,
				    unsigned op, __u64 bytes, __u32 tgid, const char *comm)
{
	if (!iowhy_acct_inside(now, from, to) || op > 1)
		return;
	a->ahead[op]++;
	a->ahead_bytes[op] += bytes;
	if (tgid) {
		for (int i = 0; i < IOWHY_MAKERS; i++) {
			struct iowhy_maker *m = &a->makers[i];
			if (m->tgid && m->tgid != tgid)
				continue;
			if (!m->tgid) {
				m->tgid = tgid;
				for (int k = 0; k < IOWHY_COMM; k++)
					m->comm[k] = comm[k];
			}
			m->n++;
			m->bytes += bytes;
			return;
		}
	}
	a->ahead_unnamed++;
}

#endif
