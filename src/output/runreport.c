#include "runreport.h"
#include "runreport_priv.h"
#include "runreport_split.h"
#include "text.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "devclass.h"
#include "parse.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int runreport_group(const struct session *s, enum action_kind a, uint32_t epoch,
		 enum session_phase phase, struct runreport_group *g)
{
	memset(g, 0, sizeof(*g));
	g->action = a;
	g->epoch = epoch;
	g->phase = phase;
	size_t cap = s->n_samples ? s->n_samples : 1;
	double *v = malloc(cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < s->n_samples; i++) {
		const struct session_sample *x = &s->samples[i];
		if (x->action != a || x->phase != phase ||
		    (epoch != UINT32_MAX && x->epoch != epoch))
			continue;
		if (x->err) {
			g->errors++;
			continue;
		}
		g->cold += x->cold;
		g->timeouts += x->timeout;
	}
	/* the warm samples the cold-only rule leaves out, shown apart */
	size_t nw = 0;
	for (unsigned k = 0; k < s->n_actions; k++)
		if (s->actions[k].kind == a &&
		    action_cold_only(&s->actions[k], s->cfg.evict, s->cfg.keep_warm))
			for (size_t i = 0; i < s->n_samples; i++) {
				const struct session_sample *x = &s->samples[i];
				if (x->action == a && x->phase == phase && !x->err && !x->cold &&
				    (epoch == UINT32_MAX || x->epoch == epoch))
					v[nw++] = (double)x->dur_ns / 1e6;
			}
	g->warm = (unsigned)nw;
	g->warm_p50 = NAN;
	if (nw) {
		qsort(v, nw, sizeof(*v), cmp_double);
		g->warm_p50 = stats_percentile_sorted(v, nw, 50);
	}
	size_t n = session_durations(s, a, epoch, phase, v, cap);
	int rc = stats_summarize(v, n, 2000.0, 10000.0, &g->st);
	g->slow_p50 = g->slow_p99 = NAN;
	if (rc == 0 && phase != SESSION_IDLE) {
		size_t ni = session_durations(s, a, UINT32_MAX, SESSION_IDLE, v, cap);
		struct stats_summary idle;
		rc = stats_summarize(v, ni, 2000.0, 10000.0, &idle);
		g->slow_p50 = stats_ratio(g->st.p50, idle.p50);
		g->slow_p99 = stats_ratio(g->st.p99, idle.p99);
	}
	free(v);
	return rc;
}

/* ---- text ---- */

const char *runreport_load_state(const struct load *l)
{
	return l->end == LOAD_RUNNING && !l->pid && !l->t_start ? "not started" : load_end_name(l->end);
}

static void num(FILE *f, int w, int prec, double v)
{
	if (isnan(v))
		fprintf(f, " %*s", w, "-");
	else
		fprintf(f, " %*.*f", w, prec, v);
}

double runreport_tick_load_mibps(const struct load *l, size_t i)
{
	if (i == 0 || i >= l->n_timeline)
		return NAN;
	const struct load_point *a = &l->timeline[i - 1], *b = &l->timeline[i];
	if (b->t_ns <= a->t_ns || b->bytes < a->bytes)
		return NAN;
	return (double)(b->bytes - a->bytes) / MiB / ((double)(b->t_ns - a->t_ns) / 1e9);
}

/* A load's MiB/s and worst call within [from, to) (session-relative ns),
 * from its timeline. */
void runreport_load_window(const struct session *s, const struct load *l, uint64_t from,
			   uint64_t to, double *mibps, double *worst_ms)
{
	uint64_t b0 = 0, b1 = 0, t0 = 0, t1 = 0, worst = 0;
	int have = 0;
	for (size_t k = 0; k < l->n_timeline; k++) {
		uint64_t t = l->timeline[k].t_ns - s->t0;
		if (t < from || t >= to)
			continue;
		if (!have) {
			b0 = l->timeline[k].bytes;
			t0 = t;
			have = 1;
		} else if (l->timeline[k].worst_ns > worst) {
			worst = l->timeline[k].worst_ns;
		}
		b1 = l->timeline[k].bytes;
		t1 = t;
	}
	*mibps = t1 > t0 && b1 >= b0 ? (double)(b1 - b0) / MiB / ((double)(t1 - t0) / 1e9) : NAN;
	*worst_ms = t1 > t0 ? (double)worst / 1e6 : NAN;
}

