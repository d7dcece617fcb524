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
 * usage: compare_stats coverage REPS ITERS SEED
 *        compare_stats aa REPS ITERS SEED ARMS ACTIONS N
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

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
				tmp[k] = v[stats_rand_range(&st, 0, n - 1)];
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
			double est, lo, hi, plo, phi_, blo, bhi, clo, chi;
			uint64_t bseed = stats_rand_next(&st);
			if (stats_bootstrap_ratio(a, n, b, n, qs[iq], iters, 0.95,
						  bseed, &est, &lo, &hi)) {
				fail++;
				w[k] = NAN;
				continue;
			}
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
				double u, est;
				draw(arm, n, scale, sigma, &st);
				if (stats_mann_whitney(base, n, arm, n, &u, &p[c]) ||
				    stats_bootstrap_ratio(base, n, arm, n, 0.5, iters, 0.95,
							  stats_rand_next(&st), &est, &lo[c], &hi[c]))
					return 1;
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
	fprintf(stderr, "usage: compare_stats coverage REPS ITERS SEED\n"
			"       compare_stats aa REPS ITERS SEED ARMS ACTIONS N\n");
	return 2;
}
