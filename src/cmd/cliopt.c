#include "cliopt.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
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
#include "text.h"

int cliopt_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "brisk %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'brisk help %.*s'.\n", (int)strcspn(cmd, " "), cmd);
	return EXIT_USAGE;
}

/* The entry of "--NAME" or "--NAME=VALUE" as getopt_long() finds it: the
 * exact name, else the one option it abbreviates; NULL when none or
 * several (*n_hits says how many begin so). */
static const struct option *long_find(const char *arg, const struct option *longopts,
				      size_t *n_hits)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	const struct option *hit = NULL;
	*n_hits = 0;
	for (const struct option *o = longopts; o && o->name; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len) {
			*n_hits = 1;
			return o;
		}
		if (!hit || hit->has_arg != o->has_arg || hit->flag != o->flag || hit->val != o->val)
			++*n_hits;   /* getopt_long: one option under two names is no ambiguity */
		hit = o;
	}
	return *n_hits == 1 ? hit : NULL;
}

int cliopt_getopt_error(const char *cmd, int c, char **argv, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	/* A long option's error, unless it is a short one inside a cluster
	 * after it: at "--all -xq" optind still points at "-xq". */
	if (arg && arg[0] == '-' && arg[1] == '-' && arg[2]) {
		size_t n, len = strcspn(arg + 2, "=");
		const struct option *o = long_find(arg, longopts, &n);
		if (o && c == ':')
			return cliopt_usage_error(cmd, "option '--%s' needs an argument", o->name);
		if (o && o->has_arg == no_argument && arg[2 + len] == '=' && o->val == optopt)
			return cliopt_usage_error(cmd, "option '--%s' takes no argument", o->name);
		if (!o && n > 1 && optopt == 0) {
			char alts[256] = "";
			size_t used = 0;
			for (const struct option *p = longopts; p->name && used < sizeof(alts); p++)
				if (strncmp(p->name, arg + 2, len) == 0)
					used += (size_t)snprintf(alts + used, sizeof(alts) - used,
								 "%s--%s", used ? ", " : "", p->name);
			return cliopt_usage_error(cmd, "option '--%.*s' is ambiguous (%s)", (int)len,
						  arg + 2, alts);
		}
		if (!o && optopt == 0)
			return cliopt_usage_error(cmd, "unknown option '--%.*s'", (int)len, arg + 2);
	}
	if (c == ':')
		return cliopt_usage_error(cmd, "option '-%c' needs an argument", optopt);
	if (optopt > ' ' && optopt < 127)
		return cliopt_usage_error(cmd, "unknown option '-%c'", optopt);
	return cliopt_usage_error(cmd, "unknown option '%s'", arg ? arg : "");
}

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

int cliopt_floor(const char *cmd, const char *v, struct session_config *c)
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

int cliopt_load(const char *cmd, const char *spec, struct session_config *c, int *user_loads)
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

