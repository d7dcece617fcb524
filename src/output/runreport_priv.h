/* runreport_priv — what runreport.c (groups, verdicts, the text) and
 * runreport_json.c (JSON and CSV) share and nothing else includes.  The
 * contract is runreport.h's. */
#ifndef BRISK_RUNREPORT_PRIV_H
#define BRISK_RUNREPORT_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

struct blockdev;

#define MiB (1024.0 * 1024.0)

/* "not started", or how the load ended (load_end_name). */
const char *runreport_load_state(const struct load *l);
/* Load l's MiB/s between timeline points i - 1 and i; NaN when none. */
double runreport_tick_load_mibps(const struct load *l, size_t i);
/* A load's MiB/s and worst call within [from, to) (session-relative ns),
 * from its timeline; NaN when it has no two points there. */
void runreport_load_window(const struct session *s, const struct load *l, uint64_t from,
			   uint64_t to, double *mibps, double *worst_ms);
/* Where epoch e ends (its successor's start, else UINT64_MAX). */
uint64_t runreport_epoch_end(const struct session *s, size_t e);
/* The leaf devices as probed now (NULL where a probe failed); free(*mem). */
void runreport_probe_devs(const struct session *s, const struct blockdev *devs[SESSION_MAX_DEVS],
			  struct blockdev **mem);

#endif
