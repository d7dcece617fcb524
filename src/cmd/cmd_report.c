#include "cmd_report.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliopt.h"
#include "fleet.h"
#include "openmetrics.h"
#include "parse.h"
#include "text.h"

static const char CMD[] = "report";

#define EXIT_SKIPPED 3

static void usage(FILE *f)
{
	fprintf(f,
		"usage: brisk report FILE... [options]\n"
		"\n"
		"Bring together the results of many machines: FILEs written by 'brisk run\n"
		"--json' and 'brisk compare --json'.  Group them (default: by disk class),\n"
		"pool each setting and action with the machine as the unit (medians and p90\n"
		"with bootstrap intervals over machines, then their samples), compare every\n"
		"setting with a baseline over the machines that measured both, count the\n"
		"machines that agree, and recommend a setting per group.  A file that cannot\n"
		"be read (corrupt, truncated, a newer format) is named and skipped.\n"
		"\n"
		"      --by KEY           group by class (default), model, model,firmware,\n"
		"                         machine or kernel\n"
		"      --baseline ARM     compare against ARM (a scheduler such as mq-deadline,\n"
		"                         or settings as 'scheduler=bfq low_latency=0');\n"
		"                         default: the setting most machines measured first\n"
		"      --seed N           seed of the bootstrap (default %d: the same files\n"
		"                         give the same figures)\n"
		"  -j, --json FILE        the report as JSON ('-' = stdout, then no text)\n"
		"      --csv FILE         one row per group, phase, action and setting ('-' =\n"
		"                         stdout)\n"
		"      --plot FILE        a picture: FILE.svg or FILE.png, one panel per group\n"
		"      --openmetrics FILE the key figures in the OpenMetrics text format, for\n"
		"                         node_exporter's textfile collector ('-' = stdout)\n"
		"      --save-profile NAME  the winner of each class as profile NAME, ready for\n"
		"                         'brisk export NAME --format udev' (with --by class)\n"
		"      --force            --save-profile replaces an existing profile NAME\n"
		"  -h, --help             this text\n"
		"\n"
		"Exit status: 0 every file read, 3 a report was made but some files were\n"
		"skipped, 1 an output could not be written, 2 bad usage or no file could be\n"
		"read.  See brisk-report(1).\n", FLEET_DEFAULT_SEED);
}

enum { OPT_BY = 256, OPT_BASELINE, OPT_SEED, OPT_CSV, OPT_PLOT, OPT_SAVE, OPT_FORCE,
       OPT_OPENMETRICS };

static const struct option longopts[] = {
	{ "by", required_argument, NULL, OPT_BY },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "json", required_argument, NULL, 'j' },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "openmetrics", required_argument, NULL, OPT_OPENMETRICS },
	{ "save-profile", required_argument, NULL, OPT_SAVE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct rep_args {
	struct fleet_options opt;
	const char *json, *csv, *plot, *save, *openmetrics;
	int force;
};

static int parse(int argc, char **argv, struct rep_args *a)
{
	a->opt.by = FLEET_BY_CLASS;
	a->opt.seed = FLEET_DEFAULT_SEED;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":j:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_BY:
			if (fleet_by_parse(optarg, &a->opt.by) < 0)
				return cliopt_bad(CMD, "--by", optarg,
						  "class, model, model,firmware, machine or kernel");
			break;
		case OPT_BASELINE:
			if (!optarg[0] || text_check(optarg, NULL) < 0)
				return cliopt_bad(CMD, "--baseline", optarg, "a setting's name");
			a->opt.baseline = optarg;
			break;
		case OPT_SEED: {
			int64_t n;
			if (parse_int(optarg, 0, INT64_MAX, &n) < 0)
				return cliopt_bad(CMD, "--seed", optarg, "expected a whole number");
			a->opt.seed = (uint64_t)n;
			break;
		}
		case 'j':
			a->json = optarg;
			break;
		case OPT_CSV:
			a->csv = optarg;
			break;
		case OPT_PLOT:
			a->plot = optarg;
			break;
		case OPT_OPENMETRICS:
			a->openmetrics = optarg;
			break;
		case OPT_SAVE:
			a->save = optarg;
			break;
		case OPT_FORCE:
			a->force = 1;
			break;
		case 'h':
			usage(stdout);
			return CLIOPT_HELP;
		default:
			return cliopt_getopt_error(CMD, c, argv, longopts);
		}
	}
	if (optind >= argc)
		return cliopt_usage_error(CMD, "no FILE given (results of brisk run --json or "
					  "brisk compare --json)");
	if (a->save && a->opt.by != FLEET_BY_CLASS)
		return cliopt_usage_error(CMD, "--save-profile needs --by class: a profile holds "
					  "settings per disk class");
	if (a->force && !a->save)
		return cliopt_usage_error(CMD, "--force goes with --save-profile");
	const struct cliopt_output out[] = {
		{ "--json", a->json, 1 }, { "--csv", a->csv, 1 },
		{ "--openmetrics", a->openmetrics, 1 }, { "--plot", a->plot, 0 },
	};
	return cliopt_outputs(CMD, out, sizeof(out) / sizeof(out[0]));
}

