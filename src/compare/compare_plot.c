/* compare_plot — a picture of a comparison in SVG or PNG (cairo, through
 * plot).  Contract in compare_plot.h. */
#include "compare_plot.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "action.h"
#include "compare_split.h"
#include "msg.h"
#include "plot.h"
#include "stats.h"

/* Geometry, px. */
#define W        PLOT_WIDTH
#define MARGIN   PLOT_MARGIN
#define SWATCH   10.0
#define LABEL_X  (MARGIN + SWATCH + 6.0)
#define AXIS_X0  300.0
#define AXIS_X1  (W - 320.0)
#define RIGHT_X  (AXIS_X1 + 14.0)
#define RIGHT_W  (W - MARGIN - RIGHT_X)
#define ROW_H    26.0
#define HEAD_H   30.0
#define AXIS_H   26.0
#define GAP      18.0

_Static_assert(COMPARE_PLOT_WIDTH == PLOT_WIDTH, "compare_plot.h's width is plot's");
_Static_assert(PLOT_TEXT_MAX >= 4 * sizeof(((struct compare_result *)0)->dir) + 8,
	       "a directory escaped fits plot's text buffers");

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

static void mark_cold(cairo_t *cr, double x, double y, struct plot_rgb c)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 3.4, 0, 2 * M_PI);
	plot_colour(cr, c, 0.75);
	cairo_fill(cr);
}

static void mark_warm(cairo_t *cr, double x, double y, struct plot_rgb c)
{
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 3.2, 0, 2 * M_PI);
	plot_colour(cr, c, 1);
	cairo_set_line_width(cr, 1.4);
	cairo_stroke(cr);
}

static void mark_timeout(cairo_t *cr, double x, double y)
{
	plot_colour(cr, plot_c_timeout, 1);
	cairo_set_line_width(cr, 2);
	cairo_move_to(cr, x - 4, y - 4);
	cairo_line_to(cr, x + 4, y + 4);
	cairo_move_to(cr, x - 4, y + 4);
	cairo_line_to(cr, x + 4, y - 4);
	cairo_stroke(cr);
}

/* The arm's label column for one row centred at y. */
static void row_label(cairo_t *cr, const struct compare_result *r, size_t i, double y)
{
	const struct compare_arm *a = &r->arms[i];
	const char *name = a->label[0] ? a->label : a->name;
	plot_colour(cr, plot_arm_colour(i), 1);
	cairo_rectangle(cr, MARGIN, y - SWATCH / 2, SWATCH, SWATCH);
	cairo_fill(cr);
	double maxw = AXIS_X0 - 10 - LABEL_X;
	plot_font(cr, PLOT_FONT_BODY, (int)i == r->best);
	plot_colour(cr, plot_c_text, 1);
	if (i == 0) {
		static const char tag[] = " (baseline)";
		double tw = plot_width(cr, tag);
		double w = plot_show_fit(cr, LABEL_X, y + 4, name, maxw - tw, PLOT_CUT_MIDDLE);
		plot_colour(cr, plot_c_dim, 1);
		plot_show(cr, LABEL_X + w, y + 4, tag, 0);
	} else {
		plot_show_fit(cr, LABEL_X, y + 4, name, maxw, PLOT_CUT_MIDDLE);
	}
}

static void panel_head(cairo_t *cr, double y, const char *name, const char *what)
{
	plot_font(cr, PLOT_FONT_HEAD, 1);
	plot_colour(cr, plot_c_text, 1);
	double w = plot_show(cr, MARGIN, y + 18, name, 0);
	plot_font(cr, PLOT_FONT_BODY, 0);
	plot_colour(cr, plot_c_dim, 1);
	plot_show(cr, MARGIN + w + 10, y + 18, what, 0);
}

static int sample_ok(const struct compare_result *r, const struct compare_sample *s)
{
	return s->arm < r->n_arms && s->action < ACTION_KIND_COUNT;
}

