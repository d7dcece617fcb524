#include "msg.h"

#include <stdarg.h>
#include <stdio.h>

static void put(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void put(char *buf, size_t len, const char *fmt, va_list ap)
{
	if (buf && len)
		vsnprintf(buf, len, fmt, ap);
}

void msg_set(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	put(buf, len, fmt, ap);
	va_end(ap);
}

int msg_fail(int rc, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	put(buf, len, fmt, ap);
	va_end(ap);
	return rc;
}
