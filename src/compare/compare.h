/* compare — `brisk compare`'s engine: settings ("arms") measured side by
 * side in interleaved rounds, and the verdicts drawn from them.  The batch
 * command (src/cmd/cmd_compare.c) and the dashboard's compare screen (ui/)
 * both drive it: compare_create, compare_run (each round runs every arm
 * once in a rotated order: apply it, one session, put every setting back,
 * analyse at each look), the result.  Settings change only through
 * settings_apply_plan() and are put back after every arm-run whatever
 * happened in it; SIGINT, SIGTERM and SIGHUP are blocked during
 * compare_run() and end the arm-run under way (result.stop_signal).
 * Nothing here prints: progress goes through the hooks, messages into
 * result.msgs.  The rules (order, budget, settle, looks, statistics, the
 * load's figures, ranking) are brisk-compare(1)'s.
 */
#ifndef BRISK_COMPARE_H
#define BRISK_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "compare_split.h"
#include "session.h"
#include "settings.h"
#include "stats.h"

#define COMPARE_MAX_ARMS 64   /* brisk tune races tens of arms */
#define COMPARE_MIN_ROUNDS 3
#define COMPARE_INTERIM_SHARE 0.05        /* of alpha, per interim look */
#define COMPARE_MAX_ROUNDS 1000
#define COMPARE_DEFAULT_BUDGET_NS (10ull * 60 * 1000000000ull)   /* a coffee break */
#define COMPARE_DEFAULT_SAMPLES 3         /* per action and arm-run */
#define COMPARE_MARGIN 1.20               /* --margin: equivalent within x1.20 either
					   * way (brisk-compare(1) says why) */
#define COMPARE_MARGIN_MIN 1.01
#define COMPARE_MARGIN_MAX 2.0
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
	int load_ionice;         /* load.ionice=...: every load process of its
				  * arm-runs gets this I/O priority (loadprio.h;
				  * nothing journaled) */
	int ioprio_class, ioprio_level;
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
	double margin;                /* equivalence margin, a ratio in
				       * [COMPARE_MARGIN_MIN, _MAX] */
	int no_racing;                /* every arm runs every round (--no-racing) */
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
	struct timesplit split;       /* where its time went (split.ok: measured) */
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
	double p_equiv, p_equiv_adj;  /* TOST within the margin on the same, Holm
				       * over the cells on their own; NaN for arm 0 */
	enum stats_verdict verdict;   /* STATS_NO_DIFFERENCE reads "undecided" */
	int settled;                  /* faster, slower or equivalent at the last look */
	int more_rounds;              /* undecided: rounds more of each side that would
				       * likely settle it at this look's level, were the
				       * estimate and the spread the true ones; -1 none */
};

struct compare_armstat {
	size_t runs, failed_runs;
	struct stats_ci load_mibps;   /* mean over its arm-runs, CI over them */
	struct stats_ci disk_mibps;   /* the same of what reached the disk */
	double worst_stall_ms;
	double score;                 /* geometric mean of p90 ratios; NaN */
	int load_ok;                  /* throughput within the tolerance */
};

/* The race (brisk-compare(1) RACING): after each round from
 * COMPARE_MIN_ROUNDS, an arm shown slower than the leader, or starving
 * the load, leaves it and runs no more. */
enum compare_race_end {
	COMPARE_RACE_OFF = 0,      /* --no-racing */
	COMPARE_RACE_RUNNING,      /* not ended (yet) */
	COMPARE_RACE_WINNER,       /* the leader is shown faster than every arm left */
	COMPARE_RACE_EQUIVALENT,   /* the arms left are equivalent to the leader */
	COMPARE_RACE_SETTLED,      /* every verdict against the baseline settled */
	COMPARE_RACE_BUDGET,       /* the budget or --rounds ran out first */
	COMPARE_RACE_STOPPED,      /* a signal, compare_stop() or an error */
};
const char *compare_race_end_name(enum compare_race_end e);
/* The arms still in the race (all of them without racing). */
struct compare_result;
size_t compare_race_left(const struct compare_result *r);
/* For a progress line, once an arm has left: " (12 of 21 arms left; out
 * after round 3: kyber, slower than bfq, the leader)", the last to leave
 * and why in short; "" before (and without racing). */
void compare_race_progress(const struct compare_result *r, char *buf, size_t len);

struct compare_race {
	int out;                      /* left the race */
	unsigned out_round;           /* after this round (1-based), when out */
	unsigned runs;                /* arm-runs it ran */
	double ratio, lo, hi;         /* when out: its typical arm-run over the
				       * leader's, 95 % interval; NaN for the load */
	char leader[48];              /* the leader's label then */
	char why[200];                /* in words */
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
	/* where the time went, per arm and action: the breakdowns of the
	 * samples each cell counts (compare_split.h) */
	struct compare_split splits[COMPARE_MAX_ARMS][ACTION_KIND_COUNT];
	struct compare_split_state split_state;
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
	char recommendation[1024];    /* ends with the reason, when there is one */
	char reason[COMPARE_SPLIT_REASON_LEN];   /* where the time went of the arms it
						  * names (compare_split_reason); "" none */
	char rule[800];               /* the ranking rule, in words */

