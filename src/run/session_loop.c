#include "session_priv.h"
#include "now.h"
#include "parse.h"
#include "trace.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

/* ---- phases ---- */

/* The file system device's counters at one end of the load window. */
static void window_mark(struct session *s, int end, uint64_t now)
{
	struct session_fsdev *f = &s->fsdev;
	if (end) {
		f->t_to = now - s->t0;
		f->ok_to = f->name[0] && kstat_disk_read(f->name, &f->to) == 0;
	} else {
		f->t_from = now - s->t0;
		f->ok_from = f->name[0] && kstat_disk_read(f->name, &f->from) == 0;
	}
}

void session_enter(struct session *s, enum session_phase p, uint64_t now)
{
	s->phase = p;
	trace(TRACE_SESSION, "phase %s", session_phase_name(p));
	s->run->phase_start = now;
	s->run->next_due = now;
	memset(s->run->counts, 0, sizeof(s->run->counts));
	if (p == SESSION_IDLE)
		s->t_idle_start = now - s->t0;
	if (p == SESSION_LOADED) {
		s->t_loaded_start = now - s->t0;
		window_mark(s, 0, now);
	}
	if (p == SESSION_STOP) {
		s->t_stop = now - s->t0;
		if (s->fsdev.t_from && !s->fsdev.t_to)   /* the window ends here at the latest */
			window_mark(s, 1, now);
	}
}

/* The end of the load window while the loaded phase goes on (0: none). */
static uint64_t window_due(const struct session *s)
{
	if (s->phase != SESSION_LOADED || !s->cfg.load_window_ns || s->fsdev.t_to)
		return 0;
	return s->run->phase_start + s->cfg.load_window_ns;
}

int session_ats_pending(const struct session *s)
{
	for (const struct session_at *a = s->run->ats; a; a = a->next)
		if (!a->done)
			return 1;
	return 0;
}

static void run_ats(struct session *s, uint64_t now)
{
	if (!s->t_load_start || s->phase > SESSION_LOADED)
		return;
	for (struct session_at *a = s->run->ats; a; a = a->next) {
		if (a->done || s->t0 + s->t_load_start + a->t_ns > now)
			continue;
		a->done = 1;
		char err[200] = "";
		int rc = a->fn(a->ctx, err, sizeof(err));
		if (rc == 0)
			session_new_epoch(s, a->label);
		else
			session_msg(s, "at +%.1fs %s: %s", (double)a->t_ns / 1e9, a->label,
				    *err ? err : strerror(rc < 0 ? -rc : rc));
	}
}

static int has_buffered_writer(const struct session *s)
{
	for (size_t i = 0; i < s->n_loads; i++) {
		const struct load_spec *sp = &s->loads[i].spec;
		if (!sp->direct && (sp->kind == LOAD_SEQ_WRITE || sp->kind == LOAD_RAND_WRITE ||
				    sp->kind == LOAD_FSYNC_WRITE))
			return 1;
	}
	return 0;
}

/* Cold ls samples need the new tree's metadata evictable (action.h). */
int session_wants_evictable(const struct session_config *c)
{
	return c->evict == ACTION_EVICT_DROP_CACHES && (c->actions & (1u << ACTION_LS));
}

/* The settle step: a child syncs the file system; the phase ends when it
 * has and Dirty + Writeback are down to the target, or at the limit (then
 * settle_timeout and settle_left).  A sync still running when the session
 * ends is left to finish: whoever reaps the process's children next. */
void session_settle_start(struct session *s, uint64_t now)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (session_wants_evictable(&s->cfg))
			action_make_evictable(s->run->areas[0].work_fd);
		else
			session_areas_sync(s);
		_exit(0);
	}
	if (pid < 0)
		session_msg(s, "settle: cannot fork the sync: %s", strerror(errno));
	s->run->settle_pid = pid > 0 ? pid : 0;
	session_enter(s, SESSION_SETTLE, now);
}

static void settle_step(struct session *s, uint64_t now, uint64_t in_phase)
{
	struct kstat_mem m;
	uint64_t level = kstat_mem_read(&m) == 0 ? m.dirty + m.writeback : 0;
	if (!s->run->settle_pid && level <= s->cfg.settle_target) {
		s->settle_ns = in_phase;
		session_enter(s, SESSION_IDLE, now);
	} else if (in_phase >= s->cfg.settle_max_ns) {
		s->settle_ns = in_phase;
		s->settle_timeout = 1;
		s->settle_left = level > s->cfg.settle_target ? level - s->cfg.settle_target : 0;
		char left[32];
		parse_format_iec(left, sizeof(left), s->settle_left);
		session_msg(s, "settle: gave up after %.0fs with %s of dirty and writeback "
			    "data above the starting level%s", (double)in_phase / 1e9, left,
			    s->run->settle_pid ? " (sync still running)" : "");
		session_enter(s, SESSION_IDLE, now);
	}
}

