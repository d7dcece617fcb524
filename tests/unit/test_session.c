/* Session API with real tiny runs under build/: epochs via session_at(),
 * exit hooks on every path, tick hooks, session_stop(), a failing at(). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "cliopt.h"
#include "runreport.h"
#include "session.h"
#include "testdir.h"

#define MS 1000000ull

static struct testdir td;

static void base(struct session_config *c)
{
	session_config_default(c);
	snprintf(c->dir, sizeof(c->dir), "%s", td.path);
	c->actions = 1u << ACTION_SAVE;
	c->interval_ns = 20 * MS;
	c->idle_samples = 2;
	c->loaded_samples = 3;
	c->warmup_min_ns = c->warmup_max_ns = 100 * MS;
	c->tick_ns = 50 * MS;
	c->max_time_ns = 0;
	char err[100];
	assert_int_equal(load_spec_parse("seq-write:rate=10m,bs=64k", &c->loads[0], err, sizeof(err)), 0);
	c->floor_bytes = 1 << 20;
}

struct probe {
	int exits, ticks, ats, stop_after_ticks;
	struct session *s;
	int dir_present_at_exit;
};

static void on_exit_hook(void *ctx)
{
	struct probe *p = ctx;
	p->exits++;
	/* hooks run before the files go: a journal could still use them */
	p->dir_present_at_exit = p->s && p->s->workdir[0] && access(p->s->workdir, F_OK) == 0;
}

static void on_tick(void *ctx)
{
	struct probe *p = ctx;
	if (++p->ticks == p->stop_after_ticks)
		session_stop(p->s);
}

static int at_ok(void *ctx, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	((struct probe *)ctx)->ats++;
	return 0;
}

static int at_fail(void *ctx, char *err, size_t errlen)
{
	(void)ctx;
	snprintf(err, errlen, "scheduler=frob: not offered by loop0");
	return -EINVAL;
}

static int empty_dir(const char *d)
{
	DIR *dh = opendir(d);
	int n = 0;
	for (struct dirent *e; dh && (e = readdir(dh));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (dh)
		closedir(dh);
	return dh && n == 0;
}

static void test_epochs(void **state)
{
	(void)state;
	struct session_config c;
	base(&c);
	c.loaded_max_ns = 3000 * MS;
	c.loaded_samples = 8;
	c.interval_ns = 50 * MS;
	struct session *s;
	char err[300];
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	struct probe p = { .s = s };
	assert_int_equal(session_on_exit(s, on_exit_hook, &p), 0);
	assert_int_equal(session_on_tick(s, on_tick, &p), 0);
	assert_int_equal(session_at(s, 400 * MS, at_ok, &p, "scheduler=bfq"), 0);
	assert_int_equal(session_at(s, 200 * MS, at_fail, &p, "scheduler=frob"), 0);
	assert_int_equal(session_run(s, err, sizeof(err)), 0);
	assert_int_equal(p.exits, 1);
	assert_true(p.dir_present_at_exit);
	assert_int_equal(p.ats, 1);
	assert_true(p.ticks > 0);
	assert_int_equal(s->n_epochs, 2);
	assert_string_equal(s->epochs[1].label, "scheduler=bfq");
	assert_true(s->epochs[1].t_ns >= s->t_load_start + 400 * MS);
	/* the failing change is a message, not an epoch */
	int found = 0;
	for (size_t i = 0; i < s->n_msgs; i++)
		found |= strstr(s->msgs[i], "not offered by loop0") != NULL;
	assert_true(found);
	/* each loaded epoch got its samples; the idle ones are in epoch 0 */
	unsigned idle = 0, e0 = 0, e1 = 0;
	for (size_t i = 0; i < s->n_samples; i++) {
		const struct session_sample *x = &s->samples[i];
		idle += x->phase == SESSION_IDLE;
		e0 += x->phase == SESSION_LOADED && x->epoch == 0;
		e1 += x->phase == SESSION_LOADED && x->epoch == 1;
		assert_int_equal(x->err, 0);
		assert_int_equal(x->cold, 1);
	}
	assert_int_equal(idle, 2);
	assert_true(e1 >= 8);
	assert_true(e0 >= 1);
	double ms[64];
	assert_int_equal(session_durations(s, ACTION_SAVE, 1, SESSION_LOADED, ms, 64), e1);
	assert_int_equal(s->loads[0].end, LOAD_END_STOPPED);
	assert_true(s->n_ticks > 0);
	assert_true(empty_dir(td.path));

	/* the reports split by epoch, the load's throughput too */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	runreport_text(f, s);
	fclose(f);
	assert_non_null(strstr(text, "epochs: 0=start@0.0s 1=scheduler=bfq@"));
	assert_non_null(strstr(text, "\nsave      loaded  1 "));
	assert_non_null(strstr(text, "seq-write#1 by epoch (MiB/s, worst-ms): 0:"));
	free(text);
	char path[64];
	snprintf(path, sizeof(path), "%s.json", td.path);
	assert_int_equal(runreport_json(s, path, err, sizeof(err)), 0);
	struct json_object *root = json_object_from_file(path), *v;
	unlink(path);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "epochs", &v));
	assert_int_equal(json_object_array_length(v), 2);
	assert_true(json_object_object_get_ex(root, "samples", &v));
	assert_int_equal(json_object_array_length(v), s->n_samples);
	assert_true(json_object_object_get_ex(root, "loads", &v));
	struct json_object *by, *ep1, *rate;
	assert_true(json_object_object_get_ex(json_object_array_get_idx(v, 0), "by_epoch", &by));
	ep1 = json_object_array_get_idx(by, 1);
	assert_true(json_object_object_get_ex(ep1, "mib_s", &rate));
	/* rate-limited to 10 MiB/s; a short window, so a loose bound */
	assert_true(json_object_get_double(rate) > 3 && json_object_get_double(rate) < 20);
	json_object_put(root);
	session_free(s);
	assert_int_equal(p.exits, 1);      /* not again */
}