int cliopt_actions(const char *cmd, const char *list, struct session_config *c)
{
	char err[256];
	if (action_parse_list(list, &c->actions, err, sizeof(err)) < 0) {
		fprintf(stderr, "brisk %s: --actions: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	return 0;
}

int cliopt_session(const char *cmd, int opt, const char *arg, struct session_config *c,
		   int *user_loads)
{
	int rc = 0;
	switch (opt) {
	case 'l':
		return cliopt_load(cmd, arg, c, user_loads);
	case 'a':
		return cliopt_actions(cmd, arg, c);
	case CLIOPT_EXEC:
		c->action.exec_cmd = arg;
		return 0;
	case CLIOPT_LS_FILES:
		return cliopt_count(cmd, "--ls-files", arg, 1, 1000000, &c->action.ls_files);
	case CLIOPT_INTERVAL:
		return cliopt_time(cmd, "--interval", arg, &c->interval_ns);
	case CLIOPT_TIMEOUT:
		rc = cliopt_time(cmd, "--timeout", arg, &c->timeout_ns);
		if (!rc && !c->timeout_ns)
			rc = cliopt_bad(cmd, "--timeout", arg, "must be above zero");
		return rc;
	case CLIOPT_FLOOR:
		return cliopt_floor(cmd, arg, c);
	case CLIOPT_DROP:
		c->evict = ACTION_EVICT_DROP_CACHES;
		return 0;
	case CLIOPT_ALLOW_SHARED:
		c->allow_shared_dir = 1;
		return 0;
	case CLIOPT_KEEP_WARM:
		c->keep_warm = 1;
		return 0;
	}
	return 1;
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

int cliopt_dir(const char *cmd, int argc, char **argv, int optind, struct session_config *c)
{
	if (optind < argc - 1)
		return cliopt_usage_error(cmd, "one directory only ('%s' is extra)", argv[optind + 1]);
	if (optind < argc) {
		if (strlen(argv[optind]) >= sizeof(c->dir))
			return cliopt_bad(cmd, "DIR", argv[optind], "path too long");
		snprintf(c->dir, sizeof(c->dir), "%s", argv[optind]);
	}
	return 0;
}

/* "--opt VALUE" / "--opt=VALUE" at argv[*i]: the value, advancing *i. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);
	if (strncmp(argv[*i], opt, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

int cliopt_profile(int argc, char **argv, struct profile *p, struct session_config *c,
		   char *note, size_t notelen, struct fiojob_report *fio_rep, char *err,
		   size_t errlen)
{
	const char *prof = NULL, *fio = NULL, *scale_arg = NULL;
	if (note && notelen)
		note[0] = '\0';
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		const char *v;
		if ((v = opt_value(argc, argv, &i, "--profile"))) {
			if (prof || fio)
				return msg_fail(-EINVAL, err, errlen, "one --profile or --fio only");
			prof = v;
		} else if ((v = opt_value(argc, argv, &i, "--fio"))) {
			if (prof || fio)
				return msg_fail(-EINVAL, err, errlen, "one --profile or --fio only");
			fio = v;
		} else if ((v = opt_value(argc, argv, &i, "--scale"))) {
			scale_arg = v;
		}
	}
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

/* --parse-only: the options given, as getopt_long() returned them. */
struct given {
	int code;
	const char *arg;
};

/* Each option of g as --NAME[=VALUE], one a line; CLIOPT_HELP or 1. */
static int print_given(const struct given *g, size_t n, const struct option *longopts)
{
	for (size_t i = 0; i < n; i++) {
		const struct option *o = longopts;
		while (o->name && o->val != g[i].code)
			o++;
		if (o->name && g[i].code != CLIOPT_PARSE_ONLY)
			printf("--%s%s%s\n", o->name, g[i].arg ? "=" : "",
			       g[i].arg ? text_show(g[i].arg) : "");
	}
	return fflush(stdout) == 0 ? CLIOPT_HELP : EXIT_FAILED;
}

int cliopt_parse(const struct cliopt_cmd *cmd, int argc, char **argv,
		 struct session_config *c, int *user_loads)
{
	int opt, parse_only = 0;
	/* at most one option per byte of the arguments (-qqq is three) */
	size_t n_given = 0, cap = 1;
	for (int i = 1; i < argc; i++)
		cap += strlen(argv[i]);
	struct given *given = malloc(cap * sizeof(*given));
	if (!given) {
		fprintf(stderr, "brisk %s: out of memory\n", cmd->name);
		return EXIT_FAILED;
	}
	optind = 1;
	opterr = 0;
	int rc = 0;
	while ((opt = getopt_long(argc, argv, cmd->shortopts, cmd->longopts, NULL)) != -1) {
		if (opt == '?' || opt == ':') {
			rc = cliopt_getopt_error(cmd->name, opt, argv, cmd->longopts);
			break;
		}
		if (opt == 'h') {
			cmd->usage(stdout);
			rc = CLIOPT_HELP;
			break;
		}
		if (n_given < cap)
			given[n_given++] = (struct given){ opt, optarg };
		if (opt == CLIOPT_PARSE_ONLY) {
			parse_only = 1;
			continue;
		}
		rc = cmd->own ? cmd->own(cmd->ctx, opt, optarg) : 1;
		if (rc == 1)
			rc = cliopt_session(cmd->name, opt, optarg, c, user_loads);
		if (rc == 1) {   /* in the table, but neither list handles it */
			fprintf(stderr, "brisk %s: option code %d has no handler (a bug in brisk)\n",
				cmd->name, opt);
			break;
		}
		if (rc)
			break;
	}
	if (!rc && parse_only)
		rc = print_given(given, n_given, cmd->longopts);
	free(given);
	if (!rc && c->evict == ACTION_EVICT_DROP_CACHES && geteuid() != 0) {
		fprintf(stderr, "brisk %s: --drop-caches needs root (it writes "
			"/proc/sys/vm/drop_caches); nothing was run\n", cmd->name);
		rc = EXIT_PRIVILEGE;
	}
	if (rc)
		return rc;
	if (cmd->positional)
		return cmd->positional(cmd->ctx, argc, argv, optind, c);
	return cliopt_dir(cmd->name, argc, argv, optind, c);
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

int cliopt_outputs(const char *cmd, const struct cliopt_output *out, size_t n)
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
		return cliopt_usage_error(cmd, "only one of %s can go to stdout", names);
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
