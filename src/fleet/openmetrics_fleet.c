/* openmetrics_fleet — brisk report's key figures as OpenMetrics
 * (openmetrics.h), from the pooled fleet_report only.
 *
 * Every family carries by (the grouping: class, model, model,firmware,
 * machine, kernel); per group + group (its key: "rotational", a model
 * string, a host name: text from other machines' files, escaped by the
 * writer); per arm + arm (its label), settings (its key); per row + phase,
 * action:
 *
 *   brisk_info                                    (openmetrics_info, dir "", by)
 *   brisk_report_timestamp_seconds {by}           when the report was made
 *   brisk_report_results, brisk_report_machines, brisk_report_skipped_files {by}
 *   brisk_report_file_identity {by}               1 with --trust-file-identity
 *   per group: brisk_fleet_group_machines, brisk_fleet_group_results,
 *              brisk_fleet_ratio_level (the simultaneous level of its intervals)
 *   per arm:   brisk_fleet_arm_machines, brisk_fleet_baseline (1 for it),
 *              brisk_fleet_load_ratio + bound (load against the baseline),
 *              brisk_fleet_score_ratio, brisk_fleet_rank (1 = best),
 *              brisk_fleet_load_ok, brisk_fleet_recommended (1/0),
 *              brisk_fleet_outside_default_range (1/0)
 *   per row:   brisk_fleet_machines, brisk_fleet_samples,
 *              brisk_fleet_latency_seconds + stat (p50, p90), bound
 *              brisk_fleet_latency_ratio + stat (p50, p90), bound (the
 *                median of the paired machines' own bounded ratios)
 *              brisk_fleet_paired_machines, brisk_fleet_agreeing_machines,
 *              brisk_fleet_disagreeing_machines
 *              brisk_fleet_verdict + verdict (faster, slower, no_difference):
 *                1/0, only where enough machines decide (FLEET_MIN_MACHINES)
 */
#include "openmetrics.h"
#include "openmetrics_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "fleet.h"
#include "msg.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct fleet_ctx {
	const struct fleet_report *rep;
	struct openmetrics_where w;
	const char *by;
};

static void fleet_head(struct openmetrics *om, const struct fleet_ctx *x)
{
	const struct fleet_report *rep = x->rep;
	const struct openmetrics_label l[] = { { "by", x->by } };
	openmetrics_family(om, "brisk_report_timestamp_seconds", "seconds",
			   "When the report was made (Unix time).");
	openmetrics_sample(om, l, 1, openmetrics_realtime());
	openmetrics_family(om, "brisk_report_results", NULL, "Result files read.");
	openmetrics_sample(om, l, 1, (double)rep->n_results);
	openmetrics_family(om, "brisk_report_machines", NULL, "Machines the results came from.");
	openmetrics_sample(om, l, 1, (double)rep->n_machines);
	openmetrics_family(om, "brisk_report_skipped_files", NULL,
			   "Files that could not be read, or whose machine was not certain, left out.");
	openmetrics_sample(om, l, 1, (double)rep->n_skipped);
	openmetrics_family(om, "brisk_report_file_identity", NULL,
			   "1 when each file's machine was taken as the file claims it "
			   "(--trust-file-identity), 0 when from its host folder.");
	openmetrics_sample(om, l, 1, rep->opt.trust_files != 0);
}

static void fleet_groups(struct openmetrics *om, const struct fleet_ctx *x)
{
	const struct fleet_report *rep = x->rep;
	static const char *const fam[][3] = {
		{ "brisk_fleet_group_machines", NULL, "Machines in the group." },
		{ "brisk_fleet_group_results", NULL, "Result files in the group." },
		{ "brisk_fleet_ratio_level", NULL,
		  "The simultaneous confidence level of the group's ratio intervals." },
	};
	for (size_t f = 0; f < N(fam); f++) {
		openmetrics_family(om, fam[f][0], fam[f][1], fam[f][2]);
		for (size_t i = 0; i < rep->n_groups; i++) {
			const struct fleet_group *g = &rep->groups[i];
			const double v[] = { (double)g->n_machines, (double)g->n_results,
					     g->comparisons ? g->ratio_level : NAN };
			const struct openmetrics_label l[] = { { "by", x->by }, { "group", g->key } };
			openmetrics_sample(om, l, N(l), v[f]);
		}
	}
}

