/* session — one measurement run: the phases, the event loop, epochs.
 *
 *   prepare -> [settle] -> idle baseline -> start load -> warm-up -> loaded
 *   -> stop -> exit hooks -> cleanup
 *
 * One process, one loop: poll() over the children's pipes, a timerfd that
 * samples /sys/block/X/stat, /proc/pressure/io and /proc/meminfo at a fixed
 * rate, a signalfd (SIGINT, SIGTERM, SIGHUP stop the run, which still ends
 * normally and reports; SIGCHLD reaps), plus any fd a front end adds.  No
 * threads.  Action samples run one at a time, each in a fresh process,
 * round-robin over the actions, spaced by interval +- jitter — unless the
 * workload asks for concurrent samples (cfg.concurrency > 1, see below).
 *
 * Contract:
 *  - Files are created only in a fresh DIR/.brisk-XXXXXX, removed on every
 *    way out of session_run() (including signals); nothing else is touched.
 *  - The work area is reached only by descriptor: session_create() opens
 *    DIR once (O_DIRECTORY); prepare makes .brisk-XXXXXX with mkdirat,
 *    opens it O_DIRECTORY|O_NOFOLLOW at once and checks it (owner = euid,
 *    mode 0700, DIR's st_dev), else refuses.  Every file is made, opened,
 *    evicted, walked and removed with *at() calls relative to that
 *    descriptor, new files O_CREAT|O_EXCL|O_NOFOLLOW; children inherit the
 *    descriptor (child.h), not a path.  Removal empties the directory
 *    through its descriptor (never following a link, never crossing a
 *    mount) and removes the name from DIR only when it still is that
 *    directory (st_dev/st_ino); if someone renamed it, that is a message.
 *  - Run as root (euid 0), session_create() refuses (-EPERM, message naming
 *    DIR and why) a DIR that someone other than root, brisk's user and
 *    cfg.trusted_uid (SUDO_UID, read by session_config_default) can write:
 *    another user's directory, or group/world-writable without the sticky
 *    bit; cfg.allow_shared_dir runs there anyway (still safe by the rule
 *    above).  DIR on a kernel file system (proc, sysfs, ...): -ENODEV.
 *  - The session holds a POSIX lock on DIR/.brisk-XXXXXX/owner while it
 *    runs; a later session on DIR removes work directories of its user
 *    whose owner lock is free (their brisk was SIGKILLed), or that have no
 *    owner file, are empty and unchanged for a minute, and says so; all by
 *    descriptor.  A run that fails after mkdirat removes the directory
 *    itself (it needs no new descriptor for an empty one).
 *  - Sizes are overflow-checked: loads whose files add up past 2^64 bytes
 *    make session_run() fail with -EOVERFLOW (bad input).
 *  - n_failed counts what could not start or failed (a load that ended
 *    with an error or died, a sample that could not be forked, an exec
 *    program that could not be started): the run is an error.  When every
 *    load has failed, the run stops rather than take "loaded" samples.
 *  - Test hook: with BRISK_TEST_PAUSE=/ABSOLUTE/PATH in the environment,
 *    prepare says "brisk: test pause: .brisk-XXXXXX made; waiting for PATH"
 *    on stderr once the work directory and its owner file exist, and waits
 *    (at most 30s, or until a signal) for PATH to exist before making any
 *    other file.  It only reads; a test uses it to swap the directory at a
 *    known moment.
 *  - Warm-up ends at warmup_max_ns, when no load runs, or after
 *    warmup_min_ns when there is no buffered writer, or when writeback is
 *    under way (>= 1 MiB) — or, with cfg.warmup_plateau (brisk compare:
 *    every arm sampled in the same state of the load), when Dirty +
 *    Writeback have grown by at most 5 % + 8 MiB over the last three
 *    warm-up ticks with writeback under way: the writer is held at the
 *    dirty limits.
 *  - Settle (cfg.settle_max_ns > 0; brisk compare): after prepare, a child
 *    syncs DIR's file system (syncfs, so the loop never waits on the disk;
 *    when ls is evicted with drop_caches, as root on ext4 it then
 *    checkpoints the journal, which would keep the new tree's metadata
 *    cached for seconds whatever drop_caches says; without a settle step
 *    prepare does both itself in that case)
 *    and the phase SESSION_SETTLE lasts until that child has ended and
 *    Dirty + Writeback (/proc/meminfo) are at most cfg.settle_target, or
 *    until settle_max_ns: then settle_timeout is set, settle_left says by
 *    how much it missed, and a message says so.  A sync child still
 *    running when the session ends is left to finish (and to be reaped by
 *    whoever reaps the process's children next).
 *  - Times are CLOCK_MONOTONIC nanoseconds; stored times are relative to
 *    t0 (session_run() start).
 *  - Epochs: every sample carries the epoch current when it started.
 *    session_new_epoch() starts one (settings changed).
 *  - session_at(): fn runs inside the loop t_ns after the load started
 *    (the start of warm-up); on success a new epoch named label starts, on
 *    failure err is kept as a session message.  The loaded phase is not
 *    extended for it; while one is pending, the phase ends on its duration
 *    rather than on the sample count.  Phase ends on the sample count only
 *    when every action has its samples in the current epoch.
 *  - Open-ended runs (cfg.open_ended, the dashboard): the loaded phase
 *    ignores loaded_samples and loaded_max_ns and goes on, sampling the
 *    actions evenly, until session_stop(), max_time or a signal.
 *    session_loads_pause()/session_loads_resume() stop and restart the
 *    loads during warm-up or the loaded phase; each starts an epoch whose
 *    load_on says whether loads run in it (samples keep phase LOADED).  A
 *    resume starts fresh instances of the same specs, appended to loads[]
 *    (their files are reused); the stopped ones stay there for the record.
 *  - session_on_exit() hooks run exactly once, newest first, after the
 *    loads stopped and before files are removed, on every path out of
 *    session_run() — or from session_free() if the session never ran.
 *  - While session_run() runs, SIGINT, SIGTERM, SIGHUP and SIGCHLD are
 *    blocked and read from the signalfd, and every child of the process is
 *    reaped by the loop.  A front end may fork a short child of its own
 *    (the dashboard writes a saved profile in one, so its process never
 *    waits on a disk) but must not waitpid() for it while the loop runs:
 *    the loop reaps it and hands its wait status to the session_on_child()
 *    hook (without a hook the status is dropped: the child must report
 *    over a pipe the front end watches).  Such a child must be short and
 *    must not touch the work area; one still running when session_run()
 *    returns is the front end's to reap.  The session's own children are
 *    collected before session_run() returns (a killed sample or load
 *    stuck in the kernel is waited for a few seconds at most).
 *  - Concurrent samples (cfg.concurrency > 1; the default 0/1 keeps one at
 *    a time): in the loaded phase up to cfg.concurrency samples are in
 *    flight at once, each still a fresh process with its own eviction and
 *    cold check.  Every action gets min(concurrency, its scheduled samples
 *    or concurrency) instances, each with its own files in its own
 *    subdirectory of the work area (slot-K), so concurrent samples never
 *    evict or warm each other's files; a sample runs on a free instance
 *    of its action.  The idle phase stays one at a time (the baseline).
 *    Without a schedule the next sample starts interval +- jitter after
 *    the previous one started (not ended).  With a schedule
 *    (cfg.starts[0..n_starts)): entry i forks its sample starts[i].t_ns
 *    after the loaded phase began — or, when starts[i].after >= 0, once
 *    entry `after` has ended and t_ns has passed (a chain: fio's loops) —
 *    as soon as a slot and an instance are free; a start held back by the
 *    cap counts in late_starts / late_max_ns.  Such a loaded phase ends
 *    when every entry has run and ended (or at loaded_max_ns / max_time;
 *    samples then in flight are discarded); loaded_samples does not
 *    apply.  The phase never ends with a sample in flight otherwise.
 *    inflight_max is the concurrency reached; each sample records how many
 *    were in flight when it started (itself included).
 *  - A load that ends on its own (done, free-space floor, ENOSPC, EDQUOT,
 *    an error) during warm-up or the loaded phase leaves the rest of the
 *    loaded phase without it: t_load_ended (relative to t0) and
 *    load_ended (which load, why) record the first such end, a message
 *    says the figures after that point were not taken under load, and
 *    n_after_load_end counts the loaded samples that started after it.
 *    Unless cfg.load_finite (the workload's load is finite on purpose) it
 *    is a failure of the run (n_failed).
 *  - The load window: the loads' figures that compare like with like are
 *    taken over one window of the loaded phase, from its start (the same
 *    point of the load in every run: writeback under way, or the dirty
 *    plateau) for cfg.load_window_ns, or the whole loaded phase when that
 *    is 0.  With a window the loaded phase lasts at least that long (its
 *    samples done, the loads run on unsampled), unless loaded_max_ns,
 *    max_time or a signal cut it; then the window is what there was.  The
 *    counters of fsdev, the file system's own block device (the top of
 *    DIR's stack: partition, dm, md or loop device; every byte the file
 *    system reads or writes once, whatever the RAID layout below), are read
 *    at both ends; session_load_window() gives the figures.
 *  - The struct is readable by front ends (report, dashboard); change it
 *    only through these functions.
 */