uint64_t runreport_epoch_end(const struct session *s, size_t e)
{
	return e + 1 < s->n_epochs ? s->epochs[e + 1].t_ns : UINT64_MAX;
}

static void text_actions(FILE *f, const struct session *s)
{
	fprintf(f, "%-9s %-6s %2s %4s %4s %3s %3s %9s %9s %9s %9s %9s %9s %9s %5s %5s %6s %6s\n",
		"action", "phase", "ep", "n", "cold", "tmo", "err", "runt-min", "runt-avg",
		"runt-max", "p50", "p90", "p99", "sd", ">2s%", ">10s%", "slow50", "slow99");
	static const enum session_phase phases[] = { SESSION_IDLE, SESSION_LOADED };
	for (unsigned ai = 0; ai < s->n_actions; ai++) {
		enum action_kind a = s->actions[ai].kind;
		for (size_t pi = 0; pi < 2; pi++) {
			for (uint32_t e = 0; e < s->n_epochs; e++) {
				struct runreport_group g;
				if (runreport_group(s, a, e, phases[pi], &g) < 0)
					continue;
				if (!g.st.n && !g.errors && !g.warm)
					continue;
				fprintf(f, "%-9s %-6s %2u %4zu %4u %3u %3u", action_kind_name(a),
					session_phase_name(phases[pi]), e, g.st.n, g.cold, g.timeouts,
					g.errors);
				num(f, 9, 2, g.st.min);
				num(f, 9, 2, g.st.mean);
				num(f, 9, 2, g.st.max);
				num(f, 9, 2, g.st.p50);
				num(f, 9, 2, g.st.p90);
				num(f, 9, 2, g.st.p99);
				num(f, 9, 2, g.st.sd);
				num(f, 5, 1, g.st.pct_over_2s);
				num(f, 5, 1, g.st.pct_over_10s);
				num(f, 6, 2, g.slow_p50);
				num(f, 6, 2, g.slow_p99);
				fputc('\n', f);
			}
		}
	}
}

/* The samples the cold-only rule left out, apart from the table. */
static void text_warm(FILE *f, const struct session *s)
{
	static const enum session_phase phases[] = { SESSION_IDLE, SESSION_LOADED };
	int head = 0;
	for (unsigned ai = 0; ai < s->n_actions; ai++)
		for (size_t pi = 0; pi < 2; pi++)
			for (uint32_t e = 0; e < s->n_epochs; e++) {
				struct runreport_group g;
				if (runreport_group(s, s->actions[ai].kind, e, phases[pi], &g) < 0 || !g.warm)
					continue;
				if (!head++)
					fprintf(f, "not cold, left out of the figures above (--keep-warm "
						"counts them):\n");
				fprintf(f, "  %-9s %-6s %2u  %u of %u warm, their p50 %.2f ms\n",
					action_kind_name(g.action), session_phase_name(g.phase), e, g.warm,
					g.warm + (unsigned)g.st.n, g.warm_p50);
			}
}

/* What the exec action started: the program, where its files are, what a
 * cold start read; and the note when it is not on the disks under test. */
static void text_exec(FILE *f, const struct session *s)
{
	for (unsigned i = 0; i < s->n_actions; i++) {
		const struct action *a = &s->actions[i];
		if (a->kind != ACTION_EXEC || !a->n_files)
			continue;
		if (a->prog.argv) {
			char copied[32], cold[32];
			parse_format_iec(copied, sizeof(copied), a->prog.bytes);
			parse_format_iec(cold, sizeof(cold), a->cold_bytes);
			fprintf(f, "exec program: %s; %zu files (%s) copied to %s; a cold start "
				"read %s from %zu of them\n", text_show(a->prog.what), a->n_files,
				copied, a->devs ? text_show(a->devs[0]) : "?", cold, a->cold_files);
		} else {
			fprintf(f, "exec program: %s; files on:", text_show(a->what));
			for (size_t k = 0; k < a->n_files && k < 8; k++)
				fprintf(f, " %s (%s)", text_show(a->files[k]),
					a->devs ? text_show(a->devs[k]) : "?");
			fprintf(f, a->n_files > 8 ? " ...\n" : "\n");
		}
		if (a->where[0])
			fprintf(f, "NOTE: %s\n", text_show(a->where));
	}
}

