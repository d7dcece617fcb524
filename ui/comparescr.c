#include "comparescr.h"
#include "profile.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dash.h"
#include "now.h"
#include "screen.h"
#include "tunable.h"
#include "tune_space.h"

#define SEC 1000000000ull

static const struct {
	const char *name;
	uint64_t ns;
} budgets[COMPARESCR_N_BUDGETS] = {
	{ "2m", 2 * 60 * SEC }, { "5m", 5 * 60 * SEC }, { "10m", 10 * 60 * SEC },
	{ "20m", 20 * 60 * SEC }, { "45m", 45 * 60 * SEC },
};

uint64_t comparescr_budget_ns(const struct comparescr *cs)
{
	return budgets[cs->budget % COMPARESCR_N_BUDGETS].ns;
}

void comparescr_message(struct comparescr *cs, int role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cs->msg, sizeof(cs->msg), fmt, ap);
	va_end(ap);
	cs->msg_role = role;
}

/* Text over at most maxl rows of width w, broken at spaces (a word
 * longer than a row is cut).  Rows used; y < 0 only counts them. */
static int put_wrapped(int y, int x, int w, int maxl, enum screen_role r, const char *text)
{
	char line[512];
	int rows = 0;
	while (*text && rows < maxl) {
		size_t n = strlen(text), b = n;
		if (n >= sizeof(line))
			n = b = sizeof(line) - 1;
		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		if (screen_width(line) > w) {
			b = 0;
			for (size_t i = 1; i < n; i++) {
				if (text[i] != ' ')
					continue;
				snprintf(line, sizeof(line), "%.*s", (int)i, text);
				if (screen_width(line) > w)
					break;
				b = i;
			}
			if (!b)
				b = n;
		}
		snprintf(line, sizeof(line), "%.*s", (int)b, text);
		if (y >= 0)
			screen_put(y + rows, x, w, r, line);
		rows++;
		text += b;
		while (*text == ' ')
			text++;
	}
	return rows;
}

/* Profiles with [settings] are arms too, offered unchecked. */
static void add_profiles(struct comparescr *cs)
{
	struct profile_entry *ents = NULL;
	size_t n = 0;
	struct profile *p = malloc(sizeof(*p));
	if (!p || profile_list(&ents, &n, NULL) < 0) {
		free(p);
		return;
	}
	for (size_t i = 0; i < n && cs->n_arms < COMPARE_MAX_ARMS; i++) {
		char err[PROFILE_ERR_LEN];
		if (strlen(ents[i].name) >= sizeof(cs->arm_label[0]) ||
		    profile_parse_file(ents[i].path, NULL, p, err, sizeof(err)) < 0 || !p->n_settings)
			continue;
		snprintf(cs->arm_text[cs->n_arms], sizeof(cs->arm_text[0]), "%s", ents[i].name);
		snprintf(cs->arm_label[cs->n_arms], sizeof(cs->arm_label[0]), "%.47s", ents[i].name);
		cs->on[cs->n_arms++] = 0;
	}
	free(ents);
	free(p);
}

/* ------------------------------------------------------------- the picker */

void comparescr_pick_init(struct comparescr *cs, const struct settings *st, int changed)
{
	char keep_dir[sizeof(cs->dir)], keep_stack[sizeof(cs->stackline)];
	char keep_work[sizeof(cs->workload)];
	memcpy(keep_dir, cs->dir, sizeof(keep_dir));
	memcpy(keep_stack, cs->stackline, sizeof(keep_stack));
	memcpy(keep_work, cs->workload, sizeof(keep_work));
	memset(cs, 0, sizeof(*cs));
	memcpy(cs->dir, keep_dir, sizeof(keep_dir));
	memcpy(cs->stackline, keep_stack, sizeof(keep_stack));
	memcpy(cs->workload, keep_work, sizeof(keep_work));
	char detail[256], list[256];
	settings_scheduler(st, cs->active, sizeof(cs->active), detail, sizeof(detail));
	/* the baseline is what the dashboard started with (its changes are put
	 * back before the comparison) */
	struct tunable_key key;
	char orig[TUNABLE_VALUE_LEN], why[128];
	if (tunable_parse_key("scheduler", &key, why, sizeof(why)) == 0 &&
	    settings_original(st, &key, orig, sizeof(orig)) == 1) {
		char act[32];
		tunable_active_scheduler(orig, act, sizeof(act));
		if (act[0])
			snprintf(cs->active, sizeof(cs->active), "%s", act);
	}
	settings_schedulers(st, list, sizeof(list));
	snprintf(cs->arm_text[0], sizeof(cs->arm_text[0]), "current");
	snprintf(cs->arm_label[0], sizeof(cs->arm_label[0]), "current");
	cs->on[0] = 1;
	cs->n_arms = 1;
	char *save = NULL;
	for (char *w = strtok_r(list, " ", &save); w && cs->n_arms < COMPARE_MAX_ARMS;
	     w = strtok_r(NULL, " ", &save)) {
		if (strcmp(w, cs->active) == 0 || strlen(w) >= sizeof(cs->arm_label[0]))
			continue;
		snprintf(cs->arm_text[cs->n_arms], sizeof(cs->arm_text[0]), "scheduler=%s", w);
		snprintf(cs->arm_label[cs->n_arms], sizeof(cs->arm_label[0]), "%s", w);
		cs->on[cs->n_arms++] = 1;
	}
	add_profiles(cs);
	cs->budget = 1;   /* 5m */
	cs->st = st;
	if (changed)
		snprintf(cs->changed, sizeof(cs->changed), "the settings you changed here are put "
			 "back first: the baseline is the settings the dashboard started with");
}

