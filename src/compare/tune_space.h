/* tune_space — the settings space `brisk tune` races: schedulers, the keys
 * tried with every one of them ([space]) and those of one scheduler
 * ([SCHED]), each at a few levels ("keep": the value in place).  A built-in
 * desktop space, or an INI file validated against the settings table and
 * the disk; the arms are every combination, after `current`.  The format
 * and the default space: brisk-tune(1) SPACE.
 */
#ifndef BRISK_TUNE_SPACE_H
#define BRISK_TUNE_SPACE_H

#include <stddef.h>

#include "compare.h"
#include "tunable.h"

#define TUNE_MAX_FACTORS 12
#define TUNE_MAX_LEVELS 6
#define TUNE_MAX_SCHEDS 8
#define TUNE_SPACE_MAX_BYTES 65536
#define TUNE_KEEP "keep"

/* One key and its levels (level 0 is the first one written). */
struct tune_factor {
	char key[TUNABLE_NAME_LEN];      /* as written in profiles: "wbt_lat_usec" */
	char sched[TUNABLE_SCHED_LEN];   /* its scheduler's section; "" for [space] */
	char levels[TUNE_MAX_LEVELS][TUNABLE_VALUE_LEN];   /* canonical, or "keep" */
	size_t n_levels;
	int line;
};

struct tune_space {
	char source[256];                /* the file, or "the default space" */
	char scheds[TUNE_MAX_SCHEDS][TUNABLE_SCHED_LEN];
	size_t n_scheds;
	int offered;                     /* scheduler = offered */
	int sched_line;
	struct tune_factor f[TUNE_MAX_FACTORS];
	size_t n_f;
	char notes[4][200];              /* what the disk made of the default space */
	size_t n_notes;
};

/* What one arm of the space sets: its scheduler and each factor's level
 * (-1: the factor is another scheduler's). */
struct tune_point {
	char sched[TUNABLE_SCHED_LEN];
	signed char level[TUNE_MAX_FACTORS];
};

/* A level as labels show it: a size in whole MiB as "64m", else as it is. */
void tune_space_shown(const char *key, const char *value, char *out, size_t len);

/* The built-in desktop space (brisk-tune(1) SPACE). */
extern const char tune_space_default_text[];

/* Parse space text; source names it in messages ("FILE:LINE: ...").
 * Syntax, keys and values against the settings table (not the disk).
 * 0, or -EINVAL with a message. */
int tune_space_parse(const char *text, const char *source, struct tune_space *sp, char *err,
		     size_t errlen);
/* Read and parse the space file path (a regular file of at most
 * TUNE_SPACE_MAX_BYTES, symbolic links not followed).  0; -EINVAL,
 * -ENOENT, -errno with a message naming the file. */
int tune_space_load(const char *path, struct tune_space *sp, char *err, size_t errlen);
/* The arms of sp on the disks of st: arms[0] "current", then every
 * combination, each checked on the disks (compare_arm_parse); points[i]
 * says what arm i sets (points[0]: nothing).  strict (a file): a scheduler
 * the disks do not offer, a key or level they refuse, is an error naming
 * its line; else (the default space) it is left out, with a note in
 * sp->notes.  The count in *n; 0; -EINVAL (also: more than max arms) or
 * -ENOMEM with a message; nothing is changed on the disk. */
int tune_space_arms(struct tune_space *sp, const struct settings *st, int strict,
		    struct compare_arm *arms, struct tune_point *points, size_t max, size_t *n,
		    char *err, size_t errlen);

#endif
