/* openmetrics_compare — brisk compare's key figures as OpenMetrics
 * (openmetrics.h), from the compare_result only.
 *
 * Every arm's family carries dir, device, model (the leaf disks behind
 * dir), arm (its short label: "bfq", "current"), settings (what it sets,
 * "" for current) and scheduler (the one it sets, else the one the disks
 * have once every setting was put back: the current arm's):
 *
 *   brisk_info, brisk_disk_info                   (openmetrics_info)
 *   brisk_compare_timestamp_seconds  {dir}        wall clock at the end
 *   brisk_compare_duration_seconds, brisk_compare_rounds,
 *   brisk_compare_stopped_early, brisk_compare_interrupted,
 *   brisk_compare_alpha              {dir}
 *   per arm:
 *   brisk_compare_arm_runs, brisk_compare_failed_runs,
 *   brisk_compare_load_throughput_bytes_per_second  + bound (estimate, lower, upper)
 *   brisk_compare_worst_stall_seconds,
 *   brisk_compare_score_ratio        the ranking's score (geometric mean of p90 ratios)
 *   brisk_compare_rank               1 = best (the ranking's order)
 *   brisk_compare_load_ok            1 when it keeps the load within the tolerance
 *   brisk_compare_recommended        1 for the recommended arm, else 0
 *   per arm and action (+ action):
 *   brisk_compare_latency_seconds    + stat (min p50 p90 p99 max mean), bound
 *                                      (p50..max have bootstrap intervals)
 *   brisk_compare_samples, brisk_compare_timeouts, brisk_compare_errors,
 *   brisk_compare_warm_samples
 *   brisk_compare_latency_ratio      + stat (runs: the typical arm-run, what
 *                                      the verdict rests on; p50; p90), bound
 *   brisk_compare_p_adjusted         Holm-adjusted p of the test
 *   brisk_compare_verdict            + verdict (faster, slower, equivalent, undecided): 1/0
 *   brisk_compare_time_share_ratio   + part: where the time went, each part's
 *                                      mean share (samples measured whole)
 *   brisk_compare_time_median_seconds  + part: the median sample's parts
 * The baseline (arm 0) has no ratio, p or verdict; a cell without a
 * breakdown has no time_share or time_median.
 */
#include "openmetrics.h"
#include "openmetrics_priv.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "msg.h"
#include "tunable.h"

#define MiB (1024.0 * 1024.0)
#define N(a) (sizeof(a) / sizeof((a)[0]))

struct cmp_ctx {
	const struct compare_result *r;
	struct openmetrics_where w;
	char dir[PATH_MAX];
	char sched[COMPARE_MAX_ARMS][OPENMETRICS_LIST];
};

#define ARM(x, a) { "dir", (x)->dir }, { "device", (x)->w.devices }, \
		  { "model", (x)->w.models }, { "arm", (x)->r->arms[a].label }, \
		  { "settings", (x)->r->arms[a].settings }, { "scheduler", (x)->sched[a] }
#define ARM_LABELS 6

static void cmp_head(struct openmetrics *om, const struct cmp_ctx *x)
{
	const struct compare_result *r = x->r;
	const struct openmetrics_label d[] = { { "dir", x->dir } };
	double end = r->t_start_real ? (double)r->t_start_real + (double)r->t_ns / 1e9
				     : openmetrics_realtime();
	openmetrics_family(om, "brisk_compare_timestamp_seconds", "seconds",
			   "When the comparison ended (Unix time): how old these figures are.");
	openmetrics_sample(om, d, 1, end);
	openmetrics_family(om, "brisk_compare_duration_seconds", "seconds",
			   "How long the comparison took.");
	openmetrics_sample(om, d, 1, (double)r->t_ns / 1e9);
	openmetrics_family(om, "brisk_compare_rounds", NULL, "Rounds done (every arm once each).");
	openmetrics_sample(om, d, 1, r->rounds_done);
	openmetrics_family(om, "brisk_compare_stopped_early", NULL,
			   "1 when every verdict was settled at a look before the last round.");
	openmetrics_sample(om, d, 1, r->stopped_early != 0);
	openmetrics_family(om, "brisk_compare_interrupted", NULL,
			   "1 when a signal or a stop ended the comparison early.");
	openmetrics_sample(om, d, 1, r->stop_signal || r->stop_requested);
	openmetrics_family(om, "brisk_compare_alpha", NULL,
			   "The family-wise false-positive rate the verdicts keep.");
	openmetrics_sample(om, d, 1, r->alpha);
}