static void text_loads(FILE *f, const struct session *s)
{
	fprintf(f, "\n%-16s %9s %9s %9s %11s %10s  %s\n", "load", "MiB/s", "min", "max",
		"worst-ms", "MiB", "end");
	fprintf(f, "  (MiB/s over its whole run; min, max of its %.3g s ticks; worst-ms: its "
		"longest call)\n", (double)s->cfg.tick_ns / 1e9);
	for (size_t i = 0; i < s->n_loads; i++) {
		const struct load *l = &s->loads[i];
		double lo = NAN, hi = NAN;
		for (size_t k = 1; k < l->n_timeline; k++) {
			double r = runreport_tick_load_mibps(l, k);
			if (isnan(r))
				continue;
			lo = isnan(lo) || r < lo ? r : lo;
			hi = isnan(hi) || r > hi ? r : hi;
		}
		char name[40];
		snprintf(name, sizeof(name), "%s#%u", load_kind_name(l->spec.kind), l->index);
		fprintf(f, "%-16s", name);
		num(f, 9, 1, load_mibps(l));
		num(f, 9, 1, lo);
		num(f, 9, 1, hi);
		num(f, 11, 2, l->t_start ? (double)l->worst_ns / 1e6 : NAN);
		num(f, 10, 1, (double)l->bytes / MiB);
		fprintf(f, "  %s", runreport_load_state(l));
		if (l->end == LOAD_END_ERROR && l->err)
			fprintf(f, " (%s)", strerror(l->err));
		fputc('\n', f);
		if (load_kind_splits(l->spec.kind)) {   /* its reads and writes apart */
			double r, w;
			load_mibps_split(l, &r, &w);
			fprintf(f, "  %-14s", "reads");
			num(f, 9, 1, r);
			fprintf(f, "%41s", "");
			num(f, 10, 1, (double)l->bytes_read / MiB);
			fprintf(f, "\n  %-14s", "writes");
			num(f, 9, 1, w);
			fprintf(f, "%41s", "");
			num(f, 10, 1, (double)(l->bytes - l->bytes_read) / MiB);
			fputc('\n', f);
		}
	}
	struct session_load_window lw;
	if (session_load_window(s, &lw) == 0) {
		int wr = 0, rd = 0;
		for (size_t i = 0; i < s->n_loads; i++)
			*(load_kind_writes(s->loads[i].spec.kind) ? &wr : &rd) = 1;
		for (size_t i = 0; i < s->n_loads; i++)   /* a mixed load does both */
			rd |= load_kind_splits(s->loads[i].spec.kind);
		fprintf(f, "  in the loaded phase (%.1f s): ", lw.seconds);
		if (isnan(lw.disk_mibps))
			fprintf(f, "no disk counters (%s),\n", s->fsdev.name[0] ?
				text_show(s->fsdev.name) : "no block device");
		else
			fprintf(f, "%.1f MiB/s %s %s (its own counters),\n", lw.disk_mibps,
				wr && rd ? "to/from" : wr ? "written to" : "read from",
				text_show(s->fsdev.name));
		fprintf(f, "    %.1f MiB/s by the loads' %s (bursts into the page cache included)\n",
			lw.load_mibps, wr && rd ? "read()/write()" : wr ? "write()" : "read()");
	}
	for (size_t i = 0; i < s->n_loads; i++) {
		const struct load *l = &s->loads[i];
		if (l->n_timeline < 2)
			continue;
		fprintf(f, "  %s#%u MiB/s per %.3gs:", load_kind_name(l->spec.kind), l->index,
			(double)s->cfg.tick_ns / 1e9);
		size_t n = l->n_timeline - 1, step = (n + 59) / 60;
		for (size_t k = 1; k < l->n_timeline; k += step)
			fprintf(f, " %.0f", runreport_tick_load_mibps(l, k));
		fprintf(f, step > 1 ? " (every %zuth)\n" : "\n", step);
	}
	if (s->n_epochs < 2)
		return;
	for (size_t i = 0; i < s->n_loads; i++) {
		const struct load *l = &s->loads[i];
		fprintf(f, "  %s#%u by epoch (MiB/s, worst-ms):", load_kind_name(l->spec.kind), l->index);
		for (size_t e = 0; e < s->n_epochs; e++) {
			double r, w;
			runreport_load_window(s, l, s->epochs[e].t_ns, runreport_epoch_end(s, e), &r, &w);
			fprintf(f, " %zu:", e);
			num(f, 0, 1, r);
			fputc(',', f);
			num(f, 0, 1, w);
		}
		fputc('\n', f);
	}
}

