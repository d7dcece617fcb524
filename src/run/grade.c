#include "grade.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "timesplit.h"

#define MiB (1024.0 * 1024.0)

enum grade_level grade_of_seconds(double s)
{
	if (isnan(s))
		return GRADE_UNKNOWN;
	if (s < GRADE_INSTANT_S)
		return GRADE_INSTANT;
	if (s < GRADE_FLOW_S)
		return GRADE_NOTICEABLE;
	if (s < GRADE_ATTENTION_S)
		return GRADE_DISRUPTIVE;
	return GRADE_UNUSABLE;
}

const char *grade_name(enum grade_level g)
{
	static const char *const names[] = { "instant", "noticeable", "disruptive", "unusable",
					     "unknown" };
	return (unsigned)g <= GRADE_UNKNOWN ? names[g] : "?";
}

const char *grade_action_name(enum action_kind k)
{
	static const char *const names[ACTION_KIND_COUNT] = {
		[ACTION_EXEC] = "program start",
		[ACTION_LS] = "directory listing",
		[ACTION_SSH] = "remote shell read",
		[ACTION_SAVE] = "save",
	};
	return (unsigned)k < ACTION_KIND_COUNT ? names[k] : "?";
}

const char *grade_cause_name(enum grade_cause c)
{
	static const char *const names[] = { "none", "dirty", "writeback", "queue", "psi",
					     "measured" };
	return (unsigned)c <= GRADE_CAUSE_MEASURED ? names[c] : "?";
}

static void mib_text(char *b, size_t n, double mib)
{
	parse_format_iec(b, n, mib <= 0 ? 0 : (uint64_t)(mib * MiB));
}

static int ge(double v, double limit)
{
	return !isnan(v) && v >= limit;
}

static int cause_dirty(const struct grade_system *s, enum action_kind a, char *t, size_t n)
{
	double both = (isnan(s->dirty_max) ? 0 : s->dirty_max) + (isnan(s->wb_max) ? 0 : s->wb_max);
	if (isnan(s->dirty_max) && isnan(s->wb_max))
		return 0;
	if (both < GRADE_DIRTY_MIB)
		return 0;
	char sz[32];
	mib_text(sz, sizeof(sz), both);
	if (a == ACTION_SAVE)
		snprintf(t, n, "fsync behind %s of dirty data", sz);
	else
		snprintf(t, n, "reads queued behind %s of dirty data", sz);
	return 1;
}

static int cause_writeback(const struct grade_system *s, char *t, size_t n)
{
	if (!ge(s->wb_max, GRADE_DIRTY_MIB) || isnan(s->wb_avg))
		return 0;
	if (!isnan(s->dirty_avg) && s->wb_avg < s->dirty_avg)
		return 0;
	char sz[32];
	mib_text(sz, sizeof(sz), s->wb_max);
	snprintf(t, n, "the disk busy writing back up to %s", sz);
	return 1;
}

static int cause_queue(const struct grade_system *s, char *t, size_t n)
{
	/* the fullest disk by the figure that applies to it */
	const struct grade_disk *best = NULL;
	double best_share = 0;
	for (size_t i = 0; i < s->n_disks && i < GRADE_MAX_DISKS; i++) {
		const struct grade_disk *d = &s->disks[i];
		double share;
		if (!isnan(d->nr_requests) && d->nr_requests > 0) {
			if (!ge(d->aqu, GRADE_QUEUE_FULL * d->nr_requests))
				continue;
			share = d->aqu / d->nr_requests;
		} else {
			if (!ge(d->util_pct, GRADE_UTIL_BUSY))
				continue;
			share = d->util_pct / 100.0;
		}
		if (!best || share > best_share) {
			best = d;
			best_share = share;
		}
	}
	if (!best)
		return 0;
	if (!isnan(best->nr_requests) && best->nr_requests > 0)
		snprintf(t, n, "%s's queue full (%.0f of %.0f requests on average)", best->name,
			 best->aqu, best->nr_requests);
	else
		snprintf(t, n, "%s busy %.0f%% of the time", best->name, best->util_pct);
	return 1;
}

static int cause_psi(const struct grade_system *s, char *t, size_t n)
{
	if (!ge(s->psi_full, GRADE_PSI_FULL))
		return 0;
	snprintf(t, n, "every task stalled on I/O %.0f%% of the time (PSI full)", s->psi_full);
	return 1;
}

static enum grade_cause find_cause(const struct grade_system *s, enum action_kind a, char *t,
				   size_t n)
{
	if (a == ACTION_SAVE && cause_dirty(s, a, t, n))
		return GRADE_CAUSE_DIRTY;
	if (cause_writeback(s, t, n))
		return GRADE_CAUSE_WRITEBACK;
	if (cause_queue(s, t, n))
		return GRADE_CAUSE_QUEUE;
	if (cause_dirty(s, a, t, n))
		return GRADE_CAUSE_DIRTY;
	if (cause_psi(s, t, n))
		return GRADE_CAUSE_PSI;
	t[0] = '\0';
	return GRADE_CAUSE_NONE;
}

