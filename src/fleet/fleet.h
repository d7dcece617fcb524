/* fleet — results of many machines brought together: `brisk report`
 * reads `brisk run --json` and `brisk compare --json` files, groups them
 * (by disk class, model, firmware, machine or kernel), pools them with
 * the machine as the unit, and recommends a setting per group.  It also
 * writes the "machine" object both result files carry, so that a file
 * says where it was measured.
 *
 * Files (one module, one header, every function fleet_*):
 *   fleet_machine.c  the machine object of a result (hostname, kernel,
 *                    an app-specific hash of /etc/machine-id, the disks
 *                    behind the directory), for report.c / compare_report.c
 *   fleet_read.c     one result file, read as untrusted input
 *   fleet_host.c     whose a result is: its host folder, checked
 *   fleet_pool.c     groups, statistics, ranking, recommendations
 *   fleet_out.c      text, JSON and CSV of a pooled report
 *   fleet_plot.c     the picture (cairo: SVG or PNG)
 *   fleet_profile.c  --save-profile: the per-class winners as a profile
 *   fleet_priv.h     what these files share and nothing else includes
 *
 * Contract:
 *  - Reading (fleet_read / fleet_parse): every file is untrusted (it comes
 *    from another machine).  At most FLEET_MAX_FILE_BYTES bytes, a regular
 *    file, one JSON object and nothing after it, JSON as RFC 8259 has it:
 *    a linear pass over the bytes before json-c refuses (-EINVAL, "not
 *    JSON: ... at byte N") what json-c 0.16 strict still takes (single
 *    quotes, raw control bytes U+0000..U+001F in strings, NaN, Infinity,
 *    "1.", half a surrogate pair) and the rest RFC 8259 refuses (leading
 *    zeros, '+', trailing commas, comments, invalid UTF-8, other escapes),
 *    nesting deeper than 64, a key holding \u0000, and a key twice in one
 *    object (compared as decoded: readers differ on which one counts).  A result says what it is
 *    with "kind" ("run" or "compare") and "format_version" (an integer,
 *    the major version of the format; compatible additions keep it).  A
 *    version above FLEET_FORMAT_VERSION is refused (-EPROTONOSUPPORT:
 *    "format_version 7 is newer than this brisk reads (1)").  A file
 *    without the field is read as version 1 only when it has the shape of
 *    a brisk result of that version: a run (a "brisk" version string, a
 *    "config" object, "epochs" and "samples" arrays) or a compare ("kind"
 *    "compare" or a "brisk_version" string, with "arms" and "samples"
 *    arrays); anything else is -EINVAL, "not a brisk run or compare
 *    result".  A field of the wrong type, a number that is not finite or
 *    not in its range (a sample's ms in (0, FLEET_MAX_MS], an arm index
 *    below the arms' count, at most FLEET_MAX_SAMPLES samples, at most
 *    FLEET_MAX_ARMS arms), a string holding a NUL byte, an arm setting
 *    that is not KEY=VALUE of a key brisk knows with a value of its form
 *    (profile_setting_check: what may become an arm may reach a profile),
 *    or a disk's scheduler that is not a plain word is -EINVAL
 *    naming the field ("samples[12].ms: -5 is out of range").  A file cut
 *    short is -EINVAL "truncated".  err gets the reason without the path
 *    (the caller names the file).  Strings are kept as read (cut at
 *    FLEET_STR bytes at a whole UTF-8 character) and escaped on every
 *    output (text_escape); JSON escapes by construction.
 *  - What a sample of a result contributes: cold samples without an error
 *    (a timed-out one counts at its watchdog limit, as brisk counts it);
 *    warm and failed samples are counted apart.  A run contributes its
 *    loaded samples and, as a separate phase, its idle ones, both of
 *    epoch 0 (later epochs are --at changes: counted apart); a comparison
 *    contributes every arm's samples (loaded).  What one file adds is
 *    bounded: of each phase, action and arm, at most FLEET_MAX_CELL
 *    samples, chosen evenly by rank (rank round(k (n - 1) / (K - 1)), so
 *    the smallest and the largest too); r->cut counts the others and
 *    r->cut_largest is the largest such cell (the caller notes them).
 *    A file of more than FLEET_MAX_CELL samples has them sorted by phase,
 *    action, arm and ms.
 *  - Arms: a comparison's arm is its settings ("scheduler=bfq
 *    low_latency=0"); its "current" arm is the scheduler its machine's
 *    disks had ("scheduler=mq-deadline", read when the comparison ended,
 *    after every setting was put back), or "current" when the file does
 *    not say.  A run's one arm is the scheduler its disks had when it
 *    began measuring (machine.disks[].scheduler).  The same settings are
 *    one arm across machines and files.  An arm's label is the scheduler
 *    alone when that is all it sets, else its settings, cut at 63 bytes
 *    ending in "..."; where an arm is recommended or saved, all of its
 *    settings are given (fleet_arm_text), and the outputs that cut it
 *    list it whole.
 *  - Machine (fleet_identify; by default): the host folder a result lay
 *    in, results/HOST/NAME.json as the playbook lays them out (the name of
 *    the folder is the host; folders of one name are one host).  A host's
 *    machine id is the one the controller recorded in HOST/machine-id (32
 *    hex digits and a newline, a regular file), else the one a strict
 *    majority of its files claim (machine.machine_id; no id is a claim
 *    too).  A file claiming another is left out; a host without such a
 *    majority has every file left out; one machine id under two hosts
 *    (cloned /etc/machine-id) has the files of that id left out under
 *    both.  Left out = moved to the skipped files, each with why and what
 *    to do.  With opt.trust_files (--trust-file-identity) the file says:
 *    machine.machine_id when given, else machine.hostname, else the file
 *    itself (a result without a machine object is its own machine): any
 *    file can claim any machine.  Results of one machine are
 *    pooled: the machine is the unit, also when they measured different
 *    disks of one group (multi_disk names such machines: their own ratio
 *    then compares disks as well as settings).
 *  - Groups (enum fleet_by): class (rotational, ssd, nvme, mmc, usb; a
 *    result whose disks differ is "mixed", one without disks "unknown"),
 *    model, model and firmware, machine, kernel.
 *  - Statistics per group, phase, action and arm (fleet_pool): machines,
 *    samples; the pooled median and p90 of every sample, each with a
 *    two-stage bootstrap interval at FLEET_LEVEL (machines drawn with
 *    replacement, then each drawn machine's samples: stats_bootstrap_ci_
 *    grouped with the machine as the cluster); every time taken as at
 *    least FLEET_MIN_MS.  Against the baseline, over the machines that
 *    measured both (paired): the median of each machine's own ratio of
 *    medians (and of p90s), each bounded to [1/FLEET_MAX_RATIO,
 *    FLEET_MAX_RATIO], with a paired two-stage bootstrap interval of that
 *    median (stats_bootstrap_median_ratio_paired) whose level is
 *    simultaneous over the group's comparisons (Bonferroni: 1 - (1 -
 *    FLEET_LEVEL) / m for m comparisons with at least FLEET_MIN_MACHINES
 *    paired machines), how many paired machines agree (their own ratio is
 *    on the same side of 1 as the pooled one) and which do not.  A verdict
 *    needs FLEET_MIN_MACHINES paired machines: faster when the interval
 *    lies below 1 and a strict majority of them have their own ratio below
 *    1, slower mirrored; no minority steers or vetoes it.
 *    Every interval is seeded from opt.seed: the same files and seed give
 *    the same figures, whatever the order of the files.
 *  - Baseline: opt.baseline (an arm's label or settings), else the arm
 *    most machines of the group measured first (a comparison's arm 0, a
 *    run's one arm); a tie goes to the first in label order.
 *  - Load: per machine, the mean load MiB/s of an arm's results; per arm,
 *    the median over paired machines of arm / baseline, each bounded as
 *    above, with the order-statistic interval (stats_median_ci_order).  Ranking and recommendation follow brisk
 *    compare's rule pooled: arms ranked by the geometric mean of their p90
 *    ratios over the loaded actions (baseline 1) among the arms that keep
 *    at least 50 % of the best arm's load ratio (others rank after, as
 *    starving the load); the first is recommended when it is faster on at
 *    least one loaded action and slower on none, and its load cost is
 *    named when it keeps less than 95 % of the baseline's, and a value
 *    outside the range a default may carry (tunable_fleet_range: the arm's
 *    outside) is named.  Idle rows are shown, never recommended from.  One machine is "not a fleet": no
 *    recommendation.
 *  - fleet_pool/fleet_text/... never print to stderr; messages go to err.
 */
