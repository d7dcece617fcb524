#include "session_priv.h"
#include "child.h"
#include "msg.h"
#include "stack.h"
#include "now.h"
#include "parse.h"
#include "trace.h"
#include "tunable.h"

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
#include <sys/signalfd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


const char *session_phase_name(enum session_phase p)
{
	switch (p) {
	case SESSION_PREPARE: return "prepare";
	case SESSION_SETTLE: return "settle";
	case SESSION_IDLE: return "idle";
	case SESSION_WARMUP: return "warm-up";
	case SESSION_LOADED: return "loaded";
	case SESSION_STOP: return "stop";
	case SESSION_DONE: return "done";
	}
	return "?";
}

void session_config_default(struct session_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->dir, sizeof(c->dir), ".");
	struct load_spec w;
	char err[128];
	load_spec_parse("seq-write", &w, err, sizeof(err));
	c->loads[0] = w;
	c->n_loads = 1;
	c->actions = (1u << ACTION_KIND_COUNT) - 1;
	action_config_default(&c->action);
	c->evict = ACTION_EVICT_FADVISE;
	c->idle_samples = 5;
	c->loaded_samples = 10;
	c->idle_max_ns = 10 * SEC;
	c->warmup_min_ns = 1 * SEC;
	c->warmup_max_ns = 5 * SEC;
	c->loaded_max_ns = 30 * SEC;
	c->interval_ns = 200 * MS;
	c->jitter_pct = 50;
	c->timeout_ns = 60 * SEC;
	c->max_time_ns = 60 * SEC;
	c->tick_ns = 1 * SEC;
	c->floor_pct = 5;
	c->floor_min = 2048 * MiB;
	c->seed = 0;
	c->trusted_uid = (uid_t)-1;
	long su = child_env_id("SUDO_UID");
	if (su >= 0)
		c->trusted_uid = (uid_t)su;
}

void session_msg(struct session *s, const char *fmt, ...)
{
	if (s->n_msgs >= SESSION_MAX_MSGS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->msgs[s->n_msgs++], sizeof(s->msgs[0]), fmt, ap);
	va_end(ap);
}


int session_note_setting(struct session *s, const char *key, const char *value)
{
	char w[SESSION_SETTINGS_LEN];
	int n = snprintf(w, sizeof(w), "%s=%s", key, value);
	if (n < 0 || (size_t)n >= sizeof(w) || strchr(w, ' '))
		return -EINVAL;
	size_t used = strlen(s->settings), wl = (size_t)n;
	/* already there: a whole word equal to w */
	for (const char *p = s->settings; (p = strstr(p, w)) != NULL; p += wl)
		if ((p == s->settings || p[-1] == ' ') && (p[wl] == ' ' || p[wl] == '\0'))
			return 0;
	if (used + (used ? 1 : 0) + wl >= sizeof(s->settings))
		return -E2BIG;
	if (used)
		s->settings[used++] = ' ';
	memcpy(s->settings + used, w, wl + 1);
	return 0;
}

const char *session_noted_settings(const struct session *s)
{
	return s->settings;
}

