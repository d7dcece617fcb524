/* compare_report — text, JSON, CSV and the saved profile of `brisk
 * compare`'s result.  Contract in compare_report.h. */
#include "compare_report.h"
#include "compare_text.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <json-c/json.h>

#include "blockdev.h"
#include "csv.h"
#include "devclass.h"
#include "machine.h"
#include "jout.h"
#include "msg.h"
#include "outfile.h"
#include "profile.h"
#include "runreport.h"
#include "runreport_split.h"
#include "text.h"

#define COLS COMPARE_REPORT_COLS

/* n spaces (n <= 40), for continuation lines under a prefix. */
static const char *indent(size_t n)
{
	static const char sp[] = "                                        ";
	return sp + sizeof(sp) - 1 - (n < sizeof(sp) ? n : sizeof(sp) - 1);
}

/* prefix, then untrusted text escaped to ASCII, wrapped at COLS. */
static void wrap(FILE *f, const char *prefix, const char *cont, const char *text)
{
	compare_text_wrap(f, prefix, cont, text, COLS);
}

/* ---------- figures ---------- */

/* Milliseconds with about three significant figures; "-" for NaN. */
static const char *fms(char *b, size_t n, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(b, n, "-");
	else if (fabs(v) >= 100)
		snprintf(b, n, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(b, n, "%.1f", v);
	else
		snprintf(b, n, "%.2f", v);
	return b;
}

/* Ratios: two decimals below 10 ("0.21"), fewer above, so that a CI
 * keeps to its column. */
static const char *fratio(char *b, size_t n, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.*f", fabs(v) < 10 ? 2 : fabs(v) < 100 ? 1 : 0, v);
	return b;
}

/* "643 [590, 701]" (fmt: fms or fratio); "-" without an estimate. */
static const char *fci(char *b, size_t n, const struct stats_ci *c,
		       const char *(*fmt)(char *, size_t, double))
{
	char e[32], lo[32], hi[32];
	if (isnan(c->est) || isinf(c->est))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%s [%s, %s]", fmt(e, sizeof(e), c->est), fmt(lo, sizeof(lo), c->lo),
			 fmt(hi, sizeof(hi), c->hi));
	return b;
}

static const char *fmibps(char *b, size_t n, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.1f", v);
	return b;
}

static const char *verdict_short(const struct compare_cell *c, size_t arm)
{
	if (arm == 0)
		return "-";
	return compare_verdict_name(c->verdict);
}

static int has_action(const struct compare_result *r, int k)
{
	return (r->actions & (1u << k)) != 0;
}

static const char *stop_words(const struct compare_result *r, char *b, size_t n)
{
	if (r->stop_signal)
		snprintf(b, n, "interrupted by SIG%s", sigabbrev_np(r->stop_signal) ?
			 sigabbrev_np(r->stop_signal) : "?");
	else if (r->stop_requested)
		snprintf(b, n, "stopped on request");
	else if (r->stopped_early)
		snprintf(b, n, "stopped early: every verdict settled at look %u of %u",
			 r->looks_taken, r->looks);
	else if (r->race_end == COMPARE_RACE_WINNER || r->race_end == COMPARE_RACE_EQUIVALENT)
		snprintf(b, n, "the race ended %s", r->race_words);
	else if (r->rounds_done >= r->rounds_max)
		snprintf(b, n, "ran all its rounds");
	else
		snprintf(b, n, "ended before its last round");
	return b;
}

