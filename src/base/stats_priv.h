/* stats_priv — what stats.c and stats_boot.c share and nothing else
 * includes.  The contract is stats.h's.
 *
 *   stats.c       descriptive figures, tests, Holm, verdicts, the generator,
 *                 Student t, the order-statistic median interval
 *   stats_boot.c  the bootstraps (plain, grouped, paired) and the
 *                 per-cluster summaries
 */
#ifndef BRISK_STATS_PRIV_H
#define BRISK_STATS_PRIV_H

#include <stddef.h>

/* A value and its position, for an index sort. */
struct stats_key {
	double v;
	size_t i;
};

/* Sort k[0..n) by v ascending, ties by i: a total order, so the result
 * does not depend on qsort's (unstable) algorithm. */
void stats_key_sort(struct stats_key *k, size_t n);
/* 1 when every v[0..n) is finite. */
int stats_all_finite(const double *v, size_t n);

#endif
