/* compare_plot — a picture of a comparison in SVG or PNG (cairo).
 * Contract in compare_plot.h. */
#include "compare_plot.h"

#include <cairo.h>
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
#include <sys/stat.h>
#include <unistd.h>

#include "action.h"
#include "fileio.h"
#include "msg.h"
#include "stats.h"
#include "text.h"

/* Geometry, px. */
#define W        COMPARE_PLOT_WIDTH
#define MARGIN   20.0
#define SWATCH   10.0
#define LABEL_X  (MARGIN + SWATCH + 6.0)
#define PLOT_X0  300.0
#define PLOT_X1  (W - 320.0)
#define PAD      10.0     /* inside the frame: marks at the ends stay clear */
#define RIGHT_X  (PLOT_X1 + 14.0)
#define RIGHT_W  (W - MARGIN - RIGHT_X)
#define ROW_H    26.0
#define HEAD_H   30.0
#define AXIS_H   26.0
#define GAP      18.0

#define FONT_TITLE 17.0
#define FONT_HEAD  14.0
#define FONT_BODY  12.0
#define FONT_SMALL 11.0

#define ESC_MAX (4 * sizeof(((struct compare_result *)0)->dir) + 8)

struct rgb {
	double r, g, b;
};

static const struct rgb arm_colour[COMPARE_MAX_ARMS] = {
	{ 0.122, 0.467, 0.706 },   /* blue */
	{ 1.000, 0.498, 0.055 },   /* orange */
	{ 0.173, 0.627, 0.173 },   /* green */
	{ 0.580, 0.404, 0.741 },   /* purple */
	{ 0.549, 0.337, 0.294 },   /* brown */
	{ 0.890, 0.467, 0.761 },   /* pink */
	{ 0.090, 0.745, 0.812 },   /* cyan */
	{ 0.737, 0.741, 0.133 },   /* olive */
};
static const struct rgb c_timeout = { 0.839, 0.153, 0.157 };
static const struct rgb c_faster = { 0.10, 0.50, 0.22 };
static const struct rgb c_slower = { 0.78, 0.16, 0.16 };
static const struct rgb c_text = { 0.10, 0.10, 0.10 };
static const struct rgb c_dim = { 0.40, 0.40, 0.40 };

static void colour(cairo_t *cr, struct rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
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

/* Width of the first n bytes of s. */
static double prefix_width(cairo_t *cr, const char *s, size_t n)
{
	char buf[ESC_MAX];
	snprintf(buf, sizeof(buf), "%.*s", (int)n, s);
	return text_width(cr, buf);
}

static int is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

enum cut { CUT_END, CUT_START, CUT_MIDDLE };

/* The part of esc (n bytes) kept when k bytes are kept, cut as how says,
 * with the ellipsis, at whole characters (esc is clean UTF-8). */
static void cut_at(const char *esc, size_t n, size_t k, enum cut how, char *out, size_t outlen)
{
	static const char ell[] = "\xe2\x80\xa6";   /* U+2026 */
	size_t head = how == CUT_END ? k : how == CUT_START ? 0 : (k + 1) / 2;
	size_t tail = k - head;
	while (head > 0 && is_cont((unsigned char)esc[head]))
		head--;
	const char *t = esc + n - tail;
	while (*t && is_cont((unsigned char)*t))
		t++;
	snprintf(out, outlen, "%.*s%s%s", (int)head, esc, ell, t);
}

/* src escaped (untrusted text), cut with an ellipsis to fit maxw in the
 * current font: at the end, at the start (a directory's last components
 * matter most) or in the middle (labels that differ at their end).  out
 * holds ESC_MAX. */
static void fit(cairo_t *cr, const char *src, double maxw, enum cut how, char *out,
		size_t outlen)
{
	char esc[ESC_MAX], buf[ESC_MAX + 8];
	text_escape(esc, sizeof(esc), src ? src : "");
	size_t n = strlen(esc);
	if (text_width(cr, esc) <= maxw) {
		snprintf(out, outlen, "%s", esc);
		return;
	}
	/* Binary search the most bytes kept that fit with the ellipsis. */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;
		cut_at(esc, n, mid, how, buf, sizeof(buf));
		if (text_width(cr, buf) <= maxw)
			lo = mid;
		else
			hi = mid - 1;
	}
	cut_at(esc, n, lo, how, out, outlen);
}

