/* openmetrics_run — brisk run's key figures as OpenMetrics (openmetrics.h).
 *
 * Every family of a run carries dir, device, model and scheduler (the leaf
 * disks behind dir as the run measured them: names, models and schedulers
 * as one value each, see openmetrics_priv.h), then its own labels:
 *
 *   brisk_info, brisk_disk_info                  (openmetrics_info)
 *   brisk_run_timestamp_seconds        {dir}     wall clock at the end of the run
 *   brisk_run_duration_seconds         {dir}
 *   brisk_run_failures                 {dir}     loads/actions that failed (n_failed)
 *   brisk_run_interrupted              {dir}     1 when a signal ended it
 *   brisk_run_load_ended_early         {dir}     1 when a load ended before the loaded phase
 *   brisk_run_breakdown_available      {dir}     1 when each sample's breakdown was measured
 *   brisk_run_epoch_start_seconds      {dir, epoch, setting}   after the run began
 *   per action, phase (idle, loaded) and epoch, as the text report's rows
 *   (+ action, phase, epoch):
 *   brisk_action_latency_seconds       + stat: min p50 p90 p99 max mean
 *   brisk_action_samples                 in the figures (cold; timeouts at the limit)
 *   brisk_action_timeouts, brisk_action_errors
 *   brisk_action_warm_samples            not cold, left out (unless --keep-warm)
 *   brisk_action_slowdown_ratio        + stat: p50 p99 (loaded / idle; loaded rows)
 *   brisk_action_over_threshold_ratio  + threshold_seconds: 2 10 (share of samples)
 *   brisk_action_time_share_ratio      + part: where the time went, each
 *                                        part's mean share (samples measured whole)
 *   brisk_action_time_median_seconds   + part: the median sample's parts
 *   brisk_action_grade                 {+ action, grade}  the Verdict: 1 for its
 *                                        grade, 0 for the other three
 *   per load (+ load: its place 1.. in the run, kind):
 *   brisk_load_throughput_bytes_per_second, brisk_load_worst_stall_seconds,
 *   brisk_load_bytes
 *   per phase (idle, warm-up, loaded; + phase):
 *   brisk_system_psi_io_full_ratio, brisk_system_psi_io_some_ratio (mean
 *   share of time stalled, /proc/pressure/io), brisk_system_dirty_peak_bytes,
 *   brisk_system_writeback_peak_bytes (/proc/meminfo)
 *
 * A figure the run does not have (no samples, no baseline, no PSI) is
 * left out.
 */
#include "openmetrics.h"
#include "openmetrics_priv.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "grade.h"
#include "msg.h"
#include "now.h"
#include "runreport.h"
#include "runreport_split.h"
#include "session.h"

#define MiB (1024.0 * 1024.0)
#define N(a) (sizeof(a) / sizeof((a)[0]))

struct run_ctx {
	const struct session *s;
	struct openmetrics_where w;
	char dir[PATH_MAX];         /* DIR, absolute when it resolves */
	double t_end_real;          /* wall clock at the end of the run */
};

/* dir, device, model, scheduler: the first four labels of every row */
#define WHERE(x) { "dir", (x)->dir }, { "device", (x)->w.devices }, \
		 { "model", (x)->w.models }, { "scheduler", (x)->w.schedulers }

static const enum session_phase row_phases[] = { SESSION_IDLE, SESSION_LOADED };

/* The rows, as the text report has them: every action, phase and epoch
 * with a sample.  *out (free) gets them; the count, or -ENOMEM. */
