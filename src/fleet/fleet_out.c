/* fleet_out — the pooled report as text, JSON and CSV, and a group's
 * recommendation in words.  Contract in fleet.h. */
#include "fleet.h"
#include "fleet_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "action.h"
#include "csv.h"
#include "jout.h"
#include "msg.h"
#include "outfile.h"
#include "text.h"

#define COLS 100

/* ---- text helpers ---- */

/* s escaped, cut to w columns at a whole character or escape, padded to w
 * (left-aligned) unless w is 0 (as is). */
static void cell(FILE *f, const char *s, size_t w)
{
	char e[4 * FLEET_KEY_LEN + 8];
	text_escape(e, sizeof(e), s ? s : "");
	if (!w) {
		fputs(e, f);
		return;
	}
	/* what does not fit is cut, and ends in "..." to say so */
	size_t room = text_cols(e) > w && w > 3 ? w - 3 : w;
	size_t c = 0, i = 0;
	while (e[i]) {
		size_t u = e[i] == '\\' ? (e[i + 1] == 'x' ? 4 : 2) : text_char_len(e + i, strlen(e + i));
		if (!u)
			u = 1;
		if (c + (e[i] == '\\' ? u : 1) > room)
			break;
		fwrite(e + i, 1, u, f);
		c += e[i] == '\\' ? u : 1;
		i += u;
	}
	if (e[i] && room < w) {
		fputs("...", f);
		c += 3;
	}
	for (; c < w; c++)
		fputc(' ', f);
}

/* Does an arm's name show whole in a table column of w? */
static int arm_whole(const struct fleet_garm *a, size_t w)
{
	char e[4 * 64 + 1];
	text_escape(e, sizeof(e), a->label);
	return fleet_arm_text(a) == a->label && text_cols(e) <= w;
}

/* An arm's name in the tables: its label, tagged "#N " (N from 1) when
 * the tables cut it, for the arms: legend below. */
static const char *arm_name(const struct fleet_group *g, size_t a, char *b, size_t n)
{
	if (arm_whole(&g->arms[a], 12))
		return g->arms[a].label;
	snprintf(b, n, "#%zu %s", a + 1, g->arms[a].label);
	return b;
}

/* Escaped text after a prefix, wrapped at spaces under COLS, continuation
 * lines indented by cont (text_wrap). */
static void wrap(FILE *f, const char *prefix, const char *cont, const char *text)
{
	char e[4 * 1024];
	text_escape(e, sizeof(e), text ? text : "");
	text_wrap(f, prefix, cont, e, COLS);
}

/* A time in ms, three significant digits. */
static void fms(char *b, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(b, n, "-");
	else if (v >= 100)
		snprintf(b, n, "%.0f", v);
	else if (v >= 10)
		snprintf(b, n, "%.1f", v);
	else
		snprintf(b, n, "%.2f", v);
}

void fleet_ratio_text(char *b, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(b, n, "-");
	else if (v >= 10)
		snprintf(b, n, "%.1f", v);
	else if (v >= 0.1)
		snprintf(b, n, "%.2f", v);
	else
		snprintf(b, n, "%.2g", v);
}

/* "EST [LO, HI]" with fmt (fleet_ratio_text, or fms), "EST" alone when a
 * bound is not finite. */
static void ci_text(char *b, size_t n, const struct stats_ci *c,
		    void (*fmt)(char *, size_t, double))
{
	char e[16], lo[16], hi[16];
	fmt(e, sizeof(e), c->est);
	if (!isfinite(c->lo) || !isfinite(c->hi)) {
		snprintf(b, n, "%s", e);
		return;
	}
	fmt(lo, sizeof(lo), c->lo);
	fmt(hi, sizeof(hi), c->hi);
	snprintf(b, n, "%s [%s, %s]", e, lo, hi);
}

void fleet_disagree_text(char *b, size_t n, const struct fleet_group *g, const struct fleet_row *r,
			 size_t max)
{
	if (n)
		b[0] = '\0';
	for (size_t i = 0; i < r->n_disagree; i++) {
		if (max && i == max) {
			fleet_appendf(b, n, " and %zu more", r->n_disagree - max);
			break;
		}
		fleet_appendf(b, n, "%s%s", i ? ", " : "", g->machines[r->disagree[i]]);
	}
}