#ifndef BRISK_FLEET_H
#define BRISK_FLEET_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"
#include "machine.h"

#define FLEET_FORMAT_VERSION 1          /* the result format this brisk reads */
#define FLEET_MAX_FILE_BYTES (16u << 20)
#define FLEET_MAX_SAMPLES   1000000u    /* per file */
#define FLEET_MAX_CELL      500u        /* pooled per file, phase, action and
					 * arm: chosen evenly by rank */
#define FLEET_MAX_ARMS      8           /* per file (COMPARE_MAX_ARMS) */
#define FLEET_MAX_DISKS     MACHINE_MAX_DISKS /* per machine object */
#define FLEET_MAX_MS        86400000.0  /* a sample: at most a day */
#define FLEET_MAX_MIBPS     1e7
#define FLEET_MIN_MS        0.001       /* a time pools as at least the clock's
					 * resolution brisk records (1 us) */
#define FLEET_MAX_RATIO     1000.0      /* a machine's own ratio: within
					 * [1/this, this] */
#define FLEET_HOST_LEN      256         /* a host folder's name (NAME_MAX + 1) */
#define FLEET_STR           128         /* untrusted strings kept */
#define FLEET_KEY_LEN       288
#define FLEET_MIN_MACHINES  3           /* paired machines for a verdict */
#define FLEET_LEVEL         0.95
#define FLEET_BOOT_ITERS    2000        /* at least; more for a narrow tail */
#define FLEET_DEFAULT_SEED  1
#define FLEET_LOAD_TOLERANCE 0.50       /* compare's: of the best arm's load */
#define FLEET_LOAD_COST      0.95       /* a cost worth naming, of the baseline's */

