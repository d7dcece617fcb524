// SPDX-License-Identifier: GPL-2.0
/* iowhy.bpf — where each action sample's time goes, measured in the kernel.
 * User space arms a slot just before it forks a sample: the fork of the
 * armed thread, and every fork of a tracked task, is tracked in that slot.
 * Each scheduler and block-layer event of a tracked task or request moves
 * a count in the slot's iowhy_acct (iowhy_acct.h) under the slot's lock;
 * others' completions are counted only on a disk where a tracked request
 * is in flight.  The sample writes its timed window into win[] itself
 * (shared memory), so only that window is charged.  Nothing leaves the
 * kernel but the slots, read when a sample ends: no event stream.
 */
#include "iowhy_core.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "iowhy_acct.h"

char LICENSE[] SEC("license") = "GPL";

struct slot {
	struct bpf_spin_lock lock;
	struct iowhy_acct a;
};

struct task {
	__u32 slot, gen;
	__u8 state;          /* enum iowhy_part */
	__u8 admit;          /* a bio of it is becoming a request */
	__u8 throttle;       /* balance_dirty_pages() is pausing it */
	__u8 pad;
};

struct req {
	__u32 slot, gen;
	__u32 dev;
	__u8 state;
	__u8 op;
	__u16 pad;
};

struct disk {
	__u32 n;             /* tracked requests in flight on it */
	__u32 slot;          /* ... of this slot (the latest) */
};

struct maker {
	__u32 tgid;
	char comm[IOWHY_COMM];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, IOWHY_SLOTS);
	__type(key, __u32);
	__type(value, struct slot);
} slots SEC(".maps");

/* per task, kept by the kernel beside the task (no hashing) */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, struct req);
} reqs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct disk);
} disks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct maker);
} makers SEC(".maps");

/* Set by user space before loading: tasks tracked at most (tests). */
const volatile __u32 max_tasks = 4096;
/* Written by user space (armed_*) and by the samples (win). */
volatile __u32 armed_tid;
volatile __u32 armed_slot;
volatile __u32 armed_gen;
volatile struct iowhy_window win[IOWHY_SLOTS];
/* Counted here: tasks and requests tracked now; what could not be. */
__u32 ntracked;
__u32 nreqs;
__u64 dropped;

static __always_inline struct slot *slot_of(__u32 i, __u32 gen)
{
	struct slot *s = bpf_map_lookup_elem(&slots, &i);
	return s && s->a.gen == gen ? s : 0;
}

static __always_inline void window(__u32 i, __u64 *from, __u64 *to)
{
	if (i >= IOWHY_SLOTS) {
		*from = *to = 0;
		return;
	}
	*from = win[i].from;
	*to = win[i].to;
}

/* A task's entry, or none; a stale one (its slot armed again) goes. */
static __always_inline struct task *task_of(struct task_struct *p, struct slot **sp)
{
	struct task *t = bpf_task_storage_get(&tasks, p, 0, 0);
	if (!t)
		return 0;
	*sp = slot_of(t->slot, t->gen);
	if (!*sp) {   /* counted down once, by whoever deletes it */
		if (!bpf_task_storage_delete(&tasks, p))
			__sync_fetch_and_sub(&ntracked, 1);
		return 0;
	}
	return t;
}

static __always_inline void task_set(struct slot *s, struct task *t, __u64 now, unsigned state)
{
	__u64 from, to;
	window(t->slot, &from, &to);
	bpf_spin_lock(&s->lock);
	if (t->state != state) {
		iowhy_acct_move(&s->a, now, from, to, t->state, state);
		t->state = (__u8)state;
	}
	bpf_spin_unlock(&s->lock);
}