/* Draw s with its baseline at y: align 0 left of x, 1 right of x, 0.5
 * centred on x.  Returns the advance. */
static double draw_text(cairo_t *cr, double x, double y, const char *s, double align)
{
	double w = text_width(cr, s);
	cairo_move_to(cr, x - align * w, y);
	cairo_show_text(cr, s);
	return w;
}

/* Escaped, fitted text of an untrusted source, drawn. */
static double draw_fit(cairo_t *cr, double x, double y, const char *src, double maxw,
		       enum cut how)
{
	char buf[ESC_MAX];
	fit(cr, src, maxw, how, buf, sizeof(buf));
	return draw_text(cr, x, y, buf, 0);
}

/* Greedy word wrap of untrusted src into at most max_lines lines of maxw,
 * the first starting after a lead of lead_w px; the last line is cut with
 * an ellipsis when text is left.  Draws when draw, returns the lines. */
static int wrap(cairo_t *cr, double x, double y, double lead_w, double maxw, double line_h,
		const char *src, int max_lines, int draw)
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
		char line[ESC_MAX];
		if (take == 0 || (last && take < n)) {
			/* A word longer than the line, or the last line with
			 * text left: cut with an ellipsis. */
			fit(cr, p, avail, CUT_END, line, sizeof(line));
			take = n;
		} else {
			snprintf(line, sizeof(line), "%.*s", (int)take, p);
		}
		if (draw)
			draw_text(cr, lx, y + lines * line_h, line, 0);
		lines++;
		p += take;
	}
	return lines;
}

/* ---- axes ---------------------------------------------------------- */

struct axis {
	double lo, hi;      /* values at x0 and x1 */
	int log;
};

static double ax_x(const struct axis *a, double v)
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
	double pad = a->log ? PAD : 0;
	return PLOT_X0 + pad + f * (PLOT_X1 - PLOT_X0 - 2 * pad);
}

/* The 1-2-5 value at or below (up = 0) or above (up = 1) v > 0. */
static double nice125(double v, int up)
{
	double d = pow(10, floor(log10(v)));
	double m = v / d;
	if (!up)
		return (m >= 5 - 1e-9 ? 5 : m >= 2 - 1e-9 ? 2 : 1) * d;
	return (m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10) * d;
}

static void ms_label(double v, char *buf, size_t len)
{
	if (v >= 1000)
		snprintf(buf, len, "%g s", v / 1000);
	else
		snprintf(buf, len, "%g ms", v);
}

static void ms_value(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v >= 1000)
		snprintf(buf, len, "%.3g s", v / 1000);
	else
		snprintf(buf, len, "%.3g ms", v);
}

/* Tick labels under the plot at y: decades first, then the 2s and 5s
 * (or, linear, every tick) where they do not touch a placed label. */
static void axis_draw(cairo_t *cr, const struct axis *a, double top, double bottom)
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
		double step = nice125((a->hi - a->lo) / 5, 1);
		for (double v = a->lo; v <= a->hi + step * 1e-6 && nt < 60; v += step) {
			ticks[nt] = v;
			prio[nt++] = 0;
		}
	}
	/* Grid. */
	for (size_t i = 0; i < nt; i++) {
		double x = floor(ax_x(a, ticks[i])) + 0.5;
		cairo_set_source_rgba(cr, 0, 0, 0, prio[i] == 0 ? 0.18 : 0.08);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, x, top);
		cairo_line_to(cr, x, bottom + 4);
		cairo_stroke(cr);
	}
	/* Labels. */
	double placed[64][2];
	size_t np = 0;
	font(cr, FONT_SMALL, 0);
	colour(cr, c_dim, 1);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < nt; i++) {
			if (prio[i] != pass)
				continue;
			char lab[32];
			if (!a->log)
				snprintf(lab, sizeof(lab), "%g", ticks[i]);
			else
				ms_label(ticks[i], lab, sizeof(lab));
			double w = text_width(cr, lab), x = ax_x(a, ticks[i]);
			double l = x - w / 2 - 5, r = x + w / 2 + 5;
			if (l < PLOT_X0 - 30 || r > PLOT_X1 + 30)
				continue;
			int clash = 0;
			for (size_t j = 0; j < np; j++)
				if (l < placed[j][1] && r > placed[j][0])
					clash = 1;
			if (clash)
				continue;
			placed[np][0] = l;
			placed[np++][1] = r;
			draw_text(cr, x, bottom + 16, lab, 0.5);
		}
}