static void cmp_arms(struct openmetrics *om, const struct cmp_ctx *x)
{
	const struct compare_result *r = x->r;
	struct openmetrics_label l[ARM_LABELS + 1];
	static const char *const fam[][3] = {
		{ "brisk_compare_arm_runs", NULL, "Arm-runs of the arm." },
		{ "brisk_compare_failed_runs", NULL, "Arm-runs of the arm that failed." },
		{ "brisk_compare_worst_stall_seconds", "seconds",
		  "The load's worst single call over the arm's runs." },
		{ "brisk_compare_score_ratio", "ratio",
		  "The ranking's score: geometric mean of the arm's p90 ratios over the actions "
		  "(baseline 1, lower is better)." },
		{ "brisk_compare_rank", NULL, "The arm's place in the ranking, 1 = best." },
		{ "brisk_compare_load_ok", NULL,
		  "1 when the arm keeps the load's throughput within the tolerance (else it "
		  "starves the load and ranks last)." },
		{ "brisk_compare_recommended", NULL, "1 for the arm the comparison recommends." },
	};
	for (size_t f = 0; f < N(fam); f++) {
		openmetrics_family(om, fam[f][0], fam[f][1], fam[f][2]);
		for (size_t a = 0; a < r->n_arms; a++) {
			const struct compare_armstat *st = &r->armstat[a];
			double rank = NAN;
			for (size_t k = 0; k < r->n_ranked; k++)
				if (r->ranking[k] == a)
					rank = (double)(k + 1);
			const double v[] = { (double)st->runs, (double)st->failed_runs,
					     st->worst_stall_ms / 1000.0, st->score, rank,
					     st->load_ok != 0, r->best == (int)a };
			const struct openmetrics_label al[] = { ARM(x, a) };
			memcpy(l, al, sizeof(al));
			openmetrics_sample(om, l, ARM_LABELS, v[f]);
		}
	}
	openmetrics_family(om, "brisk_compare_load_throughput_bytes_per_second", "bytes_per_second",
			   "The loads' own read()/write() rate over each arm-run's load window, "
			   "page-cache bursts included: mean over the arm's runs, with its 95 % "
			   "interval (bound).");
	for (size_t a = 0; a < r->n_arms; a++) {
		const struct openmetrics_label al[] = { ARM(x, a) };
		memcpy(l, al, sizeof(al));
		openmetrics_ci(om, l, ARM_LABELS, &r->armstat[a].load_mibps, MiB);
	}
	openmetrics_family(om, "brisk_compare_load_disk_throughput_bytes_per_second",
			   "bytes_per_second", "What reached the disk for the loads over each "
			   "arm-run's load window (the file system device's counters; the figure "
			   "the load rule goes by): mean over the arm's runs, with its 95 % "
			   "interval (bound).");
	for (size_t a = 0; a < r->n_arms; a++) {
		const struct openmetrics_label al[] = { ARM(x, a) };
		memcpy(l, al, sizeof(al));
		openmetrics_ci(om, l, ARM_LABELS, &r->armstat[a].disk_mibps, MiB);
	}
}

