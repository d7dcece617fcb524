/* compare_stats — simulation of the statistics a comparison of settings
 * rests on (tests/bench/compare_stats.sh runs it; not a timed test).
 *
 *  1. Coverage of the 95 % stats_bootstrap_ratio() interval on lognormal
 *     latencies whose true quantile ratio is known: the arm is the baseline
 *     distribution scaled by r, so every quantile's ratio is exactly r.
 *  2. A/A: every arm drawn from the baseline's distribution, arms x actions
 *     comparisons per repetition, Mann-Whitney p-values Holm-adjusted over
 *     all of them, stats_verdict() on each: how often anything but "no
 *     difference detectable" comes out.
 *
 *  3. Clustered data, as `brisk compare` gets it: each arm-run has a
 *     random effect exp(sigma_b * N(0,1)) shared by all its samples (and
 *     actions), times within-run noise exp(0.5 * N(0,1)).  The arm is the
 *     baseline scaled by r, so every population quantile's ratio is r.
 *     gcoverage: coverage of the 95 % ratio interval, plain
 *     (stats_bootstrap_ratio) and grouped (stats_bootstrap_ratio_grouped)
 *     on the same data.
 *     gaa: the whole verdict rule with sequential looks, A/A (r = 1) or the
 *     power for r on arm 1 x action 0; several candidate rules side by side.
 *  4. timing: the grouped intervals of one analysis of 4 arms x 4 actions.
 *
 * usage: compare_stats coverage REPS ITERS SEED
 *        compare_stats aa REPS ITERS SEED ARMS ACTIONS N
 *        compare_stats gcoverage REPS ITERS SEED
 *        compare_stats gaa REPS ITERS SEED ROUNDS K SIGMA_B_PERCENT RATIO_PERCENT
 *                          [OUTLIER_RUNS_PERCENT [FAST_MODE_PERCENT]]
 *        compare_stats timing ITERS
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats.h"

#define BOOT(iters, level, seed) (&(struct stats_boot){ (iters), (level), (seed) })

#define MAX_N 64

static double uniform01(uint64_t *st)
{
	return ((double)(stats_rand_next(st) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(uint64_t *st)
{
	double u = uniform01(st), v = uniform01(st);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* lognormal, median `scale`, log-sd sigma */
static void draw(double *v, size_t n, double scale, double sigma, uint64_t *st)
{
	for (size_t i = 0; i < n; i++)
		v[i] = scale * exp(sigma * normal(st));
}

static double quantile(const double *v, size_t n, double q)
{
	double s[MAX_N];
	memcpy(s, v, n * sizeof(*s));
	stats_sort(s, n);
	return stats_percentile_sorted(s, n, q * 100);
}