static void find_next(struct grade_verdict *v, const struct grade_system *s)
{
	if (!v->loaded || v->grade == GRADE_UNKNOWN || v->grade < GRADE_NOTICEABLE)
		return;
	if (ge(v->slowdown, GRADE_COMPARE_SLOWDOWN)) {
		v->next = 1;
		snprintf(v->next_why, sizeof(v->next_why), "the load made %s %.1fx slower",
			 grade_action_name(v->action), v->slowdown);
		return;
	}
	if (!isnan(v->slowdown) && v->slowdown < GRADE_SETTINGS_SLOWDOWN)
		return;
	for (size_t i = 0; i < s->n_disks && i < GRADE_MAX_DISKS; i++)
		if (s->disks[i].settings_matter) {
			v->next = 1;
			snprintf(v->next_why, sizeof(v->next_why),
				 "%s is %s: its scheduler and queue settings matter",
				 s->disks[i].name, s->disks[i].cls ? s->disks[i].cls : "a slow disk");
			return;
		}
}

void grade_action(const struct grade_input *in, const struct grade_system *sys,
		  struct grade_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->action = in->action;
	v->loaded = in->loaded;
	v->seconds = in->p50_ms / 1000.0;
	v->p90_seconds = in->p90_ms / 1000.0;
	v->idle_seconds = in->idle_p50_ms / 1000.0;
	v->grade = grade_of_seconds(v->seconds);
	v->p90_grade = grade_of_seconds(v->p90_seconds);
	v->idle_grade = grade_of_seconds(v->idle_seconds);
	v->slowdown = NAN;
	if (in->loaded && !isnan(in->p50_ms) && !isnan(in->idle_p50_ms) && in->idle_p50_ms > 0)
		v->slowdown = in->p50_ms / in->idle_p50_ms;
	v->p90_worse = v->grade != GRADE_UNKNOWN && v->p90_grade != GRADE_UNKNOWN &&
		       v->p90_grade > GRADE_INSTANT && v->p90_seconds >= GRADE_P90_FAR * v->seconds;
	v->cause = GRADE_CAUSE_NONE;
	if (!sys || !in->loaded || v->grade == GRADE_UNKNOWN || v->grade < GRADE_NOTICEABLE)
		return;
	if (isnan(v->slowdown) || v->slowdown >= GRADE_CAUSE_SLOWDOWN) {
		timesplit_cause(in->split, v->cause_text, sizeof(v->cause_text));
		if (v->cause_text[0]) {
			v->cause = GRADE_CAUSE_MEASURED;
		} else {
			v->cause = find_cause(sys, in->action, v->cause_text, sizeof(v->cause_text));
			if (v->cause != GRADE_CAUSE_NONE && in->no_split)
				snprintf(v->guess_why, sizeof(v->guess_why), "%s", in->no_split);
		}
	}
	find_next(v, sys);
}

int grade_worst(const struct grade_verdict *v, size_t n)
{
	int w = -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i].grade == GRADE_UNKNOWN)
			continue;
		if (w < 0) {
			w = (int)i;
			continue;
		}
		const struct grade_verdict *a = &v[i], *b = &v[w];
		double sa = isnan(a->slowdown) ? 0 : a->slowdown, sb = isnan(b->slowdown) ? 0 : b->slowdown;
		if (a->grade > b->grade || (a->grade == b->grade &&
		    (sa > sb || (sa == sb && a->seconds > b->seconds))))
			w = (int)i;
	}
	return w;
}

void grade_format_seconds(char *buf, size_t len, double s)
{
	/* truncated, never rounded: a shown figure is never above the real
	 * one, so "0.10 s" is never an instant 0.0996 s */
	if (isnan(s))
		snprintf(buf, len, "-");
	else if (s < GRADE_INSTANT_S)
		snprintf(buf, len, "%.0f ms", floor(s * 1000.0 + 1e-6));
	else if (s < GRADE_ATTENTION_S)
		snprintf(buf, len, "%.2f s", floor(s * 100.0 + 1e-6) / 100.0);
	else
		snprintf(buf, len, "%.1f s", floor(s * 10.0 + 1e-6) / 10.0);
}

void grade_format(const struct grade_verdict *v, char *buf, size_t len)
{
	const char *name = grade_action_name(v->action);
	if (v->grade == GRADE_UNKNOWN) {
		snprintf(buf, len, "%s: no successful sample - unknown", name);
		return;
	}
	char sec[32], p90[32], slow[48] = "";
	grade_format_seconds(sec, sizeof(sec), v->seconds);
	grade_format_seconds(p90, sizeof(p90), v->p90_seconds);
	if (!isnan(v->slowdown))
		snprintf(slow, sizeof(slow), v->slowdown < 1 ? " (%.2gx idle)" : " (%.1fx idle)",
			 v->slowdown);
	size_t o = (size_t)snprintf(buf, len, "%s: %s %s%s - %s", name, sec,
				    v->loaded ? "under load" : "idle", slow, grade_name(v->grade));
	if (o < len && v->p90_worse)
		o += (size_t)snprintf(buf + o, len - o, "; 1 in 10 took %s", p90);
	if (o >= len || v->cause == GRADE_CAUSE_NONE)
		return;
	if (v->cause == GRADE_CAUSE_MEASURED)
		snprintf(buf + o, len - o, "; measured: %s", v->cause_text);
	else if (v->guess_why[0])
		snprintf(buf + o, len - o, "; likely cause (a guess from system counters; no "
			 "breakdown: %s): %s", v->guess_why, v->cause_text);
	else
		snprintf(buf + o, len - o, "; likely cause (a guess from system counters): %s",
			 v->cause_text);
}