/* Dirty + Writeback have stopped growing: over the last PLATEAU_TICKS
 * warm-up ticks the level rose by at most 5 % + 8 MiB, and writeback is
 * under way (the writer is held at the dirty limits: its steady state). */
#define PLATEAU_TICKS 3
static int dirty_plateau(const struct session *s)
{
	uint64_t lv[PLATEAU_TICKS];
	size_t k = 0;
	for (size_t i = s->n_ticks; i-- > 0 && k < PLATEAU_TICKS;) {
		const struct session_tick *t = &s->ticks[i];
		if (t->phase != SESSION_WARMUP || !t->mem_ok)
			break;
		lv[k++] = t->dirty + t->writeback;
	}
	if (k < PLATEAU_TICKS || !s->run->writeback_seen)
		return 0;
	uint64_t newest = lv[0], oldest = lv[k - 1];
	return newest <= oldest + oldest / 20 + 8 * MiB;
}

/* Scheduled samples due now, in order, while slots and instances are free;
 * a start the cap holds back is counted late.  1 while entries are left. */
static int schedule_step(struct session *s, uint64_t now)
{
	struct session_run *r = s->run;
	const struct session_config *c = &s->cfg;
	if (!c->n_starts)
		return 0;
	for (size_t i = 0; i < c->n_starts; i++) {
		const struct session_start *e = &c->starts[i];
		if (r->start_state[i] == 1 || r->start_state[i] == 2)
			continue;
		uint64_t due = r->phase_start + e->t_ns;
		if (e->after >= 0) {
			if (r->start_state[e->after] != 2)
				continue;
			if (r->start_end[e->after] + e->gap_ns > due)
				due = r->start_end[e->after] + e->gap_ns;
		}
		if (now < due)
			continue;
		int idx = -1;
		for (unsigned k = 0; k < s->n_actions && idx < 0; k++)
			if (s->actions[k].kind == (enum action_kind)e->action)
				idx = (int)k;
		int held = r->start_state[i] == 3;
		if (idx < 0 || session_sample_start(s, (unsigned)idx, (int)i, now) == -EBUSY) {
			/* held back by the cap: counted once, when it finally starts */
			r->start_state[i] = 3;
			continue;
		}
		if (held) {
			s->late_starts++;
			if (now - due > s->late_max_ns)
				s->late_max_ns = now - due;
		}
	}
	return r->starts_done < c->n_starts;
}

/* The next time a scheduled entry is due (absolute), 0 when none waits
 * on time alone. */
static uint64_t schedule_due(const struct session *s)
{
	const struct session_run *r = s->run;
	uint64_t due = 0;
	for (size_t i = 0; i < s->cfg.n_starts; i++) {
		const struct session_start *e = &s->cfg.starts[i];
		/* one held back by the cap waits for a sample to end (its pipe
		 * wakes the loop), not for a time */
		if (r->start_state[i] || (e->after >= 0 && r->start_state[e->after] != 2))
			continue;
		uint64_t d = r->phase_start + e->t_ns;
		if (e->after >= 0 && r->start_end[e->after] + e->gap_ns > d)
			d = r->start_end[e->after] + e->gap_ns;
		if (!due || d < due)
			due = d;
	}
	return due;
}

static void loaded_step(struct session *s, uint64_t now, uint64_t in_phase)
{
	struct session_run *r = s->run;
	int limit = s->cfg.loaded_max_ns && in_phase >= s->cfg.loaded_max_ns && !s->cfg.open_ended;
	/* the loaded phase lasts the load window at least: samples done, the
	 * loads run on */
	int hold = !limit && s->cfg.load_window_ns && in_phase < s->cfg.load_window_ns;
	if (s->cfg.n_starts && !limit && schedule_step(s, now))
		return;   /* the schedule decides; it ends when every entry has */
	if (s->cfg.n_starts && !s->cfg.open_ended) {
		if (limit)
			session_sample_abandon(s, "the loaded phase's time limit");
		if (!r->n_inflight && !hold)
			session_enter(s, SESSION_STOP, now);
		return;
	}
	if (r->n_inflight >= r->n_slots || (r->n_slots <= 1 && r->n_inflight))
		return;
	if (s->cfg.open_ended) {
		if (s->n_actions && now >= r->next_due)
			session_sample_start(s, (unsigned)session_next_action(s, UINT32_MAX), -1, now);
		return;
	}
	/* the sample count ends the phase only when every action has its
	 * samples in the current epoch and no at() change is pending */
	int next = session_next_action(s, s->cfg.loaded_samples);
	int counted = s->n_actions && next < 0 && !session_ats_pending(s);
	if (counted || limit) {
		if (!r->n_inflight && !hold)   /* samples in flight end first */
			session_enter(s, SESSION_STOP, now);
		return;
	}
	if (next < 0)   /* waiting for an epoch: keep sampling evenly */
		next = session_next_action(s, UINT32_MAX);
	if (next >= 0 && now >= r->next_due)
		session_sample_start(s, (unsigned)next, -1, now);
}