int session_new_epoch(struct session *s, const char *label)
{
	struct session_epoch *e = realloc(s->epochs, (s->n_epochs + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	s->epochs = e;
	e = &s->epochs[s->n_epochs++];
	if (s->run->ran && s->phase == SESSION_LOADED)   /* each loaded epoch gets its samples */
		memset(s->run->counts, 0, sizeof(s->run->counts));
	snprintf(e->label, sizeof(e->label), "%s", label ? label : "");
	e->t_ns = s->t0 ? now_ns() - s->t0 : 0;
	e->load_on = !s->loads_paused && s->loads && session_loads_running(s) > 0;
	return 0;
}

static void dev_add(struct session *s, const char *name, size_t *dropped)
{
	for (size_t i = 0; i < s->n_devs; i++)
		if (strcmp(s->devs[i].name, name) == 0)
			return;
	if (s->n_devs == SESSION_MAX_DEVS) {
		(*dropped)++;
		return;
	}
	snprintf(s->devs[s->n_devs++].name, sizeof(s->devs[0].name), "%s", name);
}

/* The leaves of a stack, then those of any loop device's backing file
 * (a loop device's I/O ends up on the disk under its file). */
static void dev_collect(struct session *s, const struct stack *st, size_t *dropped, int depth)
{
	const struct blockdev *leaves[SESSION_MAX_DEVS];
	size_t n = stack_leaves(st, leaves, SESSION_MAX_DEVS);
	*dropped += n > SESSION_MAX_DEVS ? n - SESSION_MAX_DEVS : 0;
	for (size_t i = 0; i < n && i < SESSION_MAX_DEVS; i++)
		dev_add(s, leaves[i]->name, dropped);
	/* walk the tree for backing stacks, a few levels at most */
	const struct stack_node *todo[64];
	size_t nt = 0;
	if (st->root)
		todo[nt++] = st->root;
	while (nt && depth < 4) {
		const struct stack_node *node = todo[--nt];
		if (node->backing && node->backing->root)
			dev_collect(s, node->backing, dropped, depth + 1);
		for (size_t i = 0; i < node->n_children && nt < 64; i++)
			todo[nt++] = node->children[i];
	}
}

static void devices_init(struct session *s)
{
	struct stack *st = NULL;
	int rc = stack_resolve_path(s->cfg.dir, &st);
	if (st)
		snprintf(s->fstype, sizeof(s->fstype), "%s", st->mount.fstype);
	if (rc == 0 && st->root)   /* the load window's device */
		snprintf(s->fsdev.name, sizeof(s->fsdev.name), "%s", st->root->dev.name);
	if (rc == 0) {
		size_t dropped = 0;
		dev_collect(s, st, &dropped, 0);
		if (dropped)
			session_msg(s, "more than %d devices behind %s: sampling the first %d",
				    SESSION_MAX_DEVS, s->cfg.dir, SESSION_MAX_DEVS);
	} else {
		session_msg(s, "no block device found behind %s (%s): no device statistics",
			    s->cfg.dir, rc == -ENODEV ? "not a block-device file system"
			    : strerror(-rc));
	}
	stack_free(st);
}

/* Kernel file systems that hold no files of ours (and no block device). */
int session_create(const struct session_config *cfg, struct session **out,
		   char *err, size_t errlen)
{
	if (!cfg->actions && !cfg->n_loads)
		return msg_fail(-EINVAL, err, errlen, "nothing to do: no action and no load");
	if (cfg->jitter_pct > 100)
		return msg_fail(-EINVAL, err, errlen, "jitter %u%%: must be 0..100", cfg->jitter_pct);
	if (cfg->tick_ns < 10 * MS)
		return msg_fail(-EINVAL, err, errlen, "sampling period must be at least 10ms");
	if (cfg->timeout_ns == 0)
		return msg_fail(-EINVAL, err, errlen, "the sample timeout must be above zero");
	if (cfg->concurrency > SESSION_MAX_INFLIGHT)
		return msg_fail(-EINVAL, err, errlen, "concurrency %u: at most %d samples can be "
				"in flight", cfg->concurrency, SESSION_MAX_INFLIGHT);
	if (cfg->n_starts > SESSION_MAX_STARTS)
		return msg_fail(-EINVAL, err, errlen, "%zu scheduled samples: at most %d",
				cfg->n_starts, SESSION_MAX_STARTS);
	for (size_t i = 0; i < cfg->n_starts; i++) {
		const struct session_start *e = &cfg->starts[i];
		if (e->action >= ACTION_KIND_COUNT || !(cfg->actions & (1u << e->action)) ||
		    e->after >= (int)i || e->after < -1)
			return msg_fail(-EINVAL, err, errlen, "scheduled sample %zu: an action not "
					"in the run, or it follows a later entry", i + 1);
	}
	struct stat st;
	if (stat(cfg->dir, &st) < 0)
		return msg_fail(-errno, err, errlen, "%s: %s", cfg->dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return msg_fail(-ENOTDIR, err, errlen, "%s: not a directory", cfg->dir);
	/* DIR is opened once; everything after is relative to this descriptor */
	int dfd = open(cfg->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return msg_fail(-errno, err, errlen, "%s: %s", cfg->dir, strerror(errno));
	int rc = session_dir_check(cfg, dfd, err, errlen);
	if (rc < 0) {
		close(dfd);
		return rc;
	}
	struct session *s = calloc(1, sizeof(*s));
	if (s && !(s->run = calloc(1, sizeof(*s->run)))) {
		free(s);
		s = NULL;
	}
	if (!s) {
		close(dfd);
		return -ENOMEM;
	}
	s->cfg = *cfg;
	s->run->sigfd = s->run->timerfd = s->run->owner_fd = s->run->work_fd = -1;
	s->run->dir_fd = dfd;
	s->run->rr = cfg->first_action;   /* taken modulo the action count */
	s->run->rng = cfg->seed ? cfg->seed : now_ns() ^ (uint64_t)getpid();
	devices_init(s);
	kstat_vm_dirty_read(&s->vm);
	if (session_new_epoch(s, "start") < 0) {
		close(dfd);
		free(s->run);
		free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

static int hook_add(struct session_hook **list, session_hook_fn fn, void *ctx)
{
	struct session_hook *h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	*h = (struct session_hook){ *list, fn, ctx };
	*list = h;
	return 0;
}

int session_on_exit(struct session *s, session_hook_fn fn, void *ctx)
{
	return hook_add(&s->run->hooks, fn, ctx);
}

int session_on_tick(struct session *s, session_hook_fn fn, void *ctx)
{
	return hook_add(&s->run->tick_hooks, fn, ctx);
}

int session_at(struct session *s, uint64_t t_ns, session_at_fn fn, void *ctx,
	       const char *label)
{
	struct session_at *a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->t_ns = t_ns;
	a->fn = fn;
	a->ctx = ctx;
	snprintf(a->label, sizeof(a->label), "%s", label ? label : "");
	struct session_at **p = &s->run->ats;     /* keep sorted by time */
	while (*p && (*p)->t_ns <= t_ns)
		p = &(*p)->next;
	a->next = *p;
	*p = a;
	return 0;
}

int session_watch_fd(struct session *s, int fd, short events, session_fd_fn fn, void *ctx)
{
	struct session_watch *w = malloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	*w = (struct session_watch){ s->run->watches, fd, events, fn, ctx };
	s->run->watches = w;
	return 0;
}

void session_stop(struct session *s)
{
	s->stop_requested = 1;
}

static void run_exit_hooks(struct session *s)
{
	if (s->run->hooks_done)
		return;
	s->run->hooks_done = 1;
	for (struct session_hook *h = s->run->hooks; h; h = h->next)
		h->fn(h->ctx);
}

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

static void enter(struct session *s, enum session_phase p, uint64_t now)
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

static int ats_pending(const struct session *s)
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
static int wants_evictable(const struct session_config *c)
{
	return c->evict == ACTION_EVICT_DROP_CACHES && (c->actions & (1u << ACTION_LS));
}

/* The settle step: a child syncs the file system; the phase ends when it
 * has and Dirty + Writeback are down to the target, or at the limit. */
static void settle_start(struct session *s, uint64_t now)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (wants_evictable(&s->cfg))
			action_make_evictable(s->run->work_fd);
		else
			syncfs(s->run->work_fd);
		_exit(0);
	}
	if (pid < 0)
		session_msg(s, "settle: cannot fork the sync: %s", strerror(errno));
	s->run->settle_pid = pid > 0 ? pid : 0;
	enter(s, SESSION_SETTLE, now);
}

static void settle_step(struct session *s, uint64_t now, uint64_t in_phase)
{
	struct kstat_mem m;
	uint64_t level = kstat_mem_read(&m) == 0 ? m.dirty + m.writeback : 0;
	if (!s->run->settle_pid && level <= s->cfg.settle_target) {
		s->settle_ns = in_phase;
		enter(s, SESSION_IDLE, now);
	} else if (in_phase >= s->cfg.settle_max_ns) {
		s->settle_ns = in_phase;
		s->settle_timeout = 1;
		s->settle_left = level > s->cfg.settle_target ? level - s->cfg.settle_target : 0;
		char left[32];
		parse_format_iec(left, sizeof(left), s->settle_left);
		session_msg(s, "settle: gave up after %.0fs with %s of dirty and writeback "
			    "data above the starting level%s", (double)in_phase / 1e9, left,
			    s->run->settle_pid ? " (sync still running)" : "");
		enter(s, SESSION_IDLE, now);
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
			enter(s, SESSION_STOP, now);
		return;
	}
	if (r->n_inflight >= r->n_slots || (r->n_slots <= 1 && r->n_inflight))
		return;
	if (s->cfg.open_ended) {
		if (s->n_actions && now >= r->next_due)
			session_sample_start(s, (unsigned)session_next_action(s, UINT32_MAX), -1, now);
		return;
	}
	int next = session_next_action(s, s->cfg.loaded_samples);
	int counted = s->n_actions && next < 0 && !ats_pending(s);
	if (counted || limit) {
		if (!r->n_inflight && !hold)   /* samples in flight end first */
			enter(s, SESSION_STOP, now);
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
		enter(s, SESSION_STOP, now);
	}
	if ((s->stop_signal || s->stop_requested) && s->phase < SESSION_STOP) {
		session_sample_abandon(s, s->stop_signal ? strsignal(s->stop_signal) : "stopped");
		enter(s, SESSION_STOP, now);
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
		enter(s, SESSION_STOP, now);
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
				enter(s, SESSION_WARMUP, now);
			} else {
				enter(s, SESSION_STOP, now);
			}
		} else if (now >= r->next_due) {
			session_sample_start(s, (unsigned)session_next_action(s, s->cfg.idle_samples), -1,
					     now);
		}
		break;
	case SESSION_WARMUP:
		if (in_phase >= s->cfg.warmup_max_ns || !session_loads_running(s) ||
		    (in_phase >= s->cfg.warmup_min_ns && !has_buffered_writer(s)) ||
		    (in_phase >= s->cfg.warmup_min_ns && (s->cfg.warmup_plateau ? dirty_plateau(s)
								      : r->writeback_seen)))
			enter(s, SESSION_LOADED, now);
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
			enter(s, SESSION_DONE, now);
		} else if (now >= r->stop_deadline && r->stop_stage == 1) {
			for (size_t i = 0; i < s->n_loads; i++)
				load_kill(&s->loads[i]);
			r->stop_stage = 2;
			r->stop_deadline = now + STOP_GRACE_NS;
		} else if (now >= r->stop_deadline) {
			session_msg(s, "%d load process(es) did not die (stuck in I/O?)",
				    session_loads_running(s));
			enter(s, SESSION_DONE, now);
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
			  ats_pending(s)) : !r->n_inflight);
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

static void read_signals(struct session *s)
{
	struct signalfd_siginfo si;
	while (read(s->run->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			session_reap(s);
		else if (!s->stop_signal)
			s->stop_signal = (int)si.ssi_signo;
	}
}

static int loop(struct session *s)
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
			read_signals(s);
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

static int interrupted(struct session *s)
{
	read_signals(s);
	return s->stop_signal || s->stop_requested;
}

/* For tests of the work area's safety: with BRISK_TEST_PAUSE=/ABS/PATH the
 * run says on stderr that the work directory exists and waits (30s at most,
 * or a signal) until that path exists, before it makes any file there.  It
 * only reads: the pause changes nothing a user could not do with SIGSTOP. */
static void test_pause(struct session *s)
{
	const char *p = getenv("BRISK_TEST_PAUSE");
	if (!p || p[0] != '/')
		return;
	fprintf(stderr, "brisk: test pause: %s made; waiting for %s\n", s->run->work_name, p);
	for (int ms = 0; ms < TEST_PAUSE_MAX_MS && access(p, F_OK) < 0 && !interrupted(s); ms += 10)
		poll(NULL, 0, 10);
}

static int prepare(struct session *s, char *err, size_t errlen)
{
	const struct session_config *c = &s->cfg;
	uint64_t need = 16 * MiB;   /* ls tree, save file, slack */
	int over = 0;
	if (c->actions & (1u << ACTION_SSH)) {   /* one file per instance */
		uint64_t ssh;
		unsigned k = c->concurrency > 1 ? c->concurrency : 1;
		over |= __builtin_mul_overflow(c->action.ssh_file, (uint64_t)k, &ssh);
		over |= __builtin_add_overflow(need, ssh, &need);
	}
	size_t nl = 0;
	int writes = 0;
	for (size_t i = 0; i < c->n_loads; i++) {
		uint64_t b;
		over |= load_spec_need(&c->loads[i], &b) < 0;
		over |= __builtin_add_overflow(need, b, &need);
		nl += c->loads[i].count;
		writes |= load_kind_writes(c->loads[i].kind);
	}
	if (over)
		return msg_fail(-EOVERFLOW, err, errlen, "the loads' sizes add up to more than "
			    "16 EiB: an absurd size (see size= and count=)");
	session_work_reap_orphans(s);   /* first: their space counts as free below */
	int rc = load_floor(s->run->dir_fd, c->floor_pct, c->floor_min, &s->floor_bytes);
	if (rc == 0 && c->floor_bytes)
		s->floor_bytes = c->floor_bytes;
	if (c->no_floor || !writes)   /* the floor is what writers leave */
		s->floor_bytes = 0;
	uint64_t avail = 0, want;
	if (rc == 0)
		rc = load_avail(s->run->dir_fd, &avail);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "%s: statvfs: %s", c->dir, strerror(-rc));
	if (__builtin_add_overflow(need, s->floor_bytes, &want) || avail < want) {
		char a[32], n[32], f[32];
		parse_format_iec(a, sizeof(a), avail);
		parse_format_iec(n, sizeof(n), need);
		parse_format_iec(f, sizeof(f), s->floor_bytes);
		return msg_fail(-ENOSPC, err, errlen, "%s: %s available; brisk needs %s for its "
				"files plus the free-space floor of %s (see --floor)", c->dir, a, n, f);
	}
	if ((rc = session_work_make(s, err, errlen)) < 0)
		return rc;
	if ((rc = session_work_own(s)) < 0)
		return msg_fail(rc, err, errlen, "%s: cannot create its owner file: %s", s->workdir,
			    strerror(-rc));
	test_pause(s);

	for (unsigned k = 0; k < ACTION_KIND_COUNT; k++) {
		if (!(c->actions & (1u << k)))
			continue;
		if (interrupted(s))
			return 0;
		rc = action_prepare(&s->actions[s->n_actions], (enum action_kind)k, &c->action,
				    s->run->work_fd, c->evict, err, errlen);
		if (rc < 0)
			return rc;
		if (s->actions[s->n_actions].note[0])
			session_msg(s, "%s: %s", action_kind_name((enum action_kind)k),
				    s->actions[s->n_actions].note);
		s->n_actions++;
	}
	if (interrupted(s))
		return 0;
	if ((rc = session_slots_prepare(s, err, errlen)) < 0)
		return rc;
	s->loads = calloc(nl ? nl : 1, sizeof(*s->loads));
	if (!s->loads)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_loads; i++) {
		for (unsigned j = 1; j <= c->loads[i].count; j++) {
			if (interrupted(s))
				return 0;
			struct load *l = &s->loads[s->n_loads];
			rc = load_prepare(l, &c->loads[i], j, s->run->work_fd);
			s->n_loads++;
			if (rc < 0)
				return msg_fail(rc, err, errlen, "%s: cannot prepare %s/%s: %s",
					    load_kind_name(c->loads[i].kind), s->workdir, l->name,
					    strerror(-rc));
		}
	}
	s->n_load_set = s->n_loads;
	if (wants_evictable(c) && !c->settle_max_ns)   /* else the settle child does it */
		action_make_evictable(s->run->work_fd);
	return 0;
}

static int setup_fds(struct session *s, char *err, size_t errlen)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, &s->run->oldmask) < 0)
		return msg_fail(-errno, err, errlen, "sigprocmask: %s", strerror(errno));
	s->run->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->run->sigfd < 0)
		return msg_fail(-errno, err, errlen, "signalfd: %s", strerror(errno));
	s->run->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->run->timerfd < 0)
		return msg_fail(-errno, err, errlen, "timerfd: %s", strerror(errno));
	struct itimerspec its = {
		.it_interval = { (time_t)(s->cfg.tick_ns / SEC), (long)(s->cfg.tick_ns % SEC) },
		.it_value = { (time_t)(s->cfg.tick_ns / SEC), (long)(s->cfg.tick_ns % SEC) },
	};
	if (timerfd_settime(s->run->timerfd, 0, &its, NULL) < 0)
		return msg_fail(-errno, err, errlen, "timerfd: %s", strerror(errno));
	return 0;
}

