/* compare_split — see compare_split.h. */
#include "compare_split.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "compare.h"
#include "compare_text.h"
#include "jout.h"
#include "parse.h"
#include "runreport_split.h"
#include "text.h"

#define CELL RUNREPORT_SPLIT_CELL
#define LABEL_W 10       /* the arm's column, as compare_report's tables */
#define WORDS_MIN 0.05   /* a share worth naming in a cell's words */
#define REASON_MIN 0.10  /* a second part worth naming in the reason */

static const char *const words[TIMESPLIT_NPARTS] = {
	"on CPU", "waiting for a CPU", "on the disk", "queued", "held before the queue",
	"throttled", "other waits", "other sleep",
};

const char *compare_split_part_words(int part)
{
	return part >= 0 && part < TIMESPLIT_NPARTS ? words[part] : "?";
}

void compare_split_note_run(struct compare_split_state *st, const struct session *s)
{
	if (s->cfg.no_breakdown)
		st->no_breakdown = 1;
	if (!s->n_samples)
		return;   /* nothing to measure: it says nothing either way */
	if (s->split_on) {
		st->runs_on++;
		return;
	}
	st->runs_off++;
	snprintf(st->why_not, sizeof(st->why_not), "%s",
		 s->split_off[0] ? s->split_off : "the collector did not start");
}

/* ---- the cells ---- */

static int counted(const struct compare_sample *x, size_t arm, unsigned action, int keep_warm)
{
	return x->arm == arm && x->action == action && !x->err && (x->cold || keep_warm);
}

static void cell(struct compare_result *r, size_t arm, unsigned action, int keep_warm,
		 const struct timesplit **v)
{
	struct compare_split *s = &r->splits[arm][action];
	size_t n = 0;
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < r->n_samples; i++) {
		const struct compare_sample *x = &r->samples[i];
		if (!counted(x, arm, action, keep_warm))
			continue;
		s->n_counted++;
		if (x->split.ok)
			v[n++] = &x->split;
	}
	s->n_measured = n;
	struct timesplit_sum u;
	timesplit_sum(v, n, &u);
	s->n = u.n;
	s->n_incomplete = u.n_incomplete;
	memcpy(s->share, u.share, sizeof(s->share));
	memcpy(s->ahead_mean, u.ahead_mean, sizeof(s->ahead_mean));
	memcpy(s->ahead_bytes_mean, u.ahead_bytes_mean, sizeof(s->ahead_bytes_mean));
	if (!u.median)
		return;
	s->has_median = 1;
	s->median = *u.median;
	for (size_t i = 0; i < r->n_samples; i++)
		if (&r->samples[i].split == u.median)
			s->median_sample = i;
}

