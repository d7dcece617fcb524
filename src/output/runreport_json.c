#include "runreport.h"
#include "runreport_priv.h"
#include "runreport_split.h"
#include "outfile.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "jout.h"
#include "machine.h"

/* ---- JSON ---- */

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *json_group(const struct session *s, const struct runreport_group *g)
{
	struct json_object *o = jout_object();
	add(o, "action", jout_string(action_kind_name(g->action)));
	add(o, "phase", jout_string(session_phase_name(g->phase)));
	add(o, "epoch", jout_int64(g->epoch));
	add(o, "n", jout_int64((int64_t)g->st.n));
	add(o, "cold", jout_int64(g->cold));
	add(o, "timeouts", jout_int64(g->timeouts));
	add(o, "errors", jout_int64(g->errors));
	add(o, "warm_left_out", jout_int64(g->warm));
	add(o, "warm_p50_ms", jout_finite(g->warm_p50));
	add(o, "min_ms", jout_finite(g->st.min));
	add(o, "p50_ms", jout_finite(g->st.p50));
	add(o, "p90_ms", jout_finite(g->st.p90));
	add(o, "p99_ms", jout_finite(g->st.p99));
	add(o, "max_ms", jout_finite(g->st.max));
	add(o, "mean_ms", jout_finite(g->st.mean));
	add(o, "sd_ms", jout_finite(g->st.sd));
	add(o, "pct_over_2s", jout_finite(g->st.pct_over_2s));
	add(o, "pct_over_10s", jout_finite(g->st.pct_over_10s));
	add(o, "slowdown_p50", jout_finite(g->slow_p50));
	add(o, "slowdown_p99", jout_finite(g->slow_p99));
	struct runreport_split sp;
	add(o, "breakdown", runreport_split_group(s, g->action, g->epoch, g->phase, &sp) == 0 ?
	    runreport_split_group_json(&sp) : NULL);
	return o;
}

static struct json_object *json_verdict(const struct session *s, const struct grade_verdict *v,
					uint32_t epoch)
{
	struct json_object *o = jout_object();
	char line[1024], cmd[PATH_MAX + 96];
	add(o, "action", jout_string(action_kind_name(v->action)));
	add(o, "name", jout_string(grade_action_name(v->action)));
	add(o, "phase", jout_string(epoch != UINT32_MAX ? "loaded" : "idle"));
	add(o, "under_load", jout_bool(v->loaded));
	add(o, "epoch", epoch == UINT32_MAX ? NULL : jout_int64(epoch));
	add(o, "grade", jout_string(grade_name(v->grade)));
	add(o, "seconds", jout_finite(v->seconds));
	add(o, "p90_seconds", jout_finite(v->p90_seconds));
	add(o, "p90_grade", jout_string(grade_name(v->p90_grade)));
	add(o, "idle_seconds", jout_finite(v->idle_seconds));
	add(o, "idle_grade", jout_string(grade_name(v->idle_grade)));
	add(o, "slowdown", jout_finite(v->slowdown));
	add(o, "cause", jout_string(grade_cause_name(v->cause)));
	add(o, "cause_text", v->cause != GRADE_CAUSE_NONE ? jout_string(v->cause_text) : NULL);
	add(o, "cause_guessed_without", v->guess_why[0] ? jout_string(v->guess_why) : NULL);
	runreport_next_command(s, cmd, sizeof(cmd));
	add(o, "next", v->next ? jout_string(cmd) : NULL);
	add(o, "next_why", v->next ? jout_string(v->next_why) : NULL);
	grade_format(v, line, sizeof(line));
	add(o, "text", jout_string(line));
	return o;
}

/* An array of n items, one(s, ctx, i) each, in order. */
typedef struct json_object *(*json_item_fn)(const struct session *s, const void *ctx, size_t i);

static struct json_object *json_array_of(const struct session *s, const void *ctx, size_t n,
					 json_item_fn one)
{
	struct json_object *arr = jout_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, one(s, ctx, i));
	return arr;
}

