/* timesplit — one sample's breakdown (where its wall time went, measured by
 * the iowhy collector), and what the reports say of several: the median
 * sample's parts, the mean shares, the measured cause in words.  What each
 * part means is in brisk-run(1), "Where the time went".
 */
#ifndef BRISK_TIMESPLIT_H
#define BRISK_TIMESPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "iowhy_acct.h"

#define TIMESPLIT_NPARTS IOWHY_NPARTS
#define TIMESPLIT_MAKERS IOWHY_MAKERS

/* Who a process issuing requests ahead was to the session. */
enum timesplit_role {
	TIMESPLIT_OTHER,             /* not brisk's (a flusher kworker, ...) */
	TIMESPLIT_LOAD,              /* one of the session's loads */
	TIMESPLIT_SAMPLE,            /* another sample of the session */
};

struct timesplit_maker {
	int32_t pid;                 /* the issuing process (thread group) */
	char comm[16];               /* its name: untrusted text, escape on output */
	uint32_t n;                  /* requests of it completed ahead */
	uint64_t bytes;
	uint8_t role;                /* enum timesplit_role (the session sets it) */
};

struct timesplit {
	uint8_t ok;                  /* measured; else nothing below is */
	uint8_t incomplete;          /* a task or request could not be tracked, the
				      * kernel skipped one of the collector's runs,
				      * or the timed part never began: not whole */
	uint16_t flags;              /* IOWHY_F_* */
	uint64_t part_ns[TIMESPLIT_NPARTS];   /* enum iowhy_part; sum = the wall time */
	uint64_t device_union_ns;    /* >= 1 own request on the device (any part) */
	uint64_t queued_union_ns;    /* >= 1 own request queued (any part) */
	uint32_t rq[2];              /* own requests: [0] reads, [1] writes */
	uint64_t rq_bytes[2];
	uint32_t ahead[2];           /* others' requests the disk completed while
				      * one of its own was queued or on it */
	uint64_t ahead_bytes[2];
	struct timesplit_maker makers[TIMESPLIT_MAKERS];   /* who issued those, most first */
	uint32_t n_makers;
	uint32_t ahead_unnamed;      /* ... requests ahead not among them */
};

/* Several samples' breakdowns together (one action, phase and epoch). */
struct timesplit_sum {
	size_t n;                        /* samples with a breakdown */
	size_t n_incomplete;             /* ... of them not whole (left out) */
	const struct timesplit *median;  /* the sample of median wall time; NULL: none */
	double share[TIMESPLIT_NPARTS];  /* mean share of the wall time, 0..1 */
	double ahead_mean[2];            /* mean requests ahead per sample */
	double ahead_bytes_mean[2];
};

/* "cpu", "runq", "device", "queued", "admit", "throttled", "blocked", "sleep". */
const char *timesplit_key(int part);
/* "on CPU", "waiting for a CPU", "on the disk", ... (brisk-run(1)). */
const char *timesplit_label(int part);
/* From the collector's accounting (makers sorted by requests, most first). */
void timesplit_from_acct(struct timesplit *t, const struct iowhy_acct *a);
uint64_t timesplit_wall_ns(const struct timesplit *t);
/* "cpu: on CPU; runq: waiting for a CPU; ..." (every part), into buf;
 * the length written (< len). */
size_t timesplit_legend(char *buf, size_t len);
/* "no reads", "1 write" (no data: a flush), "3 reads (44.0 KiB)". */
void timesplit_count_text(char *buf, size_t len, uint32_t n, uint64_t bytes, const char *what);
/* "load", "sample", or NULL for TIMESPLIT_OTHER. */
const char *timesplit_role_name(int role);
/* Sum up v[0..n) (NULL entries and not-ok ones skipped; incomplete ones
 * counted in n_incomplete and left out). */
void timesplit_sum(const struct timesplit *const *v, size_t n, struct timesplit_sum *out);
/* The measured cause in words, from the largest parts: "78 % queued in the
 * I/O scheduler while 410 writes (400 MiB) went first, 15 % on the disk".
 * Writes "" when t is not ok. */
void timesplit_cause(const struct timesplit *t, char *buf, size_t len);

#endif
