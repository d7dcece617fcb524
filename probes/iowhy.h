/* iowhy — the collector of where each sample's time goes (iowhy.bpf.c):
 * load and attach it, arm a slot before forking a sample, read the slot's
 * accounting (iowhy_acct.h) when the sample ends.  Needs root, a kernel
 * with BTF and BPF, and a build with BPF (make BPF=0 leaves it out); when
 * it cannot work, iowhy_open() says why in one sentence.  Everything it
 * attaches goes with the process (links and maps are file descriptors):
 * a SIGKILL leaves nothing behind.  Never prints.
 */
#ifndef BRISK_IOWHY_H
#define BRISK_IOWHY_H

#include <stddef.h>
#include <stdint.h>

#include "iowhy_acct.h"

struct iowhy;

/* Load and attach.  0, or -errno with why the breakdown is unavailable in
 * why ("needs root", "this kernel has no BTF (/sys/kernel/btf/vmlinux)",
 * "brisk was built without BPF (make BPF=0)", libbpf's reason). */
int iowhy_open(struct iowhy **w, char *why, size_t len);
/* The next fork of the calling thread starts a new sample in slot (below
 * IOWHY_SLOTS), until iowhy_disarm(); *win is where that sample writes its
 * timed window (shared memory the fork inherits).  0 or -EINVAL. */
int iowhy_arm(struct iowhy *w, unsigned slot, volatile struct iowhy_window **win);
void iowhy_disarm(struct iowhy *w);
/* The slot's accounting, finished at the end of the window [from, to)
 * (CLOCK_MONOTONIC ns: the sample's own timed part): parts add up to
 * to - from.  0, or -errno (-ENOENT: the slot was not armed). */
int iowhy_collect(struct iowhy *w, unsigned slot, uint64_t from, uint64_t to,
		  struct iowhy_acct *out);
/* Tasks and requests that could not be tracked since iowhy_open(). */
uint64_t iowhy_dropped(const struct iowhy *w);
/* Tasks and requests tracked now (0 once every sample's are gone). */
unsigned iowhy_tracked(const struct iowhy *w);
void iowhy_close(struct iowhy *w);

#endif
