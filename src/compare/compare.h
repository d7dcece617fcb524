/* compare — `brisk compare`'s engine: settings ("arms") measured side by
 * side in interleaved rounds, and the verdicts drawn from them.  The batch
 * command (src/cmd/cmd_compare.c) and the dashboard's compare screen
 * (ui/) both drive this one engine.
 *
 *   compare_create -> compare_run: for each round, every arm once in a
 *   rotated order:  apply arm (settings_transaction, read back)
 *                   -> one session (prepare, settle, warm-up, loaded
 *                      samples, stop, files removed)
 *                   -> settings put back (journal)
 *                   -> compare_analyze at each look
 *   -> compare_analyze(final)
 *
 * Contract:
 *  - Arms are checked completely before anything runs (compare_arm_parse
 *    against every leaf disk of the stack): a key the disk lacks, a bad
 *    value or a scheduler a disk does not offer is refused with a message
 *    and nothing is changed.  Arm 0 is the baseline.
 *  - Settings are changed only through settings_apply_plan() (one
 *    journaled transaction, verified by read-back) and every one is put
 *    back (settings_restore) after each arm-run, whatever happened in it,
 *    before the next arm is applied.  SIGINT, SIGTERM and SIGHUP are
 *    blocked from compare_run()'s start to its end and read by the
 *    running session's signalfd or checked between arm-runs: either way
 *    the current arm-run ends early, its settings are put back, its files
 *    are removed, and compare_run() returns with stop_signal set.  After
 *    SIGKILL the journal is left for `brisk restore` (as with run).
 *  - Each arm-run is a fresh session with the workload template of the
 *    config (its warm-up: as brisk run's, the samples begin once writeback
 *    is under way, when a desktop stalls most; cfg.steady: once the
 *    writer is held at the dirty limits), idle_samples 0, loaded_samples = samples per action, and a
 *    settle step (session_config.settle_*): after the arm is applied and
 *    the files are made, the session syncs the file system in a child and
 *    waits until Dirty + Writeback fall to the level measured when the
 *    comparison started (+ a margin), or settle_max_ns (reported).
 *  - Order: round r runs arm (r + k) mod n_arms at position k, rotated by
 *    a seeded random offset; every arm is in every position equally
 *    often over n_arms rounds.  The seed is stored.
 *  - Budget: rounds_max from cfg.rounds, else as many rounds as fit into
 *    cfg.budget_ns at the mean round time seen so far (at least
 *    COMPARE_MIN_ROUNDS unless stopped).
 *  - Sequential stopping: at most `looks` (L) analyses may stop the
 *    comparison: interim ones after about 1/L, 2/L, ... of the rounds, and
 *    the final one.  Each interim look tests at the family-wise level
 *    alpha * COMPARE_INTERIM_SHARE, the final one at what is left,
 *    alpha - (L - 1) * that (a Bonferroni split over the looks, unequal
 *    in the Haybittle-Peto way: the levels add up to alpha, so the
 *    false-positive rate of the whole comparison stays <= alpha however
 *    the looks fall, while the final look keeps nearly all of the power;
 *    only a large difference stops a comparison early).  At a look, an
 *    arm x action is settled when its verdict is faster or slower at
 *    that level, or when its run ratio interval lies inside
 *    [1/COMPARE_EQUIV, COMPARE_EQUIV] (no difference that matters;
 *    stopping for it can only cost power).  The comparison stops early
 *    when every cell is settled.
 *  - Statistics (compare_analyze): per arm and action, cold samples only
 *    (warm and timed-out samples are counted apart; a timed-out sample
 *    counts at its watchdog limit).  Quantile CIs and the ratio CIs
 *    against the baseline are two-stage bootstraps (resample the
 *    arm-runs, then the samples within each: samples of one arm-run share
 *    its load state and are not independent).  The test per arm x action
 *    against the baseline is Welch's t on the log of the arm-runs'
 *    geometric means (the arm-run is the unit; Mann-Whitney on the
 *    samples gave
 *    15-45 % family-wise false alarms on clustered data, see stats.h),
 *    p = 1 while a side has fewer than 2 runs; Holm-corrected over all of
 *    them; verdict by stats_verdict() at the look's level with the Welch
 *    interval of the same model (ratio_runs: the ratio of the arms'
 *    typical arm-runs, each summarised by the geometric mean of its
 *    samples, so a stall that hits the first sample of every run counts
 *    where a median of three would drop it).  The pooled two-stage bootstrap intervals
 *    (ratio50, ratio90) are shown beside it; they are wider where an
 *    arm-run mixes a stall with quiet samples, and they do not decide.
 *  - The load's figures of every arm-run are taken over the same window
 *    of its loaded phase (session.h, the load window): cfg.load_window_ns
 *    from the point the samples begin, the loaded phase held that long
 *    at least, so a fast arm and a slow one are measured over the same
 *    stretch of the load.  The comparable figure is what reached the disk
 *    in it (disk_mibps: the file system device's sectors written, and
 *    read for a reading load); the loads' own read()/write() rate
 *    (load_mibps) counts bursts into the page cache and is shown apart.
 *  - Ranking: the geometric mean of the arm's p90 ratios over the actions
 *    (baseline = 1; lower is better), among the arms whose mean disk
 *    throughput (the loads' own rate when an arm has no device counters)
 *    is at least (100 - COMPARE_LOAD_TOLERANCE_PCT) % of the
 *    best arm's (arms below it are ranked after, and said to starve the
 *    load: a copy that takes more than twice as long).  The
 *    recommendation is the first arm of the ranking when it is faster
 *    than the baseline on at least one action and slower on none; it
 *    names the load throughput it costs when that is more than
 *    COMPARE_LOAD_COST_PCT % below the baseline's (a trade, said plainly);
 *    else the text says no arm is distinguishable from (or better than)
 *    the baseline.
 *  - Nothing here prints: progress and the per-run news go through the
 *    hooks; messages land in result.msgs.
 */
