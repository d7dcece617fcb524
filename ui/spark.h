/* spark — sparklines and timelines as rows of text cells.
 *
 * A cell holds a level: SPARK_EMPTY (no data), SPARK_MARK (an epoch
 * boundary), or 0..SPARK_LEVELS-1 (value height).  The glyphs are the
 * UTF-8 eighth blocks "▁▂▃▄▅▆▇█" with "│" as the marker, or, for locales
 * that are not UTF-8, the ASCII ramp "_.-=+*#@" with "|".
 *
 * Contract:
 *  - Pure: nothing here touches curses, files or the clock.
 *  - Linear scale maps [0, max] onto the levels (0 always the lowest
 *    glyph, so a zero still shows as a baseline, never as "no data");
 *    log scale maps [lo, hi] logarithmically (values <= 0 or NaN are
 *    SPARK_EMPTY; hi <= lo puts everything mid-height).
 *  - When the series is longer than the cells, the newest values are kept
 *    (right-aligned); shorter series leave SPARK_EMPTY cells on the left.
 */
#ifndef BRISK_SPARK_H
#define BRISK_SPARK_H

#include <stddef.h>

#define SPARK_LEVELS 8
#define SPARK_EMPTY (-1)
#define SPARK_MARK (-2)

/* Level of one value. */
int spark_level_linear(double v, double max);
int spark_level_log(double v, double lo, double hi);
/* Glyph of a level (a static string, one cell wide). */
const char *spark_glyph(int level, int utf8);

/* Series -> cells.  v[i] with mark[i] != 0 is preceded by a marker cell
 * (mark may be NULL).  log_scale selects spark_level_log(lo, hi), else
 * spark_level_linear(hi).  Fills exactly `width` cells right-aligned and
 * returns how many values were shown. */
size_t spark_cells(const double *v, const unsigned char *mark, size_t n,
		   int log_scale, double lo, double hi, int *cells, size_t width);
/* Cells -> a NUL-terminated string (out needs width * 3 + 1 bytes for
 * UTF-8, width + 1 for ASCII).  Returns the bytes written. */
size_t spark_text(const int *cells, size_t width, int utf8, char *out, size_t outlen);

#endif