static const char *utc_date(char *b, size_t n, uint64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!t || !gmtime_r(&tt, &tm) || !strftime(b, n, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(b, n, "unknown date");
	return b;
}

/* ---------- text ---------- */

#define LABEL_W COMPARE_LABEL_COLS

/* One table row: as formatted when it fits in COLS, else wrapped at its
 * spaces (padding collapsed) under the label column. */
__attribute__((format(printf, 2, 3)))
static void row(FILE *f, const char *fmt, ...)
{
	char b[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (strlen(b) <= COLS)
		fprintf(f, "%s\n", b);
	else
		text_wrap(f, "", indent(LABEL_W + 1), b, COLS);
}

static void text_header(FILE *f, const struct compare_result *r)
{
	char b[256], d[64], how[400];
	snprintf(b, sizeof(b), "brisk " BRISK_VERSION " %s on ", r->command[0] ? r->command :
		 "compare");
	wrap(f, b, "  ", r->dir);
	wrap(f, "stack: ", "  ", r->stackline[0] ? r->stackline : "-");
	wrap(f, "disks: ", "  ", r->disks[0] ? r->disks : "-");
	wrap(f, "workload: ", "  ", r->workload[0] ? r->workload : "-");
	snprintf(b, sizeof(b), "rounds: %u of %u, seed %" PRIu64 ", started %s, took %.0fs",
		 r->rounds_done, r->rounds_max, r->seed, utc_date(d, sizeof(d), r->t_start_real),
		 (double)r->t_ns / 1e9);
	text_wrap(f, "", "  ", b, COLS);
	text_wrap(f, "end: ", "  ", stop_words(r, how, sizeof(how)), COLS);
	snprintf(b, sizeof(b), "alpha %.3g family-wise, split over %u look%s (%u taken): %.3g at the last; "
		 "%.0f%% CIs", r->alpha, r->looks, r->looks == 1 ? "" : "s", r->looks_taken,
		 r->alpha_look, COMPARE_LEVEL * 100);
	text_wrap(f, "", "  ", b, COLS);
	snprintf(b, sizeof(b), "equivalence margin %.0f%% either way", 100.0 * (r->margin - 1.0));
	text_wrap(f, "", "  ", b, COLS);
	if (r->have_ran_as) {
		snprintf(b, sizeof(b), "actions ran as uid %u (%s), %s privileges",
			 (unsigned)r->ran_as.uid, r->ran_as.user[0] ? text_show(r->ran_as.user) : "no name",
			 r->ran_as.uid ? "without" : "with");
		text_wrap(f, "", "  ", b, COLS);
	}
}

static void text_arms(FILE *f, const struct compare_result *r)
{
	fprintf(f, "\narms (0 is the baseline):\n");
	for (size_t a = 0; a < r->n_arms; a++) {
		const struct compare_arm *arm = &r->arms[a];
		char cell[LABEL_W + 1], pre[40];
		snprintf(pre, sizeof(pre), "  %zu %-*s ", a, LABEL_W,
			 compare_text_cell(cell, LABEL_W, arm->label));
		char *s = compare_text_dup(arm->settings[0] ? arm->settings : "(the settings as they are)");
		char *nm = compare_text_dup(arm->name);
		size_t need = (s ? strlen(s) : 0) + (nm ? strlen(nm) : 0) + 16;
		char *line = malloc(need);
		if (s && nm && line) {
			if (arm->settings[0] && strcmp(arm->name, arm->settings) != 0)
				snprintf(line, need, "%s (from %s)", s, nm);
			else
				snprintf(line, need, "%s", s);
			text_wrap(f, pre, indent(strlen(pre)), line, COLS);
		} else {
			text_wrap(f, pre, indent(strlen(pre)), "(out of memory)", COLS);
		}
		free(line);
		free(s);
		free(nm);
	}
}

static void text_actions(FILE *f, const struct compare_result *r)
{
	char ci_h[32];
	snprintf(ci_h, sizeof(ci_h), "p50 [%.0f%% CI]", COMPARE_LEVEL * 100);
	fprintf(f, "\ntimes in msec; ratio = typical arm-run (geometric mean of its samples),\n"
		"arm / baseline, with its Welch 95%% CI (what the verdict rests on); verdict at the last look's level\n");
	fprintf(f, "%-*s %-8s %4s %4s %6s %6s %6s  %-20s %-17s %s\n", LABEL_W, "arm", "action",
		"n", "cold", "min", "avg", "max", ci_h, "ratio [CI]", "verdict");
	for (int k = 0; k < ACTION_KIND_COUNT; k++) {
		if (!has_action(r, k))
			continue;
		for (size_t a = 0; a < r->n_arms; a++) {
			const struct compare_cell *c = &r->cells[a][k];
			char cell[LABEL_W + 1], mn[32], av[32], mx[32], med[112], rat[112];
			row(f, "%-*s %-8s %4zu %4u %6s %6s %6s  %-20s %-17s %s", LABEL_W,
				compare_text_cell(cell, LABEL_W, r->arms[a].label),
				action_kind_name((enum action_kind)k), c->n, c->cold,
				fms(mn, sizeof(mn), c->min), fms(av, sizeof(av), c->mean),
				fms(mx, sizeof(mx), c->max), fci(med, sizeof(med), &c->p50, fms),
				a == 0 ? "baseline" : fci(rat, sizeof(rat), &c->ratio_runs, fratio),
				verdict_short(c, a));
		}
	}
	char legend[320], more[96] = "";
	if (r->more_rounds > 0)
		snprintf(more, sizeof(more), ": about %d more round%s would likely settle them",
			 r->more_rounds, r->more_rounds == 1 ? "" : "s");
	snprintf(legend, sizeof(legend), "(runt-min/avg/max over cold samples; equivalent = "
		 "the ratio shown within %.0f%% either way, two one-sided tests at the look's "
		 "level; undecided = neither a difference nor equivalence shown yet%s)",
		 100.0 * (r->margin - 1.0), more);
	text_wrap(f, "", " ", legend, COLS);
}

/* What the load's figures are called: by what the loads do. */
static const char *disk_word(const struct compare_result *r)
{
	return r->load_dirs == COMPARE_LOAD_WRITES ? "written to disk"
	       : r->load_dirs == COMPARE_LOAD_READS ? "read from disk" : "to/from disk";
}

static const char *calls_word(const struct compare_result *r)
{
	return r->load_dirs == COMPARE_LOAD_WRITES ? "write()"
	       : r->load_dirs == COMPARE_LOAD_READS ? "read()" : "read()/write()";
}

static void text_loads(FILE *f, const struct compare_result *r)
{
	char disk_h[48], calls_h[32];
	snprintf(disk_h, sizeof(disk_h), "%s MiB/s [%.0f%% CI]", disk_word(r), COMPARE_LEVEL * 100);
	snprintf(calls_h, sizeof(calls_h), "%s MiB/s", calls_word(r));
	fprintf(f, "\n%-*s %4s %6s  %-30s %14s %14s\n", LABEL_W, "arm", "runs", "failed", disk_h,
		calls_h, "worst-stall-ms");
	for (size_t a = 0; a < r->n_arms; a++) {
		const struct compare_armstat *s = &r->armstat[a];
		char cell[LABEL_W + 1], ld[112], calls[32], ws[32];
		row(f, "%-*s %4zu %6zu  %-30s %14s %14s", LABEL_W,
			compare_text_cell(cell, LABEL_W, r->arms[a].label), s->runs, s->failed_runs,
			fci(ld, sizeof(ld), &s->disk_mibps, fmibps),
			fmibps(calls, sizeof(calls), s->load_mibps.est), fms(ws, sizeof(ws), s->worst_stall_ms));
	}
	const char *dev = r->load_dev[0] ? r->load_dev : "no device";   /* escaped by wrap */
	char legend[400], win[96];
	if (r->load_window_ns)
		snprintf(win, sizeof(win), "the first %.3g s of its loaded phase, the same stretch "
			 "of the load in every arm-run", (double)r->load_window_ns / 1e9);
	else
		snprintf(win, sizeof(win), "its whole loaded phase");
	snprintf(legend, sizeof(legend), "(over each arm-run's load window, %s; %s = what "
		 "reached %s in it, as its own counters say; %s = the loads' own calls, bursts "
		 "into the page cache included; the load rule goes by %s)", win, disk_word(r), dev,
		 calls_word(r), r->load_by_disk ? disk_word(r) : calls_word(r));
	wrap(f, "", " ", legend);
}

static void text_ranking(FILE *f, const struct compare_result *r)
{
	fprintf(f, "\nranking (score = geometric mean of the p90 ratios, lower is better):\n");
	for (size_t i = 0; i < r->n_ranked && i < r->n_arms; i++) {
		size_t a = r->ranking[i];
		if (a >= r->n_arms)
			continue;
		const struct compare_armstat *s = &r->armstat[a];
		char cell[LABEL_W + 1], sc[32], ld[32];
		char starve[128] = "";
		if (!s->load_ok)
			snprintf(starve, sizeof(starve), "  starves the load (%s MiB/s %s, below %.0f%% "
				 "of the best)", fmibps(ld, sizeof(ld), compare_load_figure(r, a)),
				 r->load_by_disk ? disk_word(r) : calls_word(r),
				 100.0 - COMPARE_LOAD_TOLERANCE_PCT);
		row(f, "  %zu. %-*s score %6s%s%s", i + 1, LABEL_W,
		    compare_text_cell(cell, LABEL_W, r->arms[a].label), fratio(sc, sizeof(sc), s->score),
		    starve, (int)a == r->best ? "  <- recommended" : "");
	}
	fputc('\n', f);
	wrap(f, "recommendation: ", "  ", r->recommendation[0] ? r->recommendation : "-");
	wrap(f, "rule: ", "  ", r->rule[0] ? r->rule : "-");
}

/* Who ran how many rounds, who left the race when and why, how it ended. */
static void text_race(FILE *f, const struct compare_result *r)
{
	if (r->race_end == COMPARE_RACE_OFF)
		return;
	fprintf(f, "\nrace (an arm shown slower than the leader leaves it):\n");
	for (size_t a = 0; a < r->n_arms; a++) {
		const struct compare_race *x = &r->race[a];
		char cell[LABEL_W + 1], pre[64], b[320];
		snprintf(pre, sizeof(pre), "  %zu %-*s %3u run%s  ", a, LABEL_W,
			 compare_text_cell(cell, LABEL_W, r->arms[a].label), x->runs,
			 x->runs == 1 ? " " : "s");
		if (x->out)
			snprintf(b, sizeof(b), "out after round %u: %s", x->out_round, x->why);
		else
			snprintf(b, sizeof(b), "%s", (int)a == r->race_leader ? "in the race, the leader"
				 : "in the race");
		wrap(f, pre, indent(strlen(pre)), b);
	}
	wrap(f, "  ended: ", "    ", r->race_words[0] ? r->race_words : "-");
}

void compare_report_text(FILE *f, const struct compare_result *r)
{
	text_header(f, r);
	text_arms(f, r);
	text_race(f, r);
	text_actions(f, r);
	compare_split_text(f, r, COLS);
	text_loads(f, r);
	text_ranking(f, r);
	if (r->n_msgs) {
		fprintf(f, "\nnotes:\n");
		for (size_t i = 0; i < r->n_msgs && i < COMPARE_MAX_MSGS; i++)
			wrap(f, "  ", "    ", r->msgs[i]);
	}
}

/* ---------- JSON ---------- */

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static const char *verdict_name(const struct compare_cell *c, size_t arm)
{
	return arm == 0 ? "baseline" : compare_verdict_name(c->verdict);
}

static struct json_object *json_cell(const struct compare_cell *c, size_t arm)
{
	struct json_object *o = jout_object();
	add(o, "n", jout_uint64(c->n));
	add(o, "cold", jout_uint64(c->cold));
	add(o, "warm", jout_uint64(c->warm));
	add(o, "timeouts", jout_uint64(c->timeouts));
	add(o, "errors", jout_uint64(c->errors));
	add(o, "min", jout_finite(c->min));
	add(o, "mean", jout_finite(c->mean));
	add(o, "max", jout_finite(c->max));
	add(o, "p50", jout_ci(&c->p50));
	add(o, "p90", jout_ci(&c->p90));
	add(o, "p99", jout_ci(&c->p99));
	add(o, "max_ci", jout_ci(&c->pmax));
	add(o, "ratio_p50", jout_ci(&c->ratio50));
	add(o, "ratio_runs", jout_ci(&c->ratio_runs));
	add(o, "ratio_p90", jout_ci(&c->ratio90));
	add(o, "p", jout_finite(c->p));
	add(o, "p_adjusted", jout_finite(c->p_adj));
	add(o, "p_equivalent", jout_finite(c->p_equiv));
	add(o, "p_equivalent_adjusted", jout_finite(c->p_equiv_adj));
	add(o, "verdict", jout_string(verdict_name(c, arm)));
	add(o, "settled", jout_bool(c->settled));
	add(o, "more_rounds", c->more_rounds > 0 ? jout_uint64((uint64_t)c->more_rounds) : NULL);
	return o;
}

/* A cell and its breakdown. */
static struct json_object *json_cell_split(const struct compare_result *r, size_t arm, int k)
{
	struct json_object *o = json_cell(&r->cells[arm][k], arm);
	add(o, "breakdown", compare_split_json(&r->splits[arm][k]));
	return o;
}

static struct json_object *json_arms(const struct compare_result *r)
{
	struct json_object *arr = jout_array();
	for (size_t a = 0; a < r->n_arms; a++) {
		const struct compare_arm *arm = &r->arms[a];
		const struct compare_armstat *s = &r->armstat[a];
		struct json_object *o = jout_object();
		add(o, "index", jout_uint64(a));
		add(o, "name", jout_string(arm->name));
		add(o, "label", jout_string(arm->label));
		add(o, "settings", jout_string(arm->settings));
		add(o, "runs", jout_uint64(s->runs));
		add(o, "failed_runs", jout_uint64(s->failed_runs));
		add(o, "load_mibps", jout_ci(&s->load_mibps));
		add(o, "disk_mibps", jout_ci(&s->disk_mibps));
		add(o, "worst_stall_ms", jout_finite(s->worst_stall_ms));
		add(o, "score", jout_finite(s->score));
		add(o, "load_ok", jout_bool(s->load_ok));
		struct json_object *acts = jout_object();
		for (int k = 0; k < ACTION_KIND_COUNT; k++)
			if (has_action(r, k))
				add(acts, action_kind_name((enum action_kind)k),
				    json_cell_split(r, a, k));
		add(o, "actions", acts);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_ranking(const struct compare_result *r)
{
	struct json_object *arr = jout_array();
	for (size_t i = 0; i < r->n_ranked && i < r->n_arms; i++) {
		size_t a = r->ranking[i];
		if (a >= r->n_arms)
			continue;
		struct json_object *o = jout_object();
		add(o, "arm", jout_uint64(a));
		add(o, "label", jout_string(r->arms[a].label));
		add(o, "settings", jout_string(r->arms[a].settings));
		add(o, "score", jout_finite(r->armstat[a].score));
		add(o, "load_ok", jout_bool(r->armstat[a].load_ok));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_race(const struct compare_result *r)
{
	struct json_object *o = jout_object(), *arr = jout_array();
	add(o, "racing", jout_bool(r->race_end != COMPARE_RACE_OFF));
	add(o, "end", jout_string(compare_race_end_name(r->race_end)));
	add(o, "words", r->race_words[0] ? jout_string(r->race_words) : NULL);
	add(o, "leader", r->race_leader >= 0 ? jout_uint64((uint64_t)r->race_leader) : NULL);
	add(o, "looks", jout_uint64(r->race_looks));
	add(o, "level", r->race_looks ? jout_finite(r->race_level) : NULL);
	for (size_t a = 0; a < r->n_arms; a++) {
		const struct compare_race *x = &r->race[a];
		struct json_object *e = jout_object();
		struct stats_ci ci = { x->ratio, x->lo, x->hi };
		add(e, "arm", jout_uint64(a));
		add(e, "runs", jout_uint64(x->runs));
		add(e, "out", jout_bool(x->out));
		add(e, "out_after_round", x->out ? jout_uint64(x->out_round) : NULL);
		add(e, "why", x->out ? jout_string(x->why) : NULL);
		add(e, "leader", x->leader[0] ? jout_string(x->leader) : NULL);
		add(e, "ratio_to_leader", isnan(x->ratio) ? NULL : jout_ci(&ci));
		json_object_array_add(arr, e);
	}
	add(o, "arms", arr);
	return o;
}

static struct json_object *json_verdicts(const struct compare_result *r)
{
	struct json_object *arr = jout_array();
	for (size_t a = 1; a < r->n_arms; a++)
		for (int k = 0; k < ACTION_KIND_COUNT; k++) {
			if (!has_action(r, k))
				continue;
			const struct compare_cell *c = &r->cells[a][k];
			struct json_object *o = jout_object();
			add(o, "arm", jout_uint64(a));
			add(o, "action", jout_string(action_kind_name((enum action_kind)k)));
			add(o, "verdict", jout_string(verdict_name(c, a)));
			add(o, "ratio_p50", jout_ci(&c->ratio50));
			add(o, "ratio_runs", jout_ci(&c->ratio_runs));
			json_object_array_add(arr, o);
		}
	return arr;
}

static struct json_object *json_runs(const struct compare_result *r)
{
	struct json_object *arr = jout_array();
	for (size_t i = 0; i < r->n_runs; i++) {
		const struct compare_run *x = &r->runs[i];
		struct json_object *o = jout_object();
		add(o, "arm", jout_uint64(x->arm));
		add(o, "round", jout_uint64(x->round));
		add(o, "order", jout_uint64(x->order));
		add(o, "t_s", jout_double((double)x->t_ns / 1e9));
		add(o, "dur_s", jout_double((double)x->dur_ns / 1e9));
		add(o, "load_mibps", jout_finite(x->load_mibps));
		add(o, "disk_mibps", jout_finite(x->disk_mibps));
		add(o, "disk_written_mibps", jout_finite(x->disk_wr_mibps));
		add(o, "disk_read_mibps", jout_finite(x->disk_rd_mibps));
		add(o, "window_s", jout_finite(x->window_s));
		add(o, "worst_stall_ms", jout_finite(x->worst_stall_ms));
		add(o, "settle_s", jout_finite(x->settle_s));
		add(o, "settle_timeout", jout_bool(x->settle_timeout));
		add(o, "settle_left_mib", jout_finite(x->settle_left_mib));
		add(o, "failed", jout_bool(x->failed));
		add(o, "note", jout_string(x->note));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_samples(const struct compare_result *r)
{
	struct json_object *arr = jout_array();
	for (size_t i = 0; i < r->n_samples; i++) {
		const struct compare_sample *x = &r->samples[i];
		struct json_object *o = jout_object();
		add(o, "arm", jout_uint64(x->arm));
		add(o, "round", jout_uint64(x->round));
		add(o, "order", jout_uint64(x->order));
		add(o, "run", jout_uint64(x->run));
		add(o, "action", jout_string(x->action < ACTION_KIND_COUNT ?
					     action_kind_name((enum action_kind)x->action) : "?"));
		add(o, "ms", jout_finite(x->ms));
		add(o, "cold", jout_bool(x->cold));
		add(o, "timeout", jout_bool(x->timeout));
		add(o, "err", jout_int64(x->err));
		add(o, "t_s", jout_double((double)x->t_ns / 1e9));
		add(o, "breakdown", runreport_split_json(&x->split));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_result(const struct compare_result *r)
{
	struct json_object *root = jout_object();
	add(root, "brisk_version", jout_string(BRISK_VERSION));
	add(root, "kind", jout_string("compare"));
	add(root, "format_version", jout_int64(COMPARE_REPORT_FORMAT_VERSION));
	add(root, "dir", jout_path(r->dir, 1));
	add(root, "stack", jout_string(r->stackline));
	add(root, "disks", jout_string(r->disks));
	add(root, "workload", jout_string(r->workload));
	add(root, "ran_as", runreport_ran_as_json(r->have_ran_as ? &r->ran_as : NULL));
	add(root, "machine", machine_json(r->dir, NULL, 0));
	add(root, "seed", jout_uint64(r->seed));
	struct json_object *rounds = jout_object();
	add(rounds, "done", jout_uint64(r->rounds_done));
	add(rounds, "max", jout_uint64(r->rounds_max));
	add(root, "rounds", rounds);
	add(root, "race", json_race(r));
	add(root, "looks", jout_uint64(r->looks));
	add(root, "looks_taken", jout_uint64(r->looks_taken));
	add(root, "alpha", jout_finite(r->alpha));
	add(root, "alpha_look", jout_finite(r->alpha_look));
	add(root, "margin", jout_finite(r->margin));
	add(root, "more_rounds", r->more_rounds > 0 ? jout_uint64((uint64_t)r->more_rounds) : NULL);
	add(root, "stopped_early", jout_bool(r->stopped_early));
	char sig[32];
	if (r->stop_signal)
		snprintf(sig, sizeof(sig), "SIG%s", sigabbrev_np(r->stop_signal) ?
			 sigabbrev_np(r->stop_signal) : "?");
	add(root, "stop_signal", r->stop_signal ? jout_string(sig) : NULL);
	add(root, "stop_requested", jout_bool(r->stop_requested));
	add(root, "started", r->t_start_real ? jout_uint64(r->t_start_real) : NULL);
	add(root, "elapsed_s", jout_double((double)r->t_ns / 1e9));
	add(root, "arms", json_arms(r));
	add(root, "ranking", json_ranking(r));
	struct json_object *rec = jout_object();
	add(rec, "arm", r->best >= 0 && (size_t)r->best < r->n_arms ?
	    jout_int64(r->best) : NULL);
	add(rec, "text", jout_string(r->recommendation));
	add(rec, "reason", r->reason[0] ? jout_string(r->reason) : NULL);
	add(root, "recommendation", rec);
	add(root, "rule", jout_string(r->rule));
	struct json_object *lw = jout_object();   /* the load window and the load rule */
	add(lw, "seconds", r->load_window_ns ? jout_double((double)r->load_window_ns / 1e9) : NULL);
	add(lw, "device", r->load_dev[0] ? jout_string(r->load_dev) : NULL);
	add(lw, "rule_by", jout_string(r->load_by_disk ? "disk" : "calls"));
	add(root, "load_window", lw);
	add(root, "verdicts", json_verdicts(r));
	add(root, "runs", json_runs(r));
	add(root, "samples", json_samples(r));
	add(root, "breakdown", compare_split_state_json(r));
	struct json_object *msgs = jout_array();
	for (size_t i = 0; i < r->n_msgs && i < COMPARE_MAX_MSGS; i++)
		json_object_array_add(msgs, jout_string(r->msgs[i]));
	add(root, "messages", msgs);
	return root;
}

struct json_object *compare_report_json_doc(const struct compare_result *r)
{
	return json_result(r);
}

int compare_report_json(const struct compare_result *r, const char *path, char *err,
			size_t errlen)
{
	return jout_save(path, json_result(r), err, errlen);
}

/* ---------- CSV ---------- */

int compare_report_csv(const struct compare_result *r, const char *path, char *err,
		       size_t errlen)
{
	struct outfile o;
	int rc = outfile_open(&o, path, err, errlen), bad = 0;
	if (rc < 0)
		return rc;
	FILE *f = o.f;
	fprintf(f, "arm,arm_label,round,order,run,action,ms,cold,timeout,err,t_s");
	runreport_split_csv_header(f);
	fputc('\n', f);
	for (size_t i = 0; !bad && i < r->n_samples; i++) {
		const struct compare_sample *x = &r->samples[i];
		fprintf(f, "%" PRIu32 ",", x->arm);
		bad |= csv_text(f, x->arm < r->n_arms ? r->arms[x->arm].label : "") < 0;
		fprintf(f, ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",", x->round, x->order, x->run);
		bad |= csv_text(f, x->action < ACTION_KIND_COUNT ?
				action_kind_name((enum action_kind)x->action) : "?") < 0;
		fputc(',', f);
		csv_fixed(f, x->ms, 3);
		fprintf(f, ",%u,%u,%" PRId32 ",%.6f", x->cold, x->timeout, x->err,
			(double)x->t_ns / 1e9);
		runreport_split_csv_row(f, &x->split);
		fputc('\n', f);
	}
	rc = outfile_close(&o, !bad, 1, NULL, err, errlen);
	return bad ? msg_fail(-ENOMEM, err, errlen, "out of memory") : rc;
}

/* ---------- --save NAME ---------- */

/* The profile key of a step: iosched tunables by their file name, as
 * profiles and `brisk set` write them. */
static const char *step_key(const struct settings_step *s)
{
	return s->key.kind == TUNABLE_IOSCHED ? s->key.attr : s->key.name;
}

/* Does every disk the arm sets anything on have KEY with VALUE? */
static int same_everywhere(const struct compare_arm *arm, const struct settings_step *s)
{
	for (size_t i = 0; i < arm->n_steps; i++) {
		const struct settings_step *o = &arm->steps[i];
		if (!o->dev)
			continue;
		int found = 0;
		for (size_t j = 0; j < arm->n_steps; j++) {
			const struct settings_step *q = &arm->steps[j];
			if (q->dev && strcmp(q->dev, o->dev) == 0 &&
			    strcmp(step_key(q), step_key(s)) == 0) {
				if (strcmp(q->value, s->value) != 0)
					return 0;
				found = 1;
			}
		}
		if (!found)
			return 0;
	}
	return 1;
}

static int arm_to_profile(const struct compare_arm *arm, struct profile *p, char *err,
			  size_t errlen)
{
	char e[PROFILE_ERR_LEN];
	for (size_t i = 0; i < arm->n_steps; i++) {
		const struct settings_step *s = &arm->steps[i];
		const char *key = step_key(s);
		enum profile_class cls = PROFILE_CLASS_ALL;
		if (s->dev && !same_everywhere(arm, s)) {
			struct blockdev *d = calloc(1, sizeof(*d));
			if (!d)
				return -ENOMEM;
			int rc = blockdev_probe(s->dev, d);
			if (rc == 0)
				cls = devclass_of(d);
			free(d);
			if (rc < 0)
				return msg_fail(rc, err, errlen, "%s=%s differs between the disks and "
						"%s cannot be probed for its class: %s", key,
						s->value, s->dev, strerror(-rc));
		}
		int rc = profile_capture(p, cls, key, s->value, e, sizeof(e));
		if (rc == -EEXIST)
			return msg_fail(-EINVAL, err, errlen, "arm %s sets %s=%s on %s but %s on "
					"another %s disk: a profile holds one value per class; "
					"save a comparison whose arm sets it alike",
					arm->label, key, s->value, s->dev ? s->dev : "vm", e,
					profile_class_name(cls));
		if (rc < 0)
			return msg_fail(-EINVAL, err, errlen, "arm %s: %s=%s cannot go into a "
					"profile: %s", arm->label, key, s->value, e);
	}
	return 0;
}

/* One comment paragraph: "; " + text, wrapped at COLS (escaped, ASCII). */
static void comment(FILE *f, const char *text, int trusted)
{
	if (trusted)
		text_wrap(f, "; ", ";   ", text, COLS);
	else
		wrap(f, "; ", ";   ", text);
}

struct save_head {
	const struct compare_result *r;
	size_t best;
	const char *name;
};

static void save_comment(FILE *f, const void *ctx)
{
	const struct save_head *h = ctx;
	const struct compare_result *r = h->r;
	size_t best = h->best;
	const char *name = h->name;
	char b[1024], d[64], e1[112], e2[112];
	struct utsname u;
	if (uname(&u) != 0) {
		snprintf(u.nodename, sizeof(u.nodename), "?");
		snprintf(u.release, sizeof(u.release), "?");
	}
	snprintf(b, sizeof(b), "saved by brisk %s compare --save %s from the comparison of %s",
		 BRISK_VERSION, name, utc_date(d, sizeof(d), r->t_start_real));
	comment(f, b, 1);
	snprintf(b, sizeof(b), "machine: %s, Linux %s", u.nodename, u.release);
	comment(f, b, 0);
	wrap(f, "; dir: ", ";   ", r->dir);
	wrap(f, "; stack: ", ";   ", r->stackline);
	wrap(f, "; disks: ", ";   ", r->disks);
	wrap(f, "; workload: ", ";   ", r->workload);
	const struct compare_arm *arm = &r->arms[best];
	snprintf(b, sizeof(b), "winner: arm %zu %s (%s), of %zu arms; baseline %s; %u of %u "
		 "rounds, seed %" PRIu64, best, arm->label, arm->settings, r->n_arms,
		 r->arms[0].label, r->rounds_done, r->rounds_max, r->seed);
	comment(f, b, 0);
	for (int k = 0; k < ACTION_KIND_COUNT; k++) {
		if (!has_action(r, k))
			continue;
		const struct compare_cell *c = &r->cells[best][k];
		snprintf(b, sizeof(b), "%s: run ratio %s, p90 ratio %s, %s (n %zu)",
			 action_kind_name((enum action_kind)k), fci(e1, sizeof(e1), &c->ratio_runs, fratio),
			 fci(e2, sizeof(e2), &c->ratio90, fratio), verdict_name(c, best), c->n);
		comment(f, b, 1);
	}
	snprintf(b, sizeof(b), "load MiB/s %s: %s, baseline %s", disk_word(r),
		 fci(e1, sizeof(e1), &r->armstat[best].disk_mibps, fmibps),
		 fci(e2, sizeof(e2), &r->armstat[0].disk_mibps, fmibps));
	comment(f, b, 1);
	snprintf(b, sizeof(b), "to install: brisk export %s --format udev", name);
	comment(f, b, 1);
}

int compare_report_save(const struct compare_result *r, const char *name, int force,
			char *err, size_t errlen)
{
	if (r->best < 0 || (size_t)r->best >= r->n_arms)
		return msg_fail(-ENODATA, err, errlen, "nothing to save as %s: no arm was "
				"recommended over the baseline (%s)", name,
				r->recommendation[0] ? r->recommendation : "no recommendation");
	size_t best = (size_t)r->best;
	const struct compare_arm *arm = &r->arms[best];
	if (!profile_name_ok(name, PROFILE_NAME_LEN))
		return msg_fail(-EINVAL, err, errlen, "bad profile name '%s': expected 1 to %d "
				"letters, digits, '-', '_' or '.', not starting with '.' or '-'",
				name, PROFILE_NAME_LEN - 1);
	if (!arm->n_steps)
		return msg_fail(-ENODATA, err, errlen, "arm %s sets nothing: there is no setting "
				"to save as %s", arm->label, name);
	char path[PATH_MAX];
	int rc = profile_user_path(name, force, path, sizeof(path), err, errlen);
	if (rc < 0)
		return rc;
	struct profile *p = calloc(1, sizeof(*p));
	if (!p)
		return msg_fail(-ENOMEM, err, errlen, "out of memory");
	profile_init(p, name);
	/* the description must be one clean line the writer takes back */
	char lab[LABEL_W * 4 + 1];
	compare_text_cell(lab, sizeof(lab) - 1, arm->label);
	snprintf(p->description, sizeof(p->description), "best of %zu arms in brisk compare: %s",
		 r->n_arms, lab);
	for (char *q = p->description; *q; q++)
		if (*q == ';' || *q == '#')
			*q = ',';
	size_t dl = strlen(p->description);
	while (dl && p->description[dl - 1] == ' ')
		p->description[--dl] = '\0';
	rc = arm_to_profile(arm, p, err, errlen);
	if (rc == 0) {
		struct save_head h = { r, best, name };
		rc = profile_save_checked(p, path, force, save_comment, &h, err, errlen);
	}
	free(p);
	return rc;
}
