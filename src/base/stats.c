#include "stats.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_double);
}

double stats_percentile_sorted(const double *s, size_t n, double p)
{
	if (n == 0 || isnan(p))
		return NAN;
	if (p <= 0)
		return s[0];
	if (p >= 100)
		return s[n - 1];
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);
	double frac = h - (double)lo;
	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + frac * (s[lo + 1] - s[lo]);
}

double stats_mean(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_sd(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	if (n < 2)
		return 0;
	/* Two passes: exact enough for latencies and simple to trust. */
	double m = stats_mean(v, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return sqrt(ss / (double)(n - 1));
}

double stats_pct_over(const double *v, size_t n, double threshold)
{
	if (n == 0)
		return NAN;
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += v[i] > threshold;
	return 100.0 * (double)c / (double)n;
}

double stats_ratio(double value, double base)
{
	if (isnan(value) || isnan(base) || base <= 0)
		return NAN;
	return value / base;
}

int stats_summarize(const double *v, size_t n, double thr_2s, double thr_10s,
		    struct stats_summary *out)
{
	out->n = n;
	if (n == 0) {
		out->min = out->p50 = out->p90 = out->p99 = out->max = NAN;
		out->mean = out->sd = out->pct_over_2s = out->pct_over_10s = NAN;
		return 0;
	}
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	stats_sort(s, n);
	out->min = s[0];
	out->max = s[n - 1];
	out->p50 = stats_percentile_sorted(s, n, 50);
	out->p90 = stats_percentile_sorted(s, n, 90);
	out->p99 = stats_percentile_sorted(s, n, 99);
	out->mean = stats_mean(s, n);
	out->sd = stats_sd(s, n);
	out->pct_over_2s = stats_pct_over(s, n, thr_2s);
	out->pct_over_10s = stats_pct_over(s, n, thr_10s);
	free(s);
	return 0;
}

struct ranked {
	double v;
	int group;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       double *u, double *p)
{
	if (na == 0 || nb == 0)
		return -EINVAL;
	size_t n = na + nb;
	struct ranked *r = malloc(n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 1 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	double rank_a = 0, ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		double t = (double)(j - i + 1);
		double avg = ((double)i + (double)j) / 2.0 + 1.0;
		for (size_t k = i; k <= j; k++)
			if (r[k].group == 0)
				rank_a += avg;
		ties += t * t * t - t;
		i = j + 1;
	}
	free(r);
	double dna = (double)na, dnb = (double)nb, dn = (double)n;
	double ua = rank_a - dna * (dna + 1) / 2.0;
	double mu = dna * dnb / 2.0;
	double var = dna * dnb / 12.0 * ((dn + 1) - ties / (dn * (dn - 1)));
	*u = ua;
	if (var <= 0) {
		*p = 1.0;   /* every value equal: no evidence of a difference */
		return 0;
	}
	double z = (fabs(ua - mu) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	*p = erfc(z / sqrt(2.0));
	return 0;
}

uint64_t stats_rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t stats_rand_range(uint64_t *state, uint64_t lo, uint64_t hi)
{
	uint64_t span = hi - lo;
	if (span == UINT64_MAX)
		return stats_rand_next(state);
	return lo + stats_rand_next(state) % (span + 1);
}

uint64_t stats_rand_index(uint64_t *state, uint64_t n)
{
	uint64_t x = stats_rand_next(state);
	if (n <= UINT32_MAX)   /* multiply-shift on the high half: no division */
		return ((x >> 32) * n) >> 32;
	return x % n;
}

/* A sample ready for resampling by rank: sorted[] its values ascending,
 * rank[i] the rank (index into sorted) of input value i (ties by input
 * position).  A resample only counts how often each rank was drawn
 * (count[]) and reads its order statistics off the counts: linear in n,
 * no sort, and the same value as sorting the drawn values, bit for bit. */
struct ranked_side {
	double *sorted;
	uint32_t *rank;
};

struct vkey {
	double v;
	size_t i;
};

static int cmp_vkey(const void *x, const void *y)
{
	const struct vkey *a = x, *b = y;
	int c = cmp_double(&a->v, &b->v);
	if (c)
		return c;
	return (a->i > b->i) - (a->i < b->i);
}

/* Sort v[0..n) into sorted[] and give each value its rank; keys: n of
 * work space. */
static void rank_values(const double *v, size_t n, double *sorted, uint32_t *rank,
			struct vkey *keys)
{
	for (size_t i = 0; i < n; i++)
		keys[i] = (struct vkey){ v[i], i };
	qsort(keys, n, sizeof(*keys), cmp_vkey);
	for (size_t j = 0; j < n; j++) {
		sorted[j] = keys[j].v;
		rank[keys[j].i] = (uint32_t)j;
	}
}

/* The value of order statistic k (from 0) of the multiset counted in
 * count[] over sorted[], from rank *r on with *cum drawn below it (scans
 * go upward only). */
static double counted_order(const double *sorted, const uint32_t *count, size_t k, size_t *r,
			    size_t *cum)
{
	while (*cum + count[*r] <= k) {
		*cum += count[*r];
		(*r)++;
	}
	return sorted[*r];
}

/* The q-quantile of the m drawn values counted in count[], as
 * stats_percentile_sorted() gives it on the sorted draw, bit for bit. */
static double counted_quantile(const double *sorted, const uint32_t *count, size_t m, double q)
{
	double p = q * 100.0;
	size_t r = 0, cum = 0;
	if (p <= 0)
		return counted_order(sorted, count, 0, &r, &cum);
	double h = (double)(m - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);
	if (p >= 100 || lo + 1 >= m)
		return counted_order(sorted, count, m - 1, &r, &cum);
	double frac = h - (double)lo;
	double a = counted_order(sorted, count, lo, &r, &cum);
	double b = counted_order(sorted, count, lo + 1, &r, &cum);
	return a + frac * (b - a);
}

/* The q-quantile (0..1) of one resample (n draws with replacement) of the
 * n values of s; count: n of work space.  The draws are those of drawing
 * v[stats_rand_index(st, n)] n times. */
static double resampled_quantile(const struct ranked_side *s, size_t n, double q,
				 uint32_t *count, uint64_t *st)
{
	memset(count, 0, n * sizeof(*count));
	for (size_t i = 0; i < n; i++)
		count[s->rank[stats_rand_index(st, n)]]++;
	return counted_quantile(s->sorted, count, n, q);
}

/* Ranked copies of sides a and b (nb may be 0) in one buffer, with the
 * work space resampled_quantile needs; NULL when out of memory (or n too
 * large for a uint32 rank). */
static void *rank_sides(const double *a, size_t na, const double *b, size_t nb,
			struct ranked_side *sa, struct ranked_side *sb, uint32_t **count)
{
	size_t big = na > nb ? na : nb;
	if (big > UINT32_MAX || big > SIZE_MAX / 64)
		return NULL;
	size_t n = na + nb;
	/* [sorted a, b: doubles][keys][rank a, b: uint32][count] */
	char *m = malloc(n * sizeof(double) + big * sizeof(struct vkey) +
			 (n + big) * sizeof(uint32_t));
	if (!m)
		return NULL;
	struct vkey *keys = (struct vkey *)(void *)(m + n * sizeof(double));
	uint32_t *ranks = (uint32_t *)(void *)(m + n * sizeof(double) + big * sizeof(struct vkey));
	sa->sorted = (double *)(void *)m;
	sa->rank = ranks;
	rank_values(a, na, sa->sorted, sa->rank, keys);
	if (sb) {
		sb->sorted = sa->sorted + na;
		sb->rank = ranks + na;
		rank_values(b, nb, sb->sorted, sb->rank, keys);
	}
	*count = ranks + n;
	return m;
}

/* out's bounds: the percentile interval of `iters` bootstrap replicates
 * (sorted in place). */
static void percentile_interval(double *rep, unsigned iters, double level, struct stats_ci *out)
{
	stats_sort(rep, iters);
	double tail = (1 - level) / 2 * 100;
	out->lo = stats_percentile_sorted(rep, iters, tail);
	out->hi = stats_percentile_sorted(rep, iters, 100 - tail);
}

int stats_bootstrap_median_diff(const double *a, size_t na, const double *b, size_t nb,
				const struct stats_boot *bt, struct stats_ci *out)
{
	out->est = out->lo = out->hi = NAN;
	unsigned iters = bt->iterations;
	if (na == 0 || nb == 0 || iters == 0 || !(bt->level > 0 && bt->level < 1))
		return -EINVAL;
	struct ranked_side sa, sb;
	uint32_t *count;
	void *m = rank_sides(a, na, b, nb, &sa, &sb, &count);
	double *d = malloc(iters * sizeof(*d));
	if (!m || !d) {
		free(m);
		free(d);
		return -ENOMEM;
	}
	uint64_t st = bt->seed;
	for (unsigned i = 0; i < iters; i++) {
		double ma = resampled_quantile(&sa, na, 0.5, count, &st);
		double mb = resampled_quantile(&sb, nb, 0.5, count, &st);
		d[i] = mb - ma;
	}
	percentile_interval(d, iters, bt->level, out);
	out->est = stats_percentile_sorted(sb.sorted, nb, 50) -
		   stats_percentile_sorted(sa.sorted, na, 50);
	free(m);
	free(d);
	return 0;
}

static int all_finite(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

static int all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	return 1;
}

/* The q-quantile (0..1) of v, through a sorted copy; NaN when out of memory. */
static double quantile_of(const double *v, size_t n, double q)
{
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	stats_sort(s, n);
	double r = stats_percentile_sorted(s, n, q * 100.0);
	free(s);
	return r;
}

static int boot_args_ok(double q, const struct stats_boot *bt)
{
	return q >= 0 && q <= 1 && bt->iterations > 0 && bt->level > 0 && bt->level < 1;
}

int stats_bootstrap_ci(const double *v, size_t n, double q, const struct stats_boot *bt,
		       struct stats_ci *out)
{
	out->est = out->lo = out->hi = NAN;
	if (n == 0 || !boot_args_ok(q, bt) || !all_finite(v, n))
		return -EINVAL;
	unsigned iters = bt->iterations;
	struct ranked_side sv;
	uint32_t *count;
	void *m = rank_sides(v, n, NULL, 0, &sv, NULL, &count);
	double *rep = malloc(iters * sizeof(*rep));
	if (!m || !rep) {
		free(m);
		free(rep);
		return -ENOMEM;
	}
	double e = stats_percentile_sorted(sv.sorted, n, q * 100.0);
	uint64_t st = bt->seed;
	for (unsigned i = 0; i < iters; i++)
		rep[i] = resampled_quantile(&sv, n, q, count, &st);
	percentile_interval(rep, iters, bt->level, out);
	out->est = e;
	free(m);
	free(rep);
	return 0;
}

int stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, double q,
			  const struct stats_boot *bt, struct stats_ci *out)
{
	out->est = out->lo = out->hi = NAN;
	if (na == 0 || nb == 0 || !boot_args_ok(q, bt) || !all_finite(a, na) ||
	    !all_finite(b, nb))
		return -EINVAL;
	unsigned iters = bt->iterations;
	double qa = quantile_of(a, na, q), qb = quantile_of(b, nb, q);
	if (isnan(qa) || isnan(qb))
		return -ENOMEM;
	if (!all_positive(a, na)) {
		out->est = stats_ratio(qb, qa);   /* may still be defined; the CI is not */
		return -EDOM;
	}
	struct ranked_side sa, sb;
	uint32_t *count;
	void *m = rank_sides(a, na, b, nb, &sa, &sb, &count);
	double *rep = malloc(iters * sizeof(*rep));
	if (!m || !rep) {
		free(m);
		free(rep);
		return -ENOMEM;
	}
	uint64_t st = bt->seed;
	for (unsigned i = 0; i < iters; i++) {
		double ra = resampled_quantile(&sa, na, q, count, &st);
		double rb = resampled_quantile(&sb, nb, q, count, &st);
		rep[i] = rb / ra;   /* ra > 0: every base value is */
	}
	percentile_interval(rep, iters, bt->level, out);
	out->est = qb / qa;
	free(m);
	free(rep);
	return 0;
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;
	int c = cmp_double(&a->p, &b->p);
	if (c)
		return c;
	return (a->i > b->i) - (a->i < b->i);   /* stable: qsort is not */
}

int stats_holm(const double *p, size_t n, double *adjusted)
{
	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(p[i] >= 0 && p[i] <= 1))
			return -EINVAL;
	struct pidx *o = malloc(n * sizeof(*o));
	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		o[i] = (struct pidx){ p[i], i };
	qsort(o, n, sizeof(*o), cmp_pidx);
	/* R: pmin(1, cummax((n - i + 1) * p[o]))[ro], i = 1..n */
	double run = 0;
	for (size_t k = 0; k < n; k++) {
		double v = (double)(n - k) * o[k].p;
		if (v > run)
			run = v;
		adjusted[o[k].i] = run < 1 ? run : 1;
	}
	free(o);
	return 0;
}

enum stats_verdict stats_verdict(double ratio_lo, double ratio_hi,
				 double p_adjusted, double alpha)
{
	if (!(alpha > 0 && alpha < 1) || !(p_adjusted >= 0 && p_adjusted < alpha) ||
	    isnan(ratio_lo) || isnan(ratio_hi) || ratio_lo > ratio_hi)
		return STATS_NO_DIFFERENCE;
	if (ratio_hi < 1)
		return STATS_FASTER;
	if (ratio_lo > 1)
		return STATS_SLOWER;
	return STATS_NO_DIFFERENCE;
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case STATS_FASTER:
		return "faster";
	case STATS_SLOWER:
		return "slower";
	case STATS_NO_DIFFERENCE:
		break;
	}
	return "no difference detectable";
}