static void stop_everything(struct session *s)
{
	session_sample_abandon(s, "run ended");
	/* Loads: if the loop did not get there (prepare failed, or memory). */
	if (session_loads_running(s)) {
		for (size_t i = 0; i < s->n_loads; i++)
			load_stop(&s->loads[i]);
		uint64_t end = now_ns() + STOP_GRACE_NS;
		int killed = 0;
		while (session_loads_running(s)) {
			struct pollfd p = { .fd = s->run->sigfd, .events = POLLIN };
			poll(&p, 1, 100);
			read_signals(s);
			for (size_t i = 0; i < s->n_loads; i++)
				load_read(&s->loads[i]);
			if (now_ns() >= end) {
				if (killed)
					break;
				for (size_t i = 0; i < s->n_loads; i++)
					load_kill(&s->loads[i]);
				killed = 1;
				s->run->stop_stage = 2;   /* their deaths are ours */
				end = now_ns() + STOP_GRACE_NS;
			}
		}
	}
	for (size_t i = 0; i < s->n_loads; i++)
		load_read(&s->loads[i]);
	/* Samples that ended (the one just killed too) are collected here, not
	 * left to whoever reaps the process's children next. */
	uint64_t end = now_ns() + STOP_GRACE_NS;
	while (session_samples_unreaped(s) && now_ns() < end) {
		struct pollfd p = { .fd = s->run->sigfd, .events = POLLIN };
		poll(&p, 1, 100);
		read_signals(s);
	}
}