static double action_panel(cairo_t *cr, const struct compare_result *r, enum action_kind k,
			   double y)
{
	/* The axis: every drawable sample and CI bound. */
	struct plot_span sp = { 0 };
	for (size_t i = 0; i < r->n_samples; i++) {
		const struct compare_sample *s = &r->samples[i];
		if (sample_ok(r, s) && s->action == k && (!s->err || s->timeout))
			plot_span_add(&sp, s->ms);
	}
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct stats_ci *c = &r->cells[i][k].p50;
		plot_span_add(&sp, c->est);
		plot_span_add(&sp, c->lo);
		plot_span_add(&sp, c->hi);
	}
	struct plot_axis ax = plot_span_axis(&sp, 1e7, AXIS_X0, AXIS_X1, 0);
	if (ax.hi <= ax.lo) {
		ax.lo = plot_nice125(ax.lo * 0.99, 0);
		ax.hi = plot_nice125(ax.hi * 1.01, 1);
	}

	char what[96];
	snprintf(what, sizeof(what), "time per sample, log scale");
	panel_head(cr, y, action_kind_name(k), what);
	double top = y + HEAD_H, bottom = top + r->n_arms * ROW_H;
	plot_stripes(cr, r->n_arms, top, ROW_H);
	plot_axis_draw(cr, &ax, top, bottom);

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
		double cx = plot_axis_x(&ax, s->ms);
		if (s->timeout)
			mark_timeout(cr, cx, cy);
		else if (s->cold)
			mark_cold(cr, cx, cy, plot_arm_colour(s->arm));
		else
			mark_warm(cr, cx, cy, plot_arm_colour(s->arm));
	}

	/* Medians, CIs, labels, verdicts. */
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct compare_cell *c = &r->cells[i][k];
		double cy = top + (i + 0.5) * ROW_H;
		if (isfinite(c->p50.est)) {
			double lo = isfinite(c->p50.lo) ? plot_axis_x(&ax, c->p50.lo) : 0;
			double hi = isfinite(c->p50.hi) ? plot_axis_x(&ax, c->p50.hi) : 0;
			plot_median(cr, plot_axis_x(&ax, c->p50.est), cy, lo, hi, plot_c_text, 6,
				    ROW_H * 0.38);
		}
		row_label(cr, r, i, cy);

		char v[160], med[32];
		struct plot_rgb vc = plot_c_dim;
		plot_ms_value(c->p50.est, med, sizeof(med));
		if (i == 0 && !isfinite(c->p50.est)) {
			snprintf(v, sizeof(v), "no data");
		} else if (i == 0 && isfinite(c->p50.lo) && isfinite(c->p50.hi) &&
			   c->p50.lo <= c->p50.hi) {
			char lo[32], hi[32];
			plot_ms_value(c->p50.lo, lo, sizeof(lo));
			plot_ms_value(c->p50.hi, hi, sizeof(hi));
			snprintf(v, sizeof(v), "median %s [%s, %s]", med, lo, hi);
		} else if (i == 0) {
			snprintf(v, sizeof(v), "median %s", med);
		} else if (isfinite(c->ratio_runs.est)) {
			const char *word = compare_verdict_name(c->verdict);
			vc = c->verdict == STATS_FASTER ? plot_c_faster
			     : c->verdict == STATS_SLOWER ? plot_c_slower : plot_c_dim;
			if (isfinite(c->ratio_runs.lo) && isfinite(c->ratio_runs.hi))
				snprintf(v, sizeof(v), "%.2fx [%.2f, %.2f] %s", c->ratio_runs.est,
					 c->ratio_runs.lo, c->ratio_runs.hi, word);
			else
				snprintf(v, sizeof(v), "%.2fx %s", c->ratio_runs.est, word);
		} else {
			snprintf(v, sizeof(v), "no data");
		}
		plot_font(cr, PLOT_FONT_BODY, i != 0 && (c->verdict == STATS_FASTER ||
							  c->verdict == STATS_SLOWER));
		plot_colour(cr, vc, 1);
		double w = plot_show_fit(cr, RIGHT_X, cy + 4, v, RIGHT_W, PLOT_CUT_END);
		if (failed[i] && RIGHT_W - w > 40) {
			char f[48];
			snprintf(f, sizeof(f), "  %u failed", failed[i]);
			plot_font(cr, PLOT_FONT_SMALL, 0);
			plot_colour(cr, plot_c_timeout, 1);
			plot_show_fit(cr, RIGHT_X + w, cy + 4, f, RIGHT_W - w, PLOT_CUT_END);
		}
	}
	if (isfinite(r->cells[0][k].p50.est))
		plot_dashed(cr, floor(plot_axis_x(&ax, r->cells[0][k].p50.est)) + 0.5, top - 4, bottom + 4);
	plot_frame(cr, &ax, top, bottom);
	return bottom + AXIS_H + GAP;
}

