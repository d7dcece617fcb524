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
 *  - Samples that were not cold are left out of the figures (session.h's
 *    session_durations: unless --keep-warm, or the action cannot be made
 *    cold); they are counted ("warm") and their median shown apart.
 *  - The exec action's program is stated: which one, copied or in place,
 *    the files and MiB a cold start read, each file's device, and a note
 *    when the program is not on the disks under test (action.h "where").
 *  - Slowdown = loaded / idle for p50 and p99, idle taken over the baseline
 *    samples of every epoch.
 *  - runreport_json/runreport_csv: 0 or -errno with a message in err.
 *  - Verdict (grade.h): runreport_text ends with one plain line per action,
 *    graded on the median of the loaded samples of the last epoch that
 *    has any (idle samples when there are none), the cause from that
 *    epoch's loaded ticks (Dirty/Writeback, PSI full, each leaf disk's
 *    aqu-sz against its nr_requests, else its utilisation), then one
 *    "Next: brisk compare DIR --schedulers (why)" line when a verdict
 *    asks for it.  runreport_json carries the same per action: "verdicts"
 *    at the top, and "verdict" in the action group it was drawn from.
 *    The disks' class and nr_requests are probed when the report is
 *    written (blockdev_probe); a disk that cannot be probed has none.
 *  - Who the action samples ran as (action.h run_as): a text line "actions
 *    ran as uid N (NAME), without privileges" after the actions, and
 *    "ran_as": {"uid", "gid", "user" (null without a name), "privileged"}
 *    in JSON (null when no action ran); runreport_ran_as_json() builds that
 *    object for brisk compare's JSON too.
 *  - runreport_json's document starts with "format_version":
 *    RUNREPORT_FORMAT_VERSION and "kind": "run" (what `brisk report` reads
 *    it by; the number changes only when a reader of the old format would
 *    misread the new one, added fields keep it), and carries "machine"
 *    (machine_json(): hostname, kernel, an app-specific machine id,
 *    and the leaf disks behind DIR with class, model, vendor, firmware,
 *    transport, rotational and the scheduler each had when session_run()
 *    began: session_dev.scheduler, the setting the run measured).
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

#define RUNREPORT_FORMAT_VERSION 1

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

/* Statistics of one action in one epoch and phase.  0 or -ENOMEM. */
int runreport_group(const struct session *s, enum action_kind a, uint32_t epoch,
		 enum session_phase phase, struct runreport_group *out);
void runreport_text(FILE *f, const struct session *s);
/* {"uid", "gid", "user", "privileged"} of c; NULL (JSON null) for NULL. */
struct json_object;
struct json_object *runreport_ran_as_json(const struct child_cred *c);
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