/* Key t: the arms of brisk tune's desktop space on these disks, in
 * place of the picker's, and brisk tune's budget. */
static void pick_space(struct comparescr *cs)
{
	struct tune_space sp;
	struct tune_point pts[COMPARE_MAX_ARMS];
	struct compare_arm arms[COMPARE_MAX_ARMS];
	char err[300];
	size_t n = 0;
	memset(arms, 0, sizeof(arms));
	int rc = tune_space_parse(tune_space_default_text, "the desktop space", &sp, err,
				  sizeof(err));
	if (rc == 0)
		rc = tune_space_arms(&sp, cs->st, 0, arms, pts, COMPARE_MAX_ARMS, &n, err,
				     sizeof(err));
	if (rc == 0) {
		for (size_t i = 0; i < n; i++) {
			snprintf(cs->arm_text[i], sizeof(cs->arm_text[0]), "%.159s", arms[i].name);
			snprintf(cs->arm_label[i], sizeof(cs->arm_label[0]), "%s", arms[i].label);
			cs->on[i] = 1;
		}
		cs->n_arms = n;
		cs->sel = 0;
		cs->budget = COMPARESCR_N_BUDGETS - 1;
		snprintf(cs->pick_note, sizeof(cs->pick_note), "brisk tune's desktop space: %zu "
			 "arms, racing (brisk-tune(1))", n);
		cs->pick_note_bad = 0;
	} else {
		snprintf(cs->pick_note, sizeof(cs->pick_note), "the desktop space: %s",
			 rc == -ENOMEM ? "out of memory" : err);
		cs->pick_note_bad = 1;
	}
	for (size_t i = 0; i < COMPARE_MAX_ARMS; i++)
		compare_arm_free(&arms[i]);
}

static size_t picked(const struct comparescr *cs)
{
	size_t n = 0;
	for (size_t i = 0; i < cs->n_arms; i++)
		n += cs->on[i] != 0;
	return n;
}

static void toggle(struct comparescr *cs, size_t i)
{
	if (i >= cs->n_arms)
		return;
	if (i == 0) {
		snprintf(cs->pick_note, sizeof(cs->pick_note), "current is the baseline: every "
			 "other arm is measured against it");
		cs->pick_note_bad = 1;
		return;
	}
	cs->on[i] = !cs->on[i];
	cs->pick_note[0] = '\0';
}

/* A typed arm: KEY=VALUE,... checked now; a profile name or file
 * taken as given (read at the start).  0, or -1 with the prompt's note. */
static int add_arm(struct comparescr *cs, const char *text)
{
	struct prompt *p = &cs->prompt;
	p->note_bad = 1;
	if (cs->n_arms == COMPARE_MAX_ARMS) {
		snprintf(p->note, sizeof(p->note), "at most %d arms", COMPARE_MAX_ARMS);
		return -1;
	}
	for (size_t i = 0; i < cs->n_arms; i++)
		if (strcmp(cs->arm_text[i], text) == 0) {
			snprintf(p->note, sizeof(p->note), "'%s' is arm %zu already", text, i + 1);
			return -1;
		}
	char label[48];
	if (strchr(text, '=')) {
		struct compare_arm a;
		char err[512];
		memset(&a, 0, sizeof(a));
		if (compare_arm_parse(text, cs->st, &a, err, sizeof(err)) < 0) {
			snprintf(p->note, sizeof(p->note), "%.155s", err);
			snprintf(cs->pick_note, sizeof(cs->pick_note), "%.310s", err);
			cs->pick_note_bad = 1;
			return -1;
		}
		snprintf(label, sizeof(label), "%s", a.label);
		compare_arm_free(&a);
	} else if (strcmp(text, "current") == 0) {
		snprintf(p->note, sizeof(p->note), "current is arm 1 (the baseline)");
		return -1;
	} else {
		snprintf(label, sizeof(label), "%.47s", text);
	}
	size_t i = cs->n_arms++;
	snprintf(cs->arm_text[i], sizeof(cs->arm_text[i]), "%s", text);
	snprintf(cs->arm_label[i], sizeof(cs->arm_label[i]), "%s", label);
	cs->on[i] = 1;
	cs->sel = i;
	return 0;
}