#ifndef BRISK_SESSION_H
#define BRISK_SESSION_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "action.h"
#include "kstat.h"
#include "load.h"

#define SESSION_MAX_LOAD_SPECS 16
#define SESSION_MAX_DEVS 8
#define SESSION_MAX_MSGS 32
#define SESSION_SETTINGS_LEN 256
#define SESSION_MAX_INFLIGHT 64    /* cfg.concurrency at most */
#define SESSION_MAX_STARTS 256     /* scheduled samples at most */

enum session_phase {
	SESSION_PREPARE,
	SESSION_SETTLE,
	SESSION_IDLE,
	SESSION_WARMUP,
	SESSION_LOADED,
	SESSION_STOP,
	SESSION_DONE,
};

/* One scheduled sample of the loaded phase (see the contract above). */
struct session_start {
	uint64_t t_ns;                   /* after the loaded phase began */
	uint64_t gap_ns;                 /* after `after` ended (chains) */
	int16_t after;                   /* entry this one follows; -1 none */
	uint8_t action;                  /* enum action_kind */
};

struct session_config {
	char dir[PATH_MAX];
	struct load_spec loads[SESSION_MAX_LOAD_SPECS];
	size_t n_loads;
	unsigned actions;                /* mask of 1 << enum action_kind */
	struct action_config action;
	enum action_evict evict;
	unsigned idle_samples;           /* per action */
	unsigned loaded_samples;         /* per action and epoch */
	uint64_t idle_max_ns;            /* 0 = no limit */
	uint64_t warmup_min_ns, warmup_max_ns;
	int warmup_plateau;              /* warm-up ends when Dirty + Writeback stop
					  * growing (see below), not at writeback */
	uint64_t loaded_max_ns;          /* 0 = no limit */
	uint64_t interval_ns;
	unsigned jitter_pct;             /* interval +- this % */
	uint64_t timeout_ns;             /* per-sample watchdog */
	uint64_t max_time_ns;            /* whole run; 0 = no limit */
	uint64_t tick_ns;                /* system sampling period */
	uint64_t floor_bytes;            /* 0 = max(floor_pct %, floor_min) */
	int no_floor;                    /* writers run until ENOSPC */
	double floor_pct;
	uint64_t floor_min;
	uint64_t seed;
	int open_ended;                  /* loaded phase until stopped (see above) */
	int allow_shared_dir;            /* root: run in a DIR others can write */
	int keep_warm;                   /* warm samples count in the statistics */
	uid_t trusted_uid;               /* SUDO_UID; (uid_t)-1 when none */
	uint64_t settle_max_ns;          /* 0 = no settle step (see above) */
	uint64_t settle_target;          /* bytes of Dirty + Writeback to wait for */
	unsigned first_action;           /* samples begin with the configured action
					  * at this index (modulo their count, in
					  * kind order), then go round-robin */
	unsigned concurrency;            /* samples in flight at most; 0/1 = one at a time */
	size_t n_starts;                 /* scheduled samples; 0 = no schedule */
	struct session_start starts[SESSION_MAX_STARTS];
	int load_finite;                 /* a load ending early is on purpose */
	uint64_t load_window_ns;         /* the load window (see above); 0 = the
					  * whole loaded phase */
};

