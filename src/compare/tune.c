#include "tune.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_report.h"
#include "compare_text.h"
#include "fileio.h"
#include "jout.h"
#include "msg.h"
#include "runreport_split.h"
#include "text.h"

#define TUNE_JSON_MAX (512u << 20)
#define TUNE_JSON_DEPTH 32
#define TUNE_MAX_ARGS 256
#define COLS 100

/* ---- the analysis ---- */

/* Per arm-run, columns of logs: compare_run_logs()'s (0 the score, 1 + k
 * action k's), then TUNE_LOAD_COL, the log of the load's figure. */
#define TUNE_LOAD_COL COMPARE_RUN_LOG_COLS
#define TUNE_COLS (COMPARE_RUN_LOG_COLS + 1)
struct logs {
	const double *v[TUNE_COLS];
};

/* The finite values of one arm's arm-runs in v into out; their count. */
static size_t of_arm(const struct compare_result *r, const double *v, size_t arm, double *out)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_runs; i++)
		if (r->runs[i].arm == arm && isfinite(v[i]))
			out[n++] = v[i];
	return n;
}

static void ratio(const struct compare_result *r, const double *v, size_t a, size_t b,
		  double *wa, double *wb, struct stats_ci *out, size_t *na, size_t *nb)
{
	*na = of_arm(r, v, a, wa);
	*nb = of_arm(r, v, b, wb);
	out->est = out->lo = out->hi = NAN;
	/* stats_log_ratio_ci gives its second over its first: a over b */
	if (*na && *nb && stats_log_ratio_ci(wb, *nb, wa, *na, COMPARE_LEVEL, &out->est, &out->lo,
					     &out->hi) < 0)
		out->est = out->lo = out->hi = NAN;
}

/* The best arm against arm b, named what. */
static void versus(const struct compare_result *r, const struct logs *l, size_t best, size_t b,
		   const char *what, double *wa, double *wb, struct tune_vs *out)
{
	memset(out, 0, sizeof(*out));
	out->arm = b;
	snprintf(out->what, sizeof(out->what), "%s", what);
	ratio(r, l->v[0], best, b, wa, wb, &out->score, &out->n_best, &out->n_other);
	size_t na, nb;
	for (unsigned k = 0; k < ACTION_KIND_COUNT; k++) {
		if (r->actions & (1u << k))
			ratio(r, l->v[1 + k], best, b, wa, wb, &out->act[k], &na, &nb);
		else
			out->act[k].est = out->act[k].lo = out->act[k].hi = NAN;
	}
	ratio(r, l->v[TUNE_LOAD_COL], best, b, wa, wb, &out->load, &na, &nb);
}

/* The arm at point p, or -1. */
static int find(const struct compare_result *r, const struct tune_point *pts,
		const struct tune_point *p)
{
	for (size_t a = 1; a < r->n_arms; a++)
		if (!strcmp(pts[a].sched, p->sched) && !memcmp(pts[a].level, p->level,
								 sizeof(p->level)))
			return (int)a;
	return -1;
}

/* The level of f that leaves the value in place, else its first. */
static signed char base_level(const struct tune_factor *f)
{
	for (size_t i = 0; i < f->n_levels; i++)
		if (!strcmp(f->levels[i], TUNE_KEEP))
			return (signed char)i;
	return 0;
}

