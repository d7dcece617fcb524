/* runreport_split — where each sample's time went, in a run's reports
 * (runreport.h): the text table per action, phase and epoch, every
 * sample's breakdown and each group's summary in JSON, the CSV columns,
 * and a group's summary for the verdict and the OpenMetrics figures.
 * What the parts mean and how each output shows them: brisk-run(1),
 * WHERE THE TIME WENT.
 *
 * Contract:
 *  - A group is the samples session_durations() counts (action, epoch,
 *    phase); its breakdown is timesplit_sum() over session_splits(): the
 *    median sample (by wall time) of those measured whole, the mean shares
 *    over them; incomplete ones are counted and left out.
 *  - Untrusted text (the comm names of the processes that issued the
 *    requests ahead) is escaped in the text (text.h) and CSV, exact in
 *    JSON (json-c escapes it).
 *  - A figure that was not measured is null in JSON, an empty cell in CSV,
 *    "-" in the text; a measured 0 is 0.
 *  - When the session has no breakdown (s->split_on == 0) the text says
 *    so once, with s->split_off, except when it was turned off
 *    (--no-breakdown): then it says nothing.
 */
#ifndef BRISK_RUNREPORT_SPLIT_H
#define BRISK_RUNREPORT_SPLIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "session.h"

/* One group's breakdowns. */
struct runreport_split {
	size_t n_counted;            /* samples in the group's figures */
	size_t n_measured;           /* ... with a breakdown, whole or not */
	struct timesplit_sum sum;    /* of those (median points into s->samples) */
};

/* The breakdowns of one action, epoch (UINT32_MAX: all) and phase.
 * 0 or -ENOMEM. */
int runreport_split_group(const struct session *s, enum action_kind a, uint32_t epoch,
			  enum session_phase phase, struct runreport_split *out);
/* Why a group has no measured breakdown to show, in a few words: the
 * session's reason (s->split_off) when it measured none, else "every
 * sample's breakdown was incomplete" or "no sample was measured"; NULL
 * when g has a median sample. */
const char *runreport_split_why_not(const struct session *s, const struct runreport_split *g);
/* A part's cell in the text tables (run's and compare's): " %9.2f" ms,
 * "0" for none; a share in per cent, "<1" below half of one. */
#define RUNREPORT_SPLIT_CELL 9
void runreport_split_cell_ms(FILE *f, uint64_t ns);
void runreport_split_cell_pct(FILE *f, double share);
/* The "Where the time went" section of the text report on f. */
void runreport_split_text(FILE *f, const struct session *s);

struct json_object;
/* A sample's "breakdown" object; NULL (JSON null) when t is not ok. */
struct json_object *runreport_split_json(const struct timesplit *t);
/* The inverse, for a result read back (brisk tune --resume): o (NULL:
 * JSON null, t not ok) into *t; every number checked (finite, in range),
 * a maker's name checked as text.  0 or -EINVAL.  IOWHY_F_* flags are not
 * in the JSON: 0. */
int runreport_split_read(struct json_object *o, struct timesplit *t);
/* A group's "breakdown" summary; NULL when none of its samples has one. */
struct json_object *runreport_split_group_json(const struct runreport_split *g);
/* The top-level {"available", "why_not"}. */
struct json_object *runreport_split_state_json(const struct session *s);

/* The CSV columns of a sample's breakdown, for appending to a row: the
 * header cells and a sample's cells, each cell with its leading comma
 * (empty cells when t is NULL or not ok).  brisk compare's CSV can use
 * the same. */
void runreport_split_csv_header(FILE *f);
void runreport_split_csv_row(FILE *f, const struct timesplit *t);

#endif
