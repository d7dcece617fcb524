/* race_sim — the error rates of `brisk compare`'s verdicts and race on
 * simulated arm-runs with known ratios, through the engine itself
 * (compare_run with a stand-in for the session; tests/bench/race_sim.sh
 * runs it; not a timed test).
 *
 * Model: an arm-run's samples share a run effect exp(SD_RUN * N(0,1))
 * (all its actions), times within-run noise exp(0.5 * N(0,1)); three
 * samples per action, two actions; the arm is the baseline scaled by its
 * ratio, so every ratio of typical arm-runs is exactly that.
 *
 * Scenarios (16 arms, arm 0 the baseline):
 *   aa     every arm equal to the baseline
 *   mixed  3 equal, 2 within the margin (1.05, 0.95), 2 at its edges
 *          (1.2, 1/1.2), clearly better (0.5, 0.7, 0.8) and worse (1.3,
 *          1.5, 2.0), 1.1 and 0.9
 *   edge   no clear winner: 3 equal, six at the edges, five within
 *
 * Per mode (racing, --no-racing) over REPS comparisons: arm-runs used,
 * how the race ended, the family-wise rate of a false faster/slower (a
 * difference where the ratio is 1, or the wrong direction), false
 * equivalent at the margin's edges (per arm), the coverage of the 95 %
 * run-ratio intervals (all arms; the arms that left the race), and how
 * often the best arm left or was recommended.
 *
 * usage: race_sim SCENARIO REPS ROUNDS SD_RUN_PERCENT SEED
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"
#include "race_model.h"

#define ARMS 16

static struct settings st;

static int scenario(const char *name, double *ratio)
{
	static const double mixed[ARMS] = { 1, 1, 1, 1, 1.05, 0.95, 1.2, 1 / 1.2,
					    0.5, 0.7, 0.8, 1.3, 1.5, 2.0, 1.1, 0.9 };
	static const double edge[ARMS] = { 1, 1, 1, 1, 1.2, 1.2, 1.2, 1 / 1.2,
					   1 / 1.2, 1 / 1.2, 1.05, 0.95, 1.1, 0.9, 1.02, 0.98 };
	if (!strcmp(name, "aa"))
		for (size_t i = 0; i < ARMS; i++)
			ratio[i] = 1;
	else if (!strcmp(name, "mixed"))
		memcpy(ratio, mixed, sizeof(mixed));
	else if (!strcmp(name, "edge"))
		memcpy(ratio, edge, sizeof(edge));
	else
		return -1;
	return 0;
}

struct tally {
	unsigned reps, fw_false_diff, best_out, best_recommended, any_false_drop;
	unsigned long runs, rounds;
	unsigned ends[COMPARE_RACE_STOPPED + 1];
	unsigned long edge_n, edge_equiv, cov_n, cov_in, out_cov_n, out_cov_in;
};

static int is_edge(double x, double margin)
{
	return fabs(x - margin) < 1e-9 || fabs(x - 1 / margin) < 1e-9;
}

static int one(const double *ratio, unsigned rounds, double sd, uint64_t seed, int racing,
	       struct tally *t)
{
	struct compare_config cfg;
	compare_config_default(&cfg);
	cfg.run.actions = 1u << ACTION_LS | 1u << ACTION_SSH;
	cfg.rounds = rounds;
	cfg.seed = seed;
	cfg.no_racing = !racing;
	snprintf(cfg.run.dir, sizeof(cfg.run.dir), "/nonexistent");
	static struct compare_arm arms[ARMS];
	memset(arms, 0, sizeof(arms));
	for (size_t i = 0; i < ARMS; i++)
		snprintf(arms[i].label, sizeof(arms[i].label), "a%zu", i);
	struct compare *c = NULL;
	char err[256];
	if (compare_create(&cfg, &st, arms, ARMS, &c, err, sizeof(err)) < 0) {
		fprintf(stderr, "race_sim: %s\n", err);
		return -1;
	}
	struct race_model m = { .sd_run = sd, .sd_within = 0.5,
				.rng = seed * 0x9e3779b97f4a7c15ull + 1 };
	memcpy(m.ratio, ratio, ARMS * sizeof(*ratio));
	c->sim = race_model_sim;
	c->sim_ctx = &m;
	if (compare_run(c, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "race_sim: %s\n", err);
		compare_free(c);
		return -1;
	}
	const struct compare_result *r = compare_result(c);
	t->reps++;
	t->runs += r->n_runs;
	t->rounds += r->rounds_done;
	t->ends[r->race_end]++;
	size_t best = 0;
	for (size_t a = 0; a < ARMS; a++)
		if (ratio[a] < ratio[best])
			best = a;
	int false_diff = 0, false_drop = 0;
	for (size_t a = 1; a < ARMS; a++) {
		for (unsigned k = 0; k < ACTION_KIND_COUNT; k++) {
			if (!(r->actions & (1u << k)))
				continue;
			const struct compare_cell *cell = &r->cells[a][k];
			double x = ratio[a] / ratio[0];
			false_diff |= (cell->verdict == STATS_FASTER && x >= 1) ||
				      (cell->verdict == STATS_SLOWER && x <= 1);
			if (is_edge(x, r->margin)) {
				t->edge_n++;
				t->edge_equiv += cell->verdict == STATS_EQUIVALENT;
			}
			if (isfinite(cell->ratio_runs.lo)) {
				int in = cell->ratio_runs.lo <= x && x <= cell->ratio_runs.hi;
				t->cov_n++;
				t->cov_in += (unsigned long)in;
				if (r->race[a].out) {
					t->out_cov_n++;
					t->out_cov_in += (unsigned long)in;
				}
			}
		}
		/* a false drop: left the race, its ratio not above the best's */
		false_drop |= r->race[a].out && ratio[a] <= ratio[best] + 1e-12;
	}
	t->fw_false_diff += (unsigned)false_diff;
	t->any_false_drop += (unsigned)false_drop;
	t->best_out += r->race[best].out;
	t->best_recommended += r->best == (int)best;
	compare_free(c);
	return 0;
}

