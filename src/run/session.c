#include "session_priv.h"
#include "iowhy.h"
#include "loadthink.h"
#include "child.h"
#include "msg.h"
#include "now.h"
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
	int rc = session_dir_check(cfg, cfg->dir, dfd, err, errlen);
	if (rc == 0 && cfg->evict == ACTION_EVICT_DROP_CACHES &&
	    (geteuid() != 0 || access("/proc/sys/vm/drop_caches", W_OK) < 0))
		rc = msg_fail(-EPERM, err, errlen, "--drop-caches needs root "
			      "(/proc/sys/vm/drop_caches is not writable)");
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
	s->run->sigfd = s->run->timerfd = -1;
	struct session_area *a0 = &s->run->areas[0];
	snprintf(a0->dir, sizeof(a0->dir), "%s", cfg->dir);
	a0->dir_fd = dfd;
	a0->work_fd = a0->owner_fd = -1;
	s->run->n_areas = 1;
	s->run->rr = cfg->first_action;   /* taken modulo the action count */
	s->run->rng = cfg->seed ? cfg->seed : now_ns() ^ (uint64_t)getpid();
	rc = session_areas_open(s, err, errlen);
	if (rc == 0) {
		session_devices_init(s);
		kstat_vm_dirty_read(&s->vm);
		rc = session_new_epoch(s, "start");
		if (rc < 0)
			msg_fail(rc, err, errlen, "%s", strerror(-rc));
	}
	if (rc < 0) {
		session_areas_close(s);
		free(s->run);
		free(s);
		return rc;
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

static int interrupted(struct session *s)
{
	session_read_signals(s);
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
	fprintf(stderr, "brisk: test pause: %s made; waiting for %s\n", s->run->areas[0].work_name, p);
	for (int ms = 0; ms < TEST_PAUSE_MAX_MS && access(p, F_OK) < 0 && !interrupted(s); ms += 10)
		poll(NULL, 0, 10);
}

static int prepare(struct session *s, char *err, size_t errlen)
{
	const struct session_config *c = &s->cfg;
	size_t nl = 0;
	for (size_t i = 0; i < c->n_loads; i++)
		nl += c->loads[i].count;
	int rc = session_areas_make(s, err, errlen);
	if (rc < 0)
		return rc;
	test_pause(s);

	for (unsigned k = 0; k < ACTION_KIND_COUNT; k++) {
		if (!(c->actions & (1u << k)))
			continue;
		if (interrupted(s))
			return 0;
		rc = action_prepare(&s->actions[s->n_actions], (enum action_kind)k, &c->action,
				    s->run->areas[0].work_fd, c->evict, err, errlen);
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
		/* instances are numbered per kind over every spec, so two specs
		 * of one kind (a profile's, a fio job's) get files and names of
		 * their own: rand-read#1, rand-read#2, ... */
		unsigned first = 1;
		for (size_t k = 0; k < s->n_loads; k++)
			first += s->loads[k].spec.kind == c->loads[i].kind;
		for (unsigned j = 0; j < c->loads[i].count; j++) {
			if (interrupted(s))
				return 0;
			struct load *l = &s->loads[s->n_loads];
			const struct session_area *a = &s->run->areas[session_area_of(s, &c->loads[i])];
			rc = load_prepare_from(l, &c->loads[i], first + j, a->work_fd,
					       s->run->areas[0].work_fd);
			l->delay_ns = loadthink_pick_delay(&c->loads[i], &s->run->rng);
			s->n_loads++;
			if (rc < 0)
				return msg_fail(rc, err, errlen, "%s: cannot prepare %s/%s: %s",
					    load_kind_name(c->loads[i].kind), a->workdir, l->name,
					    strerror(-rc));
		}
	}
	s->n_load_set = s->n_loads;
	if (session_wants_evictable(c) && !c->settle_max_ns)   /* else the settle child does it */
		action_make_evictable(s->run->areas[0].work_fd);
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
			session_read_signals(s);
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
		session_read_signals(s);
	}
}

/* The breakdown's collector, loaded once the work area is ready (it
 * costs the verifier's time, not the samples'); unavailable: said once. */
static void split_open(struct session *s)
{
	if (s->cfg.no_breakdown) {
		snprintf(s->split_off, sizeof(s->split_off), "turned off (--no-breakdown)");
		return;
	}
	char why[200];   /* said by each front end, once (runreport_split, dash) */
	if (iowhy_open(&s->run->why, why, sizeof(why)) < 0) {
		snprintf(s->split_off, sizeof(s->split_off), "%s", why);
		return;
	}
	s->split_on = 1;
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
		split_open(s);
		session_sys_baseline(s);
		if (s->cfg.settle_max_ns)
			session_settle_start(s, now_ns());
		else
			session_enter(s, SESSION_IDLE, now_ns());
		rc = session_loop(s);
		if (rc < 0)
			msg_fail(rc, err, errlen, "event loop: %s", strerror(-rc));
	}
	s->phase = SESSION_STOP;
	stop_everything(s);
	iowhy_close(s->run->why);
	s->run->why = NULL;
	session_load_end_count(s);
	run_exit_hooks(s);
	session_areas_remove(s);
	s->t_end = now_ns() - s->t0;
	s->phase = SESSION_DONE;
	if (s->run->sigfd >= 0) {
		session_read_signals(s);
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
	iowhy_close(s->run->why);
	s->run->why = NULL;
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
	session_areas_close(s);
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
		if (session_ats_pending(s) && c->loaded_max_ns) {   /* it ends on its duration */
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
		reads |= load_kind_splits(loads[i].spec.kind);   /* it reads too */
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