enum fleet_kind { FLEET_RUN, FLEET_COMPARE };
enum fleet_phase { FLEET_LOADED, FLEET_IDLE, FLEET_PHASES };
enum fleet_by { FLEET_BY_CLASS, FLEET_BY_MODEL, FLEET_BY_MODEL_FW, FLEET_BY_MACHINE,
		FLEET_BY_KERNEL };

struct fleet_disk {
	char name[32];
	char cls[16];              /* rotational ssd nvme mmc usb, "" unknown */
	char model[FLEET_STR];
	char firmware[64];
	char transport[16];
	char scheduler[32];        /* as measured; "" none or unknown */
	int rotational;            /* 0/1, -1 unknown */
};

struct fleet_machine {
	int known;                 /* the file had a machine object */
	char hostname[FLEET_STR];
	char kernel[FLEET_STR];
	char machine_id[40];       /* 32 hex digits, "" unknown */
	size_t n_disks;
	struct fleet_disk disks[FLEET_MAX_DISKS];
};

struct fleet_sample {
	double ms;
	uint16_t arm;              /* index into the result's arms */
	uint8_t action;            /* enum action_kind */
	uint8_t phase;             /* enum fleet_phase */
};

struct fleet_arm {
	char key[FLEET_KEY_LEN];   /* "scheduler=bfq low_latency=0" */
	char label[64];            /* "bfq" */
	double load_mibps;         /* all loads: what reached the disk when the file
				    * says (load_by_disk), else their own rate; NaN:
				    * none measured */
};

