/* runreport_split — see runreport_split.h. */
#include "runreport_split.h"
#include "text.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "csv.h"
#include "jout.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define CELL RUNREPORT_SPLIT_CELL
#define SHOW_MAKERS 3    /* issuers named in the text, most requests first */
#define WRAP 100

static const enum session_phase phases[] = { SESSION_IDLE, SESSION_LOADED };

int runreport_split_group(const struct session *s, enum action_kind a, uint32_t epoch,
			  enum session_phase phase, struct runreport_split *out)
{
	memset(out, 0, sizeof(*out));
	size_t cap = s->n_samples ? s->n_samples : 1;
	double *d = malloc(cap * sizeof(*d));
	const struct timesplit **v = malloc(cap * sizeof(*v));
	if (!d || !v) {
		free(d);
		free(v);
		return -ENOMEM;
	}
	out->n_counted = session_durations(s, a, epoch, phase, d, cap);
	out->n_measured = session_splits(s, a, epoch, phase, v, cap);
	timesplit_sum(v, out->n_measured, &out->sum);
	free(d);
	free(v);
	/* timesplit_sum() says nothing when it runs out of memory: n == 0 */
	if (out->sum.n + out->sum.n_incomplete < out->n_measured)
		return -ENOMEM;
	return 0;
}

const char *runreport_split_why_not(const struct session *s, const struct runreport_split *g)
{
	if (g->sum.median)
		return NULL;
	if (!s->split_on)
		return s->split_off[0] ? s->split_off : "the collector did not start";
	if (g->sum.n_incomplete)
		return "every sample's breakdown was incomplete";
	return "no sample was measured";
}

/* ---- text ---- */

void runreport_split_cell_ms(FILE *f, uint64_t ns)
{
	if (!ns)
		fprintf(f, " %*s", CELL, "0");
	else
		fprintf(f, " %*.2f", CELL, (double)ns / 1e6);
}

void runreport_split_cell_pct(FILE *f, double share)
{
	double pct = 100.0 * share;
	if (pct <= 0)
		fprintf(f, " %*s", CELL, "0");
	else if (pct < 0.5)
		fprintf(f, " %*s", CELL, "<1");
	else
		fprintf(f, " %*.0f", CELL, pct);
}

/* The median sample's requests, those ahead of them and who issued them. */
static void text_requests(FILE *f, const struct timesplit *t)
{
	char line[1024], r[64], w[64];
	size_t o = 0;
	timesplit_count_text(r, sizeof(r), t->rq[0], t->rq_bytes[0], "read");
	timesplit_count_text(w, sizeof(w), t->rq[1], t->rq_bytes[1], "write");
	if (t->rq[0] || t->rq[1])
		o += (size_t)snprintf(line + o, sizeof(line) - o, "median sample: own requests: %s, %s",
				      r, w);
	else
		o += (size_t)snprintf(line + o, sizeof(line) - o,
				      "median sample: no requests of its own");
	if (!t->ahead[0] && !t->ahead[1]) {
		if (t->rq[0] || t->rq[1])
			snprintf(line + o, sizeof(line) - o, "; none of others ahead of them");
		text_wrap(f, "  ", "    ", line, WRAP);
		return;
	}
	timesplit_count_text(w, sizeof(w), t->ahead[1], t->ahead_bytes[1], "write");
	timesplit_count_text(r, sizeof(r), t->ahead[0], t->ahead_bytes[0], "read");
	o += (size_t)snprintf(line + o, sizeof(line) - o, "; ahead of them %s, %s", w, r);
	uint64_t named = 0;
	for (uint32_t i = 0; i < t->n_makers && i < SHOW_MAKERS && o < sizeof(line); i++) {
		char comm[sizeof(t->makers[i].comm) * 4 + 1];
		text_escape(comm, sizeof(comm), t->makers[i].comm);
		const char *role = timesplit_role_name(t->makers[i].role);
		o += (size_t)snprintf(line + o, sizeof(line) - o, "%s%d %s%s%s (%u)",
				      i ? ", " : "; issued by ", (int)t->makers[i].pid, comm,
				      role ? ", brisk's " : "", role ? role : "", t->makers[i].n);
		named += t->makers[i].n;
	}
	uint64_t all = (uint64_t)t->ahead[0] + t->ahead[1];
	if (named && all > named && o < sizeof(line))
		snprintf(line + o, sizeof(line) - o, ", others (%llu)",
			 (unsigned long long)(all - named));
	text_wrap(f, "  ", "    ", line, WRAP);
}

