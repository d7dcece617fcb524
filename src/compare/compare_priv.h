/* compare_priv — what compare.c and compare_analyze.c
 * share and nothing else includes.  The contract is compare.h's.
 *
 *   compare.c          create, the rounds, one arm-run, progress, free
 *   compare_analyze.c  statistics, verdicts, looks, ranking
 *   compare_race.c     the race: who leaves it, when it ends
 */
#ifndef BRISK_COMPARE_PRIV_H
#define BRISK_COMPARE_PRIV_H

#include "compare.h"

struct compare;
/* A stand-in for the session of an arm-run (tests/helpers/race_sim.c and
 * the units): fills the samples and figures of r.runs[idx] of arm in
 * round.  0 or -errno. */
typedef int (*compare_sim_fn)(struct compare *c, size_t arm, unsigned round, uint32_t idx,
			      void *ctx);

struct compare {
	struct compare_config cfg;
	struct settings *st;           /* the caller's: devices, root, journal */
	struct compare_result r;
	struct session *cur;           /* arm-run under way, else NULL */
	size_t cur_arm;
	unsigned cur_round;
	uint64_t t0;                   /* monotonic start */
	uint64_t run_ns_sum;           /* arm-runs' time, for the estimate */
	size_t run_ns_n;
	compare_sim_fn sim;            /* NULL: real sessions */
	void *sim_ctx;
	unsigned race_held;            /* race looks whose winner compare could not
				        * recommend yet (the rounds went on) */
	int stale;                     /* the analysis lags the arm-runs (simulated
				        * or replayed ones are analysed at looks) */
	struct compare_run *rp_runs;   /* compare_replay()'s, until taken */
	struct compare_sample *rp_samples;
	size_t rp_n_runs, rp_n_samples;
	unsigned char *rp_taken;
};

/* The analysis at a look (final: the last one): stats, verdicts at
 * alpha / looks, settled flags, ranking.  Returns 1 when every arm x
 * action is settled, 0 otherwise, -ENOMEM. */
int compare_analyze_look(struct compare *c);
/* A race look after round `done` (the analysis current): drops the arms
 * shown slower than the leader or starving the load, and ends the race
 * when it can (r.race_end): a winner other than the baseline only once
 * the analysis recommends it (else race_held counts the look).  1 when it
 * ended, 0 otherwise, -ENOMEM. */
int compare_race_look(struct compare *c, unsigned done);
/* The bootstrap replicates of the quantile intervals, process-wide (0:
 * COMPARE_BOOT_ITERS): the race simulation, which reads only the run
 * ratios, takes fewer. */
void compare_boot_iters(unsigned iters);


#endif