struct fleet_result {
	char path[PATH_MAX];       /* as named */
	enum fleet_kind kind;
	int version_given;         /* format_version was in the file */
	struct fleet_machine m;
	size_t n_arms;
	struct fleet_arm arms[FLEET_MAX_ARMS];
	struct fleet_sample *samples;
	size_t n_samples;
	unsigned warm, failed, other_epochs;   /* samples left out */
	size_t cut;                /* samples left out by FLEET_MAX_CELL */
	size_t cut_largest;        /* the most samples one such cell held */
	char workload[256];
	int load_by_disk;          /* the arms' load_mibps are what reached the disk
				    * (a brisk that measured it), else the loads'
				    * own rate (an older file) */
	int set_by_profile;        /* a run whose settings a profile put in
				    * place (profile_settings): not what its
				    * machine runs with */
	/* identity by host folder (fleet_identify); "" when the file itself
	 * says whose it is (--trust-file-identity) */
	char host[FLEET_HOST_LEN]; /* the folder it lay in: the machine */
	char host_id[40];          /* that host's machine id ("" none known) */
	size_t folder;             /* the caller's: index into fleet_hosts */
};

/* Read one file / parse a buffer (display names it, may be NULL) into out
 * (free with fleet_result_free, also after an error).  0, or -errno with
 * the reason in err (without the path): -EINVAL not a (valid) result,
 * -EPROTONOSUPPORT a newer major version, -EFBIG too large, -ENOMEM, or
 * the errno of open/read. */
int fleet_read(const char *path, struct fleet_result *out, char *err, size_t errlen);
/* The same for name in the folder open at dirfd, opened O_NOFOLLOW (a
 * link is -ELOOP "a symbolic link: not followed"); display names it. */
int fleet_readat(int dirfd, const char *name, const char *display, struct fleet_result *out,
		 char *err, size_t errlen);
int fleet_parse(const char *data, size_t len, const char *display, struct fleet_result *out,
		char *err, size_t errlen);
void fleet_result_free(struct fleet_result *r);

/* ---- identity by host folder (fleet_host.c) ---- */

/* A file not reported on, and why (an unreadable file, one left out by
 * fleet_identify). */
struct fleet_skip {
	char path[PATH_MAX];
	char why[640];
};

struct fleet_host {
	char name[FLEET_HOST_LEN];  /* the folder's name: the host */
	char recorded[40];          /* HOST/machine-id, the controller's record:
				     * 32 hex digits; "" none (or not taken) */
	char bad[256];              /* why a HOST/machine-id was not taken */
	int n_records;              /* folders of this name with a record */
};

struct fleet_hosts {
	struct fleet_host *h;
	size_t n;
};

/* The host folder open at dirfd (not closed), named name: *idx is its
 * index in hs (a host of that name is one host, however many folders of
 * that name are read), and its machine-id file is read (openat,
 * O_NOFOLLOW: a regular file of 32 lower-case hex digits and a newline;
 * anything else there is said in bad and not taken; two folders of the
 * host that record different ids: neither taken).  0 or -ENOMEM. */
int fleet_hosts_add(struct fleet_hosts *hs, int dirfd, const char *name, size_t *idx);
/* The host folder of the result file path: the folder it lies in (the
 * last component of its real path), as fleet_hosts_add.  0 or -errno
 * with err. */
int fleet_hosts_add_file(struct fleet_hosts *hs, const char *path, size_t *idx, char *err,
			 size_t errlen);
void fleet_hosts_free(struct fleet_hosts *hs);

/* brisk report DIR: DIR laid out as DIR/HOST/NAME.json.  Walks exactly one
 * level of HOST folders (opened O_NOFOLLOW|O_DIRECTORY from DIR's
 * descriptor: a link is not followed), in name order; every regular
 * NAME.json of a host (a link is not followed) goes to found, with the
 * host's descriptor and index in hs; a link or another kind of file named
 * *.json, or a link in place of a HOST folder, goes to skipped with why.
 * Files directly in DIR (the playbook's report.json) are not results and
 * are not read; nor is anything of a host but its *.json and machine-id.
 * 0, or -errno with err (DIR cannot be opened or read), or what found or
 * skipped returned (<0 stops the walk). */
typedef int (*fleet_found_fn)(void *ctx, int hostfd, size_t host, const char *name,
			      const char *display);
typedef int (*fleet_skipped_fn)(void *ctx, const char *display, const char *why);
int fleet_dir_walk(const char *dir, struct fleet_hosts *hs, fleet_found_fn found,
		   fleet_skipped_fn skipped, void *ctx, char *err, size_t errlen);

