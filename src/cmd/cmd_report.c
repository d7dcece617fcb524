#include "cmd_report.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cliopt.h"
#include "fleet.h"
#include "openmetrics.h"
#include "text.h"

static const char CMD[] = "report";

enum { OPT_BY = CLIOPT_NEXT, OPT_BASELINE };

/* The command line of a report, beyond the shared options. */
struct rep_args {
	struct cliopt_args com;   /* first: the shared entries' (cliopt.h) */
	struct fleet_options opt;
	const char *save;
};

static optab_fn rep_set;

/* The options, in the order --help lists them. */
static const struct optab rep_options[] = {
	{ "by", OPT_BY, "KEY",
	  "group by class (default), model, model,firmware,\n"
	  "machine or kernel", rep_set, 0, NULL },
	{ "baseline", OPT_BASELINE, "ARM",
	  "compare against ARM (a scheduler such as mq-deadline,\n"
	  "or settings as 'scheduler=bfq low_latency=0');\n"
	  "default: the setting most machines measured first", rep_set, 0, NULL },
	CLIOPT_SEED("seed of the bootstrap (default " OPTAB_NUM(FLEET_DEFAULT_SEED)
		    ": the same files\n"
		    "give the same figures)"),
	CLIOPT_JSON("the report as JSON ('-' = stdout, then no text)"),
	CLIOPT_CSV("one row per group, phase, action and setting ('-' =\n"
		   "stdout)"),
	CLIOPT_PLOT("a picture: FILE.svg or FILE.png, one panel per group"),
	CLIOPT_OPENMETRICS,
	{ "save-profile", OPTAB_LONG, "NAME",
	  "the winner of each class as profile NAME, ready for\n"
	  "'brisk export NAME --format udev' (with --by class)", optab_text,
	  offsetof(struct rep_args, save), NULL },
	CLIOPT_FORCE("--save-profile replaces an existing profile NAME and\n"
		     "saves values outside the range a default may carry"),
	{ "trust-file-identity", OPTAB_LONG, NULL,
	  "take the machine each file names, not its host\n"
	  "folder: any file can claim to be any machine; only\n"
	  "for results you collected yourself", optab_flag,
	  offsetof(struct rep_args, opt.trust_files), NULL },
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text usage_text = {
	"usage: brisk report DIR|FILE... [options]\n"
	"\n"
	"Bring together the results of many machines: FILEs written by 'brisk run\n"
	"--json' and 'brisk compare --json', laid out one folder per machine as\n"
	"DIR/HOST/*.json (a DIR is read so).  A result's machine is the HOST folder\n"
	"it lies in; a file that claims another machine than the rest of its\n"
	"folder (or than HOST/machine-id), or one machine id under two hosts, is\n"
	"named and left out.  Group the results (default: by disk class), pool\n"
	"each setting and action with the machine as the unit (medians and p90\n"
	"with bootstrap intervals over machines, then their samples), compare\n"
	"every setting with a baseline by the median of the machines' own ratios,\n"
	"bounded, and give a verdict when its interval clears 1 and most machines\n"
	"agree; recommend a setting per group.  A file that cannot be read\n"
	"(corrupt, truncated, a newer format) is named and skipped.\n"
	"\n",
	25,
	"\n"
	"Exit status: 0 every file read, 3 a report was made but some files were\n"
	"skipped, 1 an output could not be written, 2 bad usage or no file could be\n"
	"read.  See brisk-report(1).\n"
};

/* One of report's own options (optab_fn). */
static int rep_set(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct rep_args *a = ctx;
	if (o->key == OPT_BY && fleet_by_parse(arg, &a->opt.by) < 0)
		return cliopt_bad(cmd, "--by", arg, "class, model, model,firmware, machine or kernel");
	if (o->key == OPT_BASELINE) {
		if (!arg[0] || text_check(arg, NULL) < 0)
			return cliopt_bad(cmd, "--baseline", arg, "a setting's name");
		a->opt.baseline = arg;
	}
	return 0;
}

static int parse(int argc, char **argv, struct rep_args *a)
{
	a->opt.by = FLEET_BY_CLASS;
	const struct optab_cmd cmd = { CMD, rep_options, NULL, a, &usage_text };
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc;
	a->opt.seed = a->com.seed_given ? a->com.seed : FLEET_DEFAULT_SEED;
	if (optind >= argc)
		return optab_usage_error(CMD, "no DIR or FILE given (results of brisk run --json "
					 "or brisk compare --json, as DIR/HOST/*.json)");
	if (a->save && a->opt.by != FLEET_BY_CLASS)
		return optab_usage_error(CMD, "--save-profile needs --by class: a profile holds "
					 "settings per disk class");
	if (a->com.force && !a->save)
		return optab_usage_error(CMD, "--force goes with --save-profile");
	return cliopt_files(CMD, &a->com);
}

/* What was read: the results, the files skipped, the host folders. */
struct reading {
	struct fleet_result *res;
	size_t nres, capres;
	struct fleet_skip *skip;
	size_t nskip, capskip;
	struct fleet_hosts hosts;
	int trust;                 /* --trust-file-identity */
	int oom;
};

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 16;
	void *p = realloc(*v, nc * size);
	if (!p)
		return -ENOMEM;
	memset((char *)p + *cap * size, 0, (nc - *cap) * size);
	*v = p;
	*cap = nc;
	return 0;
}