struct session_sample {
	uint64_t t_ns;        /* start of the timed part */
	uint64_t dur_ns;      /* the watchdog limit for a timeout */
	uint32_t epoch;
	uint8_t phase;        /* SESSION_IDLE or SESSION_LOADED */
	uint8_t action;       /* enum action_kind */
	uint8_t cold;
	uint8_t timeout;
	uint8_t inflight;     /* samples in flight when it started, itself included */
	int32_t err;          /* 0 ok; errno; 1000+status for exec */
	uint64_t fork_ns;     /* when its process was forked (relative to t0) */
	int32_t pid;          /* its process (each sample a fresh one) */
};

struct session_epoch {
	char label[96];
	uint64_t t_ns;
	uint8_t load_on;      /* loads ran (or were starting) when it began */
};

struct session_tick {
	uint64_t t_ns;
	uint32_t epoch;
	uint8_t phase;
	uint8_t psi_ok, mem_ok;
	double psi_some_pct, psi_full_pct;   /* stalled share of this tick */
	double psi_some_avg10, psi_full_avg10;
	uint64_t dirty, writeback;           /* bytes */
	double fs_wr_mbps, fs_rd_mbps;       /* fsdev's MiB/s over the tick; NaN: none */
	/* per device rates: ticks_disk[i * n_devs + d] */
};