static double pct(unsigned long a, unsigned long b)
{
	return b ? 100.0 * (double)a / (double)b : NAN;
}

int main(int argc, char **argv)
{
	double ratio[ARMS];
	if (argc != 6 || scenario(argv[1], ratio) < 0) {
		fprintf(stderr, "usage: race_sim aa|mixed|edge REPS ROUNDS SD_RUN_PERCENT SEED\n");
		return 2;
	}
	unsigned reps = (unsigned)atoi(argv[2]), rounds = (unsigned)atoi(argv[3]);
	double sd = atof(argv[4]) / 100.0;
	uint64_t seed = strtoull(argv[5], NULL, 10);
	compare_boot_iters(10);   /* the quantile intervals are not read here */
	printf("%-6s %-9s %5s %7s %6s  %-34s %8s %8s %8s %8s %8s %8s\n", "scen", "mode", "reps",
	       "runs", "rounds", "ends (winner/equiv/settled/budget)", "fw-diff%", "edge-eq%",
	       "cover%", "out-cov%", "best-out", "best-rec");
	for (int racing = 1; racing >= 0; racing--) {
		struct tally t;
		memset(&t, 0, sizeof(t));
		for (unsigned i = 0; i < reps; i++)
			if (one(ratio, rounds, sd, seed + i, racing, &t) < 0)
				return 1;
		char ends[64];
		snprintf(ends, sizeof(ends), "%u/%u/%u/%u", t.ends[COMPARE_RACE_WINNER],
			 t.ends[COMPARE_RACE_EQUIVALENT], t.ends[COMPARE_RACE_SETTLED],
			 t.ends[COMPARE_RACE_BUDGET]);
		printf("%-6s %-9s %5u %7.1f %6.2f  %-34s %8.2f %8.2f %8.2f %8.2f %7.1f%% %7.1f%%\n",
		       argv[1], racing ? "racing" : "no-racing", t.reps,
		       (double)t.runs / t.reps, (double)t.rounds / t.reps, racing ? ends : "-",
		       pct(t.fw_false_diff, t.reps), pct(t.edge_equiv, t.edge_n),
		       pct(t.cov_in, t.cov_n), pct(t.out_cov_in, t.out_cov_n),
		       pct(t.best_out, t.reps), pct(t.best_recommended, t.reps));
		if (racing && !strcmp(argv[1], "aa"))
			printf("%-6s %-9s any arm left the race though all are equal: %.2f %%\n", "",
			       "", pct(t.any_false_drop, t.reps));
	}
	return 0;
}