/* ---- where the time went ------------------------------------------ */

/* The parts are drawn in greys and black hatching, never in a colour:
 * the arms own the colours (plot_arm_colour), so a part cannot be taken
 * for an arm, and the picture reads the same in black and white. */
enum hatch { SOLID, SLASH, BACKSLASH, CROSS, LINES, DOTS };
static const struct {
	double bg, fg;       /* grey levels, 0 black .. 1 white */
	enum hatch h;
} part_style[TIMESPLIT_NPARTS] = {
	[IOWHY_CPU] = { 0.30, 0, SOLID },
	[IOWHY_RUNQ] = { 0.58, 0, SOLID },
	[IOWHY_DEVICE] = { 1.0, 0.10, SLASH },
	[IOWHY_QUEUED] = { 1.0, 0.10, CROSS },
	[IOWHY_ADMIT] = { 1.0, 0.15, DOTS },
	[IOWHY_THROTTLED] = { 1.0, 0.15, LINES },
	[IOWHY_BLOCKED] = { 0.82, 0, SOLID },
	[IOWHY_SLEEP] = { 1.0, 0.50, BACKSLASH },
};
#define TILE 8

/* Part p's fill as the source of cr. */
static void part_source(cairo_t *cr, int p)
{
	double bg = part_style[p].bg, fg = part_style[p].fg;
	if (part_style[p].h == SOLID) {
		cairo_set_source_rgb(cr, bg, bg, bg);
		return;
	}
	cairo_surface_t *t = cairo_image_surface_create(CAIRO_FORMAT_RGB24, TILE, TILE);
	cairo_t *c = cairo_create(t);
	cairo_set_source_rgb(c, bg, bg, bg);
	cairo_paint(c);
	cairo_set_source_rgb(c, fg, fg, fg);
	cairo_set_line_width(c, 1.3);
	switch (part_style[p].h) {
	case CROSS:   /* both diagonals */
	case BACKSLASH:
		if (part_style[p].h == CROSS) {
			cairo_move_to(c, -1, TILE + 1);
			cairo_line_to(c, TILE + 1, -1);
		}
		cairo_move_to(c, -1, -1);
		cairo_line_to(c, TILE + 1, TILE + 1);
		break;
	case SLASH:   /* a denser stroke: the disk is what matters most */
		cairo_set_line_width(c, 2.0);
		for (int k = -1; k <= 1; k++) {
			cairo_move_to(c, k * TILE - 1, TILE + 1);
			cairo_line_to(c, k * TILE + TILE + 1, -1);
		}
		break;
	case LINES:
		cairo_move_to(c, 0, TILE / 2.0);
		cairo_line_to(c, TILE, TILE / 2.0);
		break;
	case DOTS:
		cairo_arc(c, TILE / 2.0, TILE / 2.0, 1.4, 0, 2 * M_PI);
		cairo_fill(c);
		break;
	case SOLID:
		break;
	}
	cairo_stroke(c);
	cairo_destroy(c);
	cairo_pattern_t *pat = cairo_pattern_create_for_surface(t);
	cairo_pattern_set_extend(pat, CAIRO_EXTEND_REPEAT);
	cairo_set_source(cr, pat);
	cairo_pattern_destroy(pat);
	cairo_surface_destroy(t);
}

/* A part's swatch or segment: its fill, a thin dark edge. */
static void part_box(cairo_t *cr, int p, double x, double y, double w, double h)
{
	cairo_rectangle(cr, x, y, w, h);
	part_source(cr, p);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	cairo_set_line_width(cr, 0.8);
	cairo_stroke(cr);
}

/* Text with a white halo: readable over any part's fill. */
static void halo_show(cairo_t *cr, double x, double y, const char *s)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	x -= e.x_advance / 2;
	cairo_move_to(cr, x, y);
	cairo_text_path(cr, s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_set_line_width(cr, 3);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_stroke(cr);
	plot_colour(cr, plot_c_text, 1);
	plot_show(cr, x, y, s, 0);
}