#ifndef BRISK_COMPARE_H
#define BRISK_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "session.h"
#include "settings.h"
#include "stats.h"

#define COMPARE_MAX_ARMS 8
#define COMPARE_MIN_ROUNDS 3
#define COMPARE_INTERIM_SHARE 0.05        /* of alpha, per interim look */
#define COMPARE_MAX_ROUNDS 1000
#define COMPARE_DEFAULT_BUDGET_NS (10ull * 60 * 1000000000ull)   /* a coffee break */
#define COMPARE_DEFAULT_SAMPLES 3         /* per action and arm-run */
#define COMPARE_EQUIV 1.10                /* equivalence margin for settling */
#define COMPARE_LOAD_TOLERANCE_PCT 50.0   /* ranking: load throughput kept */
#define COMPARE_LOAD_COST_PCT 5.0         /* recommendation: a cost worth naming */
#define COMPARE_LOAD_WRITES 1u
#define COMPARE_LOAD_READS 2u
#define COMPARE_LOAD_WINDOW_NS (10ull * 1000000000ull)   /* the load window */
#define COMPARE_ALPHA 0.05
#define COMPARE_LEVEL 0.95
#define COMPARE_BOOT_ITERS 2000
#define COMPARE_MAX_MSGS 32

struct compare_arm {
	char name[160];          /* as given: "current", "scheduler=bfq,low_latency=1",
				  * "desktop", "./my.ini" */
	char label[48];          /* short, for tables and the plot: "bfq" */
	char settings[256];      /* what it sets, "scheduler=bfq low_latency=1";
				  * "" for current */
	struct settings_step *steps;   /* per disk, checked and canonical; dev
					* points into compare.st.devs */
	size_t n_steps;
};

struct compare_config {
	struct session_config run;    /* the workload (loads, actions, timing) */
	unsigned samples;             /* loaded samples per action and arm-run */
	unsigned rounds;              /* 0: by budget */
	uint64_t budget_ns;           /* when rounds is 0 */
	uint64_t seed;
	unsigned looks;               /* L, >= 1 (default 3) */
	double alpha;                 /* family-wise, default COMPARE_ALPHA */
	uint64_t settle_max_ns;       /* default 60 s */
	int keep_warm;                /* warm samples count in the statistics */
	int steady;                   /* sample the load's steady state: warm-up
				       * until Dirty + Writeback stop growing
				       * (session warmup_plateau) */
	uint64_t load_window_ns;      /* every arm-run's load window (session.h);
				       * default COMPARE_LOAD_WINDOW_NS */
};

/* One sample of one arm-run. */
struct compare_sample {
	uint32_t arm, round, order;   /* order: the arm's position in its round */
	uint32_t run;                 /* index into result.runs */
	uint8_t action;               /* enum action_kind */
	uint8_t cold, timeout;
	int32_t err;                  /* 0 ok, else as session_sample.err */
	double ms;                    /* duration; NaN when it failed */
	uint64_t t_ns;                /* start, relative to the comparison's start */
};

