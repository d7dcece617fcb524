#include "cliopt.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fiojob.h"
#include "msg.h"
#include "outfile.h"
#include "parse.h"
#include "profile.h"
#include "session.h"

int cliopt_bad(const char *cmd, const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "brisk %s: %s '%s': %s\n", cmd, opt, val, want);
	return EXIT_USAGE;
}

int cliopt_count(const char *cmd, const char *opt, const char *v, int64_t min, int64_t max,
		 unsigned *out)
{
	int64_t n;
	if (parse_int(v, min, max, &n) < 0) {
		char want[64];
		snprintf(want, sizeof(want), "expected a whole number %lld..%lld",
			 (long long)min, (long long)max);
		return cliopt_bad(cmd, opt, v, want);
	}
	*out = (unsigned)n;
	return 0;
}

int cliopt_time(const char *cmd, const char *opt, const char *v, uint64_t *out)
{
	return parse_duration(v, out) < 0 ?
	       cliopt_bad(cmd, opt, v, "expected a duration such as 500ms, 20s or 2m") : 0;
}

static int cliopt_floor(const char *cmd, const char *v, struct session_config *c)
{
	size_t n = strlen(v);
	if (n > 1 && v[n - 1] == '%') {
		char buf[32], *end;
		if (n >= sizeof(buf))
			return cliopt_bad(cmd, "--floor", v, "too long");
		memcpy(buf, v, n - 1);
		buf[n - 1] = '\0';
		double p = strtod(buf, &end);
		if (*end || !(p >= 0 && p < 100))
			return cliopt_bad(cmd, "--floor", v, "expected a percentage below 100%");
		c->floor_pct = p;
		c->floor_min = 0;
		c->floor_bytes = 0;
		c->no_floor = p == 0;
		return 0;
	}
	uint64_t b;
	if (parse_size(v, &b) < 0)
		return cliopt_bad(cmd, "--floor", v, "expected a size (2g) or a percentage (5%)");
	c->floor_bytes = b;
	c->no_floor = b == 0;     /* writers end on ENOSPC */
	return 0;
}

