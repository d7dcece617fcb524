/* comparescr — the dashboard's compare screen (key c): the picker of the
 * arms and the budget, then the comparison live (the same engine as
 * `brisk compare`, src/compare/compare.h), then its result until a key.
 *
 *   picker   current (the baseline, always), every other scheduler all
 *            the leaf disks offer (checked), the profiles that have
 *            [settings] (unchecked), arms typed in (a: KEY=VALUE,... as
 *            brisk set takes them, checked against the disks at once, or
 *            a profile name, read when the comparison starts), a budget;
 *            t puts brisk tune's desktop space in place of the arms (they
 *            race as ever: the screen shows who is left); Enter starts
 *   running  per action, one row per arm: a bar on a log time axis from
 *            the median's CI low to high with the median marked, the
 *            numbers "median [lo, hi]", the ratio to the baseline and the
 *            verdict (coloured); per arm the writers' MiB/s; the
 *            recommendation; round k of n, the arm under way, its phase
 *            and the ETA in the header
 *   final    the same, with how it ended
 *
 * Contract:
 *  - Drawing reads only this struct, the compare result (compare_result,
 *    compare_progress) and the session struct under way: no file, sysfs
 *    or directory access (a stalled disk cannot freeze the screen).  The
 *    figures change only after an arm-run (the engine analyses them
 *    before its armrun hook).
 *  - A figure that does not exist is "-", never a made-up zero.
 *  - Below 80x24 the screen says so and shows nothing else.
 *  - comparescr_pick_init() reads the active and offered schedulers
 *    (small sysfs files, through settings) and the profiles of the search
 *    path (small files in /etc and the user's directory, not on the disk
 *    under test, parsed once there), and a typed KEY=VALUE arm
 *    is checked against the disks' sysfs (compare_arm_parse); no other
 *    file is read while the picker is open (a profile is read at the
 *    start, when the dashboard's load has stopped).
 *  - The key handlers only change this struct; the front end acts on
 *    what they return (start, stop, save, leave).
 */
#ifndef BRISK_UI_COMPARESCR_H
#define BRISK_UI_COMPARESCR_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "prompt.h"
#include "settings.h"

#define COMPARESCR_N_BUDGETS 5

enum comparescr_pick { COMPARESCR_PICK_NONE, COMPARESCR_PICK_START, COMPARESCR_PICK_CANCEL };

/* What a key on the running or final screen asks the front end to do. */
#define COMPARESCR_REDRAW 1u
#define COMPARESCR_STOP 2u     /* running: q/Esc */
#define COMPARESCR_SAVE 4u     /* the name is in prompt.input */
#define COMPARESCR_BACK 8u     /* final: back to the dashboard */
#define COMPARESCR_QUIT 16u    /* final: q, leave brisk tui */
#define COMPARESCR_REPAINT 32u /* ^L or a resize: repaint every cell */

struct comparescr {
	/* the picker */
	char arm_text[COMPARE_MAX_ARMS][160];   /* as compare_arm_parse() takes it */
	char arm_label[COMPARE_MAX_ARMS][48];
	const struct settings *st;  /* what typed arms are checked against */
	int on[COMPARE_MAX_ARMS];
	size_t n_arms;
	size_t sel;                /* row: arms 0..n-1, then the budget */
	unsigned budget;           /* index into the budgets */
	char active[32];           /* the active scheduler when it opened */
	char changed[160];         /* the dashboard changed settings: "" or a note */
	char pick_note[320];       /* the answer to the last key */
	int pick_note_bad;

	/* header, set by the front end */
	char dir[PATH_MAX];
	char stackline[512];
	char workload[320];

	/* running and final */
	int running;               /* compare_run() under way */
	int final;                 /* it returned: the result stays until a key */
	int stopping;              /* q/Esc pressed */
	int restored;              /* the dashboard's own changes were put back first */
	uint64_t t_start;          /* now_ns() at the start */
	char end[200];             /* how it ended (final) */
	int prompting;             /* the save prompt is open */
	struct prompt prompt;
	char msg[320];
	int msg_role;              /* enum screen_role */
	char dropped[160];         /* arms left out at the start, and why */
};

/* Fill the picker from the settings (see the contract); every offered
 * scheduler is checked, budget 5m. */
void comparescr_pick_init(struct comparescr *cs, const struct settings *st, int changed);
enum comparescr_pick comparescr_pick_key(struct comparescr *cs, int ch);
void comparescr_pick_draw(const struct comparescr *cs);
uint64_t comparescr_budget_ns(const struct comparescr *cs);

/* The running or final screen; c may be NULL (starting, or it could not
 * start: msg says why).  full = repaint every cell. */
void comparescr_draw(struct comparescr *cs, const struct compare *c, int full);
/* A key on the running or final screen: COMPARESCR_* flags. */
unsigned comparescr_key(struct comparescr *cs, const struct compare *c, int ch);
void comparescr_message(struct comparescr *cs, int role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#endif