/* A session whose idle phase goes on until something stops it. */
static struct session *endless_idle(void)
{
	struct session_config c;
	base(&c);
	c.idle_samples = 1000;
	c.idle_max_ns = 0;
	struct session *s;
	char err[300];
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	return s;
}

static void test_stop_from_tick(void **state)
{
	(void)state;
	struct session *s = endless_idle();
	char err[300];
	struct probe p = { .s = s, .stop_after_ticks = 4 };
	session_on_tick(s, on_tick, &p);
	session_on_exit(s, on_exit_hook, &p);
	assert_int_equal(session_run(s, err, sizeof(err)), 0);
	assert_int_equal(p.ticks, 4);
	assert_int_equal(p.exits, 1);
	assert_int_equal(s->stop_requested, 1);
	assert_int_equal(s->t_load_start, 0);      /* never got to the load */
	assert_true(s->n_samples > 0);
	assert_true(empty_dir(td.path));
	assert_int_equal(session_run(s, err, sizeof(err)), -EALREADY);
	session_free(s);
}

/* A front end's own child (the dashboard's profile save): the loop reaps
 * it and hands its status to session_on_child(); samples never go there. */
struct kid {
	struct session *s;
	int ticks, calls, status;
	pid_t pid, seen;
};

static void kid_tick(void *ctx)
{
	struct kid *k = ctx;
	if (++k->ticks == 2) {
		k->pid = fork();
		if (k->pid == 0)
			_exit(7);
	}
	if (k->ticks == 8)
		session_stop(k->s);
}

static void kid_reaped(void *ctx, pid_t pid, int status)
{
	struct kid *k = ctx;
	k->calls++;
	k->seen = pid;
	k->status = status;
}