int compare_split_analyze(struct compare_result *r, int keep_warm)
{
	memset(r->splits, 0, sizeof(r->splits));
	const struct timesplit **v = malloc((r->n_samples ? r->n_samples : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	int rc = 0;
	for (size_t arm = 0; arm < r->n_arms && arm < COMPARE_MAX_ARMS; arm++)
		for (unsigned a = 0; a < ACTION_KIND_COUNT; a++) {
			if (!(r->actions & (1u << a)))
				continue;
			cell(r, arm, a, keep_warm, v);
			const struct compare_split *s = &r->splits[arm][a];
			/* timesplit_sum() says nothing when out of memory: n == 0 */
			if (s->n + s->n_incomplete < s->n_measured)
				rc = -ENOMEM;
		}
	free(v);
	return rc;
}

void compare_split_sum(const struct compare_split *s, struct timesplit_sum *out)
{
	memset(out, 0, sizeof(*out));
	out->n = s->n;
	out->n_incomplete = s->n_incomplete;
	out->median = s->has_median ? &s->median : NULL;
	memcpy(out->share, s->share, sizeof(out->share));
	memcpy(out->ahead_mean, s->ahead_mean, sizeof(out->ahead_mean));
	memcpy(out->ahead_bytes_mean, s->ahead_bytes_mean, sizeof(out->ahead_bytes_mean));
}

/* ---- words ---- */

void compare_split_time(double ms, char *buf, size_t len)
{
	double a = fabs(ms);
	if (!isfinite(ms))
		snprintf(buf, len, "-");
	else if (a < 10)
		snprintf(buf, len, "%.2f ms", ms);
	else if (a < 100)
		snprintf(buf, len, "%.1f ms", ms);
	else if (a < 1000)
		snprintf(buf, len, "%.0f ms", ms);
	else if (a < 10000)
		snprintf(buf, len, "%.2f s", ms / 1000);
	else if (a < 100000)
		snprintf(buf, len, "%.1f s", ms / 1000);
	else
		snprintf(buf, len, "%.0f s", ms / 1000);
}

/* The parts by mean share, largest first (stable: precedence order). */
static void by_share(const struct compare_split *s, int order[TIMESPLIT_NPARTS])
{
	for (int p = 0; p < TIMESPLIT_NPARTS; p++)
		order[p] = p;
	for (int i = 1; i < TIMESPLIT_NPARTS; i++)
		for (int j = i; j > 0 && s->share[order[j]] > s->share[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/* "80 % on the disk, 9 % queued": the largest shares, up to max, the
 * first always, the others when at least min. */
static size_t shares_words(const struct compare_split *s, int max, double min, char *buf,
			   size_t len)
{
	int order[TIMESPLIT_NPARTS];
	size_t o = 0;
	by_share(s, order);
	buf[0] = '\0';
	for (int i = 0; i < max && o < len; i++) {
		int p = order[i];
		if (i && s->share[p] < min)
			break;
		double pct = 100.0 * s->share[p];
		int k = pct > 0 && pct < 0.5 ? snprintf(buf + o, len - o, "%s<1 %% %s", i ? ", " : "",
							words[p])
			: snprintf(buf + o, len - o, "%s%.0f %% %s", i ? ", " : "", pct, words[p]);
		if (k < 0)
			break;
		o += (size_t)k;
	}
	return o < len ? o : len - 1;
}

/* "12 writes (10 MiB)" of a mean count. */
static void ahead_count(double n, double bytes, const char *what, char *buf, size_t len)
{
	char sz[32];
	parse_format_iec(sz, sizeof(sz), bytes > 0 ? (uint64_t)(bytes + 0.5) : 0);
	double k = n >= 10 ? round(n) : round(n * 10) / 10;
	snprintf(buf, len, bytes > 0 ? "%.*f %s%s (%s)" : "%.*f %s%s", n >= 10 ? 0 : 1, k, what,
		 k == 1 ? "" : "s", sz);
}

void compare_split_words(const struct compare_split *s, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (!s->has_median || !s->n)
		return;
	char t[32], sh[256], w[64], rd[64];
	compare_split_time((double)timesplit_wall_ns(&s->median) / 1e6, t, sizeof(t));
	shares_words(s, 3, WORDS_MIN, sh, sizeof(sh));
	size_t o = (size_t)snprintf(buf, len, "%s - %s", t, sh);
	if (o >= len)
		return;
	/* requests ahead: those of at least one in ten samples */
	int wr = s->ahead_mean[1] >= 0.05, re = s->ahead_mean[0] >= 0.05;
	ahead_count(s->ahead_mean[1], s->ahead_bytes_mean[1], "write", w, sizeof(w));
	ahead_count(s->ahead_mean[0], s->ahead_bytes_mean[0], "read", rd, sizeof(rd));
	if (wr && re)
		snprintf(buf + o, len - o, "; behind %s and %s on average", w, rd);
	else if (wr || re)
		snprintf(buf + o, len - o, "; behind %s on average", wr ? w : rd);
}

/* The actions of mask where both arms have a median, largest difference
 * first; their count. */
static unsigned reason_actions(const struct compare_result *r, size_t arm, unsigned mask,
			       unsigned out[ACTION_KIND_COUNT])
{
	unsigned n = 0;
	double d[ACTION_KIND_COUNT];
	for (unsigned a = 0; a < ACTION_KIND_COUNT; a++) {
		if (!(mask & r->actions & (1u << a)) || !r->splits[arm][a].has_median ||
		    !r->splits[0][a].has_median)
			continue;
		double x = r->cells[arm][a].ratio_runs.est;
		double k = x > 0 && isfinite(x) ? fabs(log(x)) : 0;
		unsigned j = n++;
		for (; j > 0 && d[j - 1] < k; j--) {
			d[j] = d[j - 1];
			out[j] = out[j - 1];
		}
		d[j] = k;
		out[j] = a;
	}
	return n;
}

/* "bfq 680 ms (80 % on the disk, 9 % queued)" */
static int reason_arm(const struct compare_result *r, size_t arm, unsigned a, char *buf,
		      size_t len)
{
	const struct compare_split *s = &r->splits[arm][a];
	char t[32], sh[160];
	compare_split_time((double)timesplit_wall_ns(&s->median) / 1e6, t, sizeof(t));
	shares_words(s, 2, REASON_MIN, sh, sizeof(sh));
	return snprintf(buf, len, "%s %s (%s)", r->arms[arm].label, t, sh);
}

void compare_split_reason(const struct compare_result *r, size_t arm, unsigned mask,
			  unsigned max_actions, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (!arm || arm >= r->n_arms)
		return;
	unsigned act[ACTION_KIND_COUNT];
	unsigned n = reason_actions(r, arm, mask, act);
	size_t o = 0;
	for (unsigned i = 0; i < n && i < max_actions; i++) {
		char mine[200], base[200], one[440];
		reason_arm(r, arm, act[i], mine, sizeof(mine));
		reason_arm(r, 0, act[i], base, sizeof(base));
		int k = snprintf(one, sizeof(one), "%s %s: %s, %s", i ? "; in" :
				 "where the time went in", action_kind_name((enum action_kind)act[i]),
				 mine, base);
		if (k < 0 || o + (size_t)k >= len)
			break;   /* whole actions only */
		memcpy(buf + o, one, (size_t)k + 1);
		o += (size_t)k;
	}
}

/* ---- state ---- */

int compare_split_available(const struct compare_result *r)
{
	return r->split_state.runs_on > 0;
}

const char *compare_split_why_not(const struct compare_result *r)
{
	if (compare_split_available(r))
		return NULL;
	if (r->split_state.why_not[0])
		return r->split_state.why_not;
	return "no arm-run measured a sample";
}

/* ---- text ---- */

/* Why a cell has no words: its samples were not measured, or not whole. */
static const char *cell_why_not(const struct compare_split *s)
{
	if (!s->n_counted)
		return "no sample in its figures";
	if (!s->n_measured)
		return "no sample was measured";
	return "every sample's breakdown was incomplete";
}

static void text_action(FILE *f, const struct compare_result *r, unsigned a, size_t cols)
{
	fprintf(f, "%-*s %3s %2s", LABEL_W, action_kind_name((enum action_kind)a), "n", "");
	for (int p = 0; p < TIMESPLIT_NPARTS; p++)
		fprintf(f, " %*s", CELL, timesplit_key(p));
	fputc('\n', f);
	for (size_t arm = 0; arm < r->n_arms; arm++) {
		const struct compare_split *s = &r->splits[arm][a];
		char cellb[LABEL_W + 1];
		fprintf(f, "%-*s %3zu %2s", LABEL_W, compare_text_cell(cellb, LABEL_W,
								      r->arms[arm].label), s->n, "ms");
		for (int p = 0; p < TIMESPLIT_NPARTS; p++)
			if (s->has_median)
				runreport_split_cell_ms(f, s->median.part_ns[p]);
			else
				fprintf(f, " %*s", CELL, "-");
		fprintf(f, "\n%-*s %3s %2s", LABEL_W, "", "", "%");
		for (int p = 0; p < TIMESPLIT_NPARTS; p++)
			if (s->n)
				runreport_split_cell_pct(f, s->share[p]);
			else
				fprintf(f, " %*s", CELL, "-");
		fputc('\n', f);
	}
	for (size_t arm = 0; arm < r->n_arms; arm++) {
		const struct compare_split *s = &r->splits[arm][a];
		char w[512], line[640];
		compare_split_words(s, w, sizeof(w));
		snprintf(line, sizeof(line), "%s: %s", r->arms[arm].label, w[0] ? w : cell_why_not(s));
		if (s->n_incomplete && w[0])
			snprintf(line + strlen(line), sizeof(line) - strlen(line), " (%zu left out: "
				 "not whole)", s->n_incomplete);
		compare_text_wrap(f, "  ", "    ", line, cols);
	}
}

void compare_split_text(FILE *f, const struct compare_result *r, size_t cols)
{
	const struct compare_split_state *st = &r->split_state;
	if (!compare_split_available(r)) {
		if (st->no_breakdown || !r->n_runs)
			return;
		fputc('\n', f);
		compare_text_wrap(f, "where the time went: the breakdown is unavailable: ", "  ",
				  compare_split_why_not(r), cols);
		return;
	}
	fputc('\n', f);
	text_wrap(f, "", "", "where the time went (per action and arm: the median sample's "
		  "parts in ms, then each part's mean share of the samples' time in %, n samples "
		  "measured whole; then in words, with the requests of others served ahead):", cols);
	for (unsigned a = 0; a < ACTION_KIND_COUNT; a++)
		if (r->actions & (1u << a))
			text_action(f, r, a, cols);
	char legend[1024] = "(";
	size_t o = 1 + timesplit_legend(legend + 1, sizeof(legend) - 1);
	if (o + 2 <= sizeof(legend))
		memcpy(legend + o, ")", 2);
	text_wrap(f, "", " ", legend, cols);
	if (st->runs_off) {
		char b[400];
		snprintf(b, sizeof(b), "%zu of %zu arm-runs without a breakdown: %s", st->runs_off,
			 st->runs_off + st->runs_on, st->why_not);
		compare_text_wrap(f, "", "  ", b, cols);
	}
}

/* ---- JSON ---- */

struct json_object *compare_split_json(const struct compare_split *s)
{
	struct runreport_split g = { .n_counted = s->n_counted, .n_measured = s->n_measured };
	compare_split_sum(s, &g.sum);
	return runreport_split_group_json(&g);
}

struct json_object *compare_split_state_json(const struct compare_result *r)
{
	struct json_object *o = jout_object();
	const char *why = compare_split_why_not(r);
	json_object_object_add(o, "available", jout_bool(compare_split_available(r)));
	json_object_object_add(o, "why_not", why ? jout_string(why) : NULL);
	json_object_object_add(o, "runs_without", jout_uint64(r->split_state.runs_off));
	return o;
}
