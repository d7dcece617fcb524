/* progress — the one live progress line of the batch commands (brisk run,
 * brisk compare, brisk lab up --calibrate), on stderr:
 *
 *   run: loaded  samples 12/40  ETA 0:23
 *   compare: round 2/~6, bfq loaded 3/6; leader bfq ls 0.14x [0.09, 0.23]
 *     ETA 7:40   (one line)
 *   lab calibrate: random reads 120/~250  ETA 0:04
 *
 * Contract:
 *  - progress_begin() decides once whether there is a line at all: only
 *    when stderr is a terminal (isatty(STDERR_FILENO)), the command was not
 *    given -q, and no BRISK_DEBUG trace is on (trace lines are written
 *    straight to fd 2, by children too, and would cut through it).  When
 *    there is none, every other function does nothing: not a byte is
 *    written, so stderr that is not a terminal never gets a CR or an ESC.
 *  - progress_show() rewrites the line in place: "\r\033[K", then
 *    "NAME: TEXT  ETA m:ss".  The text is made printable (text_escape: no
 *    control byte of a caller's string reaches the terminal) and cut so
 *    the whole line is at most the terminal's width - 1 columns
 *    (TIOCGWINSZ at each draw, 80 when unknown, 1000 at most; a
 *    multi-byte character counts as two columns, so it never wraps); the
 *    text is cut, the ETA kept.  No newline is ever written.  Every call
 *    draws (one write(2)): callers draw at their own pace (a session
 *    tick, a few times a second).  TERM=dumb (no erase-line): the old
 *    line is blanked with spaces instead of "\033[K".
 *  - progress_clear() erases the line if it is shown (the next
 *    progress_show() draws it again).  Anything else a command writes to
 *    the terminal while the line may be shown (a warning, a line per
 *    finished step, the report) goes after a progress_clear(), so it
 *    starts at column 0 and the line comes back below it.
 *  - progress_end() erases the line and ends it; safe to call more than
 *    once, and on a progress that never began (zeroed).  Every way out of
 *    a command after progress_begin() calls it (errors included).
 *  - Signals: while the line is shown, SIGINT, SIGTERM and SIGHUP that are
 *    delivered (not blocked: the session and compare loops block them and
 *    end normally, calling progress_end()) erase it (async-signal-safe
 *    writes) and then take the action that was there before (the
 *    default), so a killed command leaves no line behind.  A signal
 *    ignored at progress_begin() stays ignored.  The handlers are set at
 *    progress_begin() and the old ones put back at progress_end(); only
 *    the process that set them erases (a forked child that inherits them
 *    just takes the old action).  One progress at a time per process (a
 *    second progress_begin() before the end keeps the first's saved
 *    actions).
 *  - ETA: progress_eta() formats m:ss, h:mm:ss from an hour;
 *    PROGRESS_ETA_UNKNOWN shows "?".
 */
#ifndef BRISK_PROGRESS_H
#define BRISK_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#define PROGRESS_ETA_UNKNOWN UINT64_MAX

struct progress {
	int on;                   /* there is a line (see progress_begin) */
	int dumb;                 /* TERM=dumb: blank with spaces */
	char name[32];            /* "run", "compare", "lab calibrate" */
	int cols;                 /* columns of the line as drawn, 0 = none shown */
};

/* Start: the line exists when stderr is a terminal and !quiet (see above).
 * Returns p->on. */
int progress_begin(struct progress *p, const char *name, int quiet);
/* Draw "NAME: TEXT  ETA x" (eta_ns PROGRESS_ETA_UNKNOWN: "?"). */
void progress_show(struct progress *p, uint64_t eta_ns, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Erase the line now (it comes back at the next progress_show). */
void progress_clear(struct progress *p);
/* Erase it and end; idempotent. */
void progress_end(struct progress *p);
/* "0:23", "7:40", "1:02:03"; "?" for PROGRESS_ETA_UNKNOWN.  Returns buf. */
char *progress_eta(char *buf, size_t len, uint64_t ns);

#endif