const char *fleet_arm_text(const struct fleet_garm *a)
{
	/* the label is the scheduler alone, or the settings cut short */
	if (strcmp(a->label, a->key) == 0 ||
	    (strncmp(a->key, "scheduler=", 10) == 0 && strcmp(a->key + 10, a->label) == 0))
		return a->label;
	return a->key;
}

/* The rows of the first-ranked arm under load, each "ACTION ratio CI, A of
 * P machines faster|slower", after what the first one failed (only those
 * slower when some are). */
static void rec_rows(char *t, size_t tl, const struct fleet_group *g)
{
	const struct fleet_rec *rec = &g->rec;
	int first_item = 1;
	for (size_t i = 0; i < g->n_rows; i++) {
		const struct fleet_row *r = &g->rows[i];
		if ((int)r->arm != rec->arm || r->phase != FLEET_LOADED)
			continue;
		if (rec->slower && r->verdict != STATS_SLOWER)
			continue;
		char c[96];
		ci_text(c, sizeof(c), &r->ratio50, fleet_ratio_text);
		fleet_appendf(t, tl, "%s %s ratio %s, %zu of %zu machines %s", first_item ? "" : ";",
			      action_kind_name((enum action_kind)r->action), c, r->agree, r->paired,
			      r->ratio50.est < 1 ? "faster" : "slower");
		first_item = 0;
	}
}

/* The recommended arm: its settings, the actions it is faster on, what
 * it costs the load, a value outside the range a default may carry. */
static void rec_chosen(char *t, size_t tl, const struct fleet_group *g, const char *base)
{
	const struct fleet_garm *a = &g->arms[g->rec.arm];
	snprintf(t, tl, "%s", fleet_arm_text(a));
	for (size_t i = 0; i < g->n_rows; i++) {
		const struct fleet_row *r = &g->rows[i];
		if ((int)r->arm != g->rec.arm || r->phase != FLEET_LOADED ||
		    r->verdict != STATS_FASTER)
			continue;
		char c[96];
		ci_text(c, sizeof(c), &r->ratio50, fleet_ratio_text);
		fleet_appendf(t, tl, ", %zu of %zu machines faster on %s, ratio %s", r->agree,
			      r->paired, action_kind_name((enum action_kind)r->action), c);
		if (r->n_disagree) {
			char who[512];
			fleet_disagree_text(who, sizeof(who), g, r, 5);
			fleet_appendf(t, tl, " (disagree: %s)", who);
		}
	}
	fleet_appendf(t, tl, " (against %s)", base);
	if (isfinite(a->load.est) && a->load.est < FLEET_LOAD_COST)
		fleet_appendf(t, tl, "; at a cost to the load: %.0f %% of %s's throughput "
			      "(%+.0f %%)", 100 * a->load.est, base, 100 * (a->load.est - 1));
	if (a->outside[0])
		fleet_appendf(t, tl, "; outside the range a default may carry: %s: shown, not "
			      "saved into a class rule without --force", a->outside);
}

/* The baseline kept, and the arm named beside it. */
static void rec_keep(char *t, size_t tl, const struct fleet_group *g, const char *base)
{
	snprintf(t, tl, "no recommendation: keep %s: no setting ranks above it", base);
	if (g->rec.other < 0)
		return;
	const struct fleet_garm *o = &g->arms[g->rec.other];
	char s[16];
	fleet_ratio_text(s, sizeof(s), o->score);
	if (g->rec.other_starves)
		fleet_appendf(t, tl, "; %s scores %s but starves the load (%.0f %% of %s's "
			      "throughput)", fleet_arm_text(o), s, 100 * o->load.est, base);
	else
		fleet_appendf(t, tl, " (next: %s, score %s)", fleet_arm_text(o), s);
}