static __always_inline void mark_dropped(__u32 i, __u32 gen)
{
	__sync_fetch_and_add(&dropped, 1);
	struct slot *s = slot_of(i, gen);
	if (s)
		__sync_fetch_and_or(&s->a.flags, IOWHY_F_DROPPED);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(iowhy_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 slot, gen;
	if (armed_tid && (__u32)parent->pid == armed_tid) {
		slot = armed_slot;
		gen = armed_gen;
	} else {
		if (!ntracked)
			return 0;
		struct slot *ps;
		struct task *pt = task_of(parent, &ps);
		if (!pt)
			return 0;
		slot = pt->slot;
		gen = pt->gen;
	}
	struct slot *s = slot_of(slot, gen);
	if (!s)
		return 0;
	struct task nt = { .slot = slot, .gen = gen, .state = IOWHY_NONE };
	struct task *t = 0;
	if (__sync_fetch_and_add(&ntracked, 1) < max_tasks)
		t = bpf_task_storage_get(&tasks, child, &nt, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!t) {
		__sync_fetch_and_sub(&ntracked, 1);
		mark_dropped(slot, gen);
		return 0;
	}
	__sync_fetch_and_add(&s->a.tasks, 1);
	task_set(s, t, bpf_ktime_get_ns(), IOWHY_RUNQ);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(iowhy_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	if (!ntracked)
		return 0;
	__u64 now = bpf_ktime_get_ns();
	struct slot *s;
	struct task *t = task_of(prev, &s);
	if (t) {
		unsigned st = prev->__state;
		unsigned to;
		if (preempt || st == TASK_RUNNING)
			to = IOWHY_RUNQ;
		else if (st & TASK_DEAD)
			to = IOWHY_NONE;
		else if (st & TASK_UNINTERRUPTIBLE)
			to = t->throttle ? IOWHY_THROTTLED : t->admit ? IOWHY_ADMIT : IOWHY_BLOCKED;
		else
			to = IOWHY_SLEEP;
		task_set(s, t, now, to);
		if (to == IOWHY_NONE && !bpf_task_storage_delete(&tasks, prev)) {
			__sync_fetch_and_sub(&s->a.tasks, 1);
			__sync_fetch_and_sub(&ntracked, 1);
		}
	}
	t = task_of(next, &s);
	if (t) {
		t->throttle = 0;
		task_set(s, t, now, IOWHY_CPU);
	}
	return 0;
}

static __always_inline int wakeup(struct task_struct *p)
{
	if (!ntracked)
		return 0;
	struct slot *s;
	struct task *t = task_of(p, &s);
	if (t && t->state != IOWHY_CPU && t->state != IOWHY_RUNQ)
		task_set(s, t, bpf_ktime_get_ns(), IOWHY_RUNQ);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(iowhy_wakeup, struct task_struct *p)
{
	return wakeup(p);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(iowhy_wakeup_new, struct task_struct *p)
{
	return wakeup(p);
}

/* The current task's entry, when tracked. */
static __always_inline struct task *current_task(struct slot **sp)
{
	if (!ntracked)
		return 0;
	return task_of(bpf_get_current_task_btf(), sp);
}

SEC("tp_btf/block_bio_queue")
int BPF_PROG(iowhy_bio_queue, struct bio *bio)
{
	struct slot *s;
	struct task *t = current_task(&s);
	if (t)
		t->admit = 1;
	return 0;
}

static __always_inline int bio_merged(void)
{
	struct slot *s;
	struct task *t = current_task(&s);
	if (t)
		t->admit = 0;
	return 0;
}

SEC("tp_btf/block_bio_backmerge")
int BPF_PROG(iowhy_bio_backmerge, struct bio *bio)
{
	return bio_merged();
}

SEC("tp_btf/block_bio_frontmerge")
int BPF_PROG(iowhy_bio_frontmerge, struct bio *bio)
{
	return bio_merged();
}

static __always_inline __u32 rq_dev(struct request *rq)
{
	struct gendisk *d = rq->q->disk;
	if (!d)
		return 0;
	return (__u32)d->major << 20 | (__u32)d->first_minor;
}

static __always_inline unsigned rq_op(struct request *rq)
{
	return (rq->cmd_flags & REQ_OP_MASK) == REQ_OP_READ ? 0 : 1;
}

/* A request is made of a bio, in the submitter's context: note who made
 * it (for the requests ahead of a sample's), and track a sample's own. */
SEC("tp_btf/block_io_start")
int BPF_PROG(iowhy_io_start, struct request *rq)
{
	__u64 key = (__u64)rq;
	struct slot *s;
	struct task *t = current_task(&s);
	if (!t) {   /* another's: who made it, should it complete ahead */
		struct maker m = { .tgid = (__u32)(bpf_get_current_pid_tgid() >> 32) };
		bpf_get_current_comm(m.comm, sizeof(m.comm));
		bpf_map_update_elem(&makers, &key, &m, BPF_ANY);
		return 0;
	}
	t->admit = 0;
	struct req r = { .slot = t->slot, .gen = t->gen, .dev = rq_dev(rq), .op = (__u8)rq_op(rq),
			 .state = IOWHY_QUEUED };   /* nothing else sees it before we return */
	if (bpf_map_update_elem(&reqs, &key, &r, BPF_ANY)) {
		mark_dropped(t->slot, t->gen);
		return 0;
	}
	__sync_fetch_and_add(&nreqs, 1);
	struct disk *d = bpf_map_lookup_elem(&disks, &r.dev);
	if (!d) {
		struct disk nd = { .n = 0, .slot = r.slot };
		bpf_map_update_elem(&disks, &r.dev, &nd, BPF_NOEXIST);
		d = bpf_map_lookup_elem(&disks, &r.dev);
	}
	if (d) {
		__sync_fetch_and_add(&d->n, 1);
		d->slot = r.slot;
	}
	__u64 from, to;
	window(r.slot, &from, &to);
	__u64 now = bpf_ktime_get_ns();
	bpf_spin_lock(&s->lock);
	iowhy_acct_move(&s->a, now, from, to, IOWHY_NONE, IOWHY_QUEUED);
	bpf_spin_unlock(&s->lock);
	return 0;
}

/* A tracked request's entry and its slot, or none (a stale one goes). */
static __always_inline struct req *req_of(__u64 key, struct slot **sp)
{
	if (!nreqs)
		return 0;
	struct req *r = bpf_map_lookup_elem(&reqs, &key);
	if (!r)
		return 0;
	*sp = slot_of(r->slot, r->gen);
	return r;
}

/* A tracked request goes from one state to the next (issue, requeue). */
static __always_inline int req_move(struct request *rq, unsigned from_state, unsigned state)
{
	struct slot *s = 0;
	struct req *r = req_of((__u64)rq, &s);
	if (!r || !s)
		return 0;
	__u64 from, to;
	window(r->slot, &from, &to);
	__u64 now = bpf_ktime_get_ns();
	bpf_spin_lock(&s->lock);
	if (r->state == from_state) {
		iowhy_acct_move(&s->a, now, from, to, from_state, state);
		r->state = (__u8)state;
	}
	bpf_spin_unlock(&s->lock);
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(iowhy_rq_issue, struct request *rq)
{
	return req_move(rq, IOWHY_QUEUED, IOWHY_DEVICE);
}

SEC("tp_btf/block_rq_requeue")
int BPF_PROG(iowhy_rq_requeue, struct request *rq)
{
	return req_move(rq, IOWHY_DEVICE, IOWHY_QUEUED);
}

/* A tracked request is done (completed, or merged into another). */
static __always_inline void req_end(__u64 key, struct slot *s, struct req *r, __u64 bytes,
				    __u32 flag)
{
	if (s) {
		__u64 from, to;
		window(r->slot, &from, &to);
		__u64 now = bpf_ktime_get_ns();
		bpf_spin_lock(&s->lock);
		iowhy_acct_move(&s->a, now, from, to, r->state, IOWHY_NONE);
		iowhy_acct_own(&s->a, now, from, to, r->op, bytes);
		s->a.flags |= flag;
		bpf_spin_unlock(&s->lock);
	}
	struct disk *d = bpf_map_lookup_elem(&disks, &r->dev);
	if (d && d->n)
		__sync_fetch_and_sub(&d->n, 1);
	if (!bpf_map_delete_elem(&reqs, &key))
		__sync_fetch_and_sub(&nreqs, 1);
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(iowhy_rq_complete, struct request *rq, int error, unsigned int nr_bytes)
{
	if (!nreqs)
		return 0;
	__u64 key = (__u64)rq;
	struct slot *s = 0;
	struct req *r = req_of(key, &s);
	if (r) {
		if (nr_bytes < rq->__data_len)
			return 0;   /* a part of it: the rest is still on the device */
		req_end(key, s, r, nr_bytes, 0);
		return 0;
	}
	/* another's: ahead of a sample's own on this disk? */
	__u32 dev = rq_dev(rq);
	struct disk *d = bpf_map_lookup_elem(&disks, &dev);
	if (!d || !d->n)
		return 0;
	__u32 i = d->slot;
	struct slot *os = bpf_map_lookup_elem(&slots, &i);
	if (!os)
		return 0;
	struct maker m = { 0 };
	struct maker *mp = bpf_map_lookup_elem(&makers, &key);
	if (mp)
		m = *mp;
	__u64 from, to;
	window(i, &from, &to);
	unsigned op = rq_op(rq);
	__u64 now = bpf_ktime_get_ns();
	bpf_spin_lock(&os->lock);
	iowhy_acct_ahead(&os->a, now, from, to, op, nr_bytes, m.tgid, m.comm);
	bpf_spin_unlock(&os->lock);
	return 0;
}

SEC("tp_btf/block_rq_merge")
int BPF_PROG(iowhy_rq_merge, struct request *rq)
{
	__u64 key = (__u64)rq;
	struct slot *s = 0;
	struct req *r = req_of(key, &s);
	if (r)
		req_end(key, s, r, rq->__data_len, IOWHY_F_MERGED);
	return 0;
}

/* balance_dirty_pages(): a positive pause puts the task to sleep next. */
SEC("tp_btf/balance_dirty_pages")
int BPF_PROG(iowhy_dirty, struct bdi_writeback *wb, struct dirty_throttle_control *dtc,
	     unsigned long dirty_ratelimit, unsigned long task_ratelimit, unsigned long dirtied,
	     unsigned long period, long pause)
{
	struct slot *s;
	struct task *t = current_task(&s);
	if (t && pause > 0)
		t->throttle = 1;
	return 0;
}
