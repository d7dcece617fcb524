#include "dash.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "keys.h"
#include "grade.h"
#include "runreport.h"
#include "screen.h"
#include "spark.h"
#include "now.h"
#include "parse.h"

#define MiB (1024.0 * 1024.0)

/* ------------------------------------------------------------ formatting */

static void fmt_ms(char *b, size_t n, double ms)
{
	if (isnan(ms))
		snprintf(b, n, "-");
	else if (ms < 1)
		snprintf(b, n, "%.2fms", ms);
	else if (ms < 100)
		snprintf(b, n, "%.1fms", ms);
	else if (ms < 1000)
		snprintf(b, n, "%.0fms", ms);
	else if (ms < 100000)
		snprintf(b, n, "%.2fs", ms / 1000);
	else
		snprintf(b, n, "%.0fs", ms / 1000);
}

/* A disk size in at most 4 columns for the stack line ("932G", "8.0G",
 * "512B"): binary multiples, shown from 1000 of a unit on. */
static void fmt_size(char *b, size_t n, uint64_t bytes)
{
	const char *u = "KMGTP";
	double v = (double)bytes;
	int i = -1;
	while (v >= 1000 && i < 4) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(b, n, "%.0fB", v);
	else
		snprintf(b, n, v < 10 ? "%.1f%c" : "%.0f%c", v, u[i]);
}

/* ---------------------------------------------------------------- header */

static const char *node_kind(const struct blockdev *b)
{
	return blockdev_kind_name(b->kind);
}

static size_t chain(const struct stack_node *n, char *out, size_t len, size_t o, int utf8)
{
	if (o >= len)
		return o;
	o += (size_t)snprintf(out + o, len - o, "%s", n->dev.name);
	if (n->dev.kind == BLOCKDEV_MD && n->dev.md_level[0] && o < len)
		o += (size_t)snprintf(out + o, len - o, " (%s)", n->dev.md_level);
	else if (n->dev.kind == BLOCKDEV_DM && n->dev.dm_target[0] && o < len)
		o += (size_t)snprintf(out + o, len - o, " (%s)", n->dev.dm_target);
	if (!n->n_children || o >= len)
		return o;
	o += (size_t)snprintf(out + o, len - o, "%s", utf8 ? " \u2192 " : " -> ");
	if (n->n_children > 1 && o < len)
		o += (size_t)snprintf(out + o, len - o, "{");
	for (size_t i = 0; i < n->n_children && o < len; i++) {
		if (i)
			o += (size_t)snprintf(out + o, len - o, ", ");
		o = chain(n->children[i], out, len, o, utf8);
	}
	if (n->n_children > 1 && o < len)
		o += (size_t)snprintf(out + o, len - o, "}");
	return o;
}