/* ---- Clustered samples (two-stage bootstrap) ---- */

struct gkey {
	uint32_t g;
	size_t i;
};

static int cmp_gkey(const void *x, const void *y)
{
	const struct gkey *a = x, *b = y;
	if (a->g != b->g)
		return (a->g > b->g) - (a->g < b->g);
	return (a->i > b->i) - (a->i < b->i);
}

/* One side's samples for resampling by rank.  sorted[] holds the values
 * ascending; rank[] the rank (index into sorted) of each sample, ordered
 * by cluster id and, within a cluster, by input position: cluster c is
 * rank[off[c] .. off[c + 1]).  A replicate only counts how often each rank
 * was drawn (count[]), and reads its order statistics off the counts: no
 * sort, no comparison of values. */
struct clusters {
	double *sorted;
	uint32_t *rank, *count;
	size_t *off;
	size_t nc, n;
};

/* Bytes of one side's arrays in the scratch buffer, 8-aligned parts. */
static size_t align8(size_t x)
{
	return (x + 7) & ~(size_t)7;
}

static size_t clusters_bytes(size_t n)
{
	return n * sizeof(double) + align8(2 * n * sizeof(uint32_t)) + (n + 1) * sizeof(size_t);
}

/* Lay c out at mem (clusters_bytes(n)) and fill it; keys: n * 16 bytes
 * of work space. */