static void advance(struct session *s, uint64_t now)
{
	struct session_run *r = s->run;
	if (s->cfg.max_time_ns && now - s->t0 >= s->cfg.max_time_ns && s->phase < SESSION_STOP) {
		s->cut_by_max_time = 1;
		session_msg(s, "run cut at --max-time %.0fs", (double)s->cfg.max_time_ns / 1e9);
		session_sample_abandon(s, "max-time reached");
		session_enter(s, SESSION_STOP, now);
	}
	if ((s->stop_signal || s->stop_requested) && s->phase < SESSION_STOP) {
		session_sample_abandon(s, s->stop_signal ? strsignal(s->stop_signal) : "stopped");
		session_enter(s, SESSION_STOP, now);
	}
	for (unsigned i = 0; i < r->n_slots; i++) {
		struct session_slot *sl = &r->slots[i];
		if (sl->pid && now >= sl->deadline) {
			kill(-sl->pid, SIGKILL);
			session_sample_record(s, sl, 1, 0);
		}
	}
	run_ats(s, now);
	uint64_t wdue = window_due(s);
	if (wdue && now >= wdue)
		window_mark(s, 1, now);
	/* every load failed: "loaded" samples would measure an idle disk */
	if ((s->phase == SESSION_WARMUP || s->phase == SESSION_LOADED) && s->n_failed &&
	    !s->loads_paused && !session_loads_running(s) && session_loads_failed(s)) {
		session_msg(s, "no load is running (they failed): the run stops without "
			    "loaded samples");
		session_sample_abandon(s, "no load");
		session_enter(s, SESSION_STOP, now);
	}
	uint64_t in_phase = now - r->phase_start;
	switch (s->phase) {
	case SESSION_SETTLE:
		settle_step(s, now, in_phase);
		break;
	case SESSION_IDLE:
		if (r->n_inflight)
			break;
		if (session_next_action(s, s->cfg.idle_samples) < 0 ||
		    (s->cfg.idle_max_ns && in_phase >= s->cfg.idle_max_ns)) {
			if (s->n_loads) {
				session_loads_start(s);
				session_enter(s, SESSION_WARMUP, now);
			} else {
				session_enter(s, SESSION_STOP, now);
			}
		} else if (now >= r->next_due) {
			session_sample_start(s, (unsigned)session_next_action(s, s->cfg.idle_samples), -1,
					     now);
		}
		break;
	case SESSION_WARMUP:
		/* at its longest; at once without a running load; after the
		 * minimum without a buffered writer, or once writeback is under
		 * way (or, for compare, the dirty plateau) */
		if (in_phase >= s->cfg.warmup_max_ns || !session_loads_running(s) ||
		    (in_phase >= s->cfg.warmup_min_ns && !has_buffered_writer(s)) ||
		    (in_phase >= s->cfg.warmup_min_ns && (s->cfg.warmup_plateau ? dirty_plateau(s)
								      : r->writeback_seen)))
			session_enter(s, SESSION_LOADED, now);
		break;
	case SESSION_LOADED:
		loaded_step(s, now, in_phase);
		break;
	case SESSION_STOP:
		if (r->stop_stage == 0) {
			for (size_t i = 0; i < s->n_loads; i++)
				load_stop(&s->loads[i]);
			r->stop_stage = 1;
			r->stop_deadline = now + STOP_GRACE_NS;
		}
		if (!session_loads_running(s)) {
			session_enter(s, SESSION_DONE, now);
		} else if (now >= r->stop_deadline && r->stop_stage == 1) {
			for (size_t i = 0; i < s->n_loads; i++)
				load_kill(&s->loads[i]);
			r->stop_stage = 2;
			r->stop_deadline = now + STOP_GRACE_NS;
		} else if (now >= r->stop_deadline) {
			session_msg(s, "%d load process(es) did not die (stuck in I/O?)",
				    session_loads_running(s));
			session_enter(s, SESSION_DONE, now);
		}
		break;
	case SESSION_PREPARE:
	case SESSION_DONE:
		break;
	}
}

static uint64_t min_due(uint64_t a, uint64_t b)
{
	return b && b < a ? b : a;
}

