/* loadthink — fio's thinktime and startdelay for loads.  See loadthink.h. */
#include "loadthink.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "now.h"
#include "stats.h"

#define US 1000ull

static const struct { const char *name; uint64_t ns; } units[] = {
	{ "us", US }, { "usec", US }, { "ms", 1000 * US }, { "msec", 1000 * US },
	{ "s", 1000000 * US }, { "sec", 1000000 * US }, { "m", 60000000 * US },
	{ "min", 60000000 * US }, { "h", 3600000000 * US }, { "d", 86400000000 * US },
};

int loadthink_parse_time(const char *text, uint64_t unit_ns, uint64_t *out_ns)
{
	const char *p = text;
	while (*p >= '0' && *p <= '9')
		p++;
	if (p == text)
		return -EINVAL;
	if (*p == '.') {
		const char *f = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == f)
			return -EINVAL;
	}
	uint64_t mul = 0;
	if (!*p)
		mul = unit_ns;
	for (size_t i = 0; !mul && i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(p, units[i].name) == 0)
			mul = units[i].ns;
	if (!mul)
		return -EINVAL;
	double v = strtod(text, NULL) * (double)mul;   /* digits and one dot only */
	if (!(v <= (double)LOADTHINK_MAX_NS))
		return -EINVAL;
	*out_ns = (uint64_t)llround(v / (double)US) * US;
	return 0;
}

int loadthink_parse_range(const char *text, uint64_t unit_ns, uint64_t *lo, uint64_t *hi)
{
	char a[64];
	const char *dash = strchr(text, '-');
	size_t n = dash ? (size_t)(dash - text) : strlen(text);
	if (n >= sizeof(a))
		return -EINVAL;
	memcpy(a, text, n);
	a[n] = '\0';
	uint64_t l, h;
	if (loadthink_parse_time(a, unit_ns, &l) < 0)
		return -EINVAL;
	h = l;
	if (dash && (loadthink_parse_time(dash + 1, unit_ns, &h) < 0 || h < l))
		return -EINVAL;
	*lo = l;
	*hi = h;
	return 0;
}

void loadthink_format_time(char *buf, size_t len, uint64_t ns)
{
	static const struct { const char *name; uint64_t ns; } out[] = {
		{ "h", 3600000000 * US }, { "m", 60000000 * US }, { "s", 1000000 * US },
		{ "ms", 1000 * US }, { "us", US },
	};
	for (size_t i = 0; ns && i < sizeof(out) / sizeof(out[0]); i++)
		if (ns % out[i].ns == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(ns / out[i].ns), out[i].name);
			return;
		}
	snprintf(buf, len, "%s", ns ? "?" : "0");   /* never: parse keeps whole us */
}

void loadthink_format_range(char *buf, size_t len, uint64_t lo, uint64_t hi)
{
	char a[32], b[32];
	loadthink_format_time(a, sizeof(a), lo);
	loadthink_format_time(b, sizeof(b), hi);
	if (hi > lo)
		snprintf(buf, len, "%s-%s", a, b);
	else
		snprintf(buf, len, "%s", a);
}

uint64_t loadthink_pick_delay(const struct load_spec *s, uint64_t *rng)
{
	if (s->delay_hi_ns <= s->delay_lo_ns)
		return s->delay_lo_ns;
	return s->delay_lo_ns + stats_rand_range(rng, 0, (s->delay_hi_ns - s->delay_lo_ns) / US) * US;
}

int loadthink_due(const struct load_spec *s, uint64_t calls, uint64_t *last)
{
	uint64_t every = s->think_blocks > 1 ? s->think_blocks : 1;
	if (!s->think_ns || calls - *last < every)
		return 0;
	*last = calls;
	return 1;
}

/* Sleep until the monotonic time due, back early once *stop is set. */
static void sleep_until(uint64_t due, volatile sig_atomic_t *stop)
{
	struct timespec ts = { (time_t)(due / 1000000000ull), (long)(due % 1000000000ull) };
	while (!*stop && now_ns() < due &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

uint64_t loadthink_pause(const struct load_spec *s, volatile sig_atomic_t *stop)
{
	uint64_t t0 = now_ns(), spin = s->think_spin_ns < s->think_ns ? s->think_spin_ns : s->think_ns;
	while (spin && !*stop && now_ns() - t0 < spin)
		;   /* busy: the CPU part of the work */
	sleep_until(t0 + s->think_ns, stop);
	return now_ns() - t0;
}

void loadthink_wait(uint64_t ns, volatile sig_atomic_t *stop)
{
	if (ns)
		sleep_until(now_ns() + ns, stop);
}

double loadthink_max_calls(const struct load_spec *s)
{
	if (!s->think_ns)
		return INFINITY;
	return (double)(s->think_blocks > 1 ? s->think_blocks : 1) / ((double)s->think_ns / 1e9);
}