#define ARM_LABELS 4
static void arm_labels(const struct fleet_ctx *x, const struct fleet_group *g, size_t a,
		       struct openmetrics_label *l)
{
	const struct openmetrics_label al[] = {
		{ "by", x->by }, { "group", g->key }, { "arm", g->arms[a].label },
		{ "settings", g->arms[a].key },
	};
	memcpy(l, al, sizeof(al));
}

static void fleet_arms(struct openmetrics *om, const struct fleet_ctx *x)
{
	const struct fleet_report *rep = x->rep;
	struct openmetrics_label l[ARM_LABELS + 1];
	static const char *const fam[][3] = {
		{ "brisk_fleet_arm_machines", NULL, "Machines that measured the setting." },
		{ "brisk_fleet_baseline", NULL, "1 for the group's baseline setting." },
		{ "brisk_fleet_score_ratio", "ratio",
		  "The ranking's score: geometric mean of the p90 ratios over the loaded actions "
		  "(baseline 1, lower is better)." },
		{ "brisk_fleet_rank", NULL, "The setting's place in the group's ranking, 1 = best." },
		{ "brisk_fleet_load_ok", NULL,
		  "1 when the setting keeps the load within the tolerance (or it is unknown)." },
		{ "brisk_fleet_recommended", NULL, "1 for the setting the report recommends." },
		{ "brisk_fleet_outside_default_range", NULL,
		  "1 when the setting has a value outside the range a distribution default may "
		  "carry (not saved into a class rule without --force)." },
	};
	for (size_t f = 0; f < N(fam); f++) {
		openmetrics_family(om, fam[f][0], fam[f][1], fam[f][2]);
		for (size_t i = 0; i < rep->n_groups; i++) {
			const struct fleet_group *g = &rep->groups[i];
			for (size_t a = 0; a < g->n_arms; a++) {
				double rank = NAN;
				for (size_t k = 0; k < g->n_ranked; k++)
					if (g->ranking[k] == a)
						rank = (double)(k + 1);
				const double v[] = { (double)g->arms[a].machines, g->baseline == (int)a,
						     g->arms[a].score, rank, g->arms[a].load_ok != 0,
						     g->best == (int)a, g->arms[a].outside[0] != '\0' };
				arm_labels(x, g, a, l);
				openmetrics_sample(om, l, ARM_LABELS, v[f]);
			}
		}
	}
	openmetrics_family(om, "brisk_fleet_load_ratio", "ratio",
			   "The load's throughput against the baseline's, the median of the paired "
			   "machines' own bounded ratios, with its interval (bound).");
	for (size_t i = 0; i < rep->n_groups; i++) {
		const struct fleet_group *g = &rep->groups[i];
		for (size_t a = 0; a < g->n_arms; a++) {
			if (g->baseline == (int)a)
				continue;
			arm_labels(x, g, a, l);
			openmetrics_ci(om, l, ARM_LABELS, &g->arms[a].load, 1);
		}
	}
}

#define ROW_LABELS (ARM_LABELS + 2)
static void row_labels(const struct fleet_ctx *x, const struct fleet_group *g,
		       const struct fleet_row *r, struct openmetrics_label *l)
{
	arm_labels(x, g, r->arm, l);
	l[ARM_LABELS] = (struct openmetrics_label){ "phase", fleet_phase_name(r->phase) };
	l[ARM_LABELS + 1] = (struct openmetrics_label){ "action",
							action_kind_name((enum action_kind)r->action) };
}

#define ROWS for (size_t i = 0; i < rep->n_groups; i++) \
		for (size_t j = 0; j < rep->groups[i].n_rows; j++)
#define G (&rep->groups[i])
#define R (&rep->groups[i].rows[j])

