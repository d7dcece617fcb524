/* session_sample — what the loop runs and records: action samples (one at
 * a time or several at once, each in a fresh process), system ticks (kstat), the loads, and
 * the reaping of every child (session.h; brisk-run(1)). */
#include "session_priv.h"
#include "iowhy.h"
#include "msg.h"
#include "stats.h"
#include "now.h"
#include "parse.h"
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- samples ---- */

static int cold_only_of(const struct session *s, enum action_kind a)
{
	for (unsigned k = 0; k < s->n_actions; k++)
		if (s->actions[k].kind == a)
			return action_cold_only(&s->actions[k], s->cfg.evict, s->cfg.keep_warm);
	return 0;
}

/* Does sample x count in the statistics of (a, epoch, phase)? */
static int counted(const struct session_sample *x, enum action_kind a, uint32_t epoch,
		   enum session_phase phase, int cold_only)
{
	return x->action == a && x->phase == phase && !x->err && (x->cold || !cold_only) &&
	       (epoch == UINT32_MAX || x->epoch == epoch);
}

size_t session_durations(const struct session *s, enum action_kind a, uint32_t epoch,
			 enum session_phase phase, double *out, size_t max)
{
	size_t n = 0;
	int cold_only = cold_only_of(s, a);
	for (size_t i = 0; i < s->n_samples && n < max; i++)
		if (counted(&s->samples[i], a, epoch, phase, cold_only))
			out[n++] = (double)s->samples[i].dur_ns / 1e6;
	return n;
}

size_t session_splits(const struct session *s, enum action_kind a, uint32_t epoch,
		      enum session_phase phase, const struct timesplit **out, size_t max)
{
	size_t n = 0;
	int cold_only = cold_only_of(s, a);
	for (size_t i = 0; i < s->n_samples && n < max; i++)
		if (counted(&s->samples[i], a, epoch, phase, cold_only) && s->samples[i].split.ok)
			out[n++] = &s->samples[i].split;
	return n;
}

static int add_sample(struct session *s, const struct session_sample *x)
{
	if (s->n_samples == s->cap_samples) {
		size_t cap = s->cap_samples ? s->cap_samples * 2 : 128;
		struct session_sample *n = realloc(s->samples, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		s->samples = n;
		s->cap_samples = cap;
	}
	s->samples[s->n_samples++] = *x;
	return 0;
}

static uint64_t jittered(struct session *s)
{
	uint64_t base = s->cfg.interval_ns;
	if (!s->cfg.jitter_pct || !base)
		return base;
	uint64_t span = base * s->cfg.jitter_pct / 100;
	return base - span + stats_rand_range(&s->run->rng, 0, 2 * span);
}

/* Samples of action idx in flight now (in this phase). */
static unsigned inflight_of(const struct session *s, unsigned idx)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->run->n_slots; i++)
		n += s->run->slots[i].pid && s->run->slots[i].action == idx;
	return n;
}

/* The action with the fewest samples in this phase (and epoch, when
 * loaded), those in flight included; ties go round-robin.  -1 when every
 * action has `want`. */
int session_next_action(struct session *s, unsigned want)
{
	struct session_run *r = s->run;
	int best = -1;
	unsigned best_n = want;
	for (unsigned i = 0; i < s->n_actions; i++) {
		unsigned idx = (r->rr + i) % s->n_actions;
		unsigned c = r->counts[idx] + (r->n_slots > 1 ? inflight_of(s, idx) : 0);
		if (c < best_n) {
			best_n = c;
			best = (int)idx;
		}
	}
	return best;
}

int session_inst_free(const struct session *s, unsigned idx)
{
	for (unsigned i = 0; i < s->run->n_insts; i++)
		if (s->run->insts[i].action == idx && !s->run->insts[i].busy)
			return (int)i;
	return -1;
}

