/* msg — "what went wrong" into a caller's buffer.  Engine functions return
 * 0/-errno and describe a failure in (buf, len) for the command to print.
 * Both functions do nothing to a NULL or empty buffer. */
#ifndef BRISK_MSG_H
#define BRISK_MSG_H

#include <stddef.h>

void msg_set(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* msg_set(), then return rc: `return msg_fail(-EINVAL, err, errlen, ...);` */
int msg_fail(int rc, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