static void cmp_cells(struct openmetrics *om, const struct cmp_ctx *x)
{
	const struct compare_result *r = x->r;
	struct openmetrics_label l[ARM_LABELS + 3];
	/* one block per family: every arm x action with samples or counts */
#define CELLS for (size_t a = 0; a < r->n_arms; a++) \
		for (unsigned k = 0; k < ACTION_KIND_COUNT; k++) \
			if (r->actions & (1u << k))
#define CELL_LABELS(a, k) do { \
		const struct openmetrics_label al[] = { ARM(x, a), \
			{ "action", action_kind_name((enum action_kind)(k)) } }; \
		memcpy(l, al, sizeof(al)); \
	} while (0)
	openmetrics_family(om, "brisk_compare_latency_seconds", "seconds",
			   "How long the action took under the arm, its cold samples pooled (stat: "
			   "min, p50, p90, p99, max, mean; bound: the bootstrap 95 % interval of "
			   "p50..max).");
	CELLS {
		const struct compare_cell *c = &r->cells[a][k];
		if (!c->n)
			continue;
		CELL_LABELS(a, k);
		const struct {
			const char *stat;
			const struct stats_ci *ci;
			double plain;
		} st[] = {
			{ "min", NULL, c->min }, { "p50", &c->p50, 0 }, { "p90", &c->p90, 0 },
			{ "p99", &c->p99, 0 }, { "max", &c->pmax, 0 }, { "mean", NULL, c->mean },
		};
		for (size_t i = 0; i < N(st); i++) {
			l[ARM_LABELS + 1] = (struct openmetrics_label){ "stat", st[i].stat };
			if (st[i].ci) {
				openmetrics_ci(om, l, ARM_LABELS + 2, st[i].ci, 1 / 1000.0);
			} else {
				l[ARM_LABELS + 2] = (struct openmetrics_label){ "bound", "estimate" };
				openmetrics_sample(om, l, ARM_LABELS + 3, st[i].plain / 1000.0);
			}
		}
	}
	static const char *const counts[][2] = {
		{ "brisk_compare_samples", "Cold samples in the arm's figures (a timed-out one counts "
		  "at the watchdog limit)." },
		{ "brisk_compare_timeouts", "Samples killed at the watchdog limit." },
		{ "brisk_compare_errors", "Samples that failed, left out." },
		{ "brisk_compare_warm_samples", "Samples that were not cold, left out (unless "
		  "--keep-warm)." },
	};
	for (size_t f = 0; f < N(counts); f++) {
		openmetrics_family(om, counts[f][0], NULL, counts[f][1]);
		CELLS {
			const struct compare_cell *c = &r->cells[a][k];
			const double v[] = { (double)c->n, c->timeouts, c->errors, c->warm };
			CELL_LABELS(a, k);
			openmetrics_sample(om, l, ARM_LABELS + 1, v[f]);
		}
	}
	openmetrics_family(om, "brisk_compare_latency_ratio", "ratio",
			   "The arm over the baseline (below 1 is faster), with its 95 % interval "
			   "(bound); stat runs: the typical arm-run (the verdict rests on it), p50 and "
			   "p90: the pooled quantiles.");
	CELLS {
		const struct compare_cell *c = &r->cells[a][k];
		if (!a)
			continue;
		CELL_LABELS(a, k);
		const struct {
			const char *stat;
			const struct stats_ci *ci;
		} st[] = { { "runs", &c->ratio_runs }, { "p50", &c->ratio50 }, { "p90", &c->ratio90 } };
		for (size_t i = 0; i < N(st); i++) {
			l[ARM_LABELS + 1] = (struct openmetrics_label){ "stat", st[i].stat };
			openmetrics_ci(om, l, ARM_LABELS + 2, st[i].ci, 1);
		}
	}
	openmetrics_family(om, "brisk_compare_p_adjusted", NULL,
			   "Holm-adjusted p of the test against the baseline (Welch on the log of "
			   "the arm-runs' geometric means).");
	CELLS {
		if (!a)
			continue;
		CELL_LABELS(a, k);
		openmetrics_sample(om, l, ARM_LABELS + 1, r->cells[a][k].p_adj);
	}
	openmetrics_family(om, "brisk_compare_verdict", NULL,
			   "The verdict against the baseline: 1 for its state (faster, slower, "
			   "equivalent, undecided), 0 for the others.");
	static const struct {
		enum stats_verdict v;
		const char *name;
	} states[] = { { STATS_FASTER, "faster" }, { STATS_SLOWER, "slower" },
		       { STATS_EQUIVALENT, "equivalent" }, { STATS_NO_DIFFERENCE, "undecided" } };
	CELLS {
		const struct compare_cell *c = &r->cells[a][k];
		if (!a || !c->n)
			continue;
		CELL_LABELS(a, k);
		for (size_t i = 0; i < N(states); i++) {
			l[ARM_LABELS + 1] = (struct openmetrics_label){ "verdict", states[i].name };
			openmetrics_sample(om, l, ARM_LABELS + 2, c->verdict == states[i].v);
		}
	}
