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
 *  - The dashboard lays series out right-aligned (newest on the right),
 *    with a SPARK_MARK cell where an epoch begins.
 */
#ifndef BRISK_SPARK_H
#define BRISK_SPARK_H

#define SPARK_LEVELS 8
#define SPARK_EMPTY (-1)
#define SPARK_MARK (-2)

/* Level of one value. */
int spark_level_linear(double v, double max);
int spark_level_log(double v, double lo, double hi);
/* Glyph of a level (a static string, one cell wide). */
const char *spark_glyph(int level, int utf8);

#endif