static void clusters_build(const double *v, const uint32_t *g, size_t n, char *mem,
			   void *keys, struct clusters *c)
{
	c->n = n;
	c->sorted = (double *)(void *)mem;
	c->rank = (uint32_t *)(void *)(mem + n * sizeof(double));
	c->count = c->rank + n;
	c->off = (size_t *)(void *)(mem + n * sizeof(double) + align8(2 * n * sizeof(uint32_t)));
	rank_values(v, n, c->sorted, c->count, keys);   /* count: for now, rank of sample i */
	struct gkey *gk = keys;
	for (size_t i = 0; i < n; i++)
		gk[i] = (struct gkey){ g[i], i };
	qsort(gk, n, sizeof(*gk), cmp_gkey);
	c->nc = 0;
	for (size_t j = 0; j < n; j++) {
		c->rank[j] = c->count[gk[j].i];
		if (j == 0 || gk[j].g != gk[j - 1].g)
			c->off[c->nc++] = j;
	}
	c->off[c->nc] = n;
}

/* One two-stage replicate's q-quantile: nc clusters drawn with
 * replacement (no draw when there is one), then within each drawn cluster
 * its size of samples with replacement. */
static double cluster_replicate(const struct clusters *c, double q, uint64_t *st)
{
	size_t m = 0;
	memset(c->count, 0, c->n * sizeof(*c->count));
	for (size_t k = 0; k < c->nc; k++) {
		size_t ci = c->nc == 1 ? 0 : (size_t)stats_rand_index(st, c->nc);
		const uint32_t *cr = c->rank + c->off[ci];
		size_t sz = c->off[ci + 1] - c->off[ci];
		for (size_t j = 0; j < sz; j++)
			c->count[cr[stats_rand_index(st, sz)]]++;
		m += sz;
	}
	return counted_quantile(c->sorted, c->count, m, q);
}

