/* str — the few string helpers every layer uses (probes is the bottom of the
 * one-way layering, so they live here; nothing in them reads the machine).
 *
 *  str_copy     bounded copy: always NUL-terminated when len > 0, cuts to
 *               fit, NULL src copies "" (strlcpy without the return value)
 *  str_trim     white space (isspace) off both ends, in place; returns the
 *               first kept character
 *  str_in_list  is word one of the space-separated words of list?
 */
#ifndef BRISK_STR_H
#define BRISK_STR_H

#include <stddef.h>

void str_copy(char *dst, size_t len, const char *src);
char *str_trim(char *s);
int str_in_list(const char *list, const char *word);

#endif