enum comparescr_pick comparescr_pick_key(struct comparescr *cs, int ch)
{
	size_t rows = cs->n_arms + 1;
	if (cs->prompting) {
		switch (prompt_key(&cs->prompt, ch)) {
		case PROMPT_SUBMIT:
			if (add_arm(cs, cs->prompt.input) == 0) {
				cs->prompting = 0;
				snprintf(cs->pick_note, sizeof(cs->pick_note), "added arm %zu: %s",
					 cs->n_arms, cs->arm_text[cs->n_arms - 1]);
				cs->pick_note_bad = 0;
			}
			break;
		case PROMPT_CANCEL:
			cs->prompting = 0;
			break;
		case PROMPT_NONE:
			break;
		}
		return COMPARESCR_PICK_NONE;
	}
	switch (ch) {
	case 'a':
	case 'A':
	case '+':
		if (cs->n_arms == COMPARE_MAX_ARMS) {
			snprintf(cs->pick_note, sizeof(cs->pick_note), "at most %d arms: toggle one "
				 "off instead", COMPARE_MAX_ARMS);
			cs->pick_note_bad = 1;
			break;
		}
		prompt_init(&cs->prompt, "Add an arm", "arm:", "KEY=VALUE[,KEY=VALUE...] as brisk "
			    "set takes them, or a profile name");
		cs->prompting = 1;
		break;
	case 't':
	case 'T':
		pick_space(cs);
		break;
	case 27:
	case 'q':
	case 'Q':
		return COMPARESCR_PICK_CANCEL;
	case KEY_UP:
	case 'k':
		cs->sel = cs->sel ? cs->sel - 1 : rows - 1;
		break;
	case KEY_DOWN:
	case 'j':
		cs->sel = (cs->sel + 1) % rows;
		break;
	case ' ':
	case 'x':
		if (cs->sel < cs->n_arms)
			toggle(cs, cs->sel);
		else
			cs->budget = (cs->budget + 1) % COMPARESCR_N_BUDGETS;
		break;
	case 'b':
	case 'B':
	case KEY_RIGHT:
		cs->budget = (cs->budget + 1) % COMPARESCR_N_BUDGETS;
		break;
	case KEY_LEFT:
		cs->budget = (cs->budget + COMPARESCR_N_BUDGETS - 1) % COMPARESCR_N_BUDGETS;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (picked(cs) < 2) {
			snprintf(cs->pick_note, sizeof(cs->pick_note), "pick at least one arm "
				 "besides current");
			cs->pick_note_bad = 1;
			break;
		}
		return COMPARESCR_PICK_START;
	default:
		if (ch >= '1' && ch <= '9')
			toggle(cs, (size_t)(ch - '1'));
		break;
	}
	return COMPARESCR_PICK_NONE;
}

static int too_small(void)
{
	if (COLS >= DASH_MIN_COLS && LINES >= DASH_MIN_LINES)
		return 0;
	erase();
	char m[128];
	snprintf(m, sizeof(m), "terminal too small: %dx%d, brisk needs at least %dx%d", COLS,
		 LINES, DASH_MIN_COLS, DASH_MIN_LINES);
	int w = screen_width(m);
	screen_put(LINES / 2, COLS > w ? (COLS - w) / 2 : 0, COLS, SCREEN_WARN, m);
	refresh();
	return 1;
}

static void draw_top(const struct comparescr *cs, const char *what, int W)
{
	int x = screen_put(0, 0, W, SCREEN_TITLE, "brisk compare");
	x += screen_printf(0, x, W - x, SCREEN_NORMAL, "  %s", what);
	screen_printf(1, 0, W, SCREEN_NORMAL, "%s  %s", cs->dir, cs->stackline);
}