/* The k-th smallest (from 0) of a[0..n), by selection (Wirth): afterwards
 * a[0..k) <= a[k] <= a[k+1..n). */
static double kth_smallest(double *a, size_t n, size_t k)
{
	ptrdiff_t l = 0, r = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
	while (l < r) {
		double x = a[kk];
		ptrdiff_t i = l, j = r;
		do {
			while (a[i] < x)
				i++;
			while (x < a[j])
				j--;
			if (i <= j) {
				double t = a[i];
				a[i] = a[j];
				a[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			r = j;
	}
	return a[kk];
}

/* stats_percentile_sorted() of v once sorted, bit for bit, by selecting
 * the two order statistics it interpolates (v is reordered). */
static double select_percentile(double *v, size_t n, double p)
{
	if (p <= 0)
		return kth_smallest(v, n, 0);
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);
	if (p >= 100 || lo + 1 >= n)
		return kth_smallest(v, n, n - 1);
	double frac = h - (double)lo;
	double a = kth_smallest(v, n, lo), b = v[lo + 1];
	for (size_t i = lo + 2; i < n; i++)
		if (v[i] < b)
			b = v[i];
	return a + frac * (b - a);
}

/* percentile_interval() without sorting (and without qsort's allocation). */
static void select_interval(double *rep, unsigned iters, double level, struct stats_ci *out)
{
	double tail = (1 - level) / 2 * 100;
	out->lo = select_percentile(rep, iters, tail);
	out->hi = select_percentile(rep, iters, 100 - tail);
}

/* The one scratch buffer: [rep: iters doubles][side 0][side 1][keys]. */
static void *boot_scratch(unsigned iters, const size_t *n, int sides, double **rep,
			  char **side, void **keys)
{
	size_t total = align8((size_t)iters * sizeof(double)), kmax = 0;
	for (int k = 0; k < sides; k++) {
		/* ranks are uint32; bound n well below any size_t overflow */
		if (n[k] > UINT32_MAX || n[k] > SIZE_MAX / 64)
			return NULL;
		side[k] = (char *)(uintptr_t)total;   /* offset for now */
		total += align8(clusters_bytes(n[k]));
		if (n[k] > kmax)
			kmax = n[k];
	}
	char *b = malloc(total + kmax * sizeof(struct vkey));
	if (!b)
		return NULL;
	for (int k = 0; k < sides; k++)
		side[k] = b + (uintptr_t)side[k];
	*rep = (double *)(void *)b;
	*keys = b + total;
	return b;
}

int stats_bootstrap_ci_grouped(const double *v, const uint32_t *g, size_t n, double q,
			       const struct stats_boot *bt, struct stats_ci *out)
{
	out->est = out->lo = out->hi = NAN;
	if (n == 0 || !g || !boot_args_ok(q, bt) || !all_finite(v, n))
		return -EINVAL;
	unsigned iters = bt->iterations;
	double *rep;
	char *side[1];
	void *keys;
	void *buf = boot_scratch(iters, &n, 1, &rep, side, &keys);
	if (!buf)
		return -ENOMEM;
	struct clusters c;
	clusters_build(v, g, n, side[0], keys, &c);
	double e = stats_percentile_sorted(c.sorted, n, q * 100.0);
	uint64_t st = bt->seed;
	for (unsigned i = 0; i < iters; i++)
		rep[i] = cluster_replicate(&c, q, &st);
	select_interval(rep, iters, bt->level, out);
	out->est = e;
	free(buf);
	return 0;
}

int stats_bootstrap_ratio_grouped(const double *a, const uint32_t *ga, size_t na,
				  const double *b, const uint32_t *gb, size_t nb, double q,
				  const struct stats_boot *bt, struct stats_ci *out)
{
	out->est = out->lo = out->hi = NAN;
	if (na == 0 || nb == 0 || !ga || !gb || !boot_args_ok(q, bt) || !all_finite(a, na) ||
	    !all_finite(b, nb))
		return -EINVAL;
	unsigned iters = bt->iterations;
	double *rep;
	char *side[2];
	void *keys;
	const size_t ns[2] = { na, nb };
	void *buf = boot_scratch(iters, ns, 2, &rep, side, &keys);
	if (!buf)
		return -ENOMEM;
	struct clusters ca, cb;
	clusters_build(a, ga, na, side[0], keys, &ca);
	clusters_build(b, gb, nb, side[1], keys, &cb);
	double qa = stats_percentile_sorted(ca.sorted, na, q * 100.0);
	double qb = stats_percentile_sorted(cb.sorted, nb, q * 100.0);
	if (!(ca.sorted[0] > 0)) {   /* some baseline value <= 0 */
		out->est = stats_ratio(qb, qa);   /* may still be defined; the CI is not */
		free(buf);
		return -EDOM;
	}
	uint64_t st = bt->seed;
	for (unsigned i = 0; i < iters; i++) {
		double ra = cluster_replicate(&ca, q, &st);
		double rb = cluster_replicate(&cb, q, &st);
		rep[i] = rb / ra;   /* ra > 0: every base value is */
	}
	select_interval(rep, iters, bt->level, out);
	out->est = qb / qa;
	free(buf);
	return 0;
}

/* The q-quantile of the n values at v, through tmp (sorted there). */
static double side_quantile(const double *v, size_t n, double q, double *tmp)
{
	memcpy(tmp, v, n * sizeof(*tmp));
	stats_sort(tmp, n);
	return stats_percentile_sorted(tmp, n, q * 100.0);
}

/* Paired clusters ready for resampling: cluster k's baseline values
 * ranked within the cluster at a.sorted/a.rank + aoff[k] - aoff[0] (so
 * with b), count the work space of its largest side.  A replicate of a
 * side costs its size (resampled_quantile), however large the cluster. */
struct paired {
	const size_t *aoff, *boff;
	size_t nc;
	struct ranked_side a, b;
	uint32_t *count;
	void *mem;
};

/* Check the arguments of the paired bootstraps and rank each cluster's
 * sides.  0; -EINVAL, -EDOM, -ENOMEM as stats_bootstrap_ratio_paired. */
static int paired_prepare(const double *a, const size_t *aoff, const double *b,
			  const size_t *boff, size_t nc, struct paired *p)
{
	memset(p, 0, sizeof(*p));
	if (!nc || !a || !b || !aoff || !boff)
		return -EINVAL;
	size_t big = 0;
	for (size_t k = 0; k < nc; k++) {
		if (aoff[k + 1] <= aoff[k] || boff[k + 1] <= boff[k])
			return -EINVAL;
		size_t ka = aoff[k + 1] - aoff[k], kb = boff[k + 1] - boff[k];
		big = ka > big ? ka : big;
		big = kb > big ? kb : big;
	}
	size_t na = aoff[nc] - aoff[0], nb = boff[nc] - boff[0];
	if (!all_finite(a + aoff[0], na) || !all_finite(b + boff[0], nb))
		return -EINVAL;
	if (!all_positive(a + aoff[0], na) || !all_positive(b + boff[0], nb))
		return -EDOM;
	size_t n = na + nb;
	if (big > UINT32_MAX || n > SIZE_MAX / 64)
		return -ENOMEM;
	/* [sorted a, b: doubles][keys][rank a, b: uint32][count] */
	char *m = malloc(n * sizeof(double) + big * sizeof(struct vkey) +
			 (n + big) * sizeof(uint32_t));
	if (!m)
		return -ENOMEM;
	struct vkey *keys = (struct vkey *)(void *)(m + n * sizeof(double));
	uint32_t *ranks = (uint32_t *)(void *)(m + n * sizeof(double) + big * sizeof(struct vkey));
	*p = (struct paired){ aoff, boff, nc, { (double *)(void *)m, ranks },
			      { (double *)(void *)m + na, ranks + na }, ranks + n, m };
	for (size_t k = 0; k < nc; k++) {
		size_t oa = aoff[k] - aoff[0], ob = boff[k] - boff[0];
		rank_values(a + aoff[k], aoff[k + 1] - aoff[k], p->a.sorted + oa, p->a.rank + oa,
			    keys);
		rank_values(b + boff[k], boff[k + 1] - boff[k], p->b.sorted + ob, p->b.rank + ob,
			    keys);
	}
	return 0;
}

/* Cluster k's own ratio quantile_q(b_k) / quantile_q(a_k). */
static double paired_own(const struct paired *p, size_t k, double q)
{
	size_t oa = p->aoff[k] - p->aoff[0], ob = p->boff[k] - p->boff[0];
	double qa = stats_percentile_sorted(p->a.sorted + oa, p->aoff[k + 1] - p->aoff[k], q * 100.0);
	double qb = stats_percentile_sorted(p->b.sorted + ob, p->boff[k + 1] - p->boff[k], q * 100.0);
	return qb / qa;
}

/* The ratio of one resample of cluster k: its baseline side drawn, then
 * its arm side (each its own size, with replacement). */
static double paired_replicate(const struct paired *p, size_t k, double q, uint64_t *st)
{
	size_t oa = p->aoff[k] - p->aoff[0], ob = p->boff[k] - p->boff[0];
	struct ranked_side sa = { p->a.sorted + oa, p->a.rank + oa };
	struct ranked_side sb = { p->b.sorted + ob, p->b.rank + ob };
	double ra = resampled_quantile(&sa, p->aoff[k + 1] - p->aoff[k], q, p->count, st);
	double rb = resampled_quantile(&sb, p->boff[k + 1] - p->boff[k], q, p->count, st);
	return rb / ra;
}

/* The cluster drawn by replicate draw j (no draw when there is one). */
static size_t paired_draw(const struct paired *p, uint64_t *st)
{
	return p->nc == 1 ? 0 : (size_t)stats_rand_index(st, p->nc);
}

int stats_bootstrap_ratio_paired(const double *a, const size_t *aoff, const double *b,
				 const size_t *boff, size_t nc, double q,
				 const struct stats_boot *bt, struct stats_ci *out, double *per)
{
	out->est = out->lo = out->hi = NAN;
	for (size_t k = 0; per && k < nc; k++)
		per[k] = NAN;
	if (!boot_args_ok(q, bt))
		return -EINVAL;
	unsigned iters = bt->iterations;
	struct paired p;
	int rc = paired_prepare(a, aoff, b, boff, nc, &p);
	if (rc < 0)
		return rc;
	double *rep = malloc((size_t)iters * sizeof(*rep));
	if (!rep) {
		free(p.mem);
		return -ENOMEM;
	}
	double sum = 0;
	for (size_t k = 0; k < nc; k++) {
		double r = paired_own(&p, k, q);
		if (per)
			per[k] = r;
		sum += log(r);
	}
	uint64_t st = bt->seed;
	for (unsigned i = 0; i < iters; i++) {
		double s = 0;
		for (size_t j = 0; j < nc; j++)
			s += log(paired_replicate(&p, paired_draw(&p, &st), q, &st));
		rep[i] = exp(s / (double)nc);
	}
	percentile_interval(rep, iters, bt->level, out);
	out->est = exp(sum / (double)nc);
	free(p.mem);
	free(rep);
	return 0;
}

/* One summary per cluster of v (g as in stats_cluster_quantiles): the
 * q-quantile, or the geometric mean when geo. */
static int cluster_summaries(const double *v, const uint32_t *g, size_t n, double q, int geo,
			     double *out, size_t *n_out)
{
	*n_out = 0;
	if (n == 0 || !g || !(q >= 0 && q <= 1) || !all_finite(v, n))
		return -EINVAL;
	if (geo)
		for (size_t i = 0; i < n; i++)
			if (!(v[i] > 0))
				return -EDOM;
	if (n > SIZE_MAX / (sizeof(struct gkey) + sizeof(double)))
		return -ENOMEM;
	/* one buffer: the keys, then one cluster's values to sort */
	char *b = malloc(n * (sizeof(struct gkey) + sizeof(double)));
	if (!b)
		return -ENOMEM;
	struct gkey *gk = (struct gkey *)(void *)b;
	double *tmp = (double *)(void *)(b + n * sizeof(struct gkey));
	for (size_t i = 0; i < n; i++)
		gk[i] = (struct gkey){ g[i], i };
	qsort(gk, n, sizeof(*gk), cmp_gkey);
	size_t nc = 0;
	for (size_t j = 0; j < n;) {
		size_t e = j, m = 0;
		while (e < n && gk[e].g == gk[j].g)
			tmp[m++] = v[gk[e++].i];
		if (geo) {
			double sum = 0;
			for (size_t k = 0; k < m; k++)
				sum += log(tmp[k]);
			out[nc++] = exp(sum / (double)m);
		} else {
			stats_sort(tmp, m);
			out[nc++] = stats_percentile_sorted(tmp, m, q * 100.0);
		}
		j = e;
	}
	*n_out = nc;
	free(b);
	return 0;
}

int stats_cluster_quantiles(const double *v, const uint32_t *g, size_t n, double q,
			    double *out, size_t *n_out)
{
	return cluster_summaries(v, g, n, q, 0, out, n_out);
}

int stats_cluster_geomeans(const double *v, const uint32_t *g, size_t n, double *out,
			   size_t *n_out)
{
	return cluster_summaries(v, g, n, 0.5, 1, out, n_out);
}

/* ---- Student t ---- */

/* The regularized incomplete beta I_x(a, b) from its continued fraction,
 * DLMF 8.17.22:
 *
 *   I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) * 1 / (1 + d_1 / (1 + d_2 / (1 + ...)))
 *   d_2m   =  m (b - m) x / ((a + 2m - 1)(a + 2m))
 *   d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
 *
 * which converges fast for x < (a + 1) / (a + b + 2); above that point
 * I_x(a, b) = 1 - I_(1-x)(b, a) (DLMF 8.17.4). */

/* The n-th partial numerator d_n (n >= 1) of DLMF 8.17.22. */
static double beta_cf_term(double a, double b, double x, unsigned n)
{
	double m = (double)(n / 2);
	if (n % 2 == 0)
		return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
	return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
}

/* 1 + d_1 / (1 + d_2 / (1 + ...)) by the modified Lentz method (Thompson
 * and Barnett 1986): f_n = f_(n-1) C_n D_n with C_n = 1 + d_n / C_(n-1),
 * D_n = 1 / (1 + d_n D_(n-1)), a zero denominator replaced by a tiny
 * number; stops when C_n D_n is 1 to within a few ulps. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 4 * DBL_EPSILON;
	double f = 1, c = 1, d = 0;
	for (unsigned n = 1; n <= 1000; n++) {
		double dn = beta_cf_term(a, b, x, n);
		d = 1 + dn * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + dn / c;
		if (fabs(c) < tiny)
			c = tiny;
		double delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < eps)
			break;
	}
	return f;
}

/* I_x(a, b) for a, b > 0. */
static double beta_inc(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	int flip = x > (a + 1) / (a + b + 2);
	if (flip) {
		double t = a;
		a = b;
		b = t;
		x = 1 - x;
	}
	/* x^a (1 - x)^b / B(a, b), in logs: lgamma for B */
	double lfront = a * log(x) + b * log1p(-x) + lgamma(a + b) - lgamma(a) - lgamma(b);
	double r = exp(lfront) / (a * beta_cf(a, b, x));
	return flip ? 1 - r : r;
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0) || isinf(df))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_x(df/2, 1/2), x = df / (df + t^2) (Abramowitz and
	 * Stegun 26.7.1) */
	double tail = beta_inc(df / 2, 0.5, df / (df + t * t)) / 2;
	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0) || isinf(df))
		return NAN;
	if (p == 0.5)
		return 0;
	/* P(T > t) = I_x(df/2, 1/2) / 2 with x = df / (df + t^2), decreasing
	 * in t: solve I_x = 2 * tail for x by bisection (I_x increases in x) */
	double tail = p > 0.5 ? 1 - p : p, target = 2 * tail;
	double xlo = 0, xhi = 1;
	for (int i = 0; i < 200 && xhi - xlo > 1e-17 * xhi; i++) {
		double mid = (xlo + xhi) / 2;
		if (beta_inc(df / 2, 0.5, mid) < target)
			xlo = mid;
		else
			xhi = mid;
	}
	double x = (xlo + xhi) / 2;
	double t = sqrt(df * (1 - x) / x);
	return p > 0.5 ? t : -t;
}