static void text_head(FILE *f)
{
	fprintf(f, "\nWhere the time went (per action, phase and epoch: the median sample's parts in "
		"ms, then each part's mean share of the samples' time):\n");
	fprintf(f, "%-9s %-6s %2s %4s %-9s %*s", "action", "phase", "ep", "n", "", CELL, "wall");
	for (int p = 0; p < TIMESPLIT_NPARTS; p++)
		fprintf(f, " %*s", CELL, timesplit_key(p));
	fputc('\n', f);
}

static void text_legend(FILE *f)
{
	char line[1024];
	size_t o = timesplit_legend(line, sizeof(line));
	if (o + 2 <= sizeof(line))
		memcpy(line + o, ")", 2);
	text_wrap(f, "  (", "   ", line, WRAP);
}

/* One group's rows; 1 when it had any. */
static int text_group(FILE *f, const struct runreport_split *g, enum action_kind a,
		      enum session_phase ph, uint32_t e)
{
	const struct timesplit *m = g->sum.median;
	if (!g->n_measured)
		return 0;
	fprintf(f, "%-9s %-6s %2u %4zu %-9s", action_kind_name(a), session_phase_name(ph), e,
		g->sum.n, "median ms");
	if (m) {
		runreport_split_cell_ms(f, timesplit_wall_ns(m));
		for (int p = 0; p < TIMESPLIT_NPARTS; p++)
			runreport_split_cell_ms(f, m->part_ns[p]);
		fprintf(f, "\n%-9s %-6s %2s %4s %-9s %*s", "", "", "", "", "mean %", CELL, "100");
		for (int p = 0; p < TIMESPLIT_NPARTS; p++)
			runreport_split_cell_pct(f, g->sum.share[p]);
	} else {
		for (int p = 0; p <= TIMESPLIT_NPARTS; p++)
			fprintf(f, " %*s", CELL, "-");
	}
	fputc('\n', f);
	if (m)
		text_requests(f, m);
	if (g->sum.n_incomplete)
		fprintf(f, "  %zu sample%s left out: not every task or request could be tracked\n",
			g->sum.n_incomplete, g->sum.n_incomplete == 1 ? "" : "s");
	size_t none = g->n_counted > g->n_measured ? g->n_counted - g->n_measured : 0;
	if (none)
		fprintf(f, "  %zu sample%s without a breakdown\n", none, none == 1 ? "" : "s");
	return 1;
}

void runreport_split_text(FILE *f, const struct session *s)
{
	if (!s->split_on) {
		if (!s->cfg.no_breakdown && s->n_samples)
			fprintf(f, "\nWhere the time went: the breakdown is unavailable: %s\n",
				text_show(s->split_off[0] ? s->split_off : "the collector did not start"));
		return;
	}
	int rows = 0;
	for (unsigned ai = 0; ai < s->n_actions; ai++)
		for (size_t pi = 0; pi < N(phases); pi++)
			for (uint32_t e = 0; e < s->n_epochs; e++) {
				struct runreport_split g;
				if (runreport_split_group(s, s->actions[ai].kind, e, phases[pi], &g) < 0 ||
				    !g.n_measured)
					continue;
				if (!rows++)
					text_head(f);
				text_group(f, &g, s->actions[ai].kind, phases[pi], e);
			}
	if (rows)
		text_legend(f);
	else if (s->n_samples)
		fprintf(f, "\nWhere the time went: no sample in the figures was measured\n");
}

/* ---- JSON ---- */

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *json_count(uint32_t n, uint64_t bytes)
{
	struct json_object *o = jout_object();
	add(o, "n", jout_int64(n));
	add(o, "bytes", jout_uint64(bytes));
	return o;
}

static struct json_object *json_pair(const uint32_t n[2], const uint64_t bytes[2])
{
	struct json_object *o = jout_object();
	add(o, "read", json_count(n[0], bytes[0]));
	add(o, "write", json_count(n[1], bytes[1]));
	return o;
}

static struct json_object *json_parts(const struct timesplit *t)
{
	struct json_object *o = jout_object();
	for (int p = 0; p < TIMESPLIT_NPARTS; p++) {
		char k[32];
		snprintf(k, sizeof(k), "%s_ms", timesplit_key(p));
		add(o, k, jout_double((double)t->part_ns[p] / 1e6));
	}
	return o;
}