static int skipped(void *ctx, const char *display, const char *why)
{
	struct reading *rd = ctx;
	if (grow((void **)&rd->skip, &rd->capskip, rd->nskip, sizeof(*rd->skip)) < 0)
		return rd->oom = -ENOMEM;
	struct fleet_skip *s = &rd->skip[rd->nskip++];
	snprintf(s->path, sizeof(s->path), "%s", display);
	snprintf(s->why, sizeof(s->why), "%s", why);
	fprintf(stderr, "brisk report: %s: %s\n", text_show(s->path), text_show(s->why));
	return 0;
}

/* One file: read (at dirfd's name, or by path when dirfd < 0). */
static int found(void *ctx, int dirfd, size_t host, const char *name, const char *display)
{
	struct reading *rd = ctx;
	if (grow((void **)&rd->res, &rd->capres, rd->nres, sizeof(*rd->res)) < 0)
		return rd->oom = -ENOMEM;
	char why[256];
	struct fleet_result *r = &rd->res[rd->nres];
	int rc = dirfd >= 0 ? fleet_readat(dirfd, name, display, r, why, sizeof(why))
			    : fleet_read(display, r, why, sizeof(why));
	if (rc == -ENOMEM) {
		fleet_result_free(r);
		return rd->oom = -ENOMEM;
	}
	if (rc < 0) {
		fleet_result_free(r);
		char w[320];
		snprintf(w, sizeof(w), "%s: skipped%s", why,
			 rc == -EPROTONOSUPPORT ? "; upgrade brisk" : "");
		return skipped(ctx, display, w);
	}
	if (!r->version_given)
		fprintf(stderr, "brisk report: %s: no format_version: read as version 1 (it has "
			"the fields of a brisk %s result)\n", text_show(display),
			r->kind == FLEET_RUN ? "run" : "compare");
	if (r->cut)
		fprintf(stderr, "brisk report: %s: %zu of its samples not pooled: a file adds at most "
			"%u per phase, action and setting, chosen evenly by rank (one held %zu)\n",
			text_show(display), r->cut, FLEET_MAX_CELL, r->cut_largest);
	r->folder = host;
	rd->nres++;
	return 0;
}

/* Read every FILE, or every DIR/HOST/NAME.json of a DIR: the results, and the
 * skipped ones named on stderr; then, unless --trust-file-identity, each
 * result's machine from its host folder.  0, or 1 out of memory. */
static int read_all(int n, char **args, struct reading *rd)
{
	char err[512];
	for (int i = 0; i < n && !rd->oom; i++) {
		struct stat st;
		if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			size_t had = rd->nres + rd->nskip;
			int rc = fleet_dir_walk(args[i], &rd->hosts, found, skipped, rd, err,
						sizeof(err));
			if (rc < 0 && !rd->oom)
				skipped(rd, args[i], err);
			else if (rc == 0 && rd->nres + rd->nskip == had)
				skipped(rd, args[i], "no results in it: a results folder holds "
					"HOST/NAME.json, one folder per machine");
			continue;
		}
		size_t host = 0;
		if (!rd->trust && stat(args[i], &st) == 0 &&
		    fleet_hosts_add_file(&rd->hosts, args[i], &host, err, sizeof(err)) < 0) {
			skipped(rd, args[i], err);
			continue;
		}
		found(rd, -1, host, NULL, args[i]);
	}
	if (rd->oom) {
		fprintf(stderr, "brisk report: out of memory\n");
		return EXIT_FAILED;
	}
	if (rd->trust)
		return 0;
	for (size_t h = 0; h < rd->hosts.n; h++)
		if (rd->hosts.h[h].bad[0])
			fprintf(stderr, "brisk report: %s: not taken; host %s is judged by what most "
				"of its files claim\n", text_show(rd->hosts.h[h].bad),
				text_show(rd->hosts.h[h].name));
	size_t before = rd->nskip;
	while (rd->capskip < rd->nskip + rd->nres + 1)
		if (grow((void **)&rd->skip, &rd->capskip, rd->capskip, sizeof(*rd->skip)) < 0) {
			fprintf(stderr, "brisk report: out of memory\n");
			return EXIT_FAILED;
		}
	fleet_identify(rd->res, &rd->nres, &rd->hosts, rd->skip, &rd->nskip);
	for (size_t i = before; i < rd->nskip; i++)
		fprintf(stderr, "brisk report: %s: %s\n", text_show(rd->skip[i].path),
			text_show(rd->skip[i].why));
	return 0;
}

