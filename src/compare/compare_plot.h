/* compare_plot — a picture of a comparison (`brisk compare --plot FILE`),
 * drawn with cairo through plot (plot.h: colours, fonts, axes, and the
 * file written whole or not at all): per action each arm's samples on a
 * log time axis with the median and its interval, the load panel, the
 * recommendation.  Text from the result is untrusted: escaped
 * (text_escape()), cut with an ellipsis to its place, drawn as glyphs,
 * never markup.  Non-finite and out-of-range numbers are skipped or drawn
 * at their axis' edge.  What the picture shows: brisk-compare(1) --plot.
 */
#ifndef BRISK_COMPARE_PLOT_H
#define BRISK_COMPARE_PLOT_H

#include <stddef.h>

#include "compare.h"

#define COMPARE_PLOT_WIDTH 1200   /* px (PNG pixels, SVG user units) */

/* Draw r into path, SVG or PNG by its extension (any case).  0, or
 * -errno with a message naming the file in err (-EINVAL the extension or
 * the arms, -ENOMEM, the failed write's, -EIO cairo); no file is left
 * behind on failure. */
int compare_plot(const struct compare_result *r, const char *path, char *err, size_t errlen);

#endif