int tune_analyze(const struct compare_result *r, int keep_warm, const struct tune_space *sp,
		 const struct tune_point *pts, struct tune_result *t)
{
	memset(t, 0, sizeof(*t));
	t->best = r->best > 0 ? r->best : r->race_leader;
	t->recommended = r->best > 0;
	if (t->best < 0 || (size_t)t->best >= r->n_arms)
		return t->best = -1, 0;
	size_t nr = r->n_runs ? r->n_runs : 1, best = (size_t)t->best;
	double *all = malloc(nr * TUNE_COLS * sizeof(double));
	double *wa = malloc(nr * sizeof(double)), *wb = malloc(nr * sizeof(double));
	int rc = all && wa && wb ? compare_run_logs(r, keep_warm, all) : -ENOMEM;
	struct logs l;
	for (size_t c = 0; c < TUNE_COLS; c++)
		l.v[c] = all ? all + c * r->n_runs : NULL;
	for (size_t i = 0; rc == 0 && i < r->n_runs; i++) {   /* the figure the load rule goes by */
		double x = r->load_by_disk ? r->runs[i].disk_mibps : r->runs[i].load_mibps;
		all[TUNE_LOAD_COL * r->n_runs + i] = x > 0 && !r->runs[i].failed ? log(x) : NAN;
	}
	if (rc == 0 && best != 0)
		versus(r, &l, best, 0, "current", wa, wb, &t->vs[t->n_vs++]);
	/* each scheduler's defaults: its arm that leaves every key in place */
	for (size_t a = 1; rc == 0 && a < r->n_arms && t->n_vs < TUNE_MAX_SCHEDS + 1; a++) {
		int plain = 1;
		for (size_t i = 0; i < sp->n_f; i++)
			plain &= pts[a].level[i] < 0 || pts[a].level[i] == base_level(&sp->f[i]);
		if (!plain || a == best)
			continue;
		char what[96];
		snprintf(what, sizeof(what), "%s's defaults", pts[a].sched);
		versus(r, &l, best, a, what, wa, wb, &t->vs[t->n_vs++]);
	}
	/* each setting of the best arm: the arm of the space without it */
	const struct tune_point *pb = &pts[best];
	for (size_t i = 0; rc == 0 && best && i < sp->n_f; i++) {
		const struct tune_factor *f = &sp->f[i];
		signed char b0 = base_level(f);
		if (pb->level[i] < 0 || pb->level[i] == b0)
			continue;
		struct tune_point q = *pb;
		q.level[i] = b0;
		int other = find(r, pts, &q);
		char what[96], shown[TUNABLE_VALUE_LEN];
		tune_space_shown(f->key, f->levels[pb->level[i]], shown, sizeof(shown));
		snprintf(what, sizeof(what), "without %s=%s", f->key, shown);
		if (other < 0)
			continue;
		struct tune_vs *x = &t->factor[t->n_factor];
		versus(r, &l, best, (size_t)other, what, wa, wb, x);
		if (x->n_best >= 2 && x->n_other >= 2)
			t->n_factor++;
		else
			snprintf(t->unmeasured[t->n_unmeasured++], sizeof(t->unmeasured[0]),
				 "%.60s (%zu and %zu arm-runs)", what, x->n_best, x->n_other);
	}
	free(all);
	free(wa);
	free(wb);
	return rc;
}

/* ---- text ---- */

static const char *fci(char *b, size_t n, const struct stats_ci *c)
{
	if (isnan(c->est))
		snprintf(b, n, "-");
	else if (isnan(c->lo))
		snprintf(b, n, "%.2fx", c->est);
	else
		snprintf(b, n, "%.2fx [%.2f, %.2f]", c->est, c->lo, c->hi);
	return b;
}

/* One table row: the columns, each padded but the last. */
static void put_row(FILE *f, char *line)
{
	size_t n = strlen(line);
	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(f, "%s\n", line);
}

/* A row per other arm: the ratio over the actions and of the load, then
 * the ratio per action on the lines under it. */