/* Point k of load l's timeline. */
static struct json_object *json_load_point(const struct session *s, const void *ctx, size_t k)
{
	const struct load *l = ctx;
	struct json_object *p = jout_object();
	add(p, "t_s", jout_finite((double)(l->timeline[k].t_ns - s->t0) / 1e9));
	add(p, "bytes", jout_int64((int64_t)l->timeline[k].bytes));
	add(p, "mib_s", jout_finite(runreport_tick_load_mibps(l, k)));
	add(p, "worst_call_ms", jout_finite((double)l->timeline[k].worst_ns / 1e6));
	return p;
}

/* Load l's figures over epoch e. */
static struct json_object *json_load_epoch(const struct session *s, const void *ctx, size_t e)
{
	const struct load *l = ctx;
	double r, w;
	runreport_load_window(s, l, s->epochs[e].t_ns, runreport_epoch_end(s, e), &r, &w);
	struct json_object *x = jout_object();
	add(x, "epoch", jout_int64((int64_t)e));
	add(x, "mib_s", jout_finite(r));
	add(x, "worst_call_ms", jout_finite(w));
	return x;
}

static struct json_object *json_load(const struct session *s, const void *ctx, size_t i)
{
	(void)ctx;
	const struct load *l = &s->loads[i];
	struct json_object *o = jout_object();
	char spec[512];
	load_spec_format(&l->spec, spec, sizeof(spec));
	add(o, "kind", jout_string(load_kind_name(l->spec.kind)));
	add(o, "index", jout_int64(l->index));
	add(o, "spec", jout_string(spec));
	add(o, "bytes", jout_int64((int64_t)l->bytes));
	add(o, "mib_s", jout_finite(load_mibps(l)));
	if (load_kind_splits(l->spec.kind)) {   /* a mixed load's or a copy's reads and writes */
		double r, w;
		load_mibps_split(l, &r, &w);
		add(o, "read_bytes", jout_int64((int64_t)l->bytes_read));
		add(o, "write_bytes", jout_int64((int64_t)(l->bytes - l->bytes_read)));
		add(o, "read_mib_s", jout_finite(r));
		add(o, "write_mib_s", jout_finite(w));
	}
	add(o, "worst_call_ms", l->t_start ? jout_finite((double)l->worst_ns / 1e6) : NULL);
	add(o, "worst_call_t_s", l->worst_at_ns ?
	    jout_finite((double)(l->worst_at_ns - s->t0) / 1e9) : NULL);
	add(o, "end", jout_string(runreport_load_state(l)));
	add(o, "error", l->err && l->end != LOAD_END_DIED ?
	    jout_string(strerror(l->err)) : NULL);
	add(o, "timeline", json_array_of(s, l, l->n_timeline, json_load_point));
	add(o, "by_epoch", json_array_of(s, l, s->n_epochs, json_load_epoch));
	return o;
}

/* Device d's rates in tick *ctx. */
static struct json_object *json_tick_dev(const struct session *s, const void *ctx, size_t d)
{
	size_t i = *(const size_t *)ctx;
	const struct kstat_rates *r = &s->ticks_disk[i * s->n_devs + d];
	struct json_object *x = jout_object();
	add(x, "name", jout_string(s->devs[d].name));
	add(x, "r_iops", jout_finite(r->rd_iops));
	add(x, "w_iops", jout_finite(r->wr_iops));
	add(x, "r_mib_s", jout_finite(r->rd_mbps));
	add(x, "w_mib_s", jout_finite(r->wr_mbps));
	add(x, "util_pct", jout_finite(r->util_pct));
	add(x, "avg_queue", jout_finite(r->avg_queue));
	return x;
}

static struct json_object *json_tick(const struct session *s, const void *ctx, size_t i)
{
	(void)ctx;
	const struct session_tick *t = &s->ticks[i];
	struct json_object *o = jout_object();
	add(o, "t_s", jout_finite((double)t->t_ns / 1e9));
	add(o, "phase", jout_string(session_phase_name((enum session_phase)t->phase)));
	add(o, "epoch", jout_int64(t->epoch));
	add(o, "psi_some_pct", t->psi_ok ? jout_finite(t->psi_some_pct) : NULL);
	add(o, "psi_full_pct", t->psi_ok ? jout_finite(t->psi_full_pct) : NULL);
	add(o, "psi_some_avg10", t->psi_ok ? jout_finite(t->psi_some_avg10) : NULL);
	add(o, "psi_full_avg10", t->psi_ok ? jout_finite(t->psi_full_avg10) : NULL);
	add(o, "dirty_bytes", t->mem_ok ? jout_int64((int64_t)t->dirty) : NULL);
	add(o, "writeback_bytes", t->mem_ok ? jout_int64((int64_t)t->writeback) : NULL);
	add(o, "devices", json_array_of(s, &i, s->n_devs, json_tick_dev));
	return o;
}