void comparescr_pick_draw(const struct comparescr *cs)
{
	if (too_small())
		return;
	int W = COLS, H = LINES, utf8 = screen_utf8();
	erase();
	draw_top(cs, "- pick the arms (the dashboard's workload, interleaved rounds)", W);
	int y = 2 + put_wrapped(2, 0, W, 2, SCREEN_DIM, cs->workload) + 1;
	screen_rule(y++, 0, W, "Arms");
	/* as many rows as fit, scrolled to keep the selected one in view */
	size_t fit = H - 6 > y ? (size_t)(H - 6 - y) : 1, first = 0;
	if (cs->n_arms > fit && cs->sel < cs->n_arms && cs->sel >= fit - 1)
		first = cs->sel - (fit - 2);
	if (first)
		screen_printf(y++, 1, W - 1, SCREEN_DIM, "(%zu more above)", first);
	for (size_t i = first; i < cs->n_arms && y < H - 6; i++, y++) {
		if (y == H - 7 && i + 1 < cs->n_arms) {
			screen_printf(y++, 1, W - 1, SCREEN_DIM, "(%zu more below)", cs->n_arms - i);
			break;
		}
		enum screen_role r = cs->sel == i ? SCREEN_SELECT : SCREEN_NORMAL;
		int lw = cs->n_arms > 9 ? 24 : 14;
		int x = screen_printf(y, 1, W - 1, r, "%s %zu  %-*.24s", cs->on[i] ?
				      (utf8 ? "[✓]" : "[x]") : "[ ]", i + 1, lw, cs->arm_label[i]);
		if (i == 0)
			screen_printf(y, 1 + x, W - 1 - x, SCREEN_DIM, "  baseline: the settings in "
				      "place (scheduler %s)", cs->active[0] ? cs->active : "-");
		else
			screen_printf(y, 1 + x, W - 1 - x, SCREEN_DIM, "  %s%s", cs->arm_text[i],
				      strchr(cs->arm_text[i], '=') ? "" :
				      " (a profile: read at the start)");
	}
	if (cs->n_arms < 2)
		screen_put(y++, 1, W - 1, SCREEN_WARN, "the disks offer no other scheduler: "
			   "nothing to compare with");
	y++;
	screen_rule(y++, 0, W, "Budget");
	int x = screen_put(y, 1, W - 1, cs->sel == cs->n_arms ? SCREEN_SELECT : SCREEN_NORMAL,
			   "budget ");
	for (unsigned i = 0; i < COMPARESCR_N_BUDGETS; i++)
		x += screen_printf(y, 1 + x, W - 1 - x, i == cs->budget ? SCREEN_GOOD : SCREEN_DIM,
				   i == cs->budget ? "[%s] " : " %s  ", budgets[i].name);
	screen_put(y + 1, 1, W - 1, SCREEN_DIM, "as many rounds as fit; it stops earlier when "
		   "every verdict is settled");
	y += 3;
	y += put_wrapped(y, 0, W, 2, SCREEN_WARN, "Starting stops the dashboard's load; the "
			 "comparison applies each arm in turn (each arm-run: settle, warm-up, "
			 "samples) and puts every setting back after each.  q/Esc stops it.");
	if (cs->changed[0])
		y += put_wrapped(y, 0, W, 2, SCREEN_WARN, cs->changed);
	screen_put(H - 2, 0, W, cs->pick_note_bad ? SCREEN_WARN : SCREEN_GOOD, cs->pick_note);
	x = 0;
	static const char *const k[][2] = {
		{ "Enter", "start" }, { "Space/1-9", "toggle" }, { "a", "add an arm" },
		{ "b/←→", "budget" }, { "↑↓", "move" }, { "t", "tune's space" }, { "Esc/q", "back" },
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]) && x < W; i++) {
		const char *key = k[i][0];
		if (!utf8 && i == 3)
			key = "b";
		if (!utf8 && i == 4)
			key = "Up/Down";
		x += screen_put(H - 1, x, W - x, SCREEN_KEY, key);
		x += screen_printf(H - 1, x, W - x, SCREEN_NORMAL, " %s  ", k[i][1]);
	}
	if (cs->prompting)
		prompt_draw(&cs->prompt);
	refresh();
}

/* ---------------------------------------------------------- the run screen */

static void fmt_ms(char *b, size_t n, double ms)
{
	if (isnan(ms))
		snprintf(b, n, "-");
	else if (ms < 10)
		snprintf(b, n, "%.2f", ms);
	else if (ms < 100)
		snprintf(b, n, "%.1f", ms);
	else
		snprintf(b, n, "%.0f", ms);
}

/* MiB/s in at most 6 columns; a CI bound below 0 is shown as 0 (a
 * throughput cannot be negative; the mean's interval can reach below). */
static void fmt_mibps(char *b, size_t n, double v)
{
	if (isnan(v))
		snprintf(b, n, "-");
	else if (v < 0)
		snprintf(b, n, "0");
	else if (v < 100)
		snprintf(b, n, "%.1f", v);
	else if (v < 100000)
		snprintf(b, n, "%.0f", v);
	else
		snprintf(b, n, "%.0fG", v / 1024);
}

static void fmt_dur(char *b, size_t n, uint64_t ns)
{
	unsigned long s = (unsigned long)(ns / SEC);
	if (s < 60)
		snprintf(b, n, "%lus", s);
	else
		snprintf(b, n, "%lu:%02lu", s / 60, s % 60);
}

