#include "session.h"
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
#include <sys/signalfd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MS 1000000ull
#define SEC 1000000000ull
#define MiB (1024ull * 1024)
#define STOP_GRACE_NS (3 * SEC)
#define WRITEBACK_UNDER_WAY (1 * MiB)
#define ORPHAN_EMPTY_AGE 60      /* s: an empty .brisk-X this old is nobody's */
#define TEST_PAUSE_MAX_MS 30000

struct session_at {
	struct session_at *next;
	uint64_t t_ns;
	session_at_fn fn;
	void *ctx;
	int done;
	char label[96];
};

struct session_hook {
	struct session_hook *next;
	session_hook_fn fn;
	void *ctx;
};

struct session_watch {
	struct session_watch *next;
	int fd;
	short events;
	session_fd_fn fn;
	void *ctx;
};

/* State of the loop, private to this file. */
struct session_run {
	pid_t pid;                /* sample in flight, 0 if none */
	int fd;
	unsigned action;
	uint64_t started;         /* absolute, when it was forked */
	uint64_t deadline;        /* watchdog, absolute */
	unsigned counts[ACTION_KIND_COUNT];   /* samples in this phase (and
					       * loaded epoch), by action slot */
	struct action_result res;
	int have_first;
	uint32_t epoch;
	uint8_t phase;
	uint64_t next_due;        /* absolute */
	unsigned rr;
	uint64_t phase_start;     /* absolute */
	uint64_t stop_deadline;
	int stop_stage;           /* 0 none, 1 SIGTERM sent, 2 SIGKILL sent */
	int writeback_seen;
	sigset_t oldmask;
	struct kstat_psi psi_last;
	int psi_last_ok;
	uint64_t tick_last;
};

static int loads_running(const struct session *s);