static void test_front_end_child(void **state)
{
	(void)state;
	struct session *s = endless_idle();
	char err[300];
	struct kid k = { .s = s };
	session_on_tick(s, kid_tick, &k);
	session_on_child(s, kid_reaped, &k);
	assert_int_equal(session_run(s, err, sizeof(err)), 0);
	assert_true(k.pid > 0);
	assert_true(s->n_samples > 0);    /* samples ran and were reaped too */
	assert_int_equal(k.calls, 1);     /* only the front end's child */
	assert_int_equal(k.seen, k.pid);
	assert_true(WIFEXITED(k.status));
	assert_int_equal(WEXITSTATUS(k.status), 7);
	assert_true(empty_dir(td.path));
	session_free(s);
}

static void test_load_only(void **state)
{
	(void)state;
	struct session_config c;
	base(&c);
	c.actions = 0;
	c.loaded_max_ns = 300 * MS;
	struct session *s;
	char err[300];
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	assert_int_equal(session_run(s, err, sizeof(err)), 0);
	assert_int_equal(s->n_samples, 0);
	assert_true(s->t_stop >= s->t_loaded_start + 300 * MS);
	assert_true(s->loads[0].bytes > 0);
	assert_true(empty_dir(td.path));
	session_free(s);
}

/* The load window.  Figures from their parts: a writer's burst into the
 * page cache (500 MiB in its first second) counts in the loads' own rate
 * but never in what reached the disk, which is the device's counters over
 * the window whatever the loads claim; a window cut short (an arm-run that
 * ended early) reports what the disk wrote in it, not more; a load that
 * ended inside the window counts what it did; readers go by the read
 * counter, mixed loads by both; a counter that went backwards, no loads or
 * an empty window give no figure. */
#define SEC (1000 * MS)
#define MIB (1024.0 * 1024.0)
static void timeline(struct load *l, enum load_kind k, const uint64_t *t_s10,
		     const double *mib, size_t n)
{
	memset(l, 0, sizeof(*l));
	l->spec.kind = k;
	l->timeline = calloc(n, sizeof(*l->timeline));
	assert_non_null(l->timeline);
	for (size_t i = 0; i < n; i++)
		l->timeline[i] = (struct load_point){ 1000 * SEC + t_s10[i] * SEC / 10,
						      (uint64_t)(mib[i] * MIB), 0 };
	l->n_timeline = l->cap_timeline = n;
}

static void disk_at(struct kstat_disk *d, double wr_mib, double rd_mib)
{
	memset(d, 0, sizeof(*d));
	d->wr_sectors = (uint64_t)(wr_mib * MIB / 512);
	d->rd_sectors = (uint64_t)(rd_mib * MIB / 512);
}