/* Column of v on [lo, hi] over w cells; log when lg. */
static int axis_x(double v, double lo, double hi, int w, int lg)
{
	double f;
	if (lg)
		f = (log(v) - log(lo)) / (log(hi) - log(lo));
	else
		f = (v - lo) / (hi - lo);
	if (!(f >= 0))
		f = 0;
	if (f > 1)
		f = 1;
	return (int)lround(f * (w - 1));
}

/* A bar from lo to hi with est marked; ref (the baseline's median, may
 * be NaN) as a dim tick where the bar is not. */
static void draw_bar(int y, int x, int w, const struct stats_ci *ci, double ref, double alo,
		     double ahi, int lg, enum screen_role role)
{
	int utf8 = screen_utf8();
	screen_blank(y, x, w);
	if (!isnan(ref))
		screen_put(y, x + axis_x(ref, alo, ahi, w, lg), 1, SCREEN_DIM, utf8 ? "┊" : ":");
	if (isnan(ci->est))
		return;
	double lo = isnan(ci->lo) ? ci->est : ci->lo, hi = isnan(ci->hi) ? ci->est : ci->hi;
	int a = axis_x(lo, alo, ahi, w, lg), b = axis_x(hi, alo, ahi, w, lg);
	int m = axis_x(ci->est, alo, ahi, w, lg);
	for (int i = a; i <= b; i++)
		screen_put(y, x + i, 1, role, utf8 ? "━" : "-");
	screen_put(y, x + m, 1, role, utf8 ? "●" : "o");
}

static enum screen_role verdict_role(const struct compare_cell *cell, size_t arm)
{
	if (arm == 0 || !cell->n)
		return SCREEN_NORMAL;
	if (cell->verdict == STATS_FASTER)
		return SCREEN_GOOD;
	if (cell->verdict == STATS_SLOWER)
		return SCREEN_BAD;
	return SCREEN_NORMAL;
}

/* Which arm is under way (SIZE_MAX when none). */
static size_t arm_now(const struct comparescr *cs, const struct compare *c)
{
	if (!cs->running || !compare_session(c))
		return (size_t)-1;
	size_t arm;
	unsigned round, rmax;
	uint64_t eta;
	compare_progress(c, &arm, &round, &rmax, &eta);
	return arm;
}

/* The arm's label: under way marked, out of the race dim and crossed. */
static void label_cell(int y, int w, const struct compare_result *r, size_t i, size_t now)
{
	int utf8 = screen_utf8(), out = r->race[i].out;
	screen_printf(y, 0, w, i == now ? SCREEN_KEY : out ? SCREEN_DIM : SCREEN_NORMAL,
		      "%s%-11.11s", i == now ? (utf8 ? "▶" : ">") : out ? (utf8 ? "✗" : "x") : " ",
		      r->arms[i].label);
}