void fleet_recommendation_text(char *t, size_t tl, const struct fleet_group *g)
{
	const struct fleet_rec *rec = &g->rec;
	const char *base = g->baseline >= 0 ? fleet_arm_text(&g->arms[g->baseline]) : "";
	const char *first = rec->arm >= 0 ? fleet_arm_text(&g->arms[rec->arm]) : "";
	if (!tl)
		return;
	t[0] = '\0';
	switch (rec->why) {
	case FLEET_REC_CHOSEN:
		rec_chosen(t, tl, g, base);
		return;
	case FLEET_REC_ONE_MACHINE:
		snprintf(t, tl, "no recommendation: one machine (%s): not a fleet; its own brisk "
			 "compare verdicts are the ones to read", g->machines[0]);
		return;
	case FLEET_REC_NOT_LOADED:
		snprintf(t, tl, "no recommendation: no samples taken under load (brisk report "
			 "recommends from loaded samples only)");
		return;
	case FLEET_REC_NO_BASELINE:
		snprintf(t, tl, "no recommendation: the baseline was not measured in this group");
		return;
	case FLEET_REC_ONE_ARM:
		snprintf(t, tl, "no recommendation: only %s was measured: nothing to compare it with",
			 base);
		return;
	case FLEET_REC_FEW_MACHINES:
		snprintf(t, tl, "no recommendation: at most %zu machine%s measured both %s and "
			 "another setting under load (%d are needed for a verdict)", rec->max_paired,
			 rec->max_paired == 1 ? "" : "s", base, FLEET_MIN_MACHINES);
		return;
	case FLEET_REC_KEEP:
		rec_keep(t, tl, g, base);
		return;
	case FLEET_REC_STARVES:
		snprintf(t, tl, "no recommendation: %s ranks first but starves the load (%.0f %% of "
			 "%s's throughput)", first, 100 * g->arms[rec->arm].load.est, base);
		return;
	case FLEET_REC_SLOWER:
		snprintf(t, tl, "no recommendation: %s ranks first but is slower than %s on", first,
			 base);
		rec_rows(t, tl, g);
		return;
	case FLEET_REC_NOT_FASTER:
		snprintf(t, tl, "no recommendation: %s ranks first but is not faster than %s on any "
			 "action with %d or more machines and its interval clear of 1:", first, base,
			 FLEET_MIN_MACHINES);
		rec_rows(t, tl, g);
		return;
	}
}

static const char *row_verdict(const struct fleet_group *g, const struct fleet_row *r, int text)
{
	if ((int)r->arm == g->baseline)
		return "baseline";
	if (!isfinite(r->ratio50.est))
		return text ? "-" : "no baseline";
	if (!r->decided)
		return text ? "few" : "too few machines";
	if (r->verdict == STATS_NO_DIFFERENCE)
		return text ? "no diff" : stats_verdict_name(r->verdict);
	return stats_verdict_name(r->verdict);
}

/* A group's heading: its key, counts and baseline, its machines, and
 * what differs among its results. */
static void text_head(FILE *f, const struct fleet_report *rep, const struct fleet_group *g)
{
	char b[1024];
	fputs("\n== ", f);
	cell(f, g->key, 0);
	snprintf(b, sizeof(b), ": %zu machine%s, %zu result%s (%zu run, %zu compare)", g->n_machines,
		 g->n_machines == 1 ? "" : "s", g->n_results, g->n_results == 1 ? "" : "s", g->n_run,
		 g->n_compare);
	fputs(b, f);
	if (g->baseline >= 0) {
		fputs("; baseline ", f);
		cell(f, g->arms[g->baseline].label, 0);
	} else if (rep->opt.baseline) {
		fputs("; baseline ", f);
		cell(f, rep->opt.baseline, 0);
		fputs(" not measured here", f);
	}
	fputc('\n', f);
	size_t l = 0;
	b[0] = '\0';
	for (size_t m = 0; m < g->n_machines && l + 1 < sizeof(b); m++)
		l += (size_t)snprintf(b + l, sizeof(b) - l, "%s%s", m ? ", " : "", g->machines[m]);
	wrap(f, "machines: ", "  ", b);
	if (strstr(g->workloads, " | "))
		wrap(f, "workloads differ: ", "  ", g->workloads);
	if (g->multi_disk[0])
		wrap(f, "more than one disk, pooled as one machine: ", "  ", g->multi_disk);
}