static void vs_rows(FILE *f, const struct compare_result *r, const struct tune_vs *v, size_t n)
{
	char cell[40], line[320], b[48], c[48];
	snprintf(line, sizeof(line), "  %-28s %-6s %-22s %s", "against", "runs", "all actions",
		 "load");
	put_row(f, line);
	for (size_t i = 0; i < n; i++) {
		char runs[16];
		snprintf(runs, sizeof(runs), "%zu/%zu", v[i].n_best, v[i].n_other);
		snprintf(line, sizeof(line), "  %-28s %-6s %-22s %s",
			 compare_text_cell(cell, 28, v[i].what), runs,
			 fci(b, sizeof(b), &v[i].score), fci(c, sizeof(c), &v[i].load));
		put_row(f, line);
		size_t l = 0;
		line[0] = '\0';
		for (unsigned k = 0; k < ACTION_KIND_COUNT; k++)
			if ((r->actions & (1u << k)) && l < sizeof(line))
				l += (size_t)snprintf(line + l, sizeof(line) - l, "%s%s %s", l ? ", " : "",
						      action_kind_name((enum action_kind)k),
						      fci(b, sizeof(b), &v[i].act[k]));
		compare_text_wrap(f, "      ", "      ", line, COLS);
	}
}

void tune_report_text(FILE *f, const struct compare_result *r, const struct tune_space *sp,
		      const struct tune_result *t)
{
	char *src = compare_text_dup(sp->source);
	fprintf(f, "\ntune: %zu arms from %s\n", r->n_arms, src ? src : "?");
	free(src);
	for (size_t i = 0; i < sp->n_notes; i++)
		compare_text_wrap(f, "  note: ", "    ", sp->notes[i], COLS);
	if (t->best < 0) {
		fprintf(f, "  no best arm: too few arm-runs to rank them\n");
		return;
	}
	const struct compare_arm *b = &r->arms[t->best];
	char line[512];
	if (t->best == 0)
		snprintf(line, sizeof(line), "nothing beats current: it leads the race");
	else
		snprintf(line, sizeof(line), "%s (%s): %s", b->label, b->settings, t->recommended ?
			 "recommended (faster than current, keeps the load)" :
			 "the race's leader, not shown faster than current: keep current");
	compare_text_wrap(f, "best: ", "  ", line, COLS);
	if (t->n_vs) {
		fprintf(f, "\nthe best arm against (its typical arm-run / the other's, 95 %% "
			"interval; below 1 it is faster;\n  load: its load's %s / the other's, "
			"below 1 it costs the load):\n", r->load_by_disk ? "MiB/s to the disk" :
			"write()/read() MiB/s");
		vs_rows(f, r, t->vs, t->n_vs);
	}
	if (t->n_factor) {
		fprintf(f, "\nwhich of its settings mattered (the best arm / the arm without that "
			"one setting):\n");
		vs_rows(f, r, t->factor, t->n_factor);
	}
	for (size_t i = 0; i < t->n_unmeasured; i++) {
		snprintf(line, sizeof(line), "%s: the race did not measure both enough",
			 t->unmeasured[i]);
		compare_text_wrap(f, "  ", "    ", line, COLS);
	}
	if (t->best && !t->n_factor && !t->n_unmeasured)
		fprintf(f, "  (it sets nothing beyond the scheduler)\n");
}

