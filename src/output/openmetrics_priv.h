/* openmetrics_priv — what openmetrics_run.c, openmetrics_compare.c and
 * openmetrics_fleet.c share; not for other modules (see openmetrics.h).
 *
 *  - struct openmetrics_where: where a result was measured, from
 *    machine_json() (the machine object run and compare JSON carry:
 *    host name, kernel, the leaf disks behind dir with model, firmware,
 *    class, transport and scheduler), and the disks' names, models and
 *    schedulers as one label value each ("sda,sdb"; a model or scheduler
 *    every disk shares is named once).  Strings are as read (untrusted:
 *    the writer escapes them).
 *  - openmetrics_where_get(): fills w; never fails (what cannot be read
 *    stays "": a disk without a model, a dir that cannot be resolved).
 *  - openmetrics_info(): the shared families brisk_info and brisk_disk_info
 *    (one sample per disk of w) of command, for dir or by (brisk report's
 *    grouping; "" for none).
 *  - openmetrics_write(): path through outfile with fn writing the
 *    families, then "# EOF": 0, or -errno with a message naming path
 *    (fn returns 0, -ENOMEM, or the writer's error).
 *  - openmetrics_realtime(): CLOCK_REALTIME in seconds.
 *  - openmetrics_ci(): an interval as three samples, l[n] set to
 *    bound=estimate|lower|upper (l has room for n + 1), each times scale.
 *  - openmetrics_dir(): the "dir" label of a directory.
 */
#ifndef BRISK_OPENMETRICS_PRIV_H
#define BRISK_OPENMETRICS_PRIV_H

#include <stddef.h>

#include "openmetrics.h"

#define OPENMETRICS_MAX_DISKS 8
#define OPENMETRICS_STR 160
#define OPENMETRICS_LIST 512

struct openmetrics_disk {
	char name[32], model[OPENMETRICS_STR], firmware[64], cls[16], transport[16],
	     scheduler[32];
};

struct openmetrics_where {
	char hostname[OPENMETRICS_STR], kernel[OPENMETRICS_STR];
	size_t n_disks;
	struct openmetrics_disk disks[OPENMETRICS_MAX_DISKS];
	char devices[OPENMETRICS_LIST], models[OPENMETRICS_LIST], schedulers[OPENMETRICS_LIST];
};

struct machine_measured;
void openmetrics_where_get(struct openmetrics_where *w, const char *dir,
			   const struct machine_measured *measured, size_t n);
/* Append item to the ","-separated list (of len bytes) unless it is there
 * or does not fit whole; "" is left out. */
void openmetrics_list_add(char *list, size_t len, const char *item);
int openmetrics_info(struct openmetrics *om, const char *command, const char *dir,
		     const char *by, const struct openmetrics_where *w);
int openmetrics_write(const char *path, int (*fn)(struct openmetrics *om, const void *ctx),
		      const void *ctx, char *err, size_t errlen);
double openmetrics_realtime(void);
struct stats_ci;
void openmetrics_ci(struct openmetrics *om, struct openmetrics_label *l, size_t n,
		    const struct stats_ci *ci, double scale);
/* dir for the "dir" label: absolute (fileio_abspath, resolved), so "."
 * names the same directory from anywhere, as the JSON's "dir" does. */
void openmetrics_dir(char *out, size_t len, const char *dir);

#endif
