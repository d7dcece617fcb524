#include "parse.h"
#include "str.h"

#include <inttypes.h>
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int suffix_is(const char *s, const char *const *names)
{
	for (; *names; names++)
		if (strcasecmp(s, *names) == 0)
			return 1;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	if (!s || !str_is_digit((unsigned char)*s))
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	static const char *const k[] = { "k", "kb", "kib", NULL };
	static const char *const m[] = { "m", "mb", "mib", NULL };
	static const char *const g[] = { "g", "gb", "gib", NULL };
	static const char *const t[] = { "t", "tb", "tib", NULL };
	static const char *const b[] = { "", "b", NULL };
	unsigned shift;
	if (suffix_is(end, b))
		shift = 0;
	else if (suffix_is(end, k))
		shift = 10;
	else if (suffix_is(end, m))
		shift = 20;
	else if (suffix_is(end, g))
		shift = 30;
	else if (suffix_is(end, t))
		shift = 40;
	else
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

int parse_duration(const char *s, uint64_t *out_ns)
{
	if (!s || !(str_is_digit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -EINVAL;
	double mul;
	if (*end == '\0' || strcmp(end, "s") == 0)
		mul = 1e9;
	else if (strcmp(end, "ms") == 0)
		mul = 1e6;
	else if (strcmp(end, "us") == 0)
		mul = 1e3;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		mul = 60e9;
	else if (strcmp(end, "h") == 0)
		mul = 3600e9;
	else
		return -EINVAL;
	double ns = v * mul;
	if (ns > 9.2e18)
		return -ERANGE;
	*out_ns = (uint64_t)llround(ns);
	return 0;
}

int parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
	if (!s || !*s)
		return -EINVAL;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_size_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	if (!s)
		return -EINVAL;
	const char *dash = strchr(s, '-');
	uint64_t a, b;
	int rc;
	if (!dash) {
		rc = parse_size(s, &a);
		if (rc)
			return rc;
		b = a;
	} else {
		char first[64];
		size_t n = (size_t)(dash - s);
		if (n == 0 || n >= sizeof(first))
			return -EINVAL;
		memcpy(first, s, n);
		first[n] = '\0';
		if ((rc = parse_size(first, &a)) || (rc = parse_size(dash + 1, &b)))
			return rc;
	}
	if (a > b)
		return -ERANGE;
	*lo = a;
	*hi = b;
	return 0;
}

void parse_format_size(char *buf, size_t len, uint64_t v)
{
	static const char sfx[] = "kmgt";
	int i = -1;
	while (v >= 1024 && v % 1024 == 0 && i < 3) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 "%c", v, sfx[i]);
}

void parse_format_iec(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	size_t u = 0;
	/* 1023.95 and up would print as "1024.0": that is the next unit's 1.0 */
	while ((u == 0 ? v >= 1024 : v >= 1023.95) && u + 1 < sizeof(unit) / sizeof(unit[0])) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", bytes);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
}