/* A group's table per phase: a row per action and arm. */
static void text_table(FILE *f, const struct fleet_group *g)
{
	for (int ph = 0; ph < FLEET_PHASES; ph++) {
		int any = 0;
		for (size_t i = 0; i < g->n_rows; i++)
			any |= g->rows[i].phase == (enum fleet_phase)ph;
		if (!any)
			continue;
		fprintf(f, "%s\n", ph == FLEET_LOADED ? "under load:" : "idle (not recommended from):");
		fprintf(f, "  %-9s %-12s %4s %6s %-22s %7s %-21s %5s %s\n", "action", "arm", "mach", "n",
			"p50 ms [95% CI]", "p90 ms", "ratio [CI]", "agree", "verdict");
		for (size_t i = 0; i < g->n_rows; i++) {
			const struct fleet_row *r = &g->rows[i];
			if (r->phase != (enum fleet_phase)ph)
				continue;
			char p50[64], p90[16], ratio[64], agree[48];
			ci_text(p50, sizeof(p50), &r->p50, fms);
			fms(p90, sizeof(p90), r->p90.est);
			if ((int)r->arm == g->baseline)
				snprintf(ratio, sizeof(ratio), "baseline");
			else
				ci_text(ratio, sizeof(ratio), &r->ratio50, fleet_ratio_text);
			if ((int)r->arm == g->baseline || !r->paired)
				snprintf(agree, sizeof(agree), "-");
			else
				snprintf(agree, sizeof(agree), "%zu/%zu", r->agree, r->paired);
			char an[96];
			fprintf(f, "  %-9s ", action_kind_name((enum action_kind)r->action));
			cell(f, arm_name(g, r->arm, an, sizeof(an)), 12);
			fprintf(f, " %4zu %6zu %-22s %7s %-21s %5s %s\n", r->machines, r->samples, p50, p90,
				ratio, agree, (int)r->arm == g->baseline ? "-" : row_verdict(g, r, 1));
		}
	}
}

/* The arms the table cut, whole; the machines that disagree, by name;
 * the level of the ratio intervals. */
static void text_notes(FILE *f, const struct fleet_group *g)
{
	/* every arm the table cut, whole: nothing past a cut is hidden */
	int legend = 0;
	for (size_t a = 0; a < g->n_arms; a++)
		legend |= !arm_whole(&g->arms[a], 12);
	if (legend) {
		fputs("arms:\n", f);
		for (size_t a = 0; a < g->n_arms; a++) {
			if (arm_whole(&g->arms[a], 12))
				continue;
			char lab[32];
			snprintf(lab, sizeof(lab), "  #%zu = ", a + 1);
			wrap(f, lab, "      ", g->arms[a].key);
		}
	}
	/* the machines that disagree, by name: a minority is shown, not
	 * outvoted unseen, and cannot veto */
	for (size_t i = 0; i < g->n_rows; i++) {
		const struct fleet_row *r = &g->rows[i];
		if (!r->n_disagree || (int)r->arm == g->baseline)
			continue;
		char who[4096], pre[160], lab[4 * 64 + 1];
		fleet_disagree_text(who, sizeof(who), g, r, 0);
		text_escape(lab, sizeof(lab), g->arms[r->arm].label);
		snprintf(pre, sizeof(pre), "  disagree on %s%s %.60s (%zu of %zu): ",
			 action_kind_name((enum action_kind)r->action),
			 r->phase == FLEET_IDLE ? " idle" : "", lab, r->n_disagree, r->paired);
		wrap(f, pre, "    ", who);
	}
	if (g->comparisons) {
		char lvl[32];
		snprintf(lvl, sizeof(lvl), "%.3g%%", 100 * g->ratio_level);
		fprintf(f, "  (ratio intervals: %s each, 95%% together over the %u comparisons with %d "
			"or more machines)\n", lvl, g->comparisons, FLEET_MIN_MACHINES);
	}
}

/* The load throughput of each arm against the baseline. */
static void text_load(FILE *f, const struct fleet_group *g)
{
	int any_load = 0;
	for (size_t a = 0; a < g->n_arms; a++)
		any_load |= (int)a != g->baseline && isfinite(g->arms[a].load.est);
	if (any_load && g->baseline >= 0) {
		fputs("load throughput against ", f);
		cell(f, g->arms[g->baseline].label, 0);
		fputs(" (the median of the machines that measured both; ", f);
		if (!g->load_calls_files)
			fputs("what reached the disk in each load window):\n", f);
		else if (!g->load_disk_files)
			fputs("the loads' own rate: files of an older brisk, bursts into the page "
			      "cache included):\n", f);
		else
			fprintf(f, "what reached the disk in %u file(s), the loads' own rate in %u "
				"older one(s)):\n", g->load_disk_files, g->load_calls_files);
		for (size_t a = 0; a < g->n_arms; a++) {
			const struct fleet_garm *ga = &g->arms[a];
			if ((int)a == g->baseline || !isfinite(ga->load.est))
				continue;
			char c[64], an[96];
			ci_text(c, sizeof(c), &ga->load, fleet_ratio_text);
			fputs("  ", f);
			cell(f, arm_name(g, a, an, sizeof(an)), 12);
			fprintf(f, " %s x, %zu machine%s%s\n", c, ga->load_paired,
				ga->load_paired == 1 ? "" : "s", ga->load_ok ? "" : ": starves the load");
		}
	}
}