static void sample_close(struct session *s, struct session_slot *sl)
{
	struct session_run *r = s->run;
	if (sl->fd >= 0)
		close(sl->fd);
	sl->fd = -1;
	if (sl->pid && !sl->pid_reaped) {   /* its pipe said how it ended; session_reap()
					     * only collects it */
		size_t n = sizeof(r->ended) / sizeof(r->ended[0]), i = 0;
		while (i < n - 1 && r->ended[i])
			i++;
		r->ended[i] = sl->pid;   /* full (never seen): the last slot is reused */
	}
	if (sl->pid) {
		r->insts[sl->inst].busy = 0;
		r->n_inflight--;
	}
	if (sl->entry >= 0) {
		r->start_state[sl->entry] = 2;
		r->start_end[sl->entry] = now_ns();
		r->starts_done++;
	}
	sl->pid = 0;
	sl->pid_reaped = 0;
	sl->have_first = 0;
	sl->entry = -1;
}

int session_sample_start(struct session *s, unsigned idx, int entry, uint64_t now)
{
	struct session_run *r = s->run;
	struct session_slot *sl = NULL;
	for (unsigned i = 0; i < r->n_slots && !sl; i++)
		if (!r->slots[i].pid)
			sl = &r->slots[i];
	int inst = session_inst_free(s, idx);
	if (!sl || inst < 0)
		return -EBUSY;
	volatile struct iowhy_window *win = NULL;
	if (r->why && iowhy_arm(r->why, (unsigned)(sl - r->slots), &win) < 0)
		win = NULL;
	int rc = action_sample_start(r->insts[inst].a, s->cfg.evict, win, &sl->pid, &sl->fd);
	iowhy_disarm(r->why);
	r->rr = (idx + 1) % s->n_actions;
	if (rc < 0) {
		sl->pid = 0;
		sl->fd = -1;
		s->n_failed++;
		session_msg(s, "%s: cannot fork a sample: %s", action_kind_name(s->actions[idx].kind),
			    strerror(-rc));
		r->next_due = now + SEC;
		if (entry >= 0) {   /* the entry is spent: its sample could not run */
			r->start_state[entry] = 2;
			r->start_end[entry] = now;
			r->starts_done++;
		}
		return 0;
	}
	fcntl(sl->fd, F_SETFL, O_NONBLOCK);
	r->insts[inst].busy = 1;
	r->n_inflight++;
	if (r->n_inflight > s->inflight_max)
		s->inflight_max = r->n_inflight;
	sl->inst = (unsigned)inst;
	sl->action = idx;
	sl->entry = entry;
	sl->started = now;
	sl->inflight = (uint8_t)r->n_inflight;
	if (entry >= 0)
		r->start_state[entry] = 1;
	trace(TRACE_SESSION, "sample of action %u started: pid %ld, %u in flight", idx,
	      (long)sl->pid, r->n_inflight);
	sl->deadline = now + s->cfg.timeout_ns;
	sl->epoch = (uint32_t)(s->n_epochs - 1);
	sl->phase = (uint8_t)s->phase;
	sl->have_first = 0;
	if (r->n_slots > 1 && entry < 0 && s->phase == SESSION_LOADED)   /* concurrent:
									  * paced from the start */
		r->next_due = now + jittered(s);
	return 0;
}

/* Which issuers of the requests ahead are the session's own loads and
 * samples (while they still run, so their pids are theirs). */
static void split_roles(const struct session *s, struct timesplit *t)
{
	const struct session_run *r = s->run;
	for (uint32_t i = 0; i < t->n_makers; i++) {
		struct timesplit_maker *m = &t->makers[i];
		for (size_t k = 0; k < s->n_loads && !m->role; k++)
			if (s->loads[k].pid > 0 && s->loads[k].pid == m->pid)
				m->role = TIMESPLIT_LOAD;
		for (unsigned k = 0; k < r->n_slots && !m->role; k++)
			if (r->slots[k].pid > 0 && r->slots[k].pid == m->pid)
				m->role = TIMESPLIT_SAMPLE;
	}
}

