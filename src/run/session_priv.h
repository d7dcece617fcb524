/* session_priv — what session.c, session_sample.c and session_work.c
 * share and nothing else includes: the state behind struct session's
 * opaque `run` pointer, the loop's constants, and the functions one of
 * them calls in another.  The contract is session.h's.
 *
 *   session.c         create, hooks, prepare, run, free, progress
 *   session_loop.c    the phases and the poll loop
 *   session_sample.c  action samples, system ticks, loads, reaping children
 *   session_work.c    DIR checks and the work area DIR/.brisk-XXXXXX
 */
#ifndef BRISK_SESSION_PRIV_H
#define BRISK_SESSION_PRIV_H

#include <signal.h>
#include <sys/types.h>

#include "session.h"

#define MS 1000000ull
#define SEC 1000000000ull
#define MiB (1024ull * 1024)
#define STOP_GRACE_NS (3 * SEC)
#define WRITEBACK_UNDER_WAY (1 * MiB)
#define ORPHAN_EMPTY_AGE 60      /* s: an empty .brisk-X this old is nobody's */
#define TEST_PAUSE_MAX_MS 30000
#define SAMPLES_UNREAPED 8       /* ended samples the loop has not reaped yet */

struct session_at {
	struct session_at *next;
	uint64_t t_ns;
	session_at_fn fn;
	void *ctx;
	int done;
	char label[96];
};

struct session_hook {
	struct session_hook *next;
	session_hook_fn fn;
	void *ctx;
};

struct session_watch {
	struct session_watch *next;
	int fd;
	short events;
	session_fd_fn fn;
	void *ctx;
};

/* One sample in flight. */
struct session_slot {
	pid_t pid;                /* 0 = free */
	int pid_reaped;           /* already reaped (its pipe not closed) */
	int fd;
	unsigned action;          /* index into s->actions */
	unsigned inst;            /* index into run->insts */
	int entry;                /* schedule entry, -1 none */
	uint64_t started;         /* absolute, when it was forked */
	uint64_t deadline;        /* watchdog, absolute */
	struct action_result res;
	int have_first;
	uint32_t epoch;
	uint8_t phase;
	uint8_t inflight;
};

/* An action's instance: s->actions[i] itself, or a copy with its own
 * files in the work area's slot-K directory (concurrent samples). */
struct session_inst {
	struct action *a;
	unsigned action;          /* index into s->actions */
	int busy;
	int owned;                /* a is malloc'ed, its dirfd ours */
	int dirfd;
};

/* What only the session's files touch: made by session_create(), the
 * loop's state from session_run() on. */
struct session_run {
	int ran;                  /* session_run() was called */
	struct iowhy *why;        /* the breakdown's collector; NULL: none */
	struct session_at *ats;
	struct session_hook *hooks, *tick_hooks;
	struct session_watch *watches;
	int hooks_done;
	int sigfd, timerfd;
	int owner_fd;             /* locked DIR/.brisk-X/owner: marks it live */
	int dir_fd;               /* DIR, opened once by session_create() */
	int work_fd;              /* DIR/.brisk-X, checked; -1 when none */
	char work_name[16];       /* ".brisk-X" in dir_fd; "" when none */
	dev_t work_dev;
	ino_t work_ino;
	uint64_t rng;
	pid_t settle_pid;         /* the settle step's syncfs child, 0 when done */
	session_child_fn on_child;   /* a front end's own children */
	void *on_child_ctx;

	struct session_slot *slots;   /* cap of them (1 when one at a time) */
	unsigned n_slots, n_inflight;
	pid_t ended[SESSION_MAX_INFLIGHT + SAMPLES_UNREAPED];   /* samples whose pipe
					  * closed, not yet reaped (0 = free slot) */
	struct session_inst *insts;   /* action instances (own files) */
	unsigned n_insts;
	uint8_t *start_state;         /* per schedule entry: 0 waiting, 1 running, 2 ended,
				       * 3 waiting, held back by the cap */
	uint64_t *start_end;          /* ... when it ended (absolute) */
	size_t starts_done;           /* entries ended */
	unsigned counts[ACTION_KIND_COUNT];   /* samples in this phase (and
					       * loaded epoch), by action slot */
	struct action_result res;
	int have_first;
	uint32_t epoch;
	uint8_t phase;
	uint64_t next_due;        /* absolute */
	unsigned rr;
	uint64_t phase_start;     /* absolute */
	uint64_t stop_deadline;
	int stop_stage;           /* 0 none, 1 SIGTERM sent, 2 SIGKILL sent */
	int writeback_seen;
	sigset_t oldmask;
	struct kstat_psi psi_last;
	int psi_last_ok;
	uint64_t tick_last;
};

/* session_loop.c */
/* Enter phase p at now (absolute): its start, counters, window ends. */
void session_enter(struct session *s, enum session_phase p, uint64_t now);
/* An at() change has not run yet: 1/0. */
int session_ats_pending(const struct session *s);
/* Cold ls samples need the new tree's metadata evictable (action.h). */
int session_wants_evictable(const struct session_config *c);
/* Fork the settle step's sync and enter SESSION_SETTLE. */
void session_settle_start(struct session *s, uint64_t now);
/* Drain the signalfd: reap on SIGCHLD, note a stop signal. */
void session_read_signals(struct session *s);
/* Run the phases until SESSION_DONE: 0, or -errno (poll, memory). */
int session_loop(struct session *s);

/* session_work.c */
int session_dir_check(const struct session_config *cfg, int dfd, char *err, size_t errlen);
int session_work_remove(struct session *s);
void session_work_reap_orphans(struct session *s);
int session_work_own(struct session *s);
int session_work_make(struct session *s, char *err, size_t errlen);

/* session_sample.c */
int session_next_action(struct session *s, unsigned want);
/* Start a sample of action idx (schedule entry, or -1) in a free slot on
 * a free instance: 0, or -EBUSY when none is free (nothing started). */
int session_sample_start(struct session *s, unsigned idx, int entry, uint64_t now);
void session_sample_record(struct session *s, struct session_slot *sl, int timeout, int err);
void session_sample_input(struct session *s, struct session_slot *sl);
void session_sample_abandon(struct session *s, const char *why);
/* Slots and instances (prepare); their files are in the work area. */
int session_slots_prepare(struct session *s, char *err, size_t errlen);
void session_slots_free(struct session *s);
/* A free instance of action idx, or -1. */
int session_inst_free(const struct session *s, unsigned idx);
/* The loaded samples that started after a load ended early. */
void session_load_end_count(struct session *s);
void session_sys_baseline(struct session *s);
void session_sys_tick(struct session *s);
int session_loads_running(const struct session *s);
int session_loads_failed(const struct session *s);
void session_loads_start(struct session *s);
void session_reap(struct session *s);
/* Ended samples not reaped yet. */
size_t session_samples_unreaped(const struct session *s);

#endif
