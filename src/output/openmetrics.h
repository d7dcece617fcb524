/* openmetrics — the key figures of a run, a comparison and a fleet report
 * in the OpenMetrics text format (OpenMetrics 1.0), for Prometheus through
 * node_exporter's textfile collector: `--openmetrics FILE` of brisk run,
 * brisk compare and brisk report.
 *
 * Files (one module, one header, every function openmetrics_*):
 *   openmetrics.c          the writer: names, units, escaping, # EOF
 *   openmetrics_run.c      brisk run's figures (a finished session)
 *   openmetrics_compare.c  brisk compare's (a compare_result)
 *   openmetrics_fleet.c    brisk report's (a pooled fleet_report)
 *
 * The format: one file both readers take.  node_exporter's textfile
 * collector parses *.prom files with the Prometheus text parser (expfmt
 * TextParser), which knows the keywords HELP and TYPE and reads any other
 * "# ..." line as a comment: "# UNIT" and "# EOF" pass there, while an
 * OpenMetrics parser needs them.  So the output is OpenMetrics text within
 * what the Prometheus text format also means:
 *  - every family is a gauge (a result file is a snapshot, replaced by the
 *    next run: no counters, whose _total and monotony would lie; no
 *    summary, whose _count/_sum are counters and whose "quantile" label
 *    promtool refuses on a gauge; no info/stateset, which the Prometheus
 *    parser refuses as an unknown type).  A quantile is a label "stat"
 *    ("p50", "p90", "p99"), an interval a label "bound" ("estimate",
 *    "lower", "upper"), a verdict or grade one sample per state (0/1);
 *  - no timestamps (the textfile collector refuses a file that has any):
 *    each command writes brisk_<command>_timestamp_seconds instead;
 *  - each family one block: "# TYPE", then "# UNIT" when it has a unit
 *    (the name then ends in "_" UNIT), then "# HELP", then its samples;
 *    the file ends in "# EOF\n"; no blank line.
 *
 * Contract (the writer):
 *  - openmetrics_init(om, f): writes to f.  Errors are sticky: the first
 *    one is kept in om->err and returned by every later call and by
 *    openmetrics_finish(); a caller writes everything, then checks once.
 *  - openmetrics_family(om, name, unit, help): starts the gauge family
 *    name.  -EINVAL when name is not a metric name ([a-zA-Z_][a-zA-Z0-9_]*,
 *    shorter than OPENMETRICS_NAME_MAX: no colons, which are for recording
 *    rules), ends in a suffix OpenMetrics or promtool keep for other types
 *    (_total, _created, _count, _sum, _bucket, _gcount, _gsum), was given
 *    before (a family is one block), or more than OPENMETRICS_MAX_FAMILIES
 *    were; when unit (NULL: none) is not [a-z0-9_]+ or name does not end
 *    in "_" unit; when help is empty, or holds a backslash, a double quote
 *    or anything text_check() refuses (help is compiled-in text: it is
 *    written as is, so it reads the same in both formats).  unit and help
 *    must stay valid until the next openmetrics_family() or
 *    openmetrics_finish(): the family's "#" lines are written before its
 *    first sample, so a family without samples is not written at all.
 *  - openmetrics_sample(om, labels, n, v): one sample of the current
 *    family.  A value that does not exist (NaN) writes nothing (0): a
 *    figure brisk does not have is left out, never made up.  +-Inf are
 *    "+Inf"/"-Inf"; whole numbers below 2^53 are written as integers, any
 *    other value with 15 significant digits (%.15g: what the figures
 *    hold, without the noise of a last binary digit).
 *    Labels are written in the order given; a NULL value is "" (a family
 *    keeps one set of label names: node_exporter fills missing ones with
 *    "" anyway, and Prometheus reads "" as absent).  -EINVAL before any
 *    family, after openmetrics_finish(), with more than
 *    OPENMETRICS_MAX_LABELS labels, a label name that is not
 *    [a-zA-Z_][a-zA-Z0-9_]*, starts with "__" (reserved), is "quantile" or
 *    "le" (reserved for summaries and histograms), or comes twice.
 *  - Label values are untrusted (device models, directory names, other
 *    machines' files) and escaped per the spec: backslash as \\, double
 *    quote as \", line feed as \n.  Every other character of valid UTF-8
 *    text is copied (TAB too); what text.h refuses — the other C0
 *    controls, DEL, C1 controls, and every byte of invalid UTF-8 (the
 *    format must be UTF-8) — becomes the four characters \xHH as the value
 *    reads (written \\xHH), as brisk shows such bytes everywhere else.  So
 *    the file is valid UTF-8 without a control byte but LF, and a clean
 *    value reads back exactly; \xHH in a value read back may also have
 *    been those four characters (the JSON output has the bytes).
 *  - openmetrics_escape(f, s): that escaping of s (NULL: "") to f.
 *  - openmetrics_finish(om): writes "# EOF\n" once; returns om->err, or
 *    -EIO when f has an error.
 *
 * Contract (the three outputs): openmetrics_run/_compare/_fleet write to
 * path through outfile ("-" is stdout; else a temporary file beside path,
 * fsync'ed, renamed over it: a reader never sees half a file, and the
 * temporary name does not end in .prom, so the collector skips it; only a
 * regular file at path is replaced: a symbolic link there is neither
 * followed nor removed, a device node, FIFO or directory is left alone).  0, or -errno with a message naming path in err.
 * Which figures, with which labels, is each file's table (and
 * brisk-run(1), brisk-compare(1), brisk-report(1) OPENMETRICS).  Every
 * family carries the same label names in every file that has it
 * (node_exporter serves all *.prom files of a directory as one set):
 * brisk_info {command, dir, by, version, kernel, hostname} and
 * brisk_disk_info {command, dir, device, model, firmware, class,
 * transport, scheduler} are shared; the rest is brisk_run_*, brisk_action_*,
 * brisk_load_*, brisk_system_* (run), brisk_compare_* (compare) and
 * brisk_report_*, brisk_fleet_* (report).  Two files of one collector
 * directory must differ in command, dir or (report) by, or their series
 * collide.
 */
