#include "msg.h"
#include "text.h"

#include <stdarg.h>
#include <stdio.h>

static void put(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Messages quote what was wrong, which may be untrusted bytes: control
 * characters and invalid UTF-8 become \xHH (text.h) so that printing a
 * message never moves the cursor, sets a terminal title or starts a line.
 * Backslashes stay: a message is read, not parsed. */
static void put(char *buf, size_t len, const char *fmt, va_list ap)
{
	if (!buf || !len)
		return;
	char raw[2048];
	vsnprintf(raw, sizeof(raw), fmt, ap);
	text_escape_flags(buf, len, raw, TEXT_KEEP_BACKSLASH);
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

void msg_first_at(struct msg_first *m, int line, const char *fmt, ...)
{
	if (m->failed)
		return;
	m->failed = 1;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	msg_set(m->buf, m->len, "%s:%d: %s", m->file, line, msg);
}
