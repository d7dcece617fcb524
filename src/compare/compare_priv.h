/* compare_priv — what compare.c and compare_analyze.c
 * share and nothing else includes.  The contract is compare.h's.
 *
 *   compare.c          create, the rounds, one arm-run, progress, free
 *   compare_analyze.c  statistics, verdicts, looks, ranking
 */
#ifndef BRISK_COMPARE_PRIV_H
#define BRISK_COMPARE_PRIV_H

#include "compare.h"

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
};

/* The analysis at a look (final: the last one): stats, verdicts at
 * alpha / looks, settled flags, ranking.  Returns 1 when every arm x
 * action is settled, 0 otherwise, -ENOMEM. */
int compare_analyze_look(struct compare *c);

#endif