/* One arm-run. */
struct compare_run {
	uint32_t arm, round, order;
	uint64_t t_ns, dur_ns;        /* start (relative), length */
	double load_mibps;            /* all loads' read()/write() rate over the load
				       * window; NaN: none */
	double disk_mibps;            /* what reached the disk for them in it
				       * (session_load_window); NaN: no counters */
	double disk_wr_mibps, disk_rd_mibps;   /* the device's written and read */
	double window_s;              /* the load window's length */
	double worst_stall_ms;        /* worst single load call in it; NaN: none */
	double settle_s;              /* time the settle step took */
	int settle_timeout;           /* it gave up (settle_max_ns) */
	double settle_left_mib;       /* Dirty + Writeback above the level, then */
	int failed;                   /* settings or the session failed */
	char note[200];
};

/* One arm x action. */
struct compare_cell {
	size_t n;                     /* samples in the statistics */
	unsigned cold, warm, timeouts, errors;
	double min, mean, max;        /* runt-min/avg/max, ms */
	struct stats_ci p50, p90, p99, pmax;
	struct stats_ci ratio50, ratio90;   /* arm / baseline of the pooled median
					       * and p90, two-stage bootstrap; NaN
					       * for arm 0 */
	struct stats_ci ratio_runs; /* arm / baseline of the typical arm-run
				       * (geometric mean of its samples, then
				       * over the arm-runs), Welch 95 % interval: what
				       * the test and the verdict rest on */
	double p, p_adj;              /* Welch on log run means, Holm-adjusted;
				       * NaN for arm 0 */
	enum stats_verdict verdict;
	int settled;                  /* at the last look */
};

struct compare_armstat {
	size_t runs, failed_runs;
	struct stats_ci load_mibps;   /* mean over its arm-runs, CI over them */
	struct stats_ci disk_mibps;   /* the same of what reached the disk */
	double worst_stall_ms;
	double score;                 /* geometric mean of p90 ratios; NaN */
	int load_ok;                  /* throughput within the tolerance */
};

struct compare_result {
	struct compare_arm arms[COMPARE_MAX_ARMS];
	size_t n_arms;
	unsigned actions;             /* mask of 1 << enum action_kind */
	struct compare_sample *samples;
	size_t n_samples, cap_samples;
	struct compare_run *runs;
	size_t n_runs, cap_runs;

	struct compare_cell cells[COMPARE_MAX_ARMS][ACTION_KIND_COUNT];
	struct compare_armstat armstat[COMPARE_MAX_ARMS];
	size_t ranking[COMPARE_MAX_ARMS];   /* arm indexes, best first */
	size_t n_ranked;
	int best;                     /* recommended arm, -1 when none */
	int load_by_disk;             /* the load rule goes by disk_mibps (every arm
				       * with a load figure has one), else by
				       * load_mibps */
	uint64_t load_window_ns;      /* the load window asked for */
	unsigned load_dirs;           /* COMPARE_LOAD_WRITES | _READS: what the loads do */
	char load_dev[32];            /* the device of the disk figures ("" none) */
	char recommendation[512];
	char rule[640];               /* the ranking rule, in words */

	unsigned rounds_done, rounds_max;
	unsigned looks, looks_taken;
	double alpha, alpha_look;     /* family-wise; the level of the latest look */
	int stopped_early;            /* every verdict settled at a look */
	int stop_signal;              /* signal that stopped it, 0 if none */
	int stop_requested;           /* compare_stop() */
	uint64_t seed;
	uint64_t t_start_real;        /* CLOCK_REALTIME s at the start */
	uint64_t t_ns;                /* elapsed */
	uint64_t dirty_level;         /* Dirty + Writeback bytes at the start */
	char dir[4096];
	char stackline[512];          /* "ext4 on loop0 (FUSE hdd-7200)" */
	char disks[512];              /* "loop0: model X fw Y; ..." */
	char workload[512];           /* loads and actions in words */
	struct child_cred ran_as;     /* who the arm-runs' samples ran as ... */
	int have_ran_as;              /* ... once one has run */
	char msgs[COMPARE_MAX_MSGS][256];
	size_t n_msgs;
};