#ifndef BRISK_OPENMETRICS_H
#define BRISK_OPENMETRICS_H

#include <stddef.h>
#include <stdio.h>

#define OPENMETRICS_NAME_MAX 96
#define OPENMETRICS_MAX_FAMILIES 96
#define OPENMETRICS_MAX_LABELS 16

struct openmetrics_label {
	const char *name;
	const char *value;         /* NULL: "" */
};

struct openmetrics {
	FILE *f;
	int err;                   /* the first error (sticky), 0 none */
	int ended;                 /* # EOF written */
	int in_family;
	int headed;                /* its # lines are written */
	const char *unit, *help;   /* the caller's, until the next family */
	size_t n_families;
	char families[OPENMETRICS_MAX_FAMILIES][OPENMETRICS_NAME_MAX];
};

void openmetrics_init(struct openmetrics *om, FILE *f);
int openmetrics_family(struct openmetrics *om, const char *name, const char *unit,
		       const char *help);
int openmetrics_sample(struct openmetrics *om, const struct openmetrics_label *labels, size_t n,
		       double v);
int openmetrics_finish(struct openmetrics *om);
void openmetrics_escape(FILE *f, const char *s);
/* 1 when s is a metric name / a label name the writer takes (see above). */
int openmetrics_name_ok(const char *s);
int openmetrics_label_name_ok(const char *s);

/* ---- the outputs ---- */

struct session;
struct compare_result;
struct fleet_report;

int openmetrics_run(const struct session *s, const char *path, char *err, size_t errlen);
int openmetrics_compare(const struct compare_result *r, const char *path, char *err,
			size_t errlen);
int openmetrics_fleet(const struct fleet_report *rep, const char *path, char *err,
		      size_t errlen);

#endif
