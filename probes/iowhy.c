/* iowhy — see iowhy.h.  The object comes in the skeleton bpftool made of
 * iowhy.bpf.c (build/probes/iowhy.skel.h); BRISK_BPF=0 builds leave it out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iowhy.h"

#if BRISK_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/syscall.h>

#include "iowhy.skel.h"

struct iowhy {
	struct iowhy_bpf *skel;
	int slots_fd;
	__u32 gen[IOWHY_SLOTS];
	__u64 misses[IOWHY_SLOTS];   /* the kernel's skipped runs when armed */
	int armed;
};

/* Runs of the programs the kernel skipped (a program already running on
 * that CPU): each is an event not counted. */
static __u64 misses(const struct iowhy *w)
{
	__u64 n = 0;
	struct bpf_program *p;
	bpf_object__for_each_program(p, w->skel->obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len) == 0)
			n += info.recursion_misses;
	}
	return n;
}

/* the slots map's value: the lock, then the accounting (iowhy.bpf.c) */
struct slot_value {
	__u32 lock;
	__u32 pad;
	struct iowhy_acct a;
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

int iowhy_open(struct iowhy **out, char *why, size_t len)
{
	*out = NULL;
	if (geteuid() != 0) {
		snprintf(why, len, "it needs root (BPF)");
		return -EPERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		snprintf(why, len, "this kernel has no BTF (/sys/kernel/btf/vmlinux)");
		return -ENOTSUP;
	}
	const char *max = getenv("BRISK_IOWHY_MAX_TASKS");   /* tests: a map that fills */
	if (!getenv("BRISK_DEBUG"))
		libbpf_set_print(quiet);
	struct iowhy *w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	int rc = 0;
	w->skel = iowhy_bpf__open();
	if (!w->skel)
		rc = errno ? -errno : -EINVAL;
	if (!rc && max && atoi(max) > 0)
		w->skel->rodata->max_tasks = (__u32)atoi(max);
	if (!rc)
		rc = iowhy_bpf__load(w->skel);
	if (rc) {
		snprintf(why, len, "the kernel refused brisk's BPF programs (%s): an older kernel "
			 "than 6.5 or one without BTF-typed tracepoints", strerror(-rc));
		iowhy_close(w);
		return rc;
	}
	rc = iowhy_bpf__attach(w->skel);
	if (rc) {
		snprintf(why, len, "the kernel would not attach brisk's BPF programs: %s",
			 strerror(-rc));
		iowhy_close(w);
		return rc;
	}
	w->slots_fd = bpf_map__fd(w->skel->maps.slots);
	*out = w;
	return 0;
}

int iowhy_arm(struct iowhy *w, unsigned slot, volatile struct iowhy_window **win)
{
	if (!w || slot >= IOWHY_SLOTS)
		return -EINVAL;
	struct slot_value v = { 0 };
	v.a.gen = ++w->gen[slot];
	w->misses[slot] = misses(w);
	__u32 key = slot;
	if (bpf_map_update_elem(w->slots_fd, &key, &v, BPF_F_LOCK) < 0)
		return -errno;
	struct iowhy_bpf__bss *b = w->skel->bss;
	b->win[slot].from = 0;
	b->win[slot].to = 0;
	b->armed_slot = slot;
	b->armed_gen = v.a.gen;
	__atomic_store_n(&b->armed_tid, (__u32)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	w->armed = 1;
	*win = &b->win[slot];
	return 0;
}

void iowhy_disarm(struct iowhy *w)
{
	if (w && w->armed)
		__atomic_store_n(&w->skel->bss->armed_tid, 0, __ATOMIC_SEQ_CST);
	if (w)
		w->armed = 0;
}

int iowhy_collect(struct iowhy *w, unsigned slot, uint64_t from, uint64_t to,
		  struct iowhy_acct *out)
{
	if (!w || slot >= IOWHY_SLOTS || !w->gen[slot])
		return -ENOENT;
	struct slot_value v;
	__u32 key = slot;
	if (bpf_map_lookup_elem_flags(w->slots_fd, &key, &v, BPF_F_LOCK) < 0)
		return -errno;
	if (v.a.gen != w->gen[slot])
		return -ENOENT;
	*out = v.a;
	if (misses(w) != w->misses[slot])   /* an event may be this sample's */
		out->flags |= IOWHY_F_MISSED;
	if (!from || to <= from) {
		out->flags |= IOWHY_F_NOWINDOW;
		return 0;
	}
	/* the last stretch, in the part the counts name now */
	iowhy_acct_advance(out, to, from, to);
	return 0;
}

uint64_t iowhy_dropped(const struct iowhy *w)
{
	return w ? w->skel->bss->dropped : 0;
}

unsigned iowhy_tracked(const struct iowhy *w)
{
	return w ? w->skel->bss->ntracked + w->skel->bss->nreqs : 0;
}

void iowhy_close(struct iowhy *w)
{
	if (!w)
		return;
	iowhy_bpf__destroy(w->skel);
	free(w);
}

#else /* !BRISK_BPF */

int iowhy_open(struct iowhy **out, char *why, size_t len)
{
	*out = NULL;
	snprintf(why, len, "brisk was built without BPF (make BPF=0, or no clang, bpftool "
		 "and libbpf when it was built)");
	return -ENOSYS;
}

int iowhy_arm(struct iowhy *w, unsigned slot, volatile struct iowhy_window **win)
{
	(void)w, (void)slot, (void)win;
	return -EINVAL;
}

void iowhy_disarm(struct iowhy *w)
{
	(void)w;
}

int iowhy_collect(struct iowhy *w, unsigned slot, uint64_t from, uint64_t to,
		  struct iowhy_acct *out)
{
	(void)w, (void)slot, (void)from, (void)to, (void)out;
	return -ENOENT;
}

uint64_t iowhy_dropped(const struct iowhy *w)
{
	(void)w;
	return 0;
}

unsigned iowhy_tracked(const struct iowhy *w)
{
	(void)w;
	return 0;
}

void iowhy_close(struct iowhy *w)
{
	(void)w;
}

#endif