static double phi(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

static double phi_inv(double p)
{
	double lo = -12, hi = 12;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (phi(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* jackknife values of log(Q(b)/Q(a)) leaving one value of `drop` out */
static double jack_sums(const double *a, size_t na, const double *b, size_t nb, double q,
			int drop_b, double *s2, double *s3)
{
	size_t n = drop_b ? nb : na;
	double th[MAX_N], t[MAX_N], mean = 0;
	const double *v = drop_b ? b : a;
	for (size_t i = 0; i < n; i++) {
		size_t m = 0;
		for (size_t j = 0; j < n; j++)
			if (j != i)
				t[m++] = v[j];
		double qa = drop_b ? quantile(a, na, q) : quantile(t, m, q);
		double qb = drop_b ? quantile(t, m, q) : quantile(b, nb, q);
		th[i] = log(qb / qa);
		mean += th[i] / (double)n;
	}
	for (size_t i = 0; i < n; i++) {
		double u = (double)(n - 1) * (mean - th[i]);
		*s2 += u * u / ((double)n * (double)n);
		*s3 += u * u * u / ((double)n * (double)n * (double)n);
	}
	return mean;
}

/* Alternatives to the shipped percentile interval, from the same
 * replicates (the same stream as stats_bootstrap_ratio, so its percentile
 * interval is reproduced exactly): log-scale basic and BCa. */
static void alternatives(const double *a, size_t na, const double *b, size_t nb, double q,
			 unsigned iters, uint64_t seed, double *rep,
			 double *plo, double *phi_, double *blo, double *bhi,
			 double *clo, double *chi)
{
	double tmp[MAX_N];
	uint64_t st = seed;
	for (unsigned i = 0; i < iters; i++) {
		double r[2];
		for (int g = 0; g < 2; g++) {
			const double *v = g ? b : a;
			size_t n = g ? nb : na;
			for (size_t k = 0; k < n; k++)
				tmp[k] = v[stats_rand_index(&st, n)];
			stats_sort(tmp, n);
			r[g] = stats_percentile_sorted(tmp, n, q * 100);
		}
		rep[i] = log(r[1] / r[0]);
	}
	double th = log(quantile(b, nb, q) / quantile(a, na, q));
	double below = 0;
	for (unsigned i = 0; i < iters; i++)
		below += rep[i] < th ? 1 : rep[i] == th ? 0.5 : 0;
	stats_sort(rep, iters);
	for (unsigned i = 0; i < iters; i++)
		rep[i] = exp(rep[i]);   /* interpolate on the ratio scale, as the API */
	*plo = stats_percentile_sorted(rep, iters, 2.5);
	*phi_ = stats_percentile_sorted(rep, iters, 97.5);
	*blo = exp(2 * th) / *phi_;
	*bhi = exp(2 * th) / *plo;
	double frac = below / iters;
	if (frac <= 0 || frac >= 1) {   /* z0 infinite: BCa undefined */
		*clo = *plo;
		*chi = *phi_;
		return;
	}
	double z0 = phi_inv(frac), s2 = 0, s3 = 0;
	jack_sums(a, na, b, nb, q, 0, &s2, &s3);
	jack_sums(a, na, b, nb, q, 1, &s2, &s3);
	double acc = s2 > 0 ? s3 / (6 * pow(s2, 1.5)) : 0;
	double za = phi_inv(0.025), zb = phi_inv(0.975);
	double a1 = phi(z0 + (z0 + za) / (1 - acc * (z0 + za)));
	double a2 = phi(z0 + (z0 + zb) / (1 - acc * (z0 + zb)));
	*clo = stats_percentile_sorted(rep, iters, 100 * a1);
	*chi = stats_percentile_sorted(rep, iters, 100 * a2);
}

static unsigned long parse(const char *s)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || end == s) {
		fprintf(stderr, "compare_stats: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static int coverage(unsigned reps, unsigned iters, uint64_t seed)
{
	static const double qs[] = { 0.5, 0.9 }, sigmas[] = { 0.5, 1.0 };
	static const double ratios[] = { 1.0, 1.5, 3.0 };
	static const size_t ns[] = { 8, 16, 32 };
	double a[MAX_N], b[MAX_N];
	printf("coverage of the 95 %% ratio interval (percentile bootstrap, %u replicates), "
	       "%u repetitions per row; Monte Carlo s.e. %.1f points at 95 %%\n",
	       iters, reps, 100 * sqrt(0.95 * 0.05 / reps));
	printf("%-4s %-6s %-6s %-4s %9s %7s %7s %12s %10s | %9s %9s\n", "q", "sigma", "ratio", "n",
	       "coverage", "below", "above", "excludes 1", "med width", "log-basic", "BCa");
	double *rep = malloc(iters * sizeof(*rep));
	if (!rep)
		return 1;
	for (size_t iq = 0; iq < sizeof(qs) / sizeof(*qs); iq++)
	for (size_t is = 0; is < sizeof(sigmas) / sizeof(*sigmas); is++)
	for (size_t ir = 0; ir < sizeof(ratios) / sizeof(*ratios); ir++)
	for (size_t in = 0; in < sizeof(ns) / sizeof(*ns); in++) {
		size_t n = ns[in];
		double r = ratios[ir];
		uint64_t st = seed ^ (0x100000001b3ULL * (iq * 1000 + is * 100 + ir * 10 + in + 1));
		unsigned cover = 0, below = 0, above = 0, excl = 0, fail = 0;
		unsigned cov_basic = 0, cov_bca = 0;
		double *w = malloc(reps * sizeof(*w));
		if (!w)
			return 1;
		for (unsigned k = 0; k < reps; k++) {
			draw(a, n, 100, sigmas[is], &st);
			draw(b, n, 100 * r, sigmas[is], &st);
			double plo, phi_, blo, bhi, clo, chi;
			struct stats_ci ci;
			uint64_t bseed = stats_rand_next(&st);
			if (stats_bootstrap_ratio(a, n, b, n, qs[iq], BOOT(iters, 0.95, bseed), &ci)) {
				fail++;
				w[k] = NAN;
				continue;
			}
			double lo = ci.lo, hi = ci.hi;
			if (r < lo)
				below++;   /* the interval lies above the truth */
			else if (r > hi)
				above++;
			else
				cover++;
			excl += lo > 1 || hi < 1;
			alternatives(a, n, b, n, qs[iq], iters, bseed, rep,
				     &plo, &phi_, &blo, &bhi, &clo, &chi);
			if (fabs(plo / lo - 1) > 1e-9 || fabs(phi_ / hi - 1) > 1e-9) {
				fprintf(stderr, "compare_stats: replicates differ from the API's\n");
				return 1;
			}
			cov_basic += r >= blo && r <= bhi;
			cov_bca += r >= clo && r <= chi;
			w[k] = log(hi / lo);
		}
		stats_sort(w, reps);
		printf("%-4.1f %-6.1f %-6.1f %-4zu %8.1f%% %6.1f%% %6.1f%% %11.1f%% %9.2fx | %8.1f%% %8.1f%%%s\n",
		       qs[iq], sigmas[is], r, n, 100.0 * cover / reps, 100.0 * below / reps,
		       100.0 * above / reps, 100.0 * excl / reps,
		       exp(stats_percentile_sorted(w, reps - fail, 50)),
		       100.0 * cov_basic / reps, 100.0 * cov_bca / reps,
		       fail ? "  (failures!)" : "");
		free(w);
		fflush(stdout);
	}
	free(rep);
	printf("(below/above: the truth below/above the interval; excludes 1: share of "
	       "intervals not containing 1; med width: median hi/lo.  After |: coverage of\n"
	       " two alternatives from the same replicates, not in the API: basic interval on\n"
	       " the log scale, and BCa with jackknife acceleration)\n");
	return 0;
}

static int aa(unsigned reps, unsigned iters, uint64_t seed, size_t arms, size_t actions, size_t n)
{
	size_t m = arms * actions;
	double base[MAX_N], arm[MAX_N];
	double *p = malloc(m * sizeof(*p)), *adj = malloc(m * sizeof(*adj));
	double *lo = malloc(m * sizeof(*lo)), *hi = malloc(m * sizeof(*hi));
	if (!p || !adj || !lo || !hi)
		return 1;
	uint64_t st = seed;
	unsigned fam_verdict = 0, fam_ci = 0, fam_mw_holm = 0, fam_mw_raw = 0;
	unsigned long cmp_verdict = 0, cmp_ci = 0, cmp_mw_raw = 0;
	for (unsigned k = 0; k < reps; k++) {
		for (size_t act = 0; act < actions; act++) {
			/* each action its own scale and skew; arms share the baseline */
			double scale = 20.0 * (double)(act + 1), sigma = 0.4 + 0.2 * (double)act;
			draw(base, n, scale, sigma, &st);
			for (size_t j = 0; j < arms; j++) {
				size_t c = act * arms + j;
				double u;
				struct stats_ci ci;
				draw(arm, n, scale, sigma, &st);
				if (stats_mann_whitney(base, n, arm, n, &u, &p[c]) ||
				    stats_bootstrap_ratio(base, n, arm, n, 0.5,
							  BOOT(iters, 0.95, stats_rand_next(&st)), &ci))
					return 1;
				lo[c] = ci.lo;
				hi[c] = ci.hi;
			}
		}
		if (stats_holm(p, m, adj))
			return 1;
		int any_v = 0, any_ci = 0, any_h = 0, any_raw = 0;
		for (size_t c = 0; c < m; c++) {
			int v = stats_verdict(lo[c], hi[c], adj[c], 0.05) != STATS_NO_DIFFERENCE;
			int ci = lo[c] > 1 || hi[c] < 1;
			cmp_verdict += v;
			cmp_ci += ci;
			cmp_mw_raw += p[c] < 0.05;
			any_v |= v;
			any_ci |= ci;
			any_h |= adj[c] < 0.05;
			any_raw |= p[c] < 0.05;
		}
		fam_verdict += any_v;
		fam_ci += any_ci;
		fam_mw_holm += any_h;
		fam_mw_raw += any_raw;
	}
	double R = reps, C = (double)reps * (double)m;
	printf("A/A, %zu arms x %zu actions = %zu comparisons, n = %zu per arm, %u repetitions, "
	       "%u replicates, alpha 0.05:\n", arms, actions, m, n, reps, iters);
	printf("  verdict (CI excludes 1 and Holm p < 0.05): any false verdict %5.1f%% of repetitions, "
	       "%5.2f%% of comparisons\n", 100 * fam_verdict / R, 100 * cmp_verdict / C);
	printf("  for reference, uncorrected: CI alone %5.1f%% / %5.2f%%; Mann-Whitney alone %5.1f%% / "
	       "%5.2f%%; Mann-Whitney Holm alone %5.1f%% of repetitions\n",
	       100 * fam_ci / R, 100 * cmp_ci / C, 100 * fam_mw_raw / R, 100 * cmp_mw_raw / C,
	       100 * fam_mw_holm / R);
	free(p);
	free(adj);
	free(lo);
	free(hi);
	return 0;
}


/* ---- clustered data ---- */

#define SIGMA_W 0.5
#define MAX_R 16
#define MAX_K 8
#define MAX_CN (MAX_R * MAX_K)

/* share of samples in a fast mode (about 30x faster, wider spread), for
 * gaa: a bimodal action such as save with fsync on a fast disk under a
 * buffered writer (0.3-10 ms when there is nothing to flush, 20-180 ms
 * when the journal commit waits on the writer's data) */
static double fastmode;

/* R arm-runs of k samples: run r gets id (r * 7 + salt) * 3 + 1 (not
 * contiguous, as compare's run indexes are not, per arm), effects eff[r]. */
static void draw_clustered(double *v, uint32_t *g, size_t R, size_t k, double scale,
			   const double *eff, uint32_t salt, uint64_t *st)
{
	for (size_t r = 0; r < R; r++)
		for (size_t j = 0; j < k; j++) {
			v[r * k + j] = scale * eff[r] * exp(SIGMA_W * normal(st));
			if (fastmode > 0 && uniform01(st) < fastmode)   /* about 30x faster */
				v[r * k + j] *= exp(-3.4 + normal(st));
			g[r * k + j] = (uint32_t)((r * 7 + salt) * 3 + 1);
		}
}

/* share of arm-runs hit by an outlier load state (x 4), for gaa: heavy
 * tails that a normal model of the run effects does not have */
static double contam;

static void draw_effects(double *eff, size_t R, double sigma_b, uint64_t *st)
{
	for (size_t r = 0; r < R; r++) {
		eff[r] = exp(sigma_b * normal(st));
		if (contam > 0 && uniform01(st) < contam)
			eff[r] *= 4;
	}
}

static int gcoverage(unsigned reps, unsigned iters, uint64_t seed)
{
	static const double qs[] = { 0.5, 0.9 }, sbs[] = { 0.3, 0.6 };
	static const size_t Rs[] = { 3, 5, 8, 12 }, ks[] = { 4, 8 };
	const double r = 1.5;
	double a[MAX_CN], b[MAX_CN], ea[MAX_R], eb[MAX_R];
	uint32_t ga[MAX_CN], gb[MAX_CN];
	printf("coverage of the 95 %% ratio interval on clustered data (true ratio %.1f, "
	       "within-run sigma %.1f), %u replicates, %u repetitions per row; "
	       "Monte Carlo s.e. %.1f points at 95 %%\n", r, SIGMA_W, iters, reps,
	       100 * sqrt(0.95 * 0.05 / reps));
	printf("%-4s %-7s %-6s %-3s | %8s %7s %7s %9s | %8s %7s %7s %9s\n", "q", "sigma_b", "rounds",
	       "k", "plain", "below", "above", "med width", "grouped", "below", "above",
	       "med width");
	double *w1 = malloc(reps * sizeof(*w1)), *w2 = malloc(reps * sizeof(*w2));
	if (!w1 || !w2)
		return 1;
	for (size_t iq = 0; iq < 2; iq++)
	for (size_t is = 0; is < 2; is++)
	for (size_t ir = 0; ir < sizeof(Rs) / sizeof(*Rs); ir++)
	for (size_t ik = 0; ik < 2; ik++) {
		size_t R = Rs[ir], k = ks[ik], n = R * k;
		uint64_t st = seed ^ (0x100000001b3ULL * (iq * 1000 + is * 100 + ir * 10 + ik + 1));
		unsigned cov[2] = { 0, 0 }, below[2] = { 0, 0 }, above[2] = { 0, 0 };
		for (unsigned t = 0; t < reps; t++) {
			draw_effects(ea, R, sbs[is], &st);
			draw_effects(eb, R, sbs[is], &st);
			draw_clustered(a, ga, R, k, 100, ea, 0, &st);
			draw_clustered(b, gb, R, k, 100 * r, eb, 3, &st);
			uint64_t bs = stats_rand_next(&st);
			struct stats_ci ci[2];
			if (stats_bootstrap_ratio(a, n, b, n, qs[iq], BOOT(iters, 0.95, bs), &ci[0]) ||
			    stats_bootstrap_ratio_grouped(a, ga, n, b, gb, n, qs[iq],
							  BOOT(iters, 0.95, bs), &ci[1]))
				return 1;
			double lo[2] = { ci[0].lo, ci[1].lo }, hi[2] = { ci[0].hi, ci[1].hi };
			for (int m = 0; m < 2; m++) {
				if (r < lo[m])
					below[m]++;
				else if (r > hi[m])
					above[m]++;
				else
					cov[m]++;
			}
			w1[t] = log(hi[0] / lo[0]);
			w2[t] = log(hi[1] / lo[1]);
		}
		stats_sort(w1, reps);
		stats_sort(w2, reps);
		printf("%-4.1f %-7.1f %-6zu %-3zu | %7.1f%% %6.1f%% %6.1f%% %8.2fx | %7.1f%% %6.1f%% "
		       "%6.1f%% %8.2fx\n", qs[iq], sbs[is], R, k,
		       100.0 * cov[0] / reps, 100.0 * below[0] / reps, 100.0 * above[0] / reps,
		       exp(stats_percentile_sorted(w1, reps, 50)),
		       100.0 * cov[1] / reps, 100.0 * below[1] / reps, 100.0 * above[1] / reps,
		       exp(stats_percentile_sorted(w2, reps, 50)));
		fflush(stdout);
	}
	free(w1);
	free(w2);
	return 0;
}

/* Coverage of the interval the verdict rests on: exp of the difference of
 * the mean log run geometric means with Welch's t interval
 * (stats_log_ratio_ci), on clustered data with a known ratio (the arms
 * differ by scale only, so the ratio of typical runs is exactly r). */
static int wcoverage(unsigned reps, uint64_t seed)
{
	static const double sbs[] = { 0.3, 0.6 }, rs[] = { 1.0, 1.5, 3.0 };
	static const size_t Rs[] = { 3, 4, 5, 8, 12 }, ks[] = { 2, 3, 4 };
	double a[MAX_CN], b[MAX_CN], ea[MAX_R], eb[MAX_R], la[MAX_CN], lb[MAX_CN];
	uint32_t ga[MAX_CN], gb[MAX_CN];
	printf("coverage of the 95 %% run ratio interval (Welch on log run geometric means), "
	       "within-run sigma %.1f, %u repetitions per row; Monte Carlo s.e. %.1f points\n",
	       SIGMA_W, reps, 100 * sqrt(0.95 * 0.05 / reps));
	printf("%-7s %-6s %-3s | %7s %7s %7s\n", "sigma_b", "rounds", "k", "r=1.0", "r=1.5", "r=3.0");
	for (size_t is = 0; is < 2; is++)
	for (size_t ir = 0; ir < sizeof(Rs) / sizeof(*Rs); ir++)
	for (size_t ik = 0; ik < sizeof(ks) / sizeof(*ks); ik++) {
		size_t R = Rs[ir], k = ks[ik], n = R * k;
		printf("%-7.1f %-6zu %-3zu |", sbs[is], R, k);
		for (size_t ix = 0; ix < 3; ix++) {
			uint64_t st = seed ^ (0x100000001b3ULL * (is * 1000 + ir * 100 + ik * 10 + ix + 1));
			unsigned cov = 0;
			for (unsigned t = 0; t < reps; t++) {
				draw_effects(ea, R, sbs[is], &st);
				draw_effects(eb, R, sbs[is], &st);
				draw_clustered(a, ga, R, k, 100, ea, 0, &st);
				draw_clustered(b, gb, R, k, 100 * rs[ix], eb, 3, &st);
				size_t ka, kb;
				if (stats_cluster_geomeans(a, ga, n, la, &ka) ||
				    stats_cluster_geomeans(b, gb, n, lb, &kb))
					return 1;
				for (size_t i = 0; i < ka; i++)
					la[i] = log(la[i]);
				for (size_t i = 0; i < kb; i++)
					lb[i] = log(lb[i]);
				double est, lo, hi;
				if (stats_log_ratio_ci(la, ka, lb, kb, 0.95, &est, &lo, &hi))
					return 1;
				cov += rs[ix] >= lo && rs[ix] <= hi;
			}
			printf(" %6.1f%%", 100.0 * cov / reps);
		}
		printf("\n");
		fflush(stdout);
	}
	return 0;
}

#define ARMS 4
#define ACTS 4
#define CMP ((ARMS - 1) * ACTS)
#define LOOKS 3
#define ALPHA 0.05

/* Candidate verdict rules, each: a test (p per comparison, Holm over the
 * CMP comparisons) and an interval that must exclude 1, at alpha / LOOKS. */
enum rule {
	RULE_MW_SAMPLES_GCI,    /* the contract: MW on samples + grouped CI */
	RULE_MW_SAMPLES_PCI,    /* MW on samples + plain (ungrouped) CI */
	RULE_MW_MEDIANS_GCI,    /* MW on per-run medians + grouped CI */
	RULE_WELCH_GCI,         /* Welch t on log per-run geometric means + grouped CI */
	RULE_MW_SAMPLES,        /* MW on samples alone (Holm): diagnosis */
	RULE_MW_MEDIANS,        /* MW on per-run medians alone (Holm) */
	RULE_WELCH,             /* Welch on log per-run geometric means alone (Holm) */
	RULE_GCI,               /* grouped CI alone, uncorrected: diagnosis */
	N_RULES
};
static const char *const rule_name[N_RULES] = {
	"MW samples + grouped CI (contract)",
	"MW samples + plain CI",
	"MW run medians + grouped CI",
	"Welch log run geomeans + grouped CI",
	"MW samples alone (Holm)",
	"MW run medians alone (Holm)",
	"Welch log run geomeans alone (Holm)",
	"grouped CI alone (no Holm)",
};

struct cell_data {
	double v[MAX_CN];
	uint32_t g[MAX_CN];
};

/* verdict of every comparison at one look of `rounds` rounds, by rule;
 * CIs computed only where the rule's test needs them */
static int look(struct cell_data d[ARMS][ACTS], size_t rounds, size_t k, unsigned iters,
		uint64_t *st, int verdict[N_RULES][CMP])
{
	size_t n = rounds * k;
	double p_s[CMP], p_m[CMP], p_w[CMP], adj_s[CMP], adj_m[CMP], adj_w[CMP];
	double glo[CMP], ghi[CMP], plo[CMP], phi_[CMP];
	int have_g[CMP] = { 0 }, have_p[CMP] = { 0 };
	uint64_t seeds[CMP];
	double alpha = ALPHA / LOOKS;
	for (size_t arm = 1; arm < ARMS; arm++)
		for (size_t act = 0; act < ACTS; act++) {
			size_t c = (arm - 1) * ACTS + act;
			struct cell_data *a = &d[0][act], *b = &d[arm][act];
			double u, ma[MAX_R], mb[MAX_R];
			size_t na, nb;
			seeds[c] = stats_rand_next(st);
			if (stats_mann_whitney(a->v, n, b->v, n, &u, &p_s[c]) ||
			    stats_cluster_quantiles(a->v, a->g, n, 0.5, ma, &na) ||
			    stats_cluster_quantiles(b->v, b->g, n, 0.5, mb, &nb) ||
			    stats_mann_whitney(ma, na, mb, nb, &u, &p_m[c]))
				return -1;
			double t, df;
			/* Welch on the log of each run's geometric mean, as brisk
			 * compare tests (the medians above feed the rank test) */
			if (stats_cluster_geomeans(a->v, a->g, n, ma, &na) ||
			    stats_cluster_geomeans(b->v, b->g, n, mb, &nb))
				return -1;
			for (size_t i = 0; i < na; i++)
				ma[i] = log(ma[i]);
			for (size_t i = 0; i < nb; i++)
				mb[i] = log(mb[i]);
			/* one run per arm (the first look of R = 1..3): no test */
			if (stats_welch(ma, na, mb, nb, &t, &df, &p_w[c]))
				p_w[c] = 1;
		}
	if (stats_holm(p_s, CMP, adj_s) || stats_holm(p_m, CMP, adj_m) ||
	    stats_holm(p_w, CMP, adj_w))
		return -1;
	for (size_t c = 0; c < CMP; c++) {
		struct cell_data *a = &d[0][c % ACTS], *b = &d[1 + c / ACTS][c % ACTS];
		struct stats_ci ci;
		/* the grouped CI is needed by the CI-alone diagnosis anyway */
		if (stats_bootstrap_ratio_grouped(a->v, a->g, n, b->v, b->g, n, 0.5,
						  BOOT(iters, 0.95, seeds[c]), &ci))
			return -1;
		glo[c] = ci.lo;
		ghi[c] = ci.hi;
		have_g[c] = 1;
		if (adj_s[c] < alpha) {
			if (stats_bootstrap_ratio(a->v, n, b->v, n, 0.5, BOOT(iters, 0.95, seeds[c]),
						  &ci))
				return -1;
			plo[c] = ci.lo;
			phi_[c] = ci.hi;
			have_p[c] = 1;
		}
		verdict[RULE_MW_SAMPLES_GCI][c] = stats_verdict(glo[c], ghi[c], adj_s[c], alpha);
		verdict[RULE_MW_SAMPLES_PCI][c] =
			have_p[c] ? (int)stats_verdict(plo[c], phi_[c], adj_s[c], alpha) : 0;
		verdict[RULE_MW_MEDIANS_GCI][c] = stats_verdict(glo[c], ghi[c], adj_m[c], alpha);
		verdict[RULE_WELCH_GCI][c] = stats_verdict(glo[c], ghi[c], adj_w[c], alpha);
		verdict[RULE_WELCH][c] = adj_w[c] < alpha ? 1 : 0;
		verdict[RULE_MW_SAMPLES][c] = adj_s[c] < alpha ? 1 : 0;
		verdict[RULE_MW_MEDIANS][c] = adj_m[c] < alpha ? 1 : 0;
		verdict[RULE_GCI][c] = glo[c] > 1 ? STATS_SLOWER : ghi[c] < 1 ? STATS_FASTER : 0;
	}
	(void)have_g;
	return 0;
}

/* gaa: REPS simulated comparisons of ARMS x ACTS with ROUNDS rounds of K
 * samples, looks at ceil(R/3), ceil(2R/3), R; ratio != 1 scales arm 1 x
 * action 0 (power), else A/A.  A comparison stops at the first look where
 * a verdict is not "no difference"; so a simulated comparison has a false
 * positive when any comparison but the scaled one (or that one in the
 * wrong direction) gets a verdict at any look, and it finds the true
 * difference when the scaled one is called right at some look (the other
 * cells, not settled, keep the comparison going). */
static int gaa(unsigned reps, unsigned iters, uint64_t seed, size_t R, size_t k,
	       double sigma_b, double ratio)
{
	static struct cell_data d[ARMS][ACTS];
	unsigned fam[N_RULES] = { 0 }, hit[N_RULES] = { 0 };
	unsigned long cmp[N_RULES] = { 0 };
	uint64_t st = seed ^ (R * 1315423911ULL + k * 2654435761ULL +
			      (uint64_t)(sigma_b * 1000) * 97 + (uint64_t)(ratio * 1000));
	size_t at[LOOKS];
	for (size_t l = 0; l < LOOKS; l++)
		at[l] = (R * (l + 1) + LOOKS - 1) / LOOKS;
	int want = ratio < 1 ? STATS_FASTER : STATS_SLOWER;
	for (unsigned t = 0; t < reps; t++) {
		for (size_t arm = 0; arm < ARMS; arm++) {
			double eff[MAX_R];
			draw_effects(eff, R, sigma_b, &st);   /* one per arm-run, all actions */
			for (size_t act = 0; act < ACTS; act++) {
				double scale = 20.0 * (double)(act + 1);
				if (arm == 1 && act == 0)
					scale *= ratio;
				draw_clustered(d[arm][act].v, d[arm][act].g, R, k, scale, eff,
					       (uint32_t)(arm * 101 + 5), &st);
			}
		}
		int fp_cell[N_RULES][CMP] = { { 0 } }, found[N_RULES] = { 0 };
		for (size_t l = 0; l < LOOKS; l++) {
			if (l > 0 && at[l] == at[l - 1])
				continue;
			int v[N_RULES][CMP];
			if (look(d, at[l], k, iters, &st, v))
				return 1;
			for (int m = 0; m < N_RULES; m++)
				for (size_t c = 0; c < CMP; c++) {
					if (ratio != 1 && c == 0 && v[m][c] == want)
						found[m] = 1;
					else if (v[m][c])
						fp_cell[m][c] = 1;
				}
		}
		for (int m = 0; m < N_RULES; m++) {
			int any = 0;
			for (size_t c = 0; c < CMP; c++) {
				any |= fp_cell[m][c];
				cmp[m] += (unsigned long)fp_cell[m][c];
			}
			fam[m] += (unsigned)any;
			hit[m] += (unsigned)found[m];
		}
	}
	double se = 100 * sqrt(0.05 * 0.95 / reps);
	printf("%s: %u simulated comparisons, %d arms x %d actions, %zu rounds x %zu samples, "
	       "sigma_b %.1f, sigma_w %.1f, looks at rounds %zu/%zu/%zu, alpha %.2f / %d, "
	       "%u replicates\n", ratio == 1 ? "A/A" : "power", reps, ARMS, ACTS, R, k, sigma_b,
	       SIGMA_W, at[0], at[1], at[2], ALPHA, LOOKS, iters);
	if (contam > 0)
		printf("  (%.0f %% of the arm-runs x 4 slower: outlier runs)\n", 100 * contam);
	if (fastmode > 0)
		printf("  (%.0f %% of the samples in a fast mode about 30x faster: bimodal)\n",
		       100 * fastmode);
	if (ratio == 1)
		printf("  (Monte Carlo s.e. of a 5 %% rate: %.1f points)\n", se);
	for (int m = 0; m < N_RULES; m++) {
		if (ratio == 1)
			printf("  %-36s family-wise %5.1f%%  per comparison %5.2f%%\n",
			       rule_name[m], 100.0 * fam[m] / reps,
			       100.0 * (double)cmp[m] / ((double)reps * CMP));
		else
			printf("  %-36s power (ratio %.2f called %s) %5.1f%%  a false verdict "
			       "elsewhere %5.1f%%\n", rule_name[m], ratio,
			       ratio < 1 ? "faster" : "slower", 100.0 * hit[m] / reps,
			       100.0 * fam[m] / reps);
	}
	fflush(stdout);
	return 0;
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* One analysis' worth of grouped intervals: 4 arms x 4 actions x 10 runs
 * x 4 samples. */
static int timing(unsigned iters)
{
	static struct cell_data d[ARMS][ACTS];
	uint64_t st = 77;
	const size_t R = 10, k = 4, n = R * k;
	for (size_t arm = 0; arm < ARMS; arm++) {
		double eff[MAX_R];
		draw_effects(eff, R, 0.3, &st);
		for (size_t act = 0; act < ACTS; act++)
			draw_clustered(d[arm][act].v, d[arm][act].g, R, k, 20.0 * (double)(act + 1),
				       eff, (uint32_t)arm, &st);
	}
	static const double qs[] = { 0.5, 0.9, 0.99, 1.0 };
	double best_full = 1e30, best_min = 1e30, sink = 0;
	for (int rep = 0; rep < 5; rep++) {
		struct timespec t0;
		struct stats_ci ci;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		for (size_t arm = 0; arm < ARMS; arm++)
			for (size_t act = 0; act < ACTS; act++) {
				struct cell_data *b = &d[arm][act], *a = &d[0][act];
				for (size_t iq = 0; iq < 4; iq++) {
					if (stats_bootstrap_ci_grouped(b->v, b->g, n, qs[iq],
								       BOOT(iters, 0.95, 1), &ci))
						return 1;
					sink += ci.lo;
				}
				for (size_t iq = 0; arm > 0 && iq < 2; iq++) {
					if (stats_bootstrap_ratio_grouped(a->v, a->g, n, b->v, b->g, n,
									  qs[iq], BOOT(iters, 0.95, 2),
									  &ci))
						return 1;
					sink += ci.lo;
				}
			}
		double full = ms_since(&t0);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		for (size_t arm = 0; arm < ARMS; arm++)
			for (size_t act = 0; act < ACTS; act++) {
				struct cell_data *b = &d[arm][act], *a = &d[0][act];
				if (stats_bootstrap_ci_grouped(b->v, b->g, n, 0.5, BOOT(iters, 0.95, 1),
							       &ci))
					return 1;
				sink += ci.lo;
				if (arm > 0 && stats_bootstrap_ratio_grouped(a->v, a->g, n, b->v, b->g,
									     n, 0.5, BOOT(iters, 0.95, 2),
									     &ci))
					return 1;
				sink += ci.lo;
			}
		double min = ms_since(&t0);
		if (full < best_full)
			best_full = full;
		if (min < best_min)
			best_min = min;
	}
	printf("timing, %d arms x %d actions x %zu runs x %zu samples, %u replicates (best of 5):\n"
	       "  p50, p90, p99, max CIs of every cell + p50 and p90 ratios of arms 1..3: %.1f ms\n"
	       "  p50 CI of every cell + p50 ratio of arms 1..3:                          %.1f ms\n",
	       ARMS, ACTS, R, k, iters, best_full, best_min);
	return !(sink == sink);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "coverage"))
		return coverage((unsigned)parse(argv[2]), (unsigned)parse(argv[3]), parse(argv[4]));
	if (argc == 8 && !strcmp(argv[1], "aa")) {
		size_t n = parse(argv[7]);
		if (n < 1 || n > MAX_N)
			return 2;
		return aa((unsigned)parse(argv[2]), (unsigned)parse(argv[3]), parse(argv[4]),
			  parse(argv[5]), parse(argv[6]), n);
	}
	if (argc == 5 && !strcmp(argv[1], "gcoverage"))
		return gcoverage((unsigned)parse(argv[2]), (unsigned)parse(argv[3]), parse(argv[4]));
	if (argc >= 9 && argc <= 11 && !strcmp(argv[1], "gaa")) {
		size_t R = parse(argv[5]), k = parse(argv[6]);
		if (argc >= 10)
			contam = (double)parse(argv[9]) / 100;
		if (argc == 11)
			fastmode = (double)parse(argv[10]) / 100;
		if (R < 1 || R > MAX_R || k < 1 || k > MAX_K)
			return 2;
		return gaa((unsigned)parse(argv[2]), (unsigned)parse(argv[3]), parse(argv[4]), R, k,
			   (double)parse(argv[7]) / 100, (double)parse(argv[8]) / 100);
	}
	if (argc == 4 && !strcmp(argv[1], "wcoverage"))
		return wcoverage((unsigned)parse(argv[2]), parse(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "timing"))
		return timing((unsigned)parse(argv[2]));
	fprintf(stderr, "usage: compare_stats coverage REPS ITERS SEED\n"
			"       compare_stats aa REPS ITERS SEED ARMS ACTIONS N\n"
			"       compare_stats gcoverage REPS ITERS SEED\n"
			"       compare_stats gaa REPS ITERS SEED ROUNDS K SIGMA_B%% RATIO%% [OUTLIER_RUNS%% [FAST%%]]\n"
			"       compare_stats timing ITERS\n");
	return 2;
}