void session_sample_record(struct session *s, struct session_slot *sl, int timeout, int err)
{
	struct session_run *r = s->run;
	struct session_sample x = {
		.epoch = sl->epoch,
		.phase = sl->phase,
		.action = (uint8_t)s->actions[sl->action].kind,
		.cold = sl->have_first ? (uint8_t)sl->res.cold : 0,
		.timeout = (uint8_t)timeout,
		.inflight = sl->inflight,
		.err = err,
		.fork_ns = sl->started - s->t0,
		.pid = (int32_t)sl->pid,
	};
	uint64_t now = now_ns();
	x.t_ns = (sl->have_first ? sl->res.t_start_ns : sl->started) - s->t0;
	if (timeout)
		x.dur_ns = s->cfg.timeout_ns;
	else if (sl->have_first && sl->res.dur_ns != UINT64_MAX)
		x.dur_ns = sl->res.dur_ns;
	if (r->why && sl->have_first) {   /* where its timed part went */
		uint64_t from = sl->res.t_start_ns;
		uint64_t to = x.dur_ns ? from + x.dur_ns : now;
		struct iowhy_acct acct;
		if (iowhy_collect(r->why, (unsigned)(sl - r->slots), from, to, &acct) == 0) {
			timesplit_from_acct(&x.split, &acct);
			split_roles(s, &x.split);
			char cause[256];
			timesplit_cause(&x.split, cause, sizeof(cause));
			trace(TRACE_SESSION, "%s sample %.3f ms: %s (flags %#x)",
			      action_kind_name(s->actions[sl->action].kind),
			      (double)timesplit_wall_ns(&x.split) / 1e6, cause, x.split.flags);
		}
	}
	if (add_sample(s, &x) < 0)
		session_msg(s, "out of memory: a sample was lost");
	/* only the sample's own phase and epoch count towards their target */
	if (sl->phase == s->phase && (s->phase != SESSION_LOADED || sl->epoch == s->n_epochs - 1))
		r->counts[sl->action]++;
	const struct action *a = &s->actions[sl->action];
	if (err >= 1000)
		session_msg(s, "%s: the program exited with status %d", action_kind_name(a->kind),
			    err - 1000);
	else if (err && a->kind == ACTION_EXEC) {
		s->n_failed++;     /* the program could not be started */
		session_msg(s, "exec: cannot start %s: %s", a->argv[0], strerror(err));
	} else if (err)
		session_msg(s, "%s: a sample failed: %s", action_kind_name(a->kind), strerror(err));
	sample_close(s, sl);
	if (r->n_slots <= 1 || s->phase != SESSION_LOADED)
		r->next_due = now + jittered(s);
}

void session_sample_input(struct session *s, struct session_slot *sl)
{
	for (;;) {
		struct action_result res;
		int rc = action_sample_read(sl->fd, &res);
		if (rc == -EAGAIN)
			return;
		if (rc <= 0) {     /* EOF without a final record: it died */
			session_sample_record(s, sl, 0, rc < 0 ? -rc : ECHILD);
			return;
		}
		sl->res = res;
		sl->have_first = 1;
		if (res.dur_ns != UINT64_MAX) {
			session_sample_record(s, sl, 0, res.err);
			return;
		}
	}
}

void session_sample_abandon(struct session *s, const char *why)
{
	struct session_run *r = s->run;
	unsigned n = 0;
	const char *name = NULL;
	for (unsigned i = 0; i < r->n_slots; i++) {
		struct session_slot *sl = &r->slots[i];
		if (!sl->pid)
			continue;
		kill(-sl->pid, SIGKILL);
		name = action_kind_name(s->actions[sl->action].kind);
		n++;
		sample_close(s, sl);
	}
	if (n == 1)
		session_msg(s, "%s: the sample in flight was discarded (%s)", name, why);
	else if (n)
		session_msg(s, "%u samples in flight were discarded (%s)", n, why);
}

