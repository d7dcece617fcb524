/* session_sample — what the loop runs and records: action samples (one at
 * a time, each in a fresh process), system ticks (kstat), the loads, and
 * the reaping of every child (session.h's contract). */
#include "session_priv.h"
#include "msg.h"
#include "stack.h"
#include "stats.h"
#include "now.h"
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- samples ---- */

size_t session_durations(const struct session *s, enum action_kind a, uint32_t epoch,
			 enum session_phase phase, double *out, size_t max)
{
	size_t n = 0;
	int cold_only = 0;
	for (unsigned k = 0; k < s->n_actions; k++)
		if (s->actions[k].kind == a)
			cold_only = action_cold_only(&s->actions[k], s->cfg.evict, s->cfg.keep_warm);
	for (size_t i = 0; i < s->n_samples && n < max; i++) {
		const struct session_sample *x = &s->samples[i];
		if (x->action == a && x->phase == phase && !x->err && (x->cold || !cold_only) &&
		    (epoch == UINT32_MAX || x->epoch == epoch))
			out[n++] = (double)x->dur_ns / 1e6;
	}
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

/* The action with the fewest samples in this phase (and epoch, when
 * loaded); ties go round-robin.  -1 when every action has `want`. */
int session_next_action(struct session *s, unsigned want)
{
	struct session_run *r = s->run;
	int best = -1;
	unsigned best_n = want;
	for (unsigned i = 0; i < s->n_actions; i++) {
		unsigned idx = (r->rr + i) % s->n_actions;
		unsigned c = r->counts[idx];
		if (c < best_n) {
			best_n = c;
			best = (int)idx;
		}
	}
	return best;
}

static void sample_close(struct session *s)
{
	struct session_run *r = s->run;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->pid && !r->pid_reaped) {   /* its pipe said how it ended; session_reap()
					   * only collects it */
		size_t i = 0;
		while (i < SAMPLES_UNREAPED - 1 && r->ended[i])
			i++;
		r->ended[i] = r->pid;   /* full (never seen): the last slot is reused */
	}
	r->pid = 0;
	r->pid_reaped = 0;
	r->have_first = 0;
}

void session_sample_start(struct session *s, unsigned idx, uint64_t now)
{
	struct session_run *r = s->run;
	int rc = action_sample_start(&s->actions[idx], s->cfg.evict, &r->pid, &r->fd);
	r->rr = (idx + 1) % s->n_actions;
	if (rc < 0) {
		s->n_failed++;
		session_msg(s, "%s: cannot fork a sample: %s", action_kind_name(s->actions[idx].kind),
			    strerror(-rc));
		r->next_due = now + SEC;
		return;
	}
	fcntl(r->fd, F_SETFL, O_NONBLOCK);
	r->action = idx;
	r->started = now;
	trace(TRACE_SESSION, "sample of action %u started: pid %ld", idx, (long)r->pid);
	r->deadline = now + s->cfg.timeout_ns;
	r->epoch = (uint32_t)(s->n_epochs - 1);
	r->phase = (uint8_t)s->phase;
	r->have_first = 0;
}

void session_sample_record(struct session *s, int timeout, int err)
{
	struct session_run *r = s->run;
	struct session_sample x = {
		.epoch = r->epoch,
		.phase = r->phase,
		.action = (uint8_t)s->actions[r->action].kind,
		.cold = r->have_first ? (uint8_t)r->res.cold : 0,
		.timeout = (uint8_t)timeout,
		.err = err,
	};
	uint64_t now = now_ns();
	x.t_ns = (r->have_first ? r->res.t_start_ns : r->started) - s->t0;
	if (timeout)
		x.dur_ns = s->cfg.timeout_ns;
	else if (r->have_first && r->res.dur_ns != UINT64_MAX)
		x.dur_ns = r->res.dur_ns;
	if (add_sample(s, &x) < 0)
		session_msg(s, "out of memory: a sample was lost");
	/* only the sample's own phase and epoch count towards their target */
	if (r->phase == s->phase && (s->phase != SESSION_LOADED || r->epoch == s->n_epochs - 1))
		r->counts[r->action]++;
	if (err >= 1000)
		session_msg(s, "%s: the program exited with status %d",
			    action_kind_name(s->actions[r->action].kind), err - 1000);
	else if (err && s->actions[r->action].kind == ACTION_EXEC) {
		s->n_failed++;     /* the program could not be started */
		session_msg(s, "exec: cannot start %s: %s", s->actions[r->action].argv[0],
			    strerror(err));
	} else if (err)
		session_msg(s, "%s: a sample failed: %s",
			    action_kind_name(s->actions[r->action].kind), strerror(err));
	sample_close(s);
	r->next_due = now + jittered(s);
}

void session_sample_input(struct session *s)
{
	struct session_run *r = s->run;
	for (;;) {
		struct action_result res;
		int rc = action_sample_read(r->fd, &res);
		if (rc == -EAGAIN)
			return;
		if (rc <= 0) {     /* EOF without a final record: it died */
			session_sample_record(s, 0, rc < 0 ? -rc : ECHILD);
			return;
		}
		r->res = res;
		r->have_first = 1;
		if (res.dur_ns != UINT64_MAX) {
			session_sample_record(s, 0, res.err);
			return;
		}
	}
}

void session_sample_abandon(struct session *s, const char *why)
{
	struct session_run *r = s->run;
	if (!r->pid)
		return;
	kill(-r->pid, SIGKILL);
	session_msg(s, "%s: the sample in flight was discarded (%s)",
		    action_kind_name(s->actions[r->action].kind), why);
	sample_close(s);
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
		int rc = load_start(&s->loads[i], s->floor_bytes);
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
		int rc = load_start(l, s->floor_bytes);
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

/* A load's end: what the report says of it. */
static void load_ended(struct session *s, struct load *l, int status)
{
	load_reaped(l, status);
	const char *name = load_kind_name(l->spec.kind);
	if (l->end == LOAD_END_FLOOR)
		session_msg(s, "%s #%u ended: free-space floor (%.2f GiB) reached, "
			    "the writer stopped", name, l->index,
			    (double)s->floor_bytes / (1 << 30));
	else if (l->end == LOAD_END_DIED)
		session_msg(s, "%s #%u died (%s %d)", name, l->index,
			    WIFSIGNALED(status) ? "signal" : "exit status", l->err);
	else if (l->end != LOAD_END_STOPPED && l->end != LOAD_END_DONE)
		session_msg(s, "%s #%u ended: %s%s%s", name, l->index,
			    load_end_name(l->end), l->err ? ": " : "",
			    l->err ? strerror(l->err) : "");
	/* a load that failed (or died before brisk killed it) makes
	 * the run an error */
	if (l->end == LOAD_END_ERROR ||
	    (l->end == LOAD_END_DIED && s->run->stop_stage < 2))
		s->n_failed++;
}

/* A sample's pid (in flight or ended): its pipe says how it went. */
static int sample_reaped(struct session *s, pid_t pid)
{
	struct session_run *r = s->run;
	if (pid && pid == r->pid) {   /* before its pipe closed */
		r->pid_reaped = 1;
		return 1;
	}
	for (size_t i = 0; i < SAMPLES_UNREAPED; i++)
		if (r->ended[i] == pid) {
			r->ended[i] = 0;
			return 1;
		}
	return 0;
}

size_t session_samples_unreaped(const struct session *s)
{
	size_t n = 0;
	for (size_t i = 0; i < SAMPLES_UNREAPED; i++)
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
