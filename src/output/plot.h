/* plot — what brisk's pictures share (compare_plot: one comparison;
 * fleet: the report of many machines): a page PLOT_WIDTH px wide drawn
 * with cairo, its colours and fonts, untrusted text drawn safely, a time
 * axis, the marks both pictures use, and writing the page to an SVG or
 * PNG file whole or not at all.  The layouts are the callers'.
 *
 * Contract:
 *  - Colours: plot_arm_colour(i) is arm i's (a palette of 8, repeating),
 *    the same index the same colour in every picture; plot_c_* the
 *    text, dimmed text, faster, slower and timed-out colours.
 *  - Fonts: cairo's toy text API, "sans-serif", at the PLOT_FONT_* sizes
 *    (no text below 11 px).
 *  - Untrusted text (plot_fit, plot_show_fit, plot_wrap): escaped with
 *    text_escape() (control bytes and invalid UTF-8 become \xHH), cut with
 *    an ellipsis (U+2026) at a whole character to fit its width, and drawn
 *    as glyphs: it never becomes markup.  Escaped text longer than
 *    PLOT_TEXT_MAX - 1 bytes is cut there.
 *  - plot_wrap: greedy word wrap at spaces into at most max_lines lines of
 *    maxw px, the first after lead_w px; a word longer than a line, and
 *    the last line when text is left, are cut with an ellipsis.  Draws
 *    only when draw; returns the lines it took (0 for empty text).
 *  - Axes (struct plot_axis): lo..hi drawn from x0 to x1, log10 (with
 *    PLOT_PAD px inside each end, so marks at the ends stay clear) or
 *    linear.  plot_axis_x() puts any value on the axis: NaN, a value
 *    below lo (or not above 0 on a log axis) at x0's end, one above hi at
 *    x1's.  plot_axis_draw(): grid lines from top to bottom, labels under
 *    bottom; on a log axis 1-2-5 ticks ("10 ms", "2 s"), the decades'
 *    labels placed first and a 2 or 5 only where it does not touch one
 *    (5 px apart, where the label is centred: see snap); linear: every
 *    1-2-5 step, its value.
 *  - plot_write(): the format is f (plot_format(): ".svg" or ".png" at
 *    the end of path, any case, after a base name; else -EINVAL with a
 *    message and no file).  draw(cr, what, 0) is called on a scratch
 *    surface first and returns the page's height; then draw(cr, what, 1)
 *    paints the page (draw must paint the same both times; with 0 it may
 *    skip what does not change the height).  A height that is not a
 *    number from 1 to PLOT_MAX_HEIGHT is -E2BIG ("taller than a picture
 *    may be"; a caller may say better why) and no file.  The picture goes
 *    to a new file in path's directory (O_CREAT|O_EXCL|O_NOFOLLOW, mode
 *    0644 less the umask), flushed and fsync'ed, then renamed onto path:
 *    path is replaced only when the whole picture was written; a
 *    symbolic link at path is replaced, never followed.  On failure no
 *    file is left behind.  0, or -errno with a message naming path in
 *    err: -ENOMEM, the errno of the failed open/write/fsync/rename, -EIO
 *    for another cairo failure (its status in the message).
 */
#ifndef BRISK_PLOT_H
#define BRISK_PLOT_H

#include <stddef.h>
#include <cairo.h>

#define PLOT_WIDTH      1200      /* px (PNG pixels, SVG user units) */
#define PLOT_MARGIN     20.0
#define PLOT_PAD        10.0      /* inside a log axis's frame */
#define PLOT_MAX_HEIGHT 32000.0
#define PLOT_TEXT_MAX   (4 * 4096 + 8)   /* an escaped PATH_MAX and an ellipsis */

#define PLOT_FONT_TITLE 17.0
#define PLOT_FONT_HEAD  14.0
#define PLOT_FONT_BODY  12.0
#define PLOT_FONT_SMALL 11.0

