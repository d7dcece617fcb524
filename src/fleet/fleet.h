/* fleet — `brisk report`: the results of many machines brought together.
 * Reads `brisk run --json` and `brisk compare --json` files as untrusted
 * input (fleet_read.c, fleet_strict.c), tells whose each is by its host
 * folder (fleet_host.c), groups and pools them with the machine as the
 * unit (fleet_key.c, fleet_pool.c), ranks the settings and decides a
 * recommendation per group (fleet_recommend.c), and writes the report
 * (fleet_out.c, fleet_plot.c, fleet_profile.c, openmetrics_fleet.c).  The
 * rules (what a file may hold, identity, pooling, statistics, ranking)
 * are brisk-report(1)'s.  Nothing here prints to stderr: messages go to
 * err.  fleet_priv.h: what these files share, included by nothing else.
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

/* A disk of a result's machine object, as the file says. */
struct fleet_disk {
	char name[32];
	char cls[16];              /* rotational ssd nvme mmc usb, "" unknown */
	char model[FLEET_STR];
	char firmware[64];
	char transport[16];
	char scheduler[32];        /* as measured; "" none or unknown */
	int rotational;            /* 0/1, -1 unknown */
};

/* The machine object of a result: where the file says it was measured. */
struct fleet_machine {
	int known;                 /* the file had a machine object */
	char hostname[FLEET_STR];
	char kernel[FLEET_STR];
	char machine_id[40];       /* 32 hex digits, "" unknown */
	size_t n_disks;
	struct fleet_disk disks[FLEET_MAX_DISKS];
};

/* A sample that pools: a cold one without an error, of epoch 0. */
struct fleet_sample {
	double ms;
	uint16_t arm;              /* index into the result's arms */
	uint8_t action;            /* enum action_kind */
	uint8_t phase;             /* enum fleet_phase */
};

/* The settings one result measured under. */
struct fleet_arm {
	char key[FLEET_KEY_LEN];   /* "scheduler=bfq low_latency=0" */
	char label[64];            /* "bfq" */
	double load_mibps;         /* all loads: what reached the disk when the file
				    * says (load_by_disk), else their own rate; NaN:
				    * none measured */
};

/* One result file as read: what it is, its machine, arms and samples. */
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

/* Read the result file path into out (free with fleet_result_free, also
 * after an error).  0, or -errno with the reason in err, without the path:
 * -EINVAL not a (valid) result, -EPROTONOSUPPORT a newer major version,
 * -EFBIG too large, -ENOMEM, or the errno of open/read. */
int fleet_read(const char *path, struct fleet_result *out, char *err, size_t errlen);
/* fleet_read of name in the folder open at dirfd, not following a link
 * (-ELOOP); display names it in out. */
int fleet_readat(int dirfd, const char *name, const char *display, struct fleet_result *out,
		 char *err, size_t errlen);
/* fleet_read of the bytes data[0..len); display (may be NULL) names it. */
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

/* A host folder: the machine its results are of. */
struct fleet_host {
	char name[FLEET_HOST_LEN];  /* the folder's name: the host */
	char recorded[40];          /* HOST/machine-id, the controller's record:
				     * 32 hex digits; "" none (or not taken) */
	char bad[256];              /* why a HOST/machine-id was not taken */
	int n_records;              /* folders of this name with a record */
};

/* The host folders read so far. */
struct fleet_hosts {
	struct fleet_host *h;
	size_t n;
};

/* The host folder open at dirfd (not closed), named name, into hs (*idx:
 * its index; folders of one name are one host), with its machine-id file
 * read as brisk-report(1) IDENTITY says.  0 or -ENOMEM. */
int fleet_hosts_add(struct fleet_hosts *hs, int dirfd, const char *name, size_t *idx);
/* fleet_hosts_add for the folder the result file path lies in (by its
 * real path).  0 or -errno with err. */
int fleet_hosts_add_file(struct fleet_hosts *hs, const char *path, size_t *idx, char *err,
			 size_t errlen);
void fleet_hosts_free(struct fleet_hosts *hs);

/* brisk report DIR: each HOST folder of DIR (one level, in name order,
 * links not followed) into hs, each regular HOST/NAME.json to found, a
 * link or other file named *.json to skipped with why.  0, -errno with err
 * (DIR unreadable), or what found or skipped returned (<0 stops). */
typedef int (*fleet_found_fn)(void *ctx, int hostfd, size_t host, const char *name,
			      const char *display);
typedef int (*fleet_skipped_fn)(void *ctx, const char *display, const char *why);
int fleet_dir_walk(const char *dir, struct fleet_hosts *hs, fleet_found_fn found,
		   fleet_skipped_fn skipped, void *ctx, char *err, size_t errlen);

/* Identity by host folder (brisk-report(1) IDENTITY) over r[0..*n), each
 * r[i].folder an index into hs: keeps in r, in order, the results whose
 * machine is certain (host, host_id set); frees the others, appending each
 * to skip[*n_skip] (room for *n more) with why and what to do. */
void fleet_identify(struct fleet_result *r, size_t *n, const struct fleet_hosts *hs,
		    struct fleet_skip *skip, size_t *n_skip);