/* ---- JSON ---- */

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *json_vs(const struct compare_result *r, const struct tune_vs *v,
				   size_t n)
{
	struct json_object *arr = jout_array();
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = jout_object(), *acts = jout_object();
		add(o, "arm", jout_uint64(v[i].arm));
		add(o, "against", jout_string(v[i].what));
		add(o, "runs_best", jout_uint64(v[i].n_best));
		add(o, "runs_other", jout_uint64(v[i].n_other));
		add(o, "ratio", jout_ci(&v[i].score));
		for (unsigned k = 0; k < ACTION_KIND_COUNT; k++)
			if (r->actions & (1u << k))
				add(acts, action_kind_name((enum action_kind)k), jout_ci(&v[i].act[k]));
		add(o, "actions", acts);
		add(o, "load", jout_ci(&v[i].load));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_space(const struct tune_space *sp)
{
	struct json_object *o = jout_object(), *sc = jout_array(), *fs = jout_array();
	add(o, "source", jout_string(sp->source));
	for (size_t i = 0; i < sp->n_scheds; i++)
		json_object_array_add(sc, jout_string(sp->scheds[i]));
	add(o, "schedulers", sp->offered ? jout_string("offered") : sc);
	if (sp->offered)
		json_object_put(sc);
	for (size_t i = 0; i < sp->n_f; i++) {
		struct json_object *x = jout_object(), *lv = jout_array();
		add(x, "key", jout_string(sp->f[i].key));
		add(x, "scheduler", sp->f[i].sched[0] ? jout_string(sp->f[i].sched) : NULL);
		for (size_t k = 0; k < sp->f[i].n_levels; k++)
			json_object_array_add(lv, jout_string(sp->f[i].levels[k]));
		add(x, "levels", lv);
		json_object_array_add(fs, x);
	}
	add(o, "keys", fs);
	struct json_object *notes = jout_array();
	for (size_t i = 0; i < sp->n_notes; i++)
		json_object_array_add(notes, jout_string(sp->notes[i]));
	add(o, "notes", notes);
	return o;
}

int tune_report_json(const struct compare_result *r, const struct tune_space *sp,
		     const struct tune_result *t, int argc, char **argv, const char *cwd,
		     const char *path, char *err, size_t errlen)
{
	struct json_object *doc = compare_report_json_doc(r), *o = jout_object();
	struct json_object *cmd = jout_array();
	for (int i = 0; i < argc; i++)
		json_object_array_add(cmd, jout_string(argv[i]));
	add(o, "command", cmd);
	add(o, "cwd", jout_string(cwd));
	add(o, "space", json_space(sp));
	add(o, "best", t->best >= 0 ? jout_uint64((uint64_t)t->best) : NULL);
	add(o, "recommended", jout_bool(t->recommended));
	add(o, "evidence", json_vs(r, t->vs, t->n_vs));
	add(o, "factors", json_vs(r, t->factor, t->n_factor));
	struct json_object *um = jout_array();
	for (size_t i = 0; i < t->n_unmeasured; i++)
		json_object_array_add(um, jout_string(t->unmeasured[i]));
	add(o, "unmeasured", um);
	add(o, "replayed_runs", jout_uint64(r->replayed_runs));
	add(doc, "tune", o);
	return jout_save(path, doc, err, errlen);
}

/* ---- reading it back ---- */

struct rd {
	const char *path;
	char *err;
	size_t errlen;
};

static int bad(const struct rd *d, const char *what)
{
	char p[120];
	text_escape(p, sizeof(p), d->path);
	return msg_fail(-EINVAL, d->err, d->errlen, "--resume %s: %s: not a brisk tune's JSON, "
			"or changed since", p, what);
}

static struct json_object *get(struct json_object *o, const char *k, enum json_type ty)
{
	struct json_object *v = NULL;
	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v && json_object_is_type(v, ty) ? v : NULL;
}

/* A whole number at o.k in [0, max]; -1 when missing or out of range. */
static int64_t whole(struct json_object *o, const char *k, int64_t max)
{
	struct json_object *v = get(o, k, json_type_int);
	if (!v)
		return -1;
	int64_t x = json_object_get_int64(v);
	return x >= 0 && x <= max ? x : -1;
}

/* A number (NaN for null) at o.k; 0 ok, -1 missing or not finite. */
static int number(struct json_object *o, const char *k, double *out)
{
	struct json_object *v = NULL;
	if (!json_object_object_get_ex(o, k, &v))
		return -1;
	if (!v) {
		*out = NAN;
		return 0;
	}
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return -1;
	*out = json_object_get_double(v);
	return isfinite(*out) && fabs(*out) < 1e15 ? 0 : -1;
}

static int flag(struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k, json_type_boolean);
	return v ? json_object_get_boolean(v) : -1;
}

