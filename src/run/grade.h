/* grade — what a measured action means to the person at the keyboard: a
 * plain verdict graded against human response-time limits, the likely
 * cause where brisk's own system figures show one, and whether a
 * comparison of settings is the next step.  Pure rules: no I/O, nothing
 * printed; the report and the dashboard feed it figures and show the
 * result.
 *
 * The limits (Card, Moran & Newell 1983 / Card, Robertson & Mackinlay
 * 1991, after Miller 1968 "Response time in man-computer conversational
 * transactions"; Nielsen, "Usability Engineering" 1993, ch. 5):
 *   0.1 s  the response feels instantaneous;
 *   1 s    the flow of thought stays uninterrupted, though the delay is
 *          noticed;
 *   10 s   the limit for keeping attention on the task.
 * Grades of the median (p50) — what the user meets most of the time:
 *   instant      p50 <  0.1 s
 *   noticeable   0.1 s <= p50 < 1 s    (delay seen, flow kept)
 *   disruptive   1 s   <= p50 < 10 s   (flow of thought broken)
 *   unusable     p50 >= 10 s           (attention lost)
 * The p90 is named too ("1 in 10 took 9.20 s") when it is at least
 * GRADE_P90_FAR times the median and not itself instant.
 *
 * Contract:
 *  - A figure that does not exist is NaN; a verdict without a median has
 *    grade GRADE_UNKNOWN (no sample succeeded).
 *  - slowdown = loaded p50 / idle p50 (NaN without either, or idle only).
 *  - Cause (only for a loaded verdict that is noticeable or worse and at
 *    least GRADE_CAUSE_SLOWDOWN times idle, or without an idle figure):
 *      measured   when the input has a breakdown (in.split, ok): where the
 *                 median sample's time went, timesplit_cause()'s words;
 *    else a guess from the system figures (guess_why says why there is
 *    no breakdown, from in.no_split), the first rule that holds, in this
 *    order (save: dirty first, since an fsync waits for what is dirty
 *    before it):
 *      writeback  Writeback max >= GRADE_DIRTY_MIB and its average at
 *                 least the Dirty average: the disk is busy writing back;
 *      queue      a disk's average queue (aqu-sz) >= GRADE_QUEUE_FULL of
 *                 its nr_requests, or, when nr_requests is unknown, its
 *                 utilisation >= GRADE_UTIL_BUSY %;
 *      dirty      Dirty + Writeback max >= GRADE_DIRTY_MIB: data waiting
 *                 in memory that reads and fsyncs queue behind;
 *      psi        PSI io full (every task stalled) >= GRADE_PSI_FULL %;
 *      none       else ("" text).
 *  - Next step (verdict.next): a loaded verdict, noticeable or worse, and
 *    either a disk whose settings could matter (rotational, SD/MMC, USB)
 *    with a slowdown >= GRADE_SETTINGS_SLOWDOWN (or unknown), or any disk
 *    with a slowdown >= GRADE_COMPARE_SLOWDOWN.  The caller turns it into
 *    `brisk compare DIR --schedulers`.
 *  - Strings (disk names) are copied as given into cause_text; the caller
 *    escapes them where it shows them (text.h).
 */
#ifndef BRISK_GRADE_H
#define BRISK_GRADE_H

#include <stddef.h>

#include "action.h"

struct timesplit;

#define GRADE_INSTANT_S 0.1
#define GRADE_FLOW_S 1.0
#define GRADE_ATTENTION_S 10.0
#define GRADE_P90_FAR 2.0
#define GRADE_CAUSE_SLOWDOWN 1.5
#define GRADE_DIRTY_MIB 64.0
#define GRADE_QUEUE_FULL 0.75
#define GRADE_UTIL_BUSY 90.0
#define GRADE_PSI_FULL 10.0
#define GRADE_SETTINGS_SLOWDOWN 1.5
#define GRADE_COMPARE_SLOWDOWN 3.0
#define GRADE_MAX_DISKS 8

enum grade_level {
	GRADE_INSTANT,
	GRADE_NOTICEABLE,
	GRADE_DISRUPTIVE,
	GRADE_UNUSABLE,
	GRADE_UNKNOWN,
};

enum grade_cause {
	GRADE_CAUSE_NONE,
	GRADE_CAUSE_DIRTY,
	GRADE_CAUSE_WRITEBACK,
	GRADE_CAUSE_QUEUE,
	GRADE_CAUSE_PSI,
	GRADE_CAUSE_MEASURED,
};

/* One disk under the directory, its averages over the graded ticks. */
struct grade_disk {
	char name[32];
	const char *cls;          /* "a rotational disk", "an SD/MMC card",
				   * "a USB disk", "an SSD", "an NVMe disk";
				   * NULL unknown (static strings) */
	int settings_matter;      /* rotational, SD/MMC or USB */
	double nr_requests;       /* NaN unknown */
	double aqu, util_pct;     /* NaN unknown */
};

/* System figures summarized over the graded ticks; NaN unknown. */
struct grade_system {
	double dirty_avg, dirty_max, wb_avg, wb_max;   /* MiB */
	double psi_full;                               /* % of the time */
	struct grade_disk disks[GRADE_MAX_DISKS];
	size_t n_disks;
};

/* One action's figures, milliseconds; NaN unknown. */
struct grade_input {
	enum action_kind action;
	int loaded;               /* p50/p90 are under load (else idle only) */
	double p50_ms, p90_ms;
	double idle_p50_ms;
	const struct timesplit *split;   /* the graded samples' median one's
					  * breakdown; NULL (or not ok): none */
	const char *no_split;            /* why there is none, a few words
					  * ("it needs root (BPF)"); NULL: unsaid */
};

struct grade_verdict {
	enum action_kind action;
	int loaded;
	enum grade_level grade, idle_grade, p90_grade;
	double seconds, p90_seconds, idle_seconds, slowdown;   /* NaN unknown */
	int p90_worse;            /* the p90 is worth naming */
	enum grade_cause cause;
	char cause_text[256];     /* "fsync behind 2.3 GiB of dirty data"; measured:
				   * "78 % queued in the I/O scheduler while ..." */
	char guess_why[256];      /* a guessed cause: why there is no breakdown
				   * ("" when measured or unsaid) */
	int next;                 /* brisk compare is the next step */
	char next_why[192];       /* why, "" when next is 0 */
};

enum grade_level grade_of_seconds(double s);
const char *grade_name(enum grade_level g);
/* "program start", "directory listing", "remote shell read", "save". */
const char *grade_action_name(enum action_kind k);
const char *grade_cause_name(enum grade_cause c);
/* Grade one action; sys may be NULL (no cause, no next step). */
void grade_action(const struct grade_input *in, const struct grade_system *sys,
		  struct grade_verdict *out);
/* The verdict a user feels worst: highest grade, then slowdown, then
 * seconds; -1 when none has a grade. */
int grade_worst(const struct grade_verdict *v, size_t n);
/* Seconds for people, never rounded up across a limit: "45 ms",
 * "0.90 s", "4.13 s", "12.5 s", "-" for NaN. */
void grade_format_seconds(char *buf, size_t len, double s);
/* The verdict in one line, without the next step:
 * "save: 4.13 s under load (21x idle) - disruptive; 1 in 10 took 9.20 s;
 *  measured: 78 % other waits (page locks, journal), 15 % on the disk", or
 *  with a guessed cause "...; likely cause (a guess from system counters;
 *  no breakdown: it needs root (BPF)): fsync behind 2.3 GiB of dirty data". */
void grade_format(const struct grade_verdict *v, char *buf, size_t len);

#endif