/* The figure the load rule goes by for an arm (load_by_disk): MiB/s, NaN
 * when it has none; and its interval. */
double compare_load_figure(const struct compare_result *r, size_t arm);
const struct stats_ci *compare_load_ci(const struct compare_result *r, size_t arm);

struct compare;

/* Hooks for a front end; any may be NULL.
 *  session: a new arm-run's session was created (wire ticks, fds to it);
 *  armrun:  an arm-run ended (its settings were put back) and the result
 *           was re-analysed (verdicts at the latest look's level: only a
 *           look can stop the comparison); called once more at the end,
 *           after the final analysis. */
struct compare_hooks {
	void (*session)(void *ctx, struct compare *c, struct session *s);
	void (*armrun)(void *ctx, struct compare *c);
	void *ctx;
};

void compare_config_default(struct compare_config *cfg);
/* The family-wise level of a look (see Sequential stopping). */
double compare_look_alpha(double alpha, unsigned looks, int final);

/* Parse one ARM (see above) against the disks of st into *out:
 * "current"; KEY=VALUE[,KEY=VALUE...] as brisk set takes them (a
 * scheduler first makes iosched keys check against it, whatever the
 * order given); else a profile name or file (its [settings], per disk
 * class).  0; -EINVAL/-ENOENT/-ERANGE with a message in err (nothing
 * is changed); -ENOMEM. */
int compare_arm_parse(const char *text, const struct settings *st, struct compare_arm *out,
		      char *err, size_t errlen);
void compare_arm_free(struct compare_arm *a);
/* "--schedulers": current, then one arm per other scheduler that every
 * disk of st offers.  Returns the count (<= max). */
size_t compare_arms_schedulers(const struct settings *st, struct compare_arm *out, size_t max,
			       char *err, size_t errlen);

/* Take arms[0..n) (moved: the caller's copies are emptied), the
 * settings (devs of the stack, root) and the config.  0, or -EINVAL
 * (fewer than 2 arms, more than COMPARE_MAX_ARMS, no action, bad
 * config; message in err), -EPERM (not root: arms change settings),
 * -ENOMEM. */
int compare_create(const struct compare_config *cfg, struct settings *st,
		   struct compare_arm *arms, size_t n, struct compare **out,
		   char *err, size_t errlen);
/* What the front end knows of the comparison, for the reports (copied,
 * any may be NULL): "ext4 on loop0", the disks' models/firmware, the
 * workload in words. */
void compare_set_context(struct compare *c, const char *stackline, const char *disks,
			 const char *workload);
/* The workload in words ("load seq-write:... ; actions ls ssh-like; 3
 * samples per action and arm-run") and the leaf disks in words ("sda:
 * ATA WDC... fw 01.0, rotational; ..."), for compare_set_context(). */
void compare_describe_workload(const struct session_config *c, unsigned samples, char *out,
			       size_t len);
struct blockdev;
void compare_describe_disks(const struct blockdev *const *leaves, size_t n, char *out,
			    size_t len);
/* Run the rounds.  0 when it ran to its end, was stopped early by the
 * sequential rule, by a signal (result.stop_signal) or compare_stop();
 * -errno with a message when it could not run (settings could not be
 * applied or put back: the run stops at once, the journal keeps what is
 * left for brisk restore). */
int compare_run(struct compare *c, const struct compare_hooks *hooks, char *err,
		size_t errlen);
/* Stop after the current arm-run's session ends (it is told to stop). */
void compare_stop(struct compare *c);
/* Recompute the statistics, verdicts and ranking from the samples so far.
 * compare_run does it after every arm-run, at each look and at the end;
 * a front end needs it only for a result it changed.  0 or -ENOMEM. */
int compare_analyze(struct compare *c);
const struct compare_result *compare_result(const struct compare *c);
/* Progress: the arm-run under way (arm index, round), rounds done and
 * planned, estimated time left (0 unknown): the arm-runs left, each at
 * its arm's mean arm-run time so far plus the mean time between arm-runs
 * (the one under way counting down); during the first, the budget left,
 * or (--rounds) that run's own session estimate for each. */
void compare_progress(const struct compare *c, size_t *arm, unsigned *round,
		      unsigned *rounds_max, uint64_t *eta_ns);
/* The session of the arm-run under way, NULL between arm-runs. */
struct session *compare_session(const struct compare *c);
void compare_free(struct compare *c);

#endif
