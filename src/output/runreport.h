/* runreport — what a session measured: a plain-text table fit for a
 * mailing-list post (runreport_text, ending in one verdict line per
 * action), JSON with every figure and raw sample (runreport_json), and
 * CSV of the raw samples (runreport_csv).  What they hold (units, "-" and
 * null for a figure that does not exist, timeouts at the watchdog limit,
 * warm samples apart, the exec program, who the actions ran as, the
 * verdict and its cause, format_version and machine) is brisk-run(1),
 * OUTPUT, VERDICT and JSON.  The disks' class and nr_requests are probed
 * when the report is written.  Groups, verdicts and the text: runreport.c;
 * JSON and CSV: runreport_json.c.
 */
#ifndef BRISK_RUNREPORT_H
#define BRISK_RUNREPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "blockdev.h"
#include "grade.h"
#include "session.h"
#include "stats.h"

#define RUNREPORT_FORMAT_VERSION 1   /* raised only when old readers would misread */

/* The figures of one action in one epoch (UINT32_MAX: all) and phase. */
struct runreport_group {
	enum action_kind action;
	uint32_t epoch;                /* UINT32_MAX: all epochs */
	enum session_phase phase;
	struct stats_summary st;       /* milliseconds */
	unsigned cold, timeouts, errors;
	unsigned warm;                 /* not cold, left out of st (cold-only rule) */
	double warm_p50;               /* their median (ms), NaN when none */
	double slow_p50, slow_p99;     /* NaN without a baseline */
};

/* Statistics of one action in one epoch and phase; slowdowns against the
 * idle samples of every epoch.  0 or -ENOMEM. */
int runreport_group(const struct session *s, enum action_kind a, uint32_t epoch,
		 enum session_phase phase, struct runreport_group *out);
/* The text report on f. */
void runreport_text(FILE *f, const struct session *s);
/* {"uid", "gid", "user", "privileged"} of c; NULL (JSON null) for NULL. */
struct json_object;
struct json_object *runreport_ran_as_json(const struct child_cred *c);
/* The JSON / CSV to path ('-': stdout): 0 or -errno with a message in err. */
int runreport_json(const struct session *s, const char *path, char *err, size_t errlen);
int runreport_csv(const struct session *s, const char *path, char *err, size_t errlen);

/* The epoch a verdict grades: the last one with a successful loaded
 * sample; UINT32_MAX when there is none (the idle samples are graded). */
uint32_t runreport_verdict_epoch(const struct session *s);
/* The system figures of one phase and epoch (UINT32_MAX: all) for
 * grade.h; devs[d] is the device of s->devs[d] or NULL (class and
 * nr_requests unknown); devs itself may be NULL.  No I/O. */
void runreport_system(const struct session *s, enum session_phase ph, uint32_t epoch,
		   const struct blockdev *const *devs, struct grade_system *out);
/* One verdict per prepared action with samples, in s->actions order, of
 * epoch (runreport_verdict_epoch()).  out holds ACTION_KIND_COUNT.  No I/O.
 * 0 or -ENOMEM. */
int runreport_verdicts(const struct session *s, uint32_t epoch, const struct blockdev *const *devs,
		    struct grade_verdict *out, size_t *n);
/* "brisk compare DIR --schedulers", DIR a shell word (raw: escape it to
 * show it). */
void runreport_next_command(const struct session *s, char *buf, size_t len);

#endif