static void tree_add(struct dash *d, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void tree_add(struct dash *d, const char *prefix, const char *fmt, ...)
{
	if (d->n_tree >= sizeof(d->tree) / sizeof(d->tree[0]))
		return;
	char body[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	snprintf(d->tree[d->n_tree++], sizeof(d->tree[0]), "%s%s", prefix, body);
}

static void tree_node(struct dash *d, const struct stack_node *n, const char *indent,
		      int last, int top, const struct advisory_db *db, int utf8)
{
	const struct blockdev *b = &n->dev;
	char prefix[96], size[16];
	snprintf(prefix, sizeof(prefix), "%s%s", indent,
		 top ? "" : last ? (utf8 ? "\u2514\u2500 " : "`- ") : (utf8 ? "\u251c\u2500 " : "|- "));
	fmt_size(size, sizeof(size), b->size_bytes);
	const char *rot = b->rotational == 1 ? "hdd" : b->rotational == 0 ? "ssd" : "";
	if (b->kind == BLOCKDEV_DISK)
		tree_add(d, prefix, "%s  %s %s %s %s", b->name, b->transport[0] ? b->transport : "disk",
			 rot, size, b->model);
	else if (b->kind == BLOCKDEV_MD)
		tree_add(d, prefix, "%s  md %s %s%s", b->name, b->md_level, size,
			 b->md_degraded > 0 ? " DEGRADED" : "");
	else if (b->kind == BLOCKDEV_DM)
		tree_add(d, prefix, "%s  dm %s %s %s", b->name, b->dm_target, b->dm_name, size);
	else
		tree_add(d, prefix, "%s  %s %s", b->name, node_kind(b), size);
	char sub[96];
	snprintf(sub, sizeof(sub), "%s%s", indent, top ? "" : last ? "   " : (utf8 ? "\u2502  " : "|  "));
	if (db && b->kind == BLOCKDEV_DISK) {
		const struct advisory *a = advisory_match(db, b->model, b->firmware);
		if (a) {
			tree_add(d, sub, "  ! firmware %s: %s", b->firmware[0] ? b->firmware : "(none)",
				 a->problem);
			snprintf(d->badge, sizeof(d->badge), "firmware advisory: %s", b->name);
		}
	}
	if (b->kind == BLOCKDEV_LOOP && b->backing_file[0]) {
		const char *base = strrchr(b->backing_file, '/');
		tree_add(d, sub, "  file %s", base && base[1] ? base + 1 : b->backing_file);
	}
	for (size_t i = 0; i < n->n_children; i++)
		tree_node(d, n->children[i], sub, i + 1 == n->n_children, 0, db, utf8);
}

void dash_refresh_settings(struct dash *d)
{
	settings_scheduler(d->st, d->sched, sizeof(d->sched), d->sched_detail,
			   sizeof(d->sched_detail));
}

void dash_init(struct dash *d, struct session *s, struct settings *st,
	       const struct stack *stack, const struct advisory_db *db, int root)
{
	memset(d, 0, sizeof(*d));
	d->s = s;
	d->st = st;
	d->stack = stack;
	d->root = root;
	d->msg_role = SCREEN_NORMAL;
	int utf8 = screen_utf8();
	snprintf(d->dir, sizeof(d->dir), "%s", stack && stack->path[0] ? stack->path : s->cfg.dir);
	snprintf(d->fstype, sizeof(d->fstype), "%s",
		 stack && stack->mount.fstype[0] ? stack->mount.fstype : s->fstype);
	if (stack && stack->root) {
		size_t o = (size_t)snprintf(d->stackline, sizeof(d->stackline), "%s on ", d->fstype);
		chain(stack->root, d->stackline, sizeof(d->stackline), o, utf8);
		tree_add(d, "", "%s  %s", stack->mount.target, d->fstype);
		tree_node(d, stack->root, "", 1, 0, db, utf8);
	} else {
		snprintf(d->stackline, sizeof(d->stackline), "%s: no block device (no device "
			 "statistics, no settings)", d->fstype[0] ? d->fstype : "file system");
		tree_add(d, "", "%s  %s", stack ? stack->mount.target : d->dir, d->fstype);
		tree_add(d, "", "  no block device behind it");
	}
	for (size_t k = 0; k < s->n_loaddirs; k++) {   /* the loads' own directories */
		char devs[80] = "";
		for (size_t i = 0, o = 0; i < s->n_devs && o < sizeof(devs); i++)
			if (s->devs[i].stacks & (2u << k))
				o += (size_t)snprintf(devs + o, sizeof(devs) - o, " %s", s->devs[i].name);
		tree_add(d, "", "load dir %s  %s on%s", s->loaddirs[k].dir, s->loaddirs[k].fstype,
			 devs[0] ? devs : " no block device");
	}
	dash_refresh_settings(d);
}

void dash_free(struct dash *d)
{
	free(d->mbps);
	free(d->stall_ms);
	free(d->load_seen);
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

void dash_message(struct dash *d, int role, const char *fmt, ...)
{
	d->msg_until = now_ns() + 3000000000ull;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	d->msg_role = role;
	d->msg_is_verdict = 0;
}

/* ---------------------------------------------------------------- series */

static int series_grow(struct dash *d, size_t want)
{
	if (want <= d->cap_series)
		return 0;
	size_t cap = d->cap_series ? d->cap_series * 2 : 256;
	while (cap < want)
		cap *= 2;
	double *a = realloc(d->mbps, cap * sizeof(*a));
	if (!a)
		return -1;
	d->mbps = a;
	double *b = realloc(d->stall_ms, cap * sizeof(*b));
	if (!b)
		return -1;
	d->stall_ms = b;
	d->cap_series = cap;
	return 0;
}

static void series_update(struct dash *d)
{
	struct session *s = d->s;
	if (d->n_load_seen < s->n_loads) {
		size_t *n = realloc(d->load_seen, s->n_loads * sizeof(*n));
		if (!n)
			return;
		for (size_t i = d->n_load_seen; i < s->n_loads; i++)
			n[i] = 0;
		d->load_seen = n;
		d->n_load_seen = s->n_loads;
	}
	if (series_grow(d, s->n_ticks) < 0)
		return;
	while (d->n_series < s->n_ticks) {
		size_t i = d->n_series++;
		d->mbps[i] = NAN;
		d->stall_ms[i] = NAN;
	}
	if (!s->n_ticks)
		return;
	double mb = NAN, st = NAN;
	for (size_t i = 0; i < s->n_loads; i++) {
		const struct load *l = &s->loads[i];
		if (l->n_timeline <= d->load_seen[i])
			continue;
		d->load_seen[i] = l->n_timeline;
		const struct load_point *p = &l->timeline[l->n_timeline - 1];
		uint64_t t_prev = l->n_timeline > 1 ? l->timeline[l->n_timeline - 2].t_ns : l->t_start;
		uint64_t b_prev = l->n_timeline > 1 ? l->timeline[l->n_timeline - 2].bytes : 0;
		if (!t_prev || p->t_ns <= t_prev)
			continue;
		double r = (double)(p->bytes - b_prev) / MiB / ((double)(p->t_ns - t_prev) / 1e9);
		mb = isnan(mb) ? r : mb + r;
		double w = (double)p->worst_ns / 1e6;
		st = isnan(st) || w > st ? w : st;
	}
	d->mbps[s->n_ticks - 1] = mb;
	d->stall_ms[s->n_ticks - 1] = st;
}

/* ----------------------------------------------------------------- table */

/* The verdict of the worst action in the current epoch, for the message
 * line: only when that epoch has loaded samples. */
static void verdict_update(struct dash *d)
{
	struct session *s = d->s;
	d->verdict[0] = '\0';
	uint32_t e = runreport_verdict_epoch(s);
	if (e == UINT32_MAX || !s->n_epochs || e != s->n_epochs - 1)
		return;
	const struct blockdev *devs[SESSION_MAX_DEVS] = { 0 };
	for (size_t i = 0; d->stack && i < s->n_devs && i < SESSION_MAX_DEVS; i++)
		devs[i] = stack_find(d->stack, s->devs[i].name);
	struct grade_verdict v[ACTION_KIND_COUNT];
	size_t n;
	if (runreport_verdicts(s, e, devs, v, &n) < 0)
		return;
	int w = grade_worst(v, n);
	if (w < 0)
		return;
	char line[300];
	grade_format(&v[w], line, sizeof(line));
	snprintf(d->verdict, sizeof(d->verdict), "worst now: %s", line);
	d->verdict_role = v[w].grade >= GRADE_DISRUPTIVE ? SCREEN_BAD :
			  v[w].grade == GRADE_NOTICEABLE ? SCREEN_WARN : SCREEN_GOOD;
}

static void table_update(struct dash *d)
{
	struct session *s = d->s;
	if (d->tab_samples == s->n_samples && d->tab_epochs == s->n_epochs && d->rows)
		return;
	d->tab_samples = s->n_samples;
	d->tab_epochs = s->n_epochs;
	size_t need = s->n_actions * s->n_epochs;
	if (need > d->cap_rows) {
		struct dash_row *r = realloc(d->rows, need * sizeof(*r));
		if (!r)
			return;
		d->rows = r;
		d->cap_rows = need;
	}
	d->n_rows = 0;
	for (unsigned i = 0; i < s->n_actions; i++) {
		enum action_kind a = s->actions[i].kind;
		struct runreport_group g;
		d->idle_p50[a] = NAN;
		d->idle_n[a] = 0;
		if (runreport_group(s, a, UINT32_MAX, SESSION_IDLE, &g) == 0) {
			d->idle_p50[a] = g.st.p50;
			d->idle_n[a] = g.st.n;
		}
		for (uint32_t e = 0; e < s->n_epochs; e++) {
			if (runreport_group(s, a, e, SESSION_LOADED, &g) < 0)
				continue;
			struct dash_row *r = &d->rows[d->n_rows++];
			r->action = a;
			r->epoch = e;
			r->n = g.st.n;
			r->p50 = g.st.p50;
			r->p99 = g.st.p99;
			r->max = g.st.max;
			r->slow = g.slow_p50;
			r->timeouts = g.timeouts;
			r->errors = g.errors;
			r->warm = g.warm;
		}
	}
	verdict_update(d);
}

/* ---------------------------------------------------------------- panels */

static uint64_t elapsed_ns(const struct session *s)
{
	uint64_t now = now_ns();
	return s->t0 && now > s->t0 ? now - s->t0 : 0;
}

static int loads_running(const struct session *s)
{
	int n = 0;
	for (size_t i = 0; i < s->n_loads; i++)
		n += s->loads[i].pid > 0;
	return n;
}

static void draw_header(struct dash *d, int W)
{
	struct session *s = d->s;
	int x = screen_put(0, 0, W, SCREEN_TITLE, "brisk ");
	x += screen_put(0, x, W - x - 30, SCREEN_NORMAL, d->dir);
	x += screen_printf(0, x, W - x, SCREEN_DIM, "  %s", d->fstype);
	x += screen_put(0, x, W - x, d->root ? SCREEN_GOOD : SCREEN_WARN,
			d->root ? "  root" : "  read-only (not root)");
	if (d->badge[0]) {
		char b[96];
		snprintf(b, sizeof(b), "%s%s ", screen_utf8() ? " \u26a0 " : " ! ", d->badge);
		int bw = screen_width(b);
		screen_put(0, W - bw > x + 1 ? W - bw : x + 1, bw, SCREEN_BADGE, b);
	}
	x = screen_put(1, 0, W, SCREEN_DIM, "stack ");
	x += screen_put(1, x, W - x - 24, SCREEN_NORMAL, d->stackline);
	if (d->sched[0]) {
		x += screen_put(1, x, W - x, SCREEN_DIM, "   scheduler ");
		screen_put(1, x, W - x, SCREEN_TITLE,
			   strcmp(d->sched, "mixed") == 0 ? d->sched_detail : d->sched);
	}
	/* phase line */
	char left[256], right[160];
	uint64_t el = elapsed_ns(s);
	unsigned mm = (unsigned)(el / 60000000000ull), ss = (unsigned)(el / 1000000000ull % 60);
	size_t done, planned;
	uint64_t eta;
	session_progress(s, &done, &planned, &eta);
	enum screen_role role = SCREEN_NORMAL;
	switch (s->phase) {
	case SESSION_PREPARE:
		snprintf(left, sizeof(left), "preparing test files in %.200s",
			 s->workdir[0] ? s->workdir : s->cfg.dir);
		break;
	case SESSION_SETTLE:
		snprintf(left, sizeof(left), "settling: waiting for dirty data to be written back");
		break;
	case SESSION_IDLE:
		snprintf(left, sizeof(left), "idle baseline: %zu of %u samples, no load yet", done,
			 s->cfg.idle_samples * s->n_actions);
		break;
	case SESSION_WARMUP:
		snprintf(left, sizeof(left), "load running: warming up until writeback is under way");
		break;
	case SESSION_LOADED:
		if (s->loads_paused) {
			snprintf(left, sizeof(left), "load stopped: measuring without it");
			role = SCREEN_WARN;
		} else if (!loads_running(s)) {
			snprintf(left, sizeof(left), "the load ended by itself (see messages): "
				 "measuring without it");
			role = SCREEN_WARN;
		} else {
			snprintf(left, sizeof(left), "measuring under load");
		}
		break;
	case SESSION_STOP:
		snprintf(left, sizeof(left), "stopping the load...");
		role = SCREEN_WARN;
		break;
	case SESSION_DONE:
		snprintf(left, sizeof(left), "done");
		break;
	}
	const struct session_epoch *ep = &s->epochs[s->n_epochs - 1];
	double ago = (double)(el > ep->t_ns ? el - ep->t_ns : 0) / 1e9;
	if (s->n_epochs > 1)
		snprintf(right, sizeof(right), "epoch #%zu %s, %.0fs ago   %02u:%02u", s->n_epochs - 1,
			 ep->label, ago, mm, ss);
	else
		snprintf(right, sizeof(right), "%02u:%02u", mm, ss);
	int rw = screen_width(right);
	screen_put(2, 0, W - rw - 2, role, left);
	screen_put(2, W - rw, rw, SCREEN_DIM, right);
}

static void draw_tree(struct dash *d, int y, int x, int w, int h)
{
	for (int i = 0; i < h && (size_t)i < d->n_tree; i++)
		screen_put(y + i, x, w, strstr(d->tree[i], "  ! firmware") ? SCREEN_BAD : SCREEN_NORMAL,
			   d->tree[i]);
	if (d->n_tree > (size_t)h && h > 0)
		screen_printf(y + h - 1, x, w, SCREEN_DIM, "... %zu more lines (brisk devices)",
			      d->n_tree - (size_t)h + 1);
}

/* A sparkline of series v[0..n) (parallel to s->ticks) with epoch marks,
 * scaled to the largest value it shows; returns that (0 when none). */
static double draw_tick_spark(struct dash *d, int y, int x, int w, const double *v, size_t n)
{
	struct session *s = d->s;
	int utf8 = screen_utf8();
	double hi = 0;
	int c = x + w;
	for (size_t i = n; i-- > 0 && c > x;) {     /* what fits, and its maximum */
		c--;
		if (!isnan(v[i]) && v[i] > hi)
			hi = v[i];
		if (i > 0 && s->ticks[i].epoch != s->ticks[i - 1].epoch && c > x)
			c--;
	}
	c = x + w;
	for (size_t i = n; i-- > 0 && c > x;) {
		int lv = spark_level_linear(v[i], hi);
		screen_put(y, --c, 1, lv == SPARK_EMPTY ? SCREEN_DIM : SCREEN_NORMAL,
			   lv == SPARK_EMPTY ? " " : spark_glyph(lv, utf8));
		if (i > 0 && s->ticks[i].epoch != s->ticks[i - 1].epoch && c > x)
			screen_put(y, --c, 1, SCREEN_MARK, spark_glyph(SPARK_MARK, utf8));
	}
	return hi;
}

static void draw_load(struct dash *d, int y, int x, int w, int h)
{
	struct session *s = d->s;
	char a[32], b[32];
	if (h < 1)
		return;
	/* line 1: what runs and its MiB/s */
	size_t n = d->n_series < s->n_ticks ? d->n_series : s->n_ticks;
	double last = n ? d->mbps[n - 1] : NAN, hi = 0;
	char what[64] = "";
	unsigned count = 0;
	for (size_t i = 0; i < s->cfg.n_loads; i++)
		count += s->cfg.loads[i].count;
	if (s->cfg.n_loads)
		snprintf(what, sizeof(what), "%s%s%s%u", load_kind_name(s->cfg.loads[0].kind),
			 s->cfg.n_loads > 1 ? "+" : "", screen_utf8() ? " \u00d7" : " x", count);
	int run = loads_running(s);
	int lx = screen_printf(y, x, w, SCREEN_NORMAL, "%-16.16s ", what);
	if (!run && s->t_load_ended)   /* it ended on its own: what follows is not loaded */
		screen_printf(y, x + lx, w - lx, s->cfg.load_finite ? SCREEN_DIM : SCREEN_WARN,
			      "ended +%.0fs: %s", (double)s->t_load_ended / 1e9,
			      s->cfg.load_finite ? "finite on purpose" : "figures after it invalid");
	else if (!run)
		screen_put(y, x + lx, w - lx, SCREEN_DIM, s->t_load_start ? "stopped" : "not started");
	else if (isnan(last))
		screen_put(y, x + lx, w - lx, SCREEN_DIM, "      - MiB/s");
	else
		screen_printf(y, x + lx, w - lx, SCREEN_NORMAL, "%6.1f MiB/s", last);
	/* beside the loads' own rate, what reached the disk in the same tick:
	 * a buffered writer's calls land in the page cache first */
	double disk = n && s->fsdev.name[0] ? s->ticks[n - 1].fs_wr_mbps + s->ticks[n - 1].fs_rd_mbps
		      : NAN;
	if (run && !isnan(disk))
		screen_printf(y, x + lx + 12, w - lx - 12, SCREEN_DIM, " %6.1f disk", disk);
	int sx = lx + 25, sw = w - sx - 10;
	if (sw > 0)
		hi = draw_tick_spark(d, y, x + sx, sw, d->mbps, n);
	if (hi > 0 && sw > 0)
		screen_printf(y, x + sx + sw + 1, 9, SCREEN_DIM, "max %4.0f", hi);
	if (h < 2)
		return;
	/* line 2: worst stall of the writer/reader calls */
	uint64_t worst = 0;
	for (size_t i = 0; i < s->n_loads; i++)
		if (s->loads[i].worst_ns > worst)
			worst = s->loads[i].worst_ns;
	double ep_worst = NAN;
	uint32_t cur = (uint32_t)(s->n_epochs - 1);
	for (size_t i = n; i-- > 0 && s->ticks[i].epoch == cur;)
		if (!isnan(d->stall_ms[i]) && (isnan(ep_worst) || d->stall_ms[i] > ep_worst))
			ep_worst = d->stall_ms[i];
	fmt_ms(a, sizeof(a), worst ? (double)worst / 1e6 : NAN);
	fmt_ms(b, sizeof(b), ep_worst);
	screen_printf(y + 1, x, w, worst >= 1000000000ull ? SCREEN_WARN : SCREEN_NORMAL,
		      "worst load call  %-8s this epoch %s", a, b);
	if (h < 3)
		return;
	const struct session_tick *t = s->n_ticks ? &s->ticks[s->n_ticks - 1] : NULL;
	if (t && t->mem_ok) {
		parse_format_iec(a, sizeof(a), t->dirty);
		parse_format_iec(b, sizeof(b), t->writeback);
		screen_printf(y + 2, x, w, SCREEN_NORMAL, "Dirty %-11s Writeback %s", a, b);
	} else {
		screen_put(y + 2, x, w, SCREEN_DIM, "Dirty -  Writeback -");
	}
	if (h < 4)
		return;
	if (t && t->psi_ok)
		screen_printf(y + 3, x, w, t->psi_full_pct >= 50 ? SCREEN_WARN : SCREEN_NORMAL,
			      "PSI io  some %5.1f%%  full %5.1f%%  avg10 %.0f/%.0f",
			      t->psi_some_pct, t->psi_full_pct, t->psi_some_avg10, t->psi_full_avg10);
	else
		screen_put(y + 3, x, w, SCREEN_DIM, "PSI io  - (no /proc/pressure/io)");
}

static void draw_disks(struct dash *d, int y, int w, int h)
{
	struct session *s = d->s;
	if (!s->n_devs) {
		screen_put(y, 0, w, SCREEN_DIM, "no block device statistics for this file system");
		return;
	}
	for (int i = 0; i < h && (size_t)i < s->n_devs; i++) {
		if (i == h - 1 && s->n_devs > (size_t)h) {
			screen_printf(y + i, 0, w, SCREEN_DIM, "... %zu more disks (a taller terminal "
				      "shows them)", s->n_devs - (size_t)i);
			break;
		}
		const struct kstat_rates *r = s->n_ticks ?
			&s->ticks_disk[(s->n_ticks - 1) * s->n_devs + (size_t)i] : NULL;
		if (!r || !s->devs[i].ok) {
			screen_printf(y + i, 0, w, SCREEN_DIM, "%-8s -", s->devs[i].name);
			continue;
		}
		int x = screen_printf(y + i, 0, w, SCREEN_NORMAL,
				      "%-8s r %5.0f IOPS %6.1f MiB/s  w %5.0f IOPS %6.1f MiB/s  util ",
				      s->devs[i].name, r->rd_iops, r->rd_mbps, r->wr_iops, r->wr_mbps);
		x += screen_printf(y + i, x, w - x, r->util_pct >= 90 ? SCREEN_WARN : SCREEN_NORMAL,
				   "%3.0f %%", r->util_pct);
		if (w - x > 8) {
			/* util over time */
			int cw = w - x - 2;
			int c = x + 2 + cw;
			int utf8 = screen_utf8();
			for (size_t t = s->n_ticks; t-- > 0 && c > x + 2;) {
				double u = s->ticks_disk[t * s->n_devs + (size_t)i].util_pct;
				screen_put(y + i, --c, 1, SCREEN_DIM,
					   spark_glyph(spark_level_linear(u, 100), utf8));
				if (t > 0 && s->ticks[t].epoch != s->ticks[t - 1].epoch && c > x + 2)
					screen_put(y + i, --c, 1, SCREEN_MARK, spark_glyph(SPARK_MARK, utf8));
			}
		}
	}
}

/* Latency timeline of one action: one cell per sample, newest right, log
 * scale between the fastest and slowest sample shown. */
static void draw_timeline(struct dash *d, enum action_kind a, int y, int x, int w)
{
	struct session *s = d->s;
	int utf8 = screen_utf8();
	if (w <= 0)
		return;
	double lo = INFINITY, hi = 0;
	int cells = 0;
	size_t first = s->n_samples;
	uint32_t ne = UINT32_MAX;
	for (size_t i = s->n_samples; i-- > 0 && cells < w;) {
		const struct session_sample *x2 = &s->samples[i];
		if (x2->action != a || (x2->err && !x2->timeout))
			continue;
		if (ne != UINT32_MAX && x2->epoch != ne)
			cells++;              /* the marker cell */
		if (cells >= w)
			break;
		ne = x2->epoch;
		double ms = (double)x2->dur_ns / 1e6;
		if (ms > 0 && ms < lo)
			lo = ms;
		if (ms > hi)
			hi = ms;
		first = i;
		cells++;
	}
	int c = x + w;
	uint32_t next_epoch = UINT32_MAX;
	for (size_t i = s->n_samples; i-- > first && c > x;) {
		const struct session_sample *x2 = &s->samples[i];
		if (x2->action != a || (x2->err && !x2->timeout))
			continue;
		if (next_epoch != UINT32_MAX && x2->epoch != next_epoch && c > x)
			screen_put(y, --c, 1, SCREEN_MARK, spark_glyph(SPARK_MARK, utf8));
		next_epoch = x2->epoch;
		if (c <= x)
			break;
		int lv = spark_level_log((double)x2->dur_ns / 1e6, lo, hi);
		enum screen_role r = x2->timeout ? SCREEN_BAD : x2->phase == SESSION_IDLE ? SCREEN_DIM
			: SCREEN_NORMAL;
		screen_put(y, --c, 1, r, spark_glyph(lv, utf8));
	}
}

static enum screen_role slow_role(double slow)
{
	if (isnan(slow))
		return SCREEN_DIM;
	return slow <= 2 ? SCREEN_GOOD : slow <= 5 ? SCREEN_WARN : SCREEN_BAD;
}

static void draw_actions(struct dash *d, int y, int w, int h)
{
	struct session *s = d->s;
	table_update(d);
	const int tlx = 70;
	screen_printf(y, 0, w, SCREEN_TITLE, "%-8s %-16s %7s %7s %7s %7s %6s %4s %s", "action",
		      "epoch", "idle p50", "p50", "p99", "max", "slow", "n",
		      w >= tlx + 40 ? "latency per sample (log), newest right" : "timeline");
	if (!s->n_actions) {
		screen_put(y + 1, 0, w, SCREEN_DIM, s->phase == SESSION_PREPARE ?
			   "creating the files the actions read..." : "no actions");
		return;
	}
	/* the breakdown's lines under the table, as many as leave a row per action */
	int bl = splitscr_bars_height(s);
	if (bl > h - 1 - (int)s->n_actions)
		bl = h - 1 - (int)s->n_actions;
	if (bl < 0)
		bl = 0;
	h -= bl;
	int avail = h - 1;
	/* exec's program not on the disks under test: one line, kept */
	const char *where = NULL;
	for (unsigned i = 0; i < s->n_actions; i++)
		if (s->actions[i].kind == ACTION_EXEC && s->actions[i].where[0])
			where = s->actions[i].where;
	if (where && avail > 1)
		avail--;
	int per = avail / (int)s->n_actions;
	if (per < 1)
		per = 1;
	int row = y + 1;
	for (unsigned i = 0; i < s->n_actions && row < y + h; i++) {
		enum action_kind a = s->actions[i].kind;
		char idle[16], p50[16], p99[16], mx[16], sl[16];
		fmt_ms(idle, sizeof(idle), d->idle_p50[a]);
		/* rows of this action, newest epoch first: the current epoch
		 * always, older ones when they have samples */
		int shown = 0;
		for (size_t k = d->n_rows; k-- > 0 && shown < per && row < y + h;) {
			const struct dash_row *r = &d->rows[k];
			if (r->action != a)
				continue;
			int current = r->epoch == s->n_epochs - 1;
			if (!current && !r->n)
				continue;
			const struct session_epoch *ep = &s->epochs[r->epoch];
			char lab[160];
			snprintf(lab, sizeof(lab), "#%u %.96s%s", r->epoch, ep->label,
				 r->epoch > 0 && !ep->load_on && strcmp(ep->label, "load stopped") ?
				 " (no load)" : "");
			fmt_ms(p50, sizeof(p50), r->p50);
			fmt_ms(p99, sizeof(p99), r->p99);
			fmt_ms(mx, sizeof(mx), r->max);
			if (isnan(r->slow))
				snprintf(sl, sizeof(sl), "-");
			else
				snprintf(sl, sizeof(sl), "%.1f%s", r->slow, screen_utf8() ? "\u00d7" : "x");
			int x = screen_printf(row, 0, w, shown ? SCREEN_DIM : SCREEN_NORMAL, "%-8s %-16.16s %7s ",
					      shown ? "" : action_kind_name(a), lab,
					      shown ? "" : idle);
			x += screen_printf(row, x, w - x, shown ? SCREEN_DIM : SCREEN_NORMAL,
					   "%7s %7s %7s ", p50, p99, mx);
			x += screen_printf(row, x, 7, slow_role(r->slow), "%6s ", sl);
			x += screen_printf(row, x, w - x, r->timeouts ? SCREEN_BAD : SCREEN_DIM, "%4zu ",
					   r->n);
			if (!shown)
				draw_timeline(d, a, row, tlx, w - tlx);
			row++;
			shown++;
		}
		if (!shown) {   /* idle phase: no loaded epoch row yet */
			int x = screen_printf(row, 0, w, SCREEN_NORMAL, "%-8s %-16s %7s ",
					      action_kind_name(a), "idle", idle);
			screen_printf(row, x, w - x, SCREEN_DIM, "%7s %7s %7s %6s %4zu ", "-", "-", "-",
				      "-", d->idle_n[a]);
			draw_timeline(d, a, row, tlx, w - tlx);
			row++;
		}
	}
	if (where && row < y + h)
		screen_put(row++, 0, w, SCREEN_WARN, where);
	splitscr_bars(s, row, w, y + h + bl - row);
}

/* A key as the bottom line shows it: "?/F1/h", or its first form ("?")
 * when the whole line would not fit. */
static const char *key_shown(const struct keys_binding *k, int brief, char *b, size_t n)
{
	snprintf(b, n, "%s", k->key);
	if (brief && b[0] && b[1] == '/')
		b[1] = '\0';
	return b;
}

static void draw_keys(int y, int W, int root)
{
	size_t n;
	const struct keys_binding *k = keys_bindings(&n);
	char kb[32];
	int x = 0, full = 0;
	for (size_t i = 0; i < n; i++)
		if (k[i].name)
			full += screen_width(k[i].key) + screen_width(k[i].name) + 3;
	/* the last two spaces show only before the note of a read-only one */
	full += root ? -2 : screen_width("(dim: needs root)");
	int brief = full > W;
	for (size_t i = 0; i < n && x < W; i++) {
		if (!k[i].name)
			continue;
		x += screen_put(y, x, W - x, k[i].needs_root && !root ? SCREEN_DIM : SCREEN_KEY,
				key_shown(&k[i], brief, kb, sizeof(kb)));
		x += screen_printf(y, x, W - x, k[i].needs_root && !root ? SCREEN_DIM : SCREEN_NORMAL,
				   " %s  ", k[i].name);
	}
	if (!root && x < W)
		screen_put(y, x, W - x, SCREEN_DIM, "(dim: needs root)");
}

static void draw_help(struct dash *d)
{
	size_t n;
	const struct keys_binding *k = keys_bindings(&n);
	static const char *const legend[] = {
		"Timelines: one cell per sample, newest on the right, log scale",
		"from the fastest to the slowest sample shown; dim = idle, red =",
		"timed out; a marker separates epochs (every change starts one).",
		"slow = loaded p50 / idle p50.  '-' = not measured (yet).",
		"Under the table: where each action's latest sample spent its",
		"time, a letter per part (w shows every figure).",
		"q restores every setting this dashboard changed.",
	};
	int h = (int)n + 4 + (int)(sizeof(legend) / sizeof(legend[0])), w = 76;
	if (w > COLS)
		w = COLS;
	if (h > LINES)
		h = LINES;
	int y = (LINES - h) / 2, x = (COLS - w) / 2, r = y + 1;
	screen_box(y, x, h, w, "Keys");
	for (size_t i = 0; i < n && r < y + h - 1; i++, r++) {
		int kx = screen_printf(r, x + 2, 10, SCREEN_KEY, "%-9s", k[i].key);
		screen_printf(r, x + 2 + kx, w - 4 - kx, SCREEN_NORMAL, "%s%s", k[i].help,
			      k[i].needs_root && !d->root ? " (needs root)" : "");
	}
	r++;
	for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]) && r < y + h - 1; i++, r++)
		screen_put(r, x + 2, w - 4, SCREEN_DIM, legend[i]);
}