static void test_load_window(void **state)
{
	(void)state;
	/* a writer: 500 MiB into the page cache in its first second, then
	 * held at 100 MiB/s by writeback (times in tenths of seconds) */
	static const uint64_t t[] = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };
	static const double b[] = { 0, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400 };
	struct load w;
	timeline(&w, LOAD_SEQ_WRITE, t, b, 11);
	const uint64_t T = 1000 * SEC;
	/* interpolated between points; nothing before the first or after the last */
	assert_true(fabs(load_window_bytes(&w, T + 15 * SEC / 10, T + 25 * SEC / 10) - 100 * MIB) < 1);
	assert_true(fabs(load_window_bytes(&w, T - 5 * SEC, T + SEC) - 500 * MIB) < 1);
	assert_true(fabs(load_window_bytes(&w, T + 9 * SEC, T + 20 * SEC) - 100 * MIB) < 1);
	assert_true(load_window_bytes(&w, T + 3 * SEC, T + 3 * SEC) == 0);

	struct kstat_disk d0, d1;
	struct session_load_window o;
	/* the whole run, burst included: the write() rate is 140 MiB/s, the
	 * disk wrote 100 MiB/s (1000 MiB in 10 s) */
	disk_at(&d0, 5000, 10);
	disk_at(&d1, 6000, 12);
	session_load_window_calc(&w, 1, T, T + 10 * SEC, &d0, &d1, &o);
	assert_true(fabs(o.seconds - 10) < 1e-9);
	assert_true(fabs(o.load_mibps - 140) < 1e-6);
	assert_true(fabs(o.disk_wr_mibps - 100) < 1e-6);
	assert_true(fabs(o.disk_rd_mibps - 0.2) < 1e-6);
	assert_true(fabs(o.disk_mibps - 100) < 1e-6);   /* a writer: the written figure */
	/* an arm-run that ended early, 1.2 s in, mostly burst: its own rate
	 * says 433 MiB/s, the disk wrote 120 MiB in it, and the figure is that */
	disk_at(&d1, 5120, 10);
	session_load_window_calc(&w, 1, T, T + 12 * SEC / 10, &d0, &d1, &o);
	assert_true(o.load_mibps > 400);
	assert_true(fabs(o.disk_mibps - 100) < 1e-6);
	assert_true(o.disk_mibps * o.seconds <= 120 + 1e-6);
	/* a load that ended at 3 s counts what it did up to then */
	struct load e;
	timeline(&e, LOAD_SEQ_WRITE, t, b, 4);
	session_load_window_calc(&e, 1, T + 2 * SEC, T + 6 * SEC, &d0, &d0, &o);
	assert_true(fabs(o.load_mibps - 25) < 1e-6);   /* 100 MiB in 4 s */
	assert_true(o.disk_mibps == 0);
	/* a reader goes by the read counter; reader and writer by both */
	struct load two[2];
	timeline(&two[0], LOAD_SEQ_READ, t, b, 11);
	disk_at(&d1, 6000, 210);
	session_load_window_calc(two, 1, T, T + 10 * SEC, &d0, &d1, &o);
	assert_true(fabs(o.disk_mibps - 20) < 1e-6);
	timeline(&two[1], LOAD_RAND_WRITE, t, b, 11);
	session_load_window_calc(two, 2, T, T + 10 * SEC, &d0, &d1, &o);
	assert_true(fabs(o.disk_mibps - 120) < 1e-6);
	assert_true(fabs(o.load_mibps - 280) < 1e-6);
	/* no figure: a counter that went backwards, no counters, no loads, no window */
	session_load_window_calc(&w, 1, T, T + 10 * SEC, &d1, &d0, &o);
	assert_true(isnan(o.disk_mibps) && isnan(o.disk_wr_mibps) && !isnan(o.load_mibps));
	session_load_window_calc(&w, 1, T, T + 10 * SEC, NULL, NULL, &o);
	assert_true(isnan(o.disk_mibps));
	session_load_window_calc(&w, 0, T, T + 10 * SEC, &d0, &d1, &o);
	assert_true(isnan(o.disk_mibps) && isnan(o.load_mibps) && fabs(o.seconds - 10) < 1e-9);
	session_load_window_calc(&w, 1, T, T, &d0, &d1, &o);
	assert_true(o.seconds == 0 && isnan(o.disk_mibps) && isnan(o.load_mibps));
	free(w.timeline);
	free(e.timeline);
	free(two[0].timeline);
	free(two[1].timeline);
}

/* A real session with a load window: its samples end quickly, the loaded
 * phase is held for the window; its ends are marked with the device's
 * counters (DIR's file system device, when it has one). */
static void test_load_window_held(void **state)
{
	(void)state;
	struct session_config c;
	base(&c);
	c.loaded_samples = 1;
	c.load_window_ns = 600 * MS;
	struct session *s;
	char err[300];
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	assert_int_equal(session_run(s, err, sizeof(err)), 0);
	assert_true(s->t_stop >= s->t_loaded_start + 600 * MS);
	assert_true(s->fsdev.t_from == s->t_loaded_start);
	uint64_t len = s->fsdev.t_to - s->fsdev.t_from;
	assert_true(len >= 600 * MS && len < 900 * MS);
	struct session_load_window w;
	assert_int_equal(session_load_window(s, &w), 0);
	assert_true(fabs(w.seconds - (double)len / 1e9) < 1e-9);
	assert_true(w.load_mibps >= 0 && w.load_mibps < 20);   /* rate=10m */
	if (s->fsdev.name[0])
		assert_true(s->fsdev.ok_from && s->fsdev.ok_to && !isnan(w.disk_mibps));
	else
		assert_true(isnan(w.disk_mibps));
	session_free(s);

	/* without a window, the loaded phase is the window */
	base(&c);
	c.loaded_samples = 1;
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	assert_int_equal(session_run(s, err, sizeof(err)), 0);
	assert_true(s->fsdev.t_from == s->t_loaded_start && s->fsdev.t_to == s->t_stop);
	session_free(s);
}