static int poll_timeout_ms(struct session *s, uint64_t now)
{
	struct session_run *r = s->run;
	uint64_t due = now + s->cfg.tick_ns;
	for (unsigned i = 0; i < r->n_slots; i++)
		if (r->slots[i].pid)
			due = min_due(due, r->slots[i].deadline);
	/* the next sample's time, when one could start then (else a sample's
	 * end, a tick or a limit wakes the loop: no spinning on a past time) */
	int may_start = s->phase == SESSION_IDLE ? !r->n_inflight :
			s->phase == SESSION_LOADED && !s->cfg.n_starts &&
			(r->n_slots > 1 ? r->n_inflight < r->n_slots &&
			 (s->cfg.open_ended || session_next_action(s, s->cfg.loaded_samples) >= 0 ||
			  session_ats_pending(s)) : !r->n_inflight);
	if (may_start)
		due = min_due(due, r->next_due);
	if (s->phase == SESSION_LOADED && s->cfg.n_starts)
		due = min_due(due, schedule_due(s));
	if (s->phase == SESSION_IDLE && s->cfg.idle_max_ns)
		due = min_due(due, r->phase_start + s->cfg.idle_max_ns);
	if (s->phase == SESSION_WARMUP)   /* past the minimum, ticks decide */
		due = min_due(due, r->phase_start + (now < r->phase_start + s->cfg.warmup_min_ns ?
						     s->cfg.warmup_min_ns : s->cfg.warmup_max_ns));
	if (s->phase == SESSION_LOADED && s->cfg.loaded_max_ns && !s->cfg.open_ended)
		due = min_due(due, r->phase_start + s->cfg.loaded_max_ns);
	if (window_due(s))   /* its end, which also ends a held phase */
		due = min_due(due, window_due(s));
	if (s->phase == SESSION_STOP)
		due = min_due(due, r->stop_deadline);
	if (s->phase == SESSION_SETTLE)
		due = min_due(due, now + 100 * MS);
	if (s->cfg.max_time_ns)
		due = min_due(due, s->t0 + s->cfg.max_time_ns);
	for (struct session_at *a = s->run->ats; a && s->t_load_start; a = a->next)
		if (!a->done)
			due = min_due(due, s->t0 + s->t_load_start + a->t_ns);
	if (due <= now)
		return 0;
	return (int)((due - now + MS - 1) / MS);
}

void session_read_signals(struct session *s)
{
	struct signalfd_siginfo si;
	while (read(s->run->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			session_reap(s);
		else if (!s->stop_signal)
			s->stop_signal = (int)si.ssi_signo;
	}
}

int session_loop(struct session *s)
{
	struct session_run *r = s->run;
	size_t nw = 0, cap = 0;
	for (struct session_watch *w = s->run->watches; w; w = w->next)
		nw++;
	struct pollfd *pf = NULL;
	while (s->phase != SESSION_DONE) {
		uint64_t now = now_ns();
		advance(s, now);
		if (s->phase == SESSION_DONE)
			break;
		size_t ns = r->n_slots, want = 2 + ns + s->n_loads + nw;
		if (cap < want) {   /* a resume adds loads */
			struct pollfd *np = realloc(pf, want * sizeof(*pf));
			if (!np) {
				free(pf);
				return -ENOMEM;
			}
			pf = np;
			cap = want;
		}
		size_t n = 0;
		pf[n++] = (struct pollfd){ .fd = s->run->sigfd, .events = POLLIN };
		pf[n++] = (struct pollfd){ .fd = s->run->timerfd, .events = POLLIN };
		for (size_t i = 0; i < ns; i++)
			pf[n++] = (struct pollfd){ .fd = r->slots[i].pid ? r->slots[i].fd : -1,
						   .events = POLLIN };
		for (size_t i = 0; i < s->n_loads; i++)
			pf[n++] = (struct pollfd){ .fd = s->loads[i].fd, .events = POLLIN };
		for (struct session_watch *w = s->run->watches; w; w = w->next)
			pf[n++] = (struct pollfd){ .fd = w->fd, .events = w->events };
		int rc = poll(pf, n, poll_timeout_ms(s, now));
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(pf);
			return -e;
		}
		if (pf[0].revents)
			session_read_signals(s);
		if (pf[1].revents) {
			uint64_t exp;
			if (read(s->run->timerfd, &exp, sizeof(exp)) == (ssize_t)sizeof(exp))
				session_sys_tick(s);
		}
		for (size_t i = 0; i < ns; i++)
			if (pf[2 + i].revents && r->slots[i].pid)
				session_sample_input(s, &r->slots[i]);
		for (size_t i = 0; i < s->n_loads; i++)
			if (pf[2 + ns + i].revents && load_read(&s->loads[i]) < 0)
				session_msg(s, "%s #%u: garbled report", load_kind_name(s->loads[i].spec.kind),
					    s->loads[i].index);
		size_t k = 2 + ns + s->n_loads;
		for (struct session_watch *w = s->run->watches; w; w = w->next, k++)
			if (pf[k].revents)
				w->fn(w->ctx, w->fd, pf[k].revents);
	}
	free(pf);
	return 0;
}