struct sys_acc {
	size_t n, n_psi, n_mem;
	double rd_iops, wr_iops, rd_mbps, wr_mbps, util, aqu;
	double psi_some, psi_full;
	double dirty, wb, dirty_max, wb_max;
};

/* One phase's ticks (of one epoch; UINT32_MAX: all), one device's rates
 * (dev >= n_devs: none). */
static void sys_accumulate(const struct session *s, enum session_phase ph, uint32_t epoch,
			   size_t dev, struct sys_acc *a)
{
	memset(a, 0, sizeof(*a));
	for (size_t i = 0; i < s->n_ticks; i++) {
		const struct session_tick *t = &s->ticks[i];
		if (t->phase != ph || (epoch != UINT32_MAX && t->epoch != epoch))
			continue;
		if (dev < s->n_devs) {
			const struct kstat_rates *r = &s->ticks_disk[i * s->n_devs + dev];
			a->rd_iops += r->rd_iops;
			a->wr_iops += r->wr_iops;
			a->rd_mbps += r->rd_mbps;
			a->wr_mbps += r->wr_mbps;
			a->util += r->util_pct;
			a->aqu += r->avg_queue;
		}
		a->n++;
		if (t->psi_ok) {
			a->psi_some += t->psi_some_pct;
			a->psi_full += t->psi_full_pct;
			a->n_psi++;
		}
		if (t->mem_ok) {
			double d = (double)t->dirty / MiB, w = (double)t->writeback / MiB;
			a->dirty += d;
			a->wb += w;
			a->dirty_max = d > a->dirty_max ? d : a->dirty_max;
			a->wb_max = w > a->wb_max ? w : a->wb_max;
			a->n_mem++;
		}
	}
}

static double avg(double sum, size_t n)
{
	return n ? sum / (double)n : NAN;
}

static void text_system(FILE *f, const struct session *s)
{
	static const enum session_phase phases[] = { SESSION_IDLE, SESSION_WARMUP, SESSION_LOADED };
	fprintf(f, "\n%-10s %-7s %8s %8s %8s %8s %6s %7s\n", "device", "phase", "r/s", "w/s",
		"rMiB/s", "wMiB/s", "util%", "aqu-sz");
	for (size_t d = 0; d < s->n_devs; d++)
		for (size_t p = 0; p < 3; p++) {
			struct sys_acc a;
			sys_accumulate(s, phases[p], UINT32_MAX, d, &a);
			if (!a.n)
				continue;
			fprintf(f, "%-10s %-7s", text_show(s->devs[d].name), session_phase_name(phases[p]));
			num(f, 8, 0, avg(a.rd_iops, a.n));
			num(f, 8, 0, avg(a.wr_iops, a.n));
			num(f, 8, 1, avg(a.rd_mbps, a.n));
			num(f, 8, 1, avg(a.wr_mbps, a.n));
			num(f, 6, 1, avg(a.util, a.n));
			num(f, 7, 2, avg(a.aqu, a.n));
			fputc('\n', f);
		}
	fprintf(f, "\n%-18s %9s %9s %10s %10s %10s %10s\n", "system phase", "psi-some%",
		"psi-full%", "dirty-MiB", "dirty-max", "wback-MiB", "wback-max");
	for (size_t p = 0; p < 3; p++) {
		struct sys_acc a;
		sys_accumulate(s, phases[p], UINT32_MAX, SIZE_MAX, &a);
		if (!a.n)
			continue;
		fprintf(f, "%-18s", session_phase_name(phases[p]));
		num(f, 9, 1, avg(a.psi_some, a.n_psi));
		num(f, 9, 1, avg(a.psi_full, a.n_psi));
		num(f, 10, 1, avg(a.dirty, a.n_mem));
		num(f, 10, 1, a.n_mem ? a.dirty_max : NAN);
		num(f, 10, 1, avg(a.wb, a.n_mem));
		num(f, 10, 1, a.n_mem ? a.wb_max : NAN);
		fputc('\n', f);
	}
}

/* ---- verdict ---- */

uint32_t runreport_verdict_epoch(const struct session *s)
{
	uint32_t e = UINT32_MAX;
	for (size_t i = 0; i < s->n_samples; i++)
		if (s->samples[i].phase == SESSION_LOADED && !s->samples[i].err &&
		    (e == UINT32_MAX || s->samples[i].epoch > e))
			e = s->samples[i].epoch;
	return e;
}