int session_run(struct session *s, char *err, size_t errlen)
{
	if (s->run->ran || s->run->hooks_done)
		return msg_fail(-EALREADY, err, errlen, "a session runs once");
	s->run->ran = 1;
	s->t0 = now_ns();
	s->epochs[0].t_ns = 0;
	for (size_t d = 0; d < s->n_devs; d++) {   /* the settings it measures with */
		char offered[256];
		if (tunable_schedulers(s->devs[d].name, s->devs[d].scheduler,
				       sizeof(s->devs[d].scheduler), offered, sizeof(offered)) < 0)
			s->devs[d].scheduler[0] = '\0';
	}
	int rc = setup_fds(s, err, errlen);
	if (rc == 0)
		rc = prepare(s, err, errlen);
	if (rc == 0 && !interrupted(s)) {
		session_sys_baseline(s);
		if (s->cfg.settle_max_ns)
			settle_start(s, now_ns());
		else
			enter(s, SESSION_IDLE, now_ns());
		rc = loop(s);
		if (rc < 0)
			msg_fail(rc, err, errlen, "event loop: %s", strerror(-rc));
	}
	s->phase = SESSION_STOP;
	stop_everything(s);
	session_load_end_count(s);
	run_exit_hooks(s);
	session_work_remove(s);
	if (s->run->owner_fd >= 0)
		close(s->run->owner_fd);
	s->run->owner_fd = -1;
	if (s->run->work_fd >= 0)
		close(s->run->work_fd);
	s->run->work_fd = -1;
	s->t_end = now_ns() - s->t0;
	s->phase = SESSION_DONE;
	if (s->run->sigfd >= 0) {
		read_signals(s);
		close(s->run->sigfd);
		s->run->sigfd = -1;
	}
	if (s->run->timerfd >= 0)
		close(s->run->timerfd);
	s->run->timerfd = -1;
	sigprocmask(SIG_SETMASK, &s->run->oldmask, NULL);
	return rc;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	run_exit_hooks(s);
	session_slots_free(s);
	for (unsigned i = 0; i < s->n_actions; i++)
		action_free(&s->actions[i]);
	for (size_t i = 0; i < s->n_loads; i++)
		load_free(&s->loads[i]);
	free(s->loads);
	free(s->epochs);
	free(s->samples);
	free(s->ticks);
	free(s->ticks_disk);
	for (struct session_at *a = s->run->ats, *n; a; a = n) {
		n = a->next;
		free(a);
	}
	struct session_hook *lists[] = { s->run->hooks, s->run->tick_hooks };
	for (size_t i = 0; i < 2; i++)
		for (struct session_hook *h = lists[i], *n; h; h = n) {
			n = h->next;
			free(h);
		}
	for (struct session_watch *w = s->run->watches, *n; w; w = n) {
		n = w->next;
		free(w);
	}
	if (s->run->work_fd >= 0)
		close(s->run->work_fd);
	if (s->run->dir_fd >= 0)
		close(s->run->dir_fd);
	free(s->run);
	free(s);
}

