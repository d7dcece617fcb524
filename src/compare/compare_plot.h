/* compare_plot — a picture of a comparison (`brisk compare --plot FILE`),
 * drawn with cairo into an SVG or a PNG file.
 *
 * Layout (width COMPARE_PLOT_WIDTH px, the height grows with the arms and
 * actions):
 *   title       the directory and the stack, rounds and the CI level,
 *               a legend of the marks
 *   one panel per action of r->actions: a row per arm, its label on the
 *               left ("(baseline)" after arm 0's), its samples as jittered
 *               points on a log time axis (1-2-5 ticks: "10 ms", "1 s"),
 *               cold samples filled, warm ones hollow, timed-out ones as
 *               red crosses at their value (failed samples are not drawn:
 *               they are counted in the text at the right); the median a
 *               bar with its 95 % CI (cells[arm][action].p50) as a thick
 *               segment; a dashed line at the baseline's median; at the
 *               right the verdict: "0.21x [0.15, 0.30] faster"
 *   load panel  each arm's load MiB/s (armstat.load_mibps) as a bar with
 *               its CI whisker; at the right its place in the ranking and
 *               "recommended" (r->best, whose label is bold everywhere) or
 *               "starves the load" (!load_ok)
 *   footer      the recommendation and the ranking rule, wrapped
 *
 * Contract:
 *  - The format is chosen by the extension of path: ".svg" or ".png"
 *    (any case); anything else is -EINVAL with a message and no file.
 *  - The picture is drawn and written by plot (plot.h: its colours,
 *    fonts, axis and file rules): to a new file in path's directory
 *    (open O_CREAT|O_EXCL|O_NOFOLLOW, mode 0644 less the umask), flushed
 *    and fsync'ed, then renamed onto path: path is replaced only when the
 *    whole picture was written; a symbolic link at path is replaced, never
 *    followed.  On failure no file is left behind.
 *  - Every text taken from the result (labels, directory, stack,
 *    recommendation) is untrusted: it is escaped (text_escape: control
 *    bytes and invalid UTF-8 become \xHH), cut with an ellipsis to fit its
 *    place, and drawn as glyphs; it never becomes markup.
 *  - Non-finite and out-of-range numbers in the result are skipped or
 *    drawn at the edge of their axis, never trusted as indexes.
 *  - Fonts: cairo's toy text API, "sans-serif", no text below 11 px.
 *  - Returns 0, or -errno with a message naming the file in err:
 *    -EINVAL (extension, no arm or too many), -ENOMEM, the errno of the
 *    failed open/write/fsync/rename, -EIO for another cairo failure.
 */
#ifndef BRISK_COMPARE_PLOT_H
#define BRISK_COMPARE_PLOT_H

#include <stddef.h>

#include "compare.h"

#define COMPARE_PLOT_WIDTH 1200   /* px (PNG pixels, SVG user units) */

int compare_plot(const struct compare_result *r, const char *path, char *err, size_t errlen);

#endif