void runreport_system(const struct session *s, enum session_phase ph, uint32_t epoch,
		   const struct blockdev *const *devs, struct grade_system *out)
{
	memset(out, 0, sizeof(*out));
	struct sys_acc a;
	sys_accumulate(s, ph, epoch, SIZE_MAX, &a);
	out->dirty_avg = avg(a.dirty, a.n_mem);
	out->dirty_max = a.n_mem ? a.dirty_max : NAN;
	out->wb_avg = avg(a.wb, a.n_mem);
	out->wb_max = a.n_mem ? a.wb_max : NAN;
	out->psi_full = avg(a.psi_full, a.n_psi);
	for (size_t d = 0; d < s->n_devs && d < GRADE_MAX_DISKS; d++) {
		struct grade_disk *g = &out->disks[out->n_disks++];
		const struct blockdev *b = devs ? devs[d] : NULL;
		snprintf(g->name, sizeof(g->name), "%s", s->devs[d].name);
		sys_accumulate(s, ph, epoch, d, &a);
		g->aqu = avg(a.aqu, a.n);
		g->util_pct = avg(a.util, a.n);
		g->cls = devclass_phrase(b);
		g->settings_matter = b && (strcmp(b->transport, "usb") == 0 ||
					   devclass_of(b) == PROFILE_CLASS_MMC ||
					   devclass_of(b) == PROFILE_CLASS_ROTATIONAL);
		g->nr_requests = b && b->queue.nr_requests > 0 ? (double)b->queue.nr_requests : NAN;
	}
}

int runreport_verdicts(const struct session *s, uint32_t epoch, const struct blockdev *const *devs,
		    struct grade_verdict *out, size_t *n)
{
	*n = 0;
	int loaded = epoch != UINT32_MAX;
	/* the dashboard's "load off" epochs keep phase LOADED: graded as idle
	 * (epoch 0 starts before the loads, its load_on says nothing) */
	int under_load = loaded && !(epoch > 0 && epoch < s->n_epochs && !s->epochs[epoch].load_on);
	struct grade_system sys;
	runreport_system(s, loaded ? SESSION_LOADED : SESSION_IDLE, epoch, devs, &sys);
	for (unsigned i = 0; i < s->n_actions && i < ACTION_KIND_COUNT; i++) {
		enum action_kind a = s->actions[i].kind;
		struct runreport_group g, idle;
		if (runreport_group(s, a, UINT32_MAX, SESSION_IDLE, &idle) < 0)
			return -ENOMEM;
		if (loaded && runreport_group(s, a, epoch, SESSION_LOADED, &g) < 0)
			return -ENOMEM;
		const struct runreport_group *use = loaded ? &g : &idle;
		if (!use->st.n && !use->errors)
			continue;
		struct runreport_split sp;
		if (runreport_split_group(s, a, loaded ? epoch : UINT32_MAX,
					  loaded ? SESSION_LOADED : SESSION_IDLE, &sp) < 0)
			return -ENOMEM;
		struct grade_input in = {
			.action = a,
			.loaded = under_load,
			.p50_ms = use->st.n ? use->st.p50 : NAN,
			.p90_ms = use->st.n ? use->st.p90 : NAN,
			.idle_p50_ms = idle.st.n ? idle.st.p50 : NAN,
			.split = sp.sum.median,
			.no_split = runreport_split_why_not(s, &sp),
		};
		grade_action(&in, &sys, &out[(*n)++]);
	}
	return 0;
}

/* DIR as a shell word: as is when plain, else in single quotes. */
static void shell_word(char *b, size_t n, const char *dir)
{
	int plain = dir[0] != '\0';
	for (const char *p = dir; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			       "/._-+,:@%=", *p) != NULL;
	if (plain) {
		snprintf(b, n, "%s", dir);
		return;
	}
	size_t o = 0;
	if (o + 1 < n)
		b[o++] = '\'';
	for (const char *p = dir; *p && o + 5 < n; p++) {
		if (*p == '\'') {
			memcpy(b + o, "'\\''", 4);
			o += 4;
		} else {
			b[o++] = *p;
		}
	}
	if (o + 1 < n)
		b[o++] = '\'';
	b[o < n ? o : n - 1] = '\0';
}