/* Concurrent samples: per-sample start times, the cap, each a fresh
 * process on its own files (so each is still cold), chains. */
static void test_concurrent(void **state)
{
	(void)state;
	struct session_config c;
	base(&c);
	c.actions = 1u << ACTION_SSH;
	c.action.ssh_file = 4 << 20;
	c.action.ssh_region = 1 << 20;
	c.idle_samples = 1;
	c.concurrency = 3;
	/* four at once (the cap holds one back), two later, one chained */
	static const uint64_t at[] = { 0, 0, 0, 0, 400 * MS, 800 * MS };
	for (size_t i = 0; i < 6; i++)
		c.starts[i] = (struct session_start){ .t_ns = at[i], .after = -1,
						      .action = ACTION_SSH };
	c.starts[6] = (struct session_start){ .after = 5, .gap_ns = 100 * MS, .action = ACTION_SSH };
	c.n_starts = 7;
	c.loaded_max_ns = 0;
	struct session *s;
	char err[300];
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	assert_int_equal(session_run(s, err, sizeof(err)), 0);
	assert_int_equal(s->n_failed, 0);
	size_t loaded = 0;
	uint64_t end5 = 0, fork6 = 0;
	for (size_t i = 0; i < s->n_samples; i++) {
		const struct session_sample *x = &s->samples[i];
		assert_true(x->inflight >= 1 && x->inflight <= 3);   /* the cap */
		assert_int_equal(x->err, 0);
		assert_true(x->cold);       /* own files: no sample warms another's */
		for (size_t j = 0; j < i; j++)   /* a fresh process each */
			assert_int_not_equal(x->pid, s->samples[j].pid);
		if (x->phase != SESSION_LOADED)
			continue;
		loaded++;
		uint64_t rel = x->fork_ns - s->t_loaded_start;
		if (x->inflight == 3 || loaded <= 3)
			assert_true(rel < 150 * MS);   /* started at once */
		if (rel >= 350 * MS && rel < 750 * MS)   /* the 400 ms one, on time */
			assert_true(rel >= 400 * MS && rel <= 550 * MS);
		if (rel >= 800 * MS && !fork6 && !end5) {
			assert_true(rel <= 950 * MS);    /* the 800 ms one, on time */
			end5 = x->fork_ns;   /* its end is at least fork + dur */
			end5 += x->dur_ns;
		} else if (rel >= 800 * MS) {
			fork6 = x->fork_ns;
		}
	}
	assert_int_equal(loaded, 7);
	assert_int_equal(s->inflight_max, 3);
	assert_true(s->late_starts >= 1);       /* the fourth waited for a slot */
	assert_true(fork6 >= end5 + 100 * MS);  /* the chain: after its predecessor ended */
	assert_true(empty_dir(td.path));
	session_free(s);

	/* the default stays one at a time */
	base(&c);
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	assert_int_equal(session_run(s, err, sizeof(err)), 0);
	assert_int_equal(s->inflight_max, 1);
	for (size_t i = 0; i < s->n_samples; i++)
		assert_int_equal(s->samples[i].inflight, 1);
	session_free(s);
}

/* A load that ends before the loaded phase does: recorded, the samples
 * after it counted, the run failed unless the load is finite on purpose. */
