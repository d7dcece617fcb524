/* fleet_plot — the pooled report as a picture (cairo, SVG or PNG), in the
 * style of compare_plot: one panel per group, a row per action and arm
 * with the pooled median and its 95 % interval on a log time axis, the
 * baseline's median dashed, the ratio and verdict at the right, the
 * recommendation under the panel.  Contract in fleet.h. */
#include "fleet.h"

#include <cairo.h>
#include <cairo-svg.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include "action.h"
#include "fileio.h"
#include "msg.h"
#include "text.h"

#define W        1200
#define MARGIN   20.0
#define SWATCH   10.0
#define ACT_X    (MARGIN + 4.0)
#define ARM_X    (MARGIN + 124.0)
#define LAB_W    110.0    /* the arm's label */
#define PLOT_X0  420.0
#define PLOT_X1  (W - 320.0)
#define PAD      10.0
#define RIGHT_X  (PLOT_X1 + 14.0)
#define RIGHT_W  (W - MARGIN - RIGHT_X)
#define ROW_H    24.0
#define HEAD_H   44.0
#define AXIS_H   26.0
#define GAP      22.0
#define LINE_H   17.0

#define FONT_TITLE 17.0
#define FONT_HEAD  14.0
#define FONT_BODY  12.0
#define FONT_SMALL 11.0

#define ESC_MAX (4 * 1024)

struct rgb {
	double r, g, b;
};

/* compare_plot's palette: the same arm index, the same colour. */
static const struct rgb palette[8] = {
	{ 0.122, 0.467, 0.706 }, { 1.000, 0.498, 0.055 }, { 0.173, 0.627, 0.173 },
	{ 0.580, 0.404, 0.741 }, { 0.549, 0.337, 0.294 }, { 0.890, 0.467, 0.761 },
	{ 0.090, 0.745, 0.812 }, { 0.737, 0.741, 0.133 },
};
static const struct rgb c_faster = { 0.10, 0.50, 0.22 };
static const struct rgb c_slower = { 0.78, 0.16, 0.16 };
static const struct rgb c_text = { 0.10, 0.10, 0.10 };
static const struct rgb c_dim = { 0.40, 0.40, 0.40 };

static void colour(cairo_t *cr, struct rgb c, double a)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, a);
}

static void font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

static double text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

static double draw_text(cairo_t *cr, double x, double y, const char *s, double align)
{
	double w = text_width(cr, s);
	cairo_move_to(cr, x - align * w, y);
	cairo_show_text(cr, s);
	return w;
}

/* Untrusted src escaped and cut at the end with an ellipsis to maxw. */
static double draw_fit(cairo_t *cr, double x, double y, const char *src, double maxw)
{
	char esc[ESC_MAX], buf[ESC_MAX + 8];
	text_escape(esc, sizeof(esc), src ? src : "");
	size_t n = strlen(esc);
	if (text_width(cr, esc) > maxw) {
		while (n > 0) {
			n--;
			while (n > 0 && ((unsigned char)esc[n] & 0xc0) == 0x80)
				n--;
			snprintf(buf, sizeof(buf), "%.*s\xe2\x80\xa6", (int)n, esc);
			if (text_width(cr, buf) <= maxw)
				break;
		}
		return draw_text(cr, x, y, n ? buf : "\xe2\x80\xa6", 0);
	}
	return draw_text(cr, x, y, esc, 0);
}

/* Greedy word wrap of untrusted src, the first line after lead_w px; at
 * most max_lines, the last cut with an ellipsis.  Returns the lines. */
static int wrap(cairo_t *cr, double x, double y, double lead_w, double maxw, const char *src,
		int max_lines, int draw)
{
	char esc[ESC_MAX];
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
		char line[ESC_MAX];
		for (;;) {
			size_t e = take;
			while (e < n && p[e] == ' ')
				e++;
			while (e < n && p[e] != ' ')
				e++;
			if (e == take)
				break;
			snprintf(line, sizeof(line), "%.*s", (int)e, p);
			if (text_width(cr, line) > avail)
				break;
			take = e;
		}
		if (take == 0 || (lines == max_lines - 1 && take < n)) {
			if (draw)
				draw_fit(cr, lx, y + lines * LINE_H, p, avail);
			take = n;
		} else if (draw) {
			snprintf(line, sizeof(line), "%.*s", (int)take, p);
			draw_text(cr, lx, y + lines * LINE_H, line, 0);
		}
		lines++;
		p += take;
	}
	return lines;
}