/* Identity by host folder (see Machine above) over r[0..*n), each with
 * r[i].folder an index into hs: keeps in r, in their order, the results
 * whose machine is certain (host and host_id set), frees the others and
 * appends each to skip[*n_skip] (room for *n more) with why and what to
 * do.  Pure but for the freeing. */
void fleet_identify(struct fleet_result *r, size_t *n, const struct fleet_hosts *hs,
		    struct fleet_skip *skip, size_t *n_skip);

/* ---- pooling ---- */

struct fleet_options {
	enum fleet_by by;
	const char *baseline;      /* NULL: per group, see above */
	uint64_t seed;
	int trust_files;           /* the machine as each file claims it (no
				    * fleet_identify): said in the outputs */
};

struct fleet_ci {
	double est, lo, hi;        /* NaN when not defined */
};

struct fleet_row {
	enum fleet_phase phase;
	unsigned action;           /* enum action_kind */
	size_t arm;                /* index into the group's arms */
	size_t machines, samples;
	struct fleet_ci p50, p90;
	struct fleet_ci ratio50, ratio90;   /* arm / baseline; NaN for the baseline */
	size_t paired, agree;      /* machines with both; of them, on its side of 1 */
	size_t n_faster, n_slower; /* paired machines whose own ratio is below,
				    * above 1 */
	size_t *disagree;          /* the paired machines not agreeing: indexes
				    * into the group's machines (name order) */
	size_t n_disagree;
	enum stats_verdict verdict;
	int decided;               /* paired >= FLEET_MIN_MACHINES */
};

struct fleet_garm {
	char key[FLEET_KEY_LEN];
	char label[64];
	size_t machines;           /* that measured it */
	size_t first_on;           /* machines whose own setting it is: the one
				    * most of their results measured first */
	struct fleet_ci load;      /* load ratio against the baseline */
	size_t load_paired;
	int load_ok;               /* within the tolerance (or unknown) */
	double score;              /* geometric mean of p90 ratios; NaN */
	char outside[320];         /* its settings outside the range a default
				    * may carry: "slice_idle=2147483647
				    * (0..100)"; "" none */
};

/* Why a group has a recommendation or has none: decided by fleet_pool,
 * put in words by fleet_recommendation_text. */
enum fleet_rec_why {
	FLEET_REC_CHOSEN,          /* arm is recommended (the group's best) */
	FLEET_REC_ONE_MACHINE,     /* one machine: not a fleet */
	FLEET_REC_NOT_LOADED,      /* no sample under load */
	FLEET_REC_NO_BASELINE,     /* the baseline was not measured in the group */
	FLEET_REC_ONE_ARM,         /* only the baseline was measured */
	FLEET_REC_FEW_MACHINES,    /* max_paired < FLEET_MIN_MACHINES */
	FLEET_REC_KEEP,            /* the baseline ranks first */
	FLEET_REC_STARVES,         /* arm ranks first but starves the load */
	FLEET_REC_SLOWER,          /* arm ranks first but is slower on some action */
	FLEET_REC_NOT_FASTER,      /* arm ranks first but is faster on none */
};

struct fleet_rec {
	enum fleet_rec_why why;
	int arm;                   /* the arm ranked first (CHOSEN and the three
				    * after KEEP); -1 */
	int other;                 /* KEEP: the arm named beside the baseline; -1 */
	int other_starves;         /* KEEP: other scores below 1 but starves the
				    * load (else it is the next in the ranking) */
	size_t max_paired;         /* the most paired machines of an arm's row
				    * under load */
	size_t faster, slower;     /* arm's decided rows under load with that
				    * verdict */
};

struct fleet_group {
	char key[FLEET_KEY_LEN];   /* "rotational", a model, a host ... */
	size_t n_machines, n_results, n_run, n_compare;
	char (*machines)[FLEET_STR];   /* display names, in machine order */
	size_t n_arms;
	struct fleet_garm *arms;
	int baseline;              /* index into arms, -1: not measured */
	struct fleet_row *rows;
	size_t n_rows;
	size_t *ranking, n_ranked;
	int best;                  /* recommended arm, -1 none */
	unsigned comparisons;      /* m of the simultaneous level */
	double ratio_level;
	struct fleet_rec rec;      /* the recommendation, in words by
				    * fleet_recommendation_text */
	char workloads[512];       /* when the results' workloads differ */
	char multi_disk[512];      /* machines whose results here are of more
				    * than one disk set: pooled as one machine */
	unsigned warm, failed, other_epochs;
	unsigned load_disk_files, load_calls_files;   /* whose load figures are
						       * which (fleet_result) */
};

