/* plot — the cairo pieces brisk's pictures share, and writing a picture
 * to an SVG or PNG file.  Contract in plot.h. */
#include "plot.h"

#include <cairo-svg.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include "fileio.h"
#include "msg.h"
#include "text.h"

static const struct plot_rgb palette[8] = {
	{ 0.122, 0.467, 0.706 },   /* blue */
	{ 1.000, 0.498, 0.055 },   /* orange */
	{ 0.173, 0.627, 0.173 },   /* green */
	{ 0.580, 0.404, 0.741 },   /* purple */
	{ 0.549, 0.337, 0.294 },   /* brown */
	{ 0.890, 0.467, 0.761 },   /* pink */
	{ 0.090, 0.745, 0.812 },   /* cyan */
	{ 0.737, 0.741, 0.133 },   /* olive */
};
const struct plot_rgb plot_c_timeout = { 0.839, 0.153, 0.157 };
const struct plot_rgb plot_c_faster = { 0.10, 0.50, 0.22 };
const struct plot_rgb plot_c_slower = { 0.78, 0.16, 0.16 };
const struct plot_rgb plot_c_text = { 0.10, 0.10, 0.10 };
const struct plot_rgb plot_c_dim = { 0.40, 0.40, 0.40 };

struct plot_rgb plot_arm_colour(size_t i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

void plot_colour(cairo_t *cr, struct plot_rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

void plot_font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

double plot_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

/* Width of the first n bytes of s. */
static double prefix_width(cairo_t *cr, const char *s, size_t n)
{
	char buf[PLOT_TEXT_MAX];
	snprintf(buf, sizeof(buf), "%.*s", (int)n, s);
	return plot_width(cr, buf);
}

static int is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/* The part of esc (n bytes) kept when k bytes are kept, cut as how says,
 * with the ellipsis, at whole characters (esc is clean UTF-8). */
static void cut_at(const char *esc, size_t n, size_t k, enum plot_cut how, char *out,
		   size_t outlen)
{
	static const char ell[] = "\xe2\x80\xa6";   /* U+2026 */
	size_t head = how == PLOT_CUT_END ? k : how == PLOT_CUT_START ? 0 : (k + 1) / 2;
	size_t tail = k - head;
	while (head > 0 && is_cont((unsigned char)esc[head]))
		head--;
	const char *t = esc + n - tail;
	while (*t && is_cont((unsigned char)*t))
		t++;
	snprintf(out, outlen, "%.*s%s%s", (int)head, esc, ell, t);
}

void plot_fit(cairo_t *cr, const char *src, double maxw, enum plot_cut how, char *out,
	      size_t outlen)
{
	char esc[PLOT_TEXT_MAX], buf[PLOT_TEXT_MAX + 8];
	text_escape(esc, sizeof(esc), src ? src : "");
	size_t n = strlen(esc);
	if (plot_width(cr, esc) <= maxw) {
		snprintf(out, outlen, "%s", esc);
		return;
	}
	/* Binary search the most bytes kept that fit with the ellipsis. */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;
		cut_at(esc, n, mid, how, buf, sizeof(buf));
		if (plot_width(cr, buf) <= maxw)
			lo = mid;
		else
			hi = mid - 1;
	}
	cut_at(esc, n, lo, how, out, outlen);
}

double plot_show(cairo_t *cr, double x, double y, const char *s, double align)
{
	double w = plot_width(cr, s);
	cairo_move_to(cr, x - align * w, y);
	cairo_show_text(cr, s);
	return w;
}

double plot_show_fit(cairo_t *cr, double x, double y, const char *src, double maxw,
		     enum plot_cut how)
{
	char buf[PLOT_TEXT_MAX];
	plot_fit(cr, src, maxw, how, buf, sizeof(buf));
	return plot_show(cr, x, y, buf, 0);
}

int plot_wrap(cairo_t *cr, double x, double y, double lead_w, double maxw, double line_h,
	      const char *src, int max_lines, int draw)
{
	char esc[PLOT_TEXT_MAX];
	text_escape(esc, sizeof(esc), src ? src : "");
	const char *p = esc;
	int lines = 0;
	while (*p && lines < max_lines) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		double avail = maxw - (lines == 0 ? lead_w : 0);
		double lx = x + (lines == 0 ? lead_w : 0);
		size_t take = 0, n = strlen(p);
		/* Extend word by word while the line fits. */
		for (;;) {
			size_t e = take;
			while (e < n && p[e] == ' ')
				e++;
			while (e < n && p[e] != ' ')
				e++;
			if (e == take || prefix_width(cr, p, e) > avail)
				break;
			take = e;
		}
		int last = lines == max_lines - 1;
		char line[PLOT_TEXT_MAX];
		if (take == 0 || (last && take < n)) {
			/* A word longer than the line, or the last line with
			 * text left: cut with an ellipsis. */
			plot_fit(cr, p, avail, PLOT_CUT_END, line, sizeof(line));
			take = n;
		} else {
			snprintf(line, sizeof(line), "%.*s", (int)take, p);
		}
		if (draw)
			plot_show(cr, lx, y + lines * line_h, line, 0);
		lines++;
		p += take;
	}
	return lines;
}