/* One action: a rule with the axis, one row per arm.  Rows used. */
static int draw_action(const struct compare_result *r, enum action_kind a, size_t now, int y,
		       int W, int max_rows)
{
	int utf8 = screen_utf8();
	double alo = NAN, ahi = NAN;
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct compare_cell *cell = &r->cells[i][a];
		if (!cell->n || isnan(cell->p50.est))
			continue;
		double lo = isnan(cell->p50.lo) ? cell->p50.est : cell->p50.lo;
		double hi = isnan(cell->p50.hi) ? cell->p50.est : cell->p50.hi;
		alo = isnan(alo) || lo < alo ? lo : alo;
		ahi = isnan(ahi) || hi > ahi ? hi : ahi;
	}
	char t[160], l[16], h[16];
	if (!isnan(alo) && alo > 0) {
		if (ahi <= alo * 1.05) {
			alo /= 1.05;
			ahi *= 1.05;
		}
		fmt_ms(l, sizeof(l), alo);
		fmt_ms(h, sizeof(h), ahi);
		snprintf(t, sizeof(t), "%s: median ms, bar = its 95%% CI (log %s %s %s)",
			 action_kind_name(a), l, utf8 ? "…" : "..", h);
	} else {
		unsigned warm = 0;
		for (size_t i = 0; i < r->n_arms; i++)
			warm += r->cells[i][a].warm;
		alo = ahi = NAN;
		if (warm)
			snprintf(t, sizeof(t), "%s: no cold sample (%u warm, not counted: "
				 "--drop-caches makes them cold)", action_kind_name(a), warm);
		else
			snprintf(t, sizeof(t), "%s: median ms (no sample yet)", action_kind_name(a));
	}
	screen_rule(y, 0, W, t);
	int rows = 1;
	/* columns: label 10, n 5, bar, median [lo, hi] 24, ratio 7, verdict 12 */
	int bx = 17, nx = W - 43, bw = nx - bx - 1;
	double ref = r->cells[0][a].n ? r->cells[0][a].p50.est : NAN;
	for (size_t i = 0; i < r->n_arms && rows < max_rows; i++, rows++) {
		const struct compare_cell *cell = &r->cells[i][a];
		int yy = y + rows;
		label_cell(yy, 12, r, i, now);
		screen_printf(yy, 12, 5, SCREEN_DIM, "%4zu", cell->n);
		enum screen_role role = verdict_role(cell, i);
		if (i == 0)
			role = SCREEN_TITLE;
		if (!isnan(alo) && cell->n)
			draw_bar(yy, bx, bw, &cell->p50, i ? ref : NAN, alo, ahi, 1, role);
		char m[16], lo[16], hi[16];
		fmt_ms(m, sizeof(m), cell->n ? cell->p50.est : NAN);
		fmt_ms(lo, sizeof(lo), cell->n ? cell->p50.lo : NAN);
		fmt_ms(hi, sizeof(hi), cell->n ? cell->p50.hi : NAN);
		int x = nx;
		x += screen_printf(yy, x, W - x, SCREEN_NORMAL, "%6s [%5s, %5s]", m, lo, hi);
		if (i == 0) {
			screen_put(yy, x, W - x, SCREEN_DIM, "  baseline");
			continue;
		}
		if (!cell->n || isnan(cell->ratio_runs.est)) {
			screen_put(yy, x, W - x, SCREEN_DIM, "      -");
			continue;
		}
		x += screen_printf(yy, x, W - x, role, " %5.2fx", cell->ratio_runs.est);
		const char *v = compare_verdict_name(cell->verdict);
		screen_printf(yy, x, W - x, role, " %s%s", v, cell->settled ? (utf8 ? " ✓" : " +") : "");
	}
	return rows;
}

static int draw_load(const struct compare_result *r, size_t now, int y, int W, int max_rows)
{
	double top = NAN;
	for (size_t i = 0; i < r->n_arms; i++) {
		const struct stats_ci *m = compare_load_ci(r, i);
		double v = isnan(m->hi) ? m->est : m->hi;
		if (r->armstat[i].runs && !isnan(v))
			top = isnan(top) || v > top ? v : top;
	}
	screen_rule(y, 0, W, r->load_by_disk ?
		    "load: MiB/s to the disk per arm (load window; mean, 95% CI)" :
		    "load: its own MiB/s per arm (load window; mean, 95% CI)");
	int rows = 1;
	int bx = 17, nx = W - 43, bw = nx - bx - 1;
	for (size_t i = 0; i < r->n_arms && rows < max_rows; i++, rows++) {
		const struct compare_armstat *a = &r->armstat[i];
		const struct stats_ci *ld = compare_load_ci(r, i);
		int yy = y + rows;
		label_cell(yy, 12, r, i, now);
		screen_printf(yy, 12, 5, SCREEN_DIM, "%4zu", a->runs);
		if (!a->runs || isnan(ld->est)) {
			screen_put(yy, nx, W - nx, SCREEN_DIM, "     - (no arm-run yet)");
			continue;
		}
		enum screen_role role = a->load_ok || !r->n_ranked ? SCREEN_NORMAL : SCREEN_BAD;
		if (!isnan(top) && top > 0)
			draw_bar(yy, bx, bw, ld, NAN, 0, top, 0,
				 i == 0 ? SCREEN_TITLE : role);
		int x = nx;
		char m[16], lo[16], hi[16];
		fmt_mibps(m, sizeof(m), ld->est);
		fmt_mibps(lo, sizeof(lo), ld->lo);
		fmt_mibps(hi, sizeof(hi), ld->hi);
		if (isnan(ld->lo))
			x += screen_printf(yy, x, W - x, SCREEN_NORMAL, "%6s", m);
		else
			x += screen_printf(yy, x, W - x, SCREEN_NORMAL, "%6s [%5s, %5s]", m, lo, hi);
		if (r->n_ranked && !a->load_ok)
			screen_put(yy, x, W - x, SCREEN_BAD, "  starves the load");
		else if (a->failed_runs)
			screen_printf(yy, x, W - x, SCREEN_BAD, "  %zu run(s) failed", a->failed_runs);
	}
	return rows;
}