/* The ranking of the arms. */
static void text_ranking(FILE *f, const struct fleet_group *g)
{
	if (g->n_arms > 1 && g->baseline >= 0) {
		fputs("ranking (geometric mean of the p90 ratios under load, lower is better):", f);
		size_t col = 72;
		for (size_t k = 0; k < g->n_ranked; k++) {
			const struct fleet_garm *ga = &g->arms[g->ranking[k]];
			char s[16], e[480];
			fleet_ratio_text(s, sizeof(s), ga->score);
			char lab[4 * 96 + 1], an[96];
			text_escape(lab, sizeof(lab), arm_name(g, g->ranking[k], an, sizeof(an)));
			snprintf(e, sizeof(e), " %zu. %s %s%s", k + 1, lab, s,
				 ga->load_ok ? "" : " (starves the load)");
			if (col + strlen(e) > COLS) {
				fputs("\n ", f);
				col = 1;
			}
			fputs(e, f);
			col += strlen(e);
		}
		fputc('\n', f);
	}
}

static void text_group(FILE *f, const struct fleet_report *rep, const struct fleet_group *g)
{
	text_head(f, rep, g);
	text_table(f, g);
	text_notes(f, g);
	text_load(f, g);
	text_ranking(f, g);
	if (g->warm || g->failed || g->other_epochs)
		fprintf(f, "left out: %u warm, %u failed, %u after a setting change (--at)\n", g->warm,
			g->failed, g->other_epochs);
	char pre[FLEET_KEY_LEN * 4 + 32];
	text_escape(pre, sizeof(pre) - 20, g->key);
	strcat(pre, ": ");
	char hdr[FLEET_KEY_LEN * 4 + 64];
	snprintf(hdr, sizeof(hdr), "recommendation: %s", pre);
	char rec[FLEET_REC_TEXT];
	fleet_recommendation_text(rec, sizeof(rec), g);
	wrap(f, hdr, "  ", rec);
}

void fleet_text(FILE *f, const struct fleet_report *rep)
{
	size_t nrun = 0, ncmp = 0;
	for (size_t i = 0; i < rep->n_groups; i++) {
		nrun += rep->groups[i].n_run;
		ncmp += rep->groups[i].n_compare;
	}
	fprintf(f, "brisk %s report: %zu result%s (%zu run, %zu compare) from %zu machine%s, by %s",
		BRISK_VERSION, rep->n_results, rep->n_results == 1 ? "" : "s", nrun, ncmp,
		rep->n_machines, rep->n_machines == 1 ? "" : "s", fleet_by_name(rep->opt.by));
	if (rep->n_skipped)
		fprintf(f, "; %zu file%s skipped", rep->n_skipped, rep->n_skipped == 1 ? "" : "s");
	fputc('\n', f);
	fputs(rep->opt.trust_files ? "machines: as the files claim (--trust-file-identity): any file "
	      "can claim to be any machine\n" : "machines: by host folder (HOST/NAME.json; a file "
	      "claiming another machine than its folder is left out)\n", f);
	char b[1024];
	snprintf(b, sizeof(b), "seed %llu; the machine is the unit: medians (p50) and p90 pool every "
		 "cold sample, with 95%% two-stage bootstrap intervals (machines, then their "
		 "samples); ratio = arm / baseline, the median of the machines' own ratios of "
		 "medians (each within [1/%g, %g], times of at least %g ms) over the machines that "
		 "measured both; agree = machines whose own ratio is on its side of 1; a verdict "
		 "needs the interval clear of 1, most paired machines on that side and %d of them "
		 "at least (few: fewer)", (unsigned long long)rep->opt.seed, FLEET_MAX_RATIO,
		 FLEET_MAX_RATIO, FLEET_MIN_MS, FLEET_MIN_MACHINES);
	wrap(f, "", "  ", b);
	for (size_t i = 0; i < rep->n_groups; i++)
		text_group(f, rep, &rep->groups[i]);
	if (rep->n_skipped) {
		fprintf(f, "\nskipped (%zu):\n", rep->n_skipped);
		for (size_t i = 0; i < rep->n_skipped; i++) {
			fputs("  ", f);
			cell(f, rep->skipped[i].path, 0);
			fputs(": ", f);
			cell(f, rep->skipped[i].why, 0);
			fputc('\n', f);
		}
	}
	if (rep->n_groups > 1) {
		fputs("\nrecommendations:\n", f);
		for (size_t i = 0; i < rep->n_groups; i++) {
			char pre[FLEET_KEY_LEN * 4 + 8];
			text_escape(pre + 2, sizeof(pre) - 6, rep->groups[i].key);
			pre[0] = pre[1] = ' ';
			strcat(pre, ": ");
			char rec[FLEET_REC_TEXT];
			fleet_recommendation_text(rec, sizeof(rec), &rep->groups[i]);
			wrap(f, pre, "    ", rec);
		}
	}
}

