/* fleet_priv — what the fleet*.c files share and nothing else includes.
 * The contract is fleet.h's.
 *
 *   fleet_out.c   the text forms the picture (fleet_plot.c) uses too
 *   fleet_pool.c  fleet_appendf
 */
#ifndef BRISK_FLEET_PRIV_H
#define BRISK_FLEET_PRIV_H

#include <stddef.h>

#include "fleet.h"

#define FLEET_JSON_DEPTH 64   /* nesting a result may have (json_tokener_new_ex) */

/* data[0..len) is one JSON text as RFC 8259 has it, nested at most
 * FLEET_JSON_DEPTH, no key twice in an object: 0, or -EINVAL / -ENOMEM
 * with the reason (naming the byte) in err. */
int fleet_strict_json(const char *data, size_t len, char *err, size_t errlen);

/* A ratio: "12.3" from 10, "0.17" from 0.1, "0.041" below; "-" when not
 * finite. */
void fleet_ratio_text(char *b, size_t n, double v);
/* The machines of row r that disagree, "web3, web7", at most max names
 * (then "and N more"; 0: all); "" none. */
void fleet_disagree_text(char *b, size_t n, const struct fleet_group *g, const struct fleet_row *r,
			 size_t max);
/* How an arm is named where it is recommended or saved: its label when
 * that is whole (the scheduler alone, or every setting), else all of its
 * settings (a label is cut at 63 bytes; a value past the cut must not be
 * hidden). */
const char *fleet_arm_text(const struct fleet_garm *a);
/* printf onto the end of b (n bytes), cut to fit; nothing when b is full. */
void fleet_appendf(char *b, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