/* ---- the log time axis ---- */

struct axis {
	double lo, hi;
};

static double ax_x(const struct axis *a, double v)
{
	if (!(v > 0) || v < a->lo)
		v = a->lo;
	double f = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	if (!isfinite(f) || f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return PLOT_X0 + PAD + f * (PLOT_X1 - PLOT_X0 - 2 * PAD);
}

static double nice125(double v, int up)
{
	double d = pow(10, floor(log10(v)));
	double m = v / d;
	if (!up)
		return (m >= 5 - 1e-9 ? 5 : m >= 2 - 1e-9 ? 2 : 1) * d;
	return (m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10) * d;
}

static void ms_label(double v, char *b, size_t n)
{
	if (v >= 1000)
		snprintf(b, n, "%g s", v / 1000);
	else
		snprintf(b, n, "%g ms", v);
}

static void axis_draw(cairo_t *cr, const struct axis *a, double top, double bottom)
{
	double placed[64][2];
	size_t np = 0;
	for (int pass = 0; pass < 2; pass++)
		for (double d = pow(10, floor(log10(a->lo))); d <= a->hi * 1.0001; d *= 10)
			for (int k = 0; k < 3; k++) {
				static const double m[3] = { 1, 2, 5 };
				double v = m[k] * d;
				if ((k == 0) != (pass == 0) || v < a->lo * 0.9999 || v > a->hi * 1.0001)
					continue;
				double x = floor(ax_x(a, v)) + 0.5;
				cairo_set_source_rgba(cr, 0, 0, 0, k == 0 ? 0.18 : 0.08);
				cairo_set_line_width(cr, 1);
				cairo_move_to(cr, x, top);
				cairo_line_to(cr, x, bottom + 4);
				cairo_stroke(cr);
				char lab[32];
				ms_label(v, lab, sizeof(lab));
				font(cr, FONT_SMALL, 0);
				double w = text_width(cr, lab), l = x - w / 2 - 5, r = x + w / 2 + 5;
				int clash = np >= 64;
				for (size_t j = 0; j < np; j++)
					clash |= l < placed[j][1] && r > placed[j][0];
				if (clash)
					continue;
				placed[np][0] = l;
				placed[np++][1] = r;
				colour(cr, c_dim, 1);
				draw_text(cr, x, bottom + 16, lab, 0.5);
			}
}

static void mark_median(cairo_t *cr, double x, double y, double lo_x, double hi_x, struct rgb c)
{
	if (hi_x > lo_x) {
		colour(cr, c, 0.45);
		cairo_rectangle(cr, lo_x, y - 4, hi_x - lo_x, 8);
		cairo_fill(cr);
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 2.5);
	cairo_move_to(cr, x, y - ROW_H * 0.38);
	cairo_line_to(cr, x, y + ROW_H * 0.38);
	cairo_stroke(cr);
}

static void dashed(cairo_t *cr, double x, double top, double bottom)
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

static void fratio(char *b, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(b, n, "-");
	else if (v >= 10)
		snprintf(b, n, "%.1f", v);
	else if (v >= 0.1)
		snprintf(b, n, "%.2f", v);
	else
		snprintf(b, n, "%.2g", v);
}

static void ms_value(double v, char *b, size_t n)
{
	if (!isfinite(v))
		snprintf(b, n, "-");
	else if (v >= 1000)
		snprintf(b, n, "%.3g s", v / 1000);
	else
		snprintf(b, n, "%.3g ms", v);
}

/* ---- one group ---- */

static double legend(cairo_t *cr, double y)
{
	double x = MARGIN, cy = y + 8;
	font(cr, FONT_SMALL, 0);
	mark_median(cr, x + 14, cy, x, x + 28, palette[0]);
	colour(cr, c_dim, 1);
	x += 34 + draw_text(cr, x + 34, cy + 4, "pooled median and its 95 % interval (machines, "
			    "then their samples)", 0) + 22;
	dashed(cr, x + 4, cy - 9, cy + 9);
	colour(cr, c_dim, 1);
	x += 12 + draw_text(cr, x + 12, cy + 4, "baseline median", 0) + 22;
	draw_text(cr, x, cy + 4, "right: arm / baseline over the machines that measured both, "
		  "machines agreeing", 0);
	return y + 26;
}

static double panel(cairo_t *cr, const struct fleet_group *g, double y, int draw)
{
	double mn = INFINITY, mx = -INFINITY;
	for (size_t i = 0; i < g->n_rows; i++) {
		const struct fleet_ci *c = &g->rows[i].p50;
		double v[3] = { c->est, c->lo, c->hi };
		for (int j = 0; j < 3; j++)
			if (isfinite(v[j]) && v[j] > 0) {
				mn = fmin(mn, v[j]);
				mx = fmax(mx, v[j]);
			}
	}
	if (!(mn <= mx)) {
		mn = 1;
		mx = 1000;
	}
	mn = fmax(mn, 1e-3);
	mx = fmin(fmax(mx, mn), 1e8);
	struct axis ax = { nice125(mn, 0), nice125(mx, 1) };
	if (ax.hi <= ax.lo * 1.0001) {
		ax.lo = nice125(ax.lo * 0.5, 0);
		ax.hi = nice125(ax.hi * 2, 1);
	}
	if (draw) {
		font(cr, FONT_HEAD, 1);
		colour(cr, c_text, 1);
		double w = draw_fit(cr, MARGIN, y + 18, g->key, 420);
		char what[256];
		snprintf(what, sizeof(what), "%zu machine%s, %zu result%s%s", g->n_machines,
			 g->n_machines == 1 ? "" : "s", g->n_results, g->n_results == 1 ? "" : "s",
			 g->baseline >= 0 ? "; baseline " : "");
		font(cr, FONT_BODY, 0);
		colour(cr, c_dim, 1);
		double w2 = draw_text(cr, MARGIN + w + 10, y + 18, what, 0);
		if (g->baseline >= 0)
			draw_fit(cr, MARGIN + w + 10 + w2, y + 18, g->arms[g->baseline].label, 300);
		int idle = 0;
		for (size_t i = 0; i < g->n_rows; i++)
			idle |= g->rows[i].phase == FLEET_IDLE;
		font(cr, FONT_SMALL, 0);
		draw_text(cr, PLOT_X0, y + 38, idle ? "median time per sample, log scale; (idle) rows "
			  "are shown, not recommended from" : "median time per sample, log scale", 0);
		char lv[96];
		snprintf(lv, sizeof(lv), "ratio [%.3g %% interval], agree", 100 * g->ratio_level);
		draw_text(cr, RIGHT_X, y + 38, lv, 0);
	}
	double top = y + HEAD_H, bottom = top + g->n_rows * ROW_H;
	if (!draw)
		return bottom + AXIS_H + 8;
	for (size_t i = 0; i < g->n_rows; i++) {
		cairo_set_source_rgb(cr, i % 2 ? 1 : 0.965, i % 2 ? 1 : 0.965, i % 2 ? 1 : 0.965);
		cairo_rectangle(cr, MARGIN - 4, top + i * ROW_H, W - 2 * MARGIN + 8, ROW_H);
		cairo_fill(cr);
	}
	axis_draw(cr, &ax, top, bottom);
	for (size_t i = 0; i < g->n_rows; i++) {
		const struct fleet_row *r = &g->rows[i];
		double cy = top + (i + 0.5) * ROW_H;
		int new_action = i == 0 || g->rows[i - 1].action != r->action ||
				 g->rows[i - 1].phase != r->phase;
		/* a rule between actions, the action's name on its first row */
		if (new_action && i) {
			cairo_set_source_rgba(cr, 0, 0, 0, 0.25);
			cairo_set_line_width(cr, 1);
			cairo_move_to(cr, MARGIN - 4, floor(top + i * ROW_H) + 0.5);
			cairo_line_to(cr, W - MARGIN + 4, floor(top + i * ROW_H) + 0.5);
			cairo_stroke(cr);
		}
		if (new_action) {
			char an[48];
			snprintf(an, sizeof(an), "%s%s", action_kind_name((enum action_kind)r->action),
				 r->phase == FLEET_IDLE ? " (idle)" : "");
			font(cr, FONT_BODY, 1);
			colour(cr, c_text, 1);
			draw_fit(cr, ACT_X, cy + 4, an, ARM_X - ACT_X - 6);
		}
		struct rgb pc = palette[r->arm % 8];
		colour(cr, pc, 1);
		cairo_rectangle(cr, ARM_X, cy - SWATCH / 2, SWATCH, SWATCH);
		cairo_fill(cr);
		font(cr, FONT_BODY, (int)r->arm == g->best);
		colour(cr, c_text, 1);
		draw_fit(cr, ARM_X + SWATCH + 6, cy + 4, g->arms[r->arm].label, LAB_W);
		char mach[64];
		snprintf(mach, sizeof(mach), "%zu machine%s, %zu sample%s", r->machines,
			 r->machines == 1 ? "" : "s", r->samples, r->samples == 1 ? "" : "s");
		font(cr, FONT_SMALL, 0);
		colour(cr, c_dim, 1);
		double cx = ARM_X + SWATCH + 6 + LAB_W + 8;
		draw_fit(cr, cx, cy + 4, mach, PLOT_X0 - 8 - cx);
		if (isfinite(r->p50.est)) {
			double lo = isfinite(r->p50.lo) ? ax_x(&ax, r->p50.lo) : 0;
			double hi = isfinite(r->p50.hi) ? ax_x(&ax, r->p50.hi) : 0;
			mark_median(cr, ax_x(&ax, r->p50.est), cy, lo, hi, pc);
		}
		char v[200], med[32];
		struct rgb vc = c_dim;
		int bold = 0;
		ms_value(r->p50.est, med, sizeof(med));
		if ((int)r->arm == g->baseline) {
			snprintf(v, sizeof(v), "baseline, median %s", med);
		} else if (isfinite(r->ratio50.est)) {
			char e[16], lo[16], hi[16];
			fratio(e, sizeof(e), r->ratio50.est);
			fratio(lo, sizeof(lo), r->ratio50.lo);
			fratio(hi, sizeof(hi), r->ratio50.hi);
			const char *word = !r->decided ? "too few machines"
					   : r->verdict == STATS_FASTER ? "faster"
					   : r->verdict == STATS_SLOWER ? "slower" : "no difference";
			vc = !r->decided ? c_dim : r->verdict == STATS_FASTER ? c_faster
			     : r->verdict == STATS_SLOWER ? c_slower : c_dim;
			bold = r->decided && r->verdict != STATS_NO_DIFFERENCE;
			snprintf(v, sizeof(v), "%sx [%s, %s] %s, %zu/%zu", e, lo, hi, word, r->agree,
				 r->paired);
		} else {
			snprintf(v, sizeof(v), "median %s; no machine has both", med);
		}
		font(cr, FONT_BODY, bold);
		colour(cr, vc, 1);
		draw_fit(cr, RIGHT_X, cy + 4, v, RIGHT_W);
	}
	/* the baseline's median of each action, dashed over its rows */
	for (size_t i = 0; g->baseline >= 0 && i < g->n_rows; i++) {
		const struct fleet_row *b = &g->rows[i];
		if ((int)b->arm != g->baseline || !isfinite(b->p50.est))
			continue;
		size_t from = i, to = i;
		while (from > 0 && g->rows[from - 1].action == b->action &&
		       g->rows[from - 1].phase == b->phase)
			from--;
		while (to + 1 < g->n_rows && g->rows[to + 1].action == b->action &&
		       g->rows[to + 1].phase == b->phase)
			to++;
		dashed(cr, floor(ax_x(&ax, b->p50.est)) + 0.5, top + from * ROW_H + 2,
		       top + (to + 1) * ROW_H - 2);
	}
	cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, PLOT_X0 + 0.5, top + 0.5, PLOT_X1 - PLOT_X0, bottom - top);
	cairo_stroke(cr);
	return bottom + AXIS_H + 8;
}