/* ---- axes ---------------------------------------------------------- */

double plot_axis_x(const struct plot_axis *a, double v)
{
	double f;
	if (a->log) {
		if (!(v > 0) || v < a->lo)
			v = a->lo;
		f = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	} else {
		f = (v - a->lo) / (a->hi - a->lo);
	}
	if (!isfinite(f) || f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	double pad = a->log ? PLOT_PAD : 0;
	return a->x0 + pad + f * (a->x1 - a->x0 - 2 * pad);
}

double plot_nice125(double v, int up)
{
	double d = pow(10, floor(log10(v)));
	double m = v / d;
	if (!up)
		return (m >= 5 - 1e-9 ? 5 : m >= 2 - 1e-9 ? 2 : 1) * d;
	return (m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10) * d;
}

void plot_span_add(struct plot_span *s, double v)
{
	if (!isfinite(v) || v <= 0)
		return;
	s->mn = s->any ? fmin(s->mn, v) : v;
	s->mx = s->any ? fmax(s->mx, v) : v;
	s->any = 1;
}

struct plot_axis plot_span_axis(const struct plot_span *s, double max_ms, double x0, double x1,
				int snap)
{
	double mn = s->any ? s->mn : 1, mx = s->any ? s->mx : 1000;
	mn = fmax(mn, 1e-3);
	mx = fmin(fmax(mx, mn), max_ms);
	return (struct plot_axis){ plot_nice125(mn, 0), plot_nice125(mx, 1), 1, x0, x1, snap };
}

static void ms_label(double v, char *buf, size_t len)
{
	if (v >= 1000)
		snprintf(buf, len, "%g s", v / 1000);
	else
		snprintf(buf, len, "%g ms", v);
}

void plot_ms_value(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v >= 1000)
		snprintf(buf, len, "%.3g s", v / 1000);
	else
		snprintf(buf, len, "%.3g ms", v);
}

void plot_axis_draw(cairo_t *cr, const struct plot_axis *a, double top, double bottom)
{
	double ticks[64];
	int prio[64];
	size_t nt = 0;
	if (a->log) {
		for (double d = pow(10, floor(log10(a->lo))); d <= a->hi * 1.0001 && nt < 60; d *= 10)
			for (int k = 0; k < 3; k++) {
				static const double m[3] = { 1, 2, 5 };
				double v = m[k] * d;
				if (v >= a->lo * 0.9999 && v <= a->hi * 1.0001) {
					ticks[nt] = v;
					prio[nt++] = k == 0 ? 0 : 1;
				}
			}
	} else {
		double step = plot_nice125((a->hi - a->lo) / 5, 1);
		for (double v = a->lo; v <= a->hi + step * 1e-6 && nt < 60; v += step) {
			ticks[nt] = v;
			prio[nt++] = 0;
		}
	}
	/* Grid. */
	for (size_t i = 0; i < nt; i++) {
		double x = floor(plot_axis_x(a, ticks[i])) + 0.5;
		cairo_set_source_rgba(cr, 0, 0, 0, prio[i] == 0 ? 0.18 : 0.08);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, x, top);
		cairo_line_to(cr, x, bottom + 4);
		cairo_stroke(cr);
	}
	/* Labels: the decades first, then the 2s and 5s where they fit. */
	double placed[64][2];
	size_t np = 0;
	plot_font(cr, PLOT_FONT_SMALL, 0);
	plot_colour(cr, plot_c_dim, 1);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < nt; i++) {
			if (prio[i] != pass)
				continue;
			char lab[32];
			if (!a->log)
				snprintf(lab, sizeof(lab), "%g", ticks[i]);
			else
				ms_label(ticks[i], lab, sizeof(lab));
			double w = plot_width(cr, lab), x = plot_axis_x(a, ticks[i]);
			if (a->snap)
				x = floor(x) + 0.5;
			double l = x - w / 2 - 5, r = x + w / 2 + 5;
			if (l < a->x0 - 30 || r > a->x1 + 30)
				continue;
			int clash = 0;
			for (size_t j = 0; j < np; j++)
				if (l < placed[j][1] && r > placed[j][0])
					clash = 1;
			if (clash)
				continue;
			placed[np][0] = l;
			placed[np++][1] = r;
			plot_show(cr, x, bottom + 16, lab, 0.5);
		}
}

/* ---- marks --------------------------------------------------------- */

void plot_stripes(cairo_t *cr, size_t n, double top, double row_h)
{
	for (size_t i = 0; i < n; i++) {
		if (i % 2 == 0)
			cairo_set_source_rgb(cr, 0.965, 0.965, 0.965);
		else
			cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_rectangle(cr, PLOT_MARGIN - 4, top + i * row_h, PLOT_WIDTH - 2 * PLOT_MARGIN + 8,
				row_h);
		cairo_fill(cr);
	}
}

void plot_frame(cairo_t *cr, const struct plot_axis *a, double top, double bottom)
{
	cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, a->x0 + 0.5, top + 0.5, a->x1 - a->x0, bottom - top);
	cairo_stroke(cr);
}