static int read_runs(const struct rd *d, struct json_object *arr, struct tune_saved *s)
{
	size_t n = json_object_array_length(arr);
	if (!(s->runs = calloc(n ? n : 1, sizeof(*s->runs))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);
		struct compare_run *x = &s->runs[i];
		int64_t arm = whole(o, "arm", (int64_t)s->n_arms - 1);
		int64_t round = whole(o, "round", COMPARE_MAX_ROUNDS - 1);
		int64_t order = whole(o, "order", COMPARE_MAX_ARMS - 1);
		double t, dur;
		int st = flag(o, "settle_timeout"), fl = flag(o, "failed");
		struct json_object *note = get(o, "note", json_type_string);
		if (arm < 0 || round < 0 || order < 0 || st < 0 || fl < 0 || !note ||
		    number(o, "t_s", &t) || number(o, "dur_s", &dur) || !(t >= 0) || !(dur >= 0) ||
		    number(o, "load_mibps", &x->load_mibps) || number(o, "disk_mibps", &x->disk_mibps) ||
		    number(o, "disk_written_mibps", &x->disk_wr_mibps) ||
		    number(o, "disk_read_mibps", &x->disk_rd_mibps) ||
		    number(o, "window_s", &x->window_s) ||
		    number(o, "worst_stall_ms", &x->worst_stall_ms) ||
		    number(o, "settle_s", &x->settle_s) ||
		    number(o, "settle_left_mib", &x->settle_left_mib))
			return bad(d, "an arm-run's fields");
		x->arm = (uint32_t)arm;
		x->round = (uint32_t)round;
		x->order = (uint32_t)order;
		x->t_ns = (uint64_t)(t * 1e9);
		x->dur_ns = (uint64_t)(dur * 1e9);
		x->settle_timeout = st;
		x->failed = fl;
		const char *nt = json_object_get_string(note);
		if (text_check(nt, NULL) < 0)
			return bad(d, "an arm-run's note");
		snprintf(x->note, sizeof(x->note), "%s", nt);
	}
	s->n_runs = n;
	return 0;
}

static int read_samples(const struct rd *d, struct json_object *arr, struct tune_saved *s)
{
	size_t n = json_object_array_length(arr);
	if (!(s->samples = calloc(n ? n : 1, sizeof(*s->samples))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);
		struct compare_sample *x = &s->samples[i];
		int64_t run = whole(o, "run", (int64_t)s->n_runs - 1);
		struct json_object *act = get(o, "action", json_type_string);
		struct json_object *ev = get(o, "err", json_type_int);
		int64_t e = ev ? json_object_get_int64(ev) : INT64_MAX;
		int cold = flag(o, "cold"), to = flag(o, "timeout");
		double t;
		int k = -1;
		for (unsigned a = 0; act && a < ACTION_KIND_COUNT; a++)
			if (!strcmp(json_object_get_string(act), action_kind_name((enum action_kind)a)))
				k = (int)a;
		if (run < 0 || e < -4095 || e > 4095 || k < 0 || cold < 0 || to < 0 || number(o, "ms", &x->ms) ||
		    number(o, "t_s", &t) || !(t >= 0) || (!isnan(x->ms) && !(x->ms >= 0)))
			return bad(d, "a sample's fields");
		struct json_object *bd = NULL;
		if (json_object_object_get_ex(o, "breakdown", &bd) &&
		    runreport_split_read(bd, &x->split) < 0)
			return bad(d, "a sample's breakdown");
		x->run = (uint32_t)run;
		x->arm = s->runs[run].arm;
		x->round = s->runs[run].round;
		x->order = s->runs[run].order;
		x->action = (uint8_t)k;
		x->cold = (uint8_t)cold;
		x->timeout = (uint8_t)to;
		x->err = (int32_t)e;
		x->t_ns = (uint64_t)(t * 1e9);
	}
	s->n_samples = n;
	return 0;
}