static int cliopt_load(const char *cmd, const char *spec, struct session_config *c, int *user_loads)
{
	char err[256];
	if (!*user_loads)
		c->n_loads = 0;
	*user_loads = 1;
	if (c->n_loads == SESSION_MAX_LOAD_SPECS) {
		fprintf(stderr, "brisk %s: at most %d --load options\n", cmd, SESSION_MAX_LOAD_SPECS);
		return EXIT_USAGE;
	}
	if (load_spec_parse(spec, &c->loads[c->n_loads], err, sizeof(err)) < 0) {
		fprintf(stderr, "brisk %s: --load: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	c->n_loads++;
	return 0;
}

static int cliopt_actions(const char *cmd, const char *list, struct session_config *c)
{
	char err[256];
	if (action_parse_list(list, &c->actions, err, sizeof(err)) < 0) {
		fprintf(stderr, "brisk %s: --actions: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	return 0;
}

int cliopt_set_session(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct cliopt_args *a = ctx;
	struct session_config *c = a->c;
	int rc = 0;
	switch (o->key) {
	case 'l':
		return cliopt_load(cmd, arg, c, &a->user_loads);
	case 'a':
		return cliopt_actions(cmd, arg, c);
	case CLIOPT_KEY_EXEC:
		c->action.exec_cmd = arg;
		return 0;
	case CLIOPT_KEY_LS_FILES:
		return cliopt_count(cmd, "--ls-files", arg, 1, 1000000, &c->action.ls_files);
	case CLIOPT_KEY_INTERVAL:
		return cliopt_time(cmd, "--interval", arg, &c->interval_ns);
	case CLIOPT_KEY_TIMEOUT:
		rc = cliopt_time(cmd, "--timeout", arg, &c->timeout_ns);
		if (!rc && !c->timeout_ns)
			rc = cliopt_bad(cmd, "--timeout", arg, "must be above zero");
		return rc;
	case CLIOPT_KEY_FLOOR:
		return cliopt_floor(cmd, arg, c);
	case CLIOPT_KEY_DROP:
		c->evict = ACTION_EVICT_DROP_CACHES;
		return 0;
	case CLIOPT_KEY_ALLOW_SHARED:
		c->allow_shared_dir = 1;
		return 0;
	case CLIOPT_KEY_KEEP_WARM:
		c->keep_warm = 1;
		return 0;
	case CLIOPT_KEY_NO_BREAKDOWN:
		c->no_breakdown = 1;
		return 0;
	case CLIOPT_KEY_LOAD_DIR:
		a->load_dir = arg;
		return 0;
	}
	fprintf(stderr, "brisk %s: --%s is not a session option (a bug in brisk)\n", cmd, o->name);
	return EXIT_FAILED;
}

int cliopt_set_seed(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct cliopt_args *a = ctx;
	int64_t n;
	(void)o;
	if (parse_int(arg, 0, INT64_MAX, &n) < 0)
		return cliopt_bad(cmd, "--seed", arg, "expected a whole number");
	a->seed = (uint64_t)n;
	a->seed_given = 1;
	return 0;
}

int cliopt_set_profile(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	(void)cmd;
	(void)o;
	(void)ctx;
	(void)arg;
	return 0;   /* read before the loop (cliopt_profile) */
}

int cliopt_session_status(int rc)
{
	switch (-rc) {
	case EINVAL: case ENOENT: case ENOTDIR: case EACCES: case EPERM: case EROFS:
	case ENODEV: case EOVERFLOW:
		return EXIT_USAGE;
	}
	return EXIT_FAILED;
}

/* At most one positional DIR (argv[first]) into c->dir: 0, or 2. */
static int cliopt_dir(const char *cmd, int argc, char **argv, int first, struct session_config *c)
{
	if (first < argc - 1)
		return optab_usage_error(cmd, "one directory only ('%s' is extra)", argv[first + 1]);
	if (first < argc) {
		if (strlen(argv[first]) >= sizeof(c->dir))
			return cliopt_bad(cmd, "DIR", argv[first], "path too long");
		snprintf(c->dir, sizeof(c->dir), "%s", argv[first]);
	}
	return 0;
}

/* "--opt VALUE" / "--opt=VALUE" at argv[*i]: the value, advancing *i. */
/* What cliopt_profile() looks for on the command line. */
struct profile_opts {
	const char *prof, *fio, *scale;
	int twice;
};

static void profile_opt(const char *name, const char *value, void *ctx)
{
	struct profile_opts *o = ctx;
	if (strcmp(name, "profile") == 0 || strcmp(name, "fio") == 0) {
		o->twice |= o->prof || o->fio;
		*(name[0] == 'p' ? &o->prof : &o->fio) = value;
	} else if (strcmp(name, "scale") == 0) {
		o->scale = value;
	}
}

int cliopt_profile(const struct optab *tab, int argc, char **argv, struct profile *p,
		   struct session_config *c, char *note, size_t notelen,
		   struct fiojob_report *fio_rep, char *err, size_t errlen)
{
	if (note && notelen)
		note[0] = '\0';
	struct profile_opts o = { 0 };
	if (optab_scan(tab, argc, argv, profile_opt, &o) < 0)
		return msg_fail(-ENOMEM, err, errlen, "too many options (a bug in brisk)");
	if (o.twice)
		return msg_fail(-EINVAL, err, errlen, "one --profile or --fio only");
	const char *prof = o.prof, *fio = o.fio, *scale_arg = o.scale;
	double scale = 1;
	if (scale_arg && (!fio || fiojob_parse_scale(scale_arg, &scale) < 0))
		return msg_fail(-EINVAL, err, errlen, fio ? "--scale '%s': expected a factor in (0, 1] such as "
			    "0.01, 1/100 or 1%%" : "--scale%s%s goes with --fio", fio ? scale_arg : "",
			    "");
	if (!prof && !fio)
		return 0;
	char path[PATH_MAX];
	struct fiojob_opts fo = { .scale = scale };
	int rc = prof ? profile_load_named(prof, p, path, sizeof(path), err, errlen) :
			fiojob_import(fio, &fo, p, fio_rep, err, errlen);
	if (rc < 0)
		return rc;
	rc = profile_to_session_config(p, prof ? path : fio, c, note, notelen, err, errlen);
	return rc < 0 ? rc : 1;
}

/* --load-dir DIR: absolute (resolved), checked, the dir= of every load
 * without one.  0 or 2. */
static int cliopt_load_dir(const char *cmd, const char *dir, struct session_config *c)
{
	char abs[PATH_MAX], why[128];
	if (!realpath(dir, abs))
		return cliopt_bad(cmd, "--load-dir", dir, strerror(errno));
	if (load_dir_check(abs, why, sizeof(why)) < 0)
		return cliopt_bad(cmd, "--load-dir", dir, why);
	size_t len = strlen(abs);   /* < LOAD_DIR_MAX: checked */
	for (size_t i = 0; i < c->n_loads; i++)
		if (!c->loads[i].dir[0])
			memcpy(c->loads[i].dir, abs, len + 1);
	return 0;
}

int cliopt_parse(const struct optab_cmd *cmd, int argc, char **argv,
		 cliopt_positional_fn *positional)
{
	struct cliopt_args *a = cmd->ctx;
	int rc = optab_parse(cmd, argc, argv);
	if (rc)
		return rc;
	if (a->load_dir && (rc = cliopt_load_dir(cmd->name, a->load_dir, a->c)))
		return rc;
	if (a->c->evict == ACTION_EVICT_DROP_CACHES && geteuid() != 0) {
		fprintf(stderr, "brisk %s: --drop-caches needs root (it writes "
			"/proc/sys/vm/drop_caches); nothing was run\n", cmd->name);
		return EXIT_PRIVILEGE;
	}
	if (positional)
		return positional(cmd->ctx, argc, argv, optind, a->c);
	return cliopt_dir(cmd->name, argc, argv, optind, a->c);
}

int cliopt_exit_status(const char *cmd, const struct session *s, int rc, unsigned end)
{
	if (rc < 0)   /* -EOVERFLOW before idle: absurd sizes */
		return rc == -EOVERFLOW && !s->t_idle_start ? EXIT_USAGE : EXIT_FAILED;
	if (end & CLIOPT_END_FAILED)
		return EXIT_FAILED;
	if (s->n_failed) {
		fprintf(stderr, "brisk %s: %u load(s) or action(s) failed or could not start%s\n",
			cmd, s->n_failed, end & CLIOPT_END_REPORTED ? " (see the report)" : "");
		return EXIT_FAILED;
	}
	if (s->stop_signal)
		return EXIT_SIGNAL + s->stop_signal;
	return end & CLIOPT_END_LOST ? EXIT_FAILED : 0;
}

/* A command's output options: OPT ("--json"), its PATH (NULL: not given),
 * and whether "-" (stdout) is allowed for it. */
struct output {
	const char *opt;
	const char *path;
	int to_stdout;
};

static int check_outputs(const char *cmd, const struct output *out, size_t n)
{
	size_t on_stdout = 0, can = 0;
	char names[256] = "";
	for (size_t i = 0; i < n; i++) {
		on_stdout += out[i].path && strcmp(out[i].path, "-") == 0;
		can += out[i].to_stdout != 0;
	}
	if (on_stdout > 1) {
		size_t len = 0, k = 0;
		for (size_t i = 0; i < n && len < sizeof(names); i++)
			if (out[i].to_stdout) {
				k++;
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
							k == 1 ? "" : k == can ? " and " : ", ",
							out[i].opt);
			}
		return optab_usage_error(cmd, "only one of %s can go to stdout", names);
	}
	for (size_t i = 0; i < n; i++) {
		char err[512];
		int rc = out[i].path ? outfile_check(out[i].path, err, sizeof(err)) : 0;
		if (rc < 0) {
			fprintf(stderr, "brisk %s: %s %s%s\n", cmd, out[i].opt, err,
				rc == -EINVAL && out[i].to_stdout ? " ('-' is standard output)" : "");
			return EXIT_USAGE;
		}
	}
	return 0;
}

int cliopt_files(const char *cmd, const struct cliopt_args *a)
{
	const struct output out[] = {
		{ "--json", a->json, 1 }, { "--csv", a->csv, 1 },
		{ "--openmetrics", a->openmetrics, 1 }, { "--plot", a->plot, 0 },
	};
	return check_outputs(cmd, out, sizeof(out) / sizeof(out[0]));
}

int cliopt_to_stdout(const struct cliopt_args *a)
{
	return (a->json && strcmp(a->json, "-") == 0) || (a->csv && strcmp(a->csv, "-") == 0) ||
	       (a->openmetrics && strcmp(a->openmetrics, "-") == 0);
}

unsigned cliopt_written(const char *cmd, const char *opt, int rc, const char *err)
{
	if (rc >= 0)
		return 0;
	fprintf(stderr, "brisk %s: %s %s\n", cmd, opt, err);
	return CLIOPT_END_FAILED;
}