static void draw_header(struct comparescr *cs, const struct compare *c, int W)
{
	const struct compare_result *r = compare_result(c);
	char el[16], eta_s[16];
	if (cs->final) {
		draw_top(cs, cs->end, W);
		return;
	}
	size_t arm;
	unsigned round, rmax;
	uint64_t eta;
	compare_progress(c, &arm, &round, &rmax, &eta);
	fmt_dur(el, sizeof(el), now_ns() - cs->t_start);
	if (eta)
		fmt_dur(eta_s, sizeof(eta_s), eta);
	else if (rmax && r->n_runs >= (size_t)rmax * r->n_arms)
		snprintf(eta_s, sizeof(eta_s), "this arm-run");
	else
		snprintf(eta_s, sizeof(eta_s), "?");
	char what[200], rm[16];
	if (rmax)
		snprintf(rm, sizeof(rm), "%u", rmax);
	else
		snprintf(rm, sizeof(rm), "?");
	char race[40] = "";
	if (r->race_end != COMPARE_RACE_OFF && compare_race_left(r) < r->n_arms)
		snprintf(race, sizeof(race), ", %zu of %zu arms left", compare_race_left(r),
			 r->n_arms);
	snprintf(what, sizeof(what), "- round %u of %s%s, %zu arm-run(s) done, %s elapsed, ETA %s%s",
		 round + 1, rm, race, r->n_runs ? r->n_runs - (compare_session(c) ? 1 : 0) : 0, el,
		 eta_s, cs->stopping ? " (stopping)" : "");
	draw_top(cs, what, W);
	const struct session *s = compare_session(c);
	const char *now = arm < r->n_arms ? r->arms[arm].label : "?";
	if (s) {
		size_t done, planned;
		uint64_t e;
		session_progress(s, &done, &planned, &e);
		screen_printf(2, 0, W, SCREEN_KEY, "under way: %s, %s, %zu of %zu samples", now,
			      s->phase == SESSION_SETTLE ? "settling (dirty data drains)" :
			      session_phase_name(s->phase), done, planned);
	} else {
		screen_printf(2, 0, W, SCREEN_DIM, "between arm-runs: settings put back, %s next",
			      now);
	}
}

void comparescr_draw(struct comparescr *cs, const struct compare *c, int full)
{
	if (full)
		clearok(curscr, TRUE);
	if (too_small())
		return;
	int W = COLS, H = LINES;
	erase();
	if (!c) {
		draw_top(cs, cs->final ? cs->end : "- starting", W);
		put_wrapped(3, 0, W, H - 5, cs->msg_role, cs->msg);
		screen_put(H - 1, 0, W, SCREEN_DIM, cs->final ?
			   "Enter/Esc back to the dashboard   q quit brisk" : "please wait");
		refresh();
		return;
	}
	const struct compare_result *r = compare_result(c);
	draw_header(cs, c, W);
	int y = 3;
	if (cs->restored && y < H - 6)
		screen_put(y++, 0, W, SCREEN_WARN, "current = the settings the dashboard started "
			   "with (its changes were put back)");
	if (cs->dropped[0] && y < H - 6)
		screen_put(y++, 0, W, SCREEN_WARN, cs->dropped);
	size_t now = arm_now(cs, c);
	/* rows: per action 1 + arms, the load 1 + arms, the recommendation (1
	 * or 2), the message (1 or 2), keys */
	const char *m = cs->msg[0] ? cs->msg : r->n_msgs ? r->msgs[r->n_msgs - 1] : "";
	int msg_y = H - 1 - (m[0] ? put_wrapped(-1, 0, W, 2, SCREEN_NORMAL, m) : 1);
	const char *rec = r->recommendation[0] ? r->recommendation : r->n_runs ?
			  "no recommendation yet (after the first analysis)" :
			  "no recommendation yet: the first arm-run is under way";
	int rx = screen_width("recommendation: ");
	int rec_rows = put_wrapped(-1, rx, W - rx, 3, SCREEN_NORMAL, rec);
	int bottom = msg_y - rec_rows;
	unsigned shown = 0, total = 0;
	for (unsigned k = 0; k < ACTION_KIND_COUNT; k++) {
		if (!(r->actions & (1u << k)))
			continue;
		total++;
		int need = 1 + (int)r->n_arms;
		if (y + need + 1 + (int)r->n_arms > bottom && shown)
			continue;
		y += draw_action(r, (enum action_kind)k, now, y, W, bottom - y);
		shown++;
	}
	if (y + 1 < bottom)
		y += draw_load(r, now, y, W, bottom - y);
	if (shown < total)
		screen_printf(y++, 0, W, SCREEN_WARN, "%u more action(s): enlarge the terminal to "
			      "see them", total - shown);
	/* the free rows: the legend, then the workload */
	if (y + 1 < bottom) {
		char leg[320];
		int utf8 = screen_utf8();
		snprintf(leg, sizeof(leg), "%s median  %s 95%% CI  %s baseline's median  %s settled"
			 "  (n: cold samples; verdicts at alpha %.3g, look %u of %u)",
			 utf8 ? "●" : "o", utf8 ? "━" : "-", utf8 ? "┊" : ":", utf8 ? "✓" : "+",
			 r->alpha_look, r->looks_taken ? r->looks_taken : 1, r->looks);
		y += 1 + put_wrapped(y + 1, 0, W, bottom - y - 1, SCREEN_DIM, leg);
	}
	if (y + 1 < bottom)
		put_wrapped(y + 1, 0, W, bottom - y - 1, SCREEN_DIM, cs->workload);
	/* the recommendation and the message: each two rows at most */
	enum screen_role rr = r->best >= 0 ? SCREEN_GOOD : SCREEN_NORMAL;
	screen_put(msg_y - rec_rows, 0, W, SCREEN_TITLE, "recommendation: ");
	put_wrapped(msg_y - rec_rows, rx, W - rx, rec_rows, rr, rec);
	if (cs->msg[0])
		put_wrapped(msg_y, 0, W, H - 1 - msg_y, cs->msg_role, cs->msg);
	else if (r->n_msgs)
		put_wrapped(msg_y, 0, W, H - 1 - msg_y, SCREEN_DIM, r->msgs[r->n_msgs - 1]);
	int x = 0;
	/* keys */
	x += screen_put(H - 1, x, W - x, r->best >= 0 ? SCREEN_KEY : SCREEN_DIM, "s");
	x += screen_put(H - 1, x, W - x, r->best >= 0 ? SCREEN_NORMAL : SCREEN_DIM,
			" save the winner as a profile  ");
	if (cs->final) {
		x += screen_put(H - 1, x, W - x, SCREEN_KEY, "Enter/Esc");
		x += screen_put(H - 1, x, W - x, SCREEN_NORMAL, " back to the dashboard  ");
		x += screen_put(H - 1, x, W - x, SCREEN_KEY, "q");
		screen_put(H - 1, x, W - x, SCREEN_NORMAL, " quit brisk");
	} else {
		x += screen_put(H - 1, x, W - x, SCREEN_KEY, "q/Esc");
		screen_put(H - 1, x, W - x, SCREEN_NORMAL, " stop (settings are put back)");
	}
	if (cs->prompting)
		prompt_draw(&cs->prompt);
	refresh();
}