struct json_object *runreport_split_json(const struct timesplit *t)
{
	if (!t || !t->ok)
		return NULL;
	struct json_object *o = jout_object();
	add(o, "wall_ms", jout_double((double)timesplit_wall_ns(t) / 1e6));
	add(o, "parts", json_parts(t));
	add(o, "device_union_ms", jout_double((double)t->device_union_ns / 1e6));
	add(o, "queued_union_ms", jout_double((double)t->queued_union_ns / 1e6));
	add(o, "requests", json_pair(t->rq, t->rq_bytes));
	add(o, "ahead", json_pair(t->ahead, t->ahead_bytes));
	struct json_object *mk = jout_array();
	for (uint32_t i = 0; i < t->n_makers && i < TIMESPLIT_MAKERS; i++) {
		struct json_object *m = jout_object();
		add(m, "pid", jout_int64(t->makers[i].pid));
		add(m, "comm", jout_string(t->makers[i].comm));
		const char *role = timesplit_role_name(t->makers[i].role);
		add(m, "role", role ? jout_string(role) : NULL);
		add(m, "requests", jout_int64(t->makers[i].n));
		add(m, "bytes", jout_uint64(t->makers[i].bytes));
		json_object_array_add(mk, m);
	}
	add(o, "makers", mk);
	add(o, "ahead_unnamed", jout_int64(t->ahead_unnamed));
	add(o, "incomplete", jout_bool(t->incomplete));
	return o;
}

/* o.k as a number of ms in [0, 1e9] into ns. */
static int read_ms(struct json_object *o, const char *k, uint64_t *ns)
{
	struct json_object *v = NULL;
	if (!json_object_object_get_ex(o, k, &v) || !v ||
	    (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)))
		return -EINVAL;
	double ms = json_object_get_double(v);
	if (!(ms >= 0 && ms <= 1e9))
		return -EINVAL;
	*ns = (uint64_t)(ms * 1e6 + 0.5);
	return 0;
}

/* o.k as a whole number in [0, max]. */
static int read_whole(struct json_object *o, const char *k, int64_t max, int64_t *out)
{
	struct json_object *v = NULL;
	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_int))
		return -EINVAL;
	*out = json_object_get_int64(v);
	return *out >= 0 && *out <= max ? 0 : -EINVAL;
}

static int read_pair(struct json_object *o, const char *k, uint32_t n[2], uint64_t bytes[2])
{
	struct json_object *p = NULL;
	if (!json_object_object_get_ex(o, k, &p) || !json_object_is_type(p, json_type_object))
		return -EINVAL;
	static const char *const side[2] = { "read", "write" };
	for (int i = 0; i < 2; i++) {
		struct json_object *c = NULL;
		int64_t x, b;
		if (!json_object_object_get_ex(p, side[i], &c) ||
		    read_whole(c, "n", UINT32_MAX, &x) || read_whole(c, "bytes", INT64_MAX, &b))
			return -EINVAL;
		n[i] = (uint32_t)x;
		bytes[i] = (uint64_t)b;
	}
	return 0;
}

int runreport_split_read(struct json_object *o, struct timesplit *t)
{
	memset(t, 0, sizeof(*t));
	if (!o)
		return 0;
	struct json_object *parts = NULL, *mk = NULL, *inc = NULL;
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "parts", &parts) ||
	    !json_object_is_type(parts, json_type_object) ||
	    !json_object_object_get_ex(o, "makers", &mk) || !json_object_is_type(mk, json_type_array) ||
	    !json_object_object_get_ex(o, "incomplete", &inc) ||
	    !json_object_is_type(inc, json_type_boolean))
		return -EINVAL;
	for (int p = 0; p < TIMESPLIT_NPARTS; p++) {
		char k[32];
		snprintf(k, sizeof(k), "%s_ms", timesplit_key(p));
		if (read_ms(parts, k, &t->part_ns[p]))
			return -EINVAL;
	}
	int64_t un;
	if (read_ms(o, "device_union_ms", &t->device_union_ns) ||
	    read_ms(o, "queued_union_ms", &t->queued_union_ns) ||
	    read_pair(o, "requests", t->rq, t->rq_bytes) ||
	    read_pair(o, "ahead", t->ahead, t->ahead_bytes) ||
	    read_whole(o, "ahead_unnamed", UINT32_MAX, &un))
		return -EINVAL;
	t->ahead_unnamed = (uint32_t)un;
	size_t n = json_object_array_length(mk);
	if (n > TIMESPLIT_MAKERS)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(mk, i), *comm = NULL, *role = NULL;
		struct timesplit_maker *x = &t->makers[i];
		int64_t pid, req, bytes;
		if (read_whole(m, "pid", INT32_MAX, &pid) || read_whole(m, "requests", UINT32_MAX, &req) ||
		    read_whole(m, "bytes", INT64_MAX, &bytes) ||
		    !json_object_object_get_ex(m, "comm", &comm) ||
		    !json_object_is_type(comm, json_type_string) ||
		    (size_t)json_object_get_string_len(comm) >= sizeof(x->comm) ||
		    text_check(json_object_get_string(comm), NULL) < 0 ||
		    !json_object_object_get_ex(m, "role", &role))
			return -EINVAL;
		x->pid = (int32_t)pid;
		x->n = (uint32_t)req;
		x->bytes = (uint64_t)bytes;
		snprintf(x->comm, sizeof(x->comm), "%s", json_object_get_string(comm));
		x->role = TIMESPLIT_OTHER;
		for (int r = TIMESPLIT_OTHER; role && r <= TIMESPLIT_SAMPLE; r++)
			if (timesplit_role_name(r) && json_object_is_type(role, json_type_string) &&
			    !strcmp(json_object_get_string(role), timesplit_role_name(r)))
				x->role = (uint8_t)r;
	}
	t->n_makers = (uint32_t)n;
	t->incomplete = (uint8_t)json_object_get_boolean(inc);
	t->ok = 1;
	return 0;
}