struct session_dev {
	char name[32];
	char scheduler[32];         /* active when session_run() began: the
				     * setting it measured ("" none, unknown) */
	int ok;                     /* counters readable */
	struct kstat_disk last;
};

/* The file system's own block device and its counters at the ends of the
 * load window (see the contract above). */
struct session_fsdev {
	char name[32];              /* "" when DIR has no block device */
	int ok_last;                /* last read at the latest tick */
	struct kstat_disk last;
	int ok_from, ok_to;         /* counters read at that end */
	struct kstat_disk from, to;
	uint64_t t_from, t_to;      /* relative to t0; 0 = not reached */
};

/* The loads over the load window. */
struct session_load_window {
	double seconds;             /* its length; 0 when there was none */
	double load_mibps;          /* the loads' own read()/write() bytes in it
				     * (page cache bursts included); NaN: no load */
	double disk_wr_mibps, disk_rd_mibps;   /* fsdev's sectors written and read
						* in it; NaN: no counters */
	double disk_mibps;          /* what reached the disk for the loads: the
				     * written figure when a load writes, plus the
				     * read one when a load reads; NaN: no load or
				     * no counters */
};

typedef int (*session_at_fn)(void *ctx, char *err, size_t errlen);
typedef void (*session_hook_fn)(void *ctx);
typedef void (*session_fd_fn)(void *ctx, int fd, short revents);
typedef void (*session_child_fn)(void *ctx, pid_t pid, int status);

struct session_run;

struct session {
	struct session_config cfg;
	char workdir[PATH_MAX];       /* DIR/.brisk-X, for messages; "" until made */
	unsigned n_failed;            /* loads/actions that failed: run is an error */
	enum session_phase phase;
	uint64_t t0;                  /* monotonic start */
	/* relative to t0; 0 = not reached */
	uint64_t t_idle_start, t_load_start, t_loaded_start, t_stop, t_end;
	int stop_signal;              /* signal that ended the run, 0 if none */
	int stop_requested;
	int cut_by_max_time;
	uint64_t floor_bytes;
	uint64_t settle_ns;           /* how long the settle step took */
	int settle_timeout;           /* it gave up at settle_max_ns */
	uint64_t settle_left;         /* bytes above settle_target, then */
	unsigned inflight_max;        /* concurrency reached (samples in flight) */
	unsigned late_starts;         /* scheduled starts the cap held back */
	uint64_t late_max_ns;         /* ... by at most this long */
	uint64_t t_load_ended;        /* first load that ended on its own before the
				       * loaded phase did (relative to t0); 0 = none */
	char load_ended[96];          /* which one and why */
	unsigned n_after_load_end;    /* loaded samples started after that */

	struct action actions[ACTION_KIND_COUNT];
	unsigned n_actions;           /* prepared, in kind order */

	struct load *loads;
	size_t n_loads;
	size_t n_load_set;            /* instances one start runs (loads[0..n)) */
	int loads_paused;             /* session_loads_pause() in effect */

	struct session_dev devs[SESSION_MAX_DEVS];
	size_t n_devs;
	struct session_fsdev fsdev;   /* the load window's device (see above) */
	char fstype[32];
	struct kstat_vm_dirty vm;

