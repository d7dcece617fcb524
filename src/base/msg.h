/* msg — "what went wrong" into a caller's buffer.  Engine functions return
 * 0/-errno and describe a failure in (buf, len) for the command to print.
 * Both functions do nothing to a NULL or empty buffer.
 * The formatted message is made safe to print: control characters (LF
 * included) and invalid UTF-8 become \xHH (text.h, backslashes kept), so
 * an untrusted byte quoted in a message never reaches a terminal raw.  A
 * message is one line of at most 2047 bytes before escaping. */
#ifndef BRISK_MSG_H
#define BRISK_MSG_H

#include <stddef.h>

void msg_set(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* msg_set(), then return rc: `return msg_fail(-EINVAL, err, errlen, ...);` */
int msg_fail(int rc, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The first error of a parse, as "FILE:LINE: message" in (buf, len): a
 * parser keeps one of these and reports through msg_first_at(); later
 * errors are dropped (they are usually consequences of the first). */
struct msg_first {
	const char *file;   /* the name shown for the file */
	char *buf;
	size_t len;
	int failed;         /* set by the first msg_first_at() */
};

void msg_first_at(struct msg_first *m, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