static void fleet_rows(struct openmetrics *om, const struct fleet_ctx *x)
{
	const struct fleet_report *rep = x->rep;
	struct openmetrics_label l[ROW_LABELS + 2];
	static const char *const counts[][2] = {
		{ "brisk_fleet_machines", "Machines with samples of the setting and action." },
		{ "brisk_fleet_samples", "Samples pooled (cold, without an error)." },
		{ "brisk_fleet_paired_machines", "Machines that measured both the setting and the "
		  "baseline." },
		{ "brisk_fleet_agreeing_machines", "Paired machines whose own ratio is on the pooled "
		  "ratio's side of 1." },
		{ "brisk_fleet_disagreeing_machines", "Paired machines whose own ratio is not on the "
		  "pooled ratio's side of 1 (named in the text and JSON reports)." },
	};
	for (size_t f = 0; f < N(counts); f++) {
		openmetrics_family(om, counts[f][0], NULL, counts[f][1]);
		ROWS {
			const int base = (int)R->arm == G->baseline;
			const double v[] = { (double)R->machines, (double)R->samples,
					     base ? NAN : (double)R->paired,
					     base ? NAN : (double)R->agree,
					     base ? NAN : (double)R->n_disagree };
			row_labels(x, G, R, l);
			openmetrics_sample(om, l, ROW_LABELS, v[f]);
		}
	}
	openmetrics_family(om, "brisk_fleet_latency_seconds", "seconds",
			   "The pooled median and p90 (stat) of every machine's samples, with a "
			   "two-stage bootstrap interval over machines, then samples (bound).");
	ROWS {
		row_labels(x, G, R, l);
		l[ROW_LABELS] = (struct openmetrics_label){ "stat", "p50" };
		openmetrics_ci(om, l, ROW_LABELS + 1, &R->p50, 1 / 1000.0);
		l[ROW_LABELS] = (struct openmetrics_label){ "stat", "p90" };
		openmetrics_ci(om, l, ROW_LABELS + 1, &R->p90, 1 / 1000.0);
	}
	openmetrics_family(om, "brisk_fleet_latency_ratio", "ratio",
			   "Against the baseline: the median of the paired machines' own ratios of "
			   "medians (p50) or p90s, each bounded, with its simultaneous interval (bound).");
	ROWS {
		if ((int)R->arm == G->baseline)
			continue;
		row_labels(x, G, R, l);
		l[ROW_LABELS] = (struct openmetrics_label){ "stat", "p50" };
		openmetrics_ci(om, l, ROW_LABELS + 1, &R->ratio50, 1);
		l[ROW_LABELS] = (struct openmetrics_label){ "stat", "p90" };
		openmetrics_ci(om, l, ROW_LABELS + 1, &R->ratio90, 1);
	}
	openmetrics_family(om, "brisk_fleet_verdict", NULL,
			   "The verdict against the baseline where enough machines measured both: 1 "
			   "for its state (faster, slower, no_difference), 0 for the others.");
	static const struct {
		enum stats_verdict v;
		const char *name;
	} states[] = { { STATS_FASTER, "faster" }, { STATS_SLOWER, "slower" },
		       { STATS_NO_DIFFERENCE, "no_difference" } };
	ROWS {
		if ((int)R->arm == G->baseline || !R->decided || !isfinite(R->ratio50.est))
			continue;
		row_labels(x, G, R, l);
		for (size_t k = 0; k < N(states); k++) {
			l[ROW_LABELS] = (struct openmetrics_label){ "verdict", states[k].name };
			openmetrics_sample(om, l, ROW_LABELS + 1, R->verdict == states[k].v);
		}
	}
}
#undef ROWS
#undef G
#undef R

static int fleet_write(struct openmetrics *om, const void *ctx)
{
	const struct fleet_ctx *x = ctx;
	openmetrics_info(om, "report", "", x->by, &x->w);
	fleet_head(om, x);
	fleet_groups(om, x);
	fleet_arms(om, x);
	fleet_rows(om, x);
	return om->err;
}

int openmetrics_fleet(const struct fleet_report *rep, const char *path, char *err,
		      size_t errlen)
{
	struct fleet_ctx *x = calloc(1, sizeof(*x));
	if (!x)
		return msg_fail(-ENOMEM, err, errlen, "%s: out of memory", path);
	x->rep = rep;
	x->by = fleet_by_name(rep->opt.by);
	openmetrics_where_get(&x->w, NULL, NULL, 0);
	int rc = openmetrics_write(path, fleet_write, x, err, errlen);
	free(x);
	return rc;
}
