/* fleet_plot — the pooled report as a picture (cairo, SVG or PNG), in the
 * style of compare_plot: one panel per group, a row per action and arm
 * with the pooled median and its 95 % interval on a log time axis, the
 * baseline's median dashed, the ratio and verdict at the right, the
 * recommendation under the panel.  Contract in fleet.h. */
#include "fleet.h"
#include "fleet_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "action.h"
#include "msg.h"
#include "plot.h"

#define W        PLOT_WIDTH
#define MARGIN   PLOT_MARGIN
#define SWATCH   10.0
#define ACT_X    (MARGIN + 4.0)
#define ARM_X    (MARGIN + 124.0)
#define LAB_W    110.0    /* the arm's label */
#define AXIS_X0  440.0
#define AXIS_X1  (W - 320.0)
#define RIGHT_X  (AXIS_X1 + 14.0)
#define RIGHT_W  (W - MARGIN - RIGHT_X)
#define ROW_H    24.0
#define HEAD_H   44.0
#define AXIS_H   26.0
#define GAP      22.0
#define LINE_H   17.0

/* ---- one group ---- */

/* Is arm a shown whole in the label column? */
static int arm_whole(cairo_t *cr, const struct fleet_garm *a)
{
	plot_font(cr, PLOT_FONT_BODY, 1);
	return fleet_arm_text(a) == a->label && plot_width(cr, a->label) <= LAB_W;
}

/* An arm's name in the label column: tagged "#N " when it is cut, for
 * the arms: lines under the panel that show it whole. */
static const char *arm_name(cairo_t *cr, const struct fleet_group *g, size_t a, char *b,
			    size_t n)
{
	if (arm_whole(cr, &g->arms[a]))
		return g->arms[a].label;
	snprintf(b, n, "#%zu %s", a + 1, g->arms[a].label);
	return b;
}

static double legend(cairo_t *cr, double y)
{
	double x = MARGIN, cy = y + 8;
	plot_font(cr, PLOT_FONT_SMALL, 0);
	plot_median(cr, x + 14, cy, x, x + 28, plot_arm_colour(0), 8, ROW_H * 0.38);
	plot_colour(cr, plot_c_dim, 1);
	x += 34 + plot_show(cr, x + 34, cy + 4, "pooled median and its 95 % interval (machines, "
			    "then their samples)", 0) + 22;
	plot_dashed(cr, x + 4, cy - 9, cy + 9);
	plot_colour(cr, plot_c_dim, 1);
	x += 12 + plot_show(cr, x + 12, cy + 4, "baseline median", 0) + 22;
	plot_show(cr, x, cy + 4, "right: arm / baseline over the machines that measured both, "
		  "machines agreeing", 0);
	return y + 26;
}