/* ---- JSON ---- */

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *json_group(const struct fleet_group *g)
{
	struct json_object *o = jout_object();
	add(o, "key", jout_string(g->key));
	struct json_object *ms = jout_array();
	for (size_t m = 0; m < g->n_machines; m++)
		json_object_array_add(ms, jout_string(g->machines[m]));
	add(o, "machines", ms);
	add(o, "results", jout_uint64(g->n_results));
	add(o, "run_results", jout_uint64(g->n_run));
	add(o, "compare_results", jout_uint64(g->n_compare));
	add(o, "baseline", g->baseline >= 0 ? jout_string(g->arms[g->baseline].label) : NULL);
	add(o, "comparisons", jout_uint64(g->comparisons));
	add(o, "ratio_level", jout_finite(g->ratio_level));
	add(o, "workloads", jout_string(g->workloads));
	add(o, "load_disk_files", jout_uint64(g->load_disk_files));
	add(o, "load_calls_files", jout_uint64(g->load_calls_files));
	add(o, "multi_disk_machines", jout_string(g->multi_disk));
	struct json_object *lo = jout_object();
	add(lo, "warm", jout_uint64(g->warm));
	add(lo, "failed", jout_uint64(g->failed));
	add(lo, "other_epochs", jout_uint64(g->other_epochs));
	add(o, "left_out", lo);
	struct json_object *arms = jout_array();
	for (size_t a = 0; a < g->n_arms; a++) {
		const struct fleet_garm *ga = &g->arms[a];
		struct json_object *x = jout_object();
		add(x, "label", jout_string(ga->label));
		add(x, "settings", jout_string(ga->key));
		add(x, "machines", jout_uint64(ga->machines));
		add(x, "first_on", jout_uint64(ga->first_on));
		add(x, "load_ratio", jout_ci(&ga->load));
		add(x, "load_machines", jout_uint64(ga->load_paired));
		add(x, "load_ok", jout_bool(ga->load_ok));
		add(x, "score", jout_finite(ga->score));
		add(x, "outside_default_range", ga->outside[0] ? jout_string(ga->outside) : NULL);
		json_object_array_add(arms, x);
	}
	add(o, "arms", arms);
	struct json_object *rows = jout_array();
	for (size_t i = 0; i < g->n_rows; i++) {
		const struct fleet_row *r = &g->rows[i];
		struct json_object *x = jout_object();
		add(x, "phase", jout_string(fleet_phase_name(r->phase)));
		add(x, "action", jout_string(action_kind_name((enum action_kind)r->action)));
		add(x, "arm", jout_string(g->arms[r->arm].label));
		add(x, "settings", jout_string(g->arms[r->arm].key));
		add(x, "machines", jout_uint64(r->machines));
		add(x, "samples", jout_uint64(r->samples));
		add(x, "p50_ms", jout_ci(&r->p50));
		add(x, "p90_ms", jout_ci(&r->p90));
		add(x, "ratio_p50", jout_ci(&r->ratio50));
		add(x, "ratio_p90", jout_ci(&r->ratio90));
		add(x, "paired", jout_uint64(r->paired));
		add(x, "agree", jout_uint64(r->agree));
		add(x, "faster_machines", jout_uint64(r->n_faster));
		add(x, "slower_machines", jout_uint64(r->n_slower));
		struct json_object *dis = jout_array();
		for (size_t k = 0; k < r->n_disagree; k++)
			json_object_array_add(dis, jout_string(g->machines[r->disagree[k]]));
		add(x, "disagree", dis);
		add(x, "verdict", jout_string(row_verdict(g, r, 0)));
		json_object_array_add(rows, x);
	}
	add(o, "rows", rows);
	struct json_object *rk = jout_array();
	for (size_t k = 0; k < g->n_ranked; k++)
		json_object_array_add(rk, jout_string(g->arms[g->ranking[k]].label));
	add(o, "ranking", rk);
	struct json_object *rec = jout_object();
	add(rec, "arm", g->best >= 0 ? jout_string(g->arms[g->best].label) : NULL);
	add(rec, "settings", g->best >= 0 ? jout_string(g->arms[g->best].key) : NULL);
	char text[FLEET_REC_TEXT];
	fleet_recommendation_text(text, sizeof(text), g);
	add(rec, "text", jout_string(text));
	add(o, "recommendation", rec);
	return o;
}