int stats_mean_ci(const double *v, size_t n, double level, double *est, double *lo,
		  double *hi)
{
	*est = *lo = *hi = NAN;
	if (n == 0 || !(level > 0 && level < 1) || !all_finite(v, n))
		return -EINVAL;
	double m = stats_mean(v, n);
	*est = m;
	if (n == 1)
		return 0;
	double half = stats_t_quantile(1 - (1 - level) / 2, (double)(n - 1)) *
		      stats_sd(v, n) / sqrt((double)n);
	*lo = m - half;
	*hi = m + half;
	return 0;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, double *t,
		double *df, double *p)
{
	*t = *df = *p = NAN;
	if (na < 2 || nb < 2 || !all_finite(a, na) || !all_finite(b, nb))
		return -EINVAL;
	double ma = stats_mean(a, na), mb = stats_mean(b, nb);
	double sa = stats_sd(a, na), sb = stats_sd(b, nb);
	double va = sa * sa / (double)na, vb = sb * sb / (double)nb;
	double se2 = va + vb;
	if (!(se2 > 0)) {   /* no spread on either side */
		*t = mb == ma ? 0 : mb > ma ? INFINITY : -INFINITY;
		*p = mb == ma ? 1 : 0;
		return 0;
	}
	double tt = (mb - ma) / sqrt(se2);
	double d = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	*t = tt;
	*df = d;
	*p = 2 * stats_t_cdf(-fabs(tt), d);
	return 0;
}

