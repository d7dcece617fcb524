/* splitscr — see splitscr.h. */
#include "splitscr.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "runreport_split.h"
#include "screen.h"
#include "splitbar.h"

#define NP TIMESPLIT_NPARTS
#define NAMEW 8          /* the action's name on a bar line */
#define PREFIX 11        /* the table's row labels */

/* ------------------------------------------------------------ figures */

/* "3.52ms", "35.2ms", "1.24s" */
static void fmt_wall(char *b, size_t n, uint64_t ns)
{
	double ms = (double)ns / 1e6;
	if (ms < 10)
		snprintf(b, n, "%.2fms", ms);
	else if (ms < 1000)
		snprintf(b, n, "%.1fms", ms);
	else if (ms < 100000)
		snprintf(b, n, "%.2fs", ms / 1000);
	else
		snprintf(b, n, "%.0fs", ms / 1000);
}

/* ms in at most w - 1 characters (a space before it): "0", "1.23",
 * "35.2", "1234", else seconds "12s" */
static void cell_ms(char *b, size_t n, int w, uint64_t ns)
{
	double ms = (double)ns / 1e6;
	if (!ns) {
		snprintf(b, n, "0");
		return;
	}
	for (int prec = ms < 10 ? 2 : ms < 100 ? 1 : 0; prec >= 0; prec--) {
		int l = snprintf(b, n, "%.*f", prec, ms);
		if (l < w && (size_t)l < n)
			return;
	}
	snprintf(b, n, "%.0fs", ms / 1000);
}

static void cell_pct(char *b, size_t n, uint64_t part, uint64_t wall)
{
	double p = wall ? 100.0 * (double)part / (double)wall : 0;
	if (!part)
		snprintf(b, n, "0");
	else if (p < 0.5)
		snprintf(b, n, "<1");
	else
		snprintf(b, n, "%.0f", p);
}

/* The latest sample of action a with a breakdown, or NULL. */
static const struct session_sample *latest(const struct session *s, enum action_kind a)
{
	for (size_t i = s->n_samples; i-- > 0;)
		if (s->samples[i].action == a && s->samples[i].split.ok)
			return &s->samples[i];
	return NULL;
}

/* ---------------------------------------------------------- the bars */

int splitscr_bars_height(const struct session *s)
{
	if (s->split_on)
		return (int)s->n_actions + 1;
	return s->cfg.no_breakdown ? 0 : 1;
}

/* The bar of t at (y, x), w cells; the parts drawn or'ed into *mask. */
static void draw_bar(const struct timesplit *t, int y, int x, int w, unsigned *mask)
{
	int cells[NP];
	if (splitbar_layout(t->part_ns, NP, w, cells) <= 0)
		return;
	int c = x, seg = 0;
	for (int p = 0; p < NP; p++) {
		if (!cells[p])
			continue;
		*mask |= 1u << p;
		int a = screen_part_attr(p, seg++ & 1);
		attron(a);
		for (int k = 0; k < cells[p] && c < COLS; k++)
			mvaddch(y, c++, (chtype)(unsigned char)splitbar_letter(p));
		attroff(a);
	}
}

static int bar_width(int w)
{
	int bw = (w - NAMEW - 10) / 3;
	return bw < 8 ? 8 : bw > 40 ? 40 : bw;
}

static void bar_line(const struct session *s, enum action_kind a, int y, int w, unsigned *mask)
{
	const struct session_sample *x = latest(s, a);
	char wall[24], cap[320];
	int bw = bar_width(w);
	if (!x) {
		int o = screen_printf(y, 0, w, SCREEN_NORMAL, "%-*s %8s ", NAMEW, action_kind_name(a),
				      "-");
		screen_put(y, o, w - o, SCREEN_DIM, "no sample measured yet");
		return;
	}
	const struct timesplit *t = &x->split;
	fmt_wall(wall, sizeof(wall), timesplit_wall_ns(t));
	int o = screen_printf(y, 0, w, SCREEN_NORMAL, "%-*s %8s ", NAMEW, action_kind_name(a), wall);
	if (o + bw > w)
		bw = w - o;
	draw_bar(t, y, o, bw, mask);
	o += bw + 1;
	if (o >= w)
		return;
	const char *tag = t->incomplete ? "(incomplete) " : x->phase == SESSION_IDLE ? "idle: " : "";
	int tw = (int)strlen(tag);
	if (tw)
		screen_put(y, o, w - o, t->incomplete ? SCREEN_WARN : SCREEN_DIM, tag);
	timesplit_cause(t, cap, sizeof(cap));
	if ((int)strlen(cap) > w - o - tw)   /* the cause in full only where it fits */
		splitbar_caption(t->part_ns, NP, w - o - tw, cap, sizeof(cap));
	screen_put(y, o + tw, w - o - tw, SCREEN_NORMAL, cap);
}