static void test_load_ends_early(void **state)
{
	(void)state;
	for (int finite = 0; finite <= 1; finite++) {
		struct session_config c;
		base(&c);
		c.loads[0].total = 256 << 10;   /* 25 ms at 10 MiB/s: gone within warm-up */
		c.interval_ns = 100 * MS;
		c.load_finite = finite;
		struct session *s;
		char err[300];
		assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
		assert_int_equal(session_run(s, err, sizeof(err)), 0);
		assert_int_equal(s->loads[0].end, LOAD_END_DONE);
		assert_true(s->t_load_ended > 0);
		assert_true(s->t_load_ended < s->t_stop);
		assert_non_null(strstr(s->load_ended, "done"));
		assert_int_equal(s->n_after_load_end, 3);   /* every loaded sample */
		assert_int_equal(s->n_failed, finite ? 0 : 1);
		assert_int_equal(cliopt_exit_status("run", s, 0, 0), finite ? 0 : 1);
		int said = 0;
		for (size_t i = 0; i < s->n_msgs; i++)
			said |= strstr(s->msgs[i], "were not taken under load") != NULL;
		assert_true(said);
		session_free(s);
	}
}

static void test_bad_config(void **state)
{
	(void)state;
	struct session_config c;
	struct session *s;
	char err[300];
	base(&c);
	snprintf(c.dir, sizeof(c.dir), "%s/missing", td.path);
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), -ENOENT);
	base(&c);
	c.actions = 0;
	c.n_loads = 0;
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), -EINVAL);
	base(&c);
	c.jitter_pct = 101;
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), -EINVAL);
	base(&c);
	c.concurrency = SESSION_MAX_INFLIGHT + 1;
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), -EINVAL);
	base(&c);   /* a scheduled sample of an action not in the run */
	c.starts[0] = (struct session_start){ .after = -1, .action = ACTION_LS };
	c.n_starts = 1;
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), -EINVAL);
	c.starts[0] = (struct session_start){ .after = 0, .action = ACTION_SAVE };
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), -EINVAL);
	/* never run: the exit hooks still run, once, from session_free() */
	base(&c);
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	struct probe p = { 0 };
	session_on_exit(s, on_exit_hook, &p);
	session_free(s);
	assert_int_equal(p.exits, 1);
}

static int exists(const char *name)
{
	char p[PATH_MAX];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", td.path, name);
	return lstat(p, &st) == 0;
}

/* The reaper walks by descriptor: orphans of ours go (owner lock free, or
 * empty with no owner file and old), a fresh empty one stays (a run may be
 * making it), a link named like a work directory is not followed. */
static void test_orphans(void **state)
{
	(void)state;
	char p[PATH_MAX], other[64];
	snprintf(other, sizeof(other), "%s/other", td.path);
	assert_int_equal(mkdir(other, 0700), 0);
	snprintf(p, sizeof(p), "%s/owner", other);
	int fd = open(p, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/.brisk-linkto", td.path);
	assert_int_equal(symlink("other", p), 0);
	snprintf(p, sizeof(p), "%s/.brisk-oldemp", td.path);
	assert_int_equal(mkdir(p, 0700), 0);
	struct timespec old[2] = { { time(NULL) - 3600, 0 }, { time(NULL) - 3600, 0 } };
	assert_int_equal(utimensat(AT_FDCWD, p, old, 0), 0);
	snprintf(p, sizeof(p), "%s/.brisk-newemp", td.path);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/.brisk-killed", td.path);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/.brisk-killed/owner", td.path);
	fd = open(p, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/.brisk-killed/sub", td.path);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/.brisk-killed/sub/f", td.path);
	fd = open(p, O_RDWR | O_CREAT, 0600);
	close(fd);

	struct session_config c;
	base(&c);
	c.n_loads = 0;
	c.idle_samples = 1;
	struct session *s;
	char err[300];
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	assert_int_equal(session_run(s, err, sizeof(err)), 0);
	session_free(s);
	assert_false(exists(".brisk-oldemp"));
	assert_false(exists(".brisk-killed"));
	assert_true(exists(".brisk-newemp"));
	assert_true(exists(".brisk-linkto"));
	assert_true(exists("other/owner"));
	snprintf(p, sizeof(p), "%s/.brisk-newemp", td.path);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/.brisk-linkto", td.path);
	unlink(p);
	snprintf(p, sizeof(p), "%s/owner", other);
	unlink(p);
	rmdir(other);
	assert_true(empty_dir(td.path));
}