	unsigned rounds_done, rounds_max;
	unsigned looks, looks_taken;
	double alpha, alpha_look;     /* family-wise; the level of the latest look */
	double margin;                /* equivalence margin (ratio) */
	int more_rounds;              /* the largest cell's more_rounds; -1 none */
	struct compare_race race[COMPARE_MAX_ARMS];
	enum compare_race_end race_end;
	int race_leader;              /* arm index, -1 none */
	unsigned race_looks;          /* race looks taken */
	double race_level;            /* the level of the latest */
	char race_words[320];         /* how the race ended, in words */
	int stopped_early;            /* every verdict settled at a look */
	size_t replayed_runs;         /* arm-runs taken from compare_replay() */
	int stop_signal;              /* signal that stopped it, 0 if none */
	int stop_requested;           /* compare_stop() */
	uint64_t seed;
	uint64_t t_start_real;        /* CLOCK_REALTIME s at the start */
	uint64_t t_ns;                /* elapsed */
	uint64_t dirty_level;         /* Dirty + Writeback bytes at the start */
	char dir[4096];
	char command[16];             /* the brisk command the reports name:
				       * "compare", or "tune" */
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

/* Each arm-run's typical time in log, in one pass over the samples: per
 * action, the mean log ms of the samples the statistics count (keep_warm:
 * warm ones too), and the mean of that over the actions (the race's
 * score).  out holds COMPARE_RUN_LOG_COLS columns of n_runs values:
 * out[c * n_runs + i] is runs[i]'s, column 0 the score, column 1 + k
 * action k's; NaN where an action has no such sample (the score: where
 * one of the actions has none).  0 or -ENOMEM. */
#define COMPARE_RUN_LOG_COLS (1 + ACTION_KIND_COUNT)
int compare_run_logs(const struct compare_result *r, int keep_warm, double *out);

/* A verdict in compare's words: "faster", "slower", "equivalent",
 * "undecided" (STATS_NO_DIFFERENCE: neither shown yet). */
const char *compare_verdict_name(enum stats_verdict v);

struct compare;

/* Hooks for a front end, any NULL: session when an arm-run's session was
 * created; armrun when an arm-run ended (settings put back, result
 * re-analysed), and once more after the final analysis. */
struct compare_hooks {
	void (*session)(void *ctx, struct compare *c, struct session *s);
	void (*armrun)(void *ctx, struct compare *c);
	void *ctx;
};

void compare_config_default(struct compare_config *cfg);
/* The family-wise level of a look (alpha split over the looks). */
double compare_look_alpha(double alpha, unsigned looks, int final);

/* Parse one ARM ("current", KEY=VALUE[,...], a profile) and check it on
 * every disk of st.  0; -EINVAL, -ENOENT, -ERANGE with a message in err;
 * -ENOMEM. */
int compare_arm_parse(const char *text, const struct settings *st, struct compare_arm *out,
		      char *err, size_t errlen);
void compare_arm_free(struct compare_arm *a);
/* Tables show a label's first COMPARE_LABEL_COLS columns: an arm whose
 * label begins as another's does there gets its index in front ("3:bdi.s"),
 * so no two rows read alike. */
#define COMPARE_LABEL_COLS 10
void compare_arms_label_unique(struct compare_arm *arms, size_t n);
/* What the arm sets on the loads themselves (load.ionice), into the
 * config of one of its arm-runs: each load spec's I/O priority. */
void compare_arm_session(const struct compare_arm *a, struct session_config *sc);
/* --schedulers: current, then one arm per other scheduler every disk of
 * st offers; the count (<= max). */
size_t compare_arms_schedulers(const struct settings *st, struct compare_arm *out, size_t max,
			       char *err, size_t errlen);

/* Take arms[0..n) (moved out of the caller's), the stack's settings and
 * the config.  0; -EINVAL (2..COMPARE_MAX_ARMS arms, an action, a sane
 * config needed) or -EPERM (not root) with a message in err; -ENOMEM. */
int compare_create(const struct compare_config *cfg, struct settings *st,
		   struct compare_arm *arms, size_t n, struct compare **out,
		   char *err, size_t errlen);
/* The brisk command the reports' titles name ("compare" unless set;
 * copied, cut at 15 bytes). */
void compare_set_command(struct compare *c, const char *command);
/* The stack, disks and workload in words for the reports (copied; any
 * may be NULL). */
void compare_set_context(struct compare *c, const char *stackline, const char *disks,
			 const char *workload);
/* The workload and the leaf disks in words, for compare_set_context(). */
void compare_describe_workload(const struct session_config *c, unsigned samples, char *out,
			       size_t len);
struct blockdev;
void compare_describe_disks(const struct blockdev *const *leaves, size_t n, char *out,
			    size_t len);
/* Continue an earlier comparison (brisk tune --resume): its finished
 * arm-runs and their samples (copied, breakdowns too) stand in
 * for a session when compare_run reaches the same arm in the same round
 * (the same arms and seed order the rounds alike); their time counts in
 * the budget.  Before compare_run; 0, -EINVAL (an arm or run out of
 * range, a round given twice), -ENOMEM. */
int compare_replay(struct compare *c, const struct compare_run *runs, size_t n_runs,
		   const struct compare_sample *samples, size_t n_samples);
/* Run the rounds.  0 when it ended, also early (the sequential rule, a
 * signal, compare_stop()); -errno with a message in err when a setting
 * could not be applied or put back (the journal keeps it for restore). */
int compare_run(struct compare *c, const struct compare_hooks *hooks, char *err,
		size_t errlen);
/* Stop after the current arm-run's session ends (it is told to stop). */
void compare_stop(struct compare *c);
/* Recompute statistics, verdicts and ranking from the samples so far (as
 * compare_run does after every arm-run).  0 or -ENOMEM. */
int compare_analyze(struct compare *c);
const struct compare_result *compare_result(const struct compare *c);
/* The arm-run under way (arm, round), the rounds planned and the time
 * left (0: unknown), as brisk-compare(1) OUTPUT describes. */
void compare_progress(const struct compare *c, size_t *arm, unsigned *round,
		      unsigned *rounds_max, uint64_t *eta_ns);
/* The session of the arm-run under way, NULL between arm-runs. */
struct session *compare_session(const struct compare *c);
void compare_free(struct compare *c);

#endif
