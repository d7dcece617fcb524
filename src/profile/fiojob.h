/* fiojob — fio job files read as fio reads them, converted into a struct
 * profile of brisk's loads and actions.
 *
 * Syntax (as fio): [global] sections apply to the jobs after them; job
 * sections; "key=value" or a bare boolean key; whole-line comments and
 * inline comments (';' or '#' after whitespace: "numjobs=4<TAB>; four");
 * "include FILE" (relative to the including file's directory, at most
 * FIOJOB_INCLUDE_DEPTH deep, a file that includes itself is refused; the
 * included file is untrusted text too); $VAR and ${VAR} taken from the
 * environment only with opts.env (--env), refused otherwise; sizes with
 * k/m/g/t suffixes (KiB, KB and k are all 1024, fio's default kb_base),
 * ranges (bsrange=4k-16k), size=N% of filesize; values of the form
 * READ,WRITE (bs, bsrange, bssplit, rate) give the part for the job's
 * direction, as fio does.
 *
 * Every fio key brisk knows is in ONE table (fiojob_key_at()), in one of
 * three groups:
 *  - honoured: mapped onto brisk's loads and actions (rw, bs, size, ...,
 *    ioengine=libaio/io_uring with iodepth as an asynchronous load, direct,
 *    rate, rate_iops, bssplit, time_based/runtime, stonewall, thread,
 *    rwmixread/rwmixwrite, random_distribution);
 *  - harmless: accepted with a one-line note in fiojob_report (they change
 *    fio's bookkeeping or reporting, or name a file brisk replaces with
 *    its own: norandommap, gtod_reduce, group_reporting, unlink, filename
 *    when it is not a device node, io_submit_mode, the end conditions
 *    exitall and ratemin, ...);
 *  - refused: an error "FILE:LINE: fio key 'K' cannot be honoured: why"
 *    (engines that are not file I/O, zonemode, verify, a filename that is
 *    a device node: brisk never writes devices, ...).
 * A key outside the table is refused as unknown.  With opts.strict every
 * key that is not honoured is refused (brisk 0.1's behaviour).
 *
 * stonewall: fio runs the jobs after a stonewall once the jobs before it
 * have ended.  In brisk's model a stonewall is a phase boundary: each
 * stonewall group is one loaded phase (one run).  The whole file is
 * checked; the profile holds the jobs of group opts.group (1 = the first)
 * and the report says how many groups there are.
 *
 * Mapping of a job:
 *  - a small random reader (rw=randread, io_size <= FIOJOB_SMALL_READ, one
 *    job, not time_based, a synchronous engine) becomes an ssh-like action
 *    sampled once (or `loops` times) at its startdelay;
 *  - every other job becomes a load (write -> seq-write, read -> seq-read,
 *    randread -> rand-read, randwrite -> rand-write, rw/readwrite ->
 *    mixed, randrw -> rand-mixed with rwmixread; random_distribution and
 *    rw=read:-8k as loadkeys.h says; a random reader with a skewed
 *    random_distribution stays a load; libaio, io_uring,
 *    posixaio -> brisk's io_uring engine with the job's iodepth); size is
 *    both the file and the I/O amount (time_based: until the phase ends);
 *  - runtime / ramp_time / directory from [global] set the profile's.
 *
 * Scale: 0 < scale <= 1 multiplies sizes (size, filesize, io_size) and
 * start delays; sizes are rounded up to 4 KiB and never below the largest
 * block; block sizes are kept.
 */
#ifndef BRISK_FIOJOB_H
#define BRISK_FIOJOB_H

#include <stddef.h>

#include "profile.h"

#define FIOJOB_SMALL_READ (32ull * 1024 * 1024)
#define FIOJOB_INCLUDE_DEPTH 8
#define FIOJOB_MAX_NOTES 48
#define FIOJOB_NOTE_LEN 384

enum fiojob_group { FIOJOB_HONOURED, FIOJOB_HARMLESS, FIOJOB_REFUSED };

struct fiojob_opts {
	double scale;        /* (0, 1]; 0 = 1 */
	int env;             /* 1: $VAR from the environment (--env) */
	int strict;          /* 1: refuse every key that is not honoured (--strict) */
	unsigned group;      /* stonewall group to import, 1-based; 0 = 1 */
};

struct fiojob_report {
	unsigned jobs;       /* job sections in the file, every group */
	unsigned groups;     /* stonewall groups */
	size_t n_notes;      /* one per harmless key (the first place it appears) */
	char notes[FIOJOB_MAX_NOTES][FIOJOB_NOTE_LEN];   /* "FILE:LINE: note: ..." */
};

/* Parse and convert.  0, or -EINVAL / -errno with "FILE:LINE: ..." in err.
 * rep may be NULL. */
int fiojob_import(const char *path, const struct fiojob_opts *o, struct profile *out,
		  struct fiojob_report *rep, char *err, size_t errlen);
int fiojob_import_buffer(const char *data, size_t len, const char *display,
			 const struct fiojob_opts *o, struct profile *out,
			 struct fiojob_report *rep, char *err, size_t errlen);
/* The same with default options but the scale (brisk run --fio). */
int fiojob_parse_file(const char *path, double scale, struct profile *out,
		      char *err, size_t errlen);
int fiojob_parse_buffer(const char *data, size_t len, const char *display, double scale,
			struct profile *out, char *err, size_t errlen);
/* "0.01", "1/100", "1%" -> 0.01.  0 or -EINVAL (must be in (0, 1]). */
int fiojob_parse_scale(const char *text, double *out);

/* The key table: entry i (0 <= i < fiojob_key_count()), its group and a
 * short text (what it maps to, the note, or why it is refused). */
size_t fiojob_key_count(void);
void fiojob_key_at(size_t i, const char **name, enum fiojob_group *group, const char **text);
const char *fiojob_group_name(enum fiojob_group g);   /* "honoured", "harmless", "refused" */

#endif