struct json_object *runreport_ran_as_json(const struct child_cred *c)
{
	if (!c)
		return NULL;
	struct json_object *o = jout_object();
	add(o, "uid", jout_int64(c->uid));
	add(o, "gid", jout_int64(c->gid));
	add(o, "user", c->user[0] ? jout_string(c->user) : NULL);
	add(o, "privileged", jout_bool(c->uid == 0));
	return o;
}

/* The load directories with work areas of their own: each one's stack
 * (its file system, top device, the disks sampled, their schedulers). */
static struct json_object *json_load_dirs(const struct session *s,
					  const struct machine_measured *measured)
{
	struct json_object *a = jout_array();
	size_t nm = s->n_devs < SESSION_MAX_DEVS ? s->n_devs : SESSION_MAX_DEVS;
	for (size_t k = 0; k < s->n_loaddirs; k++) {
		const struct session_loaddir *ld = &s->loaddirs[k];
		struct json_object *o = jout_object(), *devs = jout_array();
		for (size_t d = 0; d < s->n_devs; d++)
			if (s->devs[d].stacks & (2u << k))
				json_object_array_add(devs, jout_string(s->devs[d].name));
		add(o, "dir", jout_path(ld->dir, 1));
		add(o, "fstype", ld->fstype[0] ? jout_string(ld->fstype) : NULL);
		add(o, "device", ld->dev[0] ? jout_string(ld->dev) : NULL);
		add(o, "devices", devs);
		add(o, "floor_bytes", jout_int64((int64_t)ld->floor_bytes));
		add(o, "disks", machine_disks_json(ld->dir, measured, nm));
		json_object_array_add(a, o);
	}
	return a;
}

/* What and where: the version, DIR, its disks and the machine. */
static void json_where(struct json_object *root, const struct session *s)
{
	const struct session_config *c = &s->cfg;
	add(root, "format_version", jout_int64(RUNREPORT_FORMAT_VERSION));
	add(root, "kind", jout_string("run"));
	add(root, "brisk", jout_string(BRISK_VERSION));
	add(root, "brisk_version", jout_string(BRISK_VERSION));
	add(root, "dir", jout_path(c->dir, 1));
	add(root, "fstype", jout_string(s->fstype));
	struct json_object *devs = jout_array();
	for (size_t d = 0; d < s->n_devs; d++)
		json_object_array_add(devs, jout_string(s->devs[d].name));
	add(root, "devices", devs);
	struct machine_measured measured[SESSION_MAX_DEVS];
	for (size_t d = 0; d < s->n_devs && d < SESSION_MAX_DEVS; d++)
		measured[d] = (struct machine_measured){ s->devs[d].name, s->devs[d].scheduler };
	add(root, "machine", machine_json(c->dir, measured,
						 s->n_devs < SESSION_MAX_DEVS ? s->n_devs
									      : SESSION_MAX_DEVS));
	const char *noted = session_noted_settings(s);
	add(root, "profile_settings", noted[0] ? jout_string(noted) : NULL);
	add(root, "load_dirs", json_load_dirs(s, measured));
}

/* When the phases began and how the run ended. */
static void json_times(struct json_object *root, const struct session *s)
{
	add(root, "duration_s", jout_finite((double)s->t_end / 1e9));
	add(root, "idle_start_s", s->t_idle_start ?
	    jout_finite((double)s->t_idle_start / 1e9) : NULL);
	add(root, "load_start_s", s->t_load_start ?
	    jout_finite((double)s->t_load_start / 1e9) : NULL);
	add(root, "loaded_start_s", s->t_loaded_start ?
	    jout_finite((double)s->t_loaded_start / 1e9) : NULL);
	add(root, "stop_s", s->t_stop ? jout_finite((double)s->t_stop / 1e9) : NULL);
	add(root, "interrupted_by", s->stop_signal ?
	    jout_string(sigabbrev_np(s->stop_signal)) : NULL);
	add(root, "cut_by_max_time", jout_bool(s->cut_by_max_time));
}