const char *session_phase_name(enum session_phase p)
{
	switch (p) {
	case SESSION_PREPARE: return "prepare";
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
	const char *su = getenv("SUDO_UID");
	char *end;
	if (su && *su) {
		errno = 0;
		unsigned long u = strtoul(su, &end, 10);
		if (!errno && !*end && u < (uid_t)-1)
			c->trusted_uid = (uid_t)u;
	}
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


int session_new_epoch(struct session *s, const char *label)
{
	struct session_epoch *e = realloc(s->epochs, (s->n_epochs + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	s->epochs = e;
	e = &s->epochs[s->n_epochs++];
	if (s->run && s->phase == SESSION_LOADED)   /* each loaded epoch gets its samples */
		memset(s->run->counts, 0, sizeof(s->run->counts));
	snprintf(e->label, sizeof(e->label), "%s", label ? label : "");
	e->t_ns = s->t0 ? now_ns() - s->t0 : 0;
	e->load_on = !s->loads_paused && s->loads && loads_running(s) > 0;
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
static const char *pseudo_fs(long type)
{
	switch (type) {
	case 0x9fa0: return "proc";
	case 0x62656572: return "sysfs";
	case 0x1cd1: return "devpts";
	case 0x27e0eb: return "cgroup";
	case 0x63677270: return "cgroup2";
	case 0x64626720: return "debugfs";
	case 0x74726163: return "tracefs";
	case 0x73636673: return "securityfs";
	case 0xcafe4a11: return "bpf";
	case 0x62656570: return "configfs";
	case 0x6165676c: return "pstore";
	case 0xde5e81e4: return "efivarfs";
	}
	return NULL;
}

/* Can someone other than root, brisk's user and the user who ran sudo
 * (trusted_uid) write the directory?  Then why in why, 1; else 0. */
static int dir_shared(const struct stat *st, uid_t trusted, char *why, size_t len)
{
	if (st->st_uid != 0 && st->st_uid != geteuid() && st->st_uid != trusted) {
		snprintf(why, len, "it belongs to uid %u, neither root nor the user who ran "
			 "sudo", (unsigned)st->st_uid);
		return 1;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX)) {
		snprintf(why, len, "it is %s-writable (mode %04o) without the sticky bit",
			 st->st_mode & S_IWOTH ? "world" : "group", (unsigned)(st->st_mode & 07777));
		return 1;
	}
	return 0;
}

static int dir_check(const struct session_config *cfg, int dfd, char *err, size_t errlen)
{
	struct statfs sf;
	const char *pseudo = fstatfs(dfd, &sf) == 0 ? pseudo_fs((long)sf.f_type) : NULL;
	if (pseudo)
		return msg_fail(-ENODEV, err, errlen, "no block device behind %s (it is on %s, "
			    "a kernel file system): give a directory on a disk", cfg->dir, pseudo);
	if (access(cfg->dir, W_OK | X_OK) < 0)
		return msg_fail(-errno, err, errlen, "%s: not writable (%s); brisk needs to create "
			    "its own subdirectory there", cfg->dir, strerror(errno));
	struct stat st;
	char why[160];
	if (fstat(dfd, &st) < 0)
		return msg_fail(-errno, err, errlen, "%s: %s", cfg->dir, strerror(errno));
	if (geteuid() == 0 && !cfg->allow_shared_dir && dir_shared(&st, cfg->trusted_uid, why,
								     sizeof(why)))
		return msg_fail(-EPERM, err, errlen, "%s: other users can write this directory "
			    "(%s); brisk runs as root and refuses it (--allow-shared-dir runs "
			    "anyway)", cfg->dir, why);
	if (cfg->evict == ACTION_EVICT_DROP_CACHES &&
	    (geteuid() != 0 || access("/proc/sys/vm/drop_caches", W_OK) < 0))
		return msg_fail(-EPERM, err, errlen, "--drop-caches needs root "
			    "(/proc/sys/vm/drop_caches is not writable)");
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
	struct stat st;
	if (stat(cfg->dir, &st) < 0)
		return msg_fail(-errno, err, errlen, "%s: %s", cfg->dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return msg_fail(-ENOTDIR, err, errlen, "%s: not a directory", cfg->dir);
	/* DIR is opened once; everything after is relative to this descriptor */
	int dfd = open(cfg->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return msg_fail(-errno, err, errlen, "%s: %s", cfg->dir, strerror(errno));
	int rc = dir_check(cfg, dfd, err, errlen);
	if (rc < 0) {
		close(dfd);
		return rc;
	}
	struct session *s = calloc(1, sizeof(*s));
	if (!s) {
		close(dfd);
		return -ENOMEM;
	}
	s->cfg = *cfg;
	s->sigfd = s->timerfd = s->owner_fd = s->work_fd = -1;
	s->dir_fd = dfd;
	s->rng = cfg->seed ? cfg->seed : now_ns() ^ (uint64_t)getpid();
	devices_init(s);
	kstat_vm_dirty_read(&s->vm);
	if (session_new_epoch(s, "start") < 0) {
		close(dfd);
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
	return hook_add(&s->hooks, fn, ctx);
}

int session_on_tick(struct session *s, session_hook_fn fn, void *ctx)
{
	return hook_add(&s->tick_hooks, fn, ctx);
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
	struct session_at **p = &s->ats;     /* keep sorted by time */
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
	*w = (struct session_watch){ s->watches, fd, events, fn, ctx };
	s->watches = w;
	return 0;
}

void session_stop(struct session *s)
{
	s->stop_requested = 1;
}

static void run_exit_hooks(struct session *s)
{
	if (s->hooks_done)
		return;
	s->hooks_done = 1;
	for (struct session_hook *h = s->hooks; h; h = h->next)
		h->fn(h->ctx);
}

/* ---- samples ---- */

size_t session_durations(const struct session *s, enum action_kind a, uint32_t epoch,
			 enum session_phase phase, double *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_samples && n < max; i++) {
		const struct session_sample *x = &s->samples[i];
		if (x->action == a && x->phase == phase && !x->err &&
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
	return base - span + stats_rand_range(&s->rng, 0, 2 * span);
}

/* The action with the fewest samples in this phase (and epoch, when
 * loaded); ties go round-robin.  -1 when every action has `want`. */
static int next_action(struct session *s, unsigned want)
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
	r->pid = 0;
	r->have_first = 0;
}

static void sample_start(struct session *s, unsigned idx, uint64_t now)
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

static void sample_record(struct session *s, int timeout, int err)
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

static void sample_input(struct session *s)
{
	struct session_run *r = s->run;
	for (;;) {
		struct action_result res;
		int rc = action_sample_read(r->fd, &res);
		if (rc == -EAGAIN)
			return;
		if (rc <= 0) {     /* EOF without a final record: it died */
			sample_record(s, 0, rc < 0 ? -rc : ECHILD);
			return;
		}
		r->res = res;
		r->have_first = 1;
		if (res.dur_ns != UINT64_MAX) {
			sample_record(s, 0, res.err);
			return;
		}
	}
}

static void sample_abandon(struct session *s, const char *why)
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

static void system_baseline(struct session *s)
{
	for (size_t i = 0; i < s->n_devs; i++)
		s->devs[i].ok = kstat_disk_read(s->devs[i].name, &s->devs[i].last) == 0;
	s->run->psi_last_ok = kstat_psi_read(&s->run->psi_last) == 0;
	s->run->tick_last = now_ns();
}

static void tick(struct session *s)
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
	for (struct session_hook *h = s->tick_hooks; h; h = h->next)
		h->fn(h->ctx);
}

/* ---- loads ---- */

static int loads_running(const struct session *s)
{
	int n = 0;
	for (size_t i = 0; i < s->n_loads; i++)
		n += s->loads[i].pid > 0;
	return n;
}

/* Did a load of the current set end with an error (none is running)? */
static int loads_failed(const struct session *s)
{
	for (size_t i = s->n_loads - (s->n_loads >= s->n_load_set ? s->n_load_set : 0);
	     i < s->n_loads; i++)
		if (s->loads[i].end == LOAD_END_ERROR || s->loads[i].end == LOAD_END_DIED)
			return 1;
	return 0;
}

static void loads_start(struct session *s)
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
	if (loads_running(s))
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

static void reap(struct session *s)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		trace(TRACE_SESSION, "child %ld ended: wait status 0x%x", (long)pid, (unsigned)status);
		for (size_t i = 0; i < s->n_loads; i++) {
			struct load *l = &s->loads[i];
			if (l->pid != pid)
				continue;
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
		/* a sample's pid is handled by its pipe; others were killed */
	}
}

/* ---- phases ---- */

static void enter(struct session *s, enum session_phase p, uint64_t now)
{
	s->phase = p;
	trace(TRACE_SESSION, "phase %s", session_phase_name(p));
	s->run->phase_start = now;
	s->run->next_due = now;
	memset(s->run->counts, 0, sizeof(s->run->counts));
	if (p == SESSION_IDLE)
		s->t_idle_start = now - s->t0;
	if (p == SESSION_LOADED)
		s->t_loaded_start = now - s->t0;
	if (p == SESSION_STOP)
		s->t_stop = now - s->t0;
}

static int ats_pending(const struct session *s)
{
	for (const struct session_at *a = s->ats; a; a = a->next)
		if (!a->done)
			return 1;
	return 0;
}

static void run_ats(struct session *s, uint64_t now)
{
	if (!s->t_load_start || s->phase > SESSION_LOADED)
		return;
	for (struct session_at *a = s->ats; a; a = a->next) {
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

static void advance(struct session *s, uint64_t now)
{
	struct session_run *r = s->run;
	if (s->cfg.max_time_ns && now - s->t0 >= s->cfg.max_time_ns && s->phase < SESSION_STOP) {
		s->cut_by_max_time = 1;
		session_msg(s, "run cut at --max-time %.0fs", (double)s->cfg.max_time_ns / 1e9);
		sample_abandon(s, "max-time reached");
		enter(s, SESSION_STOP, now);
	}
	if ((s->stop_signal || s->stop_requested) && s->phase < SESSION_STOP) {
		sample_abandon(s, s->stop_signal ? strsignal(s->stop_signal) : "stopped");
		enter(s, SESSION_STOP, now);
	}
	if (r->pid && now >= r->deadline) {
		kill(-r->pid, SIGKILL);
		sample_record(s, 1, 0);
	}
	run_ats(s, now);
	/* every load failed: "loaded" samples would measure an idle disk */
	if ((s->phase == SESSION_WARMUP || s->phase == SESSION_LOADED) && s->n_failed &&
	    !s->loads_paused && !loads_running(s) && loads_failed(s)) {
		session_msg(s, "no load is running (they failed): the run stops without "
			    "loaded samples");
		sample_abandon(s, "no load");
		enter(s, SESSION_STOP, now);
	}
	uint64_t in_phase = now - r->phase_start;
	switch (s->phase) {
	case SESSION_IDLE:
		if (r->pid)
			break;
		if (next_action(s, s->cfg.idle_samples) < 0 ||
		    (s->cfg.idle_max_ns && in_phase >= s->cfg.idle_max_ns)) {
			if (s->n_loads) {
				loads_start(s);
				enter(s, SESSION_WARMUP, now);
			} else {
				enter(s, SESSION_STOP, now);
			}
		} else if (now >= r->next_due) {
			sample_start(s, (unsigned)next_action(s, s->cfg.idle_samples), now);
		}
		break;
	case SESSION_WARMUP:
		if (in_phase >= s->cfg.warmup_max_ns || !loads_running(s) ||
		    (in_phase >= s->cfg.warmup_min_ns && (r->writeback_seen || !has_buffered_writer(s))))
			enter(s, SESSION_LOADED, now);
		break;
	case SESSION_LOADED: {
		if (r->pid)
			break;
		if (s->cfg.open_ended) {
			if (s->n_actions && now >= r->next_due)
				sample_start(s, (unsigned)next_action(s, UINT32_MAX), now);
			break;
		}
		int next = next_action(s, s->cfg.loaded_samples);
		int counted = s->n_actions && next < 0 && !ats_pending(s);
		if (counted || (s->cfg.loaded_max_ns && in_phase >= s->cfg.loaded_max_ns)) {
			enter(s, SESSION_STOP, now);
			break;
		}
		if (next < 0)   /* waiting for an epoch: keep sampling evenly */
			next = next_action(s, UINT32_MAX);
		if (next >= 0 && now >= r->next_due)
			sample_start(s, (unsigned)next, now);
		break;
	}
	case SESSION_STOP:
		if (r->stop_stage == 0) {
			for (size_t i = 0; i < s->n_loads; i++)
				load_stop(&s->loads[i]);
			r->stop_stage = 1;
			r->stop_deadline = now + STOP_GRACE_NS;
		}
		if (!loads_running(s)) {
			enter(s, SESSION_DONE, now);
		} else if (now >= r->stop_deadline && r->stop_stage == 1) {
			for (size_t i = 0; i < s->n_loads; i++)
				load_kill(&s->loads[i]);
			r->stop_stage = 2;
			r->stop_deadline = now + STOP_GRACE_NS;
		} else if (now >= r->stop_deadline) {
			session_msg(s, "%d load process(es) did not die (stuck in I/O?)",
				    loads_running(s));
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
	if (r->pid)
		due = min_due(due, r->deadline);
	else if (s->phase == SESSION_IDLE || s->phase == SESSION_LOADED)
		due = min_due(due, r->next_due);
	if (s->phase == SESSION_IDLE && s->cfg.idle_max_ns)
		due = min_due(due, r->phase_start + s->cfg.idle_max_ns);
	if (s->phase == SESSION_WARMUP)   /* past the minimum, ticks decide */
		due = min_due(due, r->phase_start + (now < r->phase_start + s->cfg.warmup_min_ns ?
						     s->cfg.warmup_min_ns : s->cfg.warmup_max_ns));
	if (s->phase == SESSION_LOADED && s->cfg.loaded_max_ns && !s->cfg.open_ended)
		due = min_due(due, r->phase_start + s->cfg.loaded_max_ns);
	if (s->phase == SESSION_STOP)
		due = min_due(due, r->stop_deadline);
	if (s->cfg.max_time_ns)
		due = min_due(due, s->t0 + s->cfg.max_time_ns);
	for (struct session_at *a = s->ats; a && s->t_load_start; a = a->next)
		if (!a->done)
			due = min_due(due, s->t0 + s->t_load_start + a->t_ns);
	if (due <= now)
		return 0;
	return (int)((due - now + MS - 1) / MS);
}

static void read_signals(struct session *s)
{
	struct signalfd_siginfo si;
	while (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			reap(s);
		else if (!s->stop_signal)
			s->stop_signal = (int)si.ssi_signo;
	}
}

static int loop(struct session *s)
{
	struct session_run *r = s->run;
	size_t nw = 0, cap = 0;
	for (struct session_watch *w = s->watches; w; w = w->next)
		nw++;
	struct pollfd *pf = NULL;
	while (s->phase != SESSION_DONE) {
		uint64_t now = now_ns();
		advance(s, now);
		if (s->phase == SESSION_DONE)
			break;
		if (cap < 3 + s->n_loads + nw) {   /* a resume adds loads */
			struct pollfd *np = realloc(pf, (3 + s->n_loads + nw) * sizeof(*pf));
			if (!np) {
				free(pf);
				return -ENOMEM;
			}
			pf = np;
			cap = 3 + s->n_loads + nw;
		}
		size_t n = 0;
		pf[n++] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
		pf[n++] = (struct pollfd){ .fd = s->timerfd, .events = POLLIN };
		pf[n++] = (struct pollfd){ .fd = r->pid ? r->fd : -1, .events = POLLIN };
		for (size_t i = 0; i < s->n_loads; i++)
			pf[n++] = (struct pollfd){ .fd = s->loads[i].fd, .events = POLLIN };
		for (struct session_watch *w = s->watches; w; w = w->next)
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
			if (read(s->timerfd, &exp, sizeof(exp)) == (ssize_t)sizeof(exp))
				tick(s);
		}
		if (pf[2].revents && r->pid)
			sample_input(s);
		for (size_t i = 0; i < s->n_loads; i++)
			if (pf[3 + i].revents && load_read(&s->loads[i]) < 0)
				session_msg(s, "%s #%u: garbled report", load_kind_name(s->loads[i].spec.kind),
					    s->loads[i].index);
		size_t k = 3 + s->n_loads;
		for (struct session_watch *w = s->watches; w; w = w->next, k++)
			if (pf[k].revents)
				w->fn(w->ctx, w->fd, pf[k].revents);
	}
	free(pf);
	return 0;
}

/* ---- prepare and cleanup ----
 *
 * The work area is reached only through descriptors: dir_fd (DIR, opened
 * once by session_create) and work_fd (DIR/.brisk-X, opened O_NOFOLLOW right
 * after mkdirat and checked).  Nothing walks a path string after that: a user
 * who can write DIR may rename .brisk-X and plant links, and gains nothing. */

static int is_dot(const char *n)
{
	return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2]));
}

/* Remove everything inside the directory dfd (taken: closed here), never
 * following a link and never crossing into another file system. */
static int empty_dir(int dfd, dev_t dev, int depth)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		int e = errno;
		close(dfd);
		return -e;
	}
	int rc = 0;
	struct dirent *e;
	while ((errno = 0, e = readdir(d))) {
		if (is_dot(e->d_name))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				rc = -errno;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (st.st_dev != dev || depth >= 16) {
				rc = -EXDEV;
				continue;
			}
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int r = sub < 0 ? -errno : empty_dir(sub, dev, depth + 1);
			if (r < 0)
				rc = r;
			if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) < 0 && errno != ENOENT)
				rc = -errno;
		} else if (unlinkat(dirfd(d), e->d_name, 0) < 0 && errno != ENOENT) {
			rc = -errno;
		}
	}
	if (errno && !rc)
		rc = -errno;
	closedir(d);
	return rc;
}

