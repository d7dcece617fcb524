/* trace — BRISK_DEBUG trace lines on stderr; see trace.h. */
#include "trace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int trace_mask_ = -1;

static const struct {
	const char *name;
	int bit;
} cats[] = {
	{ "probe", TRACE_PROBE },     { "session", TRACE_SESSION },
	{ "journal", TRACE_JOURNAL }, { "lab", TRACE_LAB },
	{ "all", TRACE_ALL },
};

static const char *cat_name(enum trace_cat cat)
{
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (cats[i].bit == (int)cat)
			return cats[i].name;
	return "?";
}

int trace_init(void)
{
	int saved = errno, mask = 0;
	const char *env = getenv("BRISK_DEBUG");
	while (env && *env) {
		size_t n = strcspn(env, ", ");
		int found = n == 0;
		for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]) && !found; i++)
			if (strlen(cats[i].name) == n && strncmp(env, cats[i].name, n) == 0) {
				mask |= cats[i].bit;
				found = 1;
			}
		if (!found) {
			char line[160];
			int w = snprintf(line, sizeof(line), "brisk: BRISK_DEBUG: unknown "
					 "category '%.*s' ignored (known: probe, session, journal, "
					 "lab, all)\n", (int)(n > 32 ? 32 : n), env);
			if (w > 0 && write(2, line, (size_t)w < sizeof(line) ? (size_t)w
					   : sizeof(line) - 1) < 0) {
				/* nowhere to say it */
			}
		}
		env += n;
		env += strspn(env, ", ");
	}
	trace_mask_ = mask;
	errno = saved;
	return mask;
}

void trace_print(enum trace_cat cat, const char *fmt, ...)
{
	int saved = errno;
	char msg[512], line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	int off = snprintf(line, sizeof(line), "brisk[%ld] %s: ", (long)getpid(), cat_name(cat));
	for (const unsigned char *c = (const unsigned char *)msg;
	     *c && off < (int)sizeof(line) - 6; c++) {
		if (*c < ' ' || *c == 0x7f)
			off += snprintf(line + off, sizeof(line) - (size_t)off, "\\x%02x", *c);
		else
			line[off++] = (char)*c;
	}
	line[off++] = '\n';
	if (write(2, line, (size_t)off) < 0) {
		/* a trace that cannot be written is not an error */
	}
	errno = saved;
}
