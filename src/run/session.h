/* session — one measurement run (brisk run, each arm-run of compare, the
 * dashboard): prepare -> [settle] -> idle baseline -> start load -> warm-up
 * -> loaded -> stop -> exit hooks -> cleanup.  One process, one poll() loop
 * over the children's pipes, a timerfd that samples the disks, PSI and
 * meminfo every tick, a signalfd and a front end's own fds; no threads.
 * Every action sample is a fresh process; files only in DIR/.brisk-XXXXXX,
 * reached by descriptor and removed on every way out.  What users see of
 * it is in brisk-run(1) (phases, work area, safety, load ending early, load
 * window), brisk-compare(1) (settle, dirty plateau) and brisk-profile(5)
 * (concurrent samples); the code's own rules sit beside it in session*.c.
 * Times are CLOCK_MONOTONIC ns; stored ones are relative to t0.  Front
 * ends read struct session and change it only through these functions.
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
#include "timesplit.h"

#define SESSION_MAX_LOAD_SPECS 16
#define SESSION_MAX_DEVS 8
#define SESSION_MAX_MSGS 32
#define SESSION_SETTINGS_LEN 256
#define SESSION_MAX_INFLIGHT 64    /* cfg.concurrency at most */
#define SESSION_MAX_STARTS 256     /* scheduled samples at most */
#define SESSION_MAX_AREAS (1 + SESSION_MAX_LOAD_SPECS)   /* DIR's + load dirs' */

enum session_phase {
	SESSION_PREPARE,
	SESSION_SETTLE,
	SESSION_IDLE,
	SESSION_WARMUP,
	SESSION_LOADED,
	SESSION_STOP,
	SESSION_DONE,
};

/* One scheduled sample of the loaded phase (cfg.starts): forked t_ns after
 * the phase began, or once entry `after` ended and gap_ns more passed. */
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
					  * growing, not at writeback (compare) */
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
	int open_ended;                  /* loaded phase until stopped (dashboard):
					  * no sample count or duration */
	int allow_shared_dir;            /* root: run in a DIR others can write */
	int keep_warm;                   /* warm samples count in the statistics */
	uid_t trusted_uid;               /* SUDO_UID; (uid_t)-1 when none */
	uint64_t settle_max_ns;          /* 0 = no settle step (compare: syncfs, then
					  * wait for Dirty + Writeback) */
	uint64_t settle_target;          /* bytes of Dirty + Writeback to wait for */
	unsigned first_action;           /* samples begin with the configured action
					  * at this index (modulo their count, in
					  * kind order), then go round-robin */
	unsigned concurrency;            /* samples in flight at most; 0/1 = one at a time */
	size_t n_starts;                 /* scheduled samples; 0 = no schedule */
	struct session_start starts[SESSION_MAX_STARTS];
	int load_finite;                 /* a load ending early is on purpose */
	uint64_t load_window_ns;         /* the load window from the loaded phase's
					  * start, which then lasts that long at
					  * least; 0 = the whole loaded phase */
	int no_breakdown;                /* do not measure where the time went */
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
	struct timesplit split;   /* where its time went (split.ok: measured) */
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
	uint32_t stacks;            /* behind which directories: bit 0 DIR,
				     * bit 1 + k loaddirs[k] */
};

/* The file system's own block device (the top of DIR's stack) and its
 * counters at the ends of the load window. */
struct session_fsdev {
	char name[32];              /* "" when DIR has no block device */
	int ok_last;                /* last read at the latest tick */
	struct kstat_disk last;
	int ok_from, ok_to;         /* counters read at that end */
	struct kstat_disk from, to;
	uint64_t t_from, t_to;      /* relative to t0; 0 = not reached */
};

/* A load directory with a work area of its own (a load's dir= naming
 * another directory than DIR): where it is and what it is on. */
struct session_loaddir {
	char dir[LOAD_DIR_MAX];     /* as the spec gave it */
	char workdir[PATH_MAX];     /* dir/.brisk-X while it exists; "" */
	char fstype[32];
	char dev[32];               /* its file system's block device; "" none */
	uint64_t floor_bytes;       /* its writers stop above this free space */
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
	struct session_fsdev fsdev;   /* the load window's device: the top of
				       * the loads' stack (DIR's, or their dir='s
				       * when all of them are elsewhere) */
	struct session_loaddir loaddirs[SESSION_MAX_LOAD_SPECS];   /* areas of their own */
	size_t n_loaddirs;
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
	int split_on;                 /* samples carry their breakdown (iowhy) */
	char split_off[256];          /* else why not, in a sentence */

	struct session_run *run;      /* session.c's own: descriptors, hooks, the loop */
};