/* ---- the picture --------------------------------------------------- */

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static void mark_cold(cairo_t *cr, double x, double y, struct rgb c)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 3.4, 0, 2 * M_PI);
	colour(cr, c, 0.75);
	cairo_fill(cr);
}

static void mark_warm(cairo_t *cr, double x, double y, struct rgb c)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 3.2, 0, 2 * M_PI);
	colour(cr, c, 1);
	cairo_set_line_width(cr, 1.4);
	cairo_stroke(cr);
}

static void mark_timeout(cairo_t *cr, double x, double y)
{
	colour(cr, c_timeout, 1);
	cairo_set_line_width(cr, 2);
	cairo_move_to(cr, x - 4, y - 4);
	cairo_line_to(cr, x + 4, y + 4);
	cairo_move_to(cr, x - 4, y + 4);
	cairo_line_to(cr, x + 4, y - 4);
	cairo_stroke(cr);
}

static void mark_median(cairo_t *cr, double x, double y, double lo_x, double hi_x)
{
	if (hi_x > lo_x) {
		cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.45);
		cairo_rectangle(cr, lo_x, y - 3, hi_x - lo_x, 6);
		cairo_fill(cr);
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 2.5);
	cairo_move_to(cr, x, y - ROW_H * 0.38);
	cairo_line_to(cr, x, y + ROW_H * 0.38);
	cairo_stroke(cr);
}

static void dashed_line(cairo_t *cr, double x, double top, double bottom)
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

/* The arm's label column for one row centred at y. */
static void row_label(cairo_t *cr, const struct compare_result *r, size_t i, double y)
{
	const struct compare_arm *a = &r->arms[i];
	const char *name = a->label[0] ? a->label : a->name;
	colour(cr, arm_colour[i], 1);
	cairo_rectangle(cr, MARGIN, y - SWATCH / 2, SWATCH, SWATCH);
	cairo_fill(cr);
	double maxw = PLOT_X0 - 10 - LABEL_X;
	font(cr, FONT_BODY, (int)i == r->best);
	colour(cr, c_text, 1);
	if (i == 0) {
		static const char tag[] = " (baseline)";
		double tw = text_width(cr, tag);
		double w = draw_fit(cr, LABEL_X, y + 4, name, maxw - tw, CUT_MIDDLE);
		colour(cr, c_dim, 1);
		draw_text(cr, LABEL_X + w, y + 4, tag, 0);
	} else {
		draw_fit(cr, LABEL_X, y + 4, name, maxw, CUT_MIDDLE);
	}
}

static void row_stripes(cairo_t *cr, size_t n, double top)
{
	for (size_t i = 0; i < n; i++) {
		if (i % 2 == 0)
			cairo_set_source_rgb(cr, 0.965, 0.965, 0.965);
		else
			cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_rectangle(cr, MARGIN - 4, top + i * ROW_H, W - 2 * MARGIN + 8, ROW_H);
		cairo_fill(cr);
	}
}

static void panel_head(cairo_t *cr, double y, const char *name, const char *what)
{
	font(cr, FONT_HEAD, 1);
	colour(cr, c_text, 1);
	double w = draw_text(cr, MARGIN, y + 18, name, 0);
	font(cr, FONT_BODY, 0);
	colour(cr, c_dim, 1);
	draw_text(cr, MARGIN + w + 10, y + 18, what, 0);
}

static int sample_ok(const struct compare_result *r, const struct compare_sample *s)
{
	return s->arm < r->n_arms && s->action < ACTION_KIND_COUNT;
}