void runreport_next_command(const struct session *s, char *buf, size_t len)
{
	char w[PATH_MAX + 64];
	shell_word(w, sizeof(w), s->cfg.dir);
	snprintf(buf, len, "brisk compare %s --schedulers", w);
}

/* The leaf devices as probed now (NULL where a probe failed); free(*mem). */
void runreport_probe_devs(const struct session *s, const struct blockdev *devs[SESSION_MAX_DEVS],
			  struct blockdev **mem)
{
	memset(devs, 0, SESSION_MAX_DEVS * sizeof(devs[0]));
	*mem = s->n_devs ? calloc(s->n_devs, sizeof(**mem)) : NULL;
	for (size_t d = 0; *mem && d < s->n_devs; d++)
		if (blockdev_probe(s->devs[d].name, &(*mem)[d]) == 0)
			devs[d] = &(*mem)[d];
}

/* Concurrent samples: the cap, what was reached, the schedule. */
static void text_concurrency(FILE *f, const struct session *s)
{
	const struct session_config *c = &s->cfg;
	if (c->concurrency <= 1 && !c->n_starts)
		return;
	fprintf(f, "concurrent samples: up to %u in flight (cap %u)", s->inflight_max,
		c->concurrency > 1 ? c->concurrency : 1);
	if (c->n_starts) {
		fprintf(f, "; %zu scheduled start times", c->n_starts);
		if (s->late_starts)
			fprintf(f, ", %u held back by the cap (at most %.1fs late)", s->late_starts,
				(double)s->late_max_ns / 1e9);
	}
	fputc('\n', f);
}

/* A load that ended before the loaded phase did: what it invalidates. */
static void text_load_ended(FILE *f, const struct session *s)
{
	if (!s->t_load_ended)
		return;
	fprintf(f, "\n%s: %s ended at +%.1fs, before the loaded phase did (+%.1fs): the %u "
		"loaded sample(s) started after +%.1fs were not taken under that load%s\n",
		s->cfg.load_finite ? "Load ended early (finite on purpose)" :
		"INVALID after that point", text_show(s->load_ended),
		(double)s->t_load_ended / 1e9, (double)(s->t_stop ? s->t_stop : s->t_end) / 1e9,
		s->n_after_load_end, (double)s->t_load_ended / 1e9,
		s->cfg.load_finite ? "" : "; their figures do not measure the disk under load");
}

static void text_verdict(FILE *f, const struct session *s, const struct grade_verdict *v,
			 size_t n, uint32_t epoch)
{
	if (!n)
		return;
	fprintf(f, "\nVerdict (median of the %s samples", epoch == UINT32_MAX ? "idle" : "loaded");
	if (epoch != UINT32_MAX && s->n_epochs > 1)
		fprintf(f, " of epoch %u \"%s\"", epoch, text_show(s->epochs[epoch].label));
	fprintf(f, "; instant < %.1f s, noticeable < %.0f s, disruptive < %.0f s, "
		"else unusable):\n", GRADE_INSTANT_S, GRADE_FLOW_S, GRADE_ATTENTION_S);
	int next = -1;
	for (size_t i = 0; i < n; i++) {
		char line[1024];
		grade_format(&v[i], line, sizeof(line));
		fprintf(f, "  %s\n", text_show(line));
		if (v[i].next && (next < 0 || v[i].grade > v[next].grade))
			next = (int)i;
	}
	if (next >= 0) {
		char cmd[PATH_MAX + 96];
		runreport_next_command(s, cmd, sizeof(cmd));
		fputs("Next: ", f);
		text_fputs(cmd, f);
		fprintf(f, " (%s)\n", text_show(v[next].next_why));
	}
}

/* " on DEV DEV" for the sampled disks behind a directory (devs[].stacks). */
static void stack_devs(FILE *f, const struct session *s, uint32_t bit)
{
	int first = 1;
	for (size_t d = 0; d < s->n_devs; d++)
		if (s->devs[d].stacks & bit) {
			fprintf(f, "%s%s", first ? " on " : " ", text_show(s->devs[d].name));
			first = 0;
		}
}

