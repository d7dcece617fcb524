/* dash — the dashboard's state, layout, panels and redraw.
 *
 *   header   directory, file system, root or read-only, advisory badge;
 *            the stack in one line and the active scheduler; the phase
 *   Stack    the device tree behind the directory
 *   Load     MiB/s sparkline, worst stall, Dirty/Writeback, PSI io
 *   Disks    per leaf disk: IOPS, MiB/s, util % (with a util sparkline)
 *   Actions  per action and epoch: idle p50, p50, p99, max, slowdown,
 *            samples; a latency timeline with epoch markers; under it
 *            where each action's latest sample spent its time, a bar
 *            per action and a legend (splitscr.h), or why not
 *   message line, key line
 *
 * Contract:
 *  - Drawing reads the session struct and the dashboard's own caches only:
 *    no file, sysfs or directory access happens in dash_draw() (a stalled
 *    disk cannot freeze the screen).  Values that need the kernel (the
 *    active scheduler) are refreshed by dash_refresh_settings() after a
 *    change, not on a redraw.
 *  - dash_tick() is the session's tick hook: it derives the per-tick load
 *    series, then redraws.
 *  - The actions table is recomputed only when samples or epochs changed.
 *  - A figure that does not exist is "-", never a made-up zero.
 *  - The message line answers the last key for at least 3 s; the
 *    session's own notes (kept for the report anyway) wait until then and
 *    then stay at least 3 s themselves.  After that, once the current
 *    epoch has loaded samples, it shows the verdict (grade.h) of the
 *    action that is worst there ("worst now: save 4.13 s under load
 *    (20.6x idle) - disruptive; likely cause: ..."), refreshed with the
 *    actions table; the disks' classes come from the stack (no I/O).
 *  - Below 80x24 the screen says so and shows nothing else, except the
 *    full breakdown table (DASH_SPLIT, key w), which works from
 *    SPLITSCR_MIN_COLS x SPLITSCR_MIN_LINES.
 *  - Short of lines, the actions table keeps a row per action first, then
 *    the breakdown's bars (their legend first to go), then older epochs.
 */
#ifndef BRISK_UI_DASH_H
#define BRISK_UI_DASH_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "advisory.h"
#include "menu.h"
#include "prompt.h"
#include "session.h"
#include "settings.h"
#include "splitscr.h"
#include "stack.h"
#include "tuneedit.h"

#define DASH_MIN_COLS 80
#define DASH_MIN_LINES 24

enum dash_overlay { DASH_NONE, DASH_HELP, DASH_SCHED, DASH_TUNE, DASH_SAVE, DASH_SPLIT };

struct comparescr;

struct dash_row {
	enum action_kind action;
	uint32_t epoch;
	size_t n;                 /* loaded samples in this epoch (timeouts included) */
	double p50, p99, max, slow;
	unsigned timeouts, errors, warm;
};

struct dash {
	struct session *s;
	struct settings *st;
	const struct stack *stack;     /* may be NULL (no block device) */
	int root;
	int load_scope;                /* keys s and t change st->load's disks (key d) */

	/* header, computed once (settings part on change) */
	char dir[PATH_MAX];
	char fstype[32];
	char stackline[512];
	char sched[32], sched_detail[256];
	char badge[64];                /* "" when no advisory matches */
	char tree[32][192];
	size_t n_tree;

	enum dash_overlay overlay;
	struct menu menu;
	struct tuneedit te;
	struct prompt prompt;
	struct splitscr split;         /* where the time went (key w): the whole screen */

	/* Save the current setup as a profile NAME (the front end does it,
	 * away from the UI process).  0 with msg "saving ..." when under way;
	 * -errno with msg when refused (bad name...). */
	int (*save_profile)(void *ctx, const char *name, char *msg, size_t len);
	void *save_ctx;

	/* The compare screen (key c, ui/comparescr.h): NULL when the front
	 * end offers none.  While cmp_pick is set its picker owns the whole
	 * screen and every key (keys.c draws it, not dash_draw()). */
	struct comparescr *cmp;
	int cmp_pick;

	char msg[320];
	int msg_role;                  /* enum screen_role */
	uint64_t msg_until;            /* a reply to a key (or a note) stays until then */
	size_t msgs_seen;
	char verdict[320];             /* worst action now; "" when none */
	int verdict_role;
	int msg_is_verdict;            /* msg holds the verdict (not a reply or note) */

	/* per tick, parallel to s->ticks */
	double *mbps, *stall_ms;
	size_t n_series, cap_series;
	size_t *load_seen;
	size_t n_load_seen;

	/* actions table cache */
	size_t tab_samples, tab_epochs;
	double idle_p50[ACTION_KIND_COUNT];
	size_t idle_n[ACTION_KIND_COUNT];
	struct dash_row *rows;
	size_t n_rows, cap_rows;

	uint64_t redraws;
};

/* Fill the header and tree from the stack and the advisory list (db may
 * be NULL).  The session, settings and stack must outlive the dash. */
void dash_init(struct dash *d, struct session *s, struct settings *st,
	       const struct stack *stack, const struct advisory_db *db, int root);
void dash_free(struct dash *d);
/* Re-read the active scheduler (after a change). */
void dash_refresh_settings(struct dash *d);
void dash_message(struct dash *d, int role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Session tick hook (ctx = struct dash *). */
void dash_tick(void *ctx);
/* Compose and refresh; full = repaint every cell (clearok). */
void dash_draw(struct dash *d, int full);
/* KEY_RESIZE: the one place a resize is handled. */
void dash_resize(struct dash *d);

#endif