static double action_panel(cairo_t *cr, const struct compare_result *r, enum action_kind k,
			   double y)
{
	/* The axis: every drawable sample and CI bound. */
	double mn = INFINITY, mx = -INFINITY;
	for (size_t i = 0; i < r->n_samples; i++) {
		const struct compare_sample *s = &r->samples[i];
		if (!sample_ok(r, s) || s->action != k || !isfinite(s->ms) || s->ms <= 0)
			continue;
		if (s->err && !s->timeout)
			continue;
		mn = fmin(mn, s->ms);
		mx = fmax(mx, s->ms);
	}
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct compare_ci *c = &r->cells[i][k].p50;
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
	mx = fmin(fmax(mx, mn), 1e7);
	struct axis ax = { nice125(mn, 0), nice125(mx, 1), 1 };
	if (ax.hi <= ax.lo) {
		ax.lo = nice125(ax.lo * 0.99, 0);
		ax.hi = nice125(ax.hi * 1.01, 1);
	}

	char what[96];
	snprintf(what, sizeof(what), "time per sample, log scale");
	panel_head(cr, y, action_kind_name(k), what);
	double top = y + HEAD_H, bottom = top + r->n_arms * ROW_H;
	row_stripes(cr, r->n_arms, top);
	axis_draw(cr, &ax, top, bottom);

	/* Samples. */
	unsigned failed[COMPARE_MAX_ARMS] = { 0 };
	for (size_t i = 0; i < r->n_samples; i++) {
		const struct compare_sample *s = &r->samples[i];
		if (!sample_ok(r, s) || s->action != k)
			continue;
		if (!isfinite(s->ms) || (s->err && !s->timeout)) {
			failed[s->arm]++;
			continue;
		}
		double jit = ((double)(hash32((uint32_t)i * 2654435761U) % 2001) / 1000.0 - 1.0);
		double cy = top + (s->arm + 0.5) * ROW_H + jit * ROW_H * 0.30;
		double cx = ax_x(&ax, s->ms);
		if (s->timeout)
			mark_timeout(cr, cx, cy);
		else if (s->cold)
			mark_cold(cr, cx, cy, arm_colour[s->arm]);
		else
			mark_warm(cr, cx, cy, arm_colour[s->arm]);
	}

	/* Medians, CIs, labels, verdicts. */
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct compare_cell *c = &r->cells[i][k];
		double cy = top + (i + 0.5) * ROW_H;
		if (isfinite(c->p50.est)) {
			double lo = isfinite(c->p50.lo) ? ax_x(&ax, c->p50.lo) : 0;
			double hi = isfinite(c->p50.hi) ? ax_x(&ax, c->p50.hi) : 0;
			mark_median(cr, ax_x(&ax, c->p50.est), cy, lo, hi);
		}
		row_label(cr, r, i, cy);

		char v[160], med[32];
		struct rgb vc = c_dim;
		ms_value(c->p50.est, med, sizeof(med));
		if (i == 0 && !isfinite(c->p50.est)) {
			snprintf(v, sizeof(v), "no data");
		} else if (i == 0 && isfinite(c->p50.lo) && isfinite(c->p50.hi) &&
			   c->p50.lo <= c->p50.hi) {
			char lo[32], hi[32];
			ms_value(c->p50.lo, lo, sizeof(lo));
			ms_value(c->p50.hi, hi, sizeof(hi));
			snprintf(v, sizeof(v), "median %s [%s, %s]", med, lo, hi);
		} else if (i == 0) {
			snprintf(v, sizeof(v), "median %s", med);
		} else if (isfinite(c->ratio_runs.est)) {
			const char *word = c->verdict == STATS_FASTER ? "faster"
					   : c->verdict == STATS_SLOWER ? "slower" : "no difference";
			vc = c->verdict == STATS_FASTER ? c_faster
			     : c->verdict == STATS_SLOWER ? c_slower : c_dim;
			if (isfinite(c->ratio_runs.lo) && isfinite(c->ratio_runs.hi))
				snprintf(v, sizeof(v), "%.2fx [%.2f, %.2f] %s", c->ratio_runs.est,
					 c->ratio_runs.lo, c->ratio_runs.hi, word);
			else
				snprintf(v, sizeof(v), "%.2fx %s", c->ratio_runs.est, word);
		} else {
			snprintf(v, sizeof(v), "no data");
		}
		font(cr, FONT_BODY, i != 0 && c->verdict != STATS_NO_DIFFERENCE);
		colour(cr, vc, 1);
		double w = draw_fit(cr, RIGHT_X, cy + 4, v, RIGHT_W, CUT_END);
		if (failed[i] && RIGHT_W - w > 40) {
			char f[48];
			snprintf(f, sizeof(f), "  %u failed", failed[i]);
			font(cr, FONT_SMALL, 0);
			colour(cr, c_timeout, 1);
			draw_fit(cr, RIGHT_X + w, cy + 4, f, RIGHT_W - w, CUT_END);
		}
	}
	if (isfinite(r->cells[0][k].p50.est))
		dashed_line(cr, floor(ax_x(&ax, r->cells[0][k].p50.est)) + 0.5, top - 4, bottom + 4);
	cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, PLOT_X0 + 0.5, top + 0.5, PLOT_X1 - PLOT_X0, bottom - top);
	cairo_stroke(cr);
	return bottom + AXIS_H + GAP;
}