static double group_block(cairo_t *cr, const struct fleet_group *g, double y, int draw)
{
	y = panel(cr, g, y, draw);
	font(cr, FONT_BODY, 1);
	colour(cr, g->best >= 0 ? c_faster : c_text, 1);
	double w = draw ? draw_text(cr, MARGIN, y + 12, "Recommendation: ", 0)
			: text_width(cr, "Recommendation: ");
	font(cr, FONT_BODY, 0);
	colour(cr, c_text, 1);
	int lines = wrap(cr, MARGIN, y + 12, w, W - 2 * MARGIN, g->recommendation, 4, draw);
	return y + (lines > 0 ? lines : 1) * LINE_H + GAP;
}

static double draw_all(cairo_t *cr, const struct fleet_report *rep, int draw)
{
	if (draw) {
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_paint(cr);
	}
	double y = MARGIN;
	char t[256];
	snprintf(t, sizeof(t), "brisk report: %zu result%s from %zu machine%s, by %s",
		 rep->n_results, rep->n_results == 1 ? "" : "s", rep->n_machines,
		 rep->n_machines == 1 ? "" : "s", fleet_by_name(rep->opt.by));
	if (draw) {
		font(cr, FONT_TITLE, 1);
		colour(cr, c_text, 1);
		draw_text(cr, MARGIN, y + 16, t, 0);
	}
	y += 24;
	snprintf(t, sizeof(t), "seed %llu; the machine is the unit; a verdict needs %d machines "
		 "that measured both%s", (unsigned long long)rep->opt.seed, FLEET_MIN_MACHINES,
		 rep->n_skipped ? "; some files were skipped (see the text report)" : "");
	if (draw) {
		font(cr, FONT_BODY, 0);
		colour(cr, c_dim, 1);
		draw_fit(cr, MARGIN, y + 14, t, W - 2 * MARGIN);
	}
	y += 24;
	if (draw)
		legend(cr, y);
	y += 26 + 8;
	for (size_t i = 0; i < rep->n_groups; i++)
		y = group_block(cr, &rep->groups[i], y, draw);
	return y + MARGIN - GAP;
}

