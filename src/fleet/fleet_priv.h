/* fleet_priv — what the fleet*.c files share and nothing else includes.
 * One way only: the reading and pooling files (fleet_read, fleet_strict,
 * fleet_key, fleet_pool, fleet_recommend) never call the output files
 * (fleet_out, fleet_plot, fleet_profile); the outputs use their results.
 */
#ifndef BRISK_FLEET_PRIV_H
#define BRISK_FLEET_PRIV_H

#include <stddef.h>

#include "fleet.h"

/* ---- reading (fleet_strict.c) ---- */

#define FLEET_JSON_DEPTH 64   /* nesting a result may have (json_tokener_new_ex) */

/* data[0..len) is one JSON text as RFC 8259 has it, nested at most
 * FLEET_JSON_DEPTH, no key twice in an object: 0, or -EINVAL / -ENOMEM
 * with the reason (naming the byte) in err. */
int fleet_strict_json(const char *data, size_t len, char *err, size_t errlen);

/* ---- pooling (fleet_key.c, fleet_pool.c, fleet_recommend.c) ---- */

#define FLEET_MKEY_LEN (PATH_MAX + 8)
/* The machine r was measured on: a key, the same for every result of the
 * machine ("id:HEX", "folder:HOST", "host:NAME", "file:PATH"), and a name. */
void fleet_machine_key(const struct fleet_result *r, char *key, size_t klen, char *name,
		       size_t nlen);
/* The group of r under by: a disk class, model, "MODEL fw FIRMWARE",
 * machine name or kernel ("mixed" when its disks differ). */
void fleet_group_key(const struct fleet_result *r, enum fleet_by by, char *key, size_t len);
/* Label order of two arms: by label, then settings. */
int fleet_arm_cmp(const struct fleet_garm *a, const struct fleet_garm *b);
/* g's arms' scores and g->ranking (room for every arm).  0 or -ENOMEM. */
int fleet_rank(struct fleet_group *g);
/* g->rec and g->best from g's rows and ranking. */
void fleet_recommend(struct fleet_group *g);
/* printf onto the end of b (n bytes), cut to fit; nothing when b is full. */
void fleet_appendf(char *b, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- outputs (fleet_out.c, for fleet_plot.c) ---- */

/* A ratio: "12.3" from 10, "0.17" from 0.1, "0.041" below; "-" when not
 * finite. */
void fleet_ratio_text(char *b, size_t n, double v);
/* The machines of row r that disagree, "web3, web7", at most max names
 * (then "and N more"; 0: all); "" none. */
void fleet_disagree_text(char *b, size_t n, const struct fleet_group *g, const struct fleet_row *r,
			 size_t max);
/* An arm's name where it is recommended or saved: its label when that is
 * whole (the scheduler alone, or every setting), else all its settings. */
const char *fleet_arm_text(const struct fleet_garm *a);

#endif
