/* compare_split — where each sample's time went, per arm and action, in
 * `brisk compare`: the summary of the breakdowns (timesplit.h) of the
 * samples each cell's statistics count, the words the text report and
 * the recommendation quote, and the JSON of them.  What the parts mean:
 * brisk-run(1) WHERE THE TIME WENT; how compare shows them:
 * brisk-compare(1).
 *
 * Contract:
 *  - A cell's breakdown is timesplit_sum() over the samples the cell's
 *    statistics count (its arm and action, no error, cold, or warm too
 *    with --keep-warm): the median sample (by wall time) of those measured
 *    whole, copied into the cell; each part's mean share over them;
 *    incomplete ones counted and left out.
 *  - The state: each arm-run's session says whether its samples were
 *    measured and why not (compare_split_note_run); --no-breakdown turns
 *    it off on purpose (no_breakdown), and then the text says nothing.
 *  - Words: a time with about three significant figures ("680 ms",
 *    "4.05 s"), a share in whole percent, a part in a few words ("on the
 *    disk", "queued").  Arm labels and process names are untrusted: the
 *    text escapes them to ASCII (compare_text.h), JSON carries them as
 *    they are (json-c escapes).  A figure not measured is "-" in the
 *    text and null in JSON, never 0.
 */
#ifndef BRISK_COMPARE_SPLIT_H
#define BRISK_COMPARE_SPLIT_H

#include <stddef.h>
#include <stdio.h>

#include "timesplit.h"

#define COMPARE_SPLIT_REASON_LEN 480

/* One arm x action. */
struct compare_split {
	size_t n_counted;            /* samples the cell's statistics count */
	size_t n_measured;           /* ... of them with a breakdown, whole or not */
	size_t n, n_incomplete;      /* measured whole; not whole (left out) */
	int has_median;
	size_t median_sample;        /* index into result.samples */
	struct timesplit median;     /* a copy of the median sample's breakdown */
	double share[TIMESPLIT_NPARTS];   /* mean share of the time, 0..1 */
	double ahead_mean[2];        /* requests of others ahead per sample, read/write */
	double ahead_bytes_mean[2];
};

/* Whether the arm-runs measured it. */
struct compare_split_state {
	size_t runs_on;              /* arm-runs whose samples carry a breakdown */
	size_t runs_off;             /* arm-runs without */
	int no_breakdown;            /* --no-breakdown: off on purpose */
	char why_not[256];           /* why not, the last arm-run without one said */
};

struct compare_result;
struct session;
struct json_object;

/* Count one arm-run's session in st (s->split_on, s->split_off,
 * s->cfg.no_breakdown); one without samples does not count. */
void compare_split_note_run(struct compare_split_state *st, const struct session *s);
/* Every cell's breakdown from r's samples (keep_warm: warm samples count,
 * as in the statistics).  0 or -ENOMEM (the cells are then empty). */
int compare_split_analyze(struct compare_result *r, int keep_warm);
/* s as a timesplit_sum (its median points into s; NULL without one). */
void compare_split_sum(const struct compare_split *s, struct timesplit_sum *out);
/* A part in a few words: "on the disk", "queued", ... */
const char *compare_split_part_words(int part);
/* A time in ms with about three significant figures: "12.3 ms", "680 ms",
 * "4.05 s"; "-" when not finite. */
void compare_split_time(double ms, char *buf, size_t len);
/* One cell in words: "680 ms - 80 % on the disk, 9 % queued; behind 12
 * writes (10 MiB) on average": the median sample's time, the largest
 * mean shares (up to three, those of 5 % or more, at least one), the
 * requests of others ahead per sample.  "" when it has no median. */
void compare_split_words(const struct compare_split *s, char *buf, size_t len);
/* Why arm differs from the baseline, in words, for the recommendation:
 * "where the time went in ssh-like: bfq 680 ms (80 % on the disk, 9 %
 * queued), current 4.05 s (81 % queued)": for up to max_actions of the
 * actions in mask (those with the largest difference of run ratio from
 * 1 first) where both arms have a median sample, each arm's median time
 * and its largest one or two mean shares (the second when 10 % or more).
 * "" when no such action; raw labels (the reports escape them). */
void compare_split_reason(const struct compare_result *r, size_t arm, unsigned mask,
			  unsigned max_actions, char *buf, size_t len);
/* The "where the time went" section of the text report on f (no line
 * longer than cols, at least 100): per action a table of each arm's
 * median sample's parts in ms and mean shares in %, then each arm in
 * words; or why there is none (nothing with --no-breakdown). */
void compare_split_text(FILE *f, const struct compare_result *r, size_t cols);
/* Some arm-run measured it; else why not (a sentence). */
int compare_split_available(const struct compare_result *r);
const char *compare_split_why_not(const struct compare_result *r);
/* A cell's "breakdown" summary (as brisk run's group: n, n_incomplete,
 * n_without, median_wall_ms, median_parts, mean_shares, mean_ahead,
 * median_cause); NULL (JSON null) when none of its samples was measured. */
struct json_object *compare_split_json(const struct compare_split *s);
/* The top level's {"available", "why_not", "runs_without"}. */
struct json_object *compare_split_state_json(const struct compare_result *r);

#endif
