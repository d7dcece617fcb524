/* report — what a session measured, as a plain-text table fit for a
 * mailing-list post, as JSON (every figure and every raw sample), and as
 * CSV (the raw samples).
 *
 * Contract:
 *  - Times in the text and CSV are milliseconds; in JSON, durations are
 *    milliseconds (*_ms) and timestamps seconds since the run began (t_s).
 *  - A figure that does not exist (no samples, no idle baseline) is "-" in
 *    text and null in JSON, never a made-up zero.
 *  - Timed-out samples count at the watchdog limit (a lower bound) in every
 *    figure and are counted in "tmo"; failed samples are counted in "err"
 *    and excluded from the figures.
 *  - Slowdown = loaded / idle for p50 and p99, idle taken over the baseline
 *    samples of every epoch.
 *  - report_json/report_csv: 0 or -errno with a message in err.
 */
#ifndef BRISK_REPORT_H
#define BRISK_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "session.h"
#include "stats.h"

struct report_group {
	enum action_kind action;
	uint32_t epoch;                /* UINT32_MAX: all epochs */
	enum session_phase phase;
	struct stats_summary st;       /* milliseconds */
	unsigned cold, timeouts, errors;
	double slow_p50, slow_p99;     /* NaN without a baseline */
};

/* Statistics of one action in one epoch and phase.  0 or -ENOMEM. */
int report_group(const struct session *s, enum action_kind a, uint32_t epoch,
		 enum session_phase phase, struct report_group *out);
void report_text(FILE *f, const struct session *s);
int report_json(const struct session *s, const char *path, char *err, size_t errlen);
int report_csv(const struct session *s, const char *path, char *err, size_t errlen);

#endif