static long run_rows(const struct session *s, struct runreport_group **out)
{
	size_t cap = (size_t)s->n_actions * N(row_phases) * (s->n_epochs ? s->n_epochs : 1), n = 0;
	struct runreport_group *g = calloc(cap ? cap : 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (unsigned ai = 0; ai < s->n_actions; ai++)
		for (size_t p = 0; p < N(row_phases); p++)
			for (uint32_t e = 0; e < s->n_epochs; e++) {
				if (runreport_group(s, s->actions[ai].kind, e, row_phases[p], &g[n]) < 0) {
					free(g);
					return -ENOMEM;
				}
				if (g[n].st.n || g[n].errors || g[n].warm)
					n++;
			}
	*out = g;
	return (long)n;
}

/* The labels of a row: WHERE, action, phase, epoch (l holds ROW_LABELS). */
#define ROW_LABELS 7
static void row_labels(const struct run_ctx *x, const struct runreport_group *g, char *epoch,
		       size_t elen, struct openmetrics_label *l)
{
	snprintf(epoch, elen, "%u", g->epoch);
	const struct openmetrics_label base[] = {
		WHERE(x), { "action", action_kind_name(g->action) },
		{ "phase", session_phase_name(g->phase) }, { "epoch", epoch },
	};
	_Static_assert(N(base) == ROW_LABELS, "ROW_LABELS is the row's label count");
	memcpy(l, base, sizeof(base));
}

static void run_actions(struct openmetrics *om, const struct run_ctx *x,
			const struct runreport_group *g, size_t n)
{
	struct openmetrics_label l[ROW_LABELS + 1];
	char ep[16];
	static const char *const stat[] = { "min", "p50", "p90", "p99", "max", "mean" };
	openmetrics_family(om, "brisk_action_latency_seconds", "seconds",
			   "How long an interactive action took with cold caches, per action, phase "
			   "and epoch (stat: min, p50, p90, p99, max, mean of its samples).");
	for (size_t i = 0; i < n; i++) {
		const struct stats_summary *st = &g[i].st;
		const double v[] = { st->min, st->p50, st->p90, st->p99, st->max, st->mean };
		row_labels(x, &g[i], ep, sizeof(ep), l);
		for (size_t k = 0; k < N(stat); k++) {
			l[ROW_LABELS] = (struct openmetrics_label){ "stat", stat[k] };
			openmetrics_sample(om, l, ROW_LABELS + 1, st->n ? v[k] / 1000.0 : NAN);
		}
	}
	static const struct {
		const char *name, *help;
	} counts[] = {
		{ "brisk_action_samples", "Samples in the figures (cold; a timed-out one counts at "
		  "the watchdog limit)." },
		{ "brisk_action_timeouts", "Samples killed at the watchdog limit (counted at it)." },
		{ "brisk_action_errors", "Samples that failed, left out of the figures." },
		{ "brisk_action_warm_samples", "Samples that were not cold, left out of the figures "
		  "(unless --keep-warm)." },
	};
	for (size_t c = 0; c < N(counts); c++) {
		openmetrics_family(om, counts[c].name, NULL, counts[c].help);
		for (size_t i = 0; i < n; i++) {
			const double v[] = { (double)g[i].st.n, g[i].timeouts, g[i].errors, g[i].warm };
			row_labels(x, &g[i], ep, sizeof(ep), l);
			openmetrics_sample(om, l, ROW_LABELS, v[c]);
		}
	}
	openmetrics_family(om, "brisk_action_slowdown_ratio", "ratio",
			   "Loaded over idle, of the p50 and of the p99 (stat), per loaded row.");
	for (size_t i = 0; i < n; i++) {
		row_labels(x, &g[i], ep, sizeof(ep), l);
		l[ROW_LABELS] = (struct openmetrics_label){ "stat", "p50" };
		openmetrics_sample(om, l, ROW_LABELS + 1, g[i].slow_p50);
		l[ROW_LABELS] = (struct openmetrics_label){ "stat", "p99" };
		openmetrics_sample(om, l, ROW_LABELS + 1, g[i].slow_p99);
	}
	openmetrics_family(om, "brisk_action_over_threshold_ratio", "ratio",
			   "Share of the samples that took longer than threshold_seconds (2, 10).");
	for (size_t i = 0; i < n; i++) {
		row_labels(x, &g[i], ep, sizeof(ep), l);
		l[ROW_LABELS] = (struct openmetrics_label){ "threshold_seconds", "2" };
		openmetrics_sample(om, l, ROW_LABELS + 1, g[i].st.pct_over_2s / 100.0);
		l[ROW_LABELS] = (struct openmetrics_label){ "threshold_seconds", "10" };
		openmetrics_sample(om, l, ROW_LABELS + 1, g[i].st.pct_over_10s / 100.0);
	}
}

/* Where the time went, per row with a breakdown (brisk-run(1)). */
static int run_split(struct openmetrics *om, const struct run_ctx *x,
		     const struct runreport_group *g, size_t n)
{
	struct runreport_split *sp = calloc(n ? n : 1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (runreport_split_group(x->s, g[i].action, g[i].epoch, g[i].phase, &sp[i]) < 0) {
			free(sp);
			return -ENOMEM;
		}
	struct openmetrics_label l[ROW_LABELS + 1];
	char ep[16];
	openmetrics_family(om, "brisk_action_time_share_ratio", "ratio",
			   "Where the time went: each part's mean share of the samples' time "
			   "(part: cpu, runq, device, queued, admit, throttled, blocked, sleep), "
			   "over the samples measured whole.");
	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < TIMESPLIT_NPARTS && sp[i].sum.n; p++) {
			row_labels(x, &g[i], ep, sizeof(ep), l);
			l[ROW_LABELS] = (struct openmetrics_label){ "part", timesplit_key(p) };
			openmetrics_sample(om, l, ROW_LABELS + 1, sp[i].sum.share[p]);
		}
	openmetrics_family(om, "brisk_action_time_median_seconds", "seconds",
			   "Where the time went: the parts of the median sample (by its wall "
			   "time) of those measured whole.");
	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < TIMESPLIT_NPARTS && sp[i].sum.median; p++) {
			row_labels(x, &g[i], ep, sizeof(ep), l);
			l[ROW_LABELS] = (struct openmetrics_label){ "part", timesplit_key(p) };
			openmetrics_sample(om, l, ROW_LABELS + 1,
					   (double)sp[i].sum.median->part_ns[p] / 1e9);
		}
	free(sp);
	return 0;
}

