/* race_model — simulated arm-runs for `brisk compare`'s engine (the
 * compare.sim stand-in), shared by tests/unit/test_compare_race.c and
 * tests/helpers/race_sim.c: an arm-run's samples share a run effect
 * exp(sd_run * N(0,1)) (all its actions), times within-run noise
 * exp(sd_within * N(0,1)); three samples per action around 100 ms * the
 * arm's ratio; the load's disk figure, when mibps[arm] > 0, within 5 %. */
#ifndef BRISK_RACE_MODEL_H
#define BRISK_RACE_MODEL_H

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "compare_priv.h"

struct race_model {
	double ratio[COMPARE_MAX_ARMS];   /* true ratio to the baseline */
	double mibps[COMPARE_MAX_ARMS];   /* the load's disk figure; 0: none */
	double sd_run, sd_within;         /* log sds between and within arm-runs */
	uint64_t rng;
};

static inline double race_model_normal(uint64_t *s)
{
	double u = ((double)(stats_rand_next(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(stats_rand_next(s) >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Append sample x to r's samples.  0 or -ENOMEM. */
static inline int race_model_push(struct compare_result *r, const struct compare_sample *x)
{
	if (r->n_samples == r->cap_samples) {
		size_t cap = r->cap_samples ? 2 * r->cap_samples : 1024;
		void *p = realloc(r->samples, cap * sizeof(*r->samples));
		if (!p)
			return -ENOMEM;
		r->samples = p;
		r->cap_samples = cap;
	}
	r->samples[r->n_samples++] = *x;
	return 0;
}

/* A compare_sim_fn: ctx is a struct race_model. */
static inline int race_model_sim(struct compare *c, size_t arm, unsigned round, uint32_t idx,
				 void *ctx)
{
	struct race_model *m = ctx;
	struct compare_result *r = &c->r;
	double eff = exp(m->sd_run * race_model_normal(&m->rng));
	for (unsigned a = 0; a < ACTION_KIND_COUNT; a++) {
		if (!(r->actions & (1u << a)))
			continue;
		for (int i = 0; i < 3; i++) {
			double noise = exp(m->sd_within * race_model_normal(&m->rng));
			const struct compare_sample x = {
				.arm = (uint32_t)arm, .round = round, .run = idx, .action = (uint8_t)a,
				.cold = 1, .ms = 100 * m->ratio[arm] * eff * noise,
			};
			if (race_model_push(r, &x) < 0)
				return -ENOMEM;
		}
	}
	if (m->mibps[arm] > 0)
		r->runs[idx].disk_mibps = r->runs[idx].load_mibps =
			m->mibps[arm] * exp(0.05 * race_model_normal(&m->rng));
	return 0;
}

#endif