/* ---- progress ---- */

/* The time from one sample's start to the next one's in phase ph, from
 * the samples of that phase so far: from the first one's fork to the
 * latest one's end, plus the pause before the next, over their count (one
 * at a time, that is fork, eviction, the timed part and the pause); 0 when
 * there are none.  *last gets the latest end (relative to t0). */
static uint64_t sample_cycle(const struct session *s, enum session_phase ph, uint64_t *last)
{
	size_t n = 0;
	uint64_t first = UINT64_MAX;
	*last = 0;
	for (size_t i = 0; i < s->n_samples; i++) {
		const struct session_sample *x = &s->samples[i];
		if (x->phase != ph)
			continue;
		n++;
		if (x->fork_ns < first)
			first = x->fork_ns;
		if (x->t_ns + x->dur_ns > *last)
			*last = x->t_ns + x->dur_ns;
	}
	return n && *last > first ? (*last - first + s->cfg.interval_ns) / n : 0;
}

/* Samples the phase still needs (counts: this phase's, and epoch's). */
static size_t samples_left(const struct session *s, unsigned want)
{
	size_t left = 0;
	for (unsigned i = 0; i < s->n_actions; i++)
		left += s->run->counts[i] < want ? want - s->run->counts[i] : 0;
	return left;
}

/* Time left of a phase that ends after `left` more samples of `cycle`
 * each, the latest having ended at `last` (relative; the phase's start
 * while none has, `seen` 0): it counts down between samples, but never
 * below the samples not started yet.  While the phase's first sample
 * runs longer than the guess, it is what the guess is (a loaded sample
 * usually takes longer than the idle pace the guess came from). */