static double panel(cairo_t *cr, const struct fleet_group *g, double y, int draw)
{
	struct plot_span sp = { 0 };
	for (size_t i = 0; i < g->n_rows; i++) {
		const struct stats_ci *c = &g->rows[i].p50;
		plot_span_add(&sp, c->est);
		plot_span_add(&sp, c->lo);
		plot_span_add(&sp, c->hi);
	}
	struct plot_axis ax = plot_span_axis(&sp, 1e8, AXIS_X0, AXIS_X1, 1);
	if (ax.hi <= ax.lo * 1.0001) {
		ax.lo = plot_nice125(ax.lo * 0.5, 0);
		ax.hi = plot_nice125(ax.hi * 2, 1);
	}
	if (draw) {
		plot_font(cr, PLOT_FONT_HEAD, 1);
		plot_colour(cr, plot_c_text, 1);
		double w = plot_show_fit(cr, MARGIN, y + 18, g->key, 420, PLOT_CUT_END);
		char what[256];
		snprintf(what, sizeof(what), "%zu machine%s, %zu result%s%s", g->n_machines,
			 g->n_machines == 1 ? "" : "s", g->n_results, g->n_results == 1 ? "" : "s",
			 g->baseline >= 0 ? "; baseline " : "");
		plot_font(cr, PLOT_FONT_BODY, 0);
		plot_colour(cr, plot_c_dim, 1);
		double w2 = plot_show(cr, MARGIN + w + 10, y + 18, what, 0);
		if (g->baseline >= 0)
			plot_show_fit(cr, MARGIN + w + 10 + w2, y + 18, g->arms[g->baseline].label,
				      300, PLOT_CUT_END);
		int idle = 0;
		for (size_t i = 0; i < g->n_rows; i++)
			idle |= g->rows[i].phase == FLEET_IDLE;
		plot_font(cr, PLOT_FONT_SMALL, 0);
		plot_show_fit(cr, AXIS_X0, y + 38, idle ? "median per sample, log scale; (idle) rows: "
			      "shown, not recommended from" : "median per sample, log scale",
			      AXIS_X1 - AXIS_X0, PLOT_CUT_END);
		char lv[96];
		snprintf(lv, sizeof(lv), "ratio [%.3g %% interval], agree", 100 * g->ratio_level);
		plot_show(cr, RIGHT_X, y + 38, lv, 0);
	}
	double top = y + HEAD_H, bottom = top + g->n_rows * ROW_H;
	if (!draw)
		return bottom + AXIS_H + 8;
	plot_stripes(cr, g->n_rows, top, ROW_H);
	plot_axis_draw(cr, &ax, top, bottom);
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
			plot_font(cr, PLOT_FONT_BODY, 1);
			plot_colour(cr, plot_c_text, 1);
			plot_show_fit(cr, ACT_X, cy + 4, an, ARM_X - ACT_X - 6, PLOT_CUT_END);
		}
		struct plot_rgb pc = plot_arm_colour(r->arm);
		plot_colour(cr, pc, 1);
		cairo_rectangle(cr, ARM_X, cy - SWATCH / 2, SWATCH, SWATCH);
		cairo_fill(cr);
		plot_font(cr, PLOT_FONT_BODY, (int)r->arm == g->best);
		plot_colour(cr, plot_c_text, 1);
		char an[96];
		plot_show_fit(cr, ARM_X + SWATCH + 6, cy + 4, arm_name(cr, g, r->arm, an, sizeof(an)),
			      LAB_W, PLOT_CUT_END);
		char mach[64];
		snprintf(mach, sizeof(mach), "%zu machine%s, %zu sample%s", r->machines,
			 r->machines == 1 ? "" : "s", r->samples, r->samples == 1 ? "" : "s");
		plot_font(cr, PLOT_FONT_SMALL, 0);
		plot_colour(cr, plot_c_dim, 1);
		double cx = ARM_X + SWATCH + 6 + LAB_W + 8;
		plot_show_fit(cr, cx, cy + 4, mach, AXIS_X0 - 8 - cx, PLOT_CUT_END);
		if (isfinite(r->p50.est)) {
			double lo = isfinite(r->p50.lo) ? plot_axis_x(&ax, r->p50.lo) : 0;
			double hi = isfinite(r->p50.hi) ? plot_axis_x(&ax, r->p50.hi) : 0;
			plot_median(cr, plot_axis_x(&ax, r->p50.est), cy, lo, hi, pc, 8, ROW_H * 0.38);
		}
		char v[400], med[32];
		struct plot_rgb vc = plot_c_dim;
		int bold = 0;
		plot_ms_value(r->p50.est, med, sizeof(med));
		if ((int)r->arm == g->baseline) {
			snprintf(v, sizeof(v), "baseline, median %s", med);
		} else if (isfinite(r->ratio50.est)) {
			char e[16], lo[16], hi[16];
			fleet_ratio_text(e, sizeof(e), r->ratio50.est);
			fleet_ratio_text(lo, sizeof(lo), r->ratio50.lo);
			fleet_ratio_text(hi, sizeof(hi), r->ratio50.hi);
			const char *word = !r->decided ? "too few machines"
					   : r->verdict == STATS_FASTER ? "faster"
					   : r->verdict == STATS_SLOWER ? "slower" : "no difference";
			vc = !r->decided ? plot_c_dim : r->verdict == STATS_FASTER ? plot_c_faster
			     : r->verdict == STATS_SLOWER ? plot_c_slower : plot_c_dim;
			bold = r->decided && r->verdict != STATS_NO_DIFFERENCE;
			snprintf(v, sizeof(v), "%sx [%s, %s] %s, %zu/%zu", e, lo, hi, word, r->agree,
				 r->paired);
			if (r->n_disagree) {
				char who[160];
				fleet_disagree_text(who, sizeof(who), g, r, 3);
				fleet_appendf(v, sizeof(v), "; disagree: %s", who);
			}
		} else {
			snprintf(v, sizeof(v), "median %s; no machine has both", med);
		}
		plot_font(cr, PLOT_FONT_BODY, bold);
		plot_colour(cr, vc, 1);
		plot_show_fit(cr, RIGHT_X, cy + 4, v, RIGHT_W, PLOT_CUT_END);
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
		plot_dashed(cr, floor(plot_axis_x(&ax, b->p50.est)) + 0.5, top + from * ROW_H + 2,
			    top + (to + 1) * ROW_H - 2);
	}
	plot_frame(cr, &ax, top, bottom);
	return bottom + AXIS_H + 8;
}