/* Empty our work directory through its descriptor, then remove its name
 * from DIR only if that name still is our directory. */
static int remove_workdir(struct session *s)
{
	if (!s->work_name[0])
		return 0;
	int rc = 0;
	if (s->work_fd >= 0) {
		rc = empty_dir(s->work_fd, s->work_dev, 0);
		s->work_fd = -1;
		if (rc < 0)
			session_msg(s, "could not remove all of %s: %s", s->workdir, strerror(-rc));
	}
	struct stat st;
	int ours = fstatat(s->dir_fd, s->work_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		   S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
		   (s->work_ino ? st.st_dev == s->work_dev && st.st_ino == s->work_ino
				: (st.st_mode & 07777) == 0700);
	if (!ours) {
		session_msg(s, "%s was renamed or replaced while brisk ran (by someone who can "
			    "write %s): nothing was followed there; brisk's files were removed "
			    "and its empty directory is left where it was moved", s->workdir,
			    s->cfg.dir);
		s->work_name[0] = '\0';
		return -EXDEV;
	}
	if (unlinkat(s->dir_fd, s->work_name, AT_REMOVEDIR) < 0 && errno != ENOENT) {
		rc = -errno;
		session_msg(s, "could not remove %s: %s", s->workdir, strerror(errno));
	}
	s->work_name[0] = '\0';
	return rc;
}

/* Is the work directory wfd an orphan?  Its owner file's lock is free (its
 * brisk is gone), or it has no owner file, is empty and was last changed
 * more than ORPHAN_EMPTY_AGE seconds ago (a brisk that could not make the
 * owner file; a live run makes it at once after the directory). */
static int workdir_orphaned(int wfd, const struct stat *wst)
{
	int fd = openat(wfd, "owner", O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		int free_lock = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type == F_UNLCK;
		close(fd);
		return free_lock;
	}
	if (errno != ENOENT || time(NULL) - wst->st_mtime < ORPHAN_EMPTY_AGE)
		return 0;
	int dup_fd = openat(wfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return 0;
	}
	int empty = 1;
	struct dirent *e;
	while (empty && (e = readdir(d)))
		empty = is_dot(e->d_name);
	closedir(d);
	return empty;
}

static int workdir_name(const char *n)
{
	return strncmp(n, ".brisk-", 7) == 0 && strlen(n) == 13;
}

/* Remove the work directories a SIGKILLed brisk left in DIR: by descriptor,
 * only directories of ours on DIR's file system, never through a link. */
static void reap_orphans(struct session *s)
{
	int fd = openat(s->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct stat dst;
	if (fstat(s->dir_fd, &dst) < 0) {
		closedir(d);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!workdir_name(e->d_name))
			continue;
		struct stat st, wst;
		if (fstatat(s->dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || st.st_dev != dst.st_dev)
			continue;
		int wfd = openat(s->dir_fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (wfd < 0)
			continue;
		if (fstat(wfd, &wst) < 0 || wst.st_ino != st.st_ino || wst.st_dev != st.st_dev ||
		    !workdir_orphaned(wfd, &wst)) {
			close(wfd);
			continue;
		}
		int rc = empty_dir(wfd, wst.st_dev, 0);
		/* the name must still be the directory just emptied */
		if (rc == 0 && fstatat(s->dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_ino == wst.st_ino && st.st_dev == wst.st_dev &&
		    unlinkat(s->dir_fd, e->d_name, AT_REMOVEDIR) == 0)
			session_msg(s, "removed %s/%s, left by a brisk run that was killed",
				    s->cfg.dir, e->d_name);
	}
	closedir(d);
}

/* Create the owner file of our work directory and hold its lock (record
 * locks are not inherited by the children, and go when we die). */
static int own_workdir(struct session *s)
{
	int fd = openat(s->work_fd, "owner", O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0600);
	if (fd < 0)
		return -errno;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(fd, F_SETLK, &fl) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	dprintf(fd, "%ld\n", (long)getpid());
	s->owner_fd = fd;
	return 0;
}

/* mkdirat a fresh DIR/.brisk-XXXXXX, open it O_NOFOLLOW and check it is the
 * directory just made: ours, 0700, on DIR's file system. */
static int make_workdir(struct session *s, char *err, size_t errlen)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct stat dst, st;
	if (fstat(s->dir_fd, &dst) < 0)
		return msg_fail(-errno, err, errlen, "%s: %s", s->cfg.dir, strerror(errno));
	int rc = -EEXIST;
	for (int tries = 0; tries < 100 && rc == -EEXIST; tries++) {
		unsigned char rnd[6];
		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			for (size_t i = 0; i < sizeof(rnd); i++)
				rnd[i] = (unsigned char)stats_rand_next(&s->rng);
		char name[16] = ".brisk-";
		for (size_t i = 0; i < sizeof(rnd); i++)
			name[7 + i] = chars[rnd[i] % (sizeof(chars) - 1)];
		name[13] = '\0';
		rc = mkdirat(s->dir_fd, name, 0700) < 0 ? -errno : 0;
		if (rc == 0)
			memcpy(s->work_name, name, sizeof(name));
	}
	if (rc < 0)
		return msg_fail(rc, err, errlen, "%s: cannot create a work directory: %s", s->cfg.dir,
			    strerror(-rc));
	snprintf(s->workdir, sizeof(s->workdir), "%.4000s/%s", s->cfg.dir, s->work_name);
	int fd = openat(s->dir_fd, s->work_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return msg_fail(-errno, err, errlen, "%s: cannot open the work directory just made: "
			    "%s", s->workdir, strerror(errno));
	if (fstat(fd, &st) < 0 || fchmod(fd, 0700) < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return msg_fail(-e, err, errlen, "%s: %s", s->workdir, strerror(e));
	}
	if (st.st_uid != geteuid() || (st.st_mode & 07777) != 0700 || st.st_dev != dst.st_dev) {
		close(fd);
		/* not the directory we made: someone swapped it; leave that name */
		s->work_name[0] = '\0';
		return msg_fail(-EPERM, err, errlen, "%s was replaced as soon as it was made (by "
			    "someone who can write %s): nothing was run", s->workdir, s->cfg.dir);
	}
	s->work_fd = fd;
	s->work_dev = st.st_dev;
	s->work_ino = st.st_ino;
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
	fprintf(stderr, "brisk: test pause: %s made; waiting for %s\n", s->work_name, p);
	for (int ms = 0; ms < TEST_PAUSE_MAX_MS && access(p, F_OK) < 0 && !interrupted(s); ms += 10)
		poll(NULL, 0, 10);
}

static int prepare(struct session *s, char *err, size_t errlen)
{
	const struct session_config *c = &s->cfg;
	uint64_t need = 16 * MiB;   /* ls tree, save file, slack */
	int over = 0;
	if (c->actions & (1u << ACTION_SSH))
		over |= __builtin_add_overflow(need, c->action.ssh_file, &need);
	size_t nl = 0;
	for (size_t i = 0; i < c->n_loads; i++) {
		uint64_t b;
		over |= load_spec_need(&c->loads[i], &b) < 0;
		over |= __builtin_add_overflow(need, b, &need);
		nl += c->loads[i].count;
	}
	if (over)
		return msg_fail(-EOVERFLOW, err, errlen, "the loads' sizes add up to more than "
			    "16 EiB: an absurd size (see size= and count=)");
	reap_orphans(s);   /* first: their space counts as free below */
	int rc = load_floor(s->dir_fd, c->floor_pct, c->floor_min, &s->floor_bytes);
	if (rc == 0 && c->floor_bytes)
		s->floor_bytes = c->floor_bytes;
	if (c->no_floor)
		s->floor_bytes = 0;
	uint64_t avail = 0, want;
	if (rc == 0)
		rc = load_avail(s->dir_fd, &avail);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "%s: statvfs: %s", c->dir, strerror(-rc));
	if (__builtin_add_overflow(need, s->floor_bytes, &want) || avail < want)
		return msg_fail(-ENOSPC, err, errlen, "%s: %.1f GiB available; brisk needs %.1f GiB "
			    "for its files plus the free-space floor of %.1f GiB (see --floor)",
			    c->dir, (double)avail / (1 << 30), (double)need / (1 << 30),
			    (double)s->floor_bytes / (1 << 30));
	if ((rc = make_workdir(s, err, errlen)) < 0)
		return rc;
	if ((rc = own_workdir(s)) < 0)
		return msg_fail(rc, err, errlen, "%s: cannot create its owner file: %s", s->workdir,
			    strerror(-rc));
	test_pause(s);

	for (unsigned k = 0; k < ACTION_KIND_COUNT; k++) {
		if (!(c->actions & (1u << k)))
			continue;
		if (interrupted(s))
			return 0;
		rc = action_prepare(&s->actions[s->n_actions], (enum action_kind)k, &c->action,
				    s->work_fd, c->evict, err, errlen);
		if (rc < 0)
			return rc;
		if (s->actions[s->n_actions].note[0])
			session_msg(s, "%s: %s", action_kind_name((enum action_kind)k),
				    s->actions[s->n_actions].note);
		s->n_actions++;
	}
	s->loads = calloc(nl ? nl : 1, sizeof(*s->loads));
	if (!s->loads)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_loads; i++) {
		for (unsigned j = 1; j <= c->loads[i].count; j++) {
			if (interrupted(s))
				return 0;
			struct load *l = &s->loads[s->n_loads];
			rc = load_prepare(l, &c->loads[i], j, s->work_fd);
			s->n_loads++;
			if (rc < 0)
				return msg_fail(rc, err, errlen, "%s: cannot prepare %s/%s: %s",
					    load_kind_name(c->loads[i].kind), s->workdir, l->name,
					    strerror(-rc));
		}
	}
	s->n_load_set = s->n_loads;
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
	s->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->sigfd < 0)
		return msg_fail(-errno, err, errlen, "signalfd: %s", strerror(errno));
	s->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->timerfd < 0)
		return msg_fail(-errno, err, errlen, "timerfd: %s", strerror(errno));
	struct itimerspec its = {
		.it_interval = { (time_t)(s->cfg.tick_ns / SEC), (long)(s->cfg.tick_ns % SEC) },
		.it_value = { (time_t)(s->cfg.tick_ns / SEC), (long)(s->cfg.tick_ns % SEC) },
	};
	if (timerfd_settime(s->timerfd, 0, &its, NULL) < 0)
		return msg_fail(-errno, err, errlen, "timerfd: %s", strerror(errno));
	return 0;
}