static struct json_object *json_concurrency(const struct session *s)
{
	const struct session_config *c = &s->cfg;
	struct json_object *cc = jout_object();
	add(cc, "cap", jout_int64(c->concurrency > 1 ? c->concurrency : 1));
	add(cc, "reached", jout_int64(s->inflight_max));
	add(cc, "scheduled", jout_int64((int64_t)c->n_starts));
	add(cc, "late_starts", jout_int64(s->late_starts));
	add(cc, "late_max_s", jout_finite((double)s->late_max_ns / 1e9));
	return cc;
}

/* The load that ended before the loaded phase did; NULL when none. */
static struct json_object *json_load_ended(const struct session *s)
{
	if (!s->t_load_ended)
		return NULL;
	struct json_object *le = jout_object();
	add(le, "t_s", jout_finite((double)s->t_load_ended / 1e9));
	add(le, "load", jout_string(s->load_ended));
	add(le, "loaded_samples_after", jout_int64(s->n_after_load_end));
	add(le, "finite_on_purpose", jout_bool(s->cfg.load_finite));
	add(le, "invalid", jout_bool(!s->cfg.load_finite));
	return le;
}

/* The exec action's program: "exec", "exec_files", "exec_program" in cfg. */
static void json_exec(struct json_object *cfg, const struct action *a)
{
	struct json_object *argv = jout_array();
	for (size_t k = 0; a->argv[k]; k++)
		json_object_array_add(argv, jout_string(a->argv[k]));
	add(cfg, "exec", argv);
	struct json_object *files = jout_array();
	for (size_t k = 0; k < a->n_files; k++)
		json_object_array_add(files, jout_string(a->files[k]));
	add(cfg, "exec_files", files);
	struct json_object *prog = jout_object(), *fdevs = jout_array();
	add(prog, "program", jout_string(a->prog.argv ? a->prog.name : a->argv[0]));
	add(prog, "what", jout_string(a->prog.argv ? a->prog.what : a->what));
	add(prog, "copied", jout_bool(a->prog.argv != NULL));
	add(prog, "fallback_reason", a->prog.why_fallback[0] ?
	    jout_string(a->prog.why_fallback) : NULL);
	add(prog, "files", jout_int64((int64_t)a->n_files));
	add(prog, "copied_mib", a->prog.argv ?
	    jout_finite((double)a->prog.bytes / MiB) : NULL);
	add(prog, "cold_read_mib", a->prog.argv ?
	    jout_finite((double)a->cold_bytes / MiB) : NULL);
	add(prog, "cold_read_files", a->prog.argv ? jout_int64((int64_t)a->cold_files) : NULL);
	for (size_t k = 0; a->devs && k < a->n_files; k++) {
		struct json_object *fo = jout_object();
		add(fo, "path", jout_string(a->files[k]));
		add(fo, "device", jout_string(a->devs[k]));
		add(fo, "on_disk_under_test", jout_bool(!a->off[k]));
		json_object_array_add(fdevs, fo);
	}
	add(prog, "file_devices", fdevs);
	add(prog, "not_on_disk_under_test", a->where[0] ? jout_string(a->where) : NULL);
	add(cfg, "exec_program", prog);
}