/* ---- output: as compare_plot ---- */

struct sink {
	int fd;
	int err;
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

static int render(const struct fleet_report *rep, int png, struct sink *s, cairo_status_t *what)
{
	cairo_surface_t *m = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
	cairo_t *cr = cairo_create(m);
	double h = draw_all(cr, rep, 0);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_destroy(m);
	if (st != CAIRO_STATUS_SUCCESS) {
		*what = st;
		return cairo_rc(st, s);
	}
	if (!(h >= 1) || h > 32000) {
		*what = CAIRO_STATUS_INVALID_SIZE;
		return -E2BIG;
	}
	int height = (int)ceil(h);
	cairo_surface_t *surf = !png ? cairo_svg_surface_create_for_stream(sink_write, s, W, height)
				     : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, height);
	st = cairo_surface_status(surf);
	if (st == CAIRO_STATUS_SUCCESS) {
		cr = cairo_create(surf);
		draw_all(cr, rep, 1);
		st = cairo_status(cr);
		cairo_destroy(cr);
	}
	if (st == CAIRO_STATUS_SUCCESS && png)
		st = cairo_surface_write_to_png_stream(surf, sink_write, s);
	cairo_surface_finish(surf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surf);
	cairo_surface_destroy(surf);
	*what = st;
	return cairo_rc(st, s);
}