/* The parts' legend, wrapped to the page; returns the y below it. */
static double split_legend(cairo_t *cr, double y)
{
	double x = MARGIN, cy = y + 8;
	plot_font(cr, PLOT_FONT_SMALL, 0);
	for (int p = 0; p < TIMESPLIT_NPARTS; p++) {
		char t[96];
		snprintf(t, sizeof(t), "%s: %s", timesplit_key(p), timesplit_label(p));
		double w = 20 + plot_width(cr, t) + 18;
		if (x > MARGIN && x + w > W - MARGIN) {
			x = MARGIN;
			cy += 20;
		}
		part_box(cr, p, x, cy - 6, 14, 12);
		plot_colour(cr, plot_c_dim, 1);
		plot_show(cr, x + 20, cy + 4, t, 0);
		x += w;
	}
	return cy + 16;
}

/* One arm's bar of mean shares from x0 over w px at cy; the shares' text
 * inside the segments wide enough for it. */
static void split_bar(cairo_t *cr, const struct compare_split *s, double x0, double w,
		      double cy)
{
	double x = x0, h = ROW_H * 0.56;
	plot_font(cr, PLOT_FONT_SMALL, 1);
	for (int p = 0; p < TIMESPLIT_NPARTS; p++) {
		double sw = s->share[p] * w;
		if (!(sw > 0) || !isfinite(sw))
			continue;
		if (x + sw > x0 + w)
			sw = x0 + w - x;
		part_box(cr, p, x, cy - h / 2, sw, h);
		char pct[16];
		snprintf(pct, sizeof(pct), "%.0f %%", 100 * s->share[p]);
		if (sw >= plot_width(cr, pct) + 8)
			halo_show(cr, x + sw / 2, cy + 4, pct);
		x += sw;
	}
}

static double split_panel(cairo_t *cr, const struct compare_result *r, enum action_kind k,
			  double y)
{
	char head[64];
	snprintf(head, sizeof(head), "%s: where the time went", action_kind_name(k));
	panel_head(cr, y, head, "each part's mean share of the samples' time in %; right: "
		   "the median sample's time and the largest shares");
	struct plot_axis ax = { 0, 100, 0, AXIS_X0, AXIS_X1, 0 };
	double top = y + HEAD_H, bottom = top + r->n_arms * ROW_H;
	plot_stripes(cr, r->n_arms, top, ROW_H);
	plot_axis_draw(cr, &ax, top, bottom);
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct compare_split *s = &r->splits[i][k];
		double cy = top + (i + 0.5) * ROW_H;
		if (s->n)
			split_bar(cr, s, AXIS_X0, AXIS_X1 - AXIS_X0, cy);
		row_label(cr, r, i, cy);
		char v[200] = "no breakdown";
		if (s->has_median && s->n) {
			/* the bar's largest shares, as the text report words them */
			char t[32];
			int first = 0, second = -1;
			for (int p = 1; p < TIMESPLIT_NPARTS; p++)
				if (s->share[p] > s->share[first])
					first = p;
			for (int p = 0; p < TIMESPLIT_NPARTS; p++)
				if (p != first && s->share[p] >= 0.1 &&
				    (second < 0 || s->share[p] > s->share[second]))
					second = p;
			compare_split_time((double)timesplit_wall_ns(&s->median) / 1e6, t, sizeof(t));
			size_t o = (size_t)snprintf(v, sizeof(v), "median %s; %s %.0f %%", t,
						    timesplit_key(first), 100 * s->share[first]);
			if (second >= 0 && o < sizeof(v))
				snprintf(v + o, sizeof(v) - o, ", %s %.0f %%", timesplit_key(second),
					 100 * s->share[second]);
		}
		plot_font(cr, PLOT_FONT_BODY, 0);
		plot_colour(cr, plot_c_dim, 1);
		plot_show_fit(cr, RIGHT_X, cy + 4, v, RIGHT_W, PLOT_CUT_END);
	}
	plot_frame(cr, &ax, top, bottom);
	return bottom + AXIS_H + GAP;
}

/* The section: the parts' legend, a panel per action; or nothing when no
 * arm-run measured it. */