/* ---- pooling ---- */

/* How to pool: brisk report's options. */
struct fleet_options {
	enum fleet_by by;
	const char *baseline;      /* an arm's label or settings; NULL: per group */
	uint64_t seed;
	int trust_files;           /* the machine as each file claims it (no
				    * fleet_identify): said in the outputs */
};

/* A group's figures of one phase, action and arm. */
struct fleet_row {
	enum fleet_phase phase;
	unsigned action;           /* enum action_kind */
	size_t arm;                /* index into the group's arms */
	size_t machines, samples;
	struct stats_ci p50, p90;
	struct stats_ci ratio50, ratio90;   /* arm / baseline; NaN for the baseline */
	size_t paired, agree;      /* machines with both; of them, on its side of 1 */
	size_t n_faster, n_slower; /* paired machines whose own ratio is below,
				    * above 1 */
	size_t *disagree;          /* the paired machines not agreeing: indexes
				    * into the group's machines (name order) */
	size_t n_disagree;
	enum stats_verdict verdict;
	int decided;               /* paired >= FLEET_MIN_MACHINES */
};

/* A group's arm: the same settings across files and machines. */
struct fleet_garm {
	char key[FLEET_KEY_LEN];
	char label[64];
	size_t machines;           /* that measured it */
	size_t first_on;           /* machines whose own setting it is: the one
				    * most of their results measured first */
	struct stats_ci load;      /* load ratio against the baseline */
	size_t load_paired;
	int load_ok;               /* within the tolerance (or unknown) */
	double score;              /* geometric mean of p90 ratios; NaN */
	char outside[320];         /* its settings outside the range a default
				    * may carry: "slice_idle=2147483647
				    * (0..100)"; "" none */
};

/* Why a group has a recommendation or has none (fleet_pool decides,
 * fleet_recommendation_text says it in words). */
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

/* A group's recommendation as decided: the reason and what it went by. */
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

/* One group of results pooled: machines, arms, rows, ranking, the
 * recommendation. */
struct fleet_group {
	char key[FLEET_KEY_LEN];   /* "rotational", a model, a host ... */
	size_t n_machines, n_results, n_run, n_compare;
	char (*machines)[FLEET_STR];   /* display names, in name order */
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

/* The pooled report: its groups, and the files skipped (the caller's). */
struct fleet_report {
	struct fleet_options opt;
	size_t n_results, n_machines;
	size_t n_groups;
	struct fleet_group *groups;
	const struct fleet_skip *skipped;  /* the caller's, for the outputs */
	size_t n_skipped;
};

/* Group and pool n results into rep, each group ranked and its
 * recommendation decided (free with fleet_report_free, also after an
 * error); skipped[0..n_skipped) (may be NULL) is carried for the outputs.
 * 0, -ENOMEM, -EINVAL (n == 0). */
int fleet_pool(const struct fleet_result *r, size_t n, const struct fleet_options *opt,
	       const struct fleet_skip *skipped, size_t n_skipped, struct fleet_report *rep,
	       char *err, size_t errlen);
void fleet_report_free(struct fleet_report *rep);
/* A grouping's name: "class", "model", "model,firmware", "machine", "kernel". */
const char *fleet_by_name(enum fleet_by by);
/* A grouping by its name (or "firmware,model"): 0 or -EINVAL. */
int fleet_by_parse(const char *s, enum fleet_by *out);
/* "loaded" or "idle". */
const char *fleet_phase_name(enum fleet_phase p);

/* ---- outputs (fleet_out.c, fleet_plot.c, fleet_profile.c) ---- */

/* The text report (brisk-report(1) OUTPUT), untrusted text escaped. */
void fleet_text(FILE *f, const struct fleet_report *rep);
/* g's recommendation in words ("bfq, 7 of 8 machines faster on ...", "no
 * recommendation: ..."), cut to fit n bytes (FLEET_REC_TEXT: whole). */
#define FLEET_REC_TEXT 1280
void fleet_recommendation_text(char *b, size_t n, const struct fleet_group *g);
/* The JSON / CSV report (brisk-report(1) --json, --csv) to path ("-":
 * stdout), whole or not at all.  0 or -errno with a message naming path. */
int fleet_json(const struct fleet_report *rep, const char *path, char *err, size_t errlen);
int fleet_csv(const struct fleet_report *rep, const char *path, char *err, size_t errlen);
/* The picture (brisk-report(1) --plot; ".svg" or ".png"), whole or not at
 * all.  0 or -errno; -E2BIG when the groups do not fit one picture. */
int fleet_plot(const struct fleet_report *rep, const char *path, char *err, size_t errlen);
/* --save-profile NAME (brisk-report(1)): each class's winner into the user
 * profile NAME, its path in path; note names each class left out and why.
 * 0; -ENODATA nothing could be saved (a result: note says why); -ENOENT no
 * HOME; -EINVAL by is not class or a bad NAME; -EEXIST; -errno; err says. */
int fleet_save_profile(const struct fleet_report *rep, const char *name, int force,
		       char *path, size_t pathlen, char *note, size_t notelen, char *err,
		       size_t errlen);

#endif
