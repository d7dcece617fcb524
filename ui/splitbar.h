/* splitbar — a sample's breakdown (timesplit.h) as a stacked bar of text
 * cells, with its caption and legend: the layout only, no curses.
 *
 * Each part is drawn with its own letter, the first of its key ("c" on
 * CPU, "r" waiting for a CPU, "d" on the disk, "q" queued in the I/O
 * scheduler, "a" held before the queue, "t" throttled, "b" other waits,
 * "s" other sleep), so the bar reads the same without colours and in any
 * locale; the dashboard adds a colour per part where it has them.
 *
 * Contract:
 *  - Pure: nothing here touches curses, files or the clock.
 *  - splitbar_layout(): the cells add up to the width exactly whenever the
 *    total is above 0 (else every part gets 0).  Rounding is by largest
 *    remainder (ties to the larger part, then the lower part number), so
 *    each part gets floor or ceil of its exact share of the cells.  Then a
 *    part of at least SPLITBAR_MIN_PERMILLE of the total that got no cell
 *    gets one, taken from the part that holds the most (which keeps at
 *    least one), larger parts served first, while such a donor exists:
 *    a 1 % part never disappears from a bar as long as the bar has room
 *    for every part that size.  Smaller parts show only when their share
 *    rounds up to a cell; the caption's percentages are the exact ones.
 *  - Captions and legends are ASCII (the labels of timesplit.h) and fit
 *    the columns asked for, or are "" when nothing fits.
 */
#ifndef BRISK_UI_SPLITBAR_H
#define BRISK_UI_SPLITBAR_H

#include <stddef.h>
#include <stdint.h>

#define SPLITBAR_MIN_PERMILLE 10   /* 1 %: always a cell of its own */

/* Cells of each part v[0..n) (n <= TIMESPLIT_NPARTS) in a bar of width
 * cells (width < 0 taken as 0).  Returns the cells laid out: width, or 0
 * when the total is 0. */
int splitbar_layout(const uint64_t *v, int n, int width, int *cells);
/* The letter of a part ('?' for none). */
char splitbar_letter(int part);
/* The bar as letters into buf (NUL-terminated, cut to len - 1). */
void splitbar_text(const int *cells, int n, char *buf, size_t len);
/* The largest parts with their exact percentages in at most maxw columns:
 * "62 % queued in the I/O scheduler, 15 % on the disk" (labels) when that
 * fits, else "62 % queued, 15 % device, 12 % cpu" (keys), fewer parts when
 * needed; parts under 1 % are left out; "" when none fits. */
void splitbar_caption(const uint64_t *v, int n, int maxw, char *buf, size_t len);
/* "c on CPU  r waiting for a CPU ..." for the parts in mask (bit p = part
 * p), labels when they all fit in maxw columns, else "c cpu  r runq ...",
 * else as many keys as fit. */
void splitbar_legend(unsigned mask, int maxw, char *buf, size_t len);

#endif