/* The part a legend item ("q queued ...") names, or -1. */
static int item_part(char letter)
{
	for (int k = 0; k < NP; k++)
		if (splitbar_letter(k) == letter)
			return k;
	return -1;
}

static void legend_line(const struct session *s, int y, int w, unsigned mask, int any)
{
	int o = screen_put(y, 0, w, SCREEN_DIM, any ? "latest sample (w: table)  " :
			   "where the time went: ");
	if (!any) {
		screen_put(y, o, w - o, SCREEN_DIM, s->phase == SESSION_PREPARE ?
			   "once samples run (w: the table)" : "no sample measured yet (w: the table)");
		return;
	}
	char lg[512];
	splitbar_legend(mask, w - o, lg, sizeof(lg));
	/* each item's letter in its part's attribute */
	int seg = 0;
	for (const char *p = lg; *p && o < w;) {
		const char *e = strstr(p, "  ");
		int l = e ? (int)(e - p) : (int)strlen(p);
		int a = screen_part_attr(item_part(*p), seg++ & 1);
		attron(a);
		mvaddch(y, o++, (chtype)(unsigned char)*p);
		attroff(a);
		char item[128];
		snprintf(item, sizeof(item), "%.*s", l - 1, p + 1);
		o += screen_put(y, o, w - o, SCREEN_NORMAL, item);
		if (!e)
			break;
		o += screen_put(y, o, w - o, SCREEN_NORMAL, "  ");
		p = e + 2;
	}
}

void splitscr_bars(const struct session *s, int y, int w, int h)
{
	int want = splitscr_bars_height(s);
	if (h > want)
		h = want;
	if (h <= 0)
		return;
	if (!s->split_on) {
		int o = screen_put(y, 0, w, SCREEN_DIM, "where the time went: unavailable: ");
		screen_put(y, o, w - o, SCREEN_WARN, s->split_off[0] ? s->split_off :
			   "the collector did not start");
		return;
	}
	unsigned mask = 0;
	int any = 0;
	for (unsigned i = 0; i < s->n_actions; i++)
		any |= latest(s, s->actions[i].kind) != NULL;
	for (unsigned i = 0; i < s->n_actions && (int)i < h; i++)
		bar_line(s, s->actions[i].kind, y + (int)i, w, &mask);
	if (h > (int)s->n_actions)
		legend_line(s, y + (int)s->n_actions, w, mask, any);
}

/* ---------------------------------------------------------- the table */

/* Body lines are emitted in order; those in the window are drawn. */
struct em {
	int y0, h, top, n, w, cw;
};

/* The row of body line em->n, or -1 when it is scrolled away. */
static int em_row(struct em *e)
{
	int r = e->n++ - e->top;
	return r >= 0 && r < e->h ? e->y0 + r : -1;
}