	struct session_epoch *epochs;
	size_t n_epochs;
	struct session_sample *samples;
	size_t n_samples, cap_samples;
	struct session_tick *ticks;
	struct kstat_rates *ticks_disk;
	size_t n_ticks, cap_ticks;

	char msgs[SESSION_MAX_MSGS][256];
	size_t n_msgs;
	char settings[SESSION_SETTINGS_LEN];   /* session_note_setting */

	struct session_run *run;      /* session.c's own: descriptors, hooks, the loop */
};

/* Validate and copy cfg, open DIR.  0, or -errno with a message in err:
 * -EINVAL bad input, -ENOENT/-ENOTDIR/-EACCES DIR, -EPERM a DIR others can
 * write (root) or --drop-caches without root, -ENODEV DIR on a kernel file
 * system. */
int session_create(const struct session_config *cfg, struct session **out,
		   char *err, size_t errlen);
void session_config_default(struct session_config *cfg);
/* Run every phase to the end.  0 when it ran (also when stopped by a
 * signal: see stop_signal); -errno with a message in err when it could not
 * (then nothing is left behind either). */
int session_run(struct session *s, char *err, size_t errlen);
void session_free(struct session *s);

int session_new_epoch(struct session *s, const char *label);
int session_at(struct session *s, uint64_t t_ns, session_at_fn fn, void *ctx,
	       const char *label);
int session_on_exit(struct session *s, session_hook_fn fn, void *ctx);
/* Called after every system sampling tick (a dashboard redraws there). */
int session_on_tick(struct session *s, session_hook_fn fn, void *ctx);
/* Add an fd to the loop (a dashboard's terminal). */
int session_watch_fd(struct session *s, int fd, short events, session_fd_fn fn, void *ctx);
/* The wait status of every child the loop reaps that is not a load or a
 * sample: a front end's own (see the contract above).  One hook; 0. */
int session_on_child(struct session *s, session_child_fn fn, void *ctx);
/* End the run as a signal would (from a hook or fd callback). */
void session_stop(struct session *s);
/* Stop the loads now / start them again (open-ended or not), each with a
 * new epoch.  0; -EAGAIN before the load first started or once the run is
 * stopping; -EALREADY when already paused / running; -EBUSY while a stopped
 * load process is still exiting; -ENOMEM; or the first load_start() error
 * (the epoch is still started when at least one instance runs). */
int session_loads_pause(struct session *s);
int session_loads_resume(struct session *s);
/* Record a setting a profile put in place before the run (key as a
 * profile writes it: "scheduler", "slice_idle", "vm.dirty_ratio"; value as
 * read back), for the report: each KEY=VALUE once, in the order given.
 * -E2BIG when there is no room (SESSION_SETTINGS_LEN), -EINVAL for a
 * blank in KEY=VALUE; the others are kept. */
int session_note_setting(struct session *s, const char *key, const char *value);
/* The settings noted, "KEY=VALUE KEY=VALUE" ("" none). */
const char *session_noted_settings(const struct session *s);
/* Add a message (kept for the report). */
void session_msg(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The loads' figures over the load window (see the contract above): 0,
 * or -ENODATA when the loaded phase was not reached (*out all NaN, 0 s). */
int session_load_window(const struct session *s, struct session_load_window *out);
/* The same from its parts, for tests: the window [from_ns, to_ns]
 * (monotonic), the loads (their kinds say whether they write or read), the
 * device's counters at both ends (NULL: none). */
void session_load_window_calc(const struct load *loads, size_t n_loads, uint64_t from_ns,
			      uint64_t to_ns, const struct kstat_disk *from,
			      const struct kstat_disk *to, struct session_load_window *out);

const char *session_phase_name(enum session_phase p);
/* Samples taken and planned; estimated time left (0 when unknown). */
void session_progress(const struct session *s, size_t *done, size_t *planned,
		      uint64_t *eta_ns);
/* Durations in ms of the successful (and timed-out) samples of one group;
 * epoch UINT32_MAX = all epochs.  Samples that were not cold are left out
 * unless cfg.keep_warm or the action cannot be made cold with this eviction
 * (action_cold_only()).  Returns the count written (<= max). */
size_t session_durations(const struct session *s, enum action_kind a, uint32_t epoch,
			 enum session_phase phase, double *out, size_t max);

#endif