/* The report: text (unless an output goes to stdout), the output files,
 * --save-profile.  0, or 1 when one of them failed (said). */
static int rep_outputs(const struct rep_args *a, const struct fleet_report *rep)
{
	char err[512];
	unsigned end = 0;
	const struct cliopt_args *o = &a->com;
	if (!cliopt_to_stdout(o))
		fleet_text(stdout, rep);
	if (o->json)
		end |= cliopt_written(CMD, "--json", fleet_json(rep, o->json, err, sizeof(err)), err);
	if (o->csv)
		end |= cliopt_written(CMD, "--csv", fleet_csv(rep, o->csv, err, sizeof(err)), err);
	if (o->openmetrics)
		end |= cliopt_written(CMD, "--openmetrics",
				      openmetrics_fleet(rep, o->openmetrics, err, sizeof(err)), err);
	if (o->plot)
		end |= cliopt_written(CMD, "--plot", fleet_plot(rep, o->plot, err, sizeof(err)), err);
	if (a->save) {
		char path[PATH_MAX], note[4096];
		int src = fleet_save_profile(rep, a->save, o->force, path, sizeof(path), note,
					     sizeof(note), err, sizeof(err));
		if (src == -ENODATA) {   /* no winner: a result, not a failure */
			fprintf(stderr, "brisk report: --save-profile: %s; nothing saved\n", err);
		} else if (src < 0) {
			fprintf(stderr, "brisk report: --save-profile %s\n", err);
			end |= CLIOPT_END_FAILED;
		} else {
			fprintf(stderr, "brisk report: saved the winners as profile %s (%s); brisk "
				"export %s --format udev makes them a default\n", a->save,
				text_show(path), a->save);
		}
		if (note[0])
			fprintf(stderr, "brisk report: --save-profile: %s\n", text_show(note));
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "brisk report: cannot write the report to standard output\n");
		end |= CLIOPT_END_FAILED;
	}
	return end ? EXIT_FAILED : 0;
}

int cmd_report_main(int argc, char **argv)
{
	struct rep_args a = { 0 };
	int rc = parse(argc, argv, &a);
	if (rc)
		return rc == OPTAB_DONE ? 0 : rc;
	struct reading rd = { .trust = a.opt.trust_files };
	int status = read_all(argc - optind, argv + optind, &rd);
	struct fleet_result *res = rd.res;
	struct fleet_skip *skip = rd.skip;
	size_t nres = rd.nres, nskip = rd.nskip;
	if (status == 0 && !nres) {
		fprintf(stderr, "brisk report: none of the %zu file%s could be reported on: nothing "
			"to report\n", nskip, nskip == 1 ? "" : "s");
		status = EXIT_USAGE;
	}
	struct fleet_report rep = { 0 };
	char err[512];
	if (status == 0 && fleet_pool(res, nres, &a.opt, skip, nskip, &rep, err, sizeof(err)) < 0) {
		fprintf(stderr, "brisk report: %s\n", err);
		status = EXIT_FAILED;
	}
	if (status == 0)
		status = rep_outputs(&a, &rep);
	if (status == 0 && nskip) {
		fprintf(stderr, "brisk report: %zu of %zu files skipped (named above); the "
			"report covers the other %zu\n", nskip, nskip + nres, nres);
		status = EXIT_PARTIAL;
	}
	fleet_report_free(&rep);
	for (size_t i = 0; i < nres; i++)
		fleet_result_free(&res[i]);
	free(res);
	free(skip);
	fleet_hosts_free(&rd.hosts);
	return status;
}