static struct json_object *json_config(const struct session *s)
{
	const struct session_config *c = &s->cfg;
	struct json_object *cfg = jout_object();
	struct json_object *loads = jout_array();
	for (size_t i = 0; i < c->n_loads; i++) {
		char spec[512];
		load_spec_format(&c->loads[i], spec, sizeof(spec));
		json_object_array_add(loads, jout_string(spec));
	}
	add(cfg, "loads", loads);
	struct json_object *acts_cfg = jout_array();
	for (unsigned i = 0; i < s->n_actions; i++)
		json_object_array_add(acts_cfg, jout_string(action_kind_name(s->actions[i].kind)));
	add(cfg, "actions", acts_cfg);
	for (unsigned i = 0; i < s->n_actions; i++)
		if (s->actions[i].kind == ACTION_EXEC && s->actions[i].argv)
			json_exec(cfg, &s->actions[i]);
	add(cfg, "ls_files", jout_int64(c->action.ls_files));
	add(cfg, "keep_warm", jout_bool(c->keep_warm));
	add(cfg, "eviction", jout_string(c->evict == ACTION_EVICT_DROP_CACHES ?
						     "drop_caches" : "fadvise"));
	add(cfg, "idle_samples", jout_int64(c->idle_samples));
	add(cfg, "loaded_samples", jout_int64(c->loaded_samples));
	add(cfg, "interval_ms", jout_finite((double)c->interval_ns / 1e6));
	add(cfg, "jitter_pct", jout_int64(c->jitter_pct));
	add(cfg, "timeout_s", jout_finite((double)c->timeout_ns / 1e9));
	add(cfg, "tick_s", jout_finite((double)c->tick_ns / 1e9));
	add(cfg, "floor_bytes", jout_int64((int64_t)s->floor_bytes));
	return cfg;
}

static struct json_object *json_vm(const struct session *s)
{
	struct json_object *vm = jout_object();
	add(vm, "dirty_ratio", jout_int64(s->vm.ratio));
	add(vm, "dirty_background_ratio", jout_int64(s->vm.background_ratio));
	add(vm, "dirty_bytes", jout_int64(s->vm.bytes));
	add(vm, "dirty_background_bytes", jout_int64(s->vm.background_bytes));
	add(vm, "dirty_expire_centisecs", jout_int64(s->vm.expire_centisecs));
	add(vm, "dirty_writeback_centisecs", jout_int64(s->vm.writeback_centisecs));
	return vm;
}

static struct json_object *json_epoch(const struct session *s, const void *ctx, size_t e)
{
	(void)ctx;
	struct json_object *o = jout_object();
	add(o, "epoch", jout_int64((int64_t)e));
	add(o, "label", jout_string(s->epochs[e].label));
	add(o, "t_s", jout_finite((double)s->epochs[e].t_ns / 1e9));
	return o;
}

/* "actions" (each action's groups, the graded one with its verdict) and
 * "verdicts". */
static void json_actions(struct json_object *root, const struct session *s)
{
	const struct blockdev *bdevs[SESSION_MAX_DEVS];
	struct blockdev *mem;
	runreport_probe_devs(s, bdevs, &mem);
	struct grade_verdict v[ACTION_KIND_COUNT];
	size_t nv = 0;
	uint32_t ve = runreport_verdict_epoch(s);
	if (runreport_verdicts(s, ve, bdevs, v, &nv) < 0)
		nv = 0;
	free(mem);
	struct json_object *verdicts = jout_array();
	for (size_t i = 0; i < nv; i++)
		json_object_array_add(verdicts, json_verdict(s, &v[i], ve));
	struct json_object *acts = jout_array();
	static const enum session_phase phases[] = { SESSION_IDLE, SESSION_LOADED };
	for (unsigned ai = 0; ai < s->n_actions; ai++) {
		struct json_object *notes = NULL;
		for (size_t p = 0; p < 2; p++)
			for (uint32_t e = 0; e < s->n_epochs; e++) {
				struct runreport_group g;
				if (runreport_group(s, s->actions[ai].kind, e, phases[p], &g) < 0 ||
				    (!g.st.n && !g.errors && !g.warm))
					continue;
				struct json_object *o = json_group(s, &g);
				for (size_t i = 0; i < nv; i++)
					if (v[i].action == g.action &&
					    (ve != UINT32_MAX ? phases[p] == SESSION_LOADED && e == ve
					     : phases[p] == SESSION_IDLE && e == 0))
						add(o, "verdict", json_verdict(s, &v[i], ve));
				if (s->actions[ai].note[0] && !notes)
					add(o, "note", notes = jout_string(s->actions[ai].note));
				json_object_array_add(acts, o);
			}
	}
	add(root, "actions", acts);
	add(root, "verdicts", verdicts);
}