/* Read every FILE: the results, and the skipped ones named on stderr. */
static int read_all(int n, char **files, struct fleet_result **res, size_t *nres,
		    struct fleet_skip **skip, size_t *nskip)
{
	*res = calloc((size_t)n, sizeof(**res));
	*skip = calloc((size_t)n, sizeof(**skip));
	*nres = *nskip = 0;
	if (!*res || !*skip) {
		fprintf(stderr, "brisk report: out of memory\n");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char why[256];
		struct fleet_result *r = &(*res)[*nres];
		int rc = fleet_read(files[i], r, why, sizeof(why));
		if (rc == -ENOMEM) {
			fleet_result_free(r);
			fprintf(stderr, "brisk report: %s: out of memory\n", text_show(files[i]));
			return 1;
		}
		if (rc < 0) {
			fleet_result_free(r);
			struct fleet_skip *s = &(*skip)[(*nskip)++];
			snprintf(s->path, sizeof(s->path), "%s", files[i]);
			if (rc == -EPROTONOSUPPORT)
				snprintf(s->why, sizeof(s->why), "%s: skipped; upgrade brisk", why);
			else
				snprintf(s->why, sizeof(s->why), "%s: skipped", why);
			fprintf(stderr, "brisk report: %s: %s\n", text_show(s->path), text_show(s->why));
			continue;
		}
		if (!r->version_given)
			fprintf(stderr, "brisk report: %s: no format_version: read as version 1 (it has "
				"the fields of a brisk %s result)\n", text_show(files[i]),
				r->kind == FLEET_RUN ? "run" : "compare");
		(*nres)++;
	}
	return 0;
}

int cmd_report_main(int argc, char **argv)
{
	struct rep_args a = { 0 };
	int rc = parse(argc, argv, &a);
	if (rc)
		return rc == CLIOPT_HELP ? 0 : rc;
	struct fleet_result *res = NULL;
	struct fleet_skip *skip = NULL;
	size_t nres = 0, nskip = 0;
	int status = read_all(argc - optind, argv + optind, &res, &nres, &skip, &nskip);
	if (status == 0 && !nres) {
		fprintf(stderr, "brisk report: none of the %zu file%s could be read: nothing to "
			"report\n", nskip, nskip == 1 ? "" : "s");
		status = 2;
	}
	struct fleet_report rep = { 0 };
	char err[512];
	if (status == 0 && fleet_pool(res, nres, &a.opt, skip, nskip, &rep, err, sizeof(err)) < 0) {
		fprintf(stderr, "brisk report: %s\n", err);
		status = 1;
	}
	if (status == 0) {
		int to_stdout = (a.json && !strcmp(a.json, "-")) || (a.csv && !strcmp(a.csv, "-")) ||
				(a.openmetrics && !strcmp(a.openmetrics, "-"));
		if (!to_stdout)
			fleet_text(stdout, &rep);
		if (a.json && fleet_json(&rep, a.json, err, sizeof(err)) < 0) {
			fprintf(stderr, "brisk report: --json %s\n", err);
			status = 1;
		}
		if (a.csv && fleet_csv(&rep, a.csv, err, sizeof(err)) < 0) {
			fprintf(stderr, "brisk report: --csv %s\n", err);
			status = 1;
		}
		if (a.openmetrics && openmetrics_fleet(&rep, a.openmetrics, err, sizeof(err)) < 0) {
			fprintf(stderr, "brisk report: --openmetrics %s\n", err);
			status = 1;
		}
		if (a.plot && fleet_plot(&rep, a.plot, err, sizeof(err)) < 0) {
			fprintf(stderr, "brisk report: --plot %s\n", err);
			status = 1;
		}
		if (a.save) {
			char path[PATH_MAX], note[1024];
			if (fleet_save_profile(&rep, a.save, a.force, path, sizeof(path), note,
					       sizeof(note), err, sizeof(err)) < 0) {
				fprintf(stderr, "brisk report: --save-profile %s\n", err);
				status = 1;
			} else {
				fprintf(stderr, "brisk report: saved the winners as profile %s (%s); brisk "
					"export %s --format udev makes them a default\n", a.save,
					text_show(path), a.save);
			}
			if (note[0])
				fprintf(stderr, "brisk report: --save-profile: %s\n", text_show(note));
		}
		if (fflush(stdout) != 0) {
			fprintf(stderr, "brisk report: cannot write the report to standard output\n");
			status = 1;
		}
		if (status == 0 && nskip) {
			fprintf(stderr, "brisk report: %zu of %zu files skipped (named above); the "
				"report covers the other %zu\n", nskip, nskip + nres, nres);
			status = EXIT_SKIPPED;
		}
	}
	fleet_report_free(&rep);
	for (size_t i = 0; i < nres; i++)
		fleet_result_free(&res[i]);
	free(res);
	free(skip);
	return status;
}