struct json_object *runreport_split_group_json(const struct runreport_split *g)
{
	if (!g->n_measured)
		return NULL;
	const struct timesplit_sum *u = &g->sum;
	struct json_object *o = jout_object();
	add(o, "n", jout_int64((int64_t)u->n));
	add(o, "n_incomplete", jout_int64((int64_t)u->n_incomplete));
	add(o, "n_without", jout_int64((int64_t)(g->n_counted > g->n_measured ?
						  g->n_counted - g->n_measured : 0)));
	add(o, "median_wall_ms", u->median ?
	    jout_double((double)timesplit_wall_ns(u->median) / 1e6) : NULL);
	add(o, "median_parts", u->median ? json_parts(u->median) : NULL);
	struct json_object *sh = NULL;
	if (u->n) {
		sh = jout_object();
		for (int p = 0; p < TIMESPLIT_NPARTS; p++)
			add(sh, timesplit_key(p), jout_finite(u->share[p]));
	}
	add(o, "mean_shares", sh);
	struct json_object *ah = NULL;
	if (u->n) {
		ah = jout_object();
		add(ah, "read_n", jout_finite(u->ahead_mean[0]));
		add(ah, "read_bytes", jout_finite(u->ahead_bytes_mean[0]));
		add(ah, "write_n", jout_finite(u->ahead_mean[1]));
		add(ah, "write_bytes", jout_finite(u->ahead_bytes_mean[1]));
	}
	add(o, "mean_ahead", ah);
	char cause[256];
	timesplit_cause(u->median, cause, sizeof(cause));
	add(o, "median_cause", cause[0] ? jout_string(cause) : NULL);
	return o;
}

struct json_object *runreport_split_state_json(const struct session *s)
{
	struct json_object *o = jout_object();
	add(o, "available", jout_bool(s->split_on));
	add(o, "why_not", s->split_on ? NULL :
	    jout_string(s->split_off[0] ? s->split_off : "the collector did not start"));
	return o;
}

/* ---- CSV ---- */

static const char *const rq_cols[] = {
	"split_device_union_ms", "split_queued_union_ms",
	"split_read_n", "split_read_bytes", "split_write_n", "split_write_bytes",
	"split_ahead_read_n", "split_ahead_read_bytes", "split_ahead_write_n",
	"split_ahead_write_bytes", "split_incomplete",
};

void runreport_split_csv_header(FILE *f)
{
	for (int p = 0; p < TIMESPLIT_NPARTS; p++)
		fprintf(f, ",split_%s_ms", timesplit_key(p));
	for (size_t i = 0; i < N(rq_cols); i++)
		fprintf(f, ",%s", rq_cols[i]);
}

void runreport_split_csv_row(FILE *f, const struct timesplit *t)
{
	if (!t || !t->ok) {
		for (size_t i = 0; i < TIMESPLIT_NPARTS + N(rq_cols); i++)
			fputc(',', f);
		return;
	}
	for (int p = 0; p < TIMESPLIT_NPARTS; p++) {
		fputc(',', f);
		csv_fixed(f, (double)t->part_ns[p] / 1e6, 3);
	}
	fputc(',', f);
	csv_fixed(f, (double)t->device_union_ns / 1e6, 3);
	fputc(',', f);
	csv_fixed(f, (double)t->queued_union_ns / 1e6, 3);
	fprintf(f, ",%u,%llu,%u,%llu,%u,%llu,%u,%llu,%u", t->rq[0],
		(unsigned long long)t->rq_bytes[0], t->rq[1], (unsigned long long)t->rq_bytes[1],
		t->ahead[0], (unsigned long long)t->ahead_bytes[0], t->ahead[1],
		(unsigned long long)t->ahead_bytes[1], t->incomplete ? 1u : 0u);
}