static uint64_t phase_left(size_t left, uint64_t cycle, uint64_t last, int seen, uint64_t el)
{
	if (!left)
		return 0;
	uint64_t since = el > last ? el - last : 0;
	if (!seen && since > cycle)
		cycle = since;
	uint64_t t = left * cycle, floor = (left - 1) * cycle;
	return t > since + floor ? t - since : floor;
}

static uint64_t cap_left(uint64_t t, uint64_t limit, uint64_t used)
{
	if (!limit)
		return t;
	uint64_t rest = limit > used ? limit - used : 0;
	return t < rest ? t : rest;
}

void session_progress(const struct session *s, size_t *done, size_t *planned, uint64_t *eta_ns)
{
	const struct session_config *c = &s->cfg;
	size_t n_act = s->n_actions ? s->n_actions : (size_t)__builtin_popcount(c->actions);
	size_t per = c->idle_samples + (s->n_loads || c->n_loads ? c->loaded_samples : 0);
	*done = s->n_samples;
	*planned = per * n_act;
	if (c->n_starts)   /* the schedule sets the loaded samples */
		*planned = (size_t)c->idle_samples * n_act + c->n_starts;
	*eta_ns = 0;
	if (!s->run->ran || s->phase >= SESSION_STOP || (s->cfg.open_ended && s->phase >= SESSION_WARMUP))
		return;
	/* Each phase still to come: its samples at the pace seen so far (the
	 * idle pace stands for the loaded one until loaded samples exist; the
	 * interval before any), bounded by its time limit; the warm-up at
	 * its longest; all of it bounded by max_time. */
	uint64_t now = now_ns(), el = now - s->t0, in_phase = now - s->run->phase_start;
	uint64_t idle_last, loaded_last;
	uint64_t idle_cycle = sample_cycle(s, SESSION_IDLE, &idle_last);
	uint64_t loaded_cycle = sample_cycle(s, SESSION_LOADED, &loaded_last);
	if (!idle_cycle)
		idle_cycle = c->interval_ns ? c->interval_ns : 1;
	if (!loaded_cycle)
		loaded_cycle = idle_cycle;
	uint64_t left = 0;
	if (s->phase <= SESSION_IDLE) {
		uint64_t t;
		if (s->phase == SESSION_IDLE)
			t = cap_left(phase_left(samples_left(s, c->idle_samples), idle_cycle,
						idle_last > s->t_idle_start ? idle_last : s->t_idle_start,
						idle_last != 0, el),
				     c->idle_max_ns, in_phase);
		else
			t = cap_left((uint64_t)c->idle_samples * n_act * idle_cycle, c->idle_max_ns, 0);
		left += t;
	}
	if (c->n_loads && s->phase <= SESSION_WARMUP) {
		int buffered = 0;
		for (size_t i = 0; i < c->n_loads; i++)
			buffered |= !c->loads[i].direct && (c->loads[i].kind == LOAD_SEQ_WRITE ||
							     c->loads[i].kind == LOAD_RAND_WRITE ||
							     c->loads[i].kind == LOAD_FSYNC_WRITE);
		/* without a buffered writer it ends at the minimum, else at
		 * the latest (it often ends sooner: writeback under way) */
		uint64_t w = buffered ? c->warmup_max_ns : c->warmup_min_ns;
		left += cap_left(w, w, s->phase == SESSION_WARMUP ? in_phase : 0);
	}
	if (c->n_loads && s->phase <= SESSION_LOADED) {
		int in = s->phase == SESSION_LOADED;
		uint64_t t, used = in ? in_phase : 0;
		if (ats_pending(s) && c->loaded_max_ns) {   /* it ends on its duration */
			t = cap_left(c->loaded_max_ns, c->loaded_max_ns, used);
		} else {
			size_t ended = in ? s->run->starts_done : 0;
			if (c->n_starts)
				t = (c->n_starts > ended ? c->n_starts - ended : 0) * loaded_cycle;
			else if (in)
				t = phase_left(samples_left(s, c->loaded_samples), loaded_cycle,
					       loaded_last > s->t_loaded_start ? loaded_last :
					       s->t_loaded_start, loaded_last != 0, el);
			else
				t = (uint64_t)c->loaded_samples * n_act * loaded_cycle;
			if (c->load_window_ns && t + used < c->load_window_ns)
				t = c->load_window_ns - used;   /* held for the window */
			t = cap_left(t, c->loaded_max_ns, used);
		}
		left += t;
	}
	*eta_ns = cap_left(left, c->max_time_ns, el);
}