static int ext_is(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	return (size_t)(path + n - base) > e && strcasecmp(path + n - e, ext) == 0;
}

int fleet_plot(const struct fleet_report *rep, const char *path, char *err, size_t errlen)
{
	int png;
	if (ext_is(path, ".svg"))
		png = 0;
	else if (ext_is(path, ".png"))
		png = 1;
	else
		return msg_fail(-EINVAL, err, errlen, "%s: the plot's format is chosen by its "
				"extension: name it .svg or .png", path);
	char tmp[PATH_MAX];
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		uint32_t rnd;
		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
			rnd = (uint32_t)getpid() * 2654435761u + (uint32_t)tries;
		if (snprintf(tmp, sizeof(tmp), "%s.tmp%08x", path, rnd) >= (int)sizeof(tmp))
			return msg_fail(-ENAMETOOLONG, err, errlen, "%s: path too long", path);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return msg_fail(-errno, err, errlen, "cannot write the plot %s: %s", path,
					strerror(errno));
	}
	if (fd < 0)
		return msg_fail(-EEXIST, err, errlen, "cannot write the plot %s: no free temporary "
				"name next to it", path);
	struct sink s = { fd, 0 };
	cairo_status_t what = CAIRO_STATUS_SUCCESS;
	int rc = render(rep, png, &s, &what);
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0) {
		unlink(tmp);
		if (rc == -E2BIG)
			return msg_fail(rc, err, errlen, "cannot draw the plot %s: %zu groups do not fit "
					"one picture (try --by class)", path, rep->n_groups);
		if (rc == -EIO && what != CAIRO_STATUS_SUCCESS)
			return msg_fail(rc, err, errlen, "cannot draw the plot %s: cairo: %s", path,
					cairo_status_to_string(what));
		return msg_fail(rc, err, errlen, "cannot write the plot %s: %s", path, strerror(-rc));
	}
	return 0;
}
