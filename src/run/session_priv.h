/* session_priv — what session.c, session_sample.c and session_work.c
 * share and nothing else includes: the state behind struct session's
 * opaque `run` pointer, the loop's constants, and the functions one of
 * them calls in another.  The contract is session.h's.
 *
 *   session.c         create, hooks, prepare, run, free, progress
 *   session_loop.c    the phases and the poll loop
 *   session_sample.c  action samples, system ticks, loads, reaping children
 *   session_work.c    DIR checks and a work area DIR/.brisk-XXXXXX
 *   session_area.c    the work areas: DIR's and each load directory's
 */
#ifndef BRISK_SESSION_PRIV_H
#define BRISK_SESSION_PRIV_H

#include <signal.h>
#include <sys/types.h>

#include <limits.h>

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

/* A work area: a directory opened once and checked (DIR, or a load's
 * dir=), the .brisk-X brisk made in it and its owner file.  areas[0] is
 * DIR's (the actions' files, and the loads without a dir of their own). */
struct session_area {
	char dir[PATH_MAX];       /* as given, for messages */
	char workdir[PATH_MAX];   /* dir/.brisk-X, for messages; "" until made */
	int dir_fd;               /* dir, opened once by session_create() */
	int work_fd;              /* dir/.brisk-X, checked; -1 when none */
	int owner_fd;             /* locked dir/.brisk-X/owner: marks it live */
	char work_name[16];       /* ".brisk-X" in dir_fd; "" when none */
	dev_t work_dev;
	ino_t work_ino;
	uint64_t need;            /* bytes of files brisk makes there */
	int writes;               /* a writer works there (the floor applies) */
	uint64_t floor_bytes;     /* the writers stop above this free space */
};

/* A load spec's dir= and the area it was given (an alias of DIR or of
 * another load directory shares that area). */
struct session_dirmap {
	char dir[LOAD_DIR_MAX];
	unsigned area;
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
	struct session_area areas[SESSION_MAX_AREAS];   /* [0]: DIR's */
	size_t n_areas;
	struct session_dirmap dirmap[SESSION_MAX_LOAD_SPECS];
	size_t n_dirmap;
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

/* session_work.c: one area */
/* Checks of a directory brisk will make its work area in (dir as given,
 * dfd opened on it): not a kernel file system, writable, and as root not
 * one others can write (unless cfg allows).  0 or -errno with why. */
int session_dir_check(const struct session_config *cfg, const char *dir, int dfd,
		      char *err, size_t errlen);
int session_work_remove(struct session *s, struct session_area *a);
void session_work_reap_orphans(struct session *s, struct session_area *a);
int session_work_own(struct session_area *a);
int session_work_make(struct session *s, struct session_area *a, char *err, size_t errlen);

/* session_area.c: all of them */
/* Open and check each distinct load directory (session_create, before
 * anything is made): 0 or -errno with why in err (areas opened so far
 * stay in s->run->areas, closed by session_areas_close()). */
int session_areas_open(struct session *s, char *err, size_t errlen);
/* The area of a load spec (0: DIR's), and its writers' floor. */
unsigned session_area_of(const struct session *s, const struct load_spec *sp);
uint64_t session_load_floor(const struct session *s, const struct load_spec *sp);
/* devs[] from DIR's stack and each load directory's; their fstypes and
 * top devices; fsdev the loads' (session_create, after the areas). */
void session_devices_init(struct session *s);
/* Collect killed runs' areas, check free space over the floors, make and
 * own each .brisk-X: 0 or -errno with why. */
int session_areas_make(struct session *s, char *err, size_t errlen);
/* Remove every work area (on every way out), then close their fds. */
void session_areas_remove(struct session *s);
void session_areas_close(struct session *s);
/* syncfs each area's file system (the settle child). */
void session_areas_sync(const struct session *s);

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