void runreport_text(FILE *f, const struct session *s)
{
	const struct session_config *c = &s->cfg;
	fprintf(f, "brisk %s run on %s (%s", BRISK_VERSION, text_show(c->dir),
		s->fstype[0] ? text_show(s->fstype) : "?");
	stack_devs(f, s, 1);
	fprintf(f, "), %.1fs", (double)s->t_end / 1e9);
	if (s->stop_signal)
		fprintf(f, ", interrupted by SIG%s", sigabbrev_np(s->stop_signal));
	fputc('\n', f);
	for (size_t k = 0; k < s->n_loaddirs; k++) {
		const struct session_loaddir *ld = &s->loaddirs[k];
		fprintf(f, "load dir %s (%s", text_show(ld->dir),
			ld->fstype[0] ? text_show(ld->fstype) : "?");
		stack_devs(f, s, 2u << k);
		fputs(")", f);
		if (ld->floor_bytes) {
			char fl[32];
			parse_format_iec(fl, sizeof(fl), ld->floor_bytes);
			fprintf(f, ", its writers' floor %s free", fl);
		}
		fputc('\n', f);
	}
	for (size_t i = 0; i < c->n_loads; i++) {
		char spec[512];
		load_spec_format(&c->loads[i], spec, sizeof(spec));
		fprintf(f, "%s%s", i ? ", " : "load: ", text_show(spec));
	}
	fprintf(f, "%sactions:", c->n_loads ? "\n" : "load: none\n");
	for (unsigned i = 0; i < s->n_actions; i++) {
		const struct action *a = &s->actions[i];
		fprintf(f, " %s", action_kind_name(a->kind));
		if (a->kind == ACTION_EXEC && a->prog.argv)
			fprintf(f, "(%s, copied)", text_show(a->prog.name));
		for (size_t k = 0; a->kind == ACTION_EXEC && !a->prog.argv && a->argv && a->argv[k]; k++)
			fprintf(f, "%s%s", k ? " " : "(", text_show(a->argv[k]));
		if (a->kind == ACTION_EXEC && !a->prog.argv && a->argv)
			fputc(')', f);
	}
	fprintf(f, "; eviction: %s; interval %.0fms +-%u%%; watchdog %.0fs\n",
		c->evict == ACTION_EVICT_DROP_CACHES ? "drop_caches" : "fadvise",
		(double)c->interval_ns / 1e6, c->jitter_pct, (double)c->timeout_ns / 1e9);
	if (s->n_actions) {
		const struct child_cred *as = &s->actions[0].run_as;
		fprintf(f, "actions ran as uid %u (%s), %s privileges\n", (unsigned)as->uid,
			as->user[0] ? text_show(as->user) : "no name", as->uid ? "without" : "with");
	}
	text_concurrency(f, s);
	if (s->vm.ratio >= 0)
		fprintf(f, "vm.dirty_ratio=%" PRId64 " dirty_background_ratio=%" PRId64
			" dirty_bytes=%" PRId64 " dirty_background_bytes=%" PRId64
			" dirty_expire_centisecs=%" PRId64 "\n", s->vm.ratio, s->vm.background_ratio,
			s->vm.bytes, s->vm.background_bytes, s->vm.expire_centisecs);
	if (s->n_epochs > 1) {
		fprintf(f, "epochs:");
		for (size_t e = 0; e < s->n_epochs; e++)
			fprintf(f, " %zu=%s@%.1fs", e, text_show(s->epochs[e].label), (double)s->epochs[e].t_ns / 1e9);
		fputc('\n', f);
	}
	text_exec(f, s);
	fprintf(f, "times in msec; slow = loaded / idle%s\n\n", s->cfg.keep_warm ?
		"; warm samples counted (--keep-warm)" : "");
	text_actions(f, s);
	text_warm(f, s);
	runreport_split_text(f, s);
	if (s->n_loads)
		text_loads(f, s);
	if (s->n_ticks)
		text_system(f, s);
	int head = 0;
	for (size_t i = 0; i < s->n_msgs; i++)
		fprintf(f, "%s  %s\n", head++ ? "" : "\nnotes:\n", text_show(s->msgs[i]));
	text_load_ended(f, s);
	const struct blockdev *devs[SESSION_MAX_DEVS];
	struct blockdev *mem;
	runreport_probe_devs(s, devs, &mem);
	struct grade_verdict v[ACTION_KIND_COUNT];
	size_t nv;
	uint32_t ve = runreport_verdict_epoch(s);
	if (runreport_verdicts(s, ve, devs, v, &nv) == 0)
		text_verdict(f, s, v, nv, ve);
	else
		fprintf(f, "\nVerdict: out of memory\n");
	free(mem);
}