/* ---- slots and instances ---- */

/* How many instances action idx needs: one, or (concurrent) as many as
 * can be in flight — no more than its scheduled samples.  Each extra one
 * has its own files in the work area's slot-K directory, so concurrent
 * samples never evict or warm each other's.  The idle phase uses one. */
static unsigned insts_wanted(const struct session *s, unsigned idx)
{
	const struct session_config *c = &s->cfg;
	if (c->concurrency <= 1)
		return 1;
	unsigned n = c->concurrency;
	if (c->n_starts) {
		unsigned k = 0;
		for (size_t i = 0; i < c->n_starts; i++)
			k += c->starts[i].action == s->actions[idx].kind;
		if (k < n)
			n = k ? k : 1;
	}
	return n;
}

int session_slots_prepare(struct session *s, char *err, size_t errlen)
{
	struct session_run *r = s->run;
	const struct session_config *c = &s->cfg;
	r->n_slots = c->concurrency > 1 ? c->concurrency : 1;
	r->slots = calloc(r->n_slots, sizeof(*r->slots));
	unsigned want = 0;
	for (unsigned i = 0; i < s->n_actions; i++)
		want += insts_wanted(s, i);
	r->insts = calloc(want ? want : 1, sizeof(*r->insts));
	if (c->n_starts) {
		r->start_state = calloc(c->n_starts, 1);
		r->start_end = calloc(c->n_starts, sizeof(*r->start_end));
	}
	if (!r->slots || !r->insts || (c->n_starts && (!r->start_state || !r->start_end)))
		return msg_fail(-ENOMEM, err, errlen, "out of memory for %u sample slots", r->n_slots);
	for (unsigned i = 0; i < r->n_slots; i++)
		r->slots[i].fd = -1, r->slots[i].entry = -1;
	unsigned dirno = 0;
	for (unsigned i = 0; i < s->n_actions; i++) {
		r->insts[r->n_insts++] = (struct session_inst){ .a = &s->actions[i], .action = i,
								.dirfd = -1 };
		for (unsigned k = 1; k < insts_wanted(s, i); k++) {
			char name[32];
			snprintf(name, sizeof(name), "slot-%u", ++dirno);
			if (mkdirat(r->areas[0].work_fd, name, 0700) < 0)
				return msg_fail(-errno, err, errlen, "%s/%s: cannot create: %s", s->workdir,
					    name, strerror(errno));
			int fd = openat(r->areas[0].work_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				return msg_fail(-errno, err, errlen, "%s/%s: cannot open: %s", s->workdir,
					    name, strerror(errno));
			struct action *a = calloc(1, sizeof(*a));
			if (!a) {
				close(fd);
				return -ENOMEM;
			}
			struct session_inst *in = &r->insts[r->n_insts++];
			*in = (struct session_inst){ .a = a, .action = i, .owned = 1, .dirfd = fd };
			int rc = action_prepare(a, s->actions[i].kind, &c->action, fd, c->evict, err,
						errlen);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

void session_slots_free(struct session *s)
{
	struct session_run *r = s->run;
	for (unsigned i = 0; i < r->n_insts; i++)
		if (r->insts[i].owned) {
			action_free(r->insts[i].a);
			free(r->insts[i].a);
			if (r->insts[i].dirfd >= 0)
				close(r->insts[i].dirfd);
		}
	free(r->insts);
	r->insts = NULL;
	r->n_insts = 0;
	free(r->slots);
	r->slots = NULL;
	r->n_slots = 0;
	free(r->start_state);
	free(r->start_end);
	r->start_state = NULL;
	r->start_end = NULL;
}

void session_load_end_count(struct session *s)
{
	if (!s->t_load_ended)
		return;
	s->n_after_load_end = 0;
	for (size_t i = 0; i < s->n_samples; i++)
		s->n_after_load_end += s->samples[i].phase == SESSION_LOADED &&
				       s->samples[i].fork_ns >= s->t_load_ended;
}

/* ---- system sampling ---- */

static int tick_grow(struct session *s)
{
	if (s->n_ticks < s->cap_ticks)
		return 0;
	size_t cap = s->cap_ticks ? s->cap_ticks * 2 : 64;
	struct session_tick *t = realloc(s->ticks, cap * sizeof(*t));
	if (!t)
		return -ENOMEM;
	s->ticks = t;
	size_t nd = s->n_devs ? s->n_devs : 1;
	struct kstat_rates *d = realloc(s->ticks_disk, cap * nd * sizeof(*d));
	if (!d)
		return -ENOMEM;
	s->ticks_disk = d;
	s->cap_ticks = cap;
	return 0;
}

void session_sys_baseline(struct session *s)
{
	for (size_t i = 0; i < s->n_devs; i++)
		s->devs[i].ok = kstat_disk_read(s->devs[i].name, &s->devs[i].last) == 0;
	s->fsdev.ok_last = s->fsdev.name[0] && kstat_disk_read(s->fsdev.name, &s->fsdev.last) == 0;
	s->run->psi_last_ok = kstat_psi_read(&s->run->psi_last) == 0;
	s->run->tick_last = now_ns();
}

void session_sys_tick(struct session *s)
{
	struct session_run *r = s->run;
	uint64_t now = now_ns(), dt = now - r->tick_last;
	r->tick_last = now;
	if (tick_grow(s) < 0) {
		session_msg(s, "out of memory: system sampling stopped");
		return;
	}
	struct session_tick *t = &s->ticks[s->n_ticks];
	memset(t, 0, sizeof(*t));
	t->t_ns = now - s->t0;
	t->epoch = (uint32_t)(s->n_epochs - 1);
	t->phase = (uint8_t)s->phase;
	for (size_t i = 0; i < s->n_devs; i++) {
		struct kstat_disk cur;
		struct kstat_rates *rt = &s->ticks_disk[s->n_ticks * s->n_devs + i];
		memset(rt, 0, sizeof(*rt));
		if (kstat_disk_read(s->devs[i].name, &cur) < 0) {
			s->devs[i].ok = 0;
			continue;
		}
		if (s->devs[i].ok)
			kstat_disk_rates(&s->devs[i].last, &cur, dt, rt);
		s->devs[i].last = cur;
		s->devs[i].ok = 1;
	}
	/* the file system device, for the dashboard's load line */
	t->fs_wr_mbps = t->fs_rd_mbps = NAN;
	struct kstat_disk fcur;
	if (s->fsdev.name[0] && kstat_disk_read(s->fsdev.name, &fcur) == 0) {
		if (s->fsdev.ok_last) {
			struct kstat_rates fr;
			kstat_disk_rates(&s->fsdev.last, &fcur, dt, &fr);
			t->fs_wr_mbps = fr.wr_mbps;
			t->fs_rd_mbps = fr.rd_mbps;
		}
		s->fsdev.last = fcur;
		s->fsdev.ok_last = 1;
	} else {
		s->fsdev.ok_last = 0;
	}
	struct kstat_psi psi;
	if (kstat_psi_read(&psi) == 0) {
		if (r->psi_last_ok && dt) {
			t->psi_ok = 1;
			t->psi_some_pct = 100.0 * (double)(psi.some.total_ns - r->psi_last.some.total_ns) / (double)dt;
			t->psi_full_pct = 100.0 * (double)(psi.full.total_ns - r->psi_last.full.total_ns) / (double)dt;
			t->psi_some_avg10 = psi.some.avg10;
			t->psi_full_avg10 = psi.full.avg10;
		}
		r->psi_last = psi;
		r->psi_last_ok = 1;
	}
	struct kstat_mem mem;
	if (kstat_mem_read(&mem) == 0) {
		t->mem_ok = 1;
		t->dirty = mem.dirty;
		t->writeback = mem.writeback;
		if (s->phase == SESSION_WARMUP && mem.writeback >= WRITEBACK_UNDER_WAY)
			r->writeback_seen = 1;
	}
	s->n_ticks++;
	for (size_t i = 0; i < s->n_loads; i++)
		if (s->loads[i].pid > 0 || s->loads[i].fd >= 0)
			load_sample(&s->loads[i], now);
	for (struct session_hook *h = s->run->tick_hooks; h; h = h->next)
		h->fn(h->ctx);
}

/* ---- loads ---- */

int session_loads_running(const struct session *s)
{
	int n = 0;
	for (size_t i = 0; i < s->n_loads; i++)
		n += s->loads[i].pid > 0;
	return n;
}

/* Did a load of the current set end with an error (none is running)? */
int session_loads_failed(const struct session *s)
{
	for (size_t i = s->n_loads - (s->n_loads >= s->n_load_set ? s->n_load_set : 0);
	     i < s->n_loads; i++)
		if (s->loads[i].end == LOAD_END_ERROR || s->loads[i].end == LOAD_END_DIED)
			return 1;
	return 0;
}

void session_loads_start(struct session *s)
{
	s->t_load_start = now_ns() - s->t0;
	for (size_t i = 0; i < s->n_loads; i++) {
		int rc = load_start(&s->loads[i], session_load_floor(s, &s->loads[i].spec));
		if (rc < 0) {
			s->loads[i].end = LOAD_END_ERROR;
			s->loads[i].err = -rc;
			s->n_failed++;
		}
		if (rc < 0)
			session_msg(s, "%s #%u: cannot start: %s", load_kind_name(s->loads[i].spec.kind),
				    s->loads[i].index, strerror(-rc));
	}
}

int session_loads_pause(struct session *s)
{
	if (!s->t_load_start || s->phase >= SESSION_STOP)
		return -EAGAIN;
	if (s->loads_paused)
		return -EALREADY;
	for (size_t i = 0; i < s->n_loads; i++)
		load_stop(&s->loads[i]);
	s->loads_paused = 1;
	return session_new_epoch(s, "load stopped");
}

int session_loads_resume(struct session *s)
{
	if (!s->t_load_start || s->phase >= SESSION_STOP)
		return -EAGAIN;
	if (!s->loads_paused)
		return -EALREADY;
	if (session_loads_running(s))
		return -EBUSY;
	size_t set = s->n_load_set;
	struct load *nl = realloc(s->loads, (s->n_loads + set) * sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	s->loads = nl;
	int first_err = 0, started = 0;
	for (size_t i = 0; i < set; i++) {
		struct load *l = &s->loads[s->n_loads];
		memset(l, 0, sizeof(*l));
		l->spec = s->loads[i].spec;
		l->index = s->loads[i].index;
		l->fd = -1;
		memcpy(l->name, s->loads[i].name, sizeof(l->name));
		l->dirfd = s->loads[i].dirfd;
		s->n_loads++;
		int rc = load_start(l, session_load_floor(s, &l->spec));
		if (rc < 0) {
			l->end = LOAD_END_ERROR;
			l->err = -rc;
			s->n_failed++;
			session_msg(s, "%s #%u: cannot start: %s", load_kind_name(l->spec.kind),
				    l->index, strerror(-rc));
			if (!first_err)
				first_err = rc;
		} else {
			started++;
		}
	}
	if (!started)
		return first_err;
	s->loads_paused = 0;
	int rc = session_new_epoch(s, "load started");
	return rc < 0 ? rc : first_err;
}

int session_loads_ioprio(struct session *s, int cls, int level)
{
	int first_err = 0;
	for (size_t i = 0; i < s->n_loads; i++) {
		int rc = load_set_ioprio(&s->loads[i], cls, level);
		if (rc < 0 && !first_err)
			first_err = rc;
	}
	return first_err;
}

/* A load's end: what the report says of it. */
static void load_ended(struct session *s, struct load *l, int status)
{
	load_reaped(l, status);
	const char *name = load_kind_name(l->spec.kind);
	char floor[32];
	parse_format_iec(floor, sizeof(floor), session_load_floor(s, &l->spec));
	if (l->end == LOAD_END_FLOOR)
		session_msg(s, "%s #%u ended: free-space floor (%s) reached, "
			    "the writer stopped", name, l->index, floor);
	else if (l->end == LOAD_END_DIED)
		session_msg(s, "%s #%u died (%s %d)", name, l->index,
			    WIFSIGNALED(status) ? "signal" : "exit status", l->err);
	else if (l->end != LOAD_END_STOPPED && l->end != LOAD_END_DONE)
		session_msg(s, "%s #%u ended: %s%s%s", name, l->index,
			    load_end_name(l->end), l->err ? ": " : "",
			    l->err ? strerror(l->err) : "");
	/* a load that failed (or died before brisk killed it) makes the run
	 * an error; so does one that ended early on its own, unless the
	 * workload's load is finite on purpose */
	if (l->end != LOAD_END_STOPPED && !s->loads_paused &&
	    (s->phase == SESSION_WARMUP || s->phase == SESSION_LOADED) && !s->t_load_ended) {
		uint64_t t = (l->t_last ? l->t_last : now_ns()) - s->t0;
		s->t_load_ended = t ? t : 1;
		snprintf(s->load_ended, sizeof(s->load_ended), "%s #%u (%s)", name, l->index,
			 load_end_name(l->end));
		session_msg(s, "%s ended at +%.1fs, before the loaded phase did: the figures after "
			    "+%.1fs were not taken under load%s", s->load_ended,
			    (double)s->t_load_ended / 1e9, (double)s->t_load_ended / 1e9,
			    s->cfg.load_finite ? " (the workload's load is finite on purpose)" : "");
		if (!s->cfg.load_finite && l->end != LOAD_END_ERROR && l->end != LOAD_END_DIED)
			s->n_failed++;
	}
	if (l->end == LOAD_END_ERROR ||
	    (l->end == LOAD_END_DIED && s->run->stop_stage < 2))
		s->n_failed++;
}

/* A sample's pid (in flight or ended): its pipe says how it went. */
static int sample_reaped(struct session *s, pid_t pid)
{
	struct session_run *r = s->run;
	for (unsigned i = 0; pid && i < r->n_slots; i++)
		if (r->slots[i].pid == pid) {   /* before its pipe closed */
			r->slots[i].pid_reaped = 1;
			return 1;
		}
	for (size_t i = 0; i < sizeof(r->ended) / sizeof(r->ended[0]); i++)
		if (r->ended[i] == pid) {
			r->ended[i] = 0;
			return 1;
		}
	return 0;
}

size_t session_samples_unreaped(const struct session *s)
{
	size_t n = 0;
	for (size_t i = 0; i < sizeof(s->run->ended) / sizeof(s->run->ended[0]); i++)
		n += s->run->ended[i] != 0;
	return n;
}

/* Every child of the process: a load, a sample, or the front end's own
 * (session.h: its status goes to the session_on_child() hook). */
void session_reap(struct session *s)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		trace(TRACE_SESSION, "child %ld ended: wait status 0x%x", (long)pid, (unsigned)status);
		struct load *l = NULL;
		for (size_t i = 0; i < s->n_loads && !l; i++)
			if (s->loads[i].pid == pid)
				l = &s->loads[i];
		if (l)
			load_ended(s, l, status);
		else if (pid == s->run->settle_pid)
			s->run->settle_pid = 0;
		else if (sample_reaped(s, pid))
			continue;
		else if (s->run->on_child)
			s->run->on_child(s->run->on_child_ctx, pid, status);
		/* else: a front end's child nobody asked about (session.h) */
	}
}

int session_on_child(struct session *s, session_child_fn fn, void *ctx)
{
	s->run->on_child = fn;
	s->run->on_child_ctx = ctx;
	return 0;
}