/* The Verdict of the text report: one grade per action. */
static int run_grades(struct openmetrics *om, const struct run_ctx *x)
{
	struct grade_verdict v[ACTION_KIND_COUNT];
	size_t nv = 0;
	if (runreport_verdicts(x->s, runreport_verdict_epoch(x->s), NULL, v, &nv) < 0)
		return -ENOMEM;
	openmetrics_family(om, "brisk_action_grade", NULL,
			   "The run's verdict per action, graded on the median of its last loaded "
			   "epoch (idle when none): 1 for its grade, 0 for the others.");
	static const enum grade_level levels[] = { GRADE_INSTANT, GRADE_NOTICEABLE,
						   GRADE_DISRUPTIVE, GRADE_UNUSABLE };
	for (size_t i = 0; i < nv; i++) {
		if (v[i].grade == GRADE_UNKNOWN)
			continue;
		for (size_t k = 0; k < N(levels); k++) {
			const struct openmetrics_label l[] = {
				WHERE(x), { "action", action_kind_name(v[i].action) },
				{ "grade", grade_name(levels[k]) },
			};
			openmetrics_sample(om, l, N(l), v[i].grade == levels[k]);
		}
	}
	return 0;
}

static void run_loads(struct openmetrics *om, const struct run_ctx *x)
{
	const struct session *s = x->s;
	static const struct {
		const char *name, *unit, *help;
	} fam[] = {
		{ "brisk_load_throughput_bytes_per_second", "bytes_per_second",
		  "A background load's throughput over its run (load: its place in the run, kind)." },
		{ "brisk_load_worst_stall_seconds", "seconds",
		  "The load's own worst single write or read call." },
		{ "brisk_load_bytes", "bytes", "Bytes the load wrote or read." },
	};
	for (size_t f = 0; f < N(fam); f++) {
		openmetrics_family(om, fam[f].name, fam[f].unit, fam[f].help);
		for (size_t i = 0; i < s->n_loads; i++) {
			const struct load *ld = &s->loads[i];
			char idx[24];
			snprintf(idx, sizeof(idx), "%zu", i + 1);
			const struct openmetrics_label l[] = {
				WHERE(x), { "load", idx }, { "kind", load_kind_name(ld->spec.kind) },
			};
			double v = f == 0 ? load_mibps(ld) * MiB
				 : f == 1 ? (ld->t_start ? (double)ld->worst_ns / 1e9 : NAN)
				 : (double)ld->bytes;
			openmetrics_sample(om, l, N(l), v);
		}
	}
	struct session_load_window w;
	if (session_load_window(s, &w) == 0) {
		const struct openmetrics_label l[] = { WHERE(x) };
		openmetrics_family(om, "brisk_load_disk_throughput_bytes_per_second",
				   "bytes_per_second", "What reached the disk for the loads in the "
				   "loaded phase: the file system device's bytes written (and read, "
				   "for a reading load), as its own counters say.");
		openmetrics_sample(om, l, N(l), w.disk_mibps * MiB);
	}
}

