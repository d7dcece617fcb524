/* loaddist — random offsets' distributions, a mixed load's direction,
 * sequential skips.  See loaddist.h. */
#include "loaddist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "stats.h"

/* A double in [0, 1). */
static double unit(uint64_t *rng)
{
	return (double)(stats_rand_next(rng) >> 11) * 0x1.0p-53;
}

static int parse_double(const char *t, double lo, double hi, double *out)
{
	char *end;
	if (!*t)
		return -EINVAL;
	double v = strtod(t, &end);
	if (*end || !(v >= lo && v <= hi) || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_zones(char *t, struct load_spec *s)
{
	unsigned n = 0, acc = 0, size = 0, open_size = 0;
	char *save = NULL;
	for (char *it = strtok_r(t, ":", &save); it; it = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(it, '/');
		int64_t a, z = -1;
		if (!slash || n >= LOAD_ZONES_MAX || open_size)
			return -EINVAL;
		*slash = '\0';
		if (parse_int(it, 1, 100, &a) < 0 ||
		    (slash[1] && parse_int(slash + 1, 1, 100, &z) < 0))
			return -EINVAL;
		if (z < 0)
			open_size = 1;
		s->zones[n].access_pct = (unsigned)a;
		s->zones[n].size_pct = z < 0 ? 0 : (unsigned)z;
		acc += (unsigned)a;
		size += z < 0 ? 0 : (unsigned)z;
		n++;
	}
	if (!n || acc != 100 || size > 100 || (open_size && size == 100) ||
	    (!open_size && size != 100))
		return -EINVAL;
	if (open_size)
		s->zones[n - 1].size_pct = 100 - size;
	s->n_zones = n;
	return 0;
}

int loaddist_parse(const char *text, struct load_spec *s)
{
	char buf[256];
	if (strlen(text) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, text);
	char *arg = strchr(buf, ':');
	if (arg)
		*arg++ = '\0';
	struct load_spec t = *s;
	t.dist_a = t.dist_b = 0;
	t.n_zones = 0;
	memset(t.zones, 0, sizeof(t.zones));
	int rc = 0;
	if (strcmp(buf, "random") == 0 && !arg) {
		t.dist = LOAD_DIST_RANDOM;
	} else if (strcmp(buf, "zipf") == 0 && arg) {
		t.dist = LOAD_DIST_ZIPF;
		rc = parse_double(arg, 1e-6, 100, &t.dist_a);
		if (rc == 0 && fabs(t.dist_a - 1.0) < 1e-9)
			rc = -EINVAL;      /* fio: theta 1 is not allowed */
	} else if (strcmp(buf, "pareto") == 0 && arg) {
		t.dist = LOAD_DIST_PARETO;
		rc = parse_double(arg, 1e-6, 1 - 1e-6, &t.dist_a);
	} else if (strcmp(buf, "normal") == 0 && arg) {
		char *c = strchr(arg, ':');
		t.dist = LOAD_DIST_NORMAL;
		t.dist_b = 0.5;
		if (c)
			*c++ = '\0';
		rc = parse_double(arg, 1e-6, 100, &t.dist_a);
		if (rc == 0 && c)
			rc = parse_double(c, 0, 1, &t.dist_b);
	} else if (strcmp(buf, "zoned") == 0 && arg) {
		t.dist = LOAD_DIST_ZONED;
		rc = parse_zones(arg, &t);
	} else {
		rc = -EINVAL;
	}
	if (rc < 0)
		return -EINVAL;
	*s = t;
	return 0;
}

void loaddist_format(const struct load_spec *s, char *buf, size_t len)
{
	size_t o;
	switch (s->dist) {
	case LOAD_DIST_ZIPF:
		snprintf(buf, len, "zipf:%g", s->dist_a);
		return;
	case LOAD_DIST_PARETO:
		snprintf(buf, len, "pareto:%g", s->dist_a);
		return;
	case LOAD_DIST_NORMAL:
		snprintf(buf, len, "normal:%g:%g", s->dist_a, s->dist_b);
		return;
	case LOAD_DIST_ZONED:
		o = (size_t)snprintf(buf, len, "zoned");
		for (unsigned i = 0; i < s->n_zones && o < len; i++)
			o += (size_t)snprintf(buf + o, len - o, ":%u/%u", s->zones[i].access_pct,
					      s->zones[i].size_pct);
		return;
	case LOAD_DIST_RANDOM:
		break;
	}
	snprintf(buf, len, "random");
}

/* Zipf by rejection-inversion (W. Hörmann, G. Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * 1996): a rank in 1..n with weight k^-theta, in O(1) without a table. */
static double helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

static double zipf_h_int(double x, double e)
{
	double lx = log(x);
	return helper2((1 - e) * lx) * lx;
}

static double zipf_h(double x, double e)
{
	return exp(-e * log(x));
}

static double zipf_h_inv(double x, double e)
{
	double t = x * (1 - e);
	if (t < -1)
		t = -1;
	return exp(helper1(t) * x);
}

static uint64_t zipf_rank(double e, uint64_t n, uint64_t *rng)
{
	double hx1 = zipf_h_int(1.5, e) - 1, hn = zipf_h_int((double)n + 0.5, e);
	double sq = 2 - zipf_h_inv(zipf_h_int(2.5, e) - zipf_h(2, e), e);
	for (int tries = 0; tries < 1000; tries++) {
		double u = hn + unit(rng) * (hx1 - hn);
		double x = zipf_h_inv(u, e);
		double kd = floor(x + 0.5);
		if (kd < 1)
			kd = 1;
		if (kd > (double)n)
			kd = (double)n;
		if (kd - x <= sq || u >= zipf_h_int(kd + 0.5, e) - zipf_h(kd, e))
			return (uint64_t)kd;
	}
	return 1;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Rank r (0 = hottest) to a slot: r * m mod n with m coprime to n, a
 * fixed permutation that spreads the hot ranks over the file. */
static uint64_t scatter(uint64_t r, uint64_t n)
{
	if (n < 3)
		return r % n;
	uint64_t m = (uint64_t)((double)n * 0.6180339887) | 1;
	while (gcd(m, n) != 1)
		m += 2;
	return (uint64_t)(((unsigned __int128)r * m) % n);
}

static double gauss(uint64_t *rng)
{
	double u1 = unit(rng), u2 = unit(rng);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

uint64_t loaddist_slot(const struct load_spec *s, uint64_t slots, uint64_t *rng)
{
	if (slots <= 1)
		return 0;
	double n = (double)slots, x;
	uint64_t base = 0, span = slots;
	switch (s->dist) {
	case LOAD_DIST_ZIPF:
		return scatter(zipf_rank(s->dist_a, slots, rng) - 1, slots);
	case LOAD_DIST_PARETO:
		x = (n - 1) * pow(unit(rng), log(s->dist_a) / log(1 - s->dist_a));
		return scatter(slots - 1 - (uint64_t)x, slots);   /* rank 0 = hottest */
	case LOAD_DIST_NORMAL:
		x = fmod(s->dist_b * n + gauss(rng) * s->dist_a / 100 * n, n);
		if (x < 0)
			x += n;
		return (uint64_t)x < slots ? (uint64_t)x : slots - 1;
	case LOAD_DIST_ZONED: {
		uint64_t r = stats_rand_range(rng, 0, 99), at = 0;
		for (unsigned i = 0; i < s->n_zones; i++) {
			uint64_t len = (uint64_t)((double)slots * s->zones[i].size_pct / 100);
			if (i == s->n_zones - 1 || at + len > slots)
				len = slots - at;
			if (r < s->zones[i].access_pct || i == s->n_zones - 1) {
				base = at;
				span = len ? len : 1;
				break;
			}
			r -= s->zones[i].access_pct;
			at += len;
		}
		if (base >= slots)
			base = slots - 1;
		if (base + span > slots)
			span = slots - base;
		break;
	}
	case LOAD_DIST_RANDOM:
		break;
	}
	return base + stats_rand_range(rng, 0, span - 1);
}

double loaddist_paced(const struct load_spec *s, uint64_t len, uint64_t *rng)
{
	if (!s->poisson)
		return (double)len;
	return (double)len * -log1p(-unit(rng));
}

int loaddist_reads(const struct load_spec *s, uint64_t *rng)
{
	return stats_rand_range(rng, 0, 99) < s->mix_read;
}

uint64_t loaddist_seq_next(const struct load_spec *s, uint64_t off, uint64_t len,
			   uint64_t next_len)
{
	uint64_t end = s->size;
	if (s->skip >= 0) {
		off += len + (uint64_t)s->skip;
		return end && off + next_len > end ? 0 : off;
	}
	uint64_t back = (uint64_t)(-(s->skip + 1)) + 1;   /* |skip| without overflow */
	if (off + len >= back) {
		off = off + len - back;
		if (!end || off + next_len <= end)
			return off;
	}
	/* before the start: on from the region's last whole 4 KiB block */
	if (!end || end < next_len)
		return 0;
	return (end - next_len) / 4096 * 4096;
}