/* ---- the load window ---- */

void session_load_window_calc(const struct load *loads, size_t n_loads, uint64_t from_ns,
			      uint64_t to_ns, const struct kstat_disk *from,
			      const struct kstat_disk *to, struct session_load_window *out)
{
	*out = (struct session_load_window){ .seconds = 0, .load_mibps = NAN,
		.disk_wr_mibps = NAN, .disk_rd_mibps = NAN, .disk_mibps = NAN };
	if (to_ns <= from_ns)
		return;
	double sec = (double)(to_ns - from_ns) / 1e9, bytes = 0;
	int writes = 0, reads = 0;
	for (size_t i = 0; i < n_loads; i++) {
		bytes += load_window_bytes(&loads[i], from_ns, to_ns);
		if (load_kind_writes(loads[i].spec.kind))
			writes = 1;
		else
			reads = 1;
	}
	out->seconds = sec;
	if (!n_loads)
		return;
	out->load_mibps = bytes / MiB / sec;
	/* a counter that went backwards (device re-created) says nothing */
	if (from && to && to->wr_sectors >= from->wr_sectors && to->rd_sectors >= from->rd_sectors) {
		out->disk_wr_mibps = (double)(to->wr_sectors - from->wr_sectors) * 512.0 / MiB / sec;
		out->disk_rd_mibps = (double)(to->rd_sectors - from->rd_sectors) * 512.0 / MiB / sec;
		out->disk_mibps = (writes ? out->disk_wr_mibps : 0) + (reads ? out->disk_rd_mibps : 0);
	}
}

int session_load_window(const struct session *s, struct session_load_window *out)
{
	const struct session_fsdev *f = &s->fsdev;
	int have = f->t_from && f->t_to;
	session_load_window_calc(s->loads, have ? s->n_loads : 0, s->t0 + f->t_from,
				 have ? s->t0 + f->t_to : 0, f->ok_from && f->ok_to ? &f->from : NULL,
				 f->ok_from && f->ok_to ? &f->to : NULL, out);
	return have ? 0 : -ENODATA;
}