struct sys_fig {
	size_t n_psi, n_mem;
	double psi_full, psi_some, dirty_max, wb_max;
};

static void run_system(struct openmetrics *om, const struct run_ctx *x)
{
	static const enum session_phase phases[] = { SESSION_IDLE, SESSION_WARMUP, SESSION_LOADED };
	struct sys_fig fig[N(phases)];
	memset(fig, 0, sizeof(fig));
	for (size_t i = 0; i < x->s->n_ticks; i++) {
		const struct session_tick *t = &x->s->ticks[i];
		for (size_t p = 0; p < N(phases); p++) {
			if (t->phase != phases[p])
				continue;
			struct sys_fig *f = &fig[p];
			if (t->psi_ok) {
				f->psi_full += t->psi_full_pct;
				f->psi_some += t->psi_some_pct;
				f->n_psi++;
			}
			if (t->mem_ok) {
				f->dirty_max = fmax(f->dirty_max, (double)t->dirty);
				f->wb_max = fmax(f->wb_max, (double)t->writeback);
				f->n_mem++;
			}
		}
	}
	static const struct {
		const char *name, *unit, *help;
	} fam[] = {
		{ "brisk_system_psi_io_full_ratio", "ratio",
		  "Share of the time all non-idle tasks were stalled on I/O (/proc/pressure/io "
		  "full), mean over the phase." },
		{ "brisk_system_psi_io_some_ratio", "ratio",
		  "Share of the time some task was stalled on I/O (/proc/pressure/io some), mean "
		  "over the phase." },
		{ "brisk_system_dirty_peak_bytes", "bytes", "Most Dirty memory in the phase (/proc/meminfo)." },
		{ "brisk_system_writeback_peak_bytes", "bytes",
		  "Most Writeback memory in the phase (/proc/meminfo)." },
	};
	for (size_t k = 0; k < N(fam); k++) {
		openmetrics_family(om, fam[k].name, fam[k].unit, fam[k].help);
		for (size_t p = 0; p < N(phases); p++) {
			const struct sys_fig *f = &fig[p];
			const double v[] = {
				f->n_psi ? f->psi_full / (double)f->n_psi / 100.0 : NAN,
				f->n_psi ? f->psi_some / (double)f->n_psi / 100.0 : NAN,
				f->n_mem ? f->dirty_max : NAN,
				f->n_mem ? f->wb_max : NAN,
			};
			const struct openmetrics_label l[] = {
				WHERE(x), { "phase", session_phase_name(phases[p]) },
			};
			openmetrics_sample(om, l, N(l), v[k]);
		}
	}
}