struct plot_rgb {
	double r, g, b;
};

extern const struct plot_rgb plot_c_text, plot_c_dim, plot_c_faster, plot_c_slower,
	plot_c_timeout;
struct plot_rgb plot_arm_colour(size_t i);

void plot_colour(cairo_t *cr, struct plot_rgb c, double alpha);
void plot_font(cairo_t *cr, double size, int bold);
/* The advance of s in the current font. */
double plot_width(cairo_t *cr, const char *s);
/* s (clean text) with its baseline at y: align 0 left of x, 1 right of
 * x, 0.5 centred on x.  Returns its advance. */
double plot_show(cairo_t *cr, double x, double y, const char *s, double align);

/* Where an ellipsis cuts: at the end, at the start (a directory's last
 * components matter most) or in the middle (labels that differ at their
 * end). */
enum plot_cut { PLOT_CUT_END, PLOT_CUT_START, PLOT_CUT_MIDDLE };
/* Untrusted src (NULL: "") escaped and cut to fit maxw px in the current
 * font, into out. */
void plot_fit(cairo_t *cr, const char *src, double maxw, enum plot_cut how, char *out,
	      size_t outlen);
/* The same, drawn as plot_show(..., 0) does; returns its advance. */
double plot_show_fit(cairo_t *cr, double x, double y, const char *src, double maxw,
		     enum plot_cut how);
int plot_wrap(cairo_t *cr, double x, double y, double lead_w, double maxw, double line_h,
	      const char *src, int max_lines, int draw);

struct plot_axis {
	double lo, hi;      /* the values at x0 and x1 */
	int log;
	double x0, x1;      /* px */
	int snap;           /* tick labels centred on their grid line's pixel
			     * column (fleet's picture), not on the value */
};
/* The values a log time axis must show: plot_span_add() each (NaN,
 * infinities and values not above 0 are passed over; start from { 0 });
 * plot_span_axis() the axis from x0 to x1 over them, 1 ms to 1 s when
 * none was added, kept within 1e-3 ms .. max_ms, its ends the 1-2-5
 * values at or around them (equal ends are the caller's to widen). */
struct plot_span {
	double mn, mx;
	int any;
};
void plot_span_add(struct plot_span *s, double v);
struct plot_axis plot_span_axis(const struct plot_span *s, double max_ms, double x0, double x1,
				int snap);
double plot_axis_x(const struct plot_axis *a, double v);
void plot_axis_draw(cairo_t *cr, const struct plot_axis *a, double top, double bottom);
/* The 1-2-5 value at or below (up = 0) or at or above (up = 1) v > 0. */
double plot_nice125(double v, int up);
/* A time in ms, three significant digits: "643 ms", "1.25 s"; "-" when
 * not finite. */
void plot_ms_value(double v, char *buf, size_t len);

/* Row backgrounds: n rows of row_h from top, across the page, striped. */
void plot_stripes(cairo_t *cr, size_t n, double top, double row_h);
/* The frame of the plot area over a's x0..x1, from top to bottom. */
void plot_frame(cairo_t *cr, const struct plot_axis *a, double top, double bottom);
/* A median at x (a black bar bar_h px above and below y) over its
 * interval lo_x..hi_x (a band band_h px high in colour band, drawn when
 * hi_x > lo_x). */
void plot_median(cairo_t *cr, double x, double y, double lo_x, double hi_x, struct plot_rgb band,
		 double band_h, double bar_h);
/* The dashed vertical line of a baseline's median. */
void plot_dashed(cairo_t *cr, double x, double top, double bottom);

enum plot_format { PLOT_SVG, PLOT_PNG };
int plot_format(const char *path, enum plot_format *f, char *err, size_t errlen);
typedef double plot_draw_fn(cairo_t *cr, const void *what, int draw);
int plot_write(const char *path, enum plot_format f, plot_draw_fn *draw, const void *what,
	       char *err, size_t errlen);

#endif