int stats_log_ratio_ci(const double *la, size_t na, const double *lb, size_t nb, double level,
		       double *est, double *lo, double *hi)
{
	*est = *lo = *hi = NAN;
	if (!na || !nb || !(level > 0 && level < 1))
		return -EINVAL;
	double ma = stats_mean(la, na), mb = stats_mean(lb, nb);
	if (!isfinite(ma) || !isfinite(mb))
		return -EINVAL;
	*est = exp(mb - ma);
	if (na < 2 || nb < 2)
		return 0;
	double sa = stats_sd(la, na), sb = stats_sd(lb, nb);
	double va = sa * sa / (double)na, vb = sb * sb / (double)nb, se = sqrt(va + vb);
	if (!(se > 0)) {   /* no spread on either side */
		*lo = *hi = *est;
		return 0;
	}
	double df = (va + vb) * (va + vb) /
		    (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	double q = stats_t_quantile(0.5 + level / 2, df);
	*lo = exp(mb - ma - q * se);
	*hi = exp(mb - ma + q * se);
	return 0;
}

/* ---- robust pooling over machines ---- */

/* The median of v (n > 0), sorting a copy in tmp. */
static double median_of(const double *v, size_t n, double *tmp)
{
	return side_quantile(v, n, 0.5, tmp);
}

int stats_median_ci_order(const double *v, size_t n, double level, double *est, double *lo,
			  double *hi)
{
	*est = *lo = *hi = NAN;
	if (!n || !all_finite(v, n) || !(level > 0 && level < 1))
		return -EINVAL;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	*est = median_of(v, n, s);   /* s is sorted now */
	/* P(X < k) for X ~ Binomial(n, 1/2), k = 1, 2, ...: the largest k
	 * whose tail is within (1 - level) / 2 */
	double tail = (1 - level) / 2, cdf = 0, logn2 = (double)n * log(0.5);
	size_t k = 0;
	for (size_t j = 0; j < n / 2; j++) {
		cdf += exp(lgamma((double)n + 1) - lgamma((double)j + 1) -
			   lgamma((double)(n - j) + 1) + logn2);   /* P(X = j) */
		if (cdf > tail)
			break;
		k = j + 1;
	}
	if (k) {
		*lo = s[k - 1];
		*hi = s[n - k];
	}
	free(s);
	return 0;
}

static double bounded(double r, double cap)
{
	return r > cap ? cap : r < 1 / cap ? 1 / cap : r;
}

int stats_bootstrap_median_ratio_paired(const double *a, const size_t *aoff, const double *b,
					const size_t *boff, size_t nc, double q,
					const struct stats_boot *bt, double cap,
					struct stats_ci *out, double *per)
{
	out->est = out->lo = out->hi = NAN;
	for (size_t k = 0; per && k < nc; k++)
		per[k] = NAN;
	if (!boot_args_ok(q, bt) || !(cap > 1))
		return -EINVAL;
	unsigned iters = bt->iterations;
	struct paired p;
	int rc = paired_prepare(a, aoff, b, boff, nc, &p);
	if (rc < 0)
		return rc;
	double *own = malloc(2 * nc * sizeof(*own));
	double *rep = malloc((size_t)iters * sizeof(*rep));
	if (!own || !rep) {
		free(p.mem);
		free(own);
		free(rep);
		return -ENOMEM;
	}
	double *tmp = own + nc;
	for (size_t k = 0; k < nc; k++) {
		own[k] = bounded(paired_own(&p, k, q), cap);
		if (per)
			per[k] = own[k];
	}
	out->est = median_of(own, nc, tmp);
	uint64_t st = bt->seed;
	for (unsigned i = 0; i < iters; i++) {
		for (size_t j = 0; j < nc; j++)
			own[j] = bounded(paired_replicate(&p, paired_draw(&p, &st), q, &st), cap);
		rep[i] = select_percentile(own, nc, 50);   /* median_of's, without a sort */
	}
	percentile_interval(rep, iters, bt->level, out);
	free(p.mem);
	free(own);
	free(rep);
	return 0;
}
