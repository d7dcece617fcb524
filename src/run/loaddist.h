/* loaddist — where a random load's calls land and which way a mixed
 * load's calls go: fio's random_distribution (random, zipf:THETA,
 * pareto:H, normal:DEV[:CENTER], zoned:ACCESS/SIZE:...) and rwmixread,
 * drawn from the load's own generator (stats_rand_next(); each load child
 * seeds its own, as brisk's loads always have).
 *
 * Shapes (as fio's HOWTO describes them):
 *  - zipf:THETA (THETA > 0, not 1): rank k is drawn with weight k^-THETA
 *    (rejection-inversion, no table); ranks are scattered over the file
 *    by a fixed permutation, so the hot blocks are not all at its start;
 *  - pareto:H (0 < H < 1): rank (N-1) * u^(log H / log(1-H)), scattered
 *    the same way;
 *  - normal:DEV[:CENTER]: a Gaussian around CENTER (0..1 of the file,
 *    default 0.5) with a standard deviation of DEV % of the file (0 < DEV
 *    <= 100), folded back into the file;
 *  - zoned:A1/S1:A2/S2:...: A % of the calls land uniformly in the next
 *    S % of the file; the A sum to 100, the S to 100 (a last S left out
 *    takes the rest, as in fio).
 */
#ifndef BRISK_LOADDIST_H
#define BRISK_LOADDIST_H

#include <stddef.h>
#include <stdint.h>

#include "load.h"

/* "zipf:1.2", ... into s->dist, dist_a, dist_b, zones.  0 or -EINVAL. */
int loaddist_parse(const char *text, struct load_spec *s);
/* The inverse ("random" for the uniform one). */
void loaddist_format(const struct load_spec *s, char *buf, size_t len);
/* A slot in [0, slots) (slots >= 1) drawn as s->dist says. */
uint64_t loaddist_slot(const struct load_spec *s, uint64_t slots, uint64_t *rng);
/* Does a mixed load's next call read?  1 with probability mix_read %. */
int loaddist_reads(const struct load_spec *s, uint64_t *rng);
/* A rate-limited load's pacing: the bytes rate_wait() counts for a call
 * of len bytes: len, or with s->poisson len times an exponential draw of
 * mean 1 (so the calls arrive as a Poisson process of the same mean). */
double loaddist_paced(const struct load_spec *s, uint64_t len, uint64_t *rng);
/* A sequential load's next offset after a call of len bytes at off, with
 * s->skip added (wrapping at both ends of the region s->size; next_len is
 * the coming call's length).  */
uint64_t loaddist_seq_next(const struct load_spec *s, uint64_t off, uint64_t len,
			   uint64_t next_len);

#endif