/* Decimals for a throughput: 3 significant digits, none past 100. */
static int mib_prec(double v)
{
	double a = fabs(v);
	return a >= 100 ? 0 : a >= 10 ? 1 : 2;
}

static double load_panel(cairo_t *cr, const struct compare_result *r, double y)
{
	double mx = 0;
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct compare_ci *c = &r->armstat[i].load_mibps;
		if (isfinite(c->est))
			mx = fmax(mx, c->est);
		if (isfinite(c->hi))
			mx = fmax(mx, c->hi);
	}
	if (!(mx > 0))
		mx = 1;
	mx = fmin(mx, 1e9);
	double step = nice125(mx / 5, 1);
	struct axis ax = { 0, ceil(mx * 1.0001 / step) * step, 0 };

	panel_head(cr, y, "load", "background load throughput, MiB/s: mean over the arm-runs and its 95 % CI");
	double top = y + HEAD_H, bottom = top + r->n_arms * ROW_H;
	row_stripes(cr, r->n_arms, top);
	axis_draw(cr, &ax, top, bottom);
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct compare_armstat *a = &r->armstat[i];
		const struct compare_ci *c = &a->load_mibps;
		double cy = top + (i + 0.5) * ROW_H;
		char v[160];
		if (isfinite(c->est)) {
			double x = ax_x(&ax, c->est);
			double x0 = ax_x(&ax, 0);
			colour(cr, arm_colour[i], 0.75);
			cairo_rectangle(cr, x0, cy - ROW_H * 0.25, x - x0, ROW_H * 0.5);
			cairo_fill(cr);
			if (isfinite(c->lo) && isfinite(c->hi) && c->hi >= c->lo) {
				double l = ax_x(&ax, c->lo), h = ax_x(&ax, c->hi);
				cairo_set_source_rgb(cr, 0, 0, 0);
				cairo_set_line_width(cr, 1.5);
				cairo_move_to(cr, l, cy);
				cairo_line_to(cr, h, cy);
				cairo_move_to(cr, l, cy - 5);
				cairo_line_to(cr, l, cy + 5);
				cairo_move_to(cr, h, cy - 5);
				cairo_line_to(cr, h, cy + 5);
				cairo_stroke(cr);
				snprintf(v, sizeof(v), "%.*f MiB/s [%.*f, %.*f]", mib_prec(c->est), c->est,
					 mib_prec(c->est), c->lo, mib_prec(c->est), c->hi);
			} else {
				snprintf(v, sizeof(v), "%.*f MiB/s", mib_prec(c->est), c->est);
			}
		} else {
			snprintf(v, sizeof(v), "no load measured");
		}
		row_label(cr, r, i, cy);
		font(cr, FONT_BODY, 0);
		colour(cr, c_dim, 1);
		double w = draw_fit(cr, RIGHT_X, cy + 4, v, RIGHT_W, CUT_END);
		/* Its place in the ranking, and what that means. */
		for (size_t j = 0; j < r->n_ranked && j < COMPARE_MAX_ARMS; j++) {
			if (r->ranking[j] != i)
				continue;
			char rank[16];
			snprintf(rank, sizeof(rank), "  #%zu", j + 1);
			if (RIGHT_W - w > 20)
				w += draw_fit(cr, RIGHT_X + w, cy + 4, rank, RIGHT_W - w, CUT_END);
			break;
		}
		const char *note = (int)i == r->best ? "  recommended"
				   : isfinite(c->est) && !a->load_ok ? "  starves the load" : NULL;
		if (note && RIGHT_W - w > 40) {
			font(cr, FONT_BODY, 1);
			colour(cr, (int)i == r->best ? c_faster : c_slower, 1);
			draw_fit(cr, RIGHT_X + w, cy + 4, note, RIGHT_W - w, CUT_END);
		}
	}
	cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, PLOT_X0 + 0.5, top + 0.5, PLOT_X1 - PLOT_X0, bottom - top);
	cairo_stroke(cr);
	return bottom + AXIS_H + GAP;
}