static void run_head(struct openmetrics *om, const struct run_ctx *x)
{
	const struct session *s = x->s;
	const struct openmetrics_label d[] = { { "dir", x->dir } };
	openmetrics_family(om, "brisk_run_timestamp_seconds", "seconds",
			   "When the run ended (Unix time): how old these figures are.");
	openmetrics_sample(om, d, 1, x->t_end_real);
	openmetrics_family(om, "brisk_run_duration_seconds", "seconds", "How long the run took.");
	openmetrics_sample(om, d, 1, (double)s->t_end / 1e9);
	openmetrics_family(om, "brisk_run_failures", NULL,
			   "Loads or samples that could not start or failed (the run is an error).");
	openmetrics_sample(om, d, 1, s->n_failed);
	openmetrics_family(om, "brisk_run_interrupted", NULL, "1 when a signal ended the run early.");
	openmetrics_sample(om, d, 1, s->stop_signal != 0);
	openmetrics_family(om, "brisk_run_load_ended_early", NULL,
			   "1 when a load ended before the loaded phase did: later samples were not "
			   "taken under it.");
	openmetrics_sample(om, d, 1, s->t_load_ended != 0);
	openmetrics_family(om, "brisk_run_breakdown_available", NULL,
			   "1 when where each sample's time went was measured (BPF), 0 when not "
			   "(no root, no BTF, a build without BPF, --no-breakdown).");
	openmetrics_sample(om, d, 1, s->split_on != 0);
	openmetrics_family(om, "brisk_run_epoch_start_seconds", "seconds",
			   "When an epoch began, after the run began (setting: the change that "
			   "started it).");
	for (size_t e = 0; e < s->n_epochs; e++) {
		char ep[24];
		snprintf(ep, sizeof(ep), "%zu", e);
		const struct openmetrics_label l[] = {
			{ "dir", x->dir }, { "epoch", ep }, { "setting", s->epochs[e].label },
		};
		openmetrics_sample(om, l, N(l), (double)s->epochs[e].t_ns / 1e9);
	}
}

static int run_write(struct openmetrics *om, const void *ctx)
{
	const struct run_ctx *x = ctx;
	struct runreport_group *g = NULL;
	long n = run_rows(x->s, &g);
	if (n < 0)
		return (int)n;
	openmetrics_info(om, "run", x->dir, "", &x->w);
	run_head(om, x);
	run_actions(om, x, g, (size_t)n);
	int rc = run_split(om, x, g, (size_t)n);
	free(g);
	if (rc < 0)
		return rc;
	rc = run_grades(om, x);
	if (rc < 0)
		return rc;
	run_loads(om, x);
	run_system(om, x);
	return om->err;
}

int openmetrics_run(const struct session *s, const char *path, char *err, size_t errlen)
{
	struct run_ctx *x = calloc(1, sizeof(*x));
	if (!x)
		return msg_fail(-ENOMEM, err, errlen, "%s: out of memory", path);
	x->s = s;
	openmetrics_dir(x->dir, sizeof(x->dir), s->cfg.dir);
	struct machine_measured measured[SESSION_MAX_DEVS];
	size_t nm = s->n_devs < SESSION_MAX_DEVS ? s->n_devs : SESSION_MAX_DEVS;
	for (size_t d = 0; d < nm; d++)
		measured[d] = (struct machine_measured){ s->devs[d].name, s->devs[d].scheduler };
	openmetrics_where_get(&x->w, s->cfg.dir, measured, nm);
	if (!x->w.n_disks)   /* the stack could not be resolved now: the session's names */
		for (size_t d = 0; d < nm; d++) {
			openmetrics_list_add(x->w.devices, sizeof(x->w.devices), s->devs[d].name);
			openmetrics_list_add(x->w.schedulers, sizeof(x->w.schedulers),
					     s->devs[d].scheduler);
		}
	uint64_t end = s->t0 + s->t_end, now = now_ns();
	x->t_end_real = openmetrics_realtime() - (now > end ? (double)(now - end) / 1e9 : 0);
	int rc = openmetrics_write(path, run_write, x, err, errlen);
	free(x);
	return rc;
}