static double split_section(cairo_t *cr, const struct compare_result *r, double y)
{
	if (!compare_split_available(r))
		return y;
	y = split_legend(cr, y);
	for (int k = 0; k < ACTION_KIND_COUNT; k++)
		if (r->actions & (1u << k))
			y = split_panel(cr, r, (enum action_kind)k, y);
	return y;
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
		const struct stats_ci *c = compare_load_ci(r, i);
		if (isfinite(c->est))
			mx = fmax(mx, c->est);
		if (isfinite(c->hi))
			mx = fmax(mx, c->hi);
	}
	if (!(mx > 0))
		mx = 1;
	mx = fmin(mx, 1e9);
	double step = plot_nice125(mx / 5, 1);
	struct plot_axis ax = { 0, ceil(mx * 1.0001 / step) * step, 0, AXIS_X0, AXIS_X1, 0 };

	panel_head(cr, y, "load", r->load_by_disk ?
		   "MiB/s that reached the disk in each arm-run's load window: mean and 95 % CI" :
		   "the loads' own MiB/s in each arm-run's load window (no disk counters): mean and 95 % CI");
	double top = y + HEAD_H, bottom = top + r->n_arms * ROW_H;
	plot_stripes(cr, r->n_arms, top, ROW_H);
	plot_axis_draw(cr, &ax, top, bottom);
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct compare_armstat *a = &r->armstat[i];
		const struct stats_ci *c = compare_load_ci(r, i);
		double cy = top + (i + 0.5) * ROW_H;
		char v[160];
		if (isfinite(c->est)) {
			double x = plot_axis_x(&ax, c->est);
			double x0 = plot_axis_x(&ax, 0);
			plot_colour(cr, plot_arm_colour(i), 0.75);
			cairo_rectangle(cr, x0, cy - ROW_H * 0.25, x - x0, ROW_H * 0.5);
			cairo_fill(cr);
			if (isfinite(c->lo) && isfinite(c->hi) && c->hi >= c->lo) {
				double l = plot_axis_x(&ax, c->lo), h = plot_axis_x(&ax, c->hi);
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
		plot_font(cr, PLOT_FONT_BODY, 0);
		plot_colour(cr, plot_c_dim, 1);
		double w = plot_show_fit(cr, RIGHT_X, cy + 4, v, RIGHT_W, PLOT_CUT_END);
		/* Its place in the ranking, and what that means. */
		for (size_t j = 0; j < r->n_ranked && j < COMPARE_MAX_ARMS; j++) {
			if (r->ranking[j] != i)
				continue;
			char rank[16];
			snprintf(rank, sizeof(rank), "  #%zu", j + 1);
			if (RIGHT_W - w > 20)
				w += plot_show_fit(cr, RIGHT_X + w, cy + 4, rank, RIGHT_W - w, PLOT_CUT_END);
			break;
		}
		const char *note = (int)i == r->best ? "  recommended"
				   : isfinite(c->est) && !a->load_ok ? "  starves the load" : NULL;
		if (note && RIGHT_W - w > 40) {
			plot_font(cr, PLOT_FONT_BODY, 1);
			plot_colour(cr, (int)i == r->best ? plot_c_faster : plot_c_slower, 1);
			plot_show_fit(cr, RIGHT_X + w, cy + 4, note, RIGHT_W - w, PLOT_CUT_END);
		}
	}
	plot_frame(cr, &ax, top, bottom);
	return bottom + AXIS_H + GAP;
}

static double legend(cairo_t *cr, double y)
{
	double x = MARGIN, cy = y + 8;
	plot_font(cr, PLOT_FONT_SMALL, 0);
	struct plot_rgb c = plot_arm_colour(0);
	mark_cold(cr, x + 4, cy, c);
	plot_colour(cr, plot_c_dim, 1);
	x += 12 + plot_show(cr, x + 12, cy + 4, "cold sample", 0) + 22;
	mark_warm(cr, x + 4, cy, c);
	plot_colour(cr, plot_c_dim, 1);
	x += 12 + plot_show(cr, x + 12, cy + 4, "warm sample", 0) + 22;
	mark_timeout(cr, x + 4, cy);
	plot_colour(cr, plot_c_dim, 1);
	x += 12 + plot_show(cr, x + 12, cy + 4, "timed out (at its limit)", 0) + 22;
	plot_median(cr, x + 14, cy, x, x + 28, plot_c_text, 6, ROW_H * 0.38);
	plot_colour(cr, plot_c_dim, 1);
	x += 34 + plot_show(cr, x + 34, cy + 4, "median and its 95 % CI", 0) + 22;
	plot_dashed(cr, x + 4, cy - 9, cy + 9);
	plot_colour(cr, plot_c_dim, 1);
	x += 12 + plot_show(cr, x + 12, cy + 4, "baseline median", 0) + 22;
	plot_colour(cr, plot_c_dim, 1);
	plot_show(cr, x, cy + 4, "ratio = typical arm-run (geometric mean), arm / baseline, Welch 95 % CI", 0);
	return y + 26;
}