static int read_doc(const struct rd *d, struct json_object *root, struct tune_saved *s)
{
	struct json_object *tune = get(root, "tune", json_type_object);
	struct json_object *cmd = get(tune, "command", json_type_array);
	struct json_object *arms = get(root, "arms", json_type_array);
	struct json_object *runs = get(root, "runs", json_type_array);
	struct json_object *samples = get(root, "samples", json_type_array);
	struct json_object *seed = get(root, "seed", json_type_int);
	struct json_object *cwd = get(tune, "cwd", json_type_string);
	if (!tune || !cmd || !cwd || !arms || !runs || !samples || !seed)
		return bad(d, "no tune, command, cwd, arms, runs, samples or seed");
	const char *cw = json_object_get_string(cwd);
	if (cw[0] != '/' || strlen(cw) >= sizeof(s->cwd) || text_check(cw, NULL) < 0)
		return bad(d, "the directory it ran in");
	snprintf(s->cwd, sizeof(s->cwd), "%s", cw);
	size_t na = json_object_array_length(arms), nc = json_object_array_length(cmd);
	if (na < 2 || na > COMPARE_MAX_ARMS || nc < 1 || nc > TUNE_MAX_ARGS)
		return bad(d, "the number of arms or of the command's words");
	s->seed = json_object_get_uint64(seed);
	if (!(s->argv = calloc(nc + 1, sizeof(char *))) || !(s->arms = calloc(na, sizeof(*s->arms))))
		return -ENOMEM;
	for (size_t i = 0; i < nc; i++) {
		struct json_object *w = json_object_array_get_idx(cmd, i);
		const char *ws = json_object_is_type(w, json_type_string) ? json_object_get_string(w)
			: NULL;
		if (!ws || strlen(ws) > 4096 || text_check(ws, NULL) < 0)
			return bad(d, "a word of the command");
		if (!(s->argv[i] = strdup(ws)))
			return -ENOMEM;
		s->argc++;
	}
	for (size_t i = 0; i < na; i++) {
		struct json_object *nm = get(json_object_array_get_idx(arms, i), "name",
					     json_type_string);
		if (!nm || (size_t)json_object_get_string_len(nm) >= sizeof(s->arms[0]))
			return bad(d, "an arm's name");
		snprintf(s->arms[i], sizeof(s->arms[0]), "%s", json_object_get_string(nm));
	}
	s->n_arms = na;
	int rc = read_runs(d, runs, s);
	return rc ? rc : read_samples(d, samples, s);
}

int tune_saved_read(const char *path, struct tune_saved *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	struct rd d = { path, err, errlen };
	char *buf = NULL, p[120];
	size_t len = 0;
	text_escape(p, sizeof(p), path);
	int rc = fileio_read_file(path, TUNE_JSON_MAX, &buf, &len);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "--resume %s: %s", p, rc == -EFBIG ?
				"larger than 512 MiB" : rc == -EINVAL ? "not a regular file" :
				strerror(-rc));
	struct json_tokener *tok = json_tokener_new_ex(TUNE_JSON_DEPTH);
	struct json_object *root = NULL;
	if (tok) {
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
		root = len <= INT32_MAX ? json_tokener_parse_ex(tok, buf, (int)len) : NULL;
		json_tokener_free(tok);
	}
	free(buf);
	if (!tok)
		return -ENOMEM;
	if (!root || !json_object_is_type(root, json_type_object))
		rc = msg_fail(-EINVAL, err, errlen, "--resume %s: not JSON (or cut short)", p);
	else
		rc = read_doc(&d, root, s);
	json_object_put(root);
	if (rc == -ENOMEM)
		msg_set(err, errlen, "out of memory");
	if (rc < 0)
		tune_saved_free(s);
	return rc;
}

void tune_saved_free(struct tune_saved *s)
{
	for (int i = 0; s->argv && i < s->argc; i++)
		free(s->argv[i]);
	free(s->argv);
	free(s->arms);
	free(s->runs);
	free(s->samples);
	memset(s, 0, sizeof(*s));
}