int fleet_json(const struct fleet_report *rep, const char *path, char *err, size_t errlen)
{
	struct json_object *root = jout_object();
	add(root, "brisk_version", jout_string(BRISK_VERSION));
	add(root, "kind", jout_string("report"));
	add(root, "format_version", jout_int64(FLEET_FORMAT_VERSION));
	add(root, "by", jout_string(fleet_by_name(rep->opt.by)));
	add(root, "identity", jout_string(rep->opt.trust_files ? "file" : "host folder"));
	add(root, "seed", jout_uint64(rep->opt.seed));
	add(root, "level", jout_finite(FLEET_LEVEL));
	add(root, "min_machines", jout_int64(FLEET_MIN_MACHINES));
	add(root, "results", jout_uint64(rep->n_results));
	add(root, "machines", jout_uint64(rep->n_machines));
	struct json_object *sk = jout_array();
	for (size_t i = 0; i < rep->n_skipped; i++) {
		struct json_object *x = jout_object();
		add(x, "file", jout_path(rep->skipped[i].path, 0));
		add(x, "why", jout_string(rep->skipped[i].why));
		json_object_array_add(sk, x);
	}
	add(root, "skipped", sk);
	struct json_object *gs = jout_array();
	for (size_t i = 0; i < rep->n_groups; i++)
		json_object_array_add(gs, json_group(&rep->groups[i]));
	add(root, "groups", gs);
	return jout_save(path, root, err, errlen);
}

/* ---- CSV ---- */

int fleet_csv(const struct fleet_report *rep, const char *path, char *err, size_t errlen)
{
	struct outfile o;
	int rc = outfile_open(&o, path, err, errlen), bad = 0;
	if (rc < 0)
		return rc;
	FILE *f = o.f;
	fprintf(f, "group,phase,action,arm,settings,machines,samples,p50_ms,p50_lo,p50_hi,p90_ms,"
		"p90_lo,p90_hi,ratio_p50,ratio_p50_lo,ratio_p50_hi,ratio_p90,ratio_p90_lo,"
		"ratio_p90_hi,paired,agree,verdict,disagree\n");
	for (size_t i = 0; !bad && i < rep->n_groups; i++) {
		const struct fleet_group *g = &rep->groups[i];
		for (size_t k = 0; !bad && k < g->n_rows; k++) {
			const struct fleet_row *r = &g->rows[k];
			bad |= csv_text(f, g->key) < 0;
			fprintf(f, ",%s,%s,", fleet_phase_name(r->phase),
				action_kind_name((enum action_kind)r->action));
			bad |= csv_text(f, g->arms[r->arm].label) < 0;
			fputc(',', f);
			bad |= csv_text(f, g->arms[r->arm].key) < 0;
			fprintf(f, ",%zu,%zu", r->machines, r->samples);
			const struct stats_ci *c[4] = { &r->p50, &r->p90, &r->ratio50, &r->ratio90 };
			for (int j = 0; j < 4; j++) {
				const double v[3] = { c[j]->est, c[j]->lo, c[j]->hi };
				for (int x = 0; x < 3; x++) {
					fputc(',', f);
					csv_num(f, v[x], 6);
				}
			}
			fprintf(f, ",%zu,%zu,%s,", r->paired, r->agree, row_verdict(g, r, 0));
			char who[4096];
			fleet_disagree_text(who, sizeof(who), g, r, 0);
			bad |= csv_text(f, who) < 0;
			fputc('\n', f);
		}
	}
	rc = outfile_close(&o, !bad, 1, NULL, err, errlen);
	return bad ? msg_fail(-ENOMEM, err, errlen, "out of memory") : rc;
}