struct fleet_report {
	struct fleet_options opt;
	size_t n_results, n_machines;
	size_t n_groups;
	struct fleet_group *groups;
	const struct fleet_skip *skipped;  /* the caller's, for the outputs */
	size_t n_skipped;
};

/* Pool n results into rep (free with fleet_report_free, also after an
 * error).  skipped[0..n_skipped) (may be NULL) is carried for the
 * outputs.  0, -ENOMEM, -EINVAL (n == 0). */
int fleet_pool(const struct fleet_result *r, size_t n, const struct fleet_options *opt,
	       const struct fleet_skip *skipped, size_t n_skipped, struct fleet_report *rep,
	       char *err, size_t errlen);
void fleet_report_free(struct fleet_report *rep);
const char *fleet_by_name(enum fleet_by by);
/* "class", "model", "model,firmware", "machine", "kernel": 0 or -EINVAL. */
int fleet_by_parse(const char *s, enum fleet_by *out);
const char *fleet_phase_name(enum fleet_phase p);

/* ---- outputs (fleet_out.c, fleet_plot.c, fleet_profile.c) ---- */

/* The text report: header (results, machines, skipped files, grouping,
 * seed, how the intervals are made), per group a table (phase, action,
 * arm, machines, samples, p50 [CI], p90 [CI], ratio [CI], agree, verdict),
 * the load line per arm, the ranking and the recommendation; the skipped
 * files last.  Every untrusted string through text_escape(). */
void fleet_text(FILE *f, const struct fleet_report *rep);
/* The recommendation of g in words ("bfq, 7 of 8 machines faster on ...",
 * "no recommendation: ..."), cut to fit n bytes (FLEET_REC_TEXT: whole). */
#define FLEET_REC_TEXT 1280
void fleet_recommendation_text(char *b, size_t n, const struct fleet_group *g);
/* JSON / CSV to path ("-": stdout), written whole or not at all
 * (outfile).  0 or -errno with a message naming path.  CSV: a row per
 * group, phase, action and arm; text cells (group, arm, settings, the
 * disagreeing machines) through csv_text() (quoted, escaped, a formula's
 * first character behind an apostrophe), numbers plain. */
int fleet_json(const struct fleet_report *rep, const char *path, char *err, size_t errlen);
int fleet_csv(const struct fleet_report *rep, const char *path, char *err, size_t errlen);
/* The picture (".svg" or ".png"): one panel per group, a row per action
 * and arm with the median and its interval on a log axis, the ratio and
 * verdict at the right, the recommendation under it, drawn and written
 * by plot (plot.h: the file whole or not at all).  0 or -errno; -E2BIG
 * when the groups do not fit one picture (err says so). */
int fleet_plot(const struct fleet_report *rep, const char *path, char *err, size_t errlen);
/* --save-profile NAME: the recommended arm of each class group (by must
 * be class) as [settings CLASS] of the user profile NAME (where brisk
 * profile save writes; without force only when NAME does not exist,
 * atomically), read back before it is moved into place.  Every class
 * whose winner can be saved is; note gets each left out and why (usb,
 * mixed and unknown groups have no profile class; a group without a
 * recommendation; a winner with a value outside the range a default may
 * carry, unless force; a winner a class section cannot hold, such as a
 * vm.* key).  0 when something was saved; -ENODATA nothing could be (a
 * result, not a failure; note says why per class); -ENOENT no HOME;
 * -EINVAL by is not class or a bad NAME; -EEXIST; -errno.  err says
 * which. */
int fleet_save_profile(const struct fleet_report *rep, const char *name, int force,
		       char *path, size_t pathlen, char *note, size_t notelen, char *err,
		       size_t errlen);

#endif