static void draw_small(const struct dash *d)
{
	char m[128];
	erase();
	snprintf(m, sizeof(m), "terminal too small: %dx%d, brisk needs at least %dx%d", COLS,
		 LINES, DASH_MIN_COLS, DASH_MIN_LINES);
	int w = screen_width(m);
	int x = COLS > w ? (COLS - w) / 2 : 0;
	screen_put(LINES / 2, x, COLS, SCREEN_WARN, m);
	const char *k = COLS >= SPLITSCR_MIN_COLS && LINES >= SPLITSCR_MIN_LINES &&
		d->s->split_on ? "q quits, w shows where the time went" : "q quits";
	int kw = screen_width(k);
	if (LINES / 2 + 1 < LINES)
		screen_put(LINES / 2 + 1, COLS > kw ? (COLS - kw) / 2 : 0, COLS, SCREEN_DIM, k);
}

void dash_draw(struct dash *d, int full)
{
	struct session *s = d->s;
	int W = COLS, H = LINES;
	d->redraws++;
	if (full)
		clearok(curscr, TRUE);
	if (d->overlay == DASH_SPLIT && W >= SPLITSCR_MIN_COLS && H >= SPLITSCR_MIN_LINES) {
		erase();
		splitscr_draw(&d->split, s);
		refresh();
		return;
	}
	if (W < DASH_MIN_COLS || H < DASH_MIN_LINES) {
		draw_small(d);
		refresh();
		return;
	}
	erase();
	uint64_t now = now_ns();
	if (s->n_msgs > d->msgs_seen && now >= d->msg_until) {
		d->msgs_seen = s->n_msgs;
		snprintf(d->msg, sizeof(d->msg), "%s", s->msgs[s->n_msgs - 1]);
		d->msg_role = SCREEN_WARN;
		d->msg_until = now + 3000000000ull;
		d->msg_is_verdict = 0;
	}
	draw_header(d, W);
	/* top panels: stack tree (left) and load (right) */
	int top = 3, ph = (int)d->n_tree;
	if (ph < 4)
		ph = 4;
	if (ph > (H - 14) / 3 + 4)
		ph = (H - 14) / 3 + 4;
	int lw = W * 2 / 5, rx = lw + 1, rw = W - rx;
	screen_rule(top, 0, lw, "Stack");
	screen_rule(top, rx - 1, rw + 1, "Load");
	attron(screen_attr(SCREEN_DIM));
	mvvline(top + 1, lw, ACS_VLINE, ph);
	attroff(screen_attr(SCREEN_DIM));
	draw_tree(d, top + 1, 0, lw - 1, ph);
	draw_load(d, top + 1, rx + 1, rw - 1, ph);
	/* disks */
	int dy = top + 1 + ph;
	int dh = s->n_devs ? (int)s->n_devs : 1;
	if (dh > (H - 14) / 4 + 1)
		dh = (H - 14) / 4 + 1;
	screen_rule(dy, 0, W, "Disks");
	draw_disks(d, dy + 1, W, dh);
	/* actions */
	int ay = dy + 1 + dh;
	screen_rule(ay, 0, W, s->cfg.evict == ACTION_EVICT_DROP_CACHES ?
		    "Actions (cold: drop_caches)" : "Actions (cold: fadvise)");
	draw_actions(d, ay + 1, W, H - 2 - (ay + 1));
	/* message and keys: a reply or a note first, then the verdict (the
	 * table above has just refreshed it); a stale verdict goes */
	if (now >= d->msg_until && (d->verdict[0] || d->msg_is_verdict)) {
		snprintf(d->msg, sizeof(d->msg), "%s", d->verdict);
		d->msg_role = d->verdict_role;
		d->msg_is_verdict = 1;
	}
	screen_put(H - 2, 0, W, d->msg_role, d->msg);
	draw_keys(H - 1, W, d->root);
	switch (d->overlay) {
	case DASH_HELP:
		draw_help(d);
		break;
	case DASH_SCHED:
		menu_draw(&d->menu);
		break;
	case DASH_TUNE:
		tuneedit_draw(&d->te);
		break;
	case DASH_SAVE:
		prompt_draw(&d->prompt);
		break;
	case DASH_SPLIT:   /* drawn above */
	case DASH_NONE:
		break;
	}
	refresh();
}

void dash_tick(void *ctx)
{
	struct dash *d = ctx;
	series_update(d);
	dash_draw(d, 0);
}

void dash_resize(struct dash *d)
{
	/* curses already knows the new size (resizeterm by the caller or
	 * ncurses itself); repaint everything from scratch. */
	dash_draw(d, 1);
}