/* Draw the whole picture; returns the height used. */
static double draw(cairo_t *cr, const void *what, int paint)
{
	const struct compare_result *r = what;
	(void)paint;   /* the first pass draws too: on a scratch surface */
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);

	double y = MARGIN;
	plot_font(cr, PLOT_FONT_TITLE, 1);
	plot_colour(cr, plot_c_text, 1);
	char title[40];
	snprintf(title, sizeof(title), "brisk %s: ", r->command[0] ? r->command : "compare");
	double w = plot_show(cr, MARGIN, y + 16, title, 0);
	plot_show_fit(cr, MARGIN + w, y + 16, r->dir, W - 2 * MARGIN - w, PLOT_CUT_START);
	y += 24;
	plot_font(cr, PLOT_FONT_BODY, 0);
	plot_colour(cr, plot_c_text, 1);
	if (r->stackline[0]) {
		plot_show_fit(cr, MARGIN, y + 14, r->stackline, W - 2 * MARGIN, PLOT_CUT_END);
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
	else if (n > 0 && (size_t)n < sizeof(info) && r->race_end != COMPARE_RACE_OFF)
		n += snprintf(info + n, sizeof(info) - (size_t)n, "; race: %s, %zu of %zu arms left",
			      compare_race_end_name(r->race_end), compare_race_left(r), r->n_arms);
	if (n > 0 && (size_t)n < sizeof(info) && r->stop_signal)
		snprintf(info + n, sizeof(info) - (size_t)n, "; stopped by signal %d", r->stop_signal);
	plot_colour(cr, plot_c_dim, 1);
	plot_show_fit(cr, MARGIN, y + 14, info, W - 2 * MARGIN, PLOT_CUT_END);
	y += 26;
	y = legend(cr, y) + 8;

	for (int k = 0; k < ACTION_KIND_COUNT; k++)
		if (r->actions & (1u << k))
			y = action_panel(cr, r, (enum action_kind)k, y);
	y = split_section(cr, r, y);
	y = load_panel(cr, r, y);

	/* Footer. */
	const double line_h = 17;
	plot_font(cr, PLOT_FONT_BODY, 1);
	plot_colour(cr, plot_c_text, 1);
	w = plot_show(cr, MARGIN, y + 12, "Recommendation: ", 0);
	plot_font(cr, PLOT_FONT_BODY, 0);
	int lines = plot_wrap(cr, MARGIN, y + 12, w, W - 2 * MARGIN, line_h,
			      r->recommendation[0] ? r->recommendation : "none", 4, 1);
	y += (lines > 0 ? lines : 1) * line_h + 4;
	if (r->rule[0]) {
		plot_font(cr, PLOT_FONT_BODY, 1);
		plot_colour(cr, plot_c_dim, 1);
		w = plot_show(cr, MARGIN, y + 12, "Ranking: ", 0);
		plot_font(cr, PLOT_FONT_BODY, 0);
		lines = plot_wrap(cr, MARGIN, y + 12, w, W - 2 * MARGIN, line_h, r->rule, 4, 1);
		y += (lines > 0 ? lines : 1) * line_h + 4;
	}
	return y + MARGIN;
}

int compare_plot(const struct compare_result *r, const char *path, char *err, size_t errlen)
{
	enum plot_format f;
	if (plot_format(path, &f, err, errlen) < 0)
		return -EINVAL;
	if (r->n_arms < 1 || r->n_arms > COMPARE_MAX_ARMS)
		return msg_fail(-EINVAL, err, errlen, "%s: nothing to plot: %zu arms (1 to %d)", path,
				r->n_arms, COMPARE_MAX_ARMS);
	return plot_write(path, f, draw, r, err, errlen);
}
