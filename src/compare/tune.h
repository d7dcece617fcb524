/* tune — what `brisk tune` makes of a raced space (tune_space.h): the
 * best arm's evidence against current and against each scheduler's
 * defaults, which of its settings mattered (the best arm against the arm
 * of the space without that one setting), the race's history, as text
 * and as JSON (compare's document with a "tune" object), and the reading
 * back of that JSON for --resume.  Ratios are of the typical arm-run
 * (compare_run_logs), best / other, Welch 95 % intervals: below 1 the
 * best is faster.  What each part says: brisk-tune(1).
 */
#ifndef BRISK_TUNE_H
#define BRISK_TUNE_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "tune_space.h"

/* The best arm against one other. */
struct tune_vs {
	size_t arm;                   /* the other arm */
	char what[96];                /* "current", "bfq's defaults", "without wbt_lat_usec=0" */
	size_t n_best, n_other;       /* arm-runs counted */
	struct stats_ci score;        /* over the actions (the race's score) */
	struct stats_ci act[ACTION_KIND_COUNT];
	struct stats_ci load;         /* the load's figure (compare_load_figure's kind), best /
				       * other: below 1 the best costs the load */
};

struct tune_result {
	int best;                     /* the recommended arm, else the race's leader; -1 */
	int recommended;              /* best is compare's recommendation */
	struct tune_vs vs[TUNE_MAX_SCHEDS + 1];   /* current, each scheduler's defaults */
	size_t n_vs;
	struct tune_vs factor[TUNE_MAX_FACTORS];  /* without each of best's settings */
	size_t n_factor;
	char unmeasured[TUNE_MAX_FACTORS][96];    /* a setting whose arm without it has too
						   * few arm-runs, in words */
	size_t n_unmeasured;
};

/* The analysis of r, the result of racing the arms of sp (points[i] is
 * what arm i sets).  0 or -ENOMEM. */
int tune_analyze(const struct compare_result *r, int keep_warm, const struct tune_space *sp,
		 const struct tune_point *points, struct tune_result *t);
/* The tune's part of the text report (after compare's), on f. */
void tune_report_text(FILE *f, const struct compare_result *r, const struct tune_space *sp,
		      const struct tune_result *t);
/* compare's JSON with "tune": the command line (argv, and the directory
 * cwd it ran in: what --resume runs again), the space, the best arm, its evidence and factors; written
 * whole to path.  0, or -errno with a message naming path. */
int tune_report_json(const struct compare_result *r, const struct tune_space *sp,
		     const struct tune_result *t, int argc, char **argv, const char *cwd,
		     const char *path, char *err, size_t errlen);

/* What a tune's JSON holds for --resume. */
struct tune_saved {
	int argc;
	char **argv;                  /* the command line, argv[argc] NULL */
	char cwd[4096];               /* where it ran */
	char (*arms)[160];            /* each arm's name, in order */
	size_t n_arms;
	uint64_t seed;
	struct compare_run *runs;
	size_t n_runs;
	struct compare_sample *samples;
	size_t n_samples;
};
/* Read a tune's JSON (a regular file, links not followed).  0; -EINVAL
 * (not a tune's JSON, a field missing or out of range), -ENOENT, -EFBIG,
 * -ENOMEM, with a message naming path. */
int tune_saved_read(const char *path, struct tune_saved *s, char *err, size_t errlen);
void tune_saved_free(struct tune_saved *s);

#endif