#undef CELLS
#undef CELL_LABELS
}

/* Where the time went, per arm and action (compare_split.h). */
static void cmp_splits(struct openmetrics *om, const struct cmp_ctx *x)
{
	const struct compare_result *r = x->r;
	struct openmetrics_label l[ARM_LABELS + 2];
	for (int median = 0; median < 2; median++) {
		if (median)
			openmetrics_family(om, "brisk_compare_time_median_seconds", "seconds",
					   "Where the time went: the parts of the median sample "
					   "(by its wall time) of those measured whole.");
		else
			openmetrics_family(om, "brisk_compare_time_share_ratio", "ratio",
					   "Where the time went: each part's mean share of the "
					   "samples' time (part: cpu, runq, device, queued, admit, "
					   "throttled, blocked, sleep), over the samples of the "
					   "arm's figures measured whole.");
		for (size_t a = 0; a < r->n_arms; a++)
			for (unsigned k = 0; k < ACTION_KIND_COUNT; k++) {
				const struct compare_split *s = &r->splits[a][k];
				if (!(r->actions & (1u << k)) || !s->n || (median && !s->has_median))
					continue;
				const struct openmetrics_label al[] = {
					ARM(x, a), { "action", action_kind_name((enum action_kind)k) }
				};
				memcpy(l, al, sizeof(al));
				for (int p = 0; p < TIMESPLIT_NPARTS; p++) {
					l[ARM_LABELS + 1] = (struct openmetrics_label){
						"part", timesplit_key(p) };
					openmetrics_sample(om, l, ARM_LABELS + 2, median ?
							   (double)s->median.part_ns[p] / 1e9 :
							   s->share[p]);
				}
			}
	}
}

static int cmp_write(struct openmetrics *om, const void *ctx)
{
	const struct cmp_ctx *x = ctx;
	openmetrics_info(om, "compare", x->dir, "", &x->w);
	cmp_head(om, x);
	cmp_arms(om, x);
	cmp_cells(om, x);
	cmp_splits(om, x);
	return om->err;
}

int openmetrics_compare(const struct compare_result *r, const char *path, char *err,
			size_t errlen)
{
	struct cmp_ctx *x = calloc(1, sizeof(*x));
	if (!x)
		return msg_fail(-ENOMEM, err, errlen, "%s: out of memory", path);
	x->r = r;
	openmetrics_dir(x->dir, sizeof(x->dir), r->dir);
	openmetrics_where_get(&x->w, r->dir, NULL, 0);
	for (size_t a = 0; a < r->n_arms && a < COMPARE_MAX_ARMS; a++) {
		const struct compare_arm *arm = &r->arms[a];
		for (size_t i = 0; i < arm->n_steps; i++)
			if (arm->steps[i].key.kind == TUNABLE_SCHEDULER)
				openmetrics_list_add(x->sched[a], sizeof(x->sched[a]), arm->steps[i].value);
		if (!x->sched[a][0])
			snprintf(x->sched[a], sizeof(x->sched[a]), "%s", x->w.schedulers);
	}
	int rc = openmetrics_write(path, cmp_write, x, err, errlen);
	free(x);
	return rc;
}