unsigned comparescr_key(struct comparescr *cs, const struct compare *c, int ch)
{
	const struct compare_result *r = c ? compare_result(c) : NULL;
	if (cs->prompting && ch != KEY_RESIZE) {
		switch (prompt_key(&cs->prompt, ch)) {
		case PROMPT_SUBMIT:
			cs->prompting = 0;
			return COMPARESCR_SAVE | COMPARESCR_REDRAW;
		case PROMPT_CANCEL:
			cs->prompting = 0;
			return COMPARESCR_REDRAW;
		case PROMPT_NONE:
			break;
		}
		return COMPARESCR_REDRAW;
	}
	if (ch == 12 || ch == KEY_RESIZE)   /* ^L; a resize curses saw itself */
		return COMPARESCR_REPAINT;
	if (cs->final) {
		if (ch == 'q' || ch == 'Q')
			return COMPARESCR_QUIT;
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER || ch == 27 || ch == ' ' ||
		    ch == 'd')
			return COMPARESCR_BACK;
	} else if (ch == 'q' || ch == 'Q' || ch == 27) {
		return COMPARESCR_STOP;
	}
	if ((ch == 's' || ch == 'S') && r) {
		if (r->best < 0 || (size_t)r->best >= r->n_arms) {
			comparescr_message(cs, SCREEN_WARN, "no recommended arm%s: nothing to save",
					   cs->final ? "" : " yet");
			return COMPARESCR_REDRAW;
		}
		char name[PROMPT_LEN], note[160];
		const char *l = r->arms[r->best].label;
		size_t o = (size_t)snprintf(name, sizeof(name), "compare-");
		for (size_t i = 0; l[i] && o + 1 < sizeof(name) && o < 40; i++) {
			char k = l[i];
			int ok = (k >= 'a' && k <= 'z') || (k >= 'A' && k <= 'Z') ||
				 (k >= '0' && k <= '9') || k == '-' || k == '_' || k == '.';
			name[o++] = ok ? k : '-';
		}
		name[o] = '\0';
		snprintf(note, sizeof(note), "the settings of %.40s (the winner%s), into your "
			 "profiles", l, cs->final ? "" : " so far");
		prompt_init(&cs->prompt, "Save the winner as a profile", "name:", note);
		snprintf(cs->prompt.input, sizeof(cs->prompt.input), "%s", name);
		cs->prompting = 1;
		return COMPARESCR_REDRAW;
	}
	return 0;
}
