/* splitscr — where the samples' time went, on the dashboard: a stacked
 * bar per action under the actions table (the latest sample measured),
 * and the full table behind the key w (per action the latest sample's and
 * the median sample's parts in ms and %, their own requests, the requests
 * of others the disk served ahead of them, and who issued those).
 *
 * Contract:
 *  - Drawing reads the session only (no file, sysfs or directory access).
 *  - With --no-breakdown nothing is shown (the block takes no line); when
 *    the breakdown is unavailable one line says why (s->split_off).
 *  - The bar: splitbar.h (a letter per part, the cells add up to the
 *    bar's width), coloured per part when the terminal has colours; the
 *    caption and the legend shrink from words to keys to fit.
 *  - The table works from SPLITSCR_MIN_COLS x SPLITSCR_MIN_LINES (the
 *    part columns narrow, headers shorten) and scrolls.
 *  - The names of the processes that issued requests ahead (comm) are
 *    untrusted: they reach the terminal only through screen_put(), which
 *    escapes control bytes, invalid UTF-8 and invisible characters.
 */
#ifndef BRISK_UI_SPLITSCR_H
#define BRISK_UI_SPLITSCR_H

#include "session.h"

#define SPLITSCR_MIN_COLS 60
#define SPLITSCR_MIN_LINES 12

struct splitscr {
	int top;       /* first body line shown */
	int body;      /* body lines at the last draw */
	int page;      /* body lines that fit */
};

/* Lines the block under the actions table wants: 0 with --no-breakdown,
 * 1 when unavailable, else one per action and the legend. */
int splitscr_bars_height(const struct session *s);
/* Draw that block at row y, w columns, at most h lines (short of room:
 * the legend goes first, then the last actions' bars). */
void splitscr_bars(const struct session *s, int y, int w, int h);

void splitscr_open(struct splitscr *p);
/* The whole screen (the caller erases and refreshes). */
void splitscr_draw(struct splitscr *p, const struct session *s);
/* Scroll keys; 1 when the key closes it (w, Esc, q, Enter). */
int splitscr_key(struct splitscr *p, int ch);

#endif