static void stop_everything(struct session *s)
{
	sample_abandon(s, "run ended");
	/* Loads: if the loop did not get there (prepare failed, or memory). */
	if (loads_running(s)) {
		for (size_t i = 0; i < s->n_loads; i++)
			load_stop(&s->loads[i]);
		uint64_t end = now_ns() + STOP_GRACE_NS;
		int killed = 0;
		while (loads_running(s)) {
			struct pollfd p = { .fd = s->sigfd, .events = POLLIN };
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
}

int session_run(struct session *s, char *err, size_t errlen)
{
	if (s->run || s->hooks_done)
		return msg_fail(-EALREADY, err, errlen, "a session runs once");
	s->run = calloc(1, sizeof(*s->run));
	if (!s->run)
		return -ENOMEM;
	s->run->fd = -1;
	s->t0 = now_ns();
	s->epochs[0].t_ns = 0;
	int rc = setup_fds(s, err, errlen);
	if (rc == 0)
		rc = prepare(s, err, errlen);
	if (rc == 0 && !interrupted(s)) {
		system_baseline(s);
		enter(s, SESSION_IDLE, now_ns());
		rc = loop(s);
		if (rc < 0)
			msg_fail(rc, err, errlen, "event loop: %s", strerror(-rc));
	}
	s->phase = SESSION_STOP;
	stop_everything(s);
	run_exit_hooks(s);
	remove_workdir(s);
	if (s->owner_fd >= 0)
		close(s->owner_fd);
	s->owner_fd = -1;
	if (s->work_fd >= 0)
		close(s->work_fd);
	s->work_fd = -1;
	s->t_end = now_ns() - s->t0;
	s->phase = SESSION_DONE;
	if (s->sigfd >= 0) {
		read_signals(s);
		close(s->sigfd);
		s->sigfd = -1;
	}
	if (s->timerfd >= 0)
		close(s->timerfd);
	s->timerfd = -1;
	sigprocmask(SIG_SETMASK, &s->run->oldmask, NULL);
	return rc;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	run_exit_hooks(s);
	for (unsigned i = 0; i < s->n_actions; i++)
		action_free(&s->actions[i]);
	for (size_t i = 0; i < s->n_loads; i++)
		load_free(&s->loads[i]);
	free(s->loads);
	free(s->epochs);
	free(s->samples);
	free(s->ticks);
	free(s->ticks_disk);
	for (struct session_at *a = s->ats, *n; a; a = n) {
		n = a->next;
		free(a);
	}
	struct session_hook *lists[] = { s->hooks, s->tick_hooks };
	for (size_t i = 0; i < 2; i++)
		for (struct session_hook *h = lists[i], *n; h; h = n) {
			n = h->next;
			free(h);
		}
	for (struct session_watch *w = s->watches, *n; w; w = n) {
		n = w->next;
		free(w);
	}
	if (s->work_fd >= 0)
		close(s->work_fd);
	if (s->dir_fd >= 0)
		close(s->dir_fd);
	free(s->run);
	free(s);
}

void session_progress(const struct session *s, size_t *done, size_t *planned, uint64_t *eta_ns)
{
	const struct session_config *c = &s->cfg;
	size_t per = c->idle_samples + (s->n_loads || c->n_loads ? c->loaded_samples : 0);
	*done = s->n_samples;
	*planned = (size_t)per * (s->n_actions ? s->n_actions : __builtin_popcount(c->actions));
	*eta_ns = 0;
	if (!s->run || s->phase >= SESSION_STOP || (s->cfg.open_ended && s->phase >= SESSION_WARMUP))
		return;
	uint64_t now = now_ns(), el = now - s->t0, in_phase = now - s->run->phase_start;
	uint64_t left = 0;
	double per_sample = s->n_samples ? (double)el / (double)s->n_samples : 0;
	size_t idle_left = 0, loaded_left = 0;
	if (s->phase <= SESSION_IDLE) {
		idle_left = (size_t)c->idle_samples * s->n_actions;
		idle_left -= idle_left > s->n_samples ? s->n_samples : idle_left;
	}
	if (c->n_loads && s->phase <= SESSION_LOADED) {
		size_t have = 0;
		for (size_t i = 0; i < s->n_samples; i++)
			have += s->samples[i].phase == SESSION_LOADED;
		loaded_left = (size_t)c->loaded_samples * s->n_actions;
		loaded_left -= loaded_left > have ? have : loaded_left;
	}
	uint64_t idle_t = (uint64_t)(per_sample * (double)idle_left);
	uint64_t loaded_t = (uint64_t)(per_sample * (double)loaded_left);
	if (s->phase == SESSION_IDLE && c->idle_max_ns) {
		uint64_t cap = in_phase < c->idle_max_ns ? c->idle_max_ns - in_phase : 0;
		if (idle_t > cap)
			idle_t = cap;
	}
	if (c->loaded_max_ns) {
		uint64_t cap = c->loaded_max_ns - (s->phase == SESSION_LOADED && in_phase < c->loaded_max_ns ?
						   in_phase : 0);
		if (loaded_t > cap || (s->phase < SESSION_LOADED && !s->n_samples))
			loaded_t = cap;
	}
	left = idle_t + loaded_t;
	if (c->n_loads && s->phase <= SESSION_WARMUP)
		left += c->warmup_max_ns - (s->phase == SESSION_WARMUP ? in_phase : 0);
	if (c->max_time_ns && el + left > c->max_time_ns)
		left = c->max_time_ns > el ? c->max_time_ns - el : 0;
	*eta_ns = left;
}