static void em_line(struct em *e, int role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void em_line(struct em *e, int role, const char *fmt, ...)
{
	int y = em_row(e);
	if (y < 0)
		return;
	char b[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	screen_put(y, 0, e->w, role, b);
}

/* A row of cells: label, the wall, then each part. */
static void em_cells(struct em *e, int role, const char *label, char cells[NP + 1][16])
{
	int y = em_row(e);
	if (y < 0)
		return;
	int x = screen_printf(y, 0, e->w, SCREEN_DIM, "%-*s", PREFIX, label);
	for (int i = 0; i <= NP && x < e->w; i++)
		x += screen_printf(y, x, e->w - x, role, "%*s", e->cw, cells[i]);
}

static const char *const short_keys[NP] = {
	"cpu", "runq", "dev", "que", "adm", "thr", "blk", "slp",
};

static void head_cells(int cw, char cells[NP + 1][16])
{
	snprintf(cells[0], 16, "wall");
	for (int p = 0; p < NP; p++)
		snprintf(cells[p + 1], 16, "%s", (int)strlen(timesplit_key(p)) < cw ?
			 timesplit_key(p) : short_keys[p]);
}

static void em_split(struct em *e, const struct timesplit *t)
{
	char cells[NP + 1][16], a[64], b[64];
	uint64_t wall = timesplit_wall_ns(t);
	cell_ms(cells[0], 16, e->cw, wall);
	for (int p = 0; p < NP; p++)
		cell_ms(cells[p + 1], 16, e->cw, t->part_ns[p]);
	em_cells(e, SCREEN_NORMAL, "  ms", cells);
	snprintf(cells[0], 16, "100");
	for (int p = 0; p < NP; p++)
		cell_pct(cells[p + 1], 16, t->part_ns[p], wall);
	em_cells(e, SCREEN_NORMAL, "  %", cells);
	timesplit_count_text(a, sizeof(a), t->rq[0], t->rq_bytes[0], "read");
	timesplit_count_text(b, sizeof(b), t->rq[1], t->rq_bytes[1], "write");
	em_line(e, SCREEN_NORMAL, "%-*s%s, %s", PREFIX, "  own", a, b);
	if (!t->rq[0] && !t->rq[1] && !t->ahead[0] && !t->ahead[1]) {
		em_line(e, SCREEN_DIM, "%-*s- (no requests of its own to be ahead of)", PREFIX,
			"  ahead");
		return;
	}
	timesplit_count_text(a, sizeof(a), t->ahead[1], t->ahead_bytes[1], "write");
	timesplit_count_text(b, sizeof(b), t->ahead[0], t->ahead_bytes[0], "read");
	em_line(e, SCREEN_NORMAL, "%-*s%s, %s%s", PREFIX, "  ahead", a, b,
		t->n_makers ? ", issued by:" : "");
	for (uint32_t i = 0; i < t->n_makers && i < TIMESPLIT_MAKERS; i++) {
		const struct timesplit_maker *m = &t->makers[i];
		const char *role = timesplit_role_name(m->role);
		char sz[32];
		parse_format_iec(sz, sizeof(sz), m->bytes);
		/* m->comm is the process's own name: screen_put() escapes it */
		em_line(e, SCREEN_NORMAL, "%-*s%d %s%s%s: %u (%s)", PREFIX + 2, "", (int)m->pid,
			m->comm, role ? ", brisk's " : "", role ? role : "", m->n, sz);
	}
	if (t->n_makers && t->ahead_unnamed)
		em_line(e, SCREEN_DIM, "%-*sothers: %u", PREFIX + 2, "", t->ahead_unnamed);
}

/* The median: of the current epoch's loaded samples, else the idle ones. */
static void em_median(struct em *e, const struct session *s, enum action_kind a)
{
	struct runreport_split g;
	uint32_t ep = (uint32_t)(s->n_epochs - 1);
	enum session_phase ph = SESSION_LOADED;
	if (runreport_split_group(s, a, ep, ph, &g) < 0 || !g.sum.median) {
		ph = SESSION_IDLE;
		ep = UINT32_MAX;
		if (runreport_split_group(s, a, ep, ph, &g) < 0)
			memset(&g, 0, sizeof(g));
	}
	char left[64] = "";
	if (g.sum.n_incomplete)
		snprintf(left, sizeof(left), ", %zu incomplete left out", g.sum.n_incomplete);
	if (!g.sum.median) {
		const char *why = runreport_split_why_not(s, &g);
		em_line(e, SCREEN_DIM, "%-*smedian: - (%s)", PREFIX, "", why ? why : "none");
		return;
	}
	if (ph == SESSION_IDLE)
		em_line(e, SCREEN_TITLE, "%-*smedian of %zu idle sample%s%s", PREFIX, "", g.sum.n,
			g.sum.n == 1 ? "" : "s", left);
	else
		em_line(e, SCREEN_TITLE, "%-*smedian of %zu loaded sample%s, epoch #%u%s", PREFIX, "",
			g.sum.n, g.sum.n == 1 ? "" : "s", ep, left);
	em_split(e, g.sum.median);
}

static void em_action(struct em *e, const struct session *s, enum action_kind a)
{
	const struct session_sample *x = latest(s, a);
	const char *name = action_kind_name(a);
	if (!x) {
		em_line(e, SCREEN_TITLE, "%-*sno sample measured yet", PREFIX, name);
	} else {
		em_line(e, SCREEN_TITLE, "%-*slatest: pid %d, %s, epoch #%u%s", PREFIX, name,
			(int)x->pid, x->phase == SESSION_IDLE ? "idle" : "loaded", x->epoch,
			x->split.incomplete ? " (incomplete: not every task or request tracked)" : "");
		em_split(e, &x->split);
		em_median(e, s, a);
	}
	em_line(e, SCREEN_NORMAL, "%s", "");
}

static void body(struct em *e, const struct session *s)
{
	if (!s->split_on) {
		em_line(e, SCREEN_WARN, "the breakdown is unavailable: %s", s->split_off[0] ?
			s->split_off : "the collector did not start");
		return;
	}
	for (unsigned i = 0; i < s->n_actions; i++)
		em_action(e, s, s->actions[i].kind);
	em_line(e, SCREEN_DIM, "The parts add up to the wall time (brisk-run(1), WHERE THE TIME "
		"WENT):");
	for (int p = 0; p < NP; p++)
		em_line(e, SCREEN_DIM, "  %-9s %s", timesplit_key(p), timesplit_label(p));
	em_line(e, SCREEN_DIM, "ahead: others' requests the disk completed while one of the "
		"sample's own was queued or on it.");
}

void splitscr_open(struct splitscr *p)
{
	memset(p, 0, sizeof(*p));
}

void splitscr_draw(struct splitscr *p, const struct session *s)
{
	int W = COLS, H = LINES;
	char cells[NP + 1][16];
	struct em e = { .y0 = 3, .h = H - 4, .w = W };
	e.cw = (W - PREFIX) / (NP + 1);
	e.cw = e.cw < 5 ? 5 : e.cw > 9 ? 9 : e.cw;
	screen_rule(0, 0, W, "Where the time went");
	screen_put(1, 0, W, SCREEN_DIM, "per action: the latest sample and the median one, "
		   "in ms and % of its wall time");
	head_cells(e.cw, cells);
	int x = screen_printf(2, 0, W, SCREEN_TITLE, "%-*s", PREFIX, "");
	for (int i = 0; i <= NP && x < W; i++)
		x += screen_printf(2, x, W - x, SCREEN_TITLE, "%*s", e.cw, cells[i]);
	/* count the lines first, so the window cannot scroll past the end */
	struct em c = e;
	c.h = 0;
	body(&c, s);
	p->body = c.n;
	p->page = e.h > 0 ? e.h : 1;
	if (p->top > p->body - p->page)
		p->top = p->body - p->page;
	if (p->top < 0)
		p->top = 0;
	e.top = p->top;
	body(&e, s);
	char keys[160];
	snprintf(keys, sizeof(keys), "%s PgUp PgDn scroll  w/Esc back", screen_utf8() ?
		 "\u2191\u2193" : "up/down");
	int kx = screen_put(H - 1, 0, W, SCREEN_KEY, keys);
	if (p->body > p->page)
		screen_printf(H - 1, kx, W - kx, SCREEN_DIM, "   lines %d-%d of %d", p->top + 1,
			      p->top + p->page < p->body ? p->top + p->page : p->body, p->body);
}

int splitscr_key(struct splitscr *p, int ch)
{
	switch (ch) {
	case 'w': case 'W': case 27: case 'q': case 'Q': case '\n': case '\r': case KEY_ENTER:
		return 1;
	case KEY_UP: case 'k':
		p->top--;
		break;
	case KEY_DOWN: case 'j':
		p->top++;
		break;
	case KEY_PPAGE: case KEY_BACKSPACE:
		p->top -= p->page;
		break;
	case KEY_NPAGE: case ' ':
		p->top += p->page;
		break;
	case KEY_HOME: case 'g':
		p->top = 0;
		break;
	case KEY_END: case 'G':
		p->top = p->body;
		break;
	default:
		break;
	}
	if (p->top > p->body - p->page)
		p->top = p->body - p->page;
	if (p->top < 0)
		p->top = 0;
	return 0;
}