static double legend(cairo_t *cr, double y)
{
	double x = MARGIN, cy = y + 8;
	font(cr, FONT_SMALL, 0);
	struct rgb c = arm_colour[0];
	mark_cold(cr, x + 4, cy, c);
	colour(cr, c_dim, 1);
	x += 12 + draw_text(cr, x + 12, cy + 4, "cold sample", 0) + 22;
	mark_warm(cr, x + 4, cy, c);
	colour(cr, c_dim, 1);
	x += 12 + draw_text(cr, x + 12, cy + 4, "warm sample", 0) + 22;
	mark_timeout(cr, x + 4, cy);
	colour(cr, c_dim, 1);
	x += 12 + draw_text(cr, x + 12, cy + 4, "timed out (at its limit)", 0) + 22;
	mark_median(cr, x + 14, cy, x, x + 28);
	colour(cr, c_dim, 1);
	x += 34 + draw_text(cr, x + 34, cy + 4, "median and its 95 % CI", 0) + 22;
	dashed_line(cr, x + 4, cy - 9, cy + 9);
	colour(cr, c_dim, 1);
	x += 12 + draw_text(cr, x + 12, cy + 4, "baseline median", 0) + 22;
	colour(cr, c_dim, 1);
	draw_text(cr, x, cy + 4, "ratio = typical arm-run (geometric mean), arm / baseline, Welch 95 % CI", 0);
	return y + 26;
}

/* Draw the whole picture; returns the height used. */
static double draw(cairo_t *cr, const struct compare_result *r)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);

	double y = MARGIN;
	font(cr, FONT_TITLE, 1);
	colour(cr, c_text, 1);
	double w = draw_text(cr, MARGIN, y + 16, "brisk compare: ", 0);
	draw_fit(cr, MARGIN + w, y + 16, r->dir, W - 2 * MARGIN - w, CUT_START);
	y += 24;
	font(cr, FONT_BODY, 0);
	colour(cr, c_text, 1);
	if (r->stackline[0]) {
		draw_fit(cr, MARGIN, y + 14, r->stackline, W - 2 * MARGIN, CUT_END);
		y += 19;
	}
	char info[256];
	int n = snprintf(info, sizeof(info), "%u round%s of %zu arms, seed %llu; verdicts at alpha %.3g",
			 r->rounds_done, r->rounds_done == 1 ? "" : "s", r->n_arms,
			 (unsigned long long)r->seed, isfinite(r->alpha_look) ? r->alpha_look : r->alpha);
	if (n > 0 && (size_t)n < sizeof(info) && r->looks > 1)
		n += snprintf(info + n, sizeof(info) - (size_t)n, " (of %.3g split over %u looks)", r->alpha,
			      r->looks);
	if (n > 0 && (size_t)n < sizeof(info) && r->stopped_early)
		n += snprintf(info + n, sizeof(info) - (size_t)n, "; stopped early, all settled");
	if (n > 0 && (size_t)n < sizeof(info) && r->stop_signal)
		snprintf(info + n, sizeof(info) - (size_t)n, "; stopped by signal %d", r->stop_signal);
	colour(cr, c_dim, 1);
	draw_fit(cr, MARGIN, y + 14, info, W - 2 * MARGIN, CUT_END);
	y += 26;
	y = legend(cr, y) + 8;

	for (int k = 0; k < ACTION_KIND_COUNT; k++)
		if (r->actions & (1u << k))
			y = action_panel(cr, r, (enum action_kind)k, y);
	y = load_panel(cr, r, y);

	/* Footer. */
	const double line_h = 17;
	font(cr, FONT_BODY, 1);
	colour(cr, c_text, 1);
	w = draw_text(cr, MARGIN, y + 12, "Recommendation: ", 0);
	font(cr, FONT_BODY, 0);
	int lines = wrap(cr, MARGIN, y + 12, w, W - 2 * MARGIN, line_h,
			 r->recommendation[0] ? r->recommendation : "none", 4, 1);
	y += (lines > 0 ? lines : 1) * line_h + 4;
	if (r->rule[0]) {
		font(cr, FONT_BODY, 1);
		colour(cr, c_dim, 1);
		w = draw_text(cr, MARGIN, y + 12, "Ranking: ", 0);
		font(cr, FONT_BODY, 0);
		lines = wrap(cr, MARGIN, y + 12, w, W - 2 * MARGIN, line_h, r->rule, 4, 1);
		y += (lines > 0 ? lines : 1) * line_h + 4;
	}
	return y + MARGIN;
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