void plot_median(cairo_t *cr, double x, double y, double lo_x, double hi_x, struct plot_rgb band,
		 double band_h, double bar_h)
{
	if (hi_x > lo_x) {
		plot_colour(cr, band, 0.45);
		cairo_rectangle(cr, lo_x, y - band_h / 2, hi_x - lo_x, band_h);
		cairo_fill(cr);
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 2.5);
	cairo_move_to(cr, x, y - bar_h);
	cairo_line_to(cr, x, y + bar_h);
	cairo_stroke(cr);
}

void plot_dashed(cairo_t *cr, double x, double top, double bottom)
{
	static const double dash[2] = { 5, 4 };
	cairo_save(cr);
	cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.8);
	cairo_set_line_width(cr, 1.2);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_move_to(cr, x, top);
	cairo_line_to(cr, x, bottom);
	cairo_stroke(cr);
	cairo_restore(cr);
}

/* ---- output -------------------------------------------------------- */

struct sink {
	int fd;
	int err;   /* errno of the first failed write */
};

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct sink *s = closure;
	if (s->err)
		return CAIRO_STATUS_WRITE_ERROR;
	int rc = fileio_write_all(s->fd, data, len);
	if (rc < 0) {
		s->err = -rc;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

static int cairo_rc(cairo_status_t st, const struct sink *s)
{
	if (st == CAIRO_STATUS_SUCCESS)
		return 0;
	if (st == CAIRO_STATUS_NO_MEMORY)
		return -ENOMEM;
	if (st == CAIRO_STATUS_WRITE_ERROR && s->err)
		return -s->err;
	return -EIO;
}

/* Render into the open file; 0 or -errno with *what the cairo status. */
static int render(enum plot_format f, plot_draw_fn *draw, const void *what, struct sink *s,
		  cairo_status_t *status)
{
	/* Pass 1: measure the height on a scratch surface. */
	cairo_surface_t *m = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
	cairo_t *cr = cairo_create(m);
	double h = draw(cr, what, 0);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_destroy(m);
	if (st != CAIRO_STATUS_SUCCESS) {
		*status = st;
		return cairo_rc(st, s);
	}
	if (!(h >= 1) || h > PLOT_MAX_HEIGHT) {
		*status = CAIRO_STATUS_INVALID_SIZE;
		return -E2BIG;
	}
	int height = (int)ceil(h);

	cairo_surface_t *surf = f == PLOT_SVG
		? cairo_svg_surface_create_for_stream(sink_write, s, PLOT_WIDTH, height)
		: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, PLOT_WIDTH, height);
	st = cairo_surface_status(surf);
	if (st == CAIRO_STATUS_SUCCESS) {
		cr = cairo_create(surf);
		draw(cr, what, 1);
		st = cairo_status(cr);
		cairo_destroy(cr);
	}
	if (st == CAIRO_STATUS_SUCCESS && f == PLOT_PNG)
		st = cairo_surface_write_to_png_stream(surf, sink_write, s);
	cairo_surface_finish(surf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surf);
	cairo_surface_destroy(surf);
	*status = st;
	return cairo_rc(st, s);
}

static int ext_is(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	return (size_t)(path + n - base) > e && strcasecmp(path + n - e, ext) == 0;
}

int plot_format(const char *path, enum plot_format *f, char *err, size_t errlen)
{
	if (ext_is(path, ".svg"))
		*f = PLOT_SVG;
	else if (ext_is(path, ".png"))
		*f = PLOT_PNG;
	else
		return msg_fail(-EINVAL, err, errlen,
				"%s: the plot's format is chosen by its extension: name it .svg or .png",
				path);
	return 0;
}

int plot_write(const char *path, enum plot_format f, plot_draw_fn *draw, const void *what,
	       char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		uint32_t rnd;
		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
			rnd = (uint32_t)getpid() * 2654435761u + (uint32_t)tries * 0x9e3779b9U;
		if (snprintf(tmp, sizeof(tmp), "%s.tmp%08x", path, rnd) >= (int)sizeof(tmp))
			return msg_fail(-ENAMETOOLONG, err, errlen, "%s: path too long", path);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return msg_fail(-errno, err, errlen, "cannot write the plot %s: %s (%s)", path,
					strerror(errno), "check the directory exists and is writable");
	}
	if (fd < 0)
		return msg_fail(-EEXIST, err, errlen,
				"cannot write the plot %s: no free temporary name next to it", path);

	struct sink s = { fd, 0 };
	cairo_status_t st = CAIRO_STATUS_SUCCESS;
	int rc = render(f, draw, what, &s, &st);
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0) {
		unlink(tmp);
		if (rc == -E2BIG)
			return msg_fail(rc, err, errlen, "cannot draw the plot %s: taller than a "
					"picture may be (%.0f px)", path, PLOT_MAX_HEIGHT);
		if (rc == -EIO && st != CAIRO_STATUS_SUCCESS)
			return msg_fail(rc, err, errlen, "cannot draw the plot %s: cairo: %s", path,
					cairo_status_to_string(st));
		return msg_fail(rc, err, errlen, "cannot write the plot %s: %s", path, strerror(-rc));
	}
	return 0;
}