static double group_block(cairo_t *cr, const struct fleet_group *g, double y, int draw)
{
	y = panel(cr, g, y, draw);
	plot_font(cr, PLOT_FONT_BODY, 1);
	plot_colour(cr, g->best >= 0 ? plot_c_faster : plot_c_text, 1);
	double w = draw ? plot_show(cr, MARGIN, y + 12, "Recommendation: ", 0)
			: plot_width(cr, "Recommendation: ");
	plot_font(cr, PLOT_FONT_BODY, 0);
	plot_colour(cr, plot_c_text, 1);
	char rec[FLEET_REC_TEXT];
	fleet_recommendation_text(rec, sizeof(rec), g);
	int lines = plot_wrap(cr, MARGIN, y + 12, w, W - 2 * MARGIN, LINE_H, rec, 12, draw);
	y += (lines > 0 ? lines : 1) * LINE_H;
	/* every arm the label column cut, whole */
	for (size_t a = 0; a < g->n_arms; a++) {
		if (arm_whole(cr, &g->arms[a]))
			continue;
		char tag[32];
		snprintf(tag, sizeof(tag), "#%zu = ", a + 1);
		plot_font(cr, PLOT_FONT_BODY, 0);
		plot_colour(cr, plot_c_text, 1);
		double tw = draw ? plot_show(cr, MARGIN, y + 12, tag, 0) : plot_width(cr, tag);
		lines = plot_wrap(cr, MARGIN, y + 12, tw, W - 2 * MARGIN, LINE_H, g->arms[a].key, 8,
				  draw);
		y += (lines > 0 ? lines : 1) * LINE_H;
	}
	return y + GAP;
}

static double draw_all(cairo_t *cr, const void *what, int draw)
{
	const struct fleet_report *rep = what;
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
		plot_font(cr, PLOT_FONT_TITLE, 1);
		plot_colour(cr, plot_c_text, 1);
		plot_show(cr, MARGIN, y + 16, t, 0);
	}
	y += 24;
	snprintf(t, sizeof(t), "seed %llu; the machine is the unit (%s); a verdict needs most of "
		 "the machines that measured both, %d at least%s", (unsigned long long)rep->opt.seed,
		 rep->opt.trust_files ? "as the files claim: --trust-file-identity" : "by host folder",
		 FLEET_MIN_MACHINES, rep->n_skipped ? "; some files were skipped or left out (see the "
		 "text report)" : "");
	if (draw) {
		plot_font(cr, PLOT_FONT_BODY, 0);
		plot_colour(cr, plot_c_dim, 1);
		plot_show_fit(cr, MARGIN, y + 14, t, W - 2 * MARGIN, PLOT_CUT_END);
	}
	y += 24;
	if (draw)
		legend(cr, y);
	y += 26 + 8;
	for (size_t i = 0; i < rep->n_groups; i++)
		y = group_block(cr, &rep->groups[i], y, draw);
	return y + MARGIN - GAP;
}

int fleet_plot(const struct fleet_report *rep, const char *path, char *err, size_t errlen)
{
	enum plot_format f;
	if (plot_format(path, &f, err, errlen) < 0)
		return -EINVAL;
	int rc = plot_write(path, f, draw_all, rep, err, errlen);
	if (rc == -E2BIG)
		msg_set(err, errlen, "cannot draw the plot %s: %zu groups do not fit one picture "
			"(try --by class)", path, rep->n_groups);
	return rc;
}