enum fmt { FMT_SVG, FMT_PNG };

/* Render into the open file; 0 or -errno with *what the cairo status. */
static int render(const struct compare_result *r, enum fmt f, struct sink *s,
		  cairo_status_t *what)
{
	/* Pass 1: measure the height on a scratch surface. */
	cairo_surface_t *m = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
	cairo_t *cr = cairo_create(m);
	double h = draw(cr, r);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_destroy(m);
	if (st != CAIRO_STATUS_SUCCESS) {
		*what = st;
		return cairo_rc(st, s);
	}
	int height = (int)ceil(h);
	if (height < 1 || height > 30000) {
		*what = CAIRO_STATUS_INVALID_SIZE;
		return -EIO;
	}

	cairo_surface_t *surf = f == FMT_SVG
		? cairo_svg_surface_create_for_stream(sink_write, s, W, height)
		: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, height);
	st = cairo_surface_status(surf);
	if (st == CAIRO_STATUS_SUCCESS) {
		cr = cairo_create(surf);
		draw(cr, r);
		st = cairo_status(cr);
		cairo_destroy(cr);
	}
	if (st == CAIRO_STATUS_SUCCESS && f == FMT_PNG)
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

int compare_plot(const struct compare_result *r, const char *path, char *err, size_t errlen)
{
	enum fmt f;
	if (ext_is(path, ".svg"))
		f = FMT_SVG;
	else if (ext_is(path, ".png"))
		f = FMT_PNG;
	else
		return msg_fail(-EINVAL, err, errlen,
				"%s: the plot's format is chosen by its extension: name it .svg or .png",
				path);
	if (r->n_arms < 1 || r->n_arms > COMPARE_MAX_ARMS)
		return msg_fail(-EINVAL, err, errlen, "%s: nothing to plot: %zu arms (1 to %d)", path,
				r->n_arms, COMPARE_MAX_ARMS);

	char tmp[PATH_MAX];
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		uint32_t rnd;
		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
			rnd = hash32((uint32_t)getpid() ^ (uint32_t)tries * 0x9e3779b9U);
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
	cairo_status_t what = CAIRO_STATUS_SUCCESS;
	int rc = render(r, f, &s, &what);
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0) {
		unlink(tmp);
		if (rc == -EIO && what != CAIRO_STATUS_SUCCESS)
			return msg_fail(rc, err, errlen, "cannot draw the plot %s: cairo: %s", path,
					cairo_status_to_string(what));
		return msg_fail(rc, err, errlen, "cannot write the plot %s: %s", path, strerror(-rc));
	}
	return 0;
}