/* Validate and copy cfg, open DIR.  0, or -errno with a message in err
 * (-EPERM: as root, a DIR others can write; -ENODEV: a kernel file system). */
int session_create(const struct session_config *cfg, struct session **out,
		   char *err, size_t errlen);
/* brisk run's defaults; trusted_uid from SUDO_UID. */
void session_config_default(struct session_config *cfg);
/* Run every phase to the end; meanwhile SIGINT, SIGTERM, SIGHUP, SIGCHLD
 * are blocked and read by the loop, which reaps every child of the process.
 * 0 when it ran (also when stopped: stop_signal); -errno with a message in
 * err when it could not (-EOVERFLOW: the loads' sizes), nothing left behind. */
int session_run(struct session *s, char *err, size_t errlen);
/* Run the exit hooks if session_run() never did, free everything. */
void session_free(struct session *s);

/* Start a new epoch named label now (settings changed): later samples carry it. */
int session_new_epoch(struct session *s, const char *label);
/* Run fn t_ns after the load started: a new epoch `label` on success, else
 * err as a message.  While one is pending the loaded phase ends on time. */
int session_at(struct session *s, uint64_t t_ns, session_at_fn fn, void *ctx,
	       const char *label);
/* Hooks run once, newest first, after the loads stopped and before the
 * files go, on every path out of session_run() (or session_free()). */
int session_on_exit(struct session *s, session_hook_fn fn, void *ctx);
/* Called after every system sampling tick (a dashboard redraws there). */
int session_on_tick(struct session *s, session_hook_fn fn, void *ctx);
/* Add an fd to the loop (a dashboard's terminal). */
int session_watch_fd(struct session *s, int fd, short events, session_fd_fn fn, void *ctx);
/* The wait status of a front end's own child, which the loop reaps (the
 * front end must not waitpid() it while the loop runs).  One hook; 0. */
int session_on_child(struct session *s, session_child_fn fn, void *ctx);
/* End the run as a signal would (from a hook or fd callback). */
void session_stop(struct session *s);
/* Stop the loads / start fresh instances of them (appended to loads[]),
 * each with a new epoch (load_on).  0; -EAGAIN before the load started or
 * once stopping; -EALREADY; -EBUSY while a stopped load is still exiting;
 * -ENOMEM; or load_start()'s error (the epoch starts if one instance runs). */
int session_loads_pause(struct session *s);
int session_loads_resume(struct session *s);
/* Give every load process the I/O priority cls/level (load_ionice_parse)
 * now, all their threads, and the instances a resume starts later
 * (load_set_ioprio: each load's spec holds it; cfg.loads keeps the
 * workload as configured, the epoch says when it changed).  0 or the
 * first -errno (-EPERM: rt needs root). */
int session_loads_ioprio(struct session *s, int cls, int level);
/* Record for the report a setting a profile put in place (KEY as a profile
 * writes it, VALUE as read back), once each.  -E2BIG no room, -EINVAL a blank. */
int session_note_setting(struct session *s, const char *key, const char *value);
/* The settings noted, "KEY=VALUE KEY=VALUE" ("" none). */
const char *session_noted_settings(const struct session *s);
/* Add a message (kept for the report). */
void session_msg(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The loads' figures over the load window (fsdev's counters at its ends):
 * 0, or -ENODATA when the loaded phase was not reached (*out NaN, 0 s). */
int session_load_window(const struct session *s, struct session_load_window *out);
/* The same from its parts (tests): the window [from_ns, to_ns], the loads,
 * the device's counters at both ends (NULL: none). */
void session_load_window_calc(const struct load *loads, size_t n_loads, uint64_t from_ns,
			      uint64_t to_ns, const struct kstat_disk *from,
			      const struct kstat_disk *to, struct session_load_window *out);

const char *session_phase_name(enum session_phase p);
/* Samples taken and planned; estimated time left (0 when unknown). */
void session_progress(const struct session *s, size_t *done, size_t *planned,
		      uint64_t *eta_ns);
/* Durations in ms of the successful and timed-out samples of one group
 * (epoch UINT32_MAX: all), warm ones left out as action_cold_only() says.
 * Returns the count written (<= max). */
size_t session_durations(const struct session *s, enum action_kind a, uint32_t epoch,
			 enum session_phase phase, double *out, size_t max);
/* The breakdowns of the same samples session_durations() counts (those
 * with one), as pointers into s->samples.  Returns the count (<= max). */
size_t session_splits(const struct session *s, enum action_kind a, uint32_t epoch,
		      enum session_phase phase, const struct timesplit **out, size_t max);

#endif