/* The loads over the load window; NULL without a loaded phase (session.h). */
static struct json_object *json_load_window(const struct session *s)
{
	struct session_load_window w;
	if (session_load_window(s, &w) != 0)
		return NULL;
	struct json_object *o = jout_object();
	add(o, "device", s->fsdev.name[0] ? jout_string(s->fsdev.name) : NULL);
	add(o, "seconds", jout_finite(w.seconds));
	add(o, "load_mibps", jout_finite(w.load_mibps));
	add(o, "disk_mibps", jout_finite(w.disk_mibps));
	add(o, "disk_written_mibps", jout_finite(w.disk_wr_mibps));
	add(o, "disk_read_mibps", jout_finite(w.disk_rd_mibps));
	return o;
}

static struct json_object *json_sample(const struct session *s, const void *ctx, size_t i)
{
	(void)ctx;
	const struct session_sample *x = &s->samples[i];
	struct json_object *o = jout_object();
	add(o, "t_s", jout_finite((double)x->t_ns / 1e9));
	add(o, "epoch", jout_int64(x->epoch));
	add(o, "phase", jout_string(session_phase_name((enum session_phase)x->phase)));
	add(o, "action", jout_string(action_kind_name((enum action_kind)x->action)));
	add(o, "ms", jout_finite((double)x->dur_ns / 1e6));
	add(o, "cold", jout_bool(x->cold));
	add(o, "timeout", jout_bool(x->timeout));
	add(o, "error", jout_int64(x->err));
	add(o, "start_s", jout_finite((double)x->fork_ns / 1e9));
	add(o, "inflight", jout_int64(x->inflight));
	add(o, "after_load_ended", jout_bool(s->t_load_ended && x->phase == SESSION_LOADED &&
					     x->fork_ns >= s->t_load_ended));
	add(o, "breakdown", runreport_split_json(&x->split));
	return o;
}

static struct json_object *json_session(const struct session *s)
{
	struct json_object *root = jout_object();
	json_where(root, s);
	json_times(root, s);
	add(root, "ran_as", runreport_ran_as_json(s->n_actions ? &s->actions[0].run_as : NULL));
	add(root, "concurrency", json_concurrency(s));
	add(root, "load_ended_early", json_load_ended(s));
	add(root, "config", json_config(s));
	add(root, "vm", json_vm(s));
	add(root, "epochs", json_array_of(s, NULL, s->n_epochs, json_epoch));
	json_actions(root, s);
	add(root, "loads", json_array_of(s, NULL, s->n_loads, json_load));
	struct json_object *w = json_load_window(s);
	if (w)
		add(root, "load_window", w);
	add(root, "system", json_array_of(s, NULL, s->n_ticks, json_tick));
	add(root, "breakdown", runreport_split_state_json(s));
	add(root, "samples", json_array_of(s, NULL, s->n_samples, json_sample));
	struct json_object *msgs = jout_array();
	for (size_t i = 0; i < s->n_msgs; i++)
		json_object_array_add(msgs, jout_string(s->msgs[i]));
	add(root, "notes", msgs);
	return root;
}

int runreport_json(const struct session *s, const char *path, char *err, size_t errlen)
{
	return jout_save(path, json_session(s), err, errlen);
}

int runreport_csv(const struct session *s, const char *path, char *err, size_t errlen)
{
	struct outfile o;
	int rc = outfile_open(&o, path, err, errlen);
	if (rc < 0)
		return rc;
	FILE *f = o.f;
	fprintf(f, "t_s,epoch,phase,action,ms,cold,timeout,error");
	runreport_split_csv_header(f);
	fputc('\n', f);
	for (size_t i = 0; i < s->n_samples; i++) {
		const struct session_sample *x = &s->samples[i];
		fprintf(f, "%.6f,%u,%s,%s,%.3f,%u,%u,%d", (double)x->t_ns / 1e9, x->epoch,
			session_phase_name((enum session_phase)x->phase),
			action_kind_name((enum action_kind)x->action), (double)x->dur_ns / 1e6,
			x->cold, x->timeout, x->err);
		runreport_split_csv_row(f, &x->split);
		fputc('\n', f);
	}
	return outfile_close(&o, 1, 1, NULL, err, errlen);
}