/* Sizes that wrap when added up are bad input, found before anything is made. */
static void test_overflow(void **state)
{
	(void)state;
	struct session_config c;
	base(&c);
	char err[300];
	assert_int_equal(load_spec_parse("rand-write", &c.loads[0], err, sizeof(err)), 0);
	c.loads[0].size = 1ull << 62;    /* as a profile could build it */
	c.loads[0].count = 4;
	struct session *s;
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	assert_int_equal(session_run(s, err, sizeof(err)), -EOVERFLOW);
	assert_non_null(strstr(err, "absurd"));
	session_free(s);
	assert_true(empty_dir(td.path));
}

/* Root refuses a DIR others can write, unless allowed; the user who ran sudo
 * and a root-owned sticky directory are fine; /proc has no block device. */
static void test_shared_dir(void **state)
{
	(void)state;
	struct session_config c;
	struct session *s;
	char err[300];
	base(&c);
	snprintf(c.dir, sizeof(c.dir), "/proc");
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "no block device behind /proc"));
	if (geteuid() != 0)
		skip();
	base(&c);
	c.trusted_uid = (uid_t)-1;
	assert_int_equal(chmod(td.path, 0777), 0);
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, td.path));
	assert_non_null(strstr(err, "without the sticky bit"));
	c.allow_shared_dir = 1;
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	session_free(s);
	c.allow_shared_dir = 0;
	assert_int_equal(chmod(td.path, 01777), 0);
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	session_free(s);
	assert_int_equal(chmod(td.path, 0755), 0);
	assert_int_equal(chown(td.path, 65534, (gid_t)-1), 0);
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "belongs to uid 65534"));
	c.trusted_uid = 65534;          /* sudo brisk run ~/dir by its owner */
	assert_int_equal(session_create(&c, &s, err, sizeof(err)), 0);
	session_free(s);
	assert_int_equal(chown(td.path, 0, (gid_t)-1), 0);
	assert_int_equal(chmod(td.path, 0700), 0);
}

/* run and tui map the end of a session to one exit status (cliopt). */
static void test_exit_status(void **state)
{
	(void)state;
	struct session s;
	memset(&s, 0, sizeof(s));
	assert_int_equal(cliopt_exit_status("run", &s, 0, 0), 0);
	assert_int_equal(cliopt_exit_status("run", &s, -EOVERFLOW, 0), 2);   /* absurd sizes */
	assert_int_equal(cliopt_exit_status("run", &s, -EIO, 0), 1);
	s.stop_signal = 2;
	assert_int_equal(cliopt_exit_status("run", &s, 0, 0), 130);
	assert_int_equal(cliopt_exit_status("tui", &s, 0, CLIOPT_END_LOST), 130);
	assert_int_equal(cliopt_exit_status("tui", &s, 0, CLIOPT_END_FAILED), 1);
	s.n_failed = 1;   /* a failure is the more specific news than the signal */
	assert_int_equal(cliopt_exit_status("tui", &s, 0, 0), 1);
	s.stop_signal = 0;
	s.n_failed = 0;
	assert_int_equal(cliopt_exit_status("tui", &s, 0, CLIOPT_END_LOST), 1);
	s.t_idle_start = 1;   /* it measured: an overflow then is a runtime failure */
	assert_int_equal(cliopt_exit_status("run", &s, -EOVERFLOW, 0), 1);
}

static int setup(void **state)
{
	(void)state;
	return testdir_make(&td, "session");
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_EMPTY);   /* fails if a test left a file behind */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epochs),
		cmocka_unit_test(test_stop_from_tick),
		cmocka_unit_test(test_front_end_child),
		cmocka_unit_test(test_load_only),
		cmocka_unit_test(test_concurrent),
		cmocka_unit_test(test_load_window),
		cmocka_unit_test(test_load_window_held),
		cmocka_unit_test(test_load_ends_early),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_orphans),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_shared_dir),
		cmocka_unit_test(test_exit_status),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
