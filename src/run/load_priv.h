/* load_priv — what load.c (preparing, running and reading a load),
 * load_spec.c (kinds and the KIND:KEY=VALUE spec) and loadcopy.c (the
 * copy's loop) share and nothing else includes.  The contract is load.h's. */
#ifndef BRISK_LOAD_PRIV_H
#define BRISK_LOAD_PRIV_H

#include "load.h"

#include <signal.h>
#include <stdint.h>

#define MiB (1024ull * 1024)
#define LOAD_FLOOR_CHECK (8 * MiB)   /* a writer's statvfs() every 8 MiB */

/* Does a load of kind k work on a file made at prepare (the readers and
 * rand-write)?  1/0. */
int load_kind_needs_file(enum load_kind k);

/* The child's report, every LOAD_REPORT_NS and once at the end; smaller
 * than PIPE_BUF, so each write is atomic. */
struct load_msg {
	uint64_t t_ns;
	uint64_t bytes;
	uint64_t worst_ns;       /* since the previous message */
	uint64_t worst_at_ns;
	int32_t end;             /* enum load_end; LOAD_RUNNING while going */
	int32_t err;
	uint64_t bytes_read;     /* of bytes, read (a mixed load's split) */
};

/* The child's side (load.c), for the kinds' loops (loadcopy.c): */
extern volatile sig_atomic_t load_child_stop;   /* SIGTERM/SIGINT came */
void load_send_msg(int fd, const struct load_msg *m);
/* A call that took from a to b: the worst one so far? */
void load_note_call(struct load_msg *m, uint64_t a, uint64_t b);
enum load_end load_errno_end(int e);             /* ENOSPC, EDQUOT, else an error */
/* Sleep until `bytes` are due at the spec's rate from t0 (none: return). */
void load_rate_wait(const struct load_spec *s, uint64_t t0, uint64_t bytes);
uint64_t load_pick_len(const struct load_spec *s, uint64_t *rng);   /* a call's bytes */
/* The copy's loop (loadcopy.c): reads src, writes dst at the same offsets
 * until stopped, done (total copied), at the floor or an error (m->end);
 * reports every LOAD_REPORT_NS.  Bytes read and written. */
uint64_t load_copy_loop(const struct load_spec *s, int src, int dst, void *buf, int wfd,
			uint64_t floor, uint64_t *rng, struct load_msg *m);

#endif
